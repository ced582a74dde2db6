"""The 20 Digits on Discord: the match message, the challenge, the shop windows, the replays.

The use cases are ``bot.play.digits`` (this module reads and saves only through them); the
commands are ``cogs/digits.py``.

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
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Self, TypeVar

import discord
from discord import ui

import images
from bot import replies
from bot.digits.battle import opening_effects
from bot.digits.catalogue import BY_KEY
from bot.digits.match import GHOST, RoundRecord
from bot.digits.odds import reads_focus
from bot.digits.shop import FOCUS_MAX, MatchSettings
from bot.digits.slate import CELLS
from bot.domain import DomainError
from bot.focus import ROUND_SIZE, Answer, FocusRound
from bot.i18n import image_words, lang_for, t
from bot.limits import hit
from bot.play import digits as play
from bot.play import students
from bot.play.digits import StoredMatch
from bot.play.focus import stored_round
from bot.replies import shown_name
from bot.services import Key, ServicedBot, bot_of, services_of, services_of_client
from bot.tree import report_error
from bot.ui import alt_text
from bot.ui import digits_shop as shop_ui
from bot.ui import focus_run as focus_ui
from bot.ui.digits_levels import add_level_field
from bot.ui.digits_odds import odds_text
from bot.ui.focus_run import FocusRun
from bot.views import (
    ArdoiseView,
    GameButton,
    Windows,
    component_ints,
    ensure_player,
    ensure_version,
    invalid_component,
)

if TYPE_CHECKING:
    from bot.digits.slate import Piece

log = logging.getLogger(__name__)

T = TypeVar("T")

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
#: Seconds the odds may take before the answer is deferred (Discord waits 3 s for an answer).
ODDS_DEFER_AFTER = 1.0


def client(interaction: discord.Interaction) -> ServicedBot:
    return bot_of(interaction.client)


def player_of(game: StoredMatch, interaction: discord.Interaction) -> str:
    """The clicking member as a player of this match (anyone else is refused)."""
    ensure_player(interaction, game.members)
    return str(interaction.user.id)


async def public_lang(bot: ServicedBot, game: StoredMatch) -> str:
    """The language of the match's public messages: the server's, else the challenger's."""
    return (await bot.services.languages.of_guild(game.row.guild_id)) or game.lang


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
    """The engine's refusal with digit names (and players) in the member's language."""
    params = dict(error.params)
    for key in ("digit", "other"):
        value = params.get(key)
        if isinstance(value, str) and value in BY_KEY:
            params[key] = BY_KEY[value].name(lang)
    if game is not None and isinstance(params.get("picker"), str):
        params["picker"] = shown(game, params["picker"], lang)
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


async def say_expired(interaction: discord.Interaction) -> None:
    lang = await lang_for(interaction)
    await replies.respond(interaction, t("digits.shop.expired", lang), ephemeral=True)


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
                await say_expired(interaction)
                return
            values = list(self.item.values) if isinstance(self.item, ui.Select) else []
            await window.act(interaction, self.custom_id, values)
        except Exception as error:
            await report_error(interaction, error)


class ShopView(ArdoiseView):
    """One player's shop turn; every control acts through the engine, at the player's step.

    Its controls are ``ShopControl``s; ``reply`` files the window under the message showing it
    (``shop_windows``), where they find it."""

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

    async def _act(self, interaction: discord.Interaction, action: Callable[[StoredMatch], T],
                   said: Callable[[StoredMatch, T], str]) -> None:
        """Apply one shop action at this message's step (``play.shop_action``), then show the
        shop again with what it did, ``said`` in the member's language."""
        game, done = await play.shop_action(
            services_of(interaction).db, self.match_id, self.player, self.step, action,
            engine=engine_in(self.lang), before_save=lambda: defer_update(interaction))
        await reply(interaction, False,
                    **await shop_message(game, self.player, self.lang, said(game, done)))

    def _buy(self, slot: int) -> Callable[[discord.Interaction], Awaitable[None]]:
        async def buy(interaction: discord.Interaction) -> None:
            await self._act(
                interaction, lambda game: play.buy(game, self.player, slot),
                lambda game, placed: shop_ui.placed_text(placed, self.lang,
                                                         game.match.shop(self.player).slate))
        return buy

    async def _reroll(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, lambda game: game.match.reroll(self.player),
                        lambda _game, _done: t("digits.shop.rerolled", self.lang))

    async def _freeze(self, interaction: discord.Interaction, values: list[str]) -> None:
        # Values are read like typed text (a modified client sends anything); the engine then
        # refuses a slot it has no offer in.
        [slot] = component_ints(values, 1, 1, MAX_SLOT, "slot")

        def said(_game: StoredMatch, done: play.Frozen) -> str:
            return t("digits.shop.frozen" if done.frozen else "digits.shop.unfrozen", self.lang,
                     slot=slot, digit=digit_name(done.key, self.lang))

        await self._act(interaction, lambda game: play.toggle_freeze(game, self.player, slot),
                        said)

    async def _sell(self, interaction: discord.Interaction, values: list[str]) -> None:
        [cell] = component_ints(values, 1, CELLS.start, CELLS.stop - 1, "cell")

        def said(_game: StoredMatch, sold: tuple[Piece, int]) -> str:
            piece, gain = sold
            return t("digits.shop.sold", self.lang,
                     digit=piece_text(piece.key, piece.level, self.lang), gold=gain)

        await self._act(interaction, lambda game: play.sell(game, self.player, cell), said)

    async def _cells(self, interaction: discord.Interaction, values: list[str]) -> None:
        a, b = sorted(component_ints(values, 2, CELLS.start, CELLS.stop - 1, "cell"))

        def said(_game: StoredMatch, done: play.Arranged) -> str:
            lang = self.lang
            if done.kind == "swapped" or done.piece is None:
                return t("digits.shop.swapped", lang, a=a, b=b)
            key = "digits.shop.merged" if done.kind == "merged" else "digits.shop.moved"
            return t(key, lang, digit=piece_text(done.piece.key, done.piece.level, lang),
                     cell=done.cell)

        await self._act(interaction, lambda game: play.arrange(game, self.player, a, b), said)

    async def _ready(self, interaction: discord.Interaction) -> None:
        await end_turn(interaction, self.match_id, self.player, self.step, self.lang)

    async def _odds(self, interaction: discord.Interaction) -> None:
        hit(interaction, "odds")
        # Read only: any window of the turn may ask, the odds are of the slate as it is now.
        game = await play.load_active(services_of(interaction).db, self.match_id)
        if game.match.stage(self.player) != "shop":
            raise DomainError("digits.odds_turn_over", "the odds are for your shop turn")
        await show_odds(interaction, game, self.player, self.lang)


async def defer_update(interaction: discord.Interaction) -> None:
    if not interaction.response.is_done():
        await interaction.response.defer()


async def defer_thinking(interaction: discord.Interaction) -> None:
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def reply(interaction: discord.Interaction, new: bool, **message: Any) -> None:
    """Say ``message`` privately: in a new ephemeral message, or by updating the ephemeral
    message whose component was used. Pictures take a moment to draw: then, or when the
    interaction was deferred already, through a deferral."""
    files = message.pop("files", [])
    slow = bool(files) or interaction.response.is_done()
    view = message.get("view")
    windows = shop_windows(interaction.client)
    if new:
        if view is None:
            message.pop("view", None)  # a new message takes a view or nothing, not None
        if slow:
            await defer_thinking(interaction)
            sent = await replies.followup(interaction, ephemeral=True, files=files, wait=True,
                                          **message)
            shown_id: int | None = sent.id
        else:
            shown_id = (await replies.respond(interaction, ephemeral=True, **message)).message_id
        if isinstance(view, ShopView) and shown_id is not None:
            windows.show(shown_id, view)
        return
    # The component's own message: its window changes before the edit is sent.
    here = None if interaction.message is None else interaction.message.id
    if isinstance(view, ShopView) and here is not None:
        windows.show(here, view)
    else:
        windows.forget(here)
    if slow:
        await defer_update(interaction)
        await replies.edit_original(interaction, attachments=files, **message)
    else:
        await replies.update(interaction, attachments=[], **message)


async def end_turn(interaction: discord.Interaction, match_id: int, player: str, step: int,
                   lang: str) -> None:
    """"Ready": the player's turn ends; with every side ready, the battle is fought, saved and
    posted."""
    bot = client(interaction)
    game, record = await play.end_turn(services_of(interaction).db, match_id, player, step,
                                       engine=engine_in(lang),
                                       before_save=lambda: defer_update(interaction))
    if record is None:
        await replies.edit_original(interaction, content=shop_text(game, player, lang),
                                    view=None)
        await refresh_public(bot, match_id)
        return
    await replies.edit_original(interaction, content=t("digits.shop.battle_posted", lang),
                                view=None)
    await announce_battle(bot, game, record)


async def channel_of(bot: ServicedBot, channel_id: int | None) -> discord.abc.Messageable | None:
    if channel_id is None:
        return None
    channel = bot.get_channel(channel_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(channel_id)
        except discord.HTTPException:
            log.warning("channel %s of a match is gone", channel_id)
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None


async def refresh_public(bot: ServicedBot, match_id: int) -> None:
    """Show the latest stages on the match message (best effort: the state is saved already)."""
    game = await play.load_game(bot.services.db, match_id)
    if game.row.status != "active" or game.row.message_id is None:
        return
    channel = await channel_of(bot, game.row.channel_id)
    if channel is None or not hasattr(channel, "get_partial_message"):
        return
    lang = await public_lang(bot, game)
    try:
        await replies.edit(channel.get_partial_message(game.row.message_id),
                           embed=match_embed(game, lang), view=match_view(game, lang))
    except discord.HTTPException as error:
        log.warning("could not update the message of match %s: %s", match_id, error)


def replay_of(record: RoundRecord) -> dict[str, Any]:
    """The battle as the replay draws it: the stored result and what each opening effect did
    (worked out again from the slates fielded, so that older rounds say it too)."""
    left, right = record.slates[record.left], record.slates[record.right]
    effects = opening_effects(left, right, record.focus.get(record.left, 0),
                              record.focus.get(record.right, 0))
    return {**record.battle, "effects": effects}


async def announce_battle(bot: ServicedBot, game: StoredMatch, record: RoundRecord) -> None:
    """Post the round's battle (replay and summary) with the next round's buttons, and retire
    the previous match message's buttons."""
    lang = await public_lang(bot, game)
    names = (side_name(game, record.left, lang, record),
             side_name(game, record.right, lang, record))
    lives = (record.lives[record.left], record.lives[record.right])
    gif = await asyncio.to_thread(images.render_replay, replay_of(record),
                                  image_words(lang), names)
    channel = await channel_of(bot, game.row.channel_id)
    if channel is None:
        return
    previous = game.row.message_id
    over = game.match.over
    kwargs: dict[str, Any] = {}
    if not over:
        kwargs = {"embed": match_embed(game, lang), "view": match_view(game, lang)}
    message = await replies.post(channel, battle_text(game, record, lang),
                                 file=discord.File(io.BytesIO(gif), filename="battle.gif",
                                                   description=alt_text.battle(
                                                       record.round, names, record.battle,
                                                       lives, lang)),
                                 **kwargs)
    if not over:
        await play.set_message(bot.services.db, game.id, message.id)
    if previous is not None and hasattr(channel, "get_partial_message"):
        left, right = record.left, record.right
        played = discord.Embed(
            title=t("digits.match.title", lang, left=shown(game, left, lang, record),
                    right=shown(game, right, lang, record)),
            description=t("digits.match.played", lang, round=record.round), colour=COLOUR)
        try:
            await replies.edit(channel.get_partial_message(previous),
                               embed=played, view=None)
        except discord.HTTPException as error:
            log.warning("could not retire the buttons of match %s: %s", game.id, error)


# --------------------------------------------------------------------------------------------
# The odds of the round's battle (/digits odds, the shop window's "Odds" button)


def odds_name(game: StoredMatch, player: str, lang: str) -> str:
    """Whom the forecast assumes to shop, as safe bold text: the challenger, or the shadow."""
    if game.match.solo:
        return t("digits_odds.shadow", lang)
    return bold(shown(game, game.match.opponent(player), lang))


async def show_odds(interaction: discord.Interaction, game: StoredMatch, player: str,
                    lang: str) -> None:
    """Work out the odds of ``player``'s slate and say them privately (deferring first when
    they take more than ``ODDS_DEFER_AFTER`` seconds)."""
    work = asyncio.ensure_future(play.round_odds(services_of(interaction).db, game, player))
    done, _ = await asyncio.wait({work}, timeout=ODDS_DEFER_AFTER)
    if not done:
        await defer_thinking(interaction)
    found = await work
    text = odds_text(game, player, found.forecast, found.pool, odds_name(game, player, lang),
                     lang)
    if interaction.response.is_done():
        await replies.followup(interaction, text, ephemeral=True)
    else:
        await replies.respond(interaction, text, ephemeral=True)


# --------------------------------------------------------------------------------------------
# The Focus of a round (bot.ui.focus_run runs it; the match keeps its progress)


async def start_focus(interaction: discord.Interaction, game: StoredMatch, player: str) -> None:
    """The round's Focus for ``player``, from where it stands: the one call the match makes.

    ``bot.ui.focus_run`` asks the questions in a new ephemeral message; each answer is saved in the
    match, so that after a restart the Focus goes on at the same question, and stored in
    ``db.focus`` as a "match" answer in the same transaction; the last one submits the score to
    the match (with its answer, again one transaction) and turns the message into the shop
    (``focus_done``)."""
    db = services_of(interaction).db
    lang = await lang_for(interaction)
    match_id, round_ = game.id, game.match.round
    # The student's own levels and extra time (bot.play.students), in the match's server.
    rules = await students.rules_for(db, game.row.guild_id, int(player))

    async def answered(run: FocusRun, answer: Answer) -> None:
        focus = FocusRound(run.round.questions, [*run.round.answers, answer])
        if focus.finished:
            return  # focus_done submits the score and stores the last answer
        await play.focus_answered(db, match_id, player, round_, focus,
                                  focus_ui.stored_answer(run, answer, len(focus.answers) - 1))

    async def done(interaction: discord.Interaction, run: FocusRun) -> None:
        await focus_done(interaction, run, match_id, player, round_)

    await focus_ui.start_focus(
        interaction, game.focus_round(player, rules.settings), lang, on_done=done, kind="match",
        title=t("digits.focus.title", lang, round=round_),
        key=f"digits:{match_id}:{round_}:{player}", on_answer=answered,
        data={"match": match_id, "round": round_}, record=False,
        round_key=play.focus_round_key(match_id, round_), time_factor=rules.time_factor)


async def focus_done(interaction: discord.Interaction, run: FocusRun, match_id: int, player: str,
                     round_: int) -> None:
    """The Focus is in: the score goes to the match (gold, Abacus); the Focus message shows the
    corrections and becomes the shop; the match message shows the new stage."""
    lang = run.lang
    focus = run.round
    last = (focus_ui.stored_answer(run, focus.answers[-1], len(focus.answers) - 1)
            if focus.answers else None)  # the last answer, with the score it completes
    # The message of the last answer is the Focus's own ephemeral one (a Focus finished before
    # it began would answer the match message's button: then a new message).
    message = interaction.message
    new = message is None or not message.flags.ephemeral
    defer = defer_thinking if new else defer_update
    game = await play.submit_focus(services_of(interaction).db, match_id, player, round_, None,
                                   last, engine=engine_in(lang),
                                   before_save=lambda: defer(interaction))
    # What is stored, should another window of this Focus have stored some answers first.
    focus = run.round = stored_round(focus.questions, game.focus_answers)
    shop = game.match.shop(player)
    note = t("digits.focus.done", lang, score=focus.score, size=ROUND_SIZE,
             income=game.match.settings.income(focus.score), gold=shop.gold)
    if reads_focus(shop.slate):
        # Said only to a player with an Abacus: it means nothing to the others.
        note += " " + t("digits.focus.abacus", lang)
    title = t("digits.focus.title", lang, round=round_)
    await reply(interaction, new, embed=focus_ui.summary_embed(focus, lang, title),
                **await shop_message(game, player, lang, note))
    await refresh_public(client(interaction), match_id)


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


async def pending(interaction: discord.Interaction, match_id: int, *, answering: bool
                  ) -> StoredMatch:
    """The pending challenge, if the clicking member may answer it (``answering``: the
    challenged member) or cancel it (the challenger)."""
    game = await play.load_game(services_of(interaction).db, match_id)
    game.still_pending()
    challenger, challenged = game.members
    user = interaction.user.id
    if answering and user == challenger:
        raise DomainError("digits.own_challenge", "wait for the answer, or cancel",
                          name=shown(game, str(challenged), await lang_for(interaction)))
    if not answering and user == challenged:
        raise DomainError("digits.not_your_challenge", "answer it with Accept or Decline")
    ensure_player(interaction, [challenged if answering else challenger])
    return game


class AcceptChallenge(GameButton, action="digits.accept"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        game = await pending(interaction, int(self.game_id), answering=True)
        ensure_version(self.version, game.row.version)
        message_id = interaction.message.id if interaction.message else None
        game = await play.answer_challenge(services_of(interaction).db, game.id, "active",
                                           message_id)
        lang = await public_lang(client(interaction), game)
        challenger, challenged = game.match.players
        await replies.update(
            interaction,
            content=t("digits.challenge.accepted", lang,
                      challenged=bold(shown(game, challenged, lang)),
                      challenger=bold(shown(game, challenger, lang))),
            embed=match_embed(game, lang), view=match_view(game, lang))


async def close_challenge(interaction: discord.Interaction, game: StoredMatch, status: str,
                          key: str) -> None:
    game = await play.answer_challenge(services_of(interaction).db, game.id, status)
    lang = await public_lang(client(interaction), game)
    challenger, challenged = game.match.players
    await replies.update(
        interaction,
        content=t(key, lang, challenger=bold(shown(game, challenger, lang)),
                  challenged=bold(shown(game, challenged, lang))), embed=None, view=None)


class DeclineChallenge(GameButton, action="digits.decline"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        game = await pending(interaction, int(self.game_id), answering=True)
        await close_challenge(interaction, game, "declined", "digits.challenge.declined")


class CancelChallenge(GameButton, action="digits.cancel"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        game = await pending(interaction, int(self.game_id), answering=False)
        await close_challenge(interaction, game, "abandoned", "digits.challenge.cancelled")


class TakeFocus(GameButton, action="digits.focus"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        game = await play.load_active(services_of(interaction).db, int(self.game_id))
        player = player_of(game, interaction)
        check_public(game, self.version, interaction.message)
        if game.match.stage(player) != "focus":
            raise DomainError("match.focus_already", "the Focus of this round is already in",
                              round=game.match.round)
        await start_focus(interaction, game, player)


class OpenShop(GameButton, action="digits.shop"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        hit(interaction, "shop")  # it draws the shop's pictures
        game = await play.load_active(services_of(interaction).db, int(self.game_id))
        player = player_of(game, interaction)
        check_public(game, self.version, interaction.message)
        if game.match.stage(player) == "focus":
            raise DomainError("match.focus_first", "the round's Focus comes before the shop",
                              round=game.match.round)
        lang = await lang_for(interaction)
        await defer_thinking(interaction)  # before drawing the pictures
        await reply(interaction, True, **await shop_message(game, player, lang))


class DraftPick(GameButton, action="digits.pick"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await draft_turn(interaction, self.game_id, self.version,
                         self.arg_int(1, MAX_SLOT, "slot"))


class DraftPass(GameButton, action="digits.pass"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await draft_turn(interaction, self.game_id, self.version, None)


async def draft_turn(interaction: discord.Interaction, game_id: str, clicked_round: int,
                     slot: int | None) -> None:
    """A pick from the shared row (``slot``), or a pass (None), by the member whose turn it is.
    The match message shows the row as it now is; a pick also brings the picker a fresh shop
    window (the slate changed: the windows opened before are out of date)."""
    bot = client(interaction)
    lang = await lang_for(interaction)
    player = str(interaction.user.id)
    engine = engine_in(lang)

    def change(game: StoredMatch) -> str | None:
        player_of(game, interaction)
        check_public(game, clicked_round, interaction.message)
        placed = engine(game, lambda: play.pick(game, player, slot))
        if placed is None:
            return None
        game.bump(player)
        return shop_ui.placed_text(placed, lang, game.match.shop(player).slate)

    game, note = await play.mutate(services_of(interaction).db, int(game_id), change,
                                   before_save=lambda: defer_update(interaction))
    public = await public_lang(bot, game)
    await replies.edit_original(interaction, embed=match_embed(game, public),
                                view=match_view(game, public))
    if note is not None:
        await reply(interaction, True, **await shop_message(game, player, lang, note))


#: The public messages' buttons and the shop windows' controls (the cog registers them).
PERSISTENT_ITEMS = (AcceptChallenge, DeclineChallenge, CancelChallenge, TakeFocus, OpenShop,
                    DraftPick, DraftPass, ShopControl, focus_ui.RoundButton)
