"""The bot itself: ``create_bot(settings)`` builds it; ``setup_hook`` wires everything at start.

At start (``setup_hook``, after login, before the gateway):

1. open the database (``db.Database.open``, which applies the migrations) and read each server's
   language from it; build the services (``bot/services.py``: the database, clocks, limits,
   registries) that every cog is given;
2. install the translator (French command names and descriptions);
3. load the cogs (every module of ``cogs/`` unless a list is given), which register their
   persistent buttons;
4. sync the commands, only if they changed since the last sync (Discord rate-limits syncs):
   the SHA-256 of the payload the tree would send is compared with the one stored at the last
   sync (``db.command_sync``); ``ARDOISE_SYNC=1`` or ``python -m bot --sync`` syncs anyway (e.g.
   after the commands were deleted on Discord's side). To the test server when
   ``ARDOISE_TEST_GUILD`` is set (instant), else globally.

Several processes (``ARDOISE_SHARDS``, ``ARDOISE_SHARD_COUNT``; docs/deploy.md) each run a
``ShardedArdoise`` on their own shards; ``owns(guild_id)`` tells the background tasks which
servers are this process's (``bot/shards.py``).

One process per shard: between opening the database and loading the cogs, ``take_shards``
takes this process's leases on its shards in the database (``db.leases``; one process of no
shards serves shard 0 of 1), waiting while another process holds them, so that two processes
never serve one shard (both would receive every interaction of its servers); nothing connects
to the gateway or runs in the background before. The leases are renewed every third of
``ARDOISE_SHARD_LEASE``; a process that finds them taken by another (it was frozen past their
end) or cannot renew them before they run out stops (``lease_lost``) rather than serve twice.

``close()`` closes the connection, gives the leases back, then closes the database. At login,
before all this, the threads of ``asyncio.to_thread`` (pictures, battles, Ardoise's turns) are
made nicer than the event loop (``bot/background.py``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import cogs
from bot.background import use_background_executor
from bot.i18n import Languages, Translator
from bot.limits import Limits
from bot.play.rithmo_search import SearchPool
from bot.services import ServicedBot, Services
from bot.settings import Config, check_shard_ids
from bot.shards import owner_of
from bot.tree import ArdoiseTree
from bot.views import Routes
from bot.web.app import WEB_SERVER, WebServer
from db import Database

log = logging.getLogger(__name__)

#: Seconds between two reads of the settings versions of the servers whose language this process
#: keeps (a change another process made is seen within this time; bot/i18n.py Languages).
SETTINGS_CHECK_S = 5.0
#: How many times a lease on the shards is renewed within its length (a waiting process asks
#: as often): a renewal can fail twice, the database being slow, before the lease runs out.
LEASE_RENEWALS = 3


class Ardoise(ServicedBot):
    """Ardoise: a ``commands.Bot`` with slash commands only, a database and two languages; its
    ``services`` (``bot/services.py``) are built in ``setup_hook`` and given to every cog."""

    def __init__(
        self,
        settings: Config,
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
        #: The class rooms' web server (``ARDOISE_WEB``), once started.
        self.web: WebServer | None = None
        self._settings_watch: asyncio.Task[None] | None = None
        self._lease_watch: asyncio.Task[None] | None = None
        #: The shards this process holds the leases of, and their count (after take_shards).
        self.leased: tuple[list[int], int] | None = None
        #: When (time.monotonic) the last renewal that held was asked for.
        self._lease_renewed = 0.0
        #: Whether the bot stopped because its shards' leases went to another process.
        self.lease_lost = False
        #: This bot's name in the claims of shared work (db.daily.claim_post): the machine, the
        #: process and this bot (two bots of one process, in tests, are two claimers).
        self.worker_id = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        #: Who takes what discord.py routes to no item, read from the loaded cogs.
        self._routes = Routes()

    @property
    def database(self) -> Database:
        """The open database (``db`` is None only before ``setup_hook`` and after ``close``)."""
        if self.db is None:
            raise RuntimeError("the database is not open")
        return self.db

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # The one listener of what discord.py routes nowhere (bot.views.Route): a modal's
        # submission, a click on a control its message does not show. Every other interaction
        # is back here at the first test.
        route = self._routes.route(interaction)
        if route is not None:
            await route.take(interaction)

    def _read_routes(self) -> None:
        self._routes = Routes(route for cog in self.cogs.values()
                              if isinstance(cog, cogs.ArdoiseCog) for route in cog.routes())

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
        self._read_routes()

    async def remove_cog(self, name: str, /, **kwargs: Any) -> commands.Cog | None:
        cog = await super().remove_cog(name, **kwargs)
        if isinstance(cog, cogs.ArdoiseCog) and cog.persistent_items:
            # An item two cogs use (the Focus rounds' button) stays while the other is loaded.
            kept = {item for other in self.cogs.values() if isinstance(other, cogs.ArdoiseCog)
                    for item in other.persistent_items}
            gone = [item for item in cog.persistent_items if item not in kept]
            if gone:
                self.remove_dynamic_items(*gone)
        self._read_routes()
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
        self._services = self._build_services(self.database)
        if not await self.take_shards():
            return  # stopped while waiting: connect() sees the bot closed and returns
        self._lease_watch = asyncio.create_task(self._keep_shards(), name="ardoise-shard-leases")
        await self.tree.set_translator(Translator())
        for name in self.cog_names:
            await self.load_extension(name)
        await self.sync_commands()
        await self._start_web()
        self._settings_watch = asyncio.create_task(self._watch_settings(),
                                                   name="ardoise-settings-versions")

    async def _start_web(self) -> None:
        """The class rooms' web server, when ``ARDOISE_WEB`` asks for it (bot/web)."""
        if self.settings.web_listen is None:
            return
        host, port = self.settings.web_listen
        server = WebServer(self.services, host, port, self.settings.web_url)
        self.services.kept.put(WEB_SERVER, server)
        self.web = server
        await server.start()

    def _build_services(self, db: Database) -> Services:
        return Services(db=db, settings=self.settings, languages=self.languages,
                        limits=self.limits, worker_id=self.worker_id, owns=self.owns,
                        pool=SearchPool(seconds={"strong": self.settings.strong_seconds}))

    # One process per shard ------------------------------------------------------------------

    async def served_shards(self) -> tuple[list[int], int]:
        """The shards this process serves and their count: a bot of no shards is one shard."""
        return [0], 1

    def _shards_text(self, ids: Sequence[int], count: int) -> str:
        return ("shard" + ("s " if len(ids) > 1 else " ") + ",".join(map(str, ids))
                + f" of {count}")

    async def take_shards(self) -> bool:
        """Take the leases on this process's shards, waiting (and saying so once in the log)
        while another process holds one of them; False if the bot was closed meanwhile."""
        ids, count = await self.served_shards()
        assert self.application_id is not None
        lease = self.settings.shard_lease
        waited = False
        while not self.is_closed():
            asked = time.monotonic()
            try:
                in_the_way = await self.database.leases.take(
                    self.application_id, ids, count, self.worker_id, lease)
            except Exception:
                if self.is_closed():
                    return False
                raise
            if not in_the_way:
                self.leased, self._lease_renewed = (ids, count), asked
                if waited:
                    log.warning("%s: taken over, serving them now", self._shards_text(ids, count))
                return True
            if not waited:
                held = "; ".join(
                    f"shard {other.shard_id} (of {other.shard_count}) is held by {other.holder}"
                    f" until {other.expires_at:%Y-%m-%d %H:%M:%S} UTC" for other in in_the_way)
                log.warning("%s; waiting for it to be free before serving %s (another process "
                            "serves them; a stopped one's lease runs out after %g s)",
                            held, self._shards_text(ids, count), lease)
                waited = True
            await asyncio.sleep(lease / LEASE_RENEWALS)
        return False

    async def renew_shards(self) -> bool:
        """Renew the leases on this process's shards; if another process holds them now, or
        they could not be renewed before they ran out, log it and close the bot (it must not
        serve them beside the other): False then."""
        assert self.leased is not None and self.application_id is not None
        ids, count = self.leased
        lease = self.settings.shard_lease
        asked = time.monotonic()
        try:
            in_the_way = await self.database.leases.take(
                self.application_id, ids, count, self.worker_id, lease)
        except Exception:
            if time.monotonic() - self._lease_renewed < lease:
                log.exception("renewing the lease on %s failed; trying again",
                              self._shards_text(ids, count))
                return True
            log.exception("the lease on %s could not be renewed before it ran out: another "
                          "process may serve them now; stopping", self._shards_text(ids, count))
        else:
            if not in_the_way:
                self._lease_renewed = asked
                return True
            log.error("the lease on %s went to %s (this process was too late to renew it): "
                      "stopping, so as not to serve them beside it", self._shards_text(ids, count),
                      ", ".join(sorted({other.holder for other in in_the_way})))
        self.lease_lost = True
        await self.close()
        return False

    async def _keep_shards(self) -> None:
        while True:
            await asyncio.sleep(self.settings.shard_lease / LEASE_RENEWALS)
            if not await self.renew_shards():
                return

    async def _open_database(self) -> None:
        path = self.settings.db_path
        self.db = await Database.open(path)  # creates the folder, applies the migrations
        self.languages.loader = self._server_language
        log.info("database open: %s", self.db.describe())

    async def _server_language(self, guild_id: int) -> str | None:
        settings = await self.database.servers.get(guild_id)
        self.languages.seen(guild_id, settings.version)
        return settings.language

    async def check_settings(self) -> list[int]:
        """Forget the kept languages of the servers whose settings changed in the database
        since they were read (by another process, or the command line); those servers."""
        kept = self.languages.cached()
        if not kept or self.db is None:
            return []
        return self.languages.check(await self.database.servers.versions(kept))

    async def _watch_settings(self) -> None:
        while True:
            await asyncio.sleep(SETTINGS_CHECK_S)
            try:
                await self.check_settings()
            except Exception:
                log.exception("reading the servers' settings versions failed")

    async def command_payload(self, guild: discord.abc.Snowflake | None = None
                              ) -> list[dict[str, Any]]:
        """The commands as ``tree.sync(guild=guild)`` would send them (translated, in order)."""
        tree, translator = self.tree, self.tree.translator
        return [await command.get_translated_payload(tree, translator) if translator is not None
                else command.to_dict(tree) for command in tree.get_commands(guild=guild)]

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Send the commands to Discord if they changed since the last sync, or if ``force`` (or
        ``settings.force_sync``) asks for it; whether they were sent."""
        guild_id = self.settings.test_guild
        guild = None if guild_id is None else discord.Object(id=guild_id)
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        where = "globally" if guild_id is None else f"to the test server {guild_id}"
        payload = await self.command_payload(guild)
        # Sorted with sorted keys: the hash names the commands, not the order they were added in.
        canonical = json.dumps(sorted(payload, key=lambda c: (c.get("type", 1), c["name"])),
                               sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
        scope = "global" if guild_id is None else str(guild_id)
        assert self.application_id is not None
        syncs = self.database.command_syncs
        if (not (force or self.settings.force_sync)
                and await syncs.last(self.application_id, scope) == digest):
            log.info("commands unchanged since the last sync %s: not synced again "
                     "(ARDOISE_SYNC=1 or --sync forces it)", where)
            return False
        self.synced = await self.tree.sync(guild=guild)
        await syncs.record(self.application_id, scope, digest)
        if guild is None:
            log.info("synced %d commands globally (Discord may take a while to show them)",
                     len(self.synced))
        else:
            log.info("synced %d commands %s", len(self.synced), where)
        return True

    def owns(self, guild_id: int) -> bool:
        """Whether this process acts on the server ``guild_id`` in the background: one process
        owns every server; a sharded one, the servers of its shards (``bot/shards.py``)."""
        return True

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info("connected as %s (%s) to %d servers", self.user, self.user.id, len(self.guilds))

    async def close(self) -> None:
        for watch in (self._settings_watch, self._lease_watch):
            # The lease's watch closes the bot itself when the lease is lost: not cancelled then.
            if watch is not None and watch is not asyncio.current_task():
                watch.cancel()
        self._settings_watch = self._lease_watch = None
        if self.web is not None:
            web, self.web = self.web, None
            try:
                await web.stop()
            except Exception:
                log.exception("stopping the web server failed")
        try:
            await super().close()
        finally:
            if self.db is not None:
                db, self.db = self.db, None
                try:
                    # After the gateway closed: the next process may serve the shards at once.
                    if self.leased is not None:
                        await db.leases.release(self.worker_id)
                except Exception:
                    log.exception("giving back the shards' leases failed (they run out "
                                  "by themselves)")
                finally:
                    await db.close()
                log.info("database closed")


class ShardedArdoise(Ardoise, commands.AutoShardedBot):
    """The same bot, sharded: discord.py runs the shards of ``settings.shard_ids`` out of
    ``settings.shard_count`` (all of them, and as many as Discord recommends, when unset)."""

    def __init__(self, settings: Config, *, cog_names: Sequence[str] | None = None,
                 **options: Any) -> None:
        if settings.shard_count is not None:
            options.setdefault("shard_count", settings.shard_count)
            if settings.shard_ids is not None:
                options.setdefault("shard_ids", list(settings.shard_ids))
        super().__init__(settings, cog_names=cog_names, **options)

    async def served_shards(self) -> tuple[list[int], int]:
        if self.shard_count is None:
            # Discord's count, asked for once logged in (the request discord.py would make in
            # launch_shards): the leases need it before the shards connect, and discord.py
            # wants the count with named ids.
            count, _, _ = await self.http.get_bot_gateway()
            wanted = self.settings.shard_ids
            if wanted is not None:
                check_shard_ids(wanted, count, "Discord's recommended shard count")
                self.shard_ids = list(wanted)
            self.shard_count = count
        ids = list(range(self.shard_count) if self.shard_ids is None else self.shard_ids)
        return ids, self.shard_count

    def owns(self, guild_id: int) -> bool:
        return owner_of(self.shard_ids, self.shard_count)(guild_id)


def create_bot(settings: Config, *, cog_names: Sequence[str] | None = None,
               **options: Any) -> Ardoise:
    """The bot for ``settings``; ``cog_names`` and ``options`` (discord.py's) are for tests."""
    cls = ShardedArdoise if settings.runs_shards else Ardoise
    return cls(settings, cog_names=cog_names, **options)
