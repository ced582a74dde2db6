"""Shared fixtures: the local stand-in for Discord, and the real bot connected to it.

    async def test_something(standin, start_bot):
        bot = await start_bot()                      # every product cog, synced to the server
        ana = standin.add_member("Ana", locale="fr")
        record = await standin.slash(ana, "digits card", digit="Odd")
        assert record.reply.embeds[0]["title"] == "Impair — palier 1"

The database: ``db_location`` is a fresh SQLite file, and, when ``ARDOISE_TEST_DATABASE_URL``
names a PostgreSQL server (``postgresql://user@host:port/any``; ``./ardoise test`` starts one),
every test that uses it (the repository tests' ``db`` fixtures, ``bot_runner`` and so every e2e
test) runs a second time on a fresh PostgreSQL database, its id ending ``[postgresql]``. Each
such database is a copy of a template migrated once per session, emptied after its test for the
next (``PostgresDatabases`` says why). ``empty_db_location`` is one with no table yet (for the
upgrade tests). ``sqlite_only`` skips the PostgreSQL run of a test about
SQLite's own file.

``standin`` fails the test at teardown if it recorded an error (a late, double or invalid answer,
an unknown route…); a test that causes one on purpose takes it with ``standin.take_errors()``.
``start_bot(extra_cogs=["bot_test_cog"])`` adds the test-only cog; ``restart_bot(bot)`` closes a
bot and starts a new one on the same database and stand-in.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import discord.gateway
import discord.http
import pytest
import pytest_asyncio
import yarl

import cogs
from bot.app import Ardoise, create_bot
from bot.local import StandIn
from bot.settings import Config
from db import Database

BOT_READY_TIMEOUT = 10.0

#: A PostgreSQL server for the database tests' second run (any database name: the tests make
#: their own databases beside it).
POSTGRES_URL = os.environ.get("ARDOISE_TEST_DATABASE_URL", "").strip()
#: The PostgreSQL run is marked: ``pytest -m postgresql`` runs only it (``./ardoise test`` does).
ENGINES = [pytest.param("sqlite", id="sqlite"),
           pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgresql)]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    # Only when PostgreSQL is there: without it the ids stay as they were.
    for name in ("db_location", "empty_db_location"):
        if name in metafunc.fixturenames and POSTGRES_URL:
            metafunc.parametrize(name, ENGINES, indirect=True)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sqlite_only: a test of SQLite's own file (its PostgreSQL run is skipped)")
    config.addinivalue_line(
        "markers", "postgresql: the run of a database test on PostgreSQL")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    # The browser tests skipped (no Chromium, no Playwright): one line a reason, not one a test.
    from tests.browser import skipped_summary

    for line in skipped_summary():
        terminalreporter.write_line(line)


def _server_url(database: str) -> str:
    """``POSTGRES_URL`` with its database name replaced."""
    from urllib.parse import urlsplit, urlunsplit

    return urlunsplit(urlsplit(POSTGRES_URL)._replace(path=f"/{database}"))


class PostgresDatabases:
    """Fresh databases on the test server: copies of a template migrated once per session, or
    empty ones. Named after the process, so that two test runs on one server never meet.

    A copy is made once and then reused: after its test, its connections are ended, every
    table is emptied and the identities start again at 1 (a few small DELETEs in one round trip:
    ``CREATE DATABASE`` takes a second on a loaded machine, ``TRUNCATE`` of every table half a
    second). No test changes the schema of a database at
    the latest version (the tests of migrations take empty ones, which are dropped)."""

    def __init__(self) -> None:
        self.prefix = f"ardoise_test_{os.getpid()}"
        self.template = f"{self.prefix}_template"
        self.counter = itertools.count(1)
        self.made_template = False
        self.free: list[str] = []
        self.made: list[str] = []
        self.emptying: str | None = None  # the statements that empty a copy

    async def _admin(self) -> Any:
        import asyncpg

        return await asyncpg.connect(_server_url("postgres"))

    async def new(self, *, empty: bool = False) -> str:
        if not empty and self.free:
            return self.free.pop()
        name = f"{self.prefix}_{next(self.counter)}"
        admin = await self._admin()
        try:
            if empty:
                await admin.execute(f'CREATE DATABASE "{name}"')
                return _server_url(name)
            if not self.made_template:
                await admin.execute(f'DROP DATABASE IF EXISTS "{self.template}"')
                await admin.execute(f'CREATE DATABASE "{self.template}"')
                from db import Database

                migrated = await Database.open(_server_url(self.template))
                await migrated.close()
                self.made_template = True
            await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"')
        finally:
            await admin.close()
        url = _server_url(name)
        self.made.append(url)
        return url

    async def release(self, url: str) -> None:
        """Give back a copy of the template: emptied, it serves the next test."""
        import asyncpg

        conn = await asyncpg.connect(url)
        try:
            # What the test left open (a bot it did not stop) would hold locks.
            await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                               " WHERE datname = current_database() AND pid <> pg_backend_pid()")
            if self.emptying is None:
                # Every foreign key cascades (or sets NULL): any order of the DELETEs will do.
                tables = await conn.fetch(
                    "SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = 'public'"
                    " AND tablename <> 'schema_migrations'")
                identities = await conn.fetch(
                    "SELECT table_name, column_name FROM information_schema.columns"
                    " WHERE table_schema = 'public' AND is_identity = 'YES'")
                self.emptying = "; ".join(
                    [f"DELETE FROM {t[0]}" for t in tables]
                    + [f"SELECT setval(pg_get_serial_sequence('{t}', '{c}'), 1, false)"
                       for t, c in identities])
            await conn.execute(self.emptying)
        finally:
            await conn.close()
        # And what the test cog (bot_test_cog.py) kept beside it.
        from bot_test_cog import TALLIES

        for kept in TALLIES.glob(f"{url.rsplit('/', 1)[1]}-*.tally.json"):
            kept.unlink()
        self.free.append(url)

    async def drop(self, url: str) -> None:
        admin = await self._admin()
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
        finally:
            await admin.close()

    def drop_template(self) -> None:
        if not self.made_template:
            return

        async def drop() -> None:
            admin = await self._admin()
            try:
                for url in self.made:
                    await admin.execute(
                        f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
                await admin.execute(f'DROP DATABASE IF EXISTS "{self.template}" WITH (FORCE)')
            finally:
                await admin.close()

        # The session's loop is gone by now: a thread of its own runs this last statement.
        thread = threading.Thread(target=asyncio.run, args=(drop(),))
        thread.start()
        thread.join()


@pytest.fixture(scope="session")
def postgres_databases() -> Iterator[PostgresDatabases]:
    databases = PostgresDatabases()
    try:
        yield databases
    finally:
        databases.drop_template()


async def _location(request: pytest.FixtureRequest, tmp_path: Path, *, empty: bool
                    ) -> AsyncIterator[Path | str]:
    engine = getattr(request, "param", "sqlite")
    if engine == "sqlite":
        yield tmp_path / "ardoise.sqlite3"
        return
    if request.node.get_closest_marker("sqlite_only"):
        pytest.skip("a test of SQLite's own file")
    databases: PostgresDatabases = request.getfixturevalue("postgres_databases")
    url = await databases.new(empty=empty)
    try:
        yield url
    finally:
        if empty:
            await databases.drop(url)
        else:
            await databases.release(url)


@pytest_asyncio.fixture
async def db_location(request: pytest.FixtureRequest, tmp_path: Path
                      ) -> AsyncIterator[Path | str]:
    """Where a test's database is: a new SQLite file, or (``[postgresql]``) a new PostgreSQL
    database already at the latest version."""
    async for location in _location(request, tmp_path, empty=False):
        yield location


@pytest_asyncio.fixture
async def empty_db_location(request: pytest.FixtureRequest, tmp_path: Path
                            ) -> AsyncIterator[Path | str]:
    """As ``db_location``, but with no table yet (a test of the migrations)."""
    async for location in _location(request, tmp_path, empty=True):
        yield location


@pytest_asyncio.fixture
async def standin(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[StandIn]:
    server = StandIn()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                        yarl.URL(server.gateway_url))
    try:
        yield server
    finally:
        await server.close()
    assert server.errors == [], "the stand-in recorded errors:\n" + "\n".join(server.errors)


@pytest_asyncio.fixture
async def db(db_location: Path | str) -> AsyncIterator[Database]:
    """The repository tests' database, open at the latest version (SQLite, then PostgreSQL)."""
    database = await Database.open(db_location)
    yield database
    await database.close()


@pytest.fixture
def shared_database(db_location: Path | str) -> str:
    """Where the bots (and Database objects) of one test share their database, as
    ``ARDOISE_DB`` names it: the test's own database (a SQLite file, or with
    ``ARDOISE_TEST_DATABASE_URL`` a PostgreSQL database of its own, emptied after it)."""
    return str(db_location)


class BotRunner:
    """Starts real bots against the stand-in and stops them all at the end of the test."""

    def __init__(self, standin: StandIn, db_path: Path | str) -> None:
        self.standin = standin
        self.db_path = db_path
        self.running: dict[Ardoise, asyncio.Task[None]] = {}

    async def start(
        self,
        *,
        extra_cogs: Sequence[str] = (),
        cog_names: Sequence[str] | None = None,
        settings: Config | None = None,
        **overrides: Any,
    ) -> Ardoise:
        if settings is None:
            settings = Config(token=self.standin.token, db_path=self.db_path,
                                test_guild=self.standin.guild.id)
        if overrides:
            settings = replace(settings, **overrides)
        names = [*(cogs.discover() if cog_names is None else cog_names), *extra_cogs]
        bot = create_bot(settings, cog_names=names, guild_ready_timeout=0.02)
        task = asyncio.create_task(bot.start(settings.token or ""))
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, timeout=BOT_READY_TIMEOUT,
                                     return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if task in done:
                task.result()  # raises the start-up failure
            raise TimeoutError("the bot did not get ready")
        self.running[bot] = task
        return bot

    async def stop(self, bot: Ardoise) -> None:
        task = self.running.pop(bot)
        await self.standin.idle()  # let the bot finish what a test did not wait for
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def restart(self, bot: Ardoise, **kwargs: Any) -> Ardoise:
        settings, names = bot.settings, bot.cog_names
        await self.stop(bot)
        return await self.start(settings=settings, cog_names=names, **kwargs)

    async def stop_all(self) -> None:
        for bot in list(self.running):
            await self.stop(bot)


@pytest_asyncio.fixture
async def bot_runner(standin: StandIn, db_location: Path | str) -> AsyncIterator[BotRunner]:
    runner = BotRunner(standin, db_location)
    try:
        yield runner
    finally:
        await runner.stop_all()


@pytest.fixture
def start_bot(bot_runner: BotRunner) -> Callable[..., Awaitable[Ardoise]]:
    return bot_runner.start


@pytest.fixture
def restart_bot(bot_runner: BotRunner) -> Callable[..., Awaitable[Ardoise]]:
    return bot_runner.restart


class FakeClock:
    """The Focus answer clock (``bot.ui.focus_run.clock``): each question takes exactly the time
    the test adds to ``now``."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    from bot.ui import focus_run as _focus_ui

    fake = FakeClock()
    monkeypatch.setattr(_focus_ui, "clock", fake)
    return fake
