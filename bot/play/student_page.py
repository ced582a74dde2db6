"""One student on one page (``/class report student:``): their answers week by week, their
mastery of each skill, their known mistakes and their assignments, as a picture
(``images.render_student_page``) and a CSV: the page a teacher prints for a parents' meeting.

Read from the stored answers of the period (weeks start on Monday, in the server's time zone),
the mastery model's levels (all time, as ``/class report``) and the server's assignments.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from bot import spreadsheet
from bot.focus.mastery import LEVEL_NAMES
from bot.focus.question_stats import Given, mistakes
from bot.play.class_report import PERIOD_DAYS, check_period
from bot.play.focus import local_day
from bot.texts import decimal_symbol, skill_name, t
from db import Database
from db.assignments import round_key


@dataclass(frozen=True)
class Week:
    monday: date
    answers: int
    right: int


@dataclass(frozen=True)
class Homework:
    name: str
    due: datetime
    size: int
    status: str  # "done", "started", "missing"
    score: int | None


@dataclass(frozen=True)
class StudentPage:
    user_id: int
    name: str
    period: str
    first_day: date | None
    today: date
    weeks: tuple[Week, ...]
    skills: tuple[tuple[str, int, int], ...]  # (skill, level, mastery), by skill
    mistakes: tuple[tuple[str, int], ...]  # (mistake, times), the most made first
    homework: tuple[Homework, ...]


async def pseudonym_rank(db: Database, guild_id: int, user_id: int) -> int:
    """The student's number as ``/class report pseudonym:`` numbers them (by first answer on the
    server), so that one student's page and the class report call them the same."""
    order = await db.class_report.first_answers(guild_id)
    return order.index(user_id) + 1 if user_id in order else len(order) + 1


async def student_page(db: Database, guild_id: int, user_id: int, name: str, period: str,
                       now: datetime | None = None) -> StudentPage:
    check_period(period)
    settings = await db.servers.get(guild_id)
    zone = settings.tz()
    now = now or datetime.now(zone)
    today = local_day(settings, now)
    days = PERIOD_DAYS[period]
    first_day = None if days is None else today - timedelta(days=days - 1)
    since = None if first_day is None else datetime.combine(first_day, time(), zone)
    offset = zone.utcoffset(now.replace(tzinfo=None))
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    rows = await db.focus.progress(guild_id, user_id, by="week", since=since,
                                   utc_offset_minutes=minutes)
    per_week: dict[date, list[int]] = {}
    for row in rows:
        if row.period is not None:
            got = per_week.setdefault(row.period, [0, 0])
            got[0] += row.answers
            got[1] += row.correct
    weeks = tuple(Week(monday, a, r) for monday, (a, r) in sorted(per_week.items()))
    skills = tuple(sorted(((s.skill, s.level, s.mastery)
                           for s in await db.mastery.skill_levels(guild_id, [user_id])),
                          key=lambda s: s[0]))
    recent = await db.class_report.recent_answers(guild_id, since=since, user_id=user_id)
    found = mistakes(Given(a.user_id, a.question, a.question, a.skill, a.form, a.expected,
                           a.given, a.correct, a.time_ms) for a in recent).total
    homework = []
    for assignment in await db.assignments.of_server(guild_id):
        attempt = await db.assignments.attempt(assignment.assignment_id, user_id)
        status = "missing" if attempt is None else (
            "done" if attempt.finished_at is not None else "started")
        if status == "missing" and assignment.role_id is not None:
            continue  # for a role: the page cannot tell whether it was theirs to do
        size = assignment.count
        if assignment.goal is not None and attempt is not None:
            # With a goal (bot.focus.goals) the score is the right answers of those given.
            size = len(await db.focus.round_answers(guild_id, user_id,
                                                    round_key(assignment.assignment_id)))
        homework.append(Homework(assignment.name, assignment.due_at, size, status,
                                 None if attempt is None else attempt.score))
    return StudentPage(user_id, name, period, first_day, today, weeks, skills,
                       tuple(sorted(found.items(), key=lambda m: (-m[1], m[0]))),
                       tuple(homework))


def page_csv(page: StudentPage, lang: str) -> bytes:
    """One row per figure: section, what, then its figures (the same dialect as the class
    report's CSV)."""
    out = io.StringIO()
    writer = spreadsheet.writer(out, lang)
    point = decimal_symbol(lang)
    writer.writerow([t(f"reports.student.csv.{c}", lang)
                     for c in ("section", "item", "value", "detail")])
    for w in page.weeks:
        share = f"{100 * w.right / w.answers:.1f}".replace(".", point) if w.answers else ""
        writer.writerow([t("reports.student.csv.activity", lang), w.monday.isoformat(),
                         w.answers, share])
    for skill, level, mastery in page.skills:
        writer.writerow([t("reports.student.csv.mastery", lang), skill_name(skill, lang),
                         t(f"mastery.level.{LEVEL_NAMES[mastery]}", lang), level])
    for name, count in page.mistakes:
        writer.writerow([t("reports.student.csv.mistakes", lang),
                         t(f"misconceptions.{name}", lang), count, ""])
    for h in page.homework:
        writer.writerow([t("reports.student.csv.homework", lang), h.name,
                         t(f"class.assign.csv.{h.status}", lang),
                         "" if h.score is None else f"{h.score}/{h.size}"])
    return out.getvalue().encode("utf-8-sig")


def csv_name(page: StudentPage, lang: str) -> str:
    return t("reports.student.file", lang, day=page.today.isoformat())

