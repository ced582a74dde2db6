"""What a browser student is doing between two pages (migration 25, issue 30): their practice
round in progress and the moment the question on their page was shown, as one JSON state per
web student (``bot.play.web_study`` reads and writes it; the answers are ``focus_answers``)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from db.connection import Connection, dumps, to_db_time, utc


class WebPracticeRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    async def get(self, guild_id: int, user_id: int) -> dict[str, Any] | None:
        row = await self._conn.one(
            "SELECT state FROM web_practice WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id))
        if row is None:
            return None
        state = json.loads(row["state"])
        return state if isinstance(state, dict) else None

    async def put(self, guild_id: int, user_id: int, state: dict[str, Any], now: datetime
                  ) -> None:
        """Keep ``state`` (the player must exist: a seat made them one)."""
        await self._conn.run(
            "INSERT INTO web_practice (guild_id, user_id, state, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET state = excluded.state,"
            " updated_at = excluded.updated_at",
            (guild_id, user_id, dumps(state), to_db_time(utc(now))))
