"""The one module that executes SQL: a :class:`Connection` to the database (a SQLite file, or a
PostgreSQL server), and the values and refusals every repository shares.

A ``Connection`` is one writer connection behind an ``asyncio.Lock`` and one read-only reader
(``db/__init__.py``, "Design decisions", says why). Its public methods are the whole of what the
repositories use to reach the database, so that the two engines differ in one place: how
statements run (:meth:`~Connection.all`, :meth:`~Connection.one`, :meth:`~Connection.run`,
:meth:`~Connection.returning`, :meth:`~Connection.insert`, :meth:`~Connection.many`),
transactions (:meth:`~Connection.transaction`, :meth:`~Connection.atomic`,
:meth:`~Connection.attempt`), the two write policies of the versioned tables
(:meth:`~Connection.update_versioned` for a change of state, :meth:`~Connection.update_bookkeeping`
for the columns that are not), how times and JSON are stored as text, and backups.

Below the ``Connection`` are two engines: :class:`_Sqlite` (aiosqlite; the default, a file) and
:class:`_Postgres` (asyncpg; ``ARDOISE_DB=postgresql://…``). The SQL text they differ in is
:mod:`db.dialect`'s (``conn.dialect`` gives a repository the fragments it needs). On PostgreSQL:
``?`` placeholders become ``$n``; a constraint's refusal is raised as the same
:data:`IntegrityError` (its message starting as SQLite's does: "FOREIGN KEY constraint failed",
"UNIQUE constraint failed"…); ``numeric`` results (``sum`` and ``avg`` of integers) come back as
``int`` or ``float`` as SQLite gives them; rows are read by name or position as on SQLite.

This module imports nothing else of ``db`` but the migration runner and the dialect: the
repositories import it, and ``db.core`` (the facade) imports them.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import aiosqlite

from bot.domain import DomainError
from db import migrate as _migrate
from db.dialect import (
    NOCASE_COLLATION,
    POSTGRESQL,
    SQLITE,
    Dialect,
    postgresql_schema,
    postgresql_statement,
)

#: How long a writer waits for another process's write lock (the CLI during a live bot).
BUSY_TIMEOUT_MS = 5000
#: Readers of a PostgreSQL database: reads outside a transaction run on this many connections
#: at most, side by side (SQLite's one reader connection is enough: WAL reads are quick).
POSTGRES_READERS = 4

#: A row as the repositories read it: by column name (``row["game_id"]``) or position
#: (``sqlite3.Row`` or ``asyncpg.Record``: both read the same way).
Row = Any
#: A constraint refused a write (a foreign key, a unique key): SQLite's exception, raised for
#: PostgreSQL's refusals too (:func:`_integrity_error`).
IntegrityError = sqlite3.IntegrityError

POSTGRES_SCHEMES = ("postgresql://", "postgres://")

_T = TypeVar("_T")


def is_postgresql(location: str | os.PathLike[str]) -> bool:
    """Whether ``location`` names a PostgreSQL database (a ``postgresql://…`` URL) rather than a
    SQLite file."""
    return isinstance(location, str) and location.startswith(POSTGRES_SCHEMES)


def shown_location(location: str | os.PathLike[str]) -> str:
    """``location`` as logs and messages may show it: a URL's password replaced by ``***``."""
    text = str(location)
    if not is_postgresql(text):
        return text
    parts = urlsplit(text)
    if parts.password is None:
        return text
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[1]}"))


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
    # isoformat writes the same text as strftime("%Y-%m-%d %H:%M:%S.%f")[:-3], several times
    # quicker (an answer writes three times, its mastery four more).
    return utc(moment).replace(tzinfo=None).isoformat(" ", "milliseconds")


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
    """The writer and the reader of one database (a SQLite file, or a PostgreSQL database).

    Open it with ``await Connection.open(location, migrations)`` (``Database.open`` does); close
    it with ``await conn.close()``. Every method is safe to call from any task: writes queue on
    one lock, reads outside a transaction never wait for them.
    """

    def __init__(self, location: str | Path, engine: _Sqlite | _Postgres, version: int) -> None:
        #: The SQLite file (None for PostgreSQL).
        self.path: Path | None = engine.path if isinstance(engine, _Sqlite) else None
        #: The file or the URL (with its password: show it with :func:`shown_location`).
        self.location = location
        #: The SQL fragments that differ between the engines (:mod:`db.dialect`).
        self.dialect: Dialect = engine.dialect
        #: The schema version the migrations left the database at.
        self.version = version
        self._engine = engine
        self._write_lock = asyncio.Lock()
        self._tx: ContextVar[_Tx | None] = ContextVar(f"ardoise_tx_{id(self)}", default=None)
        self._closed = False
        #: The statements waiting to be committed together (``grouped``), and the task that
        #: will run them.
        self._group: list[tuple[str, Sequence[Any], asyncio.Future[int]]] = []
        self._flushing: asyncio.Task[None] | None = None

    # --- Opening and closing -------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        location: str | os.PathLike[str],
        migrations: Sequence[_migrate.Migration],
        target: int | None = None,
        *,
        upgrade: bool = True,
    ) -> Connection:
        """Connect the writer, apply ``migrations`` up to ``target`` (:func:`db.migrate.migrate`:
        each its own transaction; none with ``upgrade`` false), then connect the reader(s).
        ``location`` is a SQLite file, or a ``postgresql://`` URL. A refused or failed upgrade
        closes the writer and leaves the database as the last whole migration left it."""
        if is_postgresql(location):
            url = str(location)
            pg, version = await _Postgres.open(url, migrations, target, upgrade)
            return cls(url, pg, version)
        file = Path(location)
        lite, version = await _Sqlite.open(file, migrations, target, upgrade)
        return cls(file, lite, version)

    async def close(self) -> None:
        """Close the connections, after the running write."""
        if self._closed:
            return
        self._closed = True
        async with self._write_lock:
            await self._engine.close()

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
            await self._engine.command(f"SAVEPOINT {name}")
            try:
                yield
            except BaseException:
                await self._engine.command(f"ROLLBACK TO {name}")
                await self._engine.command(f"RELEASE {name}")
                raise
            else:
                await self._engine.command(f"RELEASE {name}")
            finally:
                outer.depth -= 1
            return
        if self._closed:
            raise RuntimeError("the database is closed")
        async with self._write_lock:
            # SQLite: take the write lock at once, so a transaction never fails half-way for
            # want of it. PostgreSQL locks rows as they are written.
            await self._engine.command(
                "BEGIN IMMEDIATE" if isinstance(self._engine, _Sqlite) else "BEGIN")
            tx = _Tx(asyncio.current_task())
            token = self._tx.set(tx)
            try:
                yield
                await self._engine.command("COMMIT")
            except BaseException:
                # Also on cancellation: the queued statements run first, then this rollback.
                if self._engine.in_transaction():
                    await self._engine.command("ROLLBACK")
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
    async def attempt(self) -> AsyncIterator[None]:
        """Statements whose failure (an :data:`IntegrityError`) the caller catches and goes on
        after, inside a transaction. On PostgreSQL a failed statement spoils the whole
        transaction, so inside one this is a savepoint; SQLite undoes only the statement, so
        there it costs nothing."""
        if isinstance(self._engine, _Postgres) and self._current() is not None:
            async with self.transaction():
                yield
        else:
            yield

    @asynccontextmanager
    async def _statement(self) -> AsyncIterator[None]:
        """The writer, for one statement. Outside a transaction the statement commits on its own,
        but still under the lock: on the shared writer connection it would otherwise become part
        of another task's open transaction."""
        if self._current() is not None:
            yield
            return
        async with self._write_lock:
            if self._closed:
                raise RuntimeError("the database is closed")
            yield

    # --- Statements ------------------------------------------------------------------------

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one reading statement (inside a transaction, what it wrote included)."""
        return await self._engine.fetch(sql, params, writer=self._current() is not None)

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of one reading statement, or None."""
        rows = await self._engine.fetch(sql, params, writer=self._current() is not None)
        return next(iter(rows), None)

    async def returning(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run one writing statement; the rows of its RETURNING clause."""
        async with self._statement():
            return await self._engine.fetch(sql, params, writer=True)

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one writing statement; the number of rows it changed."""
        # ``_statement`` spelled out: an answer's one statement takes this path, and the
        # context manager's generator cost a tenth of its hop (issue 24).
        if self._current() is not None:
            return await self._engine.execute(sql, params)
        async with self._write_lock:
            if self._closed:
                raise RuntimeError("the database is closed")
            return await self._engine.execute(sql, params)

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one ``INSERT … RETURNING <its key>``; the new row's key (both engines return it
        the same way). Without RETURNING, SQLite's last row id, which has no PostgreSQL twin:
        there it is refused, with what to write instead."""
        if "RETURNING" in sql.upper():
            rows = await self.returning(sql, params)
            return int(rows[0][0])
        if not isinstance(self._engine, _Sqlite):
            raise ValueError("on PostgreSQL an INSERT gives its new key with 'RETURNING <key>':"
                             f" add it to {sql[:60]!r}…")
        async with self._statement():
            return await self._engine.insert(sql, params)

    async def many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each row, all in one transaction."""
        async with self.atomic():
            await self._engine.executemany(sql, rows)

    # --- Several statements, one hop ----------------------------------------------------------
    #
    # On SQLite each statement is a hop to aiosqlite's thread and back (a queue, a future, the
    # event loop woken), which costs more CPU than a small statement itself: what a use case
    # needs at once is better asked in one job run in that thread.

    async def reads(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Row]]:
        """The rows of several reading statements, in order, asked together: on SQLite one job
        in the database's thread, in one read transaction (one snapshot of the database);
        on PostgreSQL one after the other on one connection. Inside a transaction, on its
        connection (what it wrote included)."""
        if not statements:
            return []
        return await self._engine.fetch_each(statements, writer=self._current() is not None)

    async def grouped(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one writing statement, outside a transaction, committed together with those other
        tasks ask for meanwhile (a group commit): the number of rows it changed, or its own
        refusal (an :data:`IntegrityError` undoes that statement only, not the others). On
        SQLite, the statements that wait for the writer at the same moment (200 members
        answering at once) take one hop to its thread and one commit, not one each; a statement
        that finds the writer free runs at once, as ``run``. Inside a transaction, or on
        PostgreSQL, it is ``run``. Each statement must stand on its own (no read of what another
        wrote first)."""
        if (self._current() is not None or not isinstance(self._engine, _Sqlite)
                or (not self._group and not self._write_lock.locked())):
            # Alone (the writer free, nobody waiting): at once, as ``run``, without the group's
            # task; those that come meanwhile find the writer busy and wait together.
            return await self.run(sql, params)
        [done] = self._join_group([(sql, params)])
        return await done

    async def grouped_each(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[int]:
        """Several writing statements, in order, as ``grouped``: with the other tasks' when the
        writer is busy (each refusal undoes its own statement only), else at once as ``runs``
        (one transaction)."""
        if (self._current() is not None or not isinstance(self._engine, _Sqlite)
                or (not self._group and not self._write_lock.locked())):
            return await self.runs(statements)
        return [await done for done in self._join_group(statements)]

    def _join_group(self, statements: Sequence[tuple[str, Sequence[Any]]]
                    ) -> list[asyncio.Future[int]]:
        if self._closed:
            raise RuntimeError("the database is closed")
        loop = asyncio.get_running_loop()
        waiting: list[asyncio.Future[int]] = []
        for sql, params in statements:
            done: asyncio.Future[int] = loop.create_future()
            self._group.append((sql, params, done))
            waiting.append(done)
        if self._flushing is None:
            self._flushing = asyncio.ensure_future(self._flush())
        return waiting

    async def _flush(self) -> None:
        """Run the waiting statements (``grouped``) as one job: those that came while this
        waited for the writer's lock join it."""
        group: list[tuple[str, Sequence[Any], asyncio.Future[int]]] = []
        results: list[int | Exception]
        try:
            async with self._write_lock:
                self._flushing = None
                # A cancelled caller's statement is not run.
                group = [waiting for waiting in self._group if not waiting[2].done()]
                self._group = []
                if not group:
                    return
                if self._closed or not isinstance(self._engine, _Sqlite):
                    raise RuntimeError("the database is closed")
                results = await self._engine.execute_group([(s, p) for s, p, _ in group])
        except Exception as error:
            results = [error] * len(group)
        for (_, _, done), result in zip(group, results, strict=True):
            if done.done():
                continue
            if isinstance(result, Exception):
                done.set_exception(result)
            else:
                done.set_result(result)

    async def runs(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[int]:
        """Several writing statements as one transaction (joined to the caller's, if any), in
        one job on SQLite: the number of rows each changed. A refusal (an
        :data:`IntegrityError`) undoes them all, as :meth:`transaction` would."""
        if not statements:
            return []
        if self._current() is not None:
            return await self._engine.execute_each(statements, own_transaction=False)
        async with self._write_lock:
            if self._closed:
                raise RuntimeError("the database is closed")
            return await self._engine.execute_each(statements, own_transaction=True)

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
        """Copy the live database to ``dest``; writers go on meanwhile. SQLite: the online backup
        API, from the reader (one consistent snapshot). PostgreSQL: ``pg_dump`` (custom format;
        without it, an ``OSError`` gives the command to run).

        The copy is written beside ``dest`` and renamed into place when complete, so ``dest`` is
        never a half-written backup.
        """
        return await self._engine.backup(dest)


# --- The engines -----------------------------------------------------------------------------
#
# An engine runs one statement on its writer or its reader; the Connection above it owns the
# lock, the transactions and the write policies, the same for both.


class _Sqlite:
    """A SQLite file: two aiosqlite connections (WAL; the reader is read-only)."""

    dialect = SQLITE

    def __init__(self, path: Path, writer: aiosqlite.Connection,
                 reader: aiosqlite.Connection) -> None:
        self.path = path
        self.writer = writer
        self.reader = reader

    @classmethod
    async def open(cls, file: Path, migrations: Sequence[_migrate.Migration], target: int | None,
                   upgrade: bool) -> tuple[_Sqlite, int]:
        writer = await cls._connect(file)
        try:
            await writer.execute("PRAGMA journal_mode = WAL")
            # Before the reader exists: a new file is only WAL once its schema is written.
            version = await _migrate.migrate(_SqliteMigrations(writer), migrations, target,
                                             upgrade=upgrade)
            reader = await cls._connect(file)
        except BaseException:
            await writer.close()
            raise
        # The reader can never write, even by mistake: writes go through the writer.
        await reader.execute("PRAGMA query_only = ON")
        return cls(file, writer, reader), version

    @staticmethod
    async def _connect(file: Path) -> aiosqlite.Connection:
        # isolation_level=None: sqlite3 opens no transaction behind our back; transaction() does.
        conn = await aiosqlite.connect(file, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        conn.row_factory = sqlite3.Row
        # NORMAL is safe with WAL: a power cut may lose the last commits, never corrupt the file.
        # secure_delete: an erased member's rows are overwritten with zeros in the file, not left
        # readable in its free pages until SQLite reuses them (the build's default varies).
        for pragma in (
            "PRAGMA foreign_keys = ON",
            f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
            "PRAGMA synchronous = NORMAL",
            "PRAGMA secure_delete = ON",
        ):
            await conn.execute(pragma)
        return conn

    async def command(self, sql: str) -> None:
        await self.writer.execute(sql)

    def in_transaction(self) -> bool:
        return self.writer.in_transaction

    async def fetch(self, sql: str, params: Sequence[Any], *, writer: bool) -> list[Row]:
        conn = self.writer if writer else self.reader
        return list(await conn.execute_fetchall(sql, params))

    async def execute(self, sql: str, params: Sequence[Any]) -> int:
        # One job in the writer's thread rather than aiosqlite's ``execute``, which wraps the
        # cursor it returns in two objects of its own; only the row count is wanted.
        return await _in_thread(self.writer, lambda db: db.execute(sql, params).rowcount)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.writer.executemany(sql, rows)

    async def insert(self, sql: str, params: Sequence[Any]) -> int:
        cursor = await self.writer.execute(sql, params)
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def fetch_each(self, statements: Sequence[tuple[str, Sequence[Any]]], *,
                         writer: bool) -> list[list[Row]]:
        conn = self.writer if writer else self.reader

        def reads(db: sqlite3.Connection) -> list[list[Row]]:
            # The reader's own read transaction: the statements see one state of the file, as
            # one statement would (a writer may commit between two hops otherwise).
            own = not db.in_transaction
            if own:
                db.execute("BEGIN")
            try:
                return [db.execute(sql, params).fetchall() for sql, params in statements]
            finally:
                if own:
                    db.execute("COMMIT")

        return await _in_thread(conn, reads)

    async def execute_group(self, statements: Sequence[tuple[str, Sequence[Any]]]
                            ) -> list[int | Exception]:
        def group(db: sqlite3.Connection) -> list[int | Exception]:
            if len(statements) == 1:
                [(sql, params)] = statements
                try:
                    return [db.execute(sql, params).rowcount]
                except sqlite3.Error as error:
                    return [error]
            db.execute("BEGIN IMMEDIATE")
            out: list[int | Exception] = []
            for sql, params in statements:
                try:
                    out.append(db.execute(sql, params).rowcount)
                except sqlite3.Error as error:
                    if not db.in_transaction:
                        # The error undid the whole transaction (a full disk, say): every
                        # statement of the group is lost with it.
                        return [error] * len(statements)
                    out.append(error)  # a refusal undoes its own statement only
            try:
                db.execute("COMMIT")
            except sqlite3.Error as error:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                return [error] * len(statements)
            return out

        return await _in_thread(self.writer, group)

    async def execute_each(self, statements: Sequence[tuple[str, Sequence[Any]]], *,
                           own_transaction: bool) -> list[int]:
        def runs(db: sqlite3.Connection) -> list[int]:
            if not own_transaction:
                return [db.execute(sql, params).rowcount for sql, params in statements]
            db.execute("BEGIN IMMEDIATE")
            try:
                counts = [db.execute(sql, params).rowcount for sql, params in statements]
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return counts

        return await _in_thread(self.writer, runs)

    async def close(self) -> None:
        try:
            # Keeps the planner's statistics fresh at little cost (SQLite's advice).
            await self.writer.execute("PRAGMA optimize")
        finally:
            await self.reader.close()
            await self.writer.close()

    async def backup(self, dest: str | os.PathLike[str]) -> Path:
        target = Path(dest)
        if target.exists() and target.resolve() == self.path.resolve():
            raise ValueError("a backup cannot overwrite the database it copies")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        copy = await aiosqlite.connect(partial, isolation_level=None)
        try:
            # From the reader: a consistent snapshot that does not hold the write lock.
            await self.reader.backup(copy)
            # The copy keeps the source's WAL mode; fold everything into the one file.
            await copy.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            await copy.close()
        os.replace(partial, target)
        return target


async def _in_thread(conn: aiosqlite.Connection, job: Callable[[sqlite3.Connection], _T]) -> _T:
    """Run ``job(sqlite3 connection)`` in ``conn``'s thread, queued after its statements, in one
    hop. aiosqlite's public methods each queue one statement; this queues a function (its
    ``_execute``, which they all use), so that the job runs whole, between two other tasks'
    statements, never interleaved with them."""
    queue: Callable[..., Awaitable[_T]] = getattr(conn, "_execute")  # noqa: B009 (untyped)
    return await queue(job, conn._conn)


class _SqliteMigrations:
    """:func:`db.migrate.migrate`'s view of a SQLite writer (in autocommit mode)."""

    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def current_version(self) -> int:
        await self.conn.execute(_migrate.SCHEMA_MIGRATIONS)
        rows = await self.conn.execute_fetchall(
            "SELECT coalesce(max(version), 0) FROM schema_migrations")
        return int(next(iter(rows))[0])

    async def apply(self, migration: _migrate.Migration) -> None:
        try:
            # executescript commits any open transaction first, so BEGIN must be in the script.
            await self.conn.executescript("BEGIN IMMEDIATE;\n" + migration.sql_for("sqlite"))
            await self.conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, datetime.now(UTC).isoformat(" ")),
            )
            await self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                await self.conn.execute("ROLLBACK")
            raise


def _numeric(text: str) -> int | float:
    """PostgreSQL's ``numeric`` (``sum`` of integers, ``avg``) as SQLite gives it: a whole number
    as ``int``, any other as ``float``."""
    return float(text) if any(c in text for c in ".eEN") else int(text)


def _integrity_error(error: Exception) -> sqlite3.IntegrityError:
    """A PostgreSQL constraint's refusal as the :data:`IntegrityError` the repositories catch,
    its message starting as SQLite's would (``db.focus`` tells a missing player by it)."""
    import asyncpg

    kinds = {
        asyncpg.ForeignKeyViolationError: "FOREIGN KEY",
        asyncpg.UniqueViolationError: "UNIQUE",
        asyncpg.CheckViolationError: "CHECK",
        asyncpg.NotNullViolationError: "NOT NULL",
    }
    kind = next((name for cls, name in kinds.items() if isinstance(error, cls)), "constraint")
    return sqlite3.IntegrityError(f"{kind} constraint failed: {error}")


class _Postgres:
    """A PostgreSQL database: one asyncpg writer connection, and a pool of read-only readers.

    Reads outside a transaction see the last committed state (READ COMMITTED) and never wait for
    a writer, as WAL readers do on SQLite. Writers of several processes meet in the server: the
    versioned updates and the one-statement checks (``gold + ? >= 0``) are safe under READ
    COMMITTED, as PostgreSQL re-reads a row a concurrent transaction changed before updating it.
    """

    dialect = POSTGRESQL

    def __init__(self, url: str, writer: Any, readers: Any) -> None:
        import asyncpg

        self.url = url
        self.writer = writer
        self.readers = readers
        self._asyncpg = asyncpg

    @staticmethod
    async def _setup(conn: Any) -> None:
        await conn.set_type_codec("numeric", encoder=str, decoder=_numeric,
                                  schema="pg_catalog", format="text")

    @classmethod
    async def open(cls, url: str, migrations: Sequence[_migrate.Migration], target: int | None,
                   upgrade: bool) -> tuple[_Postgres, int]:
        try:
            import asyncpg
        except ImportError as error:  # pragma: no cover - asyncpg is a dependency
            raise RuntimeError("PostgreSQL needs asyncpg: pip install asyncpg") from error
        writer = await asyncpg.connect(url, statement_cache_size=1024)
        readers = None
        try:
            await cls._setup(writer)
            version = await _migrate.migrate(_PostgresMigrations(writer), migrations, target,
                                             upgrade=upgrade)
            readers = await asyncpg.create_pool(
                url, min_size=1, max_size=POSTGRES_READERS, statement_cache_size=1024,
                init=cls._setup, server_settings={"default_transaction_read_only": "on"})
        except BaseException:
            await writer.close()
            raise
        return cls(url, writer, readers), version

    async def command(self, sql: str) -> None:
        await self.writer.execute(sql)

    def in_transaction(self) -> bool:
        return bool(self.writer.is_in_transaction())

    @staticmethod
    def _prepare(sql: str, params: Sequence[Any]) -> tuple[str, list[Any]]:
        text, null_tests = postgresql_statement(sql)
        values = list(params)
        for index in null_tests:
            # Only tested for NULL: any text says "not NULL".
            if values[index] is not None:
                values[index] = "1"
        return text, values

    async def fetch(self, sql: str, params: Sequence[Any], *, writer: bool) -> list[Row]:
        text, values = self._prepare(sql, params)
        try:
            pool = self.writer if writer else self.readers
            rows: list[Row] = await pool.fetch(text, *values)
            return rows
        except self._asyncpg.IntegrityConstraintViolationError as error:
            raise _integrity_error(error) from error

    async def execute(self, sql: str, params: Sequence[Any]) -> int:
        text, values = self._prepare(sql, params)
        try:
            status = await self.writer.execute(text, *values)
        except self._asyncpg.IntegrityConstraintViolationError as error:
            raise _integrity_error(error) from error
        # "UPDATE 3", "INSERT 0 1", "DELETE 0": the last word is the count of rows.
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else -1

    async def fetch_each(self, statements: Sequence[tuple[str, Sequence[Any]]], *,
                         writer: bool) -> list[list[Row]]:
        prepared = [self._prepare(sql, params) for sql, params in statements]
        try:
            if writer:
                return [await self.writer.fetch(text, *values) for text, values in prepared]
            # One reader for all: one acquisition from the pool, not one a statement.
            async with self.readers.acquire() as conn:
                return [await conn.fetch(text, *values) for text, values in prepared]
        except self._asyncpg.IntegrityConstraintViolationError as error:
            raise _integrity_error(error) from error

    async def execute_each(self, statements: Sequence[tuple[str, Sequence[Any]]], *,
                           own_transaction: bool) -> list[int]:
        prepared = [self._prepare(sql, params) for sql, params in statements]

        async def each() -> list[int]:
            counts = []
            for text, values in prepared:
                status = await self.writer.execute(text, *values)
                last = status.rsplit(" ", 1)[-1]
                counts.append(int(last) if last.isdigit() else -1)
            return counts

        try:
            if not own_transaction:
                return await each()
            async with self.writer.transaction():
                return await each()
        except self._asyncpg.IntegrityConstraintViolationError as error:
            raise _integrity_error(error) from error

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = [self._prepare(sql, row) for row in rows]
        if not batch:
            return
        try:
            await self.writer.executemany(batch[0][0], [values for _, values in batch])
        except self._asyncpg.IntegrityConstraintViolationError as error:
            raise _integrity_error(error) from error

    async def close(self) -> None:
        try:
            await self.readers.close()
        finally:
            await self.writer.close()

    async def backup(self, dest: str | os.PathLike[str]) -> Path:
        """``pg_dump`` in its custom format (``pg_restore`` reads it), written beside ``dest``
        and renamed into place; without ``pg_dump``, the command to run says how."""
        target = Path(dest)
        command = pg_dump_command(self.url, target)
        if shutil.which("pg_dump") is None:
            raise OSError(
                "pg_dump is not installed (apt-get install postgresql-client, the same major "
                "version as the server or newer); then run: " + " ".join(
                    _quoted(part) for part in pg_dump_command(shown_location(self.url), target)))
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        command[command.index(str(target))] = str(partial)
        process = await asyncio.create_subprocess_exec(
            *command, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        _, errors = await process.communicate()
        if process.returncode != 0:
            partial.unlink(missing_ok=True)
            raise OSError(f"pg_dump failed: {errors.decode(errors='replace').strip()}")
        os.replace(partial, target)
        return target


def pg_dump_command(url: str, dest: Path) -> list[str]:
    """The ``pg_dump`` command that backs up the database at ``url`` into ``dest``: one
    consistent snapshot (pg_dump reads in one transaction), writers go on meanwhile."""
    return ["pg_dump", "--format=custom", "--no-owner", "--file", str(dest), f"--dbname={url}"]


def _quoted(part: str) -> str:
    return part if all(c.isalnum() or c in "-_=./:@*" for c in part) else f"'{part}'"


class _PostgresMigrations:
    """:func:`db.migrate.migrate`'s view of a PostgreSQL writer. An advisory lock makes two
    processes that start together upgrade one after the other (the second finds nothing to do)."""

    dialect = POSTGRESQL
    LOCK = 0x41524430  # "ARD0": any constant that Ardoise alone uses

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def current_version(self) -> int:
        await self.conn.execute("SELECT pg_advisory_lock($1)", self.LOCK)
        try:
            await self.conn.execute(NOCASE_COLLATION)
            await self.conn.execute(postgresql_schema(_migrate.SCHEMA_MIGRATIONS))
            return int(await self.conn.fetchval(
                "SELECT coalesce(max(version), 0) FROM schema_migrations"))
        finally:
            await self.conn.execute("SELECT pg_advisory_unlock($1)", self.LOCK)

    async def apply(self, migration: _migrate.Migration) -> None:
        async with self.conn.transaction():
            # Held to the end of the transaction: a second process waits, then sees the row.
            await self.conn.execute("SELECT pg_advisory_xact_lock($1)", self.LOCK)
            if await self.conn.fetchval(
                    "SELECT 1 FROM schema_migrations WHERE version = $1", migration.version):
                return
            await self.conn.execute(migration.sql_for("postgresql"))
            await self.conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                migration.version, migration.name, datetime.now(UTC).isoformat(" "))
