"""What the two board games share: statuses, and the queries across both (games waiting on a
player, games past their time limit)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Final

from db.connection import Connection, from_db_time, not_found, to_db_time, utc

#: pending: challenged, not yet accepted; active: being played; finished: played to a result;
#: declined: the challenge was refused; abandoned: stopped without a result (a player's data was
#: deleted, say).
STATUSES = ("pending", "active", "finished", "declined", "abandoned")
OPEN_STATUSES = ("pending", "active")
CLOSED_STATUSES = ("finished", "declined", "abandoned")
GAME_KINDS = ("digits", "rithmo")


class _Unset(Enum):
    UNSET = "unset"


#: "Leave this column as it is" (None would mean "set it to NULL").
UNSET: Final = _Unset.UNSET


def check_status(status: str) -> None:
    if status not in STATUSES:
        raise ValueError(f"unknown status {status!r}; one of {STATUSES}")


#: Where each kind of versioned game lives: (the kind's name in refusals, table, key column),
#: the first arguments of Connection.update_versioned and update_bookkeeping.
MATCHES: Final = ("match", "digits_matches", "match_id")
GAMES: Final = ("game", "rithmo_games", "game_id")


@dataclass(frozen=True)
class WaitingGame:
    """A game in which it is a member's turn (or a challenge they have not yet answered)."""

    game: str  # 'digits' or 'rithmo'
    game_id: int
    guild_id: int
    channel_id: int | None
    message_id: int | None
    status: str
    deadline: datetime | None
    version: int


@dataclass(frozen=True)
class OverdueGame:
    """An active game whose deadline has passed, with the members it waits on."""

    game: str
    game_id: int
    guild_id: int
    channel_id: int | None
    message_id: int | None
    deadline: datetime
    warned_at: datetime | None
    waiting_on: tuple[int, ...]
    version: int


class GamesRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    async def waiting_on(self, user_id: int, guild_id: int | None = None) -> list[WaitingGame]:
        """The open games waiting on the member (in one server, or all), the nearest deadline
        first: 20 Digits matches where they must act, Rithmomachia games where they are to move,
        and challenges made to them."""
        rows = await self._conn.all(
            "SELECT 'digits', m.match_id, m.guild_id, m.channel_id, m.message_id, m.status,"
            " m.deadline, m.version"
            " FROM digits_seats s JOIN digits_matches m ON m.match_id = s.match_id"
            " WHERE s.user_id = ? AND s.to_act = 1 AND m.status IN ('pending', 'active')"
            " AND (? IS NULL OR m.guild_id = ?)"
            " UNION ALL"
            " SELECT 'rithmo', game_id, guild_id, channel_id, message_id, status, deadline, version"
            " FROM rithmo_games WHERE status IN ('pending', 'active')"
            " AND (white_id = ? OR black_id = ?) AND (? IS NULL OR guild_id = ?)"
            " AND CASE status"
            "   WHEN 'active' THEN (CASE to_move WHEN 'white' THEN white_id ELSE black_id END) = ?"
            "   ELSE challenger_id IS NOT ? END",
            (user_id, guild_id, guild_id, user_id, user_id, guild_id, guild_id, user_id, user_id),
        )
        games = [
            WaitingGame(r[0], r[1], r[2], r[3], r[4], r[5], from_db_time(r[6]), r[7]) for r in rows
        ]
        # Games without a deadline last (a compound SELECT cannot sort on an expression).
        games.sort(key=lambda g: (g.deadline is None, g.deadline or utc(), g.game, g.game_id))
        return games

    async def overdue(self, now: datetime | None = None) -> list[OverdueGame]:
        """Active games whose deadline is at or before ``now``, the oldest deadline first."""
        stamp = to_db_time(utc(now))
        dialect = self._conn.dialect
        waiting_seats = ("digits_seats s WHERE s.match_id = m.match_id AND s.to_act = 1"
                         " AND s.user_id IS NOT NULL")
        to_move = "CASE to_move WHEN 'white' THEN white_id ELSE black_id END"
        rows = await self._conn.all(
            "SELECT 'digits', match_id, guild_id, channel_id, message_id, deadline, warned_at,"
            f" {dialect.json_values('user_id', waiting_seats)}, version"
            " FROM digits_matches m"
            " WHERE status = 'active' AND deadline IS NOT NULL AND deadline <= ?"
            " UNION ALL"
            " SELECT 'rithmo', game_id, guild_id, channel_id, message_id, deadline, warned_at,"
            f" {dialect.json_list(to_move)}, version"
            " FROM rithmo_games WHERE status = 'active' AND deadline IS NOT NULL AND deadline <= ?"
            " ORDER BY 6, 1, 2",
            (stamp, stamp),
        )
        games = []
        for r in rows:
            deadline = from_db_time(r[5])
            assert deadline is not None
            waiting = tuple(u for u in json.loads(r[7]) if u is not None)
            games.append(
                OverdueGame(
                    r[0], r[1], r[2], r[3], r[4], deadline, from_db_time(r[6]), waiting, r[8]
                )
            )
        return games

    async def mark_warned(
        self,
        game: str,
        game_id: int,
        *,
        grace_deadline: datetime | None = None,
        now: datetime | None = None,
    ) -> bool:
        """Note that the late player was warned (and, if given, move the deadline to the end of
        the grace time), unless they were warned already: whether this call did it, and so
        should tell them (of two processes checking the same game at once, one does). The
        game's version is kept: its buttons stay valid."""
        if game not in GAME_KINDS:
            raise ValueError(f"unknown game {game!r}")
        moment = utc(now)
        kind, table, key = MATCHES if game == "digits" else GAMES
        # Bookkeeping: the grace time is the same turn's clock, not a change a player acts on.
        changed = await self._conn.run(
            f"UPDATE {table} SET warned_at = ?, deadline = coalesce(?, deadline)"
            f" WHERE {key} = ? AND warned_at IS NULL",
            (to_db_time(moment), None if grace_deadline is None else to_db_time(grace_deadline),
             game_id),
        )
        if changed:
            return True
        if await self._conn.one(f"SELECT 1 FROM {table} WHERE {key} = ?", (game_id,)) is None:
            raise not_found(kind, id=game_id)
        return False
