"""A teacher's own questions, by named set (``/class questions``): each item a text, its answer
and an optional topic. Names are unique in a server, whatever their case.

An item's answer is a whole number (an ``int``, as every set stored before schema 19), or its
accepted answers as the teacher wrote them (a ``str``: ``"1/2 | 0.5"``, ``"4.5"``; read by
``bot.focus.exact.accepted_values``), kept in ``question_set_items.answers`` (migration 0019)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from db.connection import Connection, IntegrityError, Row, db_time, to_db_time, utc
from db.servers import ServersRepository


@dataclass(frozen=True)
class SetItem:
    text: str
    answer: int | str  # a whole number, or the accepted answers as written ("1/2 | 0.5")
    topic: str | None = None


def _columns(answer: int | str) -> tuple[int, str | None]:
    """The columns ``answer`` and ``answers`` of an item's answer (the migration's rule)."""
    if isinstance(answer, int):
        return answer, None
    first = answer.split("|")[0].strip()
    return int(Fraction(first)), answer  # int() of a Fraction: its whole part toward zero


@dataclass(frozen=True)
class QuestionSet:
    set_id: int
    guild_id: int
    name: str
    author_id: int | None
    created_at: datetime
    size: int


def _set(row: Row) -> QuestionSet:
    return QuestionSet(set_id=row["set_id"], guild_id=row["guild_id"], name=row["name"],
                       author_id=row["author_id"], created_at=db_time(row["created_at"]),
                       size=row["size"])


_SELECT = ("SELECT s.*, (SELECT count(*) FROM question_set_items i WHERE i.set_id = s.set_id)"
           " AS size FROM question_sets s")


class QuestionSetsRepository:
    def __init__(self, conn: Connection, servers: ServersRepository) -> None:
        self._conn = conn
        self._servers = servers

    async def create(self, guild_id: int, name: str, author_id: int | None,
                     items: Sequence[SetItem], now: datetime | None = None) -> QuestionSet:
        """A new set with these items in this order. ``sqlite3.IntegrityError`` (through the
        connection) if the server has a set of that name: check with ``get`` first."""
        stamp = to_db_time(utc(now))
        async with self._conn.atomic():
            await self._servers.ensure(guild_id, now)
            set_id = await self._conn.insert(
                "INSERT INTO question_sets (guild_id, name, author_id, created_at)"
                " VALUES (?, ?, ?, ?) RETURNING set_id", (guild_id, name, author_id, stamp))
            await self._conn.many(
                "INSERT INTO question_set_items (set_id, position, text, answer, answers, topic)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(set_id, n, item.text, *_columns(item.answer), item.topic)
                 for n, item in enumerate(items)])
            found = await self.get(guild_id, name)
        assert found is not None
        return found

    async def create_if_free(self, guild_id: int, name: str, author_id: int | None,
                             items: Sequence[SetItem], now: datetime | None = None
                             ) -> QuestionSet | None:
        """``create``, or None (nothing stored) when the server has a set of that name already:
        a teacher may take it between another's check and their write."""
        try:
            async with self._conn.attempt():
                return await self.create(guild_id, name, author_id, items, now)
        except IntegrityError:
            if await self.get(guild_id, name) is None:
                raise
            return None

    async def get(self, guild_id: int, name: str) -> QuestionSet | None:
        """The server's set of that name (any case), or None."""
        row = await self._conn.one(f"{_SELECT} WHERE s.guild_id = ? AND s.name = ?",
                                   (guild_id, name))
        return None if row is None else _set(row)

    async def by_id(self, set_id: int) -> QuestionSet | None:
        row = await self._conn.one(f"{_SELECT} WHERE s.set_id = ?", (set_id,))
        return None if row is None else _set(row)

    async def of_server(self, guild_id: int) -> list[QuestionSet]:
        """The server's sets, by name."""
        rows = await self._conn.all(f"{_SELECT} WHERE s.guild_id = ? ORDER BY s.name",
                                    (guild_id,))
        return [_set(row) for row in rows]

    async def items(self, set_id: int) -> list[SetItem]:
        rows = await self._conn.all(
            "SELECT text, answer, answers, topic FROM question_set_items WHERE set_id = ?"
            " ORDER BY position", (set_id,))
        return [SetItem(row["text"], row["answer"] if row["answers"] is None else row["answers"],
                        row["topic"]) for row in rows]

    async def delete(self, guild_id: int, name: str) -> bool:
        """Forget the set (its items go with it); whether there was one."""
        return await self._conn.run(
            "DELETE FROM question_sets WHERE guild_id = ? AND name = ?", (guild_id, name)) > 0
