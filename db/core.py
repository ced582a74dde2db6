"""The facade: ``Database.open`` opens the connection, runs the migrations and builds the
repositories; backup and a member's data on request. The SQL runs in :mod:`db.connection`."""

from __future__ import annotations

import os
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

from db import migrate as _migrate
from db.assignments import AssignmentsRepository
from db.class_report import ClassReportRepository
from db.command_sync import CommandSyncs
from db.connection import Connection, StaleVersion, is_postgresql, shown_location
from db.daily import DailyRepository
from db.digests import DigestsRepository
from db.digits import DigitsRepository
from db.export import delete_player, export_player
from db.focus import FocusRepository
from db.focus_live import LiveRoundsRepository
from db.games import GamesRepository
from db.leases import LeasesRepository
from db.mastery import MasteryRepository
from db.placements import PlacementsRepository
from db.players import PlayersRepository
from db.question_sets import QuestionSetsRepository
from db.retention import RetentionRepository
from db.rithmo import RithmoRepository
from db.rithmo_puzzles import RithmoPuzzlesRepository
from db.rithmo_reviews import RithmoReviewsRepository
from db.servers import ServersRepository
from db.students import StudentsRepository
from db.web_practice import WebPracticeRepository
from db.web_rooms import WebRoomsRepository

__all__ = ["DEFAULT_RELATIVE_PATH", "Database", "StaleVersion", "default_path", "location_of"]

DEFAULT_RELATIVE_PATH = Path("data") / "ardoise.sqlite3"


def location_of(text: str) -> Path | str:
    """What ``ARDOISE_DB`` (or ``--db``) says: a ``postgresql://…`` URL (kept as text: a path
    would fold its ``//``), else a SQLite file."""
    text = text.strip()
    return text if is_postgresql(text) else Path(text).expanduser()


def default_path() -> Path | str:
    """The database: ``$ARDOISE_DB`` if set (a file, or a ``postgresql://…`` URL), else
    ``data/ardoise.sqlite3`` under the current directory (its folder is created when the
    database is opened)."""
    env = os.environ.get("ARDOISE_DB", "").strip()
    return location_of(env) if env else DEFAULT_RELATIVE_PATH


class Database:
    """One open Ardoise database: its :class:`~db.connection.Connection` and the repositories
    built on it.

    Build it with ``await Database.open(path)``; close it with ``await db.close()``. Each
    repository receives the connection (and the repositories it builds on), never the
    ``Database``: the facade knows them, they do not know it.
    """

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        #: The SQLite file (None on PostgreSQL); ``location`` is the file or the URL.
        self.path = connection.path
        self.location = connection.location
        #: "sqlite" or "postgresql".
        self.engine = connection.dialect.name
        self.version = connection.version
        self.servers = ServersRepository(connection)
        self.players = PlayersRepository(connection)
        self.mastery = MasteryRepository(connection)
        self.focus = FocusRepository(connection, self.players, self.mastery, self.servers)
        self.focus_live = LiveRoundsRepository(connection, self.servers)
        self.daily = DailyRepository(connection, self.servers, self.players, self.focus)
        self.digits = DigitsRepository(connection, self.players)
        self.rithmo = RithmoRepository(connection, self.players)
        self.rithmo_puzzles = RithmoPuzzlesRepository(connection, self.servers, self.players)
        self.rithmo_reviews = RithmoReviewsRepository(connection)
        self.games = GamesRepository(connection)
        self.command_syncs = CommandSyncs(connection)
        self.leases = LeasesRepository(connection)
        self.students = StudentsRepository(connection, self.players)
        self.question_sets = QuestionSetsRepository(connection, self.servers)
        self.assignments = AssignmentsRepository(connection, self.servers, self.players,
                                                 self.focus)
        self.class_report = ClassReportRepository(connection)
        self.retention = RetentionRepository(connection)
        self.placements = PlacementsRepository(connection, self.players)
        self.digests = DigestsRepository(connection, self.servers)
        self.web_rooms = WebRoomsRepository(connection, self.players)
        self.web_practice = WebPracticeRepository(connection)

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
        """Open (creating it and its folder if need be) and upgrade the database at ``path``: a
        SQLite file, or a ``postgresql://user:password@host:port/name`` URL (the database must
        exist; its tables are created).

        ``path`` defaults to :func:`default_path`. ``target_version`` stops the upgrade at that
        version and ``upgrade=False`` applies none (both for tests and tools: the repositories
        expect the latest schema). A database newer than this code raises
        :class:`~db.migrate.DatabaseVersionError`.
        """
        if path is None:
            path = default_path()
        if str(path) == ":memory:" or str(path).startswith("file:"):
            raise ValueError("Ardoise keeps its database in a file: give a path, not ':memory:'")
        if is_postgresql(path):
            location: Path | str = str(path)
        else:
            location = Path(path)
            location.parent.mkdir(parents=True, exist_ok=True)
        connection = await Connection.open(
            location,
            _migrate.load_migrations() if migrations is None else migrations,
            target_version,
            upgrade=upgrade,
        )
        database = cls(connection)
        try:
            await database.focus.prepare()
        except BaseException:
            await connection.close()
            raise
        return database

    async def close(self) -> None:
        await self.connection.close()

    def describe(self) -> str:
        """The database as logs may show it (a URL's password hidden)."""
        return shown_location(self.location)

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- Transactions ----------------------------------------------------------------------

    @property
    def in_transaction(self) -> bool:
        """Whether the current task is inside :meth:`transaction`."""
        return self.connection.in_transaction

    def transaction(self) -> AbstractAsyncContextManager[None]:
        """All the changes made inside commit together, or not at all (any exception rolls back).

        Writers queue on one lock, so one transaction runs at a time. Inside, every repository
        call of this task joins the transaction and reads what it wrote; a nested
        ``transaction()`` is a savepoint (an exception inside undoes only the nested part if it is
        caught). Outside, reads see the last committed state.
        """
        return self.connection.transaction()

    # --- Backup, export, deletion ------------------------------------------------------------

    async def backup(self, dest: str | os.PathLike[str]) -> Path:
        """Copy the live database to ``dest`` (SQLite's online backup, or ``pg_dump``); writers go
        on meanwhile.

        The copy is written beside ``dest`` and renamed into place when complete, so ``dest`` is
        never a half-written database.
        """
        return await self.connection.backup(dest)

    async def export_player(self, guild_id: int, user_id: int) -> dict[str, Any]:
        """Everything stored about one member of one server, as plain JSON data."""
        return await export_player(self.connection, self.version, guild_id, user_id)

    async def delete_player(self, guild_id: int, user_id: int) -> dict[str, int]:
        """Forget one member of one server (on their request): the counts of what was removed.

        Their answers, attempts, ratings and ghost slates go; in games that others played with
        them their seat becomes anonymous (NULL), and their unfinished games are abandoned.
        """
        return await delete_player(self.connection, guild_id, user_id)
