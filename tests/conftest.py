"""Shared fixtures: the local stand-in for Discord, and the real bot connected to it.

    async def test_something(standin, start_bot):
        bot = await start_bot()                      # every product cog, synced to the server
        ana = standin.add_member("Ana", locale="fr")
        record = await standin.slash(ana, "digits card", digit="Odd")
        assert record.reply.embeds[0]["title"] == "Impair — rang 1"

``standin`` fails the test at teardown if it recorded an error (a late, double or invalid answer,
an unknown route…); a test that causes one on purpose takes it with ``standin.take_errors()``.
``start_bot(extra_cogs=["bot_test_cog"])`` adds the test-only cog; ``restart_bot(bot)`` closes a
bot and starts a new one on the same database and stand-in.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
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

BOT_READY_TIMEOUT = 10.0


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


#: A database server for the tests that share one database between processes (issue 18's CI
#: sets it to a PostgreSQL URL); unset, they share a SQLite file of their own.
SHARED_DATABASE_ENV = "ARDOISE_TEST_DATABASE_URL"


@pytest.fixture
def shared_database(tmp_path: Path) -> str:
    """Where the bots (and Database objects) of one test share their database, as
    ``ARDOISE_DB`` names it: ``ARDOISE_TEST_DATABASE_URL`` when set, else a SQLite file in the
    test's folder. (A server database must be emptied between tests by whoever provides it.)"""
    return os.environ.get(SHARED_DATABASE_ENV) or str(tmp_path / "shared.sqlite3")


class BotRunner:
    """Starts real bots against the stand-in and stops them all at the end of the test."""

    def __init__(self, standin: StandIn, db_path: Path) -> None:
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
async def bot_runner(standin: StandIn, tmp_path: Path) -> AsyncIterator[BotRunner]:
    runner = BotRunner(standin, tmp_path / "ardoise.sqlite3")
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
