"""Placement's use cases (issue 26): the offer to a new student, skipping it, a placement begun
or resumed, each answer (stored like a practice answer, the state saved, the next question
drawn), the level it chooses set as the member's Focus level, and the class's results.

The engine is ``bot.focus.placement`` (the staircase, when it stops, the level it gives); this
module keeps its state in ``db.placements`` (one row per member: skipped, running, finished), so
that a restart goes on where it stopped. No Discord.

Who is offered one: a member with no Focus answer yet in the server, on a server with a school
year (``/settings focus school_year``), whose level no teacher pinned (nor narrowed to one level),
and who has no placement
row (skipped, running or finished: the offer is made once). A running one is offered again, to
go on with. ``/focus placement`` takes one again on purpose: at most once every
``RETAKE_DAYS`` days after the last finished (so that a student cannot farm their level), and
never at a pinned level. A teacher's class post (``/class placement``) starts one for any
student who has not finished one since the post.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.domain import DomainError
from bot.focus import Answer
from bot.focus.mastery import Mastery
from bot.focus.placement import Placement
from bot.focus.school import YEARS
from bot.play import students
from bot.play.focus import practice_year, record_answer
from db import Database, FocusAnswer
from db.placements import PlacementRow
from db.students import StudentSettings

#: The prefix of a placement's answers' round in ``focus_answers`` (``placement:<token>``).
ROUND_PREFIX = "placement:"
#: ``/focus placement`` taken again: at most once in this many days after the last one finished.
RETAKE_DAYS = 7

#: Why a placement starts: the student's own offer ("offer"), ``/focus placement`` ("again"),
#: a teacher's class post ("class", with the post's time).
REASONS = ("offer", "again", "class")


async def offered(db: Database, guild_id: int, user_id: int) -> str | None:
    """Whether ``/focus practice`` offers the member a placement first (see the module's
    docstring): "new", "running" (one to go on with), or None. Nothing is read on a server
    without a school year (its settings are kept in memory); else one hop."""
    settings = await db.servers.get(guild_id)
    if settings.focus_school_year is None or settings.focus_level_pinned is not None:
        return None
    reads = await db.placements.for_offer(guild_id, user_id)
    row = reads.row
    own = StudentSettings(guild_id, user_id, level_min=reads.level_min,
                          level_max=reads.level_max, level_pinned=reads.pinned)
    levels = students.focus_rules(settings, own)
    if levels.pinned is not None or levels.low == levels.high:
        return None  # nothing to find: one level only
    if row is not None and row.status == "running":
        return "running"
    if reads.answered or row is not None:
        return None
    year = reads.school_year or settings.focus_school_year
    return "new" if year in YEARS else None


async def skip(db: Database, guild_id: int, user_id: int, now: datetime) -> None:
    """Practise without a placement: not offered again (a running one ends unfinished)."""
    await db.placements.skip(guild_id, user_id, now)


@dataclass(frozen=True)
class PlacementRun:
    """A placement as its window holds it: the engine's state and the row's version."""

    placement: Placement
    version: int
    round_key: str
    #: The school year its questions come from (None: the eight levels' questions).
    year: str | None
    time_factor: float | None = 1.0
    model: Mastery | None = None


def _refuse_finished(row: PlacementRow) -> DomainError:
    return DomainError("placement.already_done", "this placement was taken already",
                       level=row.level or 1)


async def begin(db: Database, guild_id: int, user_id: int, seed: int, now: datetime,
                reason: str = "offer", posted: datetime | None = None,
                when_text: Callable[[datetime, ZoneInfo], str] | None = None) -> PlacementRun:
    """The member's placement: the running one resumed where it stopped (its current question
    again), else a new one. Refused: a pinned level (``placement.pinned``); from the offer, a
    placement already finished (``placement.already_done``); ``again`` within ``RETAKE_DAYS`` of
    the last one (``placement.too_soon``, the moment it may be taken again said by
    ``when_text`` in the server's time zone); from a class post (``posted``: its time), a
    placement finished since the post."""
    if reason not in REASONS:
        raise ValueError(f"a placement starts from one of {REASONS}, not {reason!r}")
    read = await db.focus.for_round(guild_id, user_id, now, make_player=True)
    rules = students.focus_rules(read.settings, read.student)
    if rules.pinned is not None:
        raise DomainError("placement.pinned", "the teacher pinned the level", level=rules.pinned)
    year = practice_year(read.settings, read.student)
    row = await db.placements.get(guild_id, user_id)
    if row is not None and row.status == "running" and row.state is not None:
        placement = Placement.from_json(row.state)
        if row.round_key is not None and not placement.done:
            return PlacementRun(placement, row.version, row.round_key, year,
                                read.student.time_factor, read.mastery)
    if row is not None and row.status == "finished" and row.finished_at is not None:
        if reason == "offer":
            raise _refuse_finished(row)
        if reason == "class" and posted is not None and row.finished_at >= posted:
            raise _refuse_finished(row)
        next_time = row.finished_at + timedelta(days=RETAKE_DAYS)
        if reason == "again" and now < next_time:
            zone = read.settings.tz()
            raise DomainError("placement.too_soon", "a placement at most once a week",
                              level=row.level or 1,
                              when=(when_text(next_time, zone) if when_text is not None
                                    else next_time.astimezone(zone).isoformat()))
    # Taken again: from the level they have; the first time: the middle of their levels.
    start = rules.level_of(read.player) if row is not None and read.player is not None else None
    placement = Placement.new(rules.low, rules.high, start)
    placement = placement.ask(placement.draw(year, _rng(seed, 0)))
    round_key = f"{ROUND_PREFIX}{secrets.token_hex(6)}"
    version = await db.placements.start(guild_id, user_id, placement.to_json(), round_key, now)
    return PlacementRun(placement, version, round_key, year, read.student.time_factor,
                        read.mastery)


def _rng(seed: int, index: int) -> random.Random:
    return random.Random(f"placement:{seed}:{index}")


async def answer(db: Database, guild_id: int, user_id: int, run: PlacementRun,
                 stored: FocusAnswer, marked: Answer, seed: int, now: datetime
                 ) -> PlacementRun:
    """The current question answered (``marked``): the answer stored as a practice answer
    (``stored``, keyed by its round and question: a second write is a no-op), the state moved
    on (the next question drawn at the next level), or, when it is over, the level it chose set
    as the member's Focus level — both with the state, in one transaction. Refused
    (``placement.moved_on``) when another window moved the placement on, or it was skipped."""
    await record_answer(db, stored, now, newcomer=False, known=run.model)
    placement = run.placement.answer(marked.correct)
    level = None
    if placement.done:
        level = placement.result
    else:
        placement = placement.ask(placement.draw(run.year, _rng(seed, len(placement.steps))))
    if not await db.placements.save(guild_id, user_id, placement.to_json(), run.version, now,
                                    level=level):
        raise DomainError("placement.moved_on", "the placement moved on in another window")
    return PlacementRun(placement, run.version + 1, run.round_key, run.year, run.time_factor,
                        run.model)


@dataclass(frozen=True)
class ClassPlacement:
    """The class's placements, for the teacher: each member's latest row, and the known players
    of the server (the caller keeps those still members and not teachers)."""

    rows: dict[int, PlacementRow]
    players: list[int]
    teacher_role_ids: frozenset[int]
    #: Every member who answered in the server, by first answer: the class report's pseudonyms.
    order: list[int]


async def class_results(db: Database, guild_id: int) -> ClassPlacement:
    rows = {row.user_id: row for row in await db.placements.of_server(guild_id)}
    settings = await db.servers.get(guild_id)
    return ClassPlacement(rows, await db.assignments.known_players(guild_id),
                          frozenset(settings.admin_role_ids),
                          await db.class_report.first_answers(guild_id))
