"""The skeleton of a versioned game's repository: The 20 Digits' matches and Rithmomachia's games.

Both keep one row a game (its server, channel and message, its status, its clock, its version,
its times) and child rows read with it as one JSON list (a match's seats, a game's turns), so
that loading a game is one query, a round trip being the cost. Both change a game only from the
version it was read at (:meth:`~db.connection.Connection.update_versioned`), record where it is
shown as bookkeeping that keeps the version, and finish it once: finishing a game that is no
longer being played would rate it twice. :class:`VersionedGames` is that skeleton; each
repository (``db.digits``, ``db.rithmo``) says what its game has of its own.

The SQL is written once for both dialects: the JSON list comes from
:meth:`~db.dialect.Dialect.json_rows`, the new key from ``INSERT … RETURNING``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from bot.domain import DomainError
from db.connection import Connection, Row, db_time, from_db_time, not_found, to_db_time
from db.games import CLOSED_STATUSES, UNSET, _Unset, check_status
from db.players import PlayersRepository, RatingChange


class Game(Protocol):
    """What the skeleton reads of a game: its status and its version."""

    @property
    def status(self) -> str: ...

    @property
    def version(self) -> int: ...


G = TypeVar("G", bound=Game)


#: The columns every game row has that its dataclass takes as they are stored.
PLAIN = ("guild_id", "channel_id", "message_id", "status", "version")


def common_fields(row: Row, *plain: str) -> dict[str, Any]:
    """The columns every game row has, as the game's dataclass takes them, with the game's own
    ``plain`` columns (taken as they are stored)."""
    return {
        **{column: row[column] for column in (*PLAIN, *plain)},
        "deadline": from_db_time(row["deadline"]),
        "warned_at": from_db_time(row["warned_at"]),
        "created_at": db_time(row["created_at"]),
        "updated_at": db_time(row["updated_at"]),
        "finished_at": from_db_time(row["finished_at"]),
    }


@dataclass(frozen=True)
class Layout:
    """Where one kind of game lives: its name (``game``: "digits", the ratings' kind and the
    prefix of its refusals), its table (``where``: ``db.games.MATCHES`` or ``GAMES``), the
    alias its queries give that table, its child rows (the name their JSON list is read as,
    their columns, their table, their order), and the code of the refusal of a change only a
    game being played takes (written out, so that a search for it finds where it is raised)."""

    game: str
    where: tuple[str, str, str]
    alias: str
    children: tuple[str, str, str, str]
    not_active: str


class VersionedGames(Generic[G]):
    """What a repository of one kind of versioned game shares with the other. A subclass
    gives its :class:`Layout` and how a row becomes its dataclass (:meth:`_read`)."""

    layout: ClassVar[Layout]

    def __init__(self, conn: Connection, players: PlayersRepository) -> None:
        self._conn = conn
        self._players = players
        self.game, self.where, self.alias = self.layout.game, self.layout.where, self.layout.alias
        _, table, key = self.where
        name, columns, child_table, order = self.layout.children
        rows = conn.dialect.json_rows(
            columns, f"{child_table} WHERE {key} = {self.alias}.{key}", order)
        #: ``SELECT`` of whole games, each with its child rows, up to the ``FROM``'s alias.
        self._select = f"SELECT {self.alias}.*, {rows} AS {name} FROM {table} {self.alias}"

    def _read(self, row: Row) -> G:
        raise NotImplementedError

    # --- Reading -------------------------------------------------------------------------------

    async def _one(self, game_id: int) -> G | None:
        key = self.where[2]
        row = await self._conn.one(f"{self._select} WHERE {self.alias}.{key} = ?", (game_id,))
        return None if row is None else self._read(row)

    async def _required(self, game_id: int) -> G:
        """The game, or ``DomainError("db.not_found")``."""
        game = await self._one(game_id)
        if game is None:
            raise not_found(self.where[0], id=game_id)
        return game

    async def _many(self, rest: str, params: Sequence[Any]) -> list[G]:
        """The games that ``rest`` (joins, WHERE, ORDER BY after the table's alias) selects."""
        return [self._read(row) for row in await self._conn.all(f"{self._select}{rest}", params)]

    # --- Writing -------------------------------------------------------------------------------

    async def _insert(self, guild_id: int, members: Iterable[int | None],
                      columns: Mapping[str, Any], moment: datetime) -> int:
        """A new game row at version 1 (``columns`` besides its two times), its members known
        to the players' table first; the new key. Inside the caller's transaction, with the
        child rows it writes after."""
        _, table, key = self.where
        await self._players.ensure_many(
            [(guild_id, user) for user in members if user is not None], moment)
        stamp = to_db_time(moment)
        values = {"guild_id": guild_id, **columns, "created_at": stamp, "updated_at": stamp}
        return await self._conn.insert(
            f"INSERT INTO {table} ({', '.join(values)})"
            f" VALUES ({', '.join('?' * len(values))}) RETURNING {key}",
            tuple(values.values()),
        )

    @staticmethod
    def _changes(moment: datetime, *, status: str | None = None,
                 deadline: datetime | _Unset | None = UNSET) -> tuple[list[str], list[Any]]:
        """The SET clauses and parameters every change has: the time it was made; a new
        ``status`` (a closing one also stamps ``finished_at``); a new ``deadline``, which
        clears the warning of the clock before it."""
        sets = ["updated_at = ?"]
        params: list[Any] = [to_db_time(moment)]
        if status is not None:
            check_status(status)
            sets.append("status = ?")
            params.append(status)
            if status in CLOSED_STATUSES:
                sets.append("finished_at = ?")
                params.append(to_db_time(moment))
        if deadline is not UNSET:
            sets.append("deadline = ?, warned_at = NULL")
            params.append(None if deadline is None else to_db_time(deadline))
        return sets, params

    async def _update(self, game_id: int, expected_version: int, sets: Sequence[str],
                      params: Sequence[Any]) -> int:
        """The change, if the game is still at ``expected_version``: the new version, else
        :class:`~db.connection.StaleVersion` (or ``db.not_found``)."""
        return await self._conn.update_versioned(
            *self.where, game_id, expected_version, sets, params)

    async def set_message_id(self, game_id: int, message_id: int | None, *,
                             if_version: int | None = None) -> bool:
        """Make ``message_id`` the game's public message (the one whose buttons count).
        Bookkeeping: the version is kept, so that no click and no change read before is made
        stale by it, and it can land at any time beside a change of state.

        With ``if_version``, only while the game is still at that version, the one the message
        shows (a change since makes that message out of date): whether it was stored."""
        return await self._conn.update_bookkeeping(
            *self.where, game_id, ["message_id = ?"], [message_id], if_version=if_version)

    def not_active(self, status: str) -> DomainError:
        """The refusal of a change only a game being played takes (``digits.not_active``)."""
        return DomainError(self.layout.not_active, f"this {self.where[0]} is not being played",
                           status=status)

    async def _finishing(self, game_id: int, expected_version: int) -> G:
        """The game about to be finished, inside the caller's transaction. One already over
        (or never begun) at the version the caller read is refused: finishing it again would
        rate it twice. A version that moved on is left to the update to refuse as stale."""
        game = await self._required(game_id)
        if game.version == expected_version and game.status != "active":
            raise self.not_active(game.status)
        return game

    async def _rate(self, guild_id: int, first: int, second: int, score_first: float,
                    moment: datetime) -> dict[int, RatingChange]:
        """Rate a game between two members (``score_first``: 1, ½ or 0 for ``first``)."""
        return await self._players.record_game(
            guild_id, self.game, first, second, score_first, moment)
