"""The bot itself: ``create_bot(settings)`` builds it; ``setup_hook`` wires everything at start.

At start (``setup_hook``, after login, before the gateway):

1. open the database (``db.Database.open``, which applies the migrations) and read each server's
   language from it;
2. install the translator (French command names and descriptions);
3. load the cogs (every module of ``cogs/`` unless a list is given), which register their
   persistent buttons;
4. sync the commands: to the test server when ``ARDOISE_TEST_GUILD`` is set (instant), else
   globally.

``close()`` closes the database after the connection. At login, before all this, the threads of
``asyncio.to_thread`` (pictures, battles, Ardoise's turns) are made nicer than the event loop
(``bot/background.py``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import cogs
from bot.background import use_background_executor
from bot.i18n import Languages, Translator
from bot.limits import Limits
from bot.settings import Settings
from bot.tree import ArdoiseTree
from db import Database

log = logging.getLogger(__name__)


class Ardoise(commands.Bot):
    """Ardoise: a ``commands.Bot`` with slash commands only, a database and two languages."""

    def __init__(
        self,
        settings: Settings,
        *,
        cog_names: Sequence[str] | None = None,
        **options: Any,
    ) -> None:
        # Slash commands and components need no message events: the server list is enough.
        options.setdefault("intents", discord.Intents(guilds=True))
        # Nobody is pinged unless a message names its players (bot.replies.pings): a display
        # name holding "<@id>" or "@everyone" must not notify anyone.
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            tree_cls=ArdoiseTree,
            allowed_contexts=app_commands.AppCommandContext(guild=True),
            allowed_installs=app_commands.AppInstallationType(guild=True),
            **options,
        )
        self.settings = settings
        self.cog_names = list(cogs.discover() if cog_names is None else cog_names)
        self.db: Database | None = None
        self.languages = Languages()
        self.limits = Limits(strong_searches=settings.strong_searches)
        self.synced: list[app_commands.AppCommand] = []

    async def add_cog(self, cog: commands.Cog, /, **kwargs: Any) -> None:
        # An Ardoise cog's persistent buttons are registered with it (see cogs/__init__.py).
        items = cog.persistent_items if isinstance(cog, cogs.ArdoiseCog) else ()
        if items:
            self.add_dynamic_items(*items)
        try:
            await super().add_cog(cog, **kwargs)
        except BaseException:
            if items:
                self.remove_dynamic_items(*items)
            raise

    async def remove_cog(self, name: str, /, **kwargs: Any) -> commands.Cog | None:
        cog = await super().remove_cog(name, **kwargs)
        if isinstance(cog, cogs.ArdoiseCog) and cog.persistent_items:
            self.remove_dynamic_items(*cog.persistent_items)
        return cog

    # Life cycle -----------------------------------------------------------------------------

    async def login(self, token: str) -> None:
        # Before anything uses the loop's default executor (the first request resolves
        # Discord's address in it): pictures and other work of asyncio.to_thread then run at a
        # lower priority than the event loop that answers the members (bot/background.py).
        use_background_executor(asyncio.get_running_loop())
        await super().login(token)

    async def setup_hook(self) -> None:
        await self._open_database()
        await self.tree.set_translator(Translator())
        for name in self.cog_names:
            await self.load_extension(name)
        await self.sync_commands()

    async def _open_database(self) -> None:
        path = self.settings.db_path
        self.db = await Database.open(path)  # creates the folder, applies the migrations
        self.languages.loader = self._server_language
        log.info("database open: %s", path)

    async def _server_language(self, guild_id: int) -> str | None:
        assert self.db is not None
        return (await self.db.servers.get(guild_id)).language

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        guild_id = self.settings.test_guild
        if guild_id is None:
            self.synced = await self.tree.sync()
            log.info("synced %d commands globally (Discord may take a while to show them)",
                     len(self.synced))
        else:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            self.synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the test server %s", len(self.synced), guild_id)
        return self.synced

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info("connected as %s (%s) to %d servers", self.user, self.user.id, len(self.guilds))

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            if self.db is not None:
                db, self.db = self.db, None
                await db.close()
                log.info("database closed")


class ShardedArdoise(Ardoise, commands.AutoShardedBot):
    """The same bot, sharded: discord.py runs as many shards as Discord recommends."""


def create_bot(settings: Settings, *, cog_names: Sequence[str] | None = None,
               **options: Any) -> Ardoise:
    """The bot for ``settings``; ``cog_names`` and ``options`` (discord.py's) are for tests."""
    cls = ShardedArdoise if settings.sharded else Ardoise
    return cls(settings, cog_names=cog_names, **options)
