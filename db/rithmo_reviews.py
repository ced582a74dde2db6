"""The reviews of finished Rithmomachia games (``/rithmo review``, migration 18): the engine's
evaluation of a game, worked out once and kept beside it (``bot/rithmo/review.py``'s JSON, which
SQL never looks into), and the finished games a member may look back on."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from db.connection import Connection, db_time, dumps, to_db_time, utc


@dataclass(frozen=True)
class ReviewableGame:
    """A finished game as the review's autocomplete lists it."""

    game_id: int
    white_id: int | None
    black_id: int | None
    computer_side: str | None
    result: str | None
    turns: int
    finished_at: datetime | None


class RithmoReviewsRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    async def review(self, game_id: int) -> Any | None:
        row = await self._conn.one(
            "SELECT review FROM rithmo_reviews WHERE game_id = ?", (game_id,))
        return None if row is None else json.loads(row["review"])

    async def keep(self, game_id: int, review: Any, now: datetime | None = None) -> None:
        """Keep a game's review (two members reviewing at once: the first one kept stays;
        both are the same, the search being bounded by positions, not time)."""
        await self._conn.run(
            "INSERT INTO rithmo_reviews (game_id, review, created_at) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO NOTHING",
            (game_id, dumps(review), to_db_time(utc(now))))

    async def finished(self, guild_id: int, user_id: int | None, limit: int = 25
                       ) -> list[ReviewableGame]:
        """The server's finished games, the newest first: those ``user_id`` played (None: any,
        for a teacher), at most ``limit``."""
        rows = await self._conn.all(
            "SELECT g.game_id, g.white_id, g.black_id, g.computer_side, g.result,"
            " g.finished_at, (SELECT count(*) FROM rithmo_turns t WHERE t.game_id = g.game_id)"
            " AS turns FROM rithmo_games g WHERE g.guild_id = ? AND g.status = 'finished'"
            " AND (? IS NULL OR g.white_id = ? OR g.black_id = ?)"
            " ORDER BY g.finished_at DESC, g.game_id DESC LIMIT ?",
            (guild_id, user_id, user_id, user_id, limit))
        return [ReviewableGame(row["game_id"], row["white_id"], row["black_id"],
                               row["computer_side"], row["result"], int(row["turns"]),
                               None if row["finished_at"] is None
                               else db_time(row["finished_at"])) for row in rows]
