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

What discord.py routes nowhere (``Route``)
    A modal's submission (discord.py has no ``DynamicItem`` for modals) and a click on a control
    its message does not show (a modified client) reach no item: only the ``interaction`` event
    sees them. A cog lists, in ``routes()``, the prefixes of the custom ids it takes so and who
    takes them; the bot keeps the routes of its loaded cogs and has ONE listener for them
    (``Ardoise.on_interaction``), which returns at once for every other interaction.

Ephemeral windows that say "expired" themselves (``Windows``)
    A window whose clicks must get a sentence once it is gone (the 20 Digits shop, the Focus
    rounds) sends ``DynamicItem``s only, registered with its cog: discord.py then stores nothing
    per message and routes every click to the item class, even on a window it never stored (a
    restart, or a click read before the answer showing it came back). The item finds its live
    window in a ``Windows`` (by message id, each until ``timeout`` seconds after it was last
    shown or used) and says "expired" itself when there is none.
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, Self, TypeVar

import discord
from discord import ui

from bot.domain import DomainError
from bot.tree import NotAPlayer, report_error

CUSTOM_ID_LIMIT = 100
ACTION_RE = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)+$")
GAME_ID_RE = re.compile(r"^[A-Za-z0-9_-]+$")

_actions: dict[str, str] = {}  # action -> "module.qualname" of the class that owns it

#: The largest integer SQLite stores: no game id or version is bigger.
MAX_ID = 2**63 - 1
# A whole number as the bot writes one in a component: no sign, no leading zero, no exponent,
# no space, ASCII digits only (str.isdigit would take "²"), at most 19 digits.
_NUMBER = re.compile(r"0|[1-9][0-9]{0,18}")


# --- What components send back ---------------------------------------------------------------
# A modified client may send any select value and any custom id (Discord does not check them
# against the message): what a component sends is read like text a member typed. A value the
# bot could not have offered is refused with one sentence (``errors.component.invalid``) before
# anything changes.


def invalid_component(what: str) -> DomainError:
    return DomainError("component.invalid", f"a button or menu sent an invalid {what}")


def component_int(value: object, low: int, high: int, what: str = "value") -> int:
    """``value`` (a select value, a part of a custom id) as a whole number from ``low`` to
    ``high``; anything else raises ``DomainError("component.invalid")``."""
    if not isinstance(value, str) or _NUMBER.fullmatch(value) is None:
        raise invalid_component(what)
    number = int(value)
    if not low <= number <= high:
        raise invalid_component(what)
    return number


def component_ints(values: Sequence[object], count: int, low: int, high: int,
                   what: str = "value") -> list[int]:
    """Exactly ``count`` different whole numbers from ``low`` to ``high`` (a menu's values)."""
    if len(values) != count:
        raise invalid_component(what)
    numbers = [component_int(v, low, high, what) for v in values]
    if len(set(numbers)) != count:
        raise invalid_component(what)
    return numbers


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
    #: The game id is a row id (a positive number): a forged one is refused before ``on_click``.
    numeric_id: ClassVar[bool] = True

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
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        item = button_of(item)
        # A forged version of thousands of digits would not even be read by int(): -1, which
        # check_ids refuses.
        text = match["version"]
        version = int(text) if len(text) <= 19 else -1
        return cls(match["game"], version, match["arg"] or "", label=item.label,
                   style=item.style, emoji=item.emoji, disabled=item.disabled, row=item.row)

    def check_ids(self) -> None:
        """Refuse a custom id the bot could not have written (a game id that is no row id, a
        version out of range): it comes from a modified client."""
        if self.numeric_id:
            component_int(self.game_id, 1, MAX_ID, "game id")
        if not 0 <= self.version <= MAX_ID:
            raise invalid_component("version")

    def arg_int(self, low: int, high: int, what: str = "value") -> int:
        """The custom id's argument as a whole number from ``low`` to ``high`` (else refused)."""
        return component_int(self.arg, low, high, what)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            self.check_ids()
            await self.on_click(interaction)
        except Exception as error:
            await report_error(interaction, error)

    async def on_click(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


def button_of(item: ui.Item[Any]) -> ui.Button[Any]:
    """The button a click on a button's ``DynamicItem`` came from: discord.py types it as any
    item, and only a modified client sends another kind of component under a button's id."""
    if not isinstance(item, ui.Button):
        raise invalid_component("component type")
    return item


class AskedButton(GameButton):
    """A button of a private question (resign? keep playing?): its custom id holds the game, the
    time the question was asked (as the version, Unix seconds) and the member asked (its arg).
    Only that member may answer it, for :attr:`max_age_s`; a time ahead of the clock by more
    than a minute is forged. A subclass names its two refusals and may give its own clock (a
    test replaces it to age a question)."""

    max_age_s: ClassVar[int] = 15 * 60  # Discord lets a bot edit an ephemeral answer 15 min
    not_yours_code: ClassVar[str]
    expired_code: ClassVar[str]
    _SLACK_S: ClassVar[int] = 60  # clocks differ a little

    def now(self) -> float:
        return time.time()

    def check(self, interaction: discord.Interaction) -> None:
        asker = self.arg_int(1, MAX_ID, "member")
        now = self.now()
        if self.version > now + self._SLACK_S:
            raise invalid_component("version")
        if interaction.user.id != asker:
            raise DomainError(self.not_yours_code, "this question was asked to someone else")
        if now - self.version > self.max_age_s:
            minutes = self.max_age_s // 60  # as a count where the text has plurals
            raise DomainError(self.expired_code, "this question has expired", minutes=minutes,
                              count=minutes)


def check_offered(view: ui.View, interaction: discord.Interaction) -> None:
    """Refuse a menu's values that are not among its options, or too few or too many: discord.py
    hands the callback whatever the client sent."""
    data: Any = interaction.data or {}
    values = data.get("values")
    if values is None:
        return
    # A window of dynamic items holds its menus inside them.
    items = [item.item if isinstance(item, ui.DynamicItem) else item for item in view.children]
    select = next((item for item in items if isinstance(item, ui.Select)
                   and item.custom_id == data.get("custom_id")), None)
    if select is None:
        return
    offered = {option.value for option in select.options}
    if (not isinstance(values, list)
            or not select.min_values <= len(values) <= select.max_values
            or len(set(map(str, values))) != len(values)
            or any(not isinstance(v, str) or v not in offered for v in values)):
        raise invalid_component("menu value")


class ArdoiseView(ui.View):
    """A short-lived view: only ``players`` (when given) may use it; errors are localised."""

    def __init__(self, *, players: Collection[int] | None = None, timeout: float | None = 600.0
                 ) -> None:
        super().__init__(timeout=timeout)
        self.players = None if players is None else frozenset(players)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if self.players is not None:
            ensure_player(interaction, self.players)
        check_offered(self, interaction)
        return True

    async def on_error(self, interaction: discord.Interaction, error: Exception,
                       item: ui.Item[Any], /) -> None:
        await report_error(interaction, error)


class ArdoiseModal(ui.Modal):
    """A modal whose errors are localised like everything else."""

    # discord.py's own Modal.on_error drops BaseView's item argument: the same signature here.
    async def on_error(  # type: ignore[override]
            self, interaction: discord.Interaction, error: Exception, /) -> None:
        await report_error(interaction, error)


def routed_nowhere(interaction: discord.Interaction, prefix: str) -> bool:
    """Whether ``interaction`` is a click, on a component whose custom id starts with ``prefix``,
    that discord.py hands to no ``DynamicItem``: one whose custom id (and type) its message does
    not show, which only a modified client sends. The listener that sees it answers it."""
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    if (interaction.type is not discord.InteractionType.component
            or not isinstance(custom_id, str) or not custom_id.startswith(prefix)):
        return False
    message = interaction.message
    stack: list[Any] = [] if message is None else list(message.components)
    while stack:
        component = stack.pop()
        if (getattr(component, "custom_id", None) == custom_id
                and component.type.value == data.get("component_type")):
            return False
        stack.extend(getattr(component, "children", None) or ())
    return True


@dataclass(frozen=True)
class Route:
    """Who takes the interactions of one ``kind`` whose custom id starts with ``prefix`` when
    discord.py routes them to no item: a modal's submission, or a click on a control its message
    does not show (``routed_nowhere``: a click it shows reached its ``DynamicItem``)."""

    kind: Literal["modal", "click"]
    prefix: str
    take: Callable[[discord.Interaction], Awaitable[object]]


class Routes:
    """The routes of the loaded cogs, one per kind and prefix (two cogs may give the same: the
    Focus rounds' modals are the Focus cog's and the 20 Digits cog's, each working alone)."""

    def __init__(self, routes: Iterable[Route] = ()) -> None:
        chosen: dict[tuple[str, str], Route] = {}
        for route in routes:
            chosen.setdefault((route.kind, route.prefix), route)
        # The longest prefix first: a prefix may begin another.
        ordered = sorted(chosen.values(), key=lambda r: -len(r.prefix))
        self._modals = [r for r in ordered if r.kind == "modal"]
        self._clicks = [r for r in ordered if r.kind == "click"]

    def route(self, interaction: discord.Interaction) -> Route | None:
        """The route that takes ``interaction``, if any (most interactions: none, at once)."""
        if interaction.type is discord.InteractionType.modal_submit:
            table = self._modals
        elif interaction.type is discord.InteractionType.component:
            table = self._clicks
        else:
            return None
        data: Any = interaction.data or {}
        custom_id = data.get("custom_id")
        if not table or not isinstance(custom_id, str):
            return None
        for route in table:
            if custom_id.startswith(route.prefix):
                if route.kind == "click" and not routed_nowhere(interaction, route.prefix):
                    return None
                return route
        return None


W = TypeVar("W")


class Windows(Generic[W]):
    """The live ephemeral windows of one bot, by the id of the message showing them: each lives
    ``timeout`` seconds after it was last shown or used (as a view's timeout), then is gone."""

    def __init__(self, timeout: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.timeout = timeout
        self.clock = clock
        self._live: dict[int, tuple[W, float]] = {}

    def show(self, message_id: int, window: W) -> None:
        """``window`` is what the message ``message_id`` shows now (in place of any other)."""
        now = self.clock()
        # Forget the windows whose time is over: nothing else would.
        self._live = {k: v for k, v in self._live.items() if v[1] >= now}
        self._live[message_id] = (window, now + self.timeout)

    def get(self, message_id: int | None) -> W | None:
        """The live window of the message, its time starting again; None if there is none."""
        found = None if message_id is None else self._live.get(message_id)
        if found is None:
            return None
        now = self.clock()
        if found[1] < now:
            del self._live[message_id]  # type: ignore[arg-type]
            return None
        self._live[message_id] = (found[0], now + self.timeout)  # type: ignore[index]
        return found[0]

    def forget(self, message_id: int | None) -> None:
        if message_id is not None:
            self._live.pop(message_id, None)

    def __len__(self) -> int:
        return len(self._live)
