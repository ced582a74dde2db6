"""The 20 Digits: matches (the engine's state, versioned), their seats, and the ghost slates.

What a match shares with a Rithmomachia game (its row, its version, loading it with its seats in
one query, the refusal to finish it twice) is ``db.versioned``'s."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from db.connection import Row, db_time, dumps, to_db_time, utc
from db.games import CLOSED_STATUSES, MATCHES, UNSET, _Unset, check_status
from db.players import RatingChange
from db.versioned import Layout, VersionedGames, common_fields

#: duel: two members; ghost: one member against the slates others fielded.
MATCH_KINDS = ("duel", "ghost")
RESULTS = {1.0: "win", 0.5: "draw", 0.0: "loss"}
#: A match's seats as a JSON list, read with the match in one query (``Layout.children``).
SEATS = ("seats", "seat, user_id, to_act, result", "digits_seats", "seat")


@dataclass(frozen=True)
class Seat:
    seat: int
    user_id: int | None  # None once the player's data was deleted
    to_act: bool
    result: str | None  # 'win', 'loss', 'draw' once finished


@dataclass(frozen=True)
class DigitsMatch:
    match_id: int
    guild_id: int
    channel_id: int | None
    message_id: int | None
    kind: str
    status: str
    round: int
    state: dict[str, Any]
    version: int
    seats: tuple[Seat, ...]
    deadline: datetime | None
    warned_at: datetime | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None

    @property
    def players(self) -> tuple[int | None, ...]:
        return tuple(seat.user_id for seat in self.seats)

    @property
    def waiting_on(self) -> tuple[int, ...]:
        return tuple(s.user_id for s in self.seats if s.to_act and s.user_id is not None)


@dataclass(frozen=True)
class GhostRow:
    """The slate a member fielded at one round of one match."""

    user_id: int
    match_id: int
    round: int
    slate: Any
    created_at: datetime


class DigitsRepository(VersionedGames[DigitsMatch]):
    layout = Layout("digits", MATCHES, "m", SEATS, not_active="digits.not_active")

    def _read(self, row: Row) -> DigitsMatch:
        return DigitsMatch(
            state=json.loads(row["state"]),
            seats=tuple(
                Seat(seat, user, bool(to_act), result)
                for seat, user, to_act, result in json.loads(row["seats"])
            ),
            **common_fields(row, "match_id", "kind", "round"),
        )

    async def create_match(
        self,
        guild_id: int,
        players: Sequence[int],
        state: Mapping[str, Any],
        *,
        status: str = "pending",
        to_act: Iterable[int] | None = None,
        channel_id: int | None = None,
        message_id: int | None = None,
        deadline: datetime | None = None,
        now: datetime | None = None,
    ) -> DigitsMatch:
        """A new match at version 1: a duel for two members (the challenger first), a ghost match
        for one. ``to_act`` (the members it waits on) defaults to the challenged member while
        pending, and to every player once active."""
        check_status(status)
        if len(players) not in (1, 2) or len(set(players)) != len(players):
            raise ValueError(f"a match is one member or two different members: {players}")
        kind = "duel" if len(players) == 2 else "ghost"
        if to_act is None:
            to_act = players[1:] if status == "pending" else players
        waiting = set(to_act)
        async with self._conn.atomic():
            match_id = await self._insert(guild_id, players, {
                "channel_id": channel_id, "message_id": message_id, "kind": kind,
                "status": status, "state": dumps(state),
                "deadline": None if deadline is None else to_db_time(deadline),
            }, utc(now))
            await self._conn.many(
                "INSERT INTO digits_seats (match_id, seat, user_id, to_act) VALUES (?, ?, ?, ?)",
                [(match_id, seat, user, int(user in waiting)) for seat, user in enumerate(players)],
            )
            return await self.require_match(match_id)

    async def get_match(self, match_id: int) -> DigitsMatch | None:
        return await self._one(match_id)

    async def open_matches(
        self, guild_id: int, user_id: int, *, kind: str | None = None, seat: int | None = None
    ) -> list[DigitsMatch]:
        """The member's pending and active matches in one server, the oldest first: of one
        ``kind`` ("duel", "ghost") and in one ``seat`` (0: the challenger) when given."""
        return await self._many(
            " JOIN digits_seats s ON s.match_id = m.match_id"
            " WHERE s.user_id = ? AND m.guild_id = ? AND m.status IN ('pending', 'active')"
            " AND (? IS NULL OR m.kind = ?) AND (? IS NULL OR s.seat = ?)"
            " ORDER BY m.match_id",
            (user_id, guild_id, kind, kind, seat, seat),
        )

    async def finished_solo(self, guild_id: int, user_id: int, limit: int = 10
                            ) -> list[DigitsMatch]:
        """The member's last ``limit`` solo (ghost) matches in one server that have a result,
        the oldest of them first (what "adapt" reads to choose the next solo's level)."""
        rows = await self._conn.all(
            f"SELECT * FROM ({self._select} JOIN digits_seats s ON s.match_id = m.match_id"
            " WHERE s.user_id = ? AND m.guild_id = ? AND m.kind = 'ghost'"
            " AND s.result IS NOT NULL"
            " ORDER BY m.finished_at DESC, m.match_id DESC LIMIT ?) AS latest"
            " ORDER BY finished_at, match_id",
            (user_id, guild_id, limit),
        )
        return [self._read(row) for row in rows]

    async def require_match(self, match_id: int) -> DigitsMatch:
        """The match, or ``DomainError("db.not_found")``."""
        return await self._required(match_id)

    async def save_match(
        self,
        match_id: int,
        state: Mapping[str, Any],
        expected_version: int,
        *,
        status: str | None = None,
        round: int | None = None,
        to_act: Iterable[int] | None = None,
        deadline: datetime | _Unset | None = UNSET,
        now: datetime | None = None,
    ) -> int:
        """Store the match's new state if it is still at ``expected_version``; the new version.

        Otherwise nothing changes and :class:`~db.connection.StaleVersion` (code "db.stale") is
        raised: someone acted on the match since that version was read. The other arguments
        change those columns too (a new ``deadline`` clears the warning); a closing status clears
        ``to_act``. Where the match is shown is bookkeeping: :meth:`set_message_id`.
        """
        sets, params = self._changes(utc(now), status=status, deadline=deadline)
        sets.append("state = ?")
        params.append(dumps(state))
        if status in CLOSED_STATUSES:
            to_act = ()
        if round is not None:
            sets.append("round = ?")
            params.append(round)
        # Refused before any write: no savepoint needed inside a caller's transaction.
        async with self._conn.atomic() if to_act is not None else nullcontext():
            version = await self._update(match_id, expected_version, sets, params)
            if to_act is not None:
                waiting = sorted(set(to_act))
                marks = ", ".join("?" * len(waiting))
                await self._conn.run(
                    f"UPDATE digits_seats SET to_act = CASE WHEN user_id IN ({marks}) THEN 1"
                    " ELSE 0 END WHERE match_id = ?" if waiting else
                    "UPDATE digits_seats SET to_act = 0 WHERE match_id = ?",
                    (*waiting, match_id),
                )
            return version

    async def finish_match(
        self,
        match_id: int,
        state: Mapping[str, Any],
        expected_version: int,
        scores: Mapping[int, float],
        *,
        now: datetime | None = None,
    ) -> dict[int, RatingChange]:
        """End the match: its final state, each member's result (``scores``: 1 win, ½ draw,
        0 loss, by user id), and, for a duel, both ratings, in one transaction. The rating
        changes (none for a ghost match: ghosts are practice, not rated)."""
        for score in scores.values():
            if score not in RESULTS:
                raise ValueError(f"a match score is 1, 0.5 or 0, not {score}")
        moment = utc(now)
        async with self._conn.transaction():
            match = await self._finishing(match_id, expected_version)
            members = [u for u in match.players if u is not None]
            if set(scores) != set(members):
                raise ValueError(f"scores {dict(scores)} must name the players {members}")
            if match.kind == "duel" and len(members) == 2 and sum(scores.values()) != 1.0:
                raise ValueError(f"the two scores of a duel add up to 1: {dict(scores)}")
            await self.save_match(match_id, state, expected_version, status="finished", now=moment)
            await self._conn.many(
                "UPDATE digits_seats SET result = ? WHERE match_id = ? AND user_id = ?",
                [(RESULTS[score], match_id, user) for user, score in scores.items()],
            )
            if match.kind != "duel" or len(members) != 2:
                return {}
            first, second = members
            return await self._rate(match.guild_id, first, second, scores[first], moment)

    # --- Ghosts ------------------------------------------------------------------------------

    async def record_ghost(
        self,
        match_id: int,
        user_id: int,
        round: int,
        slate: Any,
        now: datetime | None = None,
        *,
        match: DigitsMatch | None = None,
    ) -> None:
        """Keep the slate ``user_id`` fielded at ``round`` of the match (replacing an earlier
        record of the same round). ``match``: the match's row as the caller read it in this
        transaction (saving the round that made the ghost), so that it is not read again."""
        if round < 1:
            raise ValueError(f"rounds start at 1, not {round}")
        async with self._conn.atomic():
            if match is None or match.match_id != match_id:
                match = await self.require_match(match_id)
            if user_id not in match.players:
                raise ValueError(f"member {user_id} does not play match {match_id}")
            await self._conn.run(
                "INSERT INTO digits_ghosts (match_id, user_id, round, guild_id, slate, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, user_id, round) DO UPDATE SET"
                " slate = excluded.slate, created_at = excluded.created_at",
                (match_id, user_id, round, match.guild_id, dumps(slate), to_db_time(utc(now))),
            )

    async def ghost_pool(
        self, guild_id: int, round: int, exclude_user_id: int, limit: int = 20
    ) -> list[GhostRow]:
        """Slates fielded at ``round`` on the server by members other than ``exclude_user_id``:
        each member's latest one only (so that one keen player does not fill the pool), the
        latest first."""
        rows = await self._conn.all(
            "SELECT user_id, match_id, round, slate, created_at FROM ("
            " SELECT *, ROW_NUMBER() OVER ("
            "   PARTITION BY user_id ORDER BY created_at DESC, match_id DESC) AS nth"
            " FROM digits_ghosts WHERE guild_id = ? AND round = ? AND user_id <> ?) AS ranked"
            " WHERE nth = 1 ORDER BY created_at DESC, match_id DESC LIMIT ?",
            (guild_id, round, exclude_user_id, limit),
        )
        ghosts = []
        for row in rows:
            ghosts.append(
                GhostRow(
                    row["user_id"],
                    row["match_id"],
                    row["round"],
                    json.loads(row["slate"]),
                    db_time(row["created_at"]),
                )
            )
        return ghosts

    # --- The shop clock ------------------------------------------------------------------------

    async def clock_due(self, now: datetime, warn_within: float) -> list[int]:
        """Active matches whose deadline is past at ``now``, or not yet warned and less than
        ``warn_within`` seconds away (the caller works out each one's own warning time), the
        soonest deadline first (the deadline index)."""
        rows = await self._conn.all(
            "SELECT match_id FROM digits_matches WHERE status = 'active'"
            " AND deadline IS NOT NULL AND (deadline <= ? OR (warned_at IS NULL AND deadline <= ?))"
            " ORDER BY deadline, match_id",
            (to_db_time(utc(now)), to_db_time(utc(now) + timedelta(seconds=warn_within))),
        )
        return [row["match_id"] for row in rows]
