"""One student's page as a picture (``images.render_student_page``): the words of
``bot.play.student_page``'s figures in the teacher's language."""

from __future__ import annotations

from datetime import date

from bot.focus.mastery import LEVEL_NAMES
from bot.play.student_page import StudentPage
from bot.texts import SHORT_DAY, date_text, image_words, skill_name, t
from images.student_page import render_student_page


def _week(monday: date, lang: str) -> str:
    return t("reports.student.week", lang, day=date_text(monday, lang, SHORT_DAY))


def picture_data(page: StudentPage, lang: str) -> dict[str, object]:
    return {
        "title": t("reports.student.title", lang, name=page.name),
        "subtitle": t(f"class.periods.{page.period}", lang),
        "weeks": [{"label": _week(w.monday, lang), "answers": w.answers,
                   "share": w.right / w.answers if w.answers else 0.0} for w in page.weeks],
        "skills": [{"label": skill_name(skill, lang), "mastery": mastery,
                    "text": t(f"mastery.level.{LEVEL_NAMES[mastery]}", lang)}
                   for skill, _, mastery in page.skills],
        "mistakes": [t("reports.mistake_times", lang, mistake=t(f"misconceptions.{m}", lang),
                       times=t("reports.times", lang, count=n)) for m, n in page.mistakes],
        "homework": [t(f"reports.student.homework_{h.status}", lang, name=h.name,
                       due=date_text(h.due, lang, SHORT_DAY),
                       score="" if h.score is None else h.score, size=h.size)
                     for h in page.homework],
    }


def png(page: StudentPage, lang: str) -> bytes:
    return render_student_page(picture_data(page, lang), image_words(lang))


