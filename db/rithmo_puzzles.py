"""Rithmomachia's daily capture puzzles: one per server and day, one counted answer per member.

The puzzle itself is the engine's JSON (``bot/rithmo/puzzles.py``), stored as drawn; SQL never
looks into it. The finished games a puzzle may come from are read here too (their turns), so
that the use case draws a position from the server's own games.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from db.connection import Connection, Row, db_time, dumps, to_db_time, utc
from db.players import PlayersRepository
from db.servers import ServersRepository


@dataclass(frozen=True)
class DailyPuzzle:
    puzzle_id: int
    guild_id: int
    day: date
    puzzle: Any
    created_at: datetime


@dataclass(frozen=True)
class PuzzleAnswer:
    puzzle_id: int
    user_id: int
    day: date
    answer: str
    solved: bool
    answered_at: datetime


@dataclass(frozen=True)
class FinishedGame:
    """A finished game's settings and turns, as the engine replays them."""

    game_id: int
    victories: Any
    turns: list[str]


def _puzzle(row: Row) -> DailyPuzzle:
    return DailyPuzzle(row["puzzle_id"], row["guild_id"], date.fromisoformat(row["day"]),
                       json.loads(row["puzzle"]), db_time(row["created_at"]))


def _answer(row: Row) -> PuzzleAnswer:
    return PuzzleAnswer(row["puzzle_id"], row["user_id"], date.fromisoformat(row["day"]),
                        row["answer"], bool(row["solved"]), db_time(row["answered_at"]))


class RithmoPuzzlesRepository:
    def __init__(self, conn: Connection, servers: ServersRepository,
                 players: PlayersRepository) -> None:
        self._conn = conn
        self._servers = servers
        self._players = players

    async def daily(self, guild_id: int, day: date) -> DailyPuzzle | None:
        row = await self._conn.one(
            "SELECT * FROM rithmo_puzzles WHERE guild_id = ? AND day = ?",
            (guild_id, day.isoformat()))
        return None if row is None else _puzzle(row)

    async def create_daily(self, guild_id: int, day: date, puzzle: Any,
                           now: datetime | None = None) -> DailyPuzzle:
        """The server's puzzle of ``day``: ``puzzle`` stored unless one already is (two members
        asking at once both get the one stored first)."""
        async with self._conn.atomic():
            await self._servers.ensure(guild_id, now)
            await self._conn.run(
                "INSERT INTO rithmo_puzzles (guild_id, day, puzzle, created_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, day) DO NOTHING",
                (guild_id, day.isoformat(), dumps(puzzle), to_db_time(utc(now))))
            stored = await self.daily(guild_id, day)
        assert stored is not None
        return stored

    async def answer_of(self, puzzle_id: int, user_id: int) -> PuzzleAnswer | None:
        row = await self._conn.one(
            "SELECT * FROM rithmo_puzzle_solves WHERE puzzle_id = ? AND user_id = ?",
            (puzzle_id, user_id))
        return None if row is None else _answer(row)

    async def record_answer(self, puzzle: DailyPuzzle, user_id: int, answer: str, solved: bool,
                            now: datetime | None = None) -> bool:
        """Count the member's answer, if it is their first to this puzzle: whether it was."""
        async with self._conn.atomic():
            await self._players.ensure(puzzle.guild_id, user_id, now)
            added = await self._conn.run(
                "INSERT INTO rithmo_puzzle_solves (puzzle_id, guild_id, user_id, day, answer,"
                " solved, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (puzzle_id, user_id) DO NOTHING",
                (puzzle.puzzle_id, puzzle.guild_id, user_id, puzzle.day.isoformat(), answer,
                 int(solved), to_db_time(utc(now))))
        return added == 1

    async def answers(self, guild_id: int, user_id: int,
                      since: date | None = None) -> list[PuzzleAnswer]:
        """The member's counted answers (from ``since``, included), oldest first: /progress."""
        rows = await self._conn.all(
            "SELECT * FROM rithmo_puzzle_solves WHERE guild_id = ? AND user_id = ? AND day >= ?"
            " ORDER BY day",
            (guild_id, user_id, "" if since is None else since.isoformat()))
        return [_answer(row) for row in rows]

    async def results(self, guild_id: int, user_id: int) -> list[tuple[date, bool]]:
        """Each day the member answered the puzzle, and whether their counted answer was right,
        oldest first: the puzzle streak is worked out from them."""
        rows = await self._conn.all(
            "SELECT day, solved FROM rithmo_puzzle_solves WHERE guild_id = ? AND user_id = ?"
            " ORDER BY day", (guild_id, user_id))
        return [(date.fromisoformat(row["day"]), bool(row["solved"])) for row in rows]

    async def past_puzzle(self, guild_id: int, puzzle_id: int) -> DailyPuzzle | None:
        """One of the server's daily puzzles by its id (None: not this server's)."""
        row = await self._conn.one(
            "SELECT * FROM rithmo_puzzles WHERE puzzle_id = ? AND guild_id = ?",
            (puzzle_id, guild_id))
        return None if row is None else _puzzle(row)

    async def past_puzzle_ids(self, guild_id: int, before: date) -> list[int]:
        """The ids of the server's daily puzzles of the days before ``before``, oldest first:
        what /rithmo puzzle practice draws from."""
        rows = await self._conn.all(
            "SELECT puzzle_id FROM rithmo_puzzles WHERE guild_id = ? AND day < ?"
            " ORDER BY day", (guild_id, before.isoformat()))
        return [int(row["puzzle_id"]) for row in rows]

    async def solvers(self, puzzle_id: int) -> tuple[int, int]:
        """How many members answered the puzzle, and how many of them right."""
        row = await self._conn.one(
            "SELECT count(*), coalesce(sum(solved), 0) FROM rithmo_puzzle_solves"
            " WHERE puzzle_id = ?", (puzzle_id,))
        assert row is not None
        return int(row[0]), int(row[1])

    async def finished_games(self, guild_id: int, before: datetime,
                             limit: int = 20) -> list[FinishedGame]:
        """The server's games finished before ``before`` (the newest first, at most ``limit``,
        at least 10 turns long), with their turns: where the daily puzzle's position comes
        from."""
        turns = self._conn.dialect.json_rows(  # [[notation], …] by ply, on either engine
            "notation", "rithmo_turns WHERE game_id = g.game_id", "ply")
        rows = await self._conn.all(
            f"SELECT g.game_id, g.victories, {turns}"
            " AS turns FROM rithmo_games g WHERE g.guild_id = ? AND g.status = 'finished'"
            " AND g.finished_at < ?"
            " AND (SELECT count(*) FROM rithmo_turns WHERE game_id = g.game_id) >= 10"
            " ORDER BY g.finished_at DESC, g.game_id DESC LIMIT ?",
            (guild_id, to_db_time(before), limit))
        return [FinishedGame(row["game_id"], json.loads(row["victories"]),
                             [turn for (turn,) in json.loads(row["turns"])]) for row in rows]
