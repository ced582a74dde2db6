"""Live Focus rounds a teacher runs in a channel: the engine's state between two clicks.

The state is the bot's JSON (the engine's ``LiveRound`` plus its own notes), never looked into by
SQL. Every change is saved with ``UPDATE … WHERE version = ?`` like the games: a change made from
a stale version raises ``StaleVersion`` and changes nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from db.connection import Connection, Row, db_time, dumps, not_found, to_db_time, utc
from db.servers import ServersRepository

LIVE_STATUSES = ("active", "finished")


@dataclass(frozen=True)
class LiveRoundRow:
    live_id: int
    guild_id: int
    channel_id: int | None
    teacher_id: int | None
    status: str
    state: Any
    version: int
    created_at: datetime
    updated_at: datetime


def _row(row: Row) -> LiveRoundRow:
    return LiveRoundRow(
        live_id=row["live_id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        teacher_id=row["teacher_id"],
        status=row["status"],
        state=json.loads(row["state"]),
        version=row["version"],
        created_at=db_time(row["created_at"]),
        updated_at=db_time(row["updated_at"]),
    )


def _check_status(status: str) -> None:
    if status not in LIVE_STATUSES:
        raise ValueError(f"unknown live round status {status!r}; one of {LIVE_STATUSES}")


class LiveRoundsRepository:
    def __init__(self, conn: Connection, servers: ServersRepository) -> None:
        self._conn = conn
        self._servers = servers

    async def create(
        self,
        guild_id: int,
        channel_id: int | None,
        teacher_id: int | None,
        state: Any,
        now: datetime | None = None,
    ) -> LiveRoundRow:
        """A new active round at version 1."""
        stamp = to_db_time(utc(now))
        async with self._conn.atomic():
            await self._servers.ensure(guild_id, now)
            live_id = await self._conn.insert(
                "INSERT INTO focus_live_rounds (guild_id, channel_id, teacher_id, status, state,"
                " created_at, updated_at) VALUES (?, ?, ?, 'active', ?, ?, ?) RETURNING live_id",
                (guild_id, channel_id, teacher_id, dumps(state), stamp, stamp),
            )
            row = await self.get(live_id)
        assert row is not None
        return row

    async def get(self, live_id: int) -> LiveRoundRow | None:
        row = await self._conn.one("SELECT * FROM focus_live_rounds WHERE live_id = ?", (live_id,))
        return None if row is None else _row(row)

    async def require(self, live_id: int) -> LiveRoundRow:
        row = await self.get(live_id)
        if row is None:
            raise not_found("live round", id=live_id)
        return row

    async def save(
        self,
        live_id: int,
        state: Any,
        expected_version: int,
        *,
        status: str | None = None,
        now: datetime | None = None,
    ) -> int:
        """Store a new state (and status) over version ``expected_version``; the new version.
        Raises ``StaleVersion`` if the round changed meanwhile, ``db.not_found`` if it is gone."""
        if status is not None:
            _check_status(status)
        return await self._conn.update_versioned(
            "live round",
            "focus_live_rounds",
            "live_id",
            live_id,
            expected_version,
            ["state = ?", "status = coalesce(?, status)", "updated_at = ?"],
            [dumps(state), status, to_db_time(utc(now))],
        )

    async def active(self) -> list[LiveRoundRow]:
        """The rounds still running (their timers are armed again when the bot starts)."""
        rows = await self._conn.all(
            "SELECT * FROM focus_live_rounds WHERE status = 'active' ORDER BY live_id")
        return [_row(row) for row in rows]

    async def active_of_server(self, guild_id: int) -> list[LiveRoundRow]:
        """A server's running rounds, the oldest first (a class room shows one of them)."""
        rows = await self._conn.all(
            "SELECT * FROM focus_live_rounds WHERE guild_id = ? AND status = 'active'"
            " ORDER BY live_id", (guild_id,))
        return [_row(row) for row in rows]

    async def marks_of_server(self, guild_id: int) -> list[tuple[int, int | None, int]]:
        """A server's running rounds as (live id, channel id, version), without their states:
        what the class rooms' pages poll to see a round change in any process."""
        rows = await self._conn.all(
            "SELECT live_id, channel_id, version FROM focus_live_rounds"
            " WHERE guild_id = ? AND status = 'active' ORDER BY live_id", (guild_id,))
        return [(row["live_id"], row["channel_id"], row["version"]) for row in rows]

    async def version_of(self, live_id: int) -> int | None:
        """A round's stored version (None: no such round): whether a copy kept in memory is
        still the stored one, when another process may have changed it."""
        row = await self._conn.one(
            "SELECT version FROM focus_live_rounds WHERE live_id = ?", (live_id,))
        return None if row is None else int(row["version"])
