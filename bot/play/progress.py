"""How a student is doing, and the server's rankings, read from the database without Discord:
``student_progress`` (Focus accuracy per topic and day or week, the daily challenges played, the
level, the mastery map, the daily Rithmomachia puzzles answered, the ratings) and ``board`` (a
ranking by rating, today's daily challenge, the current daily streaks). Days are the server's
local days (its time zone, ``/settings daily``). A student's own settings (``/class student``,
``bot.play.students``) count here: their Focus levels in what the progress says, and how the
public rankings show them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from bot.domain import DomainError
from bot.focus.mastery import map_data
from bot.play import students
from bot.play.rithmo_puzzles import NO_STREAK, Streak, puzzle_streak
from bot.play.students import FocusRules, public_rows, rank_daily
from db import Database, Player, PlayerRating, ProgressRow, PuzzleAnswer, ServerSettings

WEEKS = 12  # the calendar's weeks, and the chart's span
MAX_DAILY_POINTS = 31  # beyond this many days with answers, the chart goes by week
RATED_GAMES = ("digits", "rithmo")
BOARDS = ("digits", "rithmo", "focus-daily", "focus-streaks")
# Enough rows to find the member who asks below the top ten in any class.
BOARD_ROWS = 1000


def local_today(settings: ServerSettings, now: datetime | None = None) -> date:
    return (now or datetime.now(UTC)).astimezone(settings.tz()).date()


def calendar_start(today: date, weeks: int = WEEKS) -> date:
    """The Monday the streak calendar starts on (as images.render_streak draws it)."""
    return today - timedelta(days=today.weekday() + 7 * (weeks - 1))


def focus_level(player: Player | None, rules: FocusRules) -> tuple[int, bool]:
    """The level the student plays Focus at now (their own levels, else the server's:
    ``bot.play.students.focus_rules``), and whether the teacher pinned it."""
    return rules.level_of(player), rules.pinned is not None


#: The chart's topic of the daily Rithmomachia puzzles (a topic of its own beside Focus's).
PUZZLE_TOPIC = "rithmo_puzzle"


def chart_records(rows: Iterable[ProgressRow],
                  puzzles: Iterable[PuzzleAnswer] = ()) -> list[dict[str, Any]]:
    """The chart's records: Focus's answers per topic and period, and each daily puzzle answered
    (one question that day, right when solved) as the topic ``rithmo_puzzle``."""
    out = [{"date": row.period.isoformat(), "topic": row.topic, "correct": row.correct,
            "total": row.answers} for row in rows if row.period is not None]
    out += [{"date": a.day.isoformat(), "topic": PUZZLE_TOPIC, "correct": int(a.solved),
             "total": 1} for a in puzzles]
    return out


@dataclass(frozen=True)
class ProgressData:
    name: str
    settings: ServerSettings
    today: date
    player: Player | None
    ratings: dict[str, PlayerRating]
    rows: list[ProgressRow]
    played: list[date]
    #: The student's Focus levels (their own, else the server's).
    levels: FocusRules
    #: The student's first day with Ardoise on this server (their first answer or game, in the
    #: server's days): the streak calendar does not count the days before it as missed.
    first_day: date | None = None
    #: The mastery map's data (``bot.focus.mastery.map_data``).
    mastery: dict[str, Any] | None = None
    #: The daily Rithmomachia puzzles the student answered over the calendar's weeks.
    puzzles: tuple[PuzzleAnswer, ...] = ()
    #: The daily puzzles solved in a row: the current run and the best (issue 28).
    puzzle_streak: Streak = NO_STREAK


def first_day(player: Player | None, settings: ServerSettings, today: date,
              rows: Iterable[ProgressRow], played: Iterable[date]) -> date:
    """The first day the student did anything with Ardoise here: the day their player row was
    made, or an earlier answer or daily challenge if any (today when there is nothing)."""
    days = [today, *played, *(row.period for row in rows if row.period is not None)]
    if player is not None:
        days.append(player.created_at.astimezone(settings.tz()).date())
    return min(days)




async def student_progress(db: Database, guild_id: int, user_id: int, name: str,
                           now: datetime | None = None) -> ProgressData:
    """What ``/progress`` shows of one student (``name``: how they are called)."""
    settings = await db.servers.get(guild_id)
    now = now or datetime.now(UTC)
    today = local_today(settings, now)
    start = calendar_start(today)
    since = datetime.combine(start, time(), settings.tz())
    offset = settings.tz().utcoffset(now)
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    rows = await db.focus.progress(guild_id, user_id, by="day", since=since,
                                   utc_offset_minutes=minutes)
    if len({row.period for row in rows}) > MAX_DAILY_POINTS:
        rows = await db.focus.progress(guild_id, user_id, by="week", since=since,
                                       utc_offset_minutes=minutes)
    player = await db.players.get(guild_id, user_id)
    played = await db.daily.days_played(guild_id, user_id, since=start)
    mastery = map_data(await db.mastery.load(guild_id, user_id, now), now)
    return ProgressData(
        name=name, settings=settings, today=today, player=player,
        ratings=await db.players.ratings(guild_id, user_id), rows=rows, played=played,
        levels=students.focus_rules(settings, await db.students.get(guild_id, user_id)),
        first_day=first_day(player, settings, today, rows, played), mastery=mastery,
        puzzles=tuple(await db.rithmo_puzzles.answers(guild_id, user_id, since=start)),
        puzzle_streak=await puzzle_streak(db, guild_id, user_id, today))


@dataclass(frozen=True)
class Board:
    """A ranking as the picture draws it: ``rows`` of rank, user_id, score, time (best first),
    and ``anonymous`` (shown as "a student"); ``today`` is the server's day. The students hidden
    from public rankings are not in ``rows``; ``private`` has their own rank, and the anonymous
    ones', by user id, for them alone."""

    game: str
    today: date
    rows: list[dict[str, Any]]
    private: dict[int, int]


def check_board(game: str) -> None:
    """Refused: a board the command does not offer (a modified client may send any value)."""
    if game not in BOARDS:
        raise DomainError("progress.unknown_board", f"no leaderboard {game!r}", value=game)


async def board(db: Database, guild_id: int, game: str) -> Board:
    """The server's ranking of ``game`` (one of ``BOARDS``; anything else is refused), as the
    public may see it (``bot.play.students.public_rows``; the daily one with extra time counted
    fairly, ``rank_daily``)."""
    check_board(game)
    settings = await db.servers.get(guild_id)
    today = local_today(settings)
    own = await students.ranked_students(db, guild_id)  # anonymous or hidden, extra time
    rows: list[dict[str, Any]]
    if game in RATED_GAMES:
        rows = [{"rank": r.rank, "user_id": r.user_id, "score": round(r.rating),
                 "time": str(r.games)}
                for r in await db.players.leaderboard(guild_id, game, limit=BOARD_ROWS)]
    elif game == "focus-streaks":
        rows = [{"rank": r.rank, "user_id": r.user_id, "score": r.streak,
                 "time": str(r.best_streak)}
                for r in await db.players.streaks(guild_id, today, limit=BOARD_ROWS)]
    else:
        daily = rank_daily(await db.daily.leaderboard(guild_id, today, limit=BOARD_ROWS), own)
        rows = [{"rank": r.rank, "user_id": r.user_id, "score": r.score,
                 "time": r.time_ms / 1000} for r in daily]
    private = {row["user_id"]: row["rank"] for row in rows
               if own.get(row["user_id"]) is not None and own[row["user_id"]].rankings}
    shown = [{**p.row, "rank": p.rank, "anonymous": p.anonymous}
             for p in public_rows(rows, own, lambda r: r["rank"], lambda r: r["user_id"])]
    return Board(game, today, shown, private)
