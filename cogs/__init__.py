"""The bot's features, one cog per module, and how they fit together.

Loading
    Every public module of this package (``cogs/<name>.py``, not starting with ``_``) is a cog
    extension: it defines ``async def setup(bot)`` that adds its cog. ``discover()`` lists them and
    the bot loads them all at start; a new feature is a new file, no list to edit. Helpers shared by
    several cogs go in ``_``-prefixed modules.

Command groups
    ``/digits``, ``/focus`` and ``/rithmo`` are each one ``commands.GroupCog``: the cog is the
    group (``group_name``, ``group_description``) and its app commands are the subcommands.
    Commands of one group that live in another module are a mixin the group's cog inherits
    (discord.py collects a cog's commands along its classes): ``cogs/_digits_info.py`` has
    ``/digits card`` and ``/digits rules``, and ``cogs/digits.py``'s cog inherits them::

        class Digits(DigitsInfo, ArdoiseCog, commands.GroupCog, group_name="digits",
                     group_description="The 20 Digits: the auto-battler of numbers"):
            @app_commands.command(name="challenge", description="Challenge a member")
            async def challenge(self, interaction: discord.Interaction, ...) -> None: ...

    The French names and descriptions come from the catalogues (``commands.digits.card.name`` …,
    see ``bot.i18n``), keyed by the command's path, whichever module defines it.

Persistent buttons
    A cog lists its ``bot.views.GameButton`` classes in ``persistent_items``; they are registered
    when the cog is added, so clicks on messages posted before a restart reach them
    (``Ardoise.add_cog`` reads the list: a cog's ``cog_load`` is free for its own use).

What discord.py routes nowhere
    A cog's ``routes()`` lists who takes its modals' submissions and the clicks on controls a
    message does not show (``bot.views.Route``); the bot has one listener for all of them.

Texts
    Per-cog catalogues in ``cogs/locales/en/<cog>.json`` and ``cogs/locales/fr/<cog>.json``; see
    ``bot.i18n``.
"""

from __future__ import annotations

import pkgutil
from collections.abc import Sequence
from typing import Any, ClassVar

from discord import ui
from discord.ext import commands

from bot.services import ServicedBot, Services
from bot.views import Route


def discover() -> list[str]:
    """The extension names of every cog module of this package, sorted."""
    return sorted(
        f"{__name__}.{module.name}"
        for module in pkgutil.iter_modules(__path__)
        if not module.name.startswith("_") and not module.ispkg
    )


class ArdoiseCog(commands.Cog):
    """A cog of Ardoise: persistent items, typed ``bot``, and the ``services`` it is given
    (``setup(bot)`` passes ``bot.services``; bot/services.py)."""

    #: The cog's ``ui.DynamicItem`` classes (``bot.views.GameButton``s, the controls of windows
    #: that answer "expired" themselves); several cogs may list one.
    persistent_items: ClassVar[tuple[type[ui.DynamicItem[Any]], ...]] = ()

    bot: ServicedBot
    services: Services

    def __init__(self, bot: ServicedBot, services: Services) -> None:
        self.bot = bot
        self.services = services

    def routes(self) -> Sequence[Route]:
        """Who takes this cog's interactions that discord.py routes to no item (none by
        default); the bot reads them when the cog is added or another removed."""
        return ()
