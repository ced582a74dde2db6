"""Placement rounds (migration 21, issue 26): each member's latest placement in a server —
skipped, running (``bot/focus/placement.py``'s state as JSON, which SQL never looks into) or
finished with the level it chose. Its answers are ``focus_answers`` rows (``db.focus``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from db.connection import Connection, Row, db_time, dumps, from_db_time, to_db_time, utc
from db.players import PlayersRepository

STATUSES = ("skipped", "running", "finished")


@dataclass(frozen=True)
class PlacementRow:
    guild_id: int
    user_id: int
    status: str
    state: dict[str, Any] | None
    round_key: str | None
    level: int | None
    started_at: datetime | None
    finished_at: datetime | None
    updated_at: datetime
    version: int


@dataclass(frozen=True)
class OfferReads:
    """What the offer of a placement reads, in one hop: the member's placement row, whether
    they have any Focus answer in the server, and their own settings (levels, school year)."""

    row: PlacementRow | None
    answered: bool
    pinned: int | None
    school_year: str | None
    level_min: int | None = None
    level_max: int | None = None


def _row(row: Row) -> PlacementRow:
    return PlacementRow(
        guild_id=row["guild_id"], user_id=row["user_id"], status=row["status"],
        state=None if row["state"] is None else json.loads(row["state"]),
        round_key=row["round_key"], level=row["level"],
        started_at=from_db_time(row["started_at"]), finished_at=from_db_time(row["finished_at"]),
        updated_at=db_time(row["updated_at"]), version=row["version"])


class PlacementsRepository:
    def __init__(self, conn: Connection, players: PlayersRepository) -> None:
        self._conn = conn
        self._players = players

    async def get(self, guild_id: int, user_id: int) -> PlacementRow | None:
        row = await self._conn.one(
            "SELECT * FROM focus_placements WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id))
        return None if row is None else _row(row)

    async def for_offer(self, guild_id: int, user_id: int) -> OfferReads:
        key = (guild_id, user_id)
        rows = await self._conn.reads([
            ("SELECT * FROM focus_placements WHERE guild_id = ? AND user_id = ?", key),
            ("SELECT 1 FROM focus_answers WHERE guild_id = ? AND user_id = ? LIMIT 1", key),
            ("SELECT level_pinned, school_year, level_min, level_max FROM student_settings"
             " WHERE guild_id = ? AND user_id = ?", key),
        ])
        own = rows[2][0] if rows[2] else None
        if own is None:
            return OfferReads(_row(rows[0][0]) if rows[0] else None, bool(rows[1]), None, None)
        return OfferReads(_row(rows[0][0]) if rows[0] else None, bool(rows[1]),
                          own["level_pinned"], own["school_year"], own["level_min"],
                          own["level_max"])

    async def skip(self, guild_id: int, user_id: int, now: datetime | None = None) -> None:
        """The member chose to practise without a placement: a running one ends as skipped, a
        finished one stays as it is."""
        stamp = to_db_time(utc(now))
        async with self._conn.atomic():
            await self._players.ensure(guild_id, user_id, now=now)
            await self._conn.run(
                "INSERT INTO focus_placements (guild_id, user_id, status, updated_at)"
                " VALUES (?, ?, 'skipped', ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
                " status = 'skipped', state = NULL, version = focus_placements.version + 1,"
                " updated_at = excluded.updated_at WHERE focus_placements.status = 'running'",
                (guild_id, user_id, stamp))

    async def start(self, guild_id: int, user_id: int, state: dict[str, Any], round_key: str,
                    now: datetime | None = None) -> int:
        """A new placement (replacing the member's previous one); its version."""
        stamp = to_db_time(utc(now))
        async with self._conn.atomic():
            await self._players.ensure(guild_id, user_id, now=now)
            rows = await self._conn.returning(
                "INSERT INTO focus_placements (guild_id, user_id, status, state, round_key,"
                " started_at, updated_at) VALUES (?, ?, 'running', ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET status = 'running',"
                " state = excluded.state, round_key = excluded.round_key, level = NULL,"
                " started_at = excluded.started_at, finished_at = NULL,"
                " updated_at = excluded.updated_at, version = focus_placements.version + 1"
                " RETURNING version",
                (guild_id, user_id, dumps(state), round_key, stamp, stamp))
        return int(rows[0]["version"])

    async def save(self, guild_id: int, user_id: int, state: dict[str, Any], version: int,
                   now: datetime | None = None, *, level: int | None = None) -> bool:
        """The running placement of ``version`` moves on to ``state`` (finished, with the
        ``level`` it chose, which becomes the member's Focus level in the same transaction);
        False when it is not at ``version`` any more (another window moved it, or it was
        skipped or erased): nothing changes then."""
        stamp = to_db_time(utc(now))
        async with self._conn.transaction():
            changed = await self._conn.run(
                "UPDATE focus_placements SET state = ?, status = ?, level = ?, finished_at = ?,"
                " updated_at = ?, version = version + 1"
                " WHERE guild_id = ? AND user_id = ? AND status = 'running' AND version = ?",
                (dumps(state), "running" if level is None else "finished", level,
                 None if level is None else stamp, stamp, guild_id, user_id, version))
            if changed and level is not None:
                await self._conn.run(
                    "UPDATE players SET focus_level = ? WHERE guild_id = ? AND user_id = ?",
                    (level, guild_id, user_id))
        return bool(changed)

    async def of_server(self, guild_id: int) -> list[PlacementRow]:
        rows = await self._conn.all(
            "SELECT * FROM focus_placements WHERE guild_id = ? ORDER BY user_id", (guild_id,))
        return [_row(row) for row in rows]
