"""Question by question, tried as a teacher would (issue 27): a class of 12 takes a live round
and an assignment through the bot on the stand-in, and has a week of practice (stored through
the repository, as the class report's tests do); then the live round's report, the assignment's
and ``/class report`` each name every question with its share right and its commonest wrong
answers, lead with the three that went worst, and their figures are the stored answers'
exactly (worked out here from ``focus_answers`` itself). The known mistakes made on purpose are
counted per student and for the class."""

from __future__ import annotations

import csv
import io
import random
import statistics
from collections import Counter
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

from test_cog_class_assign import BUTTON, DUE, play
from test_cog_class_assign import moment as moment  # the fixture, shared
from test_cog_focus_live import SEED, live_bot

from bot.focus import generate_questions
from bot.focus.misconceptions import evaluate, tokens
from bot.play.focus_live import NEXT_DELAY
from bot.texts import skill_name
from db import FocusAnswer

NAMES = ["Ana", "Béa", "=Cy", "Dan *bold*", "Eve", "Fio", "Gus", "Hana", "Ivo", "Jade", "Kim",
         "Léo"]
#: The week's practice: (skill, text, form, right answer, the known mistake's answer, its name).
PRACTICE = [
    ("fractions-add", "1/2 + 1/3", "fraction", Fraction(5, 6), Fraction(2, 5),
     "numerators and denominators added across"),
    ("negatives-subtract", "−3 − 5", "whole", -8, 2, "a sign error with negatives"),
    ("decimals-multiply", "0.3 × 0.2", "decimal", Fraction(6, 100), Fraction(6, 10),
     "the decimal point misplaced"),
    ("priority", "2 + 3 × 4", "whole", 14, 20, "worked left to right instead of × and ÷ first"),
    ("percentages", "10 % × 190", "whole", 19, Fraction(19, 10), "divided by 100 and stopped"),
]
LEFT_TO_RIGHT = "worked left to right instead of × and ÷ first"


def wrong_for(question: Any) -> tuple[int, str | None]:
    """A wrong answer to a question of priorities: left to right when that differs (a known
    mistake), else one more (none)."""
    shown = evaluate(tokens(question.text) or [], priority=False)
    if shown is not None and shown != question.answer and shown.denominator == 1:
        return int(shown), LEFT_TO_RIGHT
    return question.answer + 1, None


def shown(value: Any, form: str | None) -> str:
    v = Fraction(value)
    text = str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    if form == "decimal" or (form in (None, "whole") and v.denominator != 1):
        # The report writes a decimal question's answers as decimals, and a whole question's
        # answer that is not whole (here every such one is a decimal).
        text = str(float(v)).replace("-", "−")
    return text.replace("-", "−")


def expected_rows(answers: list[FocusAnswer], key: Any, label: Any) -> list[list[str]]:
    """The questions' CSV rows (rank, number, text, answers, students, right, share, median,
    commonest wrong answers) worked out from the stored answers."""
    by: dict[Any, list[FocusAnswer]] = {}
    for a in answers:
        by.setdefault(key(a), []).append(a)
    rows = []
    for k, got in by.items():
        wrong: dict[Any, set[int]] = {}
        counts: Counter[Any] = Counter()
        for a in got:
            if not a.correct:
                wrong.setdefault(a.given, set()).add(a.user_id)
                counts[a.given] += 1
        commonest = sorted(wrong, key=lambda v: (-len(wrong[v]), -counts[v], Fraction(v)))[:3]
        right = sum(a.correct for a in got)
        rows.append((k, len(got), right / len(got), [
            label(k), got[0].question, str(len(got)), str(len({a.user_id for a in got})),
            str(right), f"{100 * right / len(got):.1f}",
            f"{statistics.median(a.time_ms for a in got) / 1000:.1f}"],
            [f"{shown(v, got[0].form)} ({len(wrong[v])} student{'s' if len(wrong[v]) > 1 else ''})"
             for v in commonest]))
    return rows


def check(sheet: bytes, rows: list[Any], order: list[Any]) -> list[list[str]]:
    """The CSV against the rows: the three worst first (rank 1–3), then the rest in
    ``order``; each figure as worked out; the wrong answers' values and students."""
    lines = list(csv.reader(io.StringIO(sheet.decode("utf-8-sig"))))[1:]
    worst = sorted(rows, key=lambda r: (r[2], -r[1], order.index(r[0])))[:3]
    rest = [r for k in order for r in rows if r[0] == k and r not in worst]
    want = [*worst, *rest]
    assert len(lines) == len(want)
    for n, (line, row) in enumerate(zip(lines, want, strict=True), 1):
        assert line[0] == (str(n) if n <= 3 else "")
        figures = row[3]
        assert [line[1], line[2], *line[5:10]] == figures, (line, figures)
        given = [w for w in line[10:13] if w]
        assert [w.split(":")[0] for w in given] == row[4]
    return lines


async def test_a_class_of_12_every_report_question_by_question(standin, start_bot, moment,
                                                                 clock):
    bot, wall = await live_bot(start_bot)
    guild = standin.guild.id
    teacher = standin.add_member("Mme Roux", teacher=True)
    students = [standin.add_member(name) for name in NAMES]
    made: Counter[tuple[int, str]] = Counter()  # (student, mistake) made on purpose

    # --- A live round of three questions (priorities), through the bot.
    asked = generate_questions(6, 3, random.Random(SEED))
    message = (await standin.slash(teacher, "focus live", count=3, level=6)).reply
    for j, question in enumerate(asked):
        for i, member in enumerate(students):
            wall.now += 0.3 + 0.2 * (i % 4)
            if (i + j) % 3 == 0:
                typed, mistake = wrong_for(question)
                if mistake:
                    made[(member.id, mistake)] += 1
            else:
                typed = question.answer
            opened = await standin.click(member, message, label="Answer")
            await standin.submit_modal(member, opened, {"answer": str(typed)})
        wall.now += 30
        await bot.get_cog("Focus").flow.run_due_live()
        if j < len(asked) - 1:
            wall.now += NEXT_DELAY
            await bot.get_cog("Focus").flow.run_due_live()
            message = await standin.wait_for_message(after=message)
    final = await standin.wait_for_message(lambda m: "final ranking" in m.text(), after=message)
    report = await standin.click(teacher, final, label="Report (teacher)")
    files = {a.filename: a.data for m in report.messages for a in m.attachments}
    live = await bot.db.focus.answers_of_round(guild, "live:1")
    assert len(live) == 36
    rows = expected_rows(live, lambda a: a.question_no, lambda k: str(k + 1))
    lines = check(files["live-1-questions.csv"], rows, [0, 1, 2])
    assert {line[8] for line in lines} == {"66.7"}  # 8 of 12 right each
    assert files["live-1-questions.png"].startswith(b"\x89PNG")

    # --- An assignment of three questions, taken by all twelve through the bot.
    post = (await standin.slash(teacher, "class assign", name="Priorities", due=DUE, level=6,
                                count=3)).reply
    stored = await bot.db.assignments.get(guild, "Priorities")
    homework = list(stored.questions)
    for i, member in enumerate(students):
        typed = []
        for j, q in enumerate(homework):
            if (i + 2 * j) % 4 == 0:
                value, mistake = wrong_for(SimpleNamespace(text=q["text"], answer=q["answer"]))
                typed.append(value)
                if mistake:
                    made[(member.id, mistake)] += 1
            else:
                typed.append(q["answer"])
        window = (await standin.click(member, post, label=BUTTON)).reply
        await play(standin, member, window, typed, clock, seconds=1.0 + i % 5)
    record = await standin.slash(teacher, "class report", assignment="Priorities")
    files = {a.filename: a.data for a in record.reply.attachments}
    number = stored.assignment_id
    done = await bot.db.focus.answers_of_round(guild, f"assignment:{number}")
    assert len(done) == 36
    rows = expected_rows(done, lambda a: a.question_no, lambda k: str(k + 1))
    check(files[f"assignment-{number}-questions.csv"], rows, [0, 1, 2])

    # --- A week of practice, each day every student answers the five questions; the known
    # mistake on some of them.
    today = datetime.now(UTC).replace(hour=12, minute=0, second=0, microsecond=0)
    week = []
    for days_ago in range(1, 8):
        for i, member in enumerate(students):
            for k, (skill, text, form, right, wrong, mistake) in enumerate(PRACTICE):
                miss = (i + k + days_ago) % 5 == 0
                if miss:
                    made[(member.id, mistake)] += 1
                week.append(FocusAnswer(
                    guild, member.id, skill.split("-")[0], 6, text, right,
                    wrong if miss else right, 1000 + 250 * ((i + k) % 7), skill=skill,
                    form=None if form == "whole" else form,
                    answered_at=today - timedelta(days=days_ago, minutes=i)))
    await bot.db.focus.record_many(week)
    record = await standin.slash(teacher, "class report", period="all")
    files = {a.filename: a.data for a in record.reply.attachments}
    day = datetime.now(UTC).date().isoformat()
    everything = [a for m in students
                  for a in await bot.db.focus.recent(guild, m.id, limit=10_000)]
    assert len(everything) == 36 + 36 + 7 * 12 * 5
    rows = expected_rows(everything, lambda a: (a.skill or a.topic, a.question),
                         lambda k: "")
    # Without a number, the questions come most answered first (then by text).
    order = [r[0] for r in sorted(rows, key=lambda r: (-r[1], r[3][1]))]
    lines = check(files[f"questions-{day}.csv"], rows, order)
    texts = {line[2] for line in lines}
    assert {text for _, text, *_ in PRACTICE} <= texts
    assert {q.text for q in asked} | {q["text"] for q in homework} <= texts
    # The practice questions' commonest wrong answer is their known mistake, named.
    for _, text, _, _, _, mistake in PRACTICE:
        [line] = [line for line in lines if line[2] == text]
        assert line[10].endswith(f": {mistake}"), line

    mistakes = list(csv.reader(io.StringIO(files[f"mistakes-{day}.csv"].decode("utf-8-sig"))))
    names = {m.id: m.name for m in students}
    per_student = Counter({(row[0], row[1]): int(row[2]) for row in mistakes[1:]
                           if row[0] != "Whole class"})
    assert per_student == Counter({(("'=Cy" if names[uid] == "=Cy" else names[uid]), what): n
                                   for (uid, what), n in made.items()})
    total: Counter[str] = Counter()
    for (_, what), n in made.items():
        total[what] += n
    assert {row[1]: int(row[2]) for row in mistakes[1:] if row[0] == "Whole class"} == total
    assert files[f"questions-{day}.png"].startswith(b"\x89PNG")

    # --- One student's page: Ana's weeks, skills, known mistakes and the assignment.
    ana = students[0]
    record = await standin.slash(teacher, "class report", period="all", student=ana)
    assert record.reply.ephemeral and record.reply.text().startswith("One student’s page: Ana")
    files = {a.filename: a.data for a in record.reply.attachments}
    assert files["student.png"].startswith(b"\x89PNG")
    lines = list(csv.reader(io.StringIO(files[f"student-{day}.csv"].decode("utf-8-sig"))))
    assert lines[0] == ["Section", "What", "Figure", "Detail"]
    mine = [a for a in everything if a.user_id == ana.id]
    weeks: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for a in mine:
        monday = (a.answered_at.date() - timedelta(days=a.answered_at.weekday())).isoformat()
        weeks[monday] += 1
        right[monday] += a.correct
    assert {line[1]: (int(line[2]), line[3]) for line in lines if line[0] == "Week (Monday)"} \
        == {w: (n, f"{100 * right[w] / n:.1f}") for w, n in weeks.items()}
    assert {line[1]: int(line[2]) for line in lines if line[0] == "Known mistake"} == {
        what: n for (uid, what), n in made.items() if uid == ana.id}
    score = sum(a.correct for a in done if a.user_id == ana.id)
    assert [line[1:] for line in lines if line[0] == "Assignment"] == [
        ["Priorities", "done", f"{score}/3"]]
    # Mastery by skill, named as members read skills (never an id): the five skills practised
    # and the priorities of the round and the assignment.
    levels = await bot.db.mastery.skill_levels(guild, [ana.id])
    assert {s.skill for s in levels} == {skill for skill, *_ in PRACTICE}
    names = {"Mastered", "Proficient", "Familiar", "Attempted"}
    mastery = {line[1]: line[2] for line in lines if line[0] == "Mastery"}
    assert set(mastery) == {skill_name(s.skill, "en") for s in levels}
    assert set(mastery.values()) <= names
    assert not set(mastery) & {s.skill for s in levels}
