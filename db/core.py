"""The connection manager: ``Database.open``, transactions, backup, a player's data on request."""

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
DEFAULT_RELATIVE_PATH = Path("data") / "ardoise.sqlite3"


def default_path() -> Path:
    """The database file: ``$ARDOISE_DB`` if set, else ``data/ardoise.sqlite3`` under the current
    directory (its folder is created when the database is opened)."""
    env = os.environ.get("ARDOISE_DB", "").strip()
    return Path(env) if env else DEFAULT_RELATIVE_PATH


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


@dataclass
class _Tx:
    owner: asyncio.Task[Any] | None
    depth: int = 0
    open: bool = True


class Database:
    """One open Ardoise database: a writer connection, a reader connection and the repositories.

    Build it with ``await Database.open(path)``; close it with ``await db.close()``.
    """

    def __init__(
        self,
        path: Path,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        version: int,
    ) -> None:
        # Imported here: the repositories import this module for its helpers.
        from db.daily import DailyRepository
        from db.digits import DigitsRepository
        from db.focus import FocusRepository
        from db.focus_live import LiveRoundsRepository
        from db.games import GamesRepository
        from db.players import PlayersRepository
        from db.rithmo import RithmoRepository
        from db.servers import ServersRepository

        self.path = path
        self.version = version
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._tx: ContextVar[_Tx | None] = ContextVar(f"ardoise_tx_{id(self)}", default=None)
        self._closed = False
        self.servers = ServersRepository(self)
        self.players = PlayersRepository(self)
        self.focus = FocusRepository(self)
        self.focus_live = LiveRoundsRepository(self)
        self.daily = DailyRepository(self)
        self.digits = DigitsRepository(self)
        self.rithmo = RithmoRepository(self)
        self.games = GamesRepository(self)

    # --- Opening and closing ---------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        target_version: int | None = None,
        upgrade: bool = True,
        migrations: Sequence[_migrate.Migration] | None = None,
    ) -> Database:
        """Open (creating it and its folder if need be) and upgrade the database at ``path``.

        ``path`` defaults to :func:`default_path`. ``target_version`` stops the upgrade at that
        version and ``upgrade=False`` applies none (both for tests and tools: the repositories
        expect the latest schema). A database newer than this code raises
        :class:`~db.migrate.DatabaseVersionError`.
        """
        if path is None:
            path = default_path()
        if str(path) == ":memory:" or str(path).startswith("file:"):
            raise ValueError("Ardoise keeps its database in a file: give a path, not ':memory:'")
        file = Path(path)
        file.parent.mkdir(parents=True, exist_ok=True)
        writer = await cls._connect(file)
        try:
            await writer.execute("PRAGMA journal_mode = WAL")
            version = await _migrate.migrate(
                writer,
                _migrate.load_migrations() if migrations is None else migrations,
                target_version,
                upgrade=upgrade,
            )
            reader = await cls._connect(file)
        except BaseException:
            await writer.close()
            raise
        # The reader can never write, even by mistake: writes go through transaction().
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

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- Transactions ----------------------------------------------------------------------

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

        Writers queue on one lock, so one transaction runs at a time. Inside, every repository
        call of this task joins the transaction and reads what it wrote; a nested
        ``transaction()`` is a savepoint (an exception inside undoes only the nested part if it is
        caught). Outside, reads see the last committed state.
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
    async def _atomic(self) -> AsyncIterator[None]:
        """For repository methods: join the caller's transaction, or open one. Unlike a nested
        :meth:`transaction`, no savepoint (two statements fewer): use it only where a failure
        can come before the first write, or leaves nothing that matters written."""
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

    # --- Statements, for the repositories ----------------------------------------------------

    def _read_conn(self) -> aiosqlite.Connection:
        return self._writer if self._current() is not None else self._reader

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return list(await self._read_conn().execute_fetchall(sql, params))

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        rows = await self._read_conn().execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def _write_all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """Run one writing statement; with RETURNING, its rows."""
        async with self._statement() as writer:
            return list(await writer.execute_fetchall(sql, params))

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one writing statement; the number of rows it changed."""
        async with self._statement() as writer:
            return (await writer.execute(sql, params)).rowcount

    async def _insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one INSERT; the new row's id."""
        async with self._statement() as writer:
            cursor = await writer.execute(sql, params)
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def _run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each row, all in one transaction."""
        async with self._atomic():
            await self._writer.executemany(sql, rows)

    # --- Backup, export, deletion ------------------------------------------------------------

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

    async def export_player(self, guild_id: int, user_id: int) -> dict[str, Any]:
        """Everything stored about one member of one server, as plain JSON data."""
        from db.export import export_player

        return await export_player(self, guild_id, user_id)

    async def delete_player(self, guild_id: int, user_id: int) -> dict[str, int]:
        """Forget one member of one server (on their request): the counts of what was removed.

        Their answers, attempts, ratings and ghost slates go; in games that others played with
        them their seat becomes anonymous (NULL), and their unfinished games are abandoned.
        """
        from db.export import delete_player

        return await delete_player(self, guild_id, user_id)
