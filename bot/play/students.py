"""One student's own settings (``/class student``) and what they change, without Discord.

A teacher may give one student of a server their own Focus levels (a pinned level, or a range the
adaptive level moves within), extra time, and a way of appearing in public rankings; each field
left unset is "as the server says" (``/settings``). The rules, in one place:

- **Focus levels** (``focus_rules``): the student's own pin, else their own range (a bound they
  did not set is the server's; should the server's other bound lie beyond theirs, theirs wins),
  else the server's pin or range. They apply to Focus practice (``bot.play.focus``), to the
  Focus of each 20 Digits match round (``match_level``: the match's ramp, cut to the student's
  own range or replaced by their pin; the server's levels never changed the matches and still do
  not) and to what ``/progress`` says of the level. The daily challenge is the same for everyone.
- **Extra time** (``StudentSettings.time_factor``: 1.5, 2, or ``None`` for no timer): practice,
  match and daily rounds have no per-question timer, only the idle window after which an
  ephemeral round expires (``bot.ui.focus_run``): it is scaled by the factor. In the daily
  challenge's ranking (best score, then fastest), a student's time is divided by their factor
  for the tie-break, and a student without timer ties with the fastest of their score: extra
  time never ranks anyone down (``rank_daily``); the time shown is the time they took.
- **School year** (``school_year_of``): the student's own, else the server's; Focus practice
  then draws from that year's skills (``bot.play.focus.practice_skills``); none: the eight
  levels' questions. The daily challenge, the matches and live rounds do not change.
- **Rankings** (``public_rows``): "anonymous" shows them as "a student", "hidden" leaves them out,
  in every public ranking (``/leaderboard``, ``/focus leaderboard``); the ranks of the others are
  counted again so that nobody's absence shows as a gap.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.domain import DomainError
from bot.focus import MAX_LEVEL, MIN_LEVEL
from bot.focus.school import YEARS
from db import DailyRow, Database, Player, ServerSettings
from db.students import EXTRA_TIME, RANKINGS, StudentSettings

#: The choice that gives a field back to the server (``level``, ``min_level``, ``max_level``).
SERVER = "server"
#: The choices that give extra time and rankings back to the usual.
NORMAL_TIME = "normal"
SHOWN = "shown"
EXTRA_TIME_CHOICES = (NORMAL_TIME, *EXTRA_TIME)
RANKINGS_CHOICES = (SHOWN, *RANKINGS)


# --- Focus levels --------------------------------------------------------------------------


@dataclass(frozen=True)
class FocusRules:
    """The Focus levels a student plays: from ``low`` to ``high``, or only ``pinned``;
    ``own`` when the student's own settings say so (not the server's)."""

    low: int
    high: int
    pinned: int | None = None
    own: bool = False

    def clamp(self, level: int) -> int:
        return min(max(level, self.low), self.high)

    def level_of(self, player: Player | None) -> int:
        """The level the student plays now: the pin, else their adaptive level in the range."""
        if self.pinned is not None:
            return self.pinned
        return self.clamp(player.focus_level if player is not None else self.low)


def server_rules(settings: ServerSettings) -> FocusRules:
    """The server's levels (no ceiling set: up to the last level; its pin within them)."""
    low = min(max(settings.focus_level_min, MIN_LEVEL), MAX_LEVEL)
    high = max(low, min(settings.focus_level_max or MAX_LEVEL, MAX_LEVEL))
    pinned = settings.focus_level_pinned
    return FocusRules(low, high, None if pinned is None else min(max(pinned, low), high))


def focus_rules(settings: ServerSettings, student: StudentSettings | None = None) -> FocusRules:
    """The levels of ``student`` in the server of ``settings`` (see the module's docstring)."""
    server = server_rules(settings)
    if student is None:
        return server
    if student.level_pinned is not None:
        return FocusRules(student.level_pinned, student.level_pinned, student.level_pinned,
                          own=True)
    if student.level_min is None and student.level_max is None:
        return server
    low = student.level_min if student.level_min is not None else server.low
    high = student.level_max if student.level_max is not None else server.high
    if low > high:  # the server's other bound is beyond the student's own: theirs wins
        low, high = (low, low) if student.level_min is not None else (high, high)
    return FocusRules(low, high, None, own=True)


def match_level(ramp: int, student: StudentSettings | None) -> int:
    """The Focus level of a match round for ``student``: the match's ramp (``ramp``, from
    ``bot.focus.level_for_match_round``), unless the student has levels of their own."""
    if student is None:
        return ramp
    if student.level_pinned is not None:
        return student.level_pinned
    low = student.level_min if student.level_min is not None else MIN_LEVEL
    high = student.level_max if student.level_max is not None else MAX_LEVEL
    return min(max(ramp, low), max(low, high))


def school_year_of(settings: ServerSettings, student: StudentSettings | None) -> str | None:
    """The school year whose skills ``student`` practises (``bot.focus.school``): their own,
    else the server's; None: the eight levels."""
    if student is not None and student.school_year is not None:
        return student.school_year
    return settings.focus_school_year


@dataclass(frozen=True)
class StudentRules:
    """What applies to one student: their Focus levels and time factor (``None``: no timer),
    with the server's settings they were drawn from (its school year, say)."""

    settings: StudentSettings
    focus: FocusRules
    time_factor: float | None
    server: ServerSettings


async def rules_for(db: Database, guild_id: int, user_id: int) -> StudentRules:
    """The Focus levels and time of one member (the server's, with the student's own over)."""
    server = await db.servers.get(guild_id)
    student = await db.students.get(guild_id, user_id)
    return StudentRules(student, focus_rules(server, student), student.time_factor, server)


# --- Rankings ------------------------------------------------------------------------------


def rerank(keys: Sequence[Any]) -> list[int]:
    """Ranks as SQL's RANK() gives them, for keys already sorted best first: equal keys share a
    rank, the next one skips as many."""
    ranks: list[int] = []
    for i, key in enumerate(keys):
        ranks.append(ranks[-1] if i and key == keys[i - 1] else i + 1)
    return ranks


def rank_daily(rows: Sequence[DailyRow], students: Mapping[int, StudentSettings]
               ) -> list[DailyRow]:
    """The day's ranking (``db.daily.leaderboard``'s rows) with extra time counted fairly: by
    score, then time divided by the student's factor; a student without timer ties with the
    fastest of their score (their time is not compared). Equal places keep the order of the
    rows (the earlier finish first)."""

    def factor(row: DailyRow) -> float | None:
        student = students.get(row.user_id)
        return 1.0 if student is None else student.time_factor

    fastest: dict[int, float] = {}
    for row in rows:
        f = factor(row)
        if f is not None:
            fastest[row.score] = min(fastest.get(row.score, row.time_ms / f), row.time_ms / f)

    def key(row: DailyRow) -> tuple[int, float]:
        f = factor(row)
        return -row.score, fastest.get(row.score, 0.0) if f is None else row.time_ms / f

    ordered = sorted(rows, key=key)  # stable: the database's order among equals
    ranks = rerank([key(row) for row in ordered])
    return [replace(row, rank=rank) for row, rank in zip(ordered, ranks, strict=True)]


@dataclass(frozen=True)
class PublicRow:
    """A row of a public ranking: ``anonymous`` rows are shown as "a student"."""

    rank: int
    user_id: int
    anonymous: bool
    row: Any  # the ranking's own row (a DailyRow, a RatingRow, a dict…)


def public_rows(rows: Sequence[Any], students: Mapping[int, StudentSettings],
                rank_of: Callable[[Any], int] = lambda row: row.rank,
                user_of: Callable[[Any], int] = lambda row: row.user_id) -> list[PublicRow]:
    """The rows a public ranking shows: the hidden students left out, the anonymous ones marked,
    the ranks counted again among those shown (ties kept)."""
    kept = [row for row in rows
            if getattr(students.get(user_of(row)), "rankings", None) != "hidden"]
    ranks = rerank([rank_of(row) for row in kept])
    return [PublicRow(rank, user_of(row),
                      getattr(students.get(user_of(row)), "rankings", None) == "anonymous", row)
            for row, rank in zip(kept, ranks, strict=True)]


async def ranked_students(db: Database, guild_id: int) -> dict[int, StudentSettings]:
    """The students of the server with settings of their own (the rankings read them)."""
    return await db.students.of_server(guild_id)


# --- /class student: show and change ---------------------------------------------------------


@dataclass(frozen=True)
class StudentView:
    """What ``/class student`` shows: the student's own settings, the server's, the result."""

    student: StudentSettings
    server: ServerSettings
    focus: FocusRules
    server_focus: FocusRules
    player: Player | None
    changed: bool = False


def _level(value: str | None, what: str) -> int | str | None:
    """A level option as typed: ``None`` (not given), ``SERVER`` or a level 1–8."""
    if value is None or value == SERVER:
        return value
    if not value.isascii() or not value.isdigit() or not MIN_LEVEL <= int(value) <= MAX_LEVEL:
        raise DomainError("class.student.bad_level", f"{what} {value!r} is no level",
                          value=value, low=MIN_LEVEL, high=MAX_LEVEL)
    return int(value)


def changed_settings(current: StudentSettings, *, level: str | None = None,
                     min_level: str | None = None, max_level: str | None = None,
                     extra_time: str | None = None, rankings: str | None = None,
                     school_year: str | None = None, reset: bool = False) -> StudentSettings:
    """``current`` with the options given (``reset`` first clears everything). Pure: refuses,
    before anything is saved, a level outside 1–8, a range whose lowest level is above its
    highest, a pin outside the student's own range, a choice the command does not offer."""
    pin, low, high = (_level(level, "level"), _level(min_level, "min_level"),
                      _level(max_level, "max_level"))
    if extra_time is not None and extra_time not in EXTRA_TIME_CHOICES:
        raise DomainError("class.student.bad_choice", f"no extra time {extra_time!r}",
                          value=extra_time)
    if rankings is not None and rankings not in RANKINGS_CHOICES:
        raise DomainError("class.student.bad_choice", f"no rankings {rankings!r}",
                          value=rankings)
    if school_year is not None and school_year != SERVER and school_year not in YEARS:
        raise DomainError("class.student.bad_choice", f"no school year {school_year!r}",
                          value=school_year)
    new = StudentSettings(current.guild_id, current.user_id) if reset else current
    if school_year is not None:
        new = replace(new, school_year=None if school_year == SERVER else school_year)

    def given(value: int | str | None, old: int | None) -> int | None:
        return old if value is None else None if value == SERVER else int(value)

    new = replace(new, level_pinned=given(pin, new.level_pinned),
                  level_min=given(low, new.level_min), level_max=given(high, new.level_max))
    if extra_time is not None:
        new = replace(new, extra_time=None if extra_time == NORMAL_TIME else extra_time)
    if rankings is not None:
        new = replace(new, rankings=None if rankings == SHOWN else rankings)
    if new.level_min is not None and new.level_max is not None and new.level_min > new.level_max:
        raise DomainError("class.student.range_reversed", "the lowest level is above the highest",
                          low=new.level_min, high=new.level_max)
    if new.level_pinned is not None and not (
            (new.level_min or MIN_LEVEL) <= new.level_pinned <= (new.level_max or MAX_LEVEL)):
        raise DomainError("class.student.pin_outside_range", "the pin is outside their range",
                          level=new.level_pinned, low=new.level_min or MIN_LEVEL,
                          high=new.level_max or MAX_LEVEL)
    return new


async def student_view(db: Database, guild_id: int, user_id: int, *, changed: bool = False
                       ) -> StudentView:
    server = await db.servers.get(guild_id)
    student = await db.students.get(guild_id, user_id)
    return StudentView(student, server, focus_rules(server, student), server_rules(server),
                       await db.players.get(guild_id, user_id), changed)


async def change_student(db: Database, guild_id: int, user_id: int, **options: Any
                         ) -> StudentView:
    """Apply ``/class student``'s options (see ``changed_settings``) and what applies now; no
    option at all: only the view. A refusal saves nothing."""
    given = {k: v for k, v in options.items() if v is not None and v is not False}
    if not given:
        return await student_view(db, guild_id, user_id)
    current = await db.students.get(guild_id, user_id)
    new = changed_settings(current, **given)
    if new != current:
        await db.students.save(new)
    return await student_view(db, guild_id, user_id, changed=True)
