"""Buttons, views and modals that survive restarts and answer failures in the member's language.

Persistent buttons (``GameButton``)
    A game's public message carries buttons whose custom id says everything needed to act after a
    restart: ``<action>:<game id>:<version>[:<argument>]``, e.g. ``digits.accept:42:7``. A subclass
    names its action once; the bot routes every matching click to it, even on a message posted
    before the restart (discord.py's ``DynamicItem``)::

        class AcceptChallenge(GameButton, action="digits.accept"):
            async def on_click(self, interaction: discord.Interaction) -> None:
                match = await load_match(int(self.game_id))
                ensure_player(interaction, match.players)     # others get a polite refusal
                ensure_version(self.version, match.version)   # a stale click is refused
                ...

        AcceptChallenge(match.id, match.version, label=t("digits.accept", lang))

    The cog lists its classes in ``persistent_items`` (see ``cogs.ArdoiseCog``) so that the bot
    registers them at start. Exceptions raised in ``on_click`` go to ``bot.tree.report_error``.

Short-lived views (``ArdoiseView``) and modals (``ArdoiseModal``)
    For ephemeral messages (a shop turn, a Focus question): ``ArdoiseView(players=[…])`` refuses
    anyone else politely, and both route their errors to ``report_error``. An ephemeral message
    cannot keep persistent buttons (discord.py drops its view after 15 minutes), so keep those on
    the public game message and let them open a fresh ephemeral view.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any, ClassVar, Self

import discord
from discord import ui

from bot.domain import DomainError
from bot.tree import NotAPlayer, report_error

CUSTOM_ID_LIMIT = 100
ACTION_RE = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)+$")
GAME_ID_RE = re.compile(r"^[A-Za-z0-9_-]+$")

_actions: dict[str, str] = {}  # action -> "module.qualname" of the class that owns it


def ensure_player(interaction: discord.Interaction, players: Collection[int]) -> None:
    """Refuse (``NotAPlayer``) anyone but ``players`` (user ids) acting on a game."""
    if interaction.user.id not in players:
        raise NotAPlayer(interaction.user.id)


def ensure_version(clicked: int, current: int) -> None:
    """Refuse a click made on a message older than the game's current state."""
    if clicked != current:
        raise DomainError("game.stale", "This message is out of date: the game has moved on.",
                          clicked=clicked, current=current)


def custom_id(action: str, game_id: str | int, version: int, arg: str = "") -> str:
    """The custom id of a persistent button: ``action:game:version[:arg]``."""
    text = f"{action}:{game_id}:{version}" + (f":{arg}" if arg else "")
    if len(text) > CUSTOM_ID_LIMIT:
        raise ValueError(f"custom id {text!r} is over {CUSTOM_ID_LIMIT} characters")
    return text


class GameButton(ui.DynamicItem[ui.Button], template=r"(?!)"):
    """A persistent button of one game; subclass with ``action="cog.verb"`` and ``on_click``.

    The base's template matches nothing; each subclass gets its own from its action.
    """

    action: ClassVar[str] = ""

    def __init_subclass__(cls, *, action: str | None = None, **kwargs: Any) -> None:
        if action is None:  # an abstract intermediate class
            super().__init_subclass__(template=r"(?!)", **kwargs)
            return
        if not ACTION_RE.match(action):
            raise ValueError(f"action {action!r} must look like 'cog.verb' (lowercase, dotted)")
        owner = f"{cls.__module__}.{cls.__qualname__}"
        if _actions.get(action, owner) != owner:
            raise ValueError(f"action {action!r} already belongs to {_actions[action]}")
        _actions[action] = owner
        cls.action = action
        template = (re.escape(action)
                    + r":(?P<game>[A-Za-z0-9_-]+):(?P<version>[0-9]+)(?::(?P<arg>.*))?")
        super().__init_subclass__(template=template, **kwargs)

    def __init__(
        self,
        game_id: str | int,
        version: int,
        arg: str = "",
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
        emoji: str | discord.PartialEmoji | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        if not self.action:
            raise TypeError(f"{type(self).__name__} has no action: subclass with action=…")
        if not GAME_ID_RE.match(str(game_id)):
            raise ValueError(f"game id {game_id!r} may hold only letters, digits, - and _")
        super().__init__(ui.Button(
            label=label, style=style, emoji=emoji, disabled=disabled, row=row,
            custom_id=custom_id(self.action, game_id, version, arg)))
        self.game_id = str(game_id)
        self.version = version
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str], /
    ) -> Self:
        return cls(match["game"], int(match["version"]), match["arg"] or "", label=item.label,
                   style=item.style, emoji=item.emoji, disabled=item.disabled, row=item.row)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.on_click(interaction)
        except Exception as error:
            await report_error(interaction, error)

    async def on_click(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


class ArdoiseView(ui.View):
    """A short-lived view: only ``players`` (when given) may use it; errors are localised."""

    def __init__(self, *, players: Collection[int] | None = None, timeout: float | None = 600.0
                 ) -> None:
        super().__init__(timeout=timeout)
        self.players = None if players is None else frozenset(players)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if self.players is not None:
            ensure_player(interaction, self.players)
        return True

    async def on_error(self, interaction: discord.Interaction, error: Exception,
                       item: ui.Item[Any], /) -> None:
        await report_error(interaction, error)


class ArdoiseModal(ui.Modal):
    """A modal whose errors are localised like everything else."""

    async def on_error(self, interaction: discord.Interaction, error: Exception, /) -> None:
        await report_error(interaction, error)
