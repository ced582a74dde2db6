"""The class's weekly digest (``/class digest``, ``/settings class digest:``): what a teacher reads
once a week without asking. No Discord: ``bot.ui.digest`` shows what these return.

Decisions:

- **The week** is the 7 local days ending with the day it is posted (the server's time zone).
- **Who practised**: every member with an answer that week (their answers and share right, from
  the class report's rollups); **who did not**: the members Ardoise knows on the server (those
  who have used it) without one (the caller keeps those still members and not teachers, as the
  assignment report does: Ardoise sees no member list).
- **The mastery that moved**: for each skill, how many of the week's students went up (a higher
  level of it, or a better mastery at the same level) and how many down, their answers before
  the week against all of them (``db.mastery.skills_then_and_now``: the model is worked out
  again from the answers, so both sides are measured alike).
- **The topics whose results moved**: the topics whose share of right answers went up or down by
  ``MOVED`` points or more from the 7 days before to this week, each week with at least
  ``MIN_ANSWERS`` answers (the class's, not one student's).
- **The assignments**: those due from the week's first day to 7 days after it is posted (the
  week's, and the next week's), with how many have done them and how many are in progress.
- **The mistakes**: the known mistakes (``bot.focus.misconceptions``) in the week's answers, the
  commonest first.
- **Once on its day**: a server's digest is due on its weekday from its hour on, until the end
  of that local day (a bot stopped all that day does not post it late); the day is claimed in the
  database before posting.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from bot.domain import DomainError
from bot.focus.mastery import FAMILIAR
from bot.focus.question_stats import Given, mistakes
from bot.play.assignments import Assignment
from bot.play.focus import local_day
from bot.shards import Owner, every_server
from db import Database
from db.class_report import Tally
from db.digests import DigestSettings
from db.mastery import SkillLevel

DAYS = 7
#: Points of share right (percentage points) a topic must move by to be named.
MOVED = 10
#: Answers a topic needs in each of the two weeks to be compared.
MIN_ANSWERS = 5
#: The default day (Friday) and hour of ``/settings class digest:``.
DEFAULT_WEEKDAY, DEFAULT_HOUR = 4, 17

__all__ = ["DEFAULT_HOUR", "DEFAULT_WEEKDAY", "DigestSettings"]


@dataclass(frozen=True)
class Practised:
    user_id: int
    answers: int
    right: int


@dataclass(frozen=True)
class Moved:
    topic: str
    before: float  # share right, 0–1, the 7 days before
    now: float  # this week


@dataclass(frozen=True)
class MasteryMoved:
    """A skill whose mastery moved this week: how many of the students who practised it reached
    a higher level of it or a better mastery at the same level (``up``), and how many the reverse
    (``down``), from their answers before the week to all of them."""

    skill: str
    up: int
    down: int


def mastery_moves(then_and_now: Mapping[int, tuple[Mapping[str, SkillLevel],
                                                   Mapping[str, SkillLevel]]]
                  ) -> list[MasteryMoved]:
    """The skills that moved, the most students moved first. A skill met for the first time
    this week counts as up once it is at least familiar (a first try is not progress yet)."""
    up: dict[str, int] = {}
    down: dict[str, int] = {}
    for then, now in then_and_now.values():
        for skill, after in now.items():
            before = then.get(skill)
            was = (0, 0) if before is None else (before.level, before.mastery)
            if before is None and after.mastery < FAMILIAR:
                continue
            if (after.level, after.mastery) > was:
                up[skill] = up.get(skill, 0) + 1
            elif (after.level, after.mastery) < was:
                down[skill] = down.get(skill, 0) + 1
    skills = set(up) | set(down)
    return sorted((MasteryMoved(s, up.get(s, 0), down.get(s, 0)) for s in skills),
                  key=lambda m: (-(m.up + m.down), m.skill))


@dataclass(frozen=True)
class WeekDigest:
    guild_id: int
    first_day: date
    last_day: date
    practised: list[Practised]  # the most answers first
    idle: list[int]  # known players without an answer this week
    moved: list[Moved]
    mastery: list[MasteryMoved]
    due: list[Assignment]  # the soonest due first
    mistakes: list[tuple[str, int]]  # the commonest first
    order: list[int]  # the pseudonyms' order (by first answer on the server)
    pseudonym: bool

    @property
    def empty(self) -> bool:
        """No answer and no assignment due: the week is said in one line."""
        return not self.practised and not self.due


async def week_digest(db: Database, guild_id: int, now: datetime, *, pseudonym: bool = False
                      ) -> WeekDigest:
    settings = await db.servers.get(guild_id)
    zone = settings.tz()
    today = local_day(settings, now)
    first = today - timedelta(days=DAYS - 1)
    since = datetime.combine(first, time(), zone)
    week = await db.class_report.tallies(guild_id, since=since)
    fortnight = await db.class_report.tallies(guild_id, since=since - timedelta(days=DAYS))
    per_student: dict[int, Tally] = {}
    per_topic: dict[str, Tally] = {}
    for row in week:
        per_student[row.user_id] = per_student.get(row.user_id, Tally.empty()) + row.tally
        per_topic[row.topic] = per_topic.get(row.topic, Tally.empty()) + row.tally
    earlier: dict[str, Tally] = {}
    for row in fortnight:
        earlier[row.topic] = earlier.get(row.topic, Tally.empty()) + row.tally
    moved: list[Moved] = []
    for topic, now_tally in sorted(per_topic.items()):
        before = earlier[topic] - now_tally
        if now_tally.answers >= MIN_ANSWERS and before.answers >= MIN_ANSWERS:
            share, old = now_tally.correct / now_tally.answers, before.correct / before.answers
            if abs(share - old) * 100 >= MOVED:
                moved.append(Moved(topic, old, share))
    practised = sorted((Practised(uid, t.answers, t.correct) for uid, t in per_student.items()
                        if t.answers), key=lambda p: (-p.answers, p.user_id))
    busy = {p.user_id for p in practised}
    idle = [uid for uid in await db.assignments.known_players(guild_id) if uid not in busy]
    end = now + timedelta(days=DAYS)
    due = sorted((a for a in await db.assignments.of_server(guild_id)
                  if since <= a.due_at < end and a.message_id is not None),
                 key=lambda a: (a.due_at, a.assignment_id))
    recent = await db.class_report.recent_answers(guild_id, since=since)
    found = mistakes(Given(a.user_id, a.question, a.question, a.skill, a.form, a.expected,
                           a.given, a.correct, a.time_ms) for a in recent).total
    order = await db.class_report.first_answers(guild_id) if pseudonym else []
    mastery = mastery_moves(await db.mastery.skills_then_and_now(guild_id, busy, since))
    return WeekDigest(guild_id, first, today, practised, idle, moved, mastery, due,
                      sorted(found.items(), key=lambda m: (-m[1], m[0])), order, pseudonym)


# --- Where and when ------------------------------------------------------------------------------


def check_when(weekday: int, hour: int) -> None:
    if not (0 <= weekday <= 6 and 0 <= hour <= 23):
        raise DomainError("digest.bad_when", "a day of the week and an hour 0 to 23",
                          weekday=weekday, hour=hour)


async def set_digest(db: Database, guild_id: int, channel_id: int, weekday: int, hour: int,
                     pseudonym: bool) -> DigestSettings:
    check_when(weekday, hour)
    return await db.digests.save(guild_id, channel_id, weekday, hour, pseudonym)


async def digest_off(db: Database, guild_id: int) -> bool:
    return await db.digests.delete(guild_id)


async def digest_settings(db: Database, guild_id: int) -> DigestSettings | None:
    return await db.digests.get(guild_id)


async def due_digests(db: Database, now: datetime, owns: Owner = every_server
                      ) -> list[tuple[DigestSettings, date]]:
    """The digests due now (their day, from their hour on) and not yet posted that day, of the
    servers this process ``owns``; each with its local day (what ``claim`` takes)."""
    due: list[tuple[DigestSettings, date]] = []
    for digest in await db.digests.every():
        if not owns(digest.guild_id):
            continue
        local = now.astimezone((await db.servers.get(digest.guild_id)).tz())
        day = local.date()
        if (local.weekday() == digest.weekday and local.hour >= digest.hour
                and (digest.posted_for is None or digest.posted_for < day)):
            due.append((digest, day))
    return due


async def claim(db: Database, guild_id: int, day: date) -> bool:
    """Whether this process posts the digest of ``day`` (once: the database decides)."""
    return await db.digests.claim(guild_id, day)


async def release(db: Database, guild_id: int, day: date, before: date | None) -> None:
    await db.digests.release(guild_id, day, before)
