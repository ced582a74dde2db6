"""The bot's features, one cog per module, and how they fit together.

Loading
    Every public module of this package (``cogs/<name>.py``, not starting with ``_``) is a cog
    extension: it defines ``async def setup(bot)`` that adds its cog. ``discover()`` lists them and
    the bot loads them all at start; a new feature is a new file, no list to edit. Helpers shared by
    several cogs go in ``_``-prefixed modules.

Shared command groups
    ``/digits``, ``/focus`` and ``/rithmo`` are each one group on Discord, but several cogs may add
    subcommands to one group (``cogs/digits_info.py`` has ``/digits card`` and ``/digits rules``;
    ``cogs/digits.py`` has ``/digits challenge`` and ``/digits solo``). The groups are defined once,
    in ``SHARED_GROUPS`` below; a cog names its group in ``shared_group`` and writes its
    subcommands as ordinary cog commands::

        class DigitsInfo(ArdoiseCog):
            shared_group = "digits"

            @app_commands.command(name="card", description="Show a digit's card")
            async def card(self, interaction: discord.Interaction, digit: str) -> None: ...

    When the cog is added, its commands (and its own sub-groups) move under ``/digits``; when it
    is removed, they leave, and the group leaves the tree once empty. The French names and
    descriptions come from the catalogues (``commands.digits.card.name`` …, see ``bot.i18n``); the
    group's own French name belongs to the cog that owns the group's core (``digits_info`` for
    ``/digits``; ``focus`` and ``rithmo`` for theirs).

Persistent buttons
    A cog lists its ``bot.views.GameButton`` classes in ``persistent_items``; they are registered
    when the cog is added, so clicks on messages posted before a restart reach them. (Both are
    done by ``Ardoise.add_cog``: a cog's ``cog_load`` is free for its own use.)

Texts
    Per-cog catalogues in ``cogs/locales/en/<cog>.json`` and ``cogs/locales/fr/<cog>.json``; see
    ``bot.i18n``.
"""

from __future__ import annotations

import pkgutil
from typing import TYPE_CHECKING, Any, ClassVar

from discord import app_commands
from discord.ext import commands

if TYPE_CHECKING:
    from bot.app import Ardoise
    from bot.views import GameButton

# name -> English description; the French ones are catalogue keys commands.<name>.description.
SHARED_GROUPS: dict[str, str] = {
    "digits": "The 20 Digits: the auto-battler of numbers",
    "focus": "Focus: quick arithmetic rounds and the daily challenge",
    "rithmo": "Rithmomachia: the medieval battle of the numbers",
}


def discover() -> list[str]:
    """The extension names of every cog module of this package, sorted."""
    return sorted(
        f"{__name__}.{module.name}"
        for module in pkgutil.iter_modules(__path__)
        if not module.name.startswith("_") and not module.ispkg
    )


class ArdoiseCog(commands.Cog):
    """A cog of Ardoise: optional shared group, persistent items, typed ``bot``."""

    shared_group: ClassVar[str | None] = None
    persistent_items: ClassVar[tuple[type[GameButton], ...]] = ()

    def __init__(self, bot: Ardoise) -> None:
        self.bot = bot
        self._moved: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = []

    # Called by Ardoise.add_cog / remove_cog, so that a cog's own cog_load and cog_unload stay
    # free for its own use (no super() call to forget).

    def _attach(self) -> None:
        # Before discord.py adds the cog's app commands to the tree: moving them into the
        # shared group (and emptying the cog's list) keeps them off the top level.
        if self.shared_group is not None:
            group = self.bot.shared_group(self.shared_group)
            mine = list(self.__cog_app_commands__)
            for command in mine:
                group.add_command(command)
            self._moved = mine
            self.__cog_app_commands__ = []
        if self.persistent_items:
            self.bot.add_dynamic_items(*self.persistent_items)

    def _detach(self) -> None:
        if self._moved and self.shared_group is not None:
            self.bot.leave_shared_group(self.shared_group, self._moved)
            self.__cog_app_commands__ = self._moved
            self._moved = []
        if self.persistent_items:
            self.bot.remove_dynamic_items(*self.persistent_items)
