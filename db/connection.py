"""The one module that executes SQL: a :class:`Connection` to the database file, and the values
and refusals every repository shares.

A ``Connection`` is one writer connection behind an ``asyncio.Lock`` and one read-only reader
(``db/__init__.py``, "Design decisions", says why). Its public methods are the whole of what the
repositories use to reach SQLite, so that a second engine (PostgreSQL, issue 18) has one place to
differ in: how statements run (:meth:`~Connection.all`, :meth:`~Connection.one`,
:meth:`~Connection.run`, :meth:`~Connection.returning`, :meth:`~Connection.insert`,
:meth:`~Connection.many`), transactions (:meth:`~Connection.transaction`,
:meth:`~Connection.atomic`), the two write policies of the versioned tables
(:meth:`~Connection.update_versioned` for a change of state, :meth:`~Connection.update_bookkeeping`
for the columns that are not), and how times and JSON are stored as text.

This module imports nothing else of ``db`` but the migration runner: the repositories import it,
and ``db.core`` (the facade) imports them.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from bot.domain import DomainError
from db import migrate as _migrate

#: How long a writer waits for another process's write lock (the CLI during a live bot).
BUSY_TIMEOUT_MS = 5000

#: A row as the repositories read it: by column name (``row["game_id"]``) or position.
Row = sqlite3.Row
#: A constraint refused a write (a foreign key, a unique key): the driver's own exception.
IntegrityError = sqlite3.IntegrityError


# --- Refusals ------------------------------------------------------------------------------


class StaleVersion(DomainError):
    """A game was saved from a version that is no longer its latest: someone acted first."""

    def __init__(self, kind: str, game_id: int, expected: int, actual: int) -> None:
        super().__init__(
            "db.stale",
            f"this {kind} changed since you looked at it (version {expected}, now {actual})",
            kind=kind,
            id=game_id,
            expected=expected,
            actual=actual,
        )


def not_found(kind: str, **key: Any) -> DomainError:
    """``DomainError("db.not_found")`` for the ``kind`` of row with that ``key``."""
    described = ", ".join(f"{k} {v}" for k, v in key.items())
    return DomainError("db.not_found", f"no {kind} with {described}", kind=kind, **key)


# --- Times: UTC text in SQLite's own format, fixed width so that text order is time order. ---


def utc(now: datetime | None = None) -> datetime:
    """``now`` (an aware datetime) in UTC, or the current time. A naive datetime is refused: its
    time zone would be a guess."""
    if now is None:
        return datetime.now(UTC)
    if now.tzinfo is None:
        raise ValueError(f"a time given to the database needs a time zone: {now!r}")
    return now.astimezone(UTC)


def to_db_time(moment: datetime) -> str:
    return utc(moment).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


def from_db_time(text: str | None) -> datetime | None:
    if text is None:
        return None
    # fromisoformat reads to_db_time's text several times quicker than strptime, which counts
    # when a game's every turn carries its time.
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def db_time(text: str) -> datetime:
    """A NOT NULL time column."""
    moment = from_db_time(text)
    assert moment is not None
    return moment


def from_db_day(text: str | None) -> date | None:
    return None if text is None else date.fromisoformat(text)


def dumps(value: Any) -> str:
    """JSON text for a column. Compact and without NaN, so that any JSON reader takes it back."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


# --- The connection --------------------------------------------------------------------------


@dataclass
class _Tx:
    owner: asyncio.Task[Any] | None
    depth: int = 0
    open: bool = True


class Connection:
    """The writer and the reader of one database file.

    Open it with ``await Connection.open(path, migrations)`` (``Database.open`` does); close it
    with ``await conn.close()``. Every method is safe to call from any task: writes queue on one
    lock, reads outside a transaction never wait for them.
    """

    def __init__(
        self,
        path: Path,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        version: int,
    ) -> None:
        self.path = path
        #: The schema version the migrations left the file at.
        self.version = version
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._tx: ContextVar[_Tx | None] = ContextVar(f"ardoise_tx_{id(self)}", default=None)
        self._closed = False

    # --- Opening and closing -------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        file: Path,
        migrations: Sequence[_migrate.Migration],
        target: int | None = None,
        *,
        upgrade: bool = True,
    ) -> Connection:
        """Connect the writer (switching the file to WAL), apply ``migrations`` up to ``target``
        (:func:`db.migrate.migrate`: each its own transaction; none with ``upgrade`` false), then
        connect the read-only reader. A refused or failed upgrade closes the writer and leaves
        the file as the last whole migration left it."""
        writer = await cls._connect(file)
        try:
            await writer.execute("PRAGMA journal_mode = WAL")
            # Before the reader exists: a new file is only WAL once its schema is written.
            version = await _migrate.migrate(writer, migrations, target, upgrade=upgrade)
            reader = await cls._connect(file)
        except BaseException:
            await writer.close()
            raise
        # The reader can never write, even by mistake: writes go through the writer.
        await reader.execute("PRAGMA query_only = ON")
        return cls(file, writer, reader, version)

    @staticmethod
    async def _connect(file: Path) -> aiosqlite.Connection:
        # isolation_level=None: sqlite3 opens no transaction behind our back; transaction() does.
        conn = await aiosqlite.connect(file, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        conn.row_factory = sqlite3.Row
        # NORMAL is safe with WAL: a power cut may lose the last commits, never corrupt the file.
        for pragma in (
            "PRAGMA foreign_keys = ON",
            f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
            "PRAGMA synchronous = NORMAL",
        ):
            await conn.execute(pragma)
        return conn

    async def close(self) -> None:
        """Close both connections, after the running write."""
        if self._closed:
            return
        self._closed = True
        async with self._write_lock:
            try:
                # Keeps the planner's statistics fresh at little cost (SQLite's advice).
                await self._writer.execute("PRAGMA optimize")
            finally:
                await self._reader.close()
                await self._writer.close()

    # --- Transactions --------------------------------------------------------------------

    def _current(self) -> _Tx | None:
        tx = self._tx.get()
        # A task started inside a transaction inherits the context variable, but not the right
        # to write in its parent's transaction: only the task that opened it may.
        if tx is not None and tx.open and tx.owner is asyncio.current_task():
            return tx
        return None

    @property
    def in_transaction(self) -> bool:
        """Whether the current task is inside :meth:`transaction`."""
        return self._current() is not None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """All the changes made inside commit together, or not at all (any exception rolls back).

        Writers queue on one lock, so one transaction runs at a time. Inside, every statement of
        this task joins the transaction and reads what it wrote; a nested ``transaction()`` is a
        savepoint (an exception inside undoes only the nested part if it is caught). Outside,
        reads see the last committed state.
        """
        outer = self._current()
        if outer is not None:
            outer.depth += 1
            name = f"nested_{outer.depth}"
            await self._writer.execute(f"SAVEPOINT {name}")
            try:
                yield
            except BaseException:
                await self._writer.execute(f"ROLLBACK TO {name}")
                await self._writer.execute(f"RELEASE {name}")
                raise
            else:
                await self._writer.execute(f"RELEASE {name}")
            finally:
                outer.depth -= 1
            return
        if self._closed:
            raise RuntimeError("the database is closed")
        async with self._write_lock:
            await self._writer.execute("BEGIN IMMEDIATE")
            tx = _Tx(asyncio.current_task())
            token = self._tx.set(tx)
            try:
                yield
                await self._writer.execute("COMMIT")
            except BaseException:
                # Also on cancellation: the queued statements run first, then this rollback.
                if self._writer.in_transaction:
                    await self._writer.execute("ROLLBACK")
                raise
            finally:
                tx.open = False
                self._tx.reset(token)

    @asynccontextmanager
    async def atomic(self) -> AsyncIterator[None]:
        """Join the caller's transaction, or open one. Unlike a nested :meth:`transaction`, no
        savepoint (two statements fewer): use it only where a failure can come before the first
        write, or leaves nothing that matters written."""
        if self._current() is not None:
            yield
        else:
            async with self.transaction():
                yield

    @asynccontextmanager
    async def _statement(self) -> AsyncIterator[aiosqlite.Connection]:
        """The writer, for one statement. Outside a transaction the statement commits on its own,
        but still under the lock: on the shared writer connection it would otherwise become part
        of another task's open transaction."""
        if self._current() is not None:
            yield self._writer
            return
        async with self._write_lock:
            if self._closed:
                raise RuntimeError("the database is closed")
            yield self._writer

    # --- Statements ------------------------------------------------------------------------

    def _read_conn(self) -> aiosqlite.Connection:
        return self._writer if self._current() is not None else self._reader

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one reading statement (inside a transaction, what it wrote included)."""
        return list(await self._read_conn().execute_fetchall(sql, params))

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of one reading statement, or None."""
        rows = await self._read_conn().execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def returning(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run one writing statement; the rows of its RETURNING clause."""
        async with self._statement() as writer:
            return list(await writer.execute_fetchall(sql, params))

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one writing statement; the number of rows it changed."""
        async with self._statement() as writer:
            return (await writer.execute(sql, params)).rowcount

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one INSERT; the new row's id."""
        async with self._statement() as writer:
            cursor = await writer.execute(sql, params)
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each row, all in one transaction."""
        async with self.atomic():
            await self._writer.executemany(sql, rows)

    # --- The two write policies of a versioned row ----------------------------------------

    async def update_versioned(
        self,
        kind: str,
        table: str,
        key: str,
        row_id: int,
        expected_version: int,
        sets: Sequence[str],
        params: Sequence[Any],
    ) -> int:
        """A change of state: ``UPDATE table SET sets…`` on the row whose ``key`` is ``row_id``,
        if it is still at ``expected_version``, moving the version on by one; the new version.

        Otherwise nothing changes and :class:`StaleVersion` (code "db.stale") is raised, or
        ``db.not_found`` if the row is gone. ``table``, ``key`` and ``sets`` are the caller's
        own text, never a member's (their values go in ``params``)."""
        rows = await self.returning(
            f"UPDATE {table} SET {', '.join([*sets, 'version = version + 1'])}"
            f" WHERE {key} = ? AND version = ? RETURNING version",
            (*params, row_id, expected_version),
        )
        if not rows:
            raise await self.version_conflict(kind, table, key, row_id, expected_version)
        return int(rows[0][0])

    async def version_conflict(
        self, kind: str, table: str, key: str, row_id: int, expected_version: int
    ) -> DomainError:
        """The error for a change from ``expected_version`` that could not be made: the row is
        gone (``db.not_found``), or its version moved on (:class:`StaleVersion`)."""
        row = await self.one(f"SELECT version FROM {table} WHERE {key} = ?", (row_id,))
        if row is None:
            return not_found(kind, id=row_id)
        return StaleVersion(kind, row_id, expected_version, row[0])

    async def update_bookkeeping(
        self,
        kind: str,
        table: str,
        key: str,
        row_id: int,
        sets: Sequence[str],
        params: Sequence[Any],
        *,
        if_version: int | None = None,
    ) -> bool:
        """Bookkeeping: ``UPDATE table SET sets…`` on the row whose ``key`` is ``row_id``,
        **keeping its version**, so that every button and every change read from that version
        stays valid. For the columns that say where the game is shown or what was done about it
        (message ids, warnings), never for what a player acts on.

        With ``if_version``, only while the row is still at that version (the write belongs to
        that state and means nothing after a change): whether it was written. ``db.not_found`` if
        the row is gone."""
        guard = "" if if_version is None else " AND version = ?"
        extra = () if if_version is None else (if_version,)
        changed = await self.run(
            f"UPDATE {table} SET {', '.join(sets)} WHERE {key} = ?{guard}",
            (*params, row_id, *extra),
        )
        if changed:
            return True
        if await self.one(f"SELECT 1 FROM {table} WHERE {key} = ?", (row_id,)) is None:
            raise not_found(kind, id=row_id)
        return False

    # --- Backup ------------------------------------------------------------------------------

    async def backup(self, dest: str | os.PathLike[str]) -> Path:
        """Copy the live database to ``dest`` with SQLite's online backup; writers go on meanwhile.

        The copy is written beside ``dest`` and renamed into place when complete, so ``dest`` is
        never a half-written database.
        """
        target = Path(dest)
        if target.exists() and target.resolve() == self.path.resolve():
            raise ValueError("a backup cannot overwrite the database it copies")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        copy = await aiosqlite.connect(partial, isolation_level=None)
        try:
            # From the reader: a consistent snapshot that does not hold the write lock.
            await self._reader.backup(copy)
            # The copy keeps the source's WAL mode; fold everything into the one file.
            await copy.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            await copy.close()
        os.replace(partial, target)
        return target
