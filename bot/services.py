"""The bot's services: one object, built once in ``Ardoise.setup_hook`` and given to every cog.

``Services`` holds what the cogs, flows, views and persistent buttons share: the open database
(typed ``Database``: it is open for as long as the services exist), the settings, the servers'
languages, the limits and cooldowns (with the strong-search gate), the clocks and seeds, and the
in-memory registries (``kept``: the windows of each kind, the flows a persistent button calls)
and the Rithmomachia search pool.

Given, not looked up: a cog receives them at construction (``setup(bot)`` passes
``bot.services``) and keeps ``self.services``. A ``DynamicItem`` or a persistent view, which
discord.py builds from a custom id with nothing but the interaction, reads them with
``services_of(interaction)``: the one typed accessor, which refuses a client that carries none.

Registries are typed by their key (``Key[T]``): the module that owns a kind of window or a flow
protocol declares its key next to it, so this module imports none of the presentation (no import
circle), and what it keeps comes back with its type::

    SHOP_WINDOWS: Key[Windows[ShopView]] = Key("digits.shop", lambda: Windows(EPHEMERAL_TIMEOUT))
    services_of(interaction).kept.get(SHOP_WINDOWS)      # a Windows[ShopView]
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Generic, TypeVar, cast

import discord
from discord.ext import commands

from bot.i18n import Languages
from bot.limits import Limits, SearchGate
from bot.play.rithmo_search import SearchPool
from bot.settings import Config
from db import Database

T = TypeVar("T")


class Key(Generic[T]):
    """The typed name of one thing kept in the services; ``make`` builds it on first use (a
    registry of windows), else it must be ``put`` first (a flow, by the cog that runs it)."""

    def __init__(self, name: str, make: Callable[[], T] | None = None) -> None:
        self.name = name
        self.make = make

    def __repr__(self) -> str:
        return f"Key({self.name!r})"


class Kept:
    """The in-memory registries of one bot, by key (each bot its own: tests run several)."""

    def __init__(self) -> None:
        self._values: dict[Key[object], object] = {}

    def put(self, key: Key[T], value: T) -> None:
        self._values[cast(Key[object], key)] = value

    def get(self, key: Key[T]) -> T:
        found = self._values.get(cast(Key[object], key), _MISSING)
        if found is _MISSING:
            if key.make is None:
                raise RuntimeError(f"nothing is registered for {key.name} (is its cog loaded?)")
            found = key.make()
            self._values[cast(Key[object], key)] = found
        return cast(T, found)

    def drop(self, key: Key[T], value: T) -> None:
        """Forget ``value`` under ``key`` if it is still the one kept (a cog being unloaded)."""
        if self._values.get(cast(Key[object], key)) is value:
            del self._values[cast(Key[object], key)]


_MISSING = object()


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _seed() -> int:
    return secrets.randbits(64)


@dataclass
class Clocks:
    """The clocks and seeds the features read; a test replaces one to move time or fix a draw
    (``bot.services.clocks.now = lambda: NINE``; the Focus cog's ``now``, ``wall`` and ``seed``
    are these)."""

    #: The date and time (UTC): daily rounds, assignments' due dates.
    now: Callable[[], datetime] = _utc_now
    #: Unix seconds: live rounds' steps, the expiry of answer modals.
    wall: Callable[[], float] = time.time
    #: Seeds of the practice and live questions.
    seed: Callable[[], int] = _seed


@dataclass(frozen=True)
class Services:
    """What every cog and flow is given (see the module's docstring)."""

    db: Database
    settings: Config
    languages: Languages
    limits: Limits
    #: This bot's name in the claims of shared work (``db.daily.claim_post``).
    worker_id: str
    #: Whether this process acts on a server in the background (its shards; ``Ardoise.owns``).
    owns: Callable[[int], bool]
    #: The worker processes of Ardoise's Rithmomachia turns (started on the first search).
    pool: SearchPool
    clocks: Clocks = field(default_factory=Clocks)
    kept: Kept = field(default_factory=Kept)

    @property
    def searches(self) -> SearchGate:
        """The gate of Ardoise's strong searches (at most so many at once, bot-wide)."""
        return self.limits.searches


class ServicedBot(commands.Bot):
    """A bot that carries the services: ``bot.app.Ardoise`` is one. Cogs and ``services_of``
    name this class, not ``Ardoise``: ``bot.app`` imports the cogs, which import this module, and
    a circle (even of type-only imports) is what tests/test_import_graph.py refuses."""

    _services: Services | None = None

    @property
    def services(self) -> Services:
        """The services (built in ``setup_hook``, once the database is open)."""
        if self._services is None:
            raise RuntimeError("the services are not built yet (before setup_hook?)")
        return self._services


def bot_of(client: discord.Client) -> ServicedBot:
    """``client`` as the Ardoise bot it must be (else a clear error, not a wrong guess)."""
    if not isinstance(client, ServicedBot):
        raise RuntimeError(f"{type(client).__name__} carries no Ardoise services")
    return client


def services_of_client(client: discord.Client) -> Services:
    """The services of ``client``, which must be an Ardoise bot (else a clear error)."""
    return bot_of(client).services


def services_of(interaction: discord.Interaction) -> Services:
    """The services of the bot an interaction came to: for the ``DynamicItem``s and persistent
    views that discord.py builds with nothing else (a cog uses its ``self.services``)."""
    return services_of_client(interaction.client)
