"""The 20 Digits on Discord: the match message, the challenge, the shop windows, the replays.

This module presents: embeds, texts, views, the shop windows, the pictures (drawn in a thread).
What an interaction does — the use cases of ``bot.play.digits`` called, the answer posted, the
public message refreshed, the battle announced — is conducted by ``bot.flows.digits``; the
buttons and the shop windows here call it back through ``DigitsFlows``, which the flow registers
under ``DIGITS_FLOWS`` in the services (this module never imports a flow). The commands are
``cogs/digits.py``.

How a match runs
----------------
- ``/digits challenge <member> [draft]`` stores a *pending* match and posts the challenge with
  Accept / Decline (the challenged member) and Cancel (the challenger). Accepted, the same
  message becomes the *match message*: the round, each side's lives and stage, and the buttons
  "Take my Focus" and "Open my shop" (in a draft match, the shared row and its picks too).
- "Take my Focus" runs the round's Focus (6 questions, one modal each, in an ephemeral message);
  the score gives the round's gold and feeds the Abacus digits (``Match.submit_focus``), and the
  shop opens in the same ephemeral message. "Open my shop" opens a fresh one at any time.
- The shop turn: the shop picture and the slate picture, buttons to buy each offer, reroll and get
  ready, and menus to sell, freeze or unfreeze, and move, swap or merge. Every action goes through
  the match engine; a refusal is said in the member's language and changes nothing.
- When both sides are ready the engine fights the battle; the round is saved, then posted in the
  channel: the replay (GIF), a short summary, and, unless the match is over, the next round's
  match message.
- ``/digits solo`` is the same match against ghosts (``bot.play.digits.solo_pool``), else the
  match's shadow; ``/digits odds`` and the shop's "Odds" button say the round's odds privately.

Versions of the clicks
----------------------
- The buttons of the match message carry the *round* as their version: a click on the message of
  an earlier round is refused (``game.stale``), unless that message is still the match's current
  one (the next round's message was never posted, say the bot stopped right then).
- An ephemeral shop or Focus message carries the player's step: after any later action of that
  player (in another message), its buttons are refused as out of date.

Decisions (written in ``docs/rules/the-20-digits.md``, "On Discord"): a bought digit merges at
once onto an N1 copy of itself on the slate, else goes where it can act (``bot.digits.placement``;
the window's words about it are ``bot.ui.digits_shop``); picking two
cells in the "move" menu swaps them, moves a digit to an empty cell, or merges two equal digits
onto the lower-numbered cell.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, Self

import discord
from discord import ui

import images
from bot.digits.battle import opening_effects
from bot.digits.catalogue import BY_KEY
from bot.digits.match import GHOST, RoundRecord
from bot.digits.odds import reads_focus
from bot.digits.shop import FOCUS_MAX, MatchSettings
from bot.digits.slate import CELLS
from bot.domain import DomainError
from bot.focus import ROUND_SIZE, FocusRound
from bot.i18n import image_words, t
from bot.limits import hit
from bot.play import digits as play
from bot.play.digits import StoredMatch
from bot.replies import shown_name
from bot.services import Key, services_of, services_of_client
from bot.tree import report_error
from bot.ui import alt_text
from bot.ui import digits_shop as shop_ui
from bot.ui import focus_run as focus_ui
from bot.ui.digits_levels import add_level_field
from bot.views import (
    ArdoiseView,
    GameButton,
    Windows,
    component_ints,
    ensure_player,
    ensure_version,
    invalid_component,
)

#: Ephemeral views live as long as Discord lets a bot edit what it answered.
EPHEMERAL_TIMEOUT = 15 * 60.0
COLOUR = 0x2A9D8F
#: The buttons a message row holds.
ROW = 5
#: Custom ids of the shop windows' controls (ephemeral, short-lived).
SHOP_PREFIX = "digits:"
#: A bound on a shop or draft slot read from a component (the engine refuses one it has no
#: offer in); above it, the value is forged.
MAX_SLOT = 99


def player_of(game: StoredMatch, interaction: discord.Interaction) -> str:
    """The clicking member as a player of this match (anyone else is refused)."""
    ensure_player(interaction, game.members)
    return str(interaction.user.id)


# --------------------------------------------------------------------------------------------
# Names and texts


def player_name(game: StoredMatch, player: str, lang: str, *, escape: bool = False) -> str:
    if player in game.names:
        name = game.names[player]
        return shown_name(name) if escape else name
    # A member whose data was deleted is a negative number in the state (db.export).
    return t("digits.former.player", lang) if player.startswith("-") else "?"


def side_name(game: StoredMatch, side: str, lang: str, record: RoundRecord | None = None, *,
              escape: bool = False) -> str:
    """The side's name as pictures draw it; ``escape`` for the text of a message."""
    if side != GHOST:
        return player_name(game, side, lang, escape=escape)
    ghost = record.ghost if record is not None else None
    if ghost is None:
        return t("digits.ghost.side", lang)
    if ghost.builtin:
        return t("digits.ghost.builtin", lang)
    if ghost.shadow:
        return t("digits.ghost.shadow", lang)
    owner = str(ghost.owner)
    if owner not in game.names and owner.startswith("-"):
        return t("digits.former.ghost", lang)
    return t("digits.ghost.of", lang, name=player_name(game, owner, lang, escape=escape))


def shown(game: StoredMatch, side: str, lang: str, record: RoundRecord | None = None) -> str:
    """``side_name`` as text of a message: members' names escaped (``bot.replies.shown_name``)."""
    return side_name(game, side, lang, record, escape=True)


def localised(error: DomainError, lang: str, game: StoredMatch | None = None) -> DomainError:
    """The refusal with its data worded in the member's language: digit names, the sides of
    the match it names (``play.Side``, the engine's ``picker``) as the match keeps their names,
    a member's name (``play.Named``) shown inert."""
    params = dict(error.params)
    for key in ("digit", "other"):
        value = params.get(key)
        if isinstance(value, str) and value in BY_KEY:
            params[key] = BY_KEY[value].name(lang)
    if game is not None and isinstance(params.get("picker"), str):
        params["picker"] = shown(game, params["picker"], lang)
    for key, value in params.items():
        if isinstance(value, play.Named):
            params[key] = shown_name(value.name)
        elif isinstance(value, play.Side) and game is not None:
            params[key] = shown(game, value.player, lang)
    if params == error.params:
        return error  # nothing to word (and a refusal of its own class, TooManyOpen, stays one)
    return DomainError(error.code, str(error), **params)


def engine_in(lang: str) -> play.Engine:
    """An engine call whose refusal is worded in ``lang`` (``play``'s ``engine=``)."""

    def call(game: StoredMatch, action: Callable[[], Any]) -> Any:
        try:
            return action()
        except DomainError as error:
            raise localised(error, lang, game) from None

    return call


def bold(name: str) -> str:
    """``name``, already safe text (``shown``), in bold."""
    return f"**{name}**"


def digit_name(key: str, lang: str) -> str:
    return BY_KEY[key].name(lang)


def piece_text(key: str, level: int, lang: str) -> str:
    return t("digits.piece", lang, digit=digit_name(key, lang), level=level)


def stage_text(game: StoredMatch, player: str, lang: str) -> str:
    match = game.match
    stage = match.stage(player)
    if stage == "focus":
        done = len(game.focus.get(player, {}).get("answers", []))
        if done:
            return t("digits.stage.focus_progress", lang, done=done, size=ROUND_SIZE)
        return t("digits.stage.focus", lang)
    score = match.focus.get(player, 0)
    if stage == "shop":
        return t("digits.stage.shop", lang, score=score, size=FOCUS_MAX)
    if stage == "ready":
        return t("digits.stage.ready", lang, score=score, size=FOCUS_MAX)
    return t("digits.stage.over", lang)


def variant_text(settings: MatchSettings, lang: str) -> str:
    return t("digits.variant.draft" if settings.draft else "digits.variant.shops", lang)


def draft_text(game: StoredMatch, lang: str) -> str:
    match, draft = game.match, game.match.draft
    if draft is None:
        return ""
    cells = []
    for slot, key in enumerate(draft.row, 1):
        if key is None:
            cells.append(t("digits.draft.taken", lang, slot=slot))
        else:
            kind = BY_KEY[key]
            cells.append(t("digits.draft.offer", lang, slot=slot, digit=kind.name(lang),
                           cost=match.settings.cost(kind)))
    picker = match.picker()
    if picker is None:
        turn = t("digits.draft.done", lang)
    else:
        left = ", ".join(f"{shown(game, p, lang)} {match.picks_left(p)}" for p in match.players)
        turn = t("digits.draft.next", lang, name=bold(shown(game, picker, lang)), left=left)
    return "\n".join([" · ".join(cells), turn])


def match_embed(game: StoredMatch, lang: str) -> discord.Embed:
    match = game.match
    left, right = match.sides
    embed = discord.Embed(
        title=t("digits.match.title", lang, left=shown(game, left, lang),
                right=shown(game, right, lang)),
        description=t("digits.match.round", lang, round=match.round,
                      rounds=match.settings.rounds, variant=variant_text(match.settings, lang)),
        colour=COLOUR)
    for side in match.sides:
        value = (t("digits.ghost.waiting", lang) if side == GHOST
                 else stage_text(game, side, lang))
        embed.add_field(name=t("digits.match.side", lang, name=shown(game, side, lang),
                               lives=match.lives[side]), value=value, inline=True)
    add_level_field(embed, game, lang)
    if match.draft is not None:
        embed.add_field(name=t("digits.draft.title", lang), value=draft_text(game, lang),
                        inline=False)
    embed.set_footer(text=t("digits.match.footer_draft" if match.settings.draft
                            else "digits.match.footer", lang))
    return embed


def match_view(game: StoredMatch, lang: str) -> ui.View:
    """The match message's persistent buttons; their version is the round."""
    view = ui.View(timeout=None)
    match = game.match
    view.add_item(TakeFocus(game.id, match.round, label=t("digits.button.focus", lang),
                            style=discord.ButtonStyle.primary, row=0))
    view.add_item(OpenShop(game.id, match.round, label=t("digits.button.shop", lang),
                           style=discord.ButtonStyle.secondary, row=0))
    draft = match.draft
    if draft is not None and match.picker() is not None:
        for slot, key in enumerate(draft.row, 1):
            if key is None:
                label = t("digits.draft.taken_button", lang, slot=slot)
            else:
                kind = BY_KEY[key]
                label = t("digits.draft.pick_button", lang, slot=slot, digit=kind.name(lang),
                          cost=match.settings.cost(kind))
            view.add_item(DraftPick(game.id, match.round, str(slot), label=label,
                                    style=discord.ButtonStyle.success, disabled=key is None,
                                    row=1 + (slot - 1) // ROW))
        view.add_item(DraftPass(game.id, match.round, label=t("digits.draft.pass", lang),
                                style=discord.ButtonStyle.secondary,
                                row=min(4, 1 + len(draft.row) // ROW)))
    return view


def battle_text(game: StoredMatch, record: RoundRecord, lang: str) -> str:
    match = game.match
    names = {side: bold(shown(game, side, lang, record)) for side in (record.left, record.right)}
    exchanges = int(record.battle["exchanges"])
    if record.winner is None:
        line = t("digits.battle.draw", lang, round=record.round,
                 exchanges=t("digits.exchanges", lang, count=exchanges))
    else:
        loser = record.right if record.winner == record.left else record.left
        key = "digits.battle.won_empty" if exchanges == 0 else "digits.battle.won"
        line = t(key, lang, round=record.round, winner=names[record.winner],
                 loser=names[loser], exchanges=t("digits.exchanges", lang, count=exchanges),
                 lives=t("digits.lives", lang, count=record.lives_lost))
    lives = " · ".join(f"{names[s]} {record.lives[s]}" for s in (record.left, record.right))
    lines = [line, t("digits.battle.lives", lang, lives=lives)]
    if match.over:
        if match.winner == "draw":
            lines.append(t("digits.end.draw", lang))
        else:
            assert match.winner is not None
            lines.append(t("digits.end.won", lang,
                           name=bold(shown(game, match.winner, lang, record))))
        if game.ratings:
            changes = " · ".join(
                t("digits.end.rating", lang, name=shown(game, str(user), lang),
                  before=round(change.before.rating), after=round(change.after.rating))
                for user, change in game.ratings.items())
            lines.append(t("digits.end.ratings", lang, changes=changes))
    else:
        lines.append(t("digits.battle.next", lang, round=match.round))
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# The shop turn (ephemeral)


def shop_text(game: StoredMatch, player: str, lang: str, note: str | None = None) -> str:
    match = game.match
    shop = match.shop(player)
    lines = [note] if note else []
    lines.append(t("digits.shop.header", lang, round=match.round, gold=shop.gold,
                   lives=match.lives[player], score=match.focus.get(player, 0), size=FOCUS_MAX))
    stage = match.stage(player)
    if stage == "ready":
        waiting = [p for p in match.players if match.stage(p) != "ready"]
        if waiting:
            lines.append(t("digits.shop.waiting", lang, name=shown(game, waiting[0], lang)))
        else:
            lines.append(t("digits.shop.ready", lang))
    elif stage == "shop":
        if match.settings.draft:
            lines.append(t("digits.shop.help_draft", lang))
        else:
            lines.append(t("digits.shop.help", lang))
            full = shop_ui.full_note(shop, lang)
            if full:
                lines.append(full)
    return "\n".join(lines)


async def shop_files(game: StoredMatch, player: str, lang: str) -> list[discord.File]:
    match = game.match
    shop = match.shop(player)
    picture: dict[str, Any] = {
        "offers": [o.to_json() if o else None for o in shop.offers], "gold": shop.gold,
        "round": match.round, "lives": match.lives[player], "slate": shop.slate.to_json(),
        "lang": lang}
    title = t("digits.shop.slate_title", lang, name=side_name(game, player, lang))
    with_shop = not match.settings.draft

    def render() -> list[tuple[str, bytes]]:
        words = image_words(lang)
        files = [("shop.png", images.render_shop(picture, words))] if with_shop else []
        files.append(("slate.png", images.render_slate(picture["slate"], words, title=title)))
        return files

    whose = side_name(game, player, lang)
    said = {"shop.png": alt_text.shop(whose, match.round, shop.gold, match.lives[player],
                                      picture["offers"], lang),
            "slate.png": alt_text.slate(whose, match.round, shop.gold, picture["slate"], lang)}
    return [discord.File(io.BytesIO(data), filename=name, description=said[name])
            for name, data in await asyncio.to_thread(render)]


async def shop_message(game: StoredMatch, player: str, lang: str, note: str | None = None
                       ) -> dict[str, Any]:
    """What an ephemeral shop message shows: text, pictures and (during the turn) the controls."""
    view: ui.View | None = None
    if game.match.stage(player) == "shop":
        view = ShopView(game, player, lang)
    return {"content": shop_text(game, player, lang, note),
            "files": await shop_files(game, player, lang), "view": view}


# The live shop windows of each bot (a restarted bot has none: their clicks say "expired").
SHOP_WINDOWS: Key[Windows[ShopView]] = Key("digits.shop",
                                           lambda: Windows(EPHEMERAL_TIMEOUT))


def shop_windows(client: discord.Client) -> Windows[ShopView]:
    return services_of_client(client).kept.get(SHOP_WINDOWS)


class DigitsFlows(Protocol):
    """What the match's buttons and the shop windows call: The 20 Digits' conductor
    (``bot.flows.digits.DigitsFlow``, which registers itself under ``DIGITS_FLOWS``)."""

    async def accept(self, interaction: discord.Interaction, match_id: int,
                     version: int) -> None: ...
    async def decline(self, interaction: discord.Interaction, match_id: int) -> None: ...
    async def cancel(self, interaction: discord.Interaction, match_id: int) -> None: ...
    async def take_focus(self, interaction: discord.Interaction, match_id: int,
                         clicked_round: int) -> None: ...
    async def open_shop(self, interaction: discord.Interaction, match_id: int,
                        clicked_round: int) -> None: ...
    async def draft_turn(self, interaction: discord.Interaction, match_id: int,
                         clicked_round: int, slot: int | None) -> None: ...
    async def shop_move(self, interaction: discord.Interaction, window: ShopView,
                        move: play.ShopMove) -> None: ...
    async def ready(self, interaction: discord.Interaction, window: ShopView) -> None: ...
    async def shop_odds(self, interaction: discord.Interaction, window: ShopView) -> None: ...
    async def say_expired(self, interaction: discord.Interaction) -> None: ...
    async def odds_details(self, interaction: discord.Interaction, match_id: int,
                           clicked_round: int, player: str) -> None: ...
    async def odds_show(self, interaction: discord.Interaction, match_id: int,
                        clicked_round: int, player: str) -> None: ...
    async def rematch(self, interaction: discord.Interaction, match_id: int) -> None: ...
    async def next_level(self, interaction: discord.Interaction, match_id: int) -> None: ...


#: Where the services keep The 20 Digits' flows (put there by the flow).
DIGITS_FLOWS: Key[DigitsFlows] = Key("digits.flows")


def flows(interaction: discord.Interaction) -> DigitsFlows:
    return services_of(interaction).kept.get(DIGITS_FLOWS)


class ShopControl(ui.DynamicItem[ui.Item[Any]],
                  template=re.escape(SHOP_PREFIX) + r"(?P<control>.+)"):
    """A button or menu of a shop window (``digits:buy:1``, ``digits:sell``, …). Every click on
    one reaches this class (see ``bot.views.Windows``): it acts through the window the message
    shows if that window is live, and says the window expired otherwise (15 minutes went by, or
    the bot restarted since)."""

    def __init__(self, item: ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: re.Match[str], /) -> Self:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        # discord.py only logs what a DynamicItem raises: the member reads it here instead.
        try:
            message = interaction.message
            window = shop_windows(interaction.client).get(
                None if message is None else message.id)
            if window is None:
                await flows(interaction).say_expired(interaction)
                return
            values = list(self.item.values) if isinstance(self.item, ui.Select) else []
            await window.act(interaction, self.custom_id, values)
        except Exception as error:
            await report_error(interaction, error)


class ShopView(ArdoiseView):
    """One player's shop turn; every control acts through the engine, at the player's step.

    Its controls are ``ShopControl``s; the flow files the window under the message showing it
    (``shop_windows``), where they find it. Each control reads what it sent into a
    ``play.ShopMove`` (or asks for Ready, the odds) and hands it to the flow."""

    def __init__(self, game: StoredMatch, player: str, lang: str) -> None:
        super().__init__(players=[int(player)], timeout=None)
        self.handlers: dict[str, Callable[[discord.Interaction, list[str]], Awaitable[None]]] = {}
        self.match_id = game.id
        self.player = player
        self.step = game.steps.get(player, 0)
        self.lang = lang
        match = game.match
        shop = match.shop(player)
        draft = match.settings.draft
        if not draft:
            for slot, offer in enumerate(shop.offers[:ROW], 1):
                if offer is None:
                    label = t("digits.shop.sold_out", lang, slot=slot)
                else:
                    kind = BY_KEY[offer.key]
                    label = t("digits.shop.buy", lang, slot=slot, digit=kind.name(lang),
                              cost=match.settings.cost(kind))
                    if offer.frozen:
                        label = t("digits.shop.frozen_mark", lang, label=label)
                # Marked when it merges; on a full slate, the others say why they are disabled.
                state = shop_ui.offer_state(shop, slot, label, lang)
                self._button(state.label, f"digits:buy:{slot}", 0, self._buy(slot),
                             style=discord.ButtonStyle.success, disabled=state.disabled)
            freeze = [discord.SelectOption(
                label=t("digits.shop.unfreeze" if offer.frozen else "digits.shop.freeze", lang,
                        slot=slot, digit=digit_name(offer.key, lang)), value=str(slot))
                for slot, offer in enumerate(shop.offers, 1) if offer is not None]
            if freeze:
                self._select(t("digits.shop.freeze_menu", lang), "digits:freeze", 1, freeze,
                             self._freeze, 1)
        sell = [discord.SelectOption(
            label=t("digits.shop.sell", lang, cell=cell,
                    digit=piece_text(piece.key, piece.level, lang),
                    gold=match.settings.sell_per_level * piece.level), value=str(cell))
            for cell, piece in shop.slate.items()]
        if sell:
            self._select(t("digits.shop.sell_menu", lang), "digits:sell", 2, sell, self._sell, 1)
        if len(shop.slate):
            cells = []
            for cell in range(1, 9):
                piece = shop.slate[cell]
                what = (piece_text(piece.key, piece.level, lang) if piece
                        else t("digits.shop.empty", lang))
                row = t("digits.shop.front" if cell <= 4 else "digits.shop.back", lang)
                cells.append(discord.SelectOption(
                    label=t("digits.shop.cell", lang, cell=cell, row=row, what=what),
                    value=str(cell),
                    description=shop_ui.cell_description(piece, lang) if piece else None))
            self._select(t("digits.shop.cells_menu", lang), "digits:cells", 3, cells,
                         self._cells, 2)
        if not draft:
            self._button(t("digits.shop.reroll", lang, cost=match.settings.reroll_cost),
                         "digits:reroll", 4, self._reroll)
        self._button(t("digits.odds.button", lang), "digits:odds", 4, self._odds)
        self._button(t("digits.shop.ready_button", lang), "digits:ready", 4, self._ready,
                     style=discord.ButtonStyle.primary)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        await super().interaction_check(interaction)
        hit(interaction, "shop")  # every control redraws the shop's pictures
        return True

    async def act(self, interaction: discord.Interaction, custom_id: str, values: list[str]
                  ) -> None:
        """Do what the control ``custom_id`` of this window does (``values``: a menu's)."""
        handler = self.handlers.get(custom_id)
        if handler is None:  # no control of this window: a forged custom id
            raise invalid_component("control")
        if await self.interaction_check(interaction):
            await handler(interaction, values)

    def _button(self, label: str, custom_id: str, row: int,
                callback: Callable[[discord.Interaction], Awaitable[None]], *,
                style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                disabled: bool = False) -> None:
        button: ui.Button[ShopView] = ui.Button(label=label[:80], custom_id=custom_id, row=row,
                                                style=style, disabled=disabled)

        async def clicked(interaction: discord.Interaction, values: list[str]) -> None:
            await callback(interaction)

        self.handlers[custom_id] = clicked
        self.add_item(ShopControl(button))

    def _select(self, placeholder: str, custom_id: str, row: int,
                options: list[discord.SelectOption],
                callback: Callable[[discord.Interaction, list[str]], Awaitable[None]],
                count: int) -> None:
        for option in options:
            option.label = option.label[:100]
        select: ui.Select[ShopView] = ui.Select(placeholder=placeholder[:150],
                                                custom_id=custom_id, row=row, options=options,
                                                min_values=count, max_values=count)
        self.handlers[custom_id] = callback
        self.add_item(ShopControl(select))

    async def _move(self, interaction: discord.Interaction, move: play.ShopMove) -> None:
        await flows(interaction).shop_move(interaction, self, move)

    def _buy(self, slot: int) -> Callable[[discord.Interaction], Awaitable[None]]:
        async def buy(interaction: discord.Interaction) -> None:
            await self._move(interaction, play.ShopMove("buy", slot=slot))
        return buy

    async def _reroll(self, interaction: discord.Interaction) -> None:
        await self._move(interaction, play.ShopMove("reroll"))

    async def _freeze(self, interaction: discord.Interaction, values: list[str]) -> None:
        # Values are read like typed text (a modified client sends anything); the engine then
        # refuses a slot it has no offer in.
        [slot] = component_ints(values, 1, 1, MAX_SLOT, "slot")
        await self._move(interaction, play.ShopMove("freeze", slot=slot))

    async def _sell(self, interaction: discord.Interaction, values: list[str]) -> None:
        [cell] = component_ints(values, 1, CELLS.start, CELLS.stop - 1, "cell")
        await self._move(interaction, play.ShopMove("sell", cells=(cell,)))

    async def _cells(self, interaction: discord.Interaction, values: list[str]) -> None:
        a, b = sorted(component_ints(values, 2, CELLS.start, CELLS.stop - 1, "cell"))
        await self._move(interaction, play.ShopMove("arrange", cells=(a, b)))

    async def _ready(self, interaction: discord.Interaction) -> None:
        await flows(interaction).ready(interaction, self)

    async def _odds(self, interaction: discord.Interaction) -> None:
        await flows(interaction).shop_odds(interaction, self)


def replay_of(record: RoundRecord) -> dict[str, Any]:
    """The battle as the replay draws it: the stored result and what each opening effect did
    (worked out again from the slates fielded, so that older rounds say it too)."""
    left, right = record.slates[record.left], record.slates[record.right]
    effects = opening_effects(left, right, record.focus.get(record.left, 0),
                              record.focus.get(record.right, 0))
    return {**record.battle, "effects": effects}


async def battle_message(game: StoredMatch, record: RoundRecord, lang: str) -> dict[str, Any]:
    """The round's battle as the channel reads it: the summary, the replay (a GIF, drawn in a
    thread) with its alt text, and unless the match is over the next round's embed and
    buttons."""
    names = (side_name(game, record.left, lang, record),
             side_name(game, record.right, lang, record))
    lives = (record.lives[record.left], record.lives[record.right])
    gif = await asyncio.to_thread(images.render_replay, replay_of(record),
                                  image_words(lang), names)
    message: dict[str, Any] = {
        "content": battle_text(game, record, lang),
        "file": discord.File(io.BytesIO(gif), filename="battle.gif",
                             description=alt_text.battle(record.round, names, record.battle,
                                                         lives, lang))}
    if not game.match.over:
        message.update(embed=match_embed(game, lang), view=match_view(game, lang))
    return message


def played_embed(game: StoredMatch, record: RoundRecord, lang: str) -> discord.Embed:
    """What the previous match message becomes once its round is played (no buttons)."""
    left, right = record.left, record.right
    return discord.Embed(
        title=t("digits.match.title", lang, left=shown(game, left, lang, record),
                right=shown(game, right, lang, record)),
        description=t("digits.match.played", lang, round=record.round), colour=COLOUR)


# --------------------------------------------------------------------------------------------
# The odds of the round's battle (/digits odds, the shop window's "Odds" button)


def odds_name(game: StoredMatch, player: str, lang: str) -> str:
    """Whom the forecast assumes to shop, as safe bold text: the challenger, or the shadow."""
    if game.match.solo:
        return t("digits_odds.shadow", lang)
    return bold(shown(game, game.match.opponent(player), lang))


# --------------------------------------------------------------------------------------------
# The Focus of a round (bot.ui.focus_run runs it; the match keeps its progress)


def focus_key(match_id: int, round_: int, player: str) -> str:
    """The name of a player's Focus of a round among the open Focus runs."""
    return f"digits:{match_id}:{round_}:{player}"


def focus_title(round_: int, lang: str) -> str:
    return t("digits.focus.title", lang, round=round_)


def focus_note(game: StoredMatch, player: str, focus: FocusRound, lang: str) -> str:
    """The shop's first line once the round's Focus is in: its score, the gold it brought."""
    shop = game.match.shop(player)
    note = t("digits.focus.done", lang, score=focus.score, size=ROUND_SIZE,
             income=game.match.settings.income(focus.score), gold=shop.gold)
    if reads_focus(shop.slate):
        # Said only to a player with an Abacus: it means nothing to the others.
        note += " " + t("digits.focus.abacus", lang)
    return note


# --------------------------------------------------------------------------------------------
# The persistent buttons of the public messages


def check_public(game: StoredMatch, clicked_round: int, message: discord.Message | None) -> None:
    """Refuse a button of an earlier round's message, unless it is still the current one."""
    if clicked_round == game.match.round:
        return
    if message is not None and message.id == game.row.message_id:
        return
    ensure_version(clicked_round, game.match.round)


def challenge_view(game_id: int, version: int, lang: str) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(AcceptChallenge(game_id, version, label=t("digits.challenge.accept", lang),
                                  style=discord.ButtonStyle.success))
    view.add_item(DeclineChallenge(game_id, version, label=t("digits.challenge.decline", lang),
                                   style=discord.ButtonStyle.danger))
    view.add_item(CancelChallenge(game_id, version, label=t("digits.challenge.cancel", lang),
                                  style=discord.ButtonStyle.secondary))
    return view


def challenge_text(game: StoredMatch, key: str, lang: str) -> str:
    """The challenge message once answered (``key``: accepted, declined, cancelled)."""
    challenger, challenged = game.match.players
    return t(key, lang, challenger=bold(shown(game, challenger, lang)),
             challenged=bold(shown(game, challenged, lang)))


class AcceptChallenge(GameButton, action="digits.accept"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await flows(interaction).accept(interaction, int(self.game_id), self.version)


class DeclineChallenge(GameButton, action="digits.decline"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await flows(interaction).decline(interaction, int(self.game_id))


class CancelChallenge(GameButton, action="digits.cancel"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await flows(interaction).cancel(interaction, int(self.game_id))


class TakeFocus(GameButton, action="digits.focus"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await flows(interaction).take_focus(interaction, int(self.game_id), self.version)


class OpenShop(GameButton, action="digits.shop"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await flows(interaction).open_shop(interaction, int(self.game_id), self.version)


class DraftPick(GameButton, action="digits.pick"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await flows(interaction).draft_turn(interaction, int(self.game_id), self.version,
                                            self.arg_int(1, MAX_SLOT, "slot"))


class DraftPass(GameButton, action="digits.pass"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await flows(interaction).draft_turn(interaction, int(self.game_id), self.version, None)


#: The public messages' buttons and the shop windows' controls (the cog registers them).
PERSISTENT_ITEMS = (AcceptChallenge, DeclineChallenge, CancelChallenge, TakeFocus, OpenShop,
                    DraftPick, DraftPass, ShopControl, focus_ui.RoundButton)
