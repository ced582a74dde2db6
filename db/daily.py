"""The daily challenge: one set of questions per server and day, one attempt per member."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from bot.domain import DomainError
from db.connection import (
    Connection,
    Row,
    dumps,
    from_db_day,
    from_db_time,
    not_found,
    to_db_time,
    utc,
)
from db.focus import FocusAnswer, FocusRepository
from db.players import Player, PlayersRepository, _player
from db.servers import ServerSettings, ServersRepository


def round_key(day: date) -> str:
    """The name of a daily attempt among a member's stored answers (``db.focus``; migration 6
    names the attempts of before it the same way)."""
    return f"daily:{day.isoformat()}"


@dataclass(frozen=True)
class DailyChallengeRow:
    guild_id: int
    day: date
    questions: Any
    channel_id: int | None
    message_id: int | None
    created_at: datetime


@dataclass(frozen=True)
class DailyAttempt:
    guild_id: int
    day: date
    user_id: int
    score: int | None  # None until finished
    time_ms: int | None
    started_at: datetime
    finished_at: datetime | None


@dataclass(frozen=True)
class DailyRow:
    rank: int
    user_id: int
    score: int
    time_ms: int


def _challenge(row: Row) -> DailyChallengeRow:
    day, created = from_db_day(row["day"]), from_db_time(row["created_at"])
    assert day is not None and created is not None
    return DailyChallengeRow(
        guild_id=row["guild_id"],
        day=day,
        questions=json.loads(row["questions"]),
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        created_at=created,
    )


def _attempt(row: Row) -> DailyAttempt:
    day, started = from_db_day(row["day"]), from_db_time(row["started_at"])
    assert day is not None and started is not None
    return DailyAttempt(
        guild_id=row["guild_id"],
        day=day,
        user_id=row["user_id"],
        score=row["score"],
        time_ms=row["time_ms"],
        started_at=started,
        finished_at=from_db_time(row["finished_at"]),
    )


class DailyRepository:
    def __init__(
        self,
        conn: Connection,
        servers: ServersRepository,
        players: PlayersRepository,
        focus: FocusRepository,
    ) -> None:
        self._conn = conn
        self._servers = servers
        self._players = players
        self._focus = focus

    async def create(
        self,
        guild_id: int,
        day: date,
        questions: Any,
        *,
        channel_id: int | None = None,
        message_id: int | None = None,
        now: datetime | None = None,
    ) -> tuple[DailyChallengeRow, bool]:
        """The server's challenge of ``day``, created with ``questions`` unless it already exists
        (then the existing one is returned unchanged); and whether it was created now."""
        async with self._conn.atomic():
            await self._servers.ensure(guild_id, now)
            created = await self._conn.run(
                "INSERT INTO daily_challenges (guild_id, day, questions, channel_id, message_id,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, day) DO NOTHING",
                (
                    guild_id,
                    day.isoformat(),
                    dumps(questions),
                    channel_id,
                    message_id,
                    to_db_time(utc(now)),
                ),
            )
            challenge = await self.get(guild_id, day)
        assert challenge is not None
        return challenge, created == 1

    async def get(self, guild_id: int, day: date) -> DailyChallengeRow | None:
        row = await self._conn.one(
            "SELECT * FROM daily_challenges WHERE guild_id = ? AND day = ?",
            (guild_id, day.isoformat()),
        )
        return None if row is None else _challenge(row)

    async def claim_post(self, guild_id: int, day: date, owner: str, until: datetime,
                         now: datetime | None = None) -> bool:
        """Claim the post of the server's challenge of ``day`` for ``owner`` until ``until``:
        whether this caller may post it. One statement, so that of two processes claiming at
        once exactly one wins: the challenge must exist, not be posted yet, and carry no claim
        of another owner still running at ``now`` (a lapsed claim is taken over)."""
        claimed = await self._conn.run(
            "UPDATE daily_challenges SET post_owner = ?, post_until = ?"
            " WHERE guild_id = ? AND day = ? AND message_id IS NULL"
            " AND (post_owner IS NULL OR post_owner = ? OR post_until < ?)",
            (owner, to_db_time(utc(until)), guild_id, day.isoformat(), owner,
             to_db_time(utc(now))),
        )
        return claimed == 1

    async def set_message(self, guild_id: int, day: date, channel_id: int, message_id: int) -> None:
        """Remember where the challenge was posted."""
        await self._conn.run(
            "UPDATE daily_challenges SET channel_id = ?, message_id = ?"
            " WHERE guild_id = ? AND day = ?",
            (channel_id, message_id, guild_id, day.isoformat()),
        )

    async def due(self, now: datetime | None = None) -> list[tuple[ServerSettings, date]]:
        """The servers whose daily challenge should be posted now: a channel is set, the local
        hour has come, and there is no challenge yet for the local date. Each with that date."""
        moment = utc(now)
        due = []
        for settings in await self._servers.all_with_daily():
            local = moment.astimezone(settings.tz())
            if local.hour < settings.daily_hour:
                continue
            if await self.get(settings.guild_id, local.date()) is None:
                due.append((settings, local.date()))
        return due

    async def start_attempt(
        self, guild_id: int, day: date, user_id: int, now: datetime | None = None
    ) -> DailyAttempt:
        """Open the member's one attempt of the day. A second one raises
        ``DomainError("daily.already_attempted")``; a day without challenge, ``daily.none``."""
        async with self._conn.atomic():
            if await self.get(guild_id, day) is None:
                raise DomainError(
                    "daily.none", f"there is no daily challenge on {day}", day=day.isoformat()
                )
            await self._players.ensure(guild_id, user_id, now)
            added = await self._conn.run(
                "INSERT INTO daily_attempts (guild_id, day, user_id, started_at)"
                " VALUES (?, ?, ?, ?)"
                " ON CONFLICT (guild_id, day, user_id) DO NOTHING",
                (guild_id, day.isoformat(), user_id, to_db_time(utc(now))),
            )
            if not added:
                raise DomainError(
                    "daily.already_attempted",
                    f"the daily challenge of {day} was already attempted",
                    day=day.isoformat(),
                )
            attempt = await self.attempt(guild_id, day, user_id)
        assert attempt is not None
        return attempt

    async def finish_attempt(
        self,
        guild_id: int,
        day: date,
        user_id: int,
        score: int | None = None,
        time_ms: int | None = None,
        answers: Iterable[FocusAnswer] = (),
        now: datetime | None = None,
    ) -> Player:
        """Store the attempt's ``answers`` (those stored already stay as they were), close it
        and count the day in the member's streak, all at once. The player afterwards. Raises
        ``daily.not_started`` or ``daily.already_finished``.

        The score and time are counted from the attempt's stored answers (``round_key(day)``)
        in the same statement that closes it, unless given (an import, a test's history): two
        windows of one attempt, each with answers of its own, can then never store a score
        that disagrees with the answers stored."""
        if (score is not None and score < 0) or (time_ms is not None and time_ms < 0):
            raise ValueError(f"score and time cannot be negative: {score}, {time_ms}")
        async with self._conn.transaction():
            closed = await self._focus.close_attempt(
                "daily_attempts", "guild_id = ? AND day = ? AND user_id = ?",
                (guild_id, day.isoformat(), user_id), guild_id, user_id, round_key(day), answers,
                score, time_ms, now)
            if not closed:
                if await self.attempt(guild_id, day, user_id) is None:
                    raise DomainError(
                        "daily.not_started",
                        "this daily challenge was not started",
                        day=day.isoformat(),
                    )
                raise DomainError(
                    "daily.already_finished",
                    "this daily challenge is already finished",
                    day=day.isoformat(),
                )
            # The day counted in the streak and the player read back, in one statement. A late
            # finish of an older day's attempt does not rewrite the streak.
            newer = "(last_daily_day IS NULL OR last_daily_day < CAST(? AS TEXT))"
            streak = "CASE WHEN last_daily_day = CAST(? AS TEXT) THEN daily_streak + 1 ELSE 1 END"
            today, yesterday = day.isoformat(), (day - timedelta(days=1)).isoformat()
            rows = await self._conn.returning(
                f"UPDATE players SET daily_streak = CASE WHEN {newer} THEN {streak}"
                " ELSE daily_streak END,"
                f" best_daily_streak = CASE WHEN {newer} THEN"
                f" {self._conn.dialect.greatest('best_daily_streak', streak)}"
                " ELSE best_daily_streak END,"
                f" last_daily_day = CASE WHEN {newer} THEN CAST(? AS TEXT)"
                " ELSE last_daily_day END"
                " WHERE guild_id = ? AND user_id = ? RETURNING *",
                (today, yesterday, today, yesterday, today, today, guild_id, user_id),
            )
            if not rows:
                raise not_found("player", guild_id=guild_id, user_id=user_id)
            return _player(rows[0])

    async def attempt(self, guild_id: int, day: date, user_id: int) -> DailyAttempt | None:
        row = await self._conn.one(
            "SELECT * FROM daily_attempts WHERE guild_id = ? AND day = ? AND user_id = ?",
            (guild_id, day.isoformat(), user_id),
        )
        return None if row is None else _attempt(row)

    async def days_played(
        self, guild_id: int, user_id: int, since: date | None = None
    ) -> list[date]:
        """The days (from ``since``, included) whose challenge the member finished, oldest first:
        the days the streak counts."""
        rows = await self._conn.all(
            "SELECT day FROM daily_attempts WHERE guild_id = ? AND user_id = ?"
            " AND finished_at IS NOT NULL AND day >= ? ORDER BY day",
            (guild_id, user_id, "" if since is None else since.isoformat()),
        )
        return [date.fromisoformat(row[0]) for row in rows]

    async def leaderboard(self, guild_id: int, day: date, limit: int = 10) -> list[DailyRow]:
        """The day's finished attempts: best score first, then fastest; equal score and time share
        a rank (the earlier finish is listed first)."""
        rows = await self._conn.all(
            "SELECT RANK() OVER (ORDER BY score DESC, time_ms ASC) AS rank, user_id, score, time_ms"
            " FROM daily_attempts WHERE guild_id = ? AND day = ? AND finished_at IS NOT NULL"
            " ORDER BY score DESC, time_ms ASC, finished_at ASC, user_id LIMIT ?",
            (guild_id, day.isoformat(), limit),
        )
        return [DailyRow(*row) for row in rows]
