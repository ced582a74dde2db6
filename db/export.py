"""A member's data on request: all of it as JSON, or none of it any more."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from db.core import to_db_time, utc

if TYPE_CHECKING:
    from db.core import Database

EXPORT_FORMAT = "ardoise.player-export"
_JSON_COLUMNS = ("state", "slate", "victories", "position")


def _plain(row: sqlite3.Row) -> dict[str, Any]:
    data = dict(zip(row.keys(), tuple(row), strict=True))
    for column in _JSON_COLUMNS:
        if isinstance(data.get(column), str):
            data[column] = json.loads(data[column])
    return data


async def export_player(db: Database, guild_id: int, user_id: int) -> dict[str, Any]:
    # One transaction: every part of the export comes from the same moment.
    async with db.transaction():
        await db.players.require(guild_id, user_id)
        key = (guild_id, user_id)

        async def rows(sql: str, params: tuple[Any, ...] = key) -> list[dict[str, Any]]:
            return [_plain(row) for row in await db._all(sql, params)]

        player = await rows("SELECT * FROM players WHERE guild_id = ? AND user_id = ?")
        games = await rows(
            "SELECT game_id, CASE WHEN white_id = ? THEN 'white' ELSE 'black' END AS colour,"
            " CASE WHEN white_id = ? THEN black_id ELSE white_id END AS opponent_id, computer_side,"
            " status, result, reason, victories, position, created_at, finished_at"
            " FROM rithmo_games WHERE guild_id = ? AND (white_id = ? OR black_id = ?)"
            " ORDER BY game_id",
            (user_id, user_id, guild_id, user_id, user_id),
        )
        for game in games:
            game["turns"] = await rows(
                "SELECT ply, side, notation, played_at FROM rithmo_turns WHERE game_id = ?"
                " ORDER BY ply",
                (game["game_id"],),
            )
        return {
            "format": EXPORT_FORMAT,
            "schema_version": db.version,
            "exported_at": to_db_time(utc()),
            "guild_id": guild_id,
            "user_id": user_id,
            "player": player[0],
            "ratings": await rows(
                "SELECT * FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY game"
            ),
            "focus_answers": await rows(
                "SELECT * FROM focus_answers WHERE guild_id = ? AND user_id = ?"
                " ORDER BY answered_at, answer_id"
            ),
            "daily_attempts": await rows(
                "SELECT * FROM daily_attempts WHERE guild_id = ? AND user_id = ? ORDER BY day"
            ),
            "digits_matches": await rows(
                "SELECT m.match_id, m.kind, m.status, m.round, s.seat, s.result,"
                " (SELECT o.user_id FROM digits_seats o"
                "   WHERE o.match_id = m.match_id AND o.seat <> s.seat) AS opponent_id,"
                " m.state, m.created_at, m.finished_at"
                " FROM digits_seats s JOIN digits_matches m ON m.match_id = s.match_id"
                " WHERE m.guild_id = ? AND s.user_id = ? ORDER BY m.match_id"
            ),
            "digits_ghosts": await rows(
                "SELECT match_id, round, slate, created_at FROM digits_ghosts"
                " WHERE guild_id = ? AND user_id = ? ORDER BY match_id, round"
            ),
            "rithmo_games": games,
        }


async def delete_player(db: Database, guild_id: int, user_id: int) -> dict[str, int]:
    stamp = to_db_time(utc())
    key = (guild_id, user_id)
    counts: dict[str, int] = {}
    async with db.transaction():
        await db.players.require(guild_id, user_id)
        # Their unfinished games cannot go on without them; the version moves on so that every
        # button still showing them is refused as stale.
        counts["digits_matches_abandoned"] = await db._run(
            "UPDATE digits_matches SET status = 'abandoned', version = version + 1,"
            " updated_at = ?, finished_at = ?, deadline = NULL"
            " WHERE guild_id = ? AND status IN ('pending', 'active') AND match_id IN"
            " (SELECT match_id FROM digits_seats WHERE user_id = ?)",
            (stamp, stamp, *key),
        )
        counts["rithmo_games_abandoned"] = await db._run(
            "UPDATE rithmo_games SET status = 'abandoned', version = version + 1,"
            " updated_at = ?, finished_at = ?, deadline = NULL"
            " WHERE guild_id = ? AND status IN ('pending', 'active') AND ? IN (white_id, black_id)",
            (stamp, stamp, *key),
        )
        # Games others played with them stay in the others' history, with an anonymous opponent.
        counts["digits_seats_anonymised"] = await db._run(
            "UPDATE digits_seats SET user_id = NULL, to_act = 0 WHERE user_id = ? AND match_id IN"
            " (SELECT match_id FROM digits_matches WHERE guild_id = ?)",
            (user_id, guild_id),
        )
        anonymised = 0
        for column in ("white_id", "black_id", "challenger_id"):
            changed = await db._run(
                f"UPDATE rithmo_games SET {column} = NULL WHERE guild_id = ? AND {column} = ?", key
            )
            if column != "challenger_id":
                anonymised += changed
        counts["rithmo_games_anonymised"] = anonymised
        for table in ("digits_ghosts", "focus_answers", "daily_attempts", "ratings", "players"):
            counts[table] = await db._run(
                f"DELETE FROM {table} WHERE guild_id = ? AND user_id = ?", key
            )
    return counts
