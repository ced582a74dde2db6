"""The question-level part of the teacher's reports (live round, assignment, ``/class report``):
the figures of ``bot.focus.question_stats`` as the picture (``images.render_question_report``)
and the CSV show them, in the teacher's language.

A question's text is a teacher's own for a question set: the picture draws it as typed (a
picture renders no mention or link) and the CSV goes through ``bot.spreadsheet`` (no cell runs
as a formula).
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Sequence
from typing import Any

from bot import spreadsheet
from bot.focus.question_stats import Mistakes, QuestionStat, Wrong, answer_text, worst
from bot.play.class_report import ClassReport, mistakes_csv
from bot.texts import decimal, decimal_symbol, image_words, question_text, skill_name, t
from images.question_report import MAX_MISTAKES, MAX_ROWS, render_question_report


def mistake_name(mistake: str, lang: str) -> str:
    return t(f"misconceptions.{mistake}", lang)


def wrong_text(wrong: Wrong, form: str, lang: str) -> str:
    """``4/8 (7 students) — adding the numerators and the denominators``."""
    given = t("reports.no_answer", lang) if wrong.given is None else answer_text(
        wrong.given, form, decimal_symbol(lang))
    text = t("reports.wrong", lang, given=given,
             students=t("reports.students", lang, count=wrong.students))
    if wrong.mistake is not None:
        text = t("reports.wrong_mistake", lang, wrong=text,
                 mistake=mistake_name(wrong.mistake, lang))
    return text


def label(stat: QuestionStat, lang: str) -> str:
    return "" if stat.number is None else t("reports.number", lang, n=stat.number)


def _row(stat: QuestionStat, lang: str) -> dict[str, Any]:
    return {"label": label(stat, lang), "text": question_text(stat.text, lang),
            "answers": str(stat.answers),
            "share": stat.share,
            "median": t("reports.seconds", lang, seconds=decimal(stat.median_ms / 1000, lang)),
            "wrong": [wrong_text(w, stat.form, lang) for w in stat.wrong]}


def picture(stats: Sequence[QuestionStat], title: str, subtitle: str, lang: str,
            shown: Sequence[QuestionStat] | None = None) -> dict[str, Any]:
    """The picture's data: the three worst of ``stats``, then ``shown`` (default: ``stats``),
    at most ``MAX_ROWS`` of them (the rest said in one line)."""
    listed = list(stats if shown is None else shown)
    more = len(listed) - MAX_ROWS
    return {"title": title, "subtitle": subtitle,
            "worst": [_row(s, lang) for s in worst(stats)],
            "questions": [_row(s, lang) for s in listed[:MAX_ROWS]],
            "more": t("reports.more", lang, count=more) if more > 0 else ""}


def png(stats: Sequence[QuestionStat], title: str, subtitle: str, lang: str,
        shown: Sequence[QuestionStat] | None = None) -> bytes:
    return render_question_report(picture(stats, title, subtitle, lang, shown),
                                  image_words(lang))


def questions_csv(stats: Sequence[QuestionStat], lang: str) -> bytes:
    """One row per question, the worst three first (their rank in the first column), then the
    others in order: number, text, skill, answers, students, right, share right %, median time
    (s), and the commonest wrong answers (up to three, each with its students and known
    mistake). UTF-8 with a BOM; French: ``;`` and a decimal comma."""
    out = io.StringIO()
    writer = spreadsheet.writer(out, lang)
    writer.writerow([t(f"reports.csv.{column}", lang) for column in
                     ("worst", "number", "question", "skill", "expected", "answers",
                      "students", "right", "share", "median", "wrong_1", "wrong_2",
                      "wrong_3")])
    point = decimal_symbol(lang)
    bad = worst(stats)
    rank = {id(s): n for n, s in enumerate(bad, 1)}
    for stat in [*bad, *(s for s in stats if id(s) not in rank)]:
        wrong = [wrong_text(w, stat.form, lang) for w in stat.wrong]
        writer.writerow([
            rank.get(id(stat), ""), "" if stat.number is None else stat.number,
            question_text(stat.text, lang),
            skill_name(stat.skill, lang),
            answer_text(stat.expected, stat.form, point), stat.answers, stat.students,
            stat.right, f"{100 * stat.share:.1f}".replace(".", point),
            f"{stat.median_ms / 1000:.1f}".replace(".", point),
            *wrong, *[""] * (3 - len(wrong))])
    return out.getvalue().encode("utf-8-sig")


def mistake_lines(found: Mistakes, lang: str, limit: int = MAX_MISTAKES) -> list[str]:
    """The commonest known mistakes, each with how many times and how many students made it."""
    students: Counter[str] = Counter()
    for per in found.by_student.values():
        students.update(per.keys())
    ranked = sorted(found.total.items(), key=lambda m: (-m[1], m[0]))[:limit]
    return [t("reports.mistake_line", lang, mistake=mistake_name(name, lang),
              times=t("reports.times", lang, count=count),
              students=t("reports.students", lang, count=students[name]))
            for name, count in ranked]


def class_files(report: ClassReport, lang: str, period: str
                ) -> tuple[tuple[str, bytes, str], ...]:
    """The question-level files of ``/class report``: the picture (the most answered questions
    of the answers read, the worst three of those first, the known mistakes), the questions'
    CSV and the known mistakes' CSV (per student, then the class). Slow: run it in a thread."""
    stats = list(report.questions)
    title = t("reports.class_title", lang, period=period)
    subtitle = t("reports.class_subtitle", lang, shown=len(stats),
                 questions=t("reports.questions", lang, count=report.question_count),
                 answers=t("reports.answers", lang, count=report.answers_read))
    data = picture(stats, title, subtitle, lang)
    data["mistakes"] = mistake_lines(report.mistakes, lang)
    day = report.today.isoformat()
    return ((f"questions-{day}.png", render_question_report(data, image_words(lang)), title),
            (t("reports.questions_file", lang, name=day), questions_csv(stats, lang),
             t("alt.csv", lang, what=title)),
            (t("reports.mistakes_file", lang, name=day), mistakes_csv(report, lang),
             t("alt.csv", lang, what=t("images.question_report.section_mistakes", lang))))
