"""How long a server keeps its members' data: the erasure of what is older than a moment
(``/settings privacy``'s daily task, ``python -m db purge``), and who has data on a server (the
end of the school year, ``/class end-of-year``).

What goes, for one server, older than the moment (each row by its own time):
- every Focus answer (practice, daily, live, match, assignment, a teacher's set:
  ``focus_answers.answered_at``), with the class report's rollups, which migration 11's delete
  trigger takes the answers out of in the same statement;
- the daily attempts, the assignment attempts and the Rithmomachia puzzle answers
  (``started_at``, ``answered_at``);
- finished games (by ``finished_at``) and challenges never answered (by their last change):
  20 Digits matches with their seats and the ghost slates fielded in them (a ghost is a child's
  play as much as their answers are: it leaves the pool with its match), Rithmomachia games
  with their turns and kept reviews; live rounds by their last change, finished or left open;
  placement rounds (their questions and answers) by their last change.
  A game being played is never erased by age (its time limit ends it; then its age counts).

Each statement deletes at most ``batch`` rows in its own transaction, so that a big server never
holds the writer (SQLite's file lock, PostgreSQL's row locks) for long; members go on playing
between two batches. A second process erasing the same server at the same moment finds the rows
gone and counts nothing.

What is derived from the answers follows them: the rollups by the trigger (and their
``first_slot``, the order of the report's pseudonyms, moved to the first answer left); the
mastery of each member whose answers went is worked out again from what is left (their rows
deleted and the member queued in ``focus_mastery_backfill``, which ``db.mastery`` replays on the
next read). What is a member's current state rather than a history stays: their level, gold,
ratings and records, daily streaks (a count and a last day), student settings.
"""

from __future__ import annotations

from datetime import date, datetime

from bot.domain import DomainError
from db.connection import Connection, to_db_time, utc
from db.export import delete_player

#: Rows one statement deletes at most.
BATCH = 500
#: The members one statement of the mastery's reset names at most.
_MEMBERS = 500
#: A game not being played: over, or a challenge never answered (by its last change). A game
#: being played is never erased by age: its time limit ends it, and then its age counts.
_IDLE = "status <> 'active'"


class RetentionRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    async def purge(self, guild_id: int, before: datetime, batch: int = BATCH
                    ) -> dict[str, int]:
        """Erase the server's answers and finished games older than ``before``; the counts of
        rows erased, per table (zeros included)."""
        if batch < 1:
            raise ValueError(f"a batch is one row or more, not {batch}")
        stamp = to_db_time(utc(before))
        counts: dict[str, int] = {}
        answered: set[int] = set()
        while True:
            rows = await self._conn.returning(
                "DELETE FROM focus_answers WHERE answer_id IN (SELECT answer_id FROM"
                " focus_answers WHERE guild_id = ? AND answered_at < ?"
                " ORDER BY answered_at LIMIT ?) RETURNING user_id", (guild_id, stamp, batch))
            counts["focus_answers"] = counts.get("focus_answers", 0) + len(rows)
            answered.update(row[0] for row in rows)
            if len(rows) < batch:
                break
        for table, key, moment in (
                ("daily_attempts", "day, user_id", "started_at"),
                ("assignment_attempts", "assignment_id, user_id", "started_at"),
                ("rithmo_puzzle_solves", "puzzle_id, user_id", "answered_at")):
            counts[table] = await self._batches(
                f"DELETE FROM {table} WHERE guild_id = ? AND ({key}) IN (SELECT {key}"
                f" FROM {table} WHERE guild_id = ? AND {moment} < ? LIMIT ?)",
                (guild_id, guild_id, stamp, batch), batch)
        counts.update(await self._games(
            guild_id, stamp, batch, "digits_matches", "match_id",
            ("digits_ghosts", "digits_seats")))
        counts.update(await self._games(
            guild_id, stamp, batch, "rithmo_games", "game_id", ("rithmo_turns", "rithmo_reviews")))
        # A live round left untouched that long (a teacher's round never ended) goes too: its
        # state names the students who answered.
        counts["focus_live_rounds"] = await self._batches(
            "DELETE FROM focus_live_rounds WHERE live_id IN (SELECT live_id FROM"
            " focus_live_rounds WHERE guild_id = ? AND updated_at < ? LIMIT ?)",
            (guild_id, stamp, batch), batch)
        # A placement's state holds its questions and answers: it goes as they do (a student
        # with no answer left may then be offered a placement again, which is what they need).
        counts["focus_placements"] = await self._batches(
            "DELETE FROM focus_placements WHERE (guild_id, user_id) IN (SELECT guild_id, user_id"
            " FROM focus_placements WHERE guild_id = ? AND updated_at < ? LIMIT ?)",
            (guild_id, stamp, batch), batch)
        if answered:
            await self._after_answers(guild_id, sorted(answered), int(utc(before).timestamp()))
        counts.update(await self._web_students(guild_id, stamp))
        return counts

    async def _web_students(self, guild_id: int, stamp: str) -> dict[str, int]:
        """Browser students not seen since ``stamp`` are erased whole, as ``delete-player``
        erases a member (their seat, answers, mastery, attempts, their part of live rounds):
        nobody could name them again, and a nickname alone is nothing to keep. Then the rooms
        closed (or run out) before ``stamp`` that no seat holds any more."""
        rows = await self._conn.all(
            "SELECT user_id FROM web_seats WHERE guild_id = ? AND seen_at < ? ORDER BY user_id",
            (guild_id, stamp))
        erased = 0
        for row in rows:
            try:
                await delete_player(self._conn, guild_id, row[0])
            except DomainError as error:
                if error.code != "db.not_found":
                    raise
                continue  # erased meanwhile (another process, the command line)
            erased += 1
        rooms = await self._conn.run(
            "DELETE FROM web_rooms WHERE guild_id = ? AND COALESCE(closed_at, expires_at) < ?"
            " AND NOT EXISTS (SELECT 1 FROM web_seats s WHERE s.room_id = web_rooms.room_id)",
            (guild_id, stamp))
        return {"web_students": erased, "web_rooms": rooms}

    async def _batches(self, sql: str, params: tuple[object, ...], batch: int) -> int:
        """Run a bounded DELETE until it deletes less than a batch; the rows deleted."""
        total = 0
        while True:
            deleted = await self._conn.run(sql, params)
            total += deleted
            if deleted < batch:
                return total

    async def _games(self, guild_id: int, stamp: str, batch: int, table: str, key: str,
                     children: tuple[str, ...]) -> dict[str, int]:
        """Finished games older than ``stamp`` with their rows in ``children``, a batch of games
        per transaction (children first: they are counted, not left to the cascade)."""
        counts = dict.fromkeys((table, *children), 0)
        while True:
            async with self._conn.transaction():
                ids = [row[0] for row in await self._conn.all(
                    f"SELECT {key} FROM {table} WHERE guild_id = ? AND {_IDLE}"
                    f" AND COALESCE(finished_at, updated_at) < ? LIMIT ?",
                    (guild_id, stamp, batch))]
                if ids:
                    marks = ", ".join("?" * len(ids))
                    for child in children:
                        counts[child] += await self._conn.run(
                            f"DELETE FROM {child} WHERE {key} IN ({marks})", ids)
                    counts[table] += await self._conn.run(
                        f"DELETE FROM {table} WHERE {key} IN ({marks})", ids)
            if len(ids) < batch:
                return counts

    async def _after_answers(self, guild_id: int, user_ids: list[int], before_s: int) -> None:
        """The derived rows of members whose answers went: the rollups' first slot, and the
        mastery made again from the answers left."""
        await self._conn.run(
            "UPDATE focus_rollup_total SET first_slot = COALESCE((SELECT min(r.slot) FROM"
            " focus_rollup AS r WHERE r.guild_id = focus_rollup_total.guild_id"
            " AND r.user_id = focus_rollup_total.user_id AND r.topic = focus_rollup_total.topic),"
            " first_slot) WHERE guild_id = ? AND first_slot <= ?", (guild_id, before_s // 900))
        for start in range(0, len(user_ids), _MEMBERS):
            part = user_ids[start:start + _MEMBERS]
            marks = ", ".join("?" * len(part))
            async with self._conn.transaction():
                await self._conn.run(
                    f"DELETE FROM focus_mastery WHERE guild_id = ? AND user_id IN ({marks})",
                    (guild_id, *part))
                # Only members still known: one erased meanwhile has no row to hang it on.
                await self._conn.run(
                    "INSERT INTO focus_mastery_backfill (guild_id, user_id) SELECT guild_id,"
                    f" user_id FROM players WHERE guild_id = ? AND user_id IN ({marks})"
                    " ON CONFLICT (guild_id, user_id) DO NOTHING", (guild_id, *part))

    async def claim_told(self, guild_id: int, until: date) -> bool:
        """Whether this caller is the one to tell the teachers that the school year ending on
        ``until`` is over: one statement, so that of two processes exactly one does, once."""
        day = until.isoformat()
        return await self._conn.run(
            "UPDATE servers SET retention_told = ? WHERE guild_id = ? AND retention_until = ?"
            " AND (retention_told IS NULL OR retention_told <> ?)",
            (day, guild_id, day, day)) == 1

    async def members(self, guild_id: int) -> list[int]:
        """Every member the server holds data of (a player row: their first answer, game or
        setting made it), by id."""
        rows = await self._conn.all(
            "SELECT user_id FROM players WHERE guild_id = ? ORDER BY user_id", (guild_id,))
        return [row[0] for row in rows]


__all__ = ["BATCH", "RetentionRepository"]
