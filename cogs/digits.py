"""``/digits challenge`` and ``/digits solo``: matches of The 20 Digits, played on Discord.

(``/digits card`` and ``/digits rules`` are in ``cogs/_digits_info.py``, a mixin of this cog.)

How a match runs
----------------
- ``/digits challenge <member> [draft]`` stores a *pending* match (``db.digits``) and posts the
  challenge with Accept / Decline (the challenged member) and Cancel (the challenger). Accepted,
  the same message becomes the *match message*: the round, each side's lives and stage, and the
  buttons "Take my Focus" and "Open my shop" (in a draft match, the shared row and its picks too).
- "Take my Focus" runs the round's Focus (6 questions, one modal each, in an ephemeral message);
  the score gives the round's gold and feeds the Abacus digits (``Match.submit_focus``), and the
  shop opens in the same ephemeral message. "Open my shop" opens a fresh one at any time.
- The shop turn: the shop picture and the slate picture, buttons to buy each offer, reroll and get
  ready, and menus to sell, freeze or unfreeze, and move, swap or merge. Every action goes through
  the match engine; a refusal is said in the member's language and changes nothing.
- When both sides are ready the engine fights the battle; the round is saved (the match state, the
  players' Focus answers, each member's slate as a ghost of that round; at the end the result and,
  between two members, the Glicko-2 ratings), then posted in the channel: the replay (GIF), a short
  summary, and, unless the match is over, the next round's match message.
- ``/digits solo`` is the same match against ghosts: the slates other members fielded at that
  round on this server (``db.digits.ghost_pool``), else the match's shadow (a bot player that shops
  alongside the member each round, ``Match.new(..., shadow=SHADOW_PLAYER)``); solo matches saved
  before the shadow meet the engine's built-in slate of the round instead.
- ``/digits odds`` and the shop's "Odds" button: during the member's shop turn, the win, draw and
  loss percentages of their slate as it stands against the round's likely opponents
  (``bot.digits.odds.odds_for_match``, with the same ghost pool as the battle), worked out in a
  thread, privately.

Stored state (``db.digits`` ``state``, opaque to SQL)::

    {"format": STATE_FORMAT, "engine": Match.to_json(), "names": {player: display name},
     "lang": "en" | "fr", "steps": {player: actions so far},
     "focus": {"round": r, "players": {player: FocusRound}}}

``format`` is the version of this layout (``bot.formats``): a state without one (saved before
versions) is upgraded when read, a newer one refused (``state.too_new``); the engine's match and
each FocusRound carry their own.

Players are the members' ids as text. ``lang`` is the public messages' language when the server
has none (the challenger's). ``focus`` keeps the Focus answered so far in the current round, so
that a restart, or a second click on "Take my Focus", goes on with the same question instead of
starting again (the questions come from the match seed, the round and the player).

Versions
--------
- Every change is saved with the match's version (``db.digits.save_match``); when the other
  player saved first, the change is worked out again on the new state (the two shops are
  independent), and after a few collisions the member reads ``errors.db.stale``.
- The buttons of the match message carry the *round* as their version: a click on the message of
  an earlier round is refused (``game.stale``), unless that message is still the match's current
  one (the next round's message was never posted, say the bot stopped right then).
- An ephemeral shop or Focus message carries the player's step: after any later action of that
  player (in another message), its buttons are refused as out of date.

Decisions (written in ``docs/rules/the-20-digits.md``, "On Discord"): a bought digit merges at
once onto an N1 copy of itself on the slate (else it goes to the first empty cell); picking two
cells in the "move" menu swaps them, moves a digit to an empty cell, or merges two equal digits
onto the lower-numbered cell.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random
import re
import secrets
import weakref
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Self, TypeVar

import discord
from discord import app_commands, ui
from discord.ext import commands

import images
from bot import replies
from bot.digits.catalogue import BY_KEY
from bot.digits.ghosts import Ghost
from bot.digits.match import GHOST, Match, RoundRecord, ShadowPlayer
from bot.digits.odds import Odds, ghost_candidates, odds_for_match
from bot.digits.shop import FOCUS_MAX, MatchSettings
from bot.digits.slate import CELLS, Slate, SlateError
from bot.digits.strategy import OddsPlayer
from bot.domain import DomainError
from bot.focus import (
    ROUND_SIZE,
    Answer,
    FocusRound,
    Question,
    generate_questions,
    level_for_match_round,
)
from bot.formats import FORMAT_KEY, upgrade
from bot.i18n import image_words, lang_for, percent, t
from bot.limits import channel_text, hit, limited, over_cap
from bot.replies import pings, shown_name
from bot.tree import report_error
from bot.ui import focus_run as focus_ui
from bot.ui.focus_run import FocusRun
from bot.views import (
    ArdoiseView,
    GameButton,
    Windows,
    component_ints,
    ensure_player,
    ensure_version,
    invalid_component,
    routed_nowhere,
)
from cogs import ArdoiseCog
from cogs._digits_info import DigitsInfo
from db import DigitsMatch, FocusAnswer, RatingChange, StaleVersion

if TYPE_CHECKING:
    from bot.app import Ardoise

log = logging.getLogger(__name__)

T = TypeVar("T")

#: The version of the stored state's layout (the module's docstring). 1: the layout of 2026-12
#: with the field; 0 (no field): the same, written before versions.
STATE_FORMAT = 1

#: The version of a stored ghost's layout (``db.digits.record_ghost``): ``{"format", "slate",
#: "focus", "name"}``. 1: the layout of 2026-12 with the field; 0: the same without it (a bare
#: slate, older still, is read as well).
GHOST_FORMAT = 1

#: Who plays the shadow of a solo match: the stronger shop player, passed to the engine (which
#: imports no player of its own).
SHADOW_PLAYER: ShadowPlayer = OddsPlayer

#: Tries at saving a change when the other player keeps saving first.
SAVE_ATTEMPTS = 4
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


# --------------------------------------------------------------------------------------------
# The match as the bot keeps it


def focus_questions(seed: int | str, round_: int, player: str) -> list[Question]:
    """The Focus questions of ``player`` at ``round_`` of the match with ``seed``: the same
    before and after a restart, different for each player and round."""
    rng = random.Random(f"{seed}/focus/{round_}/{player}")
    return generate_questions(level_for_match_round(round_), ROUND_SIZE, rng)


@dataclass
class StoredMatch:
    """A stored match, read: the row, the engine's match and the bot's own bits."""

    row: DigitsMatch
    match: Match
    names: dict[str, str]
    lang: str
    steps: dict[str, int]
    focus: dict[str, dict[str, Any]]
    # What the next save also writes (not part of the state).
    status: str | None = None
    message_id: int | None = None
    battle: RoundRecord | None = None
    ratings: dict[int, RatingChange] = field(default_factory=dict)
    #: Focus answers stored with the state that holds them: one transaction, or a crash in
    #: between would have the question answered (and stored) again.
    answers: list[FocusAnswer] = field(default_factory=list)

    @classmethod
    def from_row(cls, row: DigitsMatch) -> StoredMatch:
        state = upgrade(row.state, "match state", STATE_FORMAT)
        match = Match.from_json(state["engine"], shadow=SHADOW_PLAYER)
        focus = state.get("focus") or {}
        progress = focus.get("players", {}) if focus.get("round") == match.round else {}
        return cls(row, match, dict(state.get("names", {})), str(state.get("lang", "en")),
                   {k: int(v) for k, v in state.get("steps", {}).items()}, dict(progress))

    def state(self) -> dict[str, Any]:
        return {FORMAT_KEY: STATE_FORMAT, "engine": self.match.to_json(), "names": self.names,
                "lang": self.lang,
                "steps": self.steps, "focus": {"round": self.match.round, "players": self.focus}}

    @property
    def id(self) -> int:
        return self.row.match_id

    @property
    def members(self) -> list[int]:
        return [int(p) for p in self.match.players]

    def player(self, interaction: discord.Interaction) -> str:
        """The clicking member as a player of this match (anyone else is refused)."""
        ensure_player(interaction, self.members)
        return str(interaction.user.id)

    def check_step(self, player: str, step: int) -> None:
        current = self.steps.get(player, 0)
        if step != current:
            raise DomainError("game.stale", "This message is out of date: the game has moved on.",
                              clicked=step, current=current)

    def bump(self, player: str) -> None:
        self.steps[player] = self.steps.get(player, 0) + 1

    def focus_round(self, player: str) -> FocusRound:
        """The player's Focus of this round, as far as it was answered."""
        saved = self.focus.get(player)
        if saved is not None:
            return FocusRound.from_json(saved)
        return FocusRound(focus_questions(self.match.seed, self.match.round, player))

    def player_name(self, player: str, lang: str, *, escape: bool = False) -> str:
        if player in self.names:
            name = self.names[player]
            return shown_name(name) if escape else name
        # A member whose data was deleted is a negative number in the state (db.export).
        return t("digits.former.player", lang) if player.startswith("-") else "?"

    def name(self, side: str, lang: str, record: RoundRecord | None = None, *,
             escape: bool = False) -> str:
        """The side's name as pictures draw it; ``escape`` for the text of a message."""
        if side != GHOST:
            return self.player_name(side, lang, escape=escape)
        ghost = record.ghost if record is not None else None
        if ghost is None:
            return t("digits.ghost.side", lang)
        if ghost.builtin:
            return t("digits.ghost.builtin", lang)
        if ghost.shadow:
            return t("digits.ghost.shadow", lang)
        owner = str(ghost.owner)
        if owner not in self.names and owner.startswith("-"):
            return t("digits.former.ghost", lang)
        return t("digits.ghost.of", lang, name=self.player_name(owner, lang, escape=escape))

    def shown(self, side: str, lang: str, record: RoundRecord | None = None) -> str:
        """``name`` as text of a message: members' names escaped (``bot.replies.shown_name``)."""
        return self.name(side, lang, record, escape=True)


def new_state(match: Match, names: dict[str, str], lang: str) -> dict[str, Any]:
    return {FORMAT_KEY: STATE_FORMAT, "engine": match.to_json(), "names": names, "lang": lang,
            "steps": dict.fromkeys(match.players, 0), "focus": {"round": 1, "players": {}}}


async def load_game(bot: Ardoise, match_id: int) -> StoredMatch:
    assert bot.db is not None
    return StoredMatch.from_row(await bot.db.digits.require_match(match_id))


async def load_active(bot: Ardoise, match_id: int) -> StoredMatch:
    game = await load_game(bot, match_id)
    if game.row.status != "active":
        raise DomainError("digits.not_active", "this match is not being played",
                          status=game.row.status)
    return game


def _scores(match: Match) -> dict[int, float]:
    return {int(p): 0.5 if match.winner == "draw" else float(match.winner == p)
            for p in match.players}


async def store(bot: Ardoise, game: StoredMatch) -> None:
    """Save the game at the version it was read, with everything its change brought: the round's
    ghosts, the end of the match and its ratings. All or nothing."""
    db = bot.db
    assert db is not None
    match, state = game.match, game.state()
    async with db.transaction():
        if match.over and game.battle is not None:
            game.ratings = await db.digits.finish_match(game.id, state, game.row.version,
                                                        _scores(match))
        else:
            status = game.status or game.row.status
            to_act = None
            if status == "active":
                to_act = [int(p) for p in match.players if match.stage(p) in ("focus", "shop")]
            await db.digits.save_match(game.id, state, game.row.version, status=game.status,
                                       round=match.round, to_act=to_act)
            if game.message_id is not None:
                await db.digits.set_message_id(game.id, game.message_id)
        for answer in game.answers:
            await db.focus.record(answer)
        record = game.battle
        if record is not None:
            for player in match.players:
                await db.digits.record_ghost(
                    game.id, int(player), record.round,
                    {FORMAT_KEY: GHOST_FORMAT, "slate": record.slates[player].to_json(),
                     "focus": record.focus[player], "name": game.names.get(player, "?")})


async def mutate(bot: Ardoise, match_id: int, change: Callable[[StoredMatch], T], *,
                 before_save: Callable[[], Awaitable[None]] | None = None,
                 active: bool = True, in_thread: bool = False) -> tuple[StoredMatch, T]:
    """Read the match, apply ``change`` (which raises a ``DomainError`` to refuse: nothing is
    saved), save. When the other player saved in between, do it again on the new state.
    ``in_thread``: ``change`` may take a while (a battle, the shadow's shop turn), so it runs off
    the event loop; it only touches the ``StoredMatch`` just read."""
    for attempt in range(SAVE_ATTEMPTS):
        game = await (load_active(bot, match_id) if active else load_game(bot, match_id))
        result = await asyncio.to_thread(change, game) if in_thread else change(game)
        if before_save is not None:
            await before_save()
        try:
            await store(bot, game)
        except StaleVersion:
            if attempt == SAVE_ATTEMPTS - 1:
                raise
            log.debug("match %s changed while saving; trying again", match_id)
            continue
        return game, result
    raise AssertionError("unreachable")


async def set_message(bot: Ardoise, match_id: int, message_id: int) -> None:
    """Remember the match's current public message (its buttons are the ones that count).
    Bookkeeping: the match's version stays, so no click or change is made stale by it."""
    assert bot.db is not None
    await bot.db.digits.set_message_id(match_id, message_id)


async def public_lang(bot: Ardoise, game: StoredMatch) -> str:
    """The language of the match's public messages: the server's, else the challenger's."""
    return (await bot.languages.of_guild(game.row.guild_id)) or game.lang


def localised(error: DomainError, lang: str, game: StoredMatch | None = None) -> DomainError:
    """The engine's refusal with digit names (and players) in the member's language."""
    params = dict(error.params)
    for key in ("digit", "other"):
        value = params.get(key)
        if isinstance(value, str) and value in BY_KEY:
            params[key] = BY_KEY[value].name(lang)
    if game is not None and isinstance(params.get("picker"), str):
        params["picker"] = game.shown(params["picker"], lang)
    return DomainError(error.code, str(error), **params)


def _engine(game: StoredMatch, lang: str, action: Callable[[], T]) -> T:
    try:
        return action()
    except DomainError as error:
        raise localised(error, lang, game) from None


# --------------------------------------------------------------------------------------------
# Texts


def bold(name: str) -> str:
    """``name``, already safe text (``StoredMatch.shown``), in bold."""
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
        left = ", ".join(f"{game.shown(p, lang)} {match.picks_left(p)}" for p in match.players)
        turn = t("digits.draft.next", lang, name=bold(game.shown(picker, lang)), left=left)
    return "\n".join([" · ".join(cells), turn])


def match_embed(game: StoredMatch, lang: str) -> discord.Embed:
    match = game.match
    left, right = match.sides
    embed = discord.Embed(
        title=t("digits.match.title", lang, left=game.shown(left, lang),
                right=game.shown(right, lang)),
        description=t("digits.match.round", lang, round=match.round,
                      rounds=match.settings.rounds, variant=variant_text(match.settings, lang)),
        colour=COLOUR)
    for side in match.sides:
        value = (t("digits.ghost.waiting", lang) if side == GHOST
                 else stage_text(game, side, lang))
        embed.add_field(name=t("digits.match.side", lang, name=game.shown(side, lang),
                               lives=match.lives[side]), value=value, inline=True)
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
    names = {side: bold(game.shown(side, lang, record)) for side in (record.left, record.right)}
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
            lines.append(t("digits.end.won", lang, name=bold(game.shown(match.winner, lang,
                                                                      record))))
        if game.ratings:
            changes = " · ".join(
                t("digits.end.rating", lang, name=game.shown(str(user), lang),
                  before=round(change.before.rating), after=round(change.after.rating))
                for user, change in game.ratings.items())
            lines.append(t("digits.end.ratings", lang, changes=changes))
    else:
        lines.append(t("digits.battle.next", lang, round=match.round))
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# The shop turn (ephemeral)


def merge_target(slate: Slate, key: str) -> int | None:
    """Where a new level-1 ``key`` goes when it merges: onto an N1 copy of itself."""
    return next((cell for cell, piece in slate.items() if piece.key == key and piece.level == 1),
                None)


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
            lines.append(t("digits.shop.waiting", lang, name=game.shown(waiting[0], lang)))
        else:
            lines.append(t("digits.shop.ready", lang))
    elif stage == "shop":
        if match.settings.draft:
            lines.append(t("digits.shop.help_draft", lang))
        else:
            lines.append(t("digits.shop.help", lang))
    return "\n".join(lines)


async def shop_files(game: StoredMatch, player: str, lang: str) -> list[discord.File]:
    match = game.match
    shop = match.shop(player)
    picture = {"offers": [o.to_json() if o else None for o in shop.offers], "gold": shop.gold,
               "round": match.round, "lives": match.lives[player], "slate": shop.slate.to_json(),
               "lang": lang}
    title = t("digits.shop.slate_title", lang, name=game.name(player, lang))
    with_shop = not match.settings.draft

    def render() -> list[tuple[str, bytes]]:
        words = image_words(lang)
        files = [("shop.png", images.render_shop(picture, words))] if with_shop else []
        files.append(("slate.png", images.render_slate(picture["slate"], words, title=title)))
        return files

    return [discord.File(io.BytesIO(data), filename=name)
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
_shop_windows: weakref.WeakKeyDictionary[Any, Windows[ShopView]] = weakref.WeakKeyDictionary()


def shop_windows(client: Any) -> Windows[ShopView]:
    windows = _shop_windows.get(client)
    if windows is None:
        windows = _shop_windows[client] = Windows(EPHEMERAL_TIMEOUT)
    return windows


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
                lang = await lang_for(interaction)
                await replies.respond(interaction, t("digits.shop.expired", lang), ephemeral=True)
                return
            values = list(self.item.values) if isinstance(self.item, ui.Select) else []
            await window.act(interaction, self.custom_id, values)
        except Exception as error:
            await report_error(interaction, error)


class ShopView(ArdoiseView):
    """One player's shop turn; every control acts through the engine, at the player's step.

    Its controls are ``ShopControl``s; ``_reply`` files the window under the message showing it
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
                self._button(label, f"digits:buy:{slot}", 0, self._buy(slot),
                             style=discord.ButtonStyle.success, disabled=offer is None)
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
                    value=str(cell)))
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

    async def _act(self, interaction: discord.Interaction, action: Callable[[StoredMatch], str]
                   ) -> None:
        """Apply one shop action at this message's step, save, and show the shop again."""
        bot: Ardoise = interaction.client  # type: ignore[assignment]

        def change(game: StoredMatch) -> str:
            game.check_step(self.player, self.step)
            note = _engine(game, self.lang, lambda: action(game))
            game.bump(self.player)
            return note

        game, note = await mutate(bot, self.match_id, change,
                                  before_save=lambda: _defer_update(interaction))
        await _reply(interaction, False, **await shop_message(game, self.player, self.lang, note))

    def _buy(self, slot: int) -> Callable[[discord.Interaction], Awaitable[None]]:
        async def buy(interaction: discord.Interaction) -> None:
            def action(game: StoredMatch) -> str:
                match, lang = game.match, self.lang
                shop = match.shop(self.player)
                offer = shop.offers[slot - 1] if 0 < slot <= len(shop.offers) else None
                onto = merge_target(shop.slate, offer.key) if offer is not None else None
                cell = match.buy(self.player, slot, onto)
                piece = shop.slate[cell]
                assert piece is not None
                key = "digits.shop.bought_merged" if piece.level > 1 else "digits.shop.bought"
                return t(key, lang, digit=piece_text(piece.key, piece.level, lang), cell=cell)

            await self._act(interaction, action)
        return buy

    async def _reroll(self, interaction: discord.Interaction) -> None:
        def action(game: StoredMatch) -> str:
            game.match.reroll(self.player)
            return t("digits.shop.rerolled", self.lang)

        await self._act(interaction, action)

    async def _freeze(self, interaction: discord.Interaction, values: list[str]) -> None:
        # Values are read like typed text (a modified client sends anything); the engine then
        # refuses a slot it has no offer in.
        [slot] = component_ints(values, 1, 1, MAX_SLOT, "slot")

        def action(game: StoredMatch) -> str:
            match, lang = game.match, self.lang
            offers = match.shop(self.player).offers
            offer = offers[slot - 1] if 0 < slot <= len(offers) else None
            if offer is not None and offer.frozen:
                match.unfreeze(self.player, slot)
                return t("digits.shop.unfrozen", lang, slot=slot,
                         digit=digit_name(offer.key, lang))
            match.freeze(self.player, slot)
            assert offer is not None
            return t("digits.shop.frozen", lang, slot=slot, digit=digit_name(offer.key, lang))

        await self._act(interaction, action)

    async def _sell(self, interaction: discord.Interaction, values: list[str]) -> None:
        [cell] = component_ints(values, 1, CELLS.start, CELLS.stop - 1, "cell")

        def action(game: StoredMatch) -> str:
            piece = game.match.shop(self.player).slate[cell]
            gain = game.match.sell(self.player, cell)
            assert piece is not None
            return t("digits.shop.sold", self.lang, digit=piece_text(piece.key, piece.level,
                                                                     self.lang), gold=gain)

        await self._act(interaction, action)

    async def _cells(self, interaction: discord.Interaction, values: list[str]) -> None:
        a, b = sorted(component_ints(values, 2, CELLS.start, CELLS.stop - 1, "cell"))

        def action(game: StoredMatch) -> str:
            match, lang = game.match, self.lang
            slate = match.shop(self.player).slate
            pa, pb = slate[a], slate[b]
            if pa is not None and pb is not None and pa.key == pb.key and pa.level == pb.level:
                # Two equal digits merge; the lower cell (front row, then left) keeps the result.
                match.merge(self.player, b, a)
                return t("digits.shop.merged", lang, digit=piece_text(pa.key, pa.level + 1, lang),
                         cell=a)
            match.swap(self.player, a, b)
            if pa is None or pb is None:
                moved, to = (pb, a) if pa is None else (pa, b)
                assert moved is not None
                return t("digits.shop.moved", lang, digit=piece_text(moved.key, moved.level, lang),
                         cell=to)
            return t("digits.shop.swapped", lang, a=a, b=b)

        await self._act(interaction, action)

    async def _ready(self, interaction: discord.Interaction) -> None:
        await end_turn(interaction, self.match_id, self.player, self.step, self.lang)

    async def _odds(self, interaction: discord.Interaction) -> None:
        hit(interaction, "odds")
        # Read only: any window of the turn may ask, the odds are of the slate as it is now.
        game = await load_active(_bot(interaction), self.match_id)
        if game.match.stage(self.player) != "shop":
            raise DomainError("digits.odds_turn_over", "the odds are for your shop turn")
        await show_odds(interaction, game, self.player, self.lang)


async def _defer_update(interaction: discord.Interaction) -> None:
    if not interaction.response.is_done():
        await interaction.response.defer()


async def _defer_thinking(interaction: discord.Interaction) -> None:
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def _reply(interaction: discord.Interaction, new: bool, **message: Any) -> None:
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
            await _defer_thinking(interaction)
            sent = await replies.followup(interaction, ephemeral=True, files=files, wait=True,
                                          **message)
            shown: int | None = sent.id
        else:
            shown = (await replies.respond(interaction, ephemeral=True, **message)).message_id
        if isinstance(view, ShopView) and shown is not None:
            windows.show(shown, view)
        return
    # The component's own message: its window changes before the edit is sent.
    here = None if interaction.message is None else interaction.message.id
    if isinstance(view, ShopView) and here is not None:
        windows.show(here, view)
    else:
        windows.forget(here)
    if slow:
        await _defer_update(interaction)
        await replies.edit_original(interaction, attachments=files, **message)
    else:
        await replies.update(interaction, attachments=[], **message)


def engine_ghosts(rows: Iterable[Any]) -> tuple[list[Ghost], dict[str, str]]:
    """The stored ghosts as the engine takes them, and their owners' names. A stored slate the
    engine cannot read (the oldest format, or a newer one than this code's) is left out rather
    than spoil the battle."""
    ghosts: list[Ghost] = []
    names: dict[str, str] = {}
    for row in rows:
        data = row.slate
        try:
            if isinstance(data, dict) and "slate" in data:
                data = upgrade(data, "ghost", GHOST_FORMAT)
                slate = Slate.from_json(data["slate"])
                focus = min(max(int(data.get("focus", 0)), 0), FOCUS_MAX)
            else:
                slate, focus = Slate.from_json(data), 0
        except (SlateError, DomainError, TypeError, ValueError):
            log.warning("ghost of member %s, match %s: unreadable slate", row.user_id,
                        row.match_id)
            continue
        ghosts.append(Ghost(row.round, slate, focus, str(row.user_id)))
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            names[str(row.user_id)] = data["name"]
    return ghosts, names


async def solo_pool(bot: Ardoise, game: StoredMatch, player: str
                    ) -> tuple[list[Ghost], dict[str, str]]:
    """The ghosts a solo match may meet at its round (none for a duel), and their owners'
    names."""
    if not game.match.solo:
        return [], {}
    assert bot.db is not None
    rows = await bot.db.digits.ghost_pool(game.row.guild_id, game.match.round,
                                          exclude_user_id=int(player))
    return engine_ghosts(rows)


async def end_turn(interaction: discord.Interaction, match_id: int, player: str, step: int,
                   lang: str) -> None:
    """"Ready": the player's turn ends; with every side ready, the battle is fought, saved and
    posted."""
    bot: Ardoise = interaction.client  # type: ignore[assignment]
    pool, owners = await solo_pool(bot, await load_active(bot, match_id), player)

    def change(game: StoredMatch) -> RoundRecord | None:
        game.check_step(player, step)
        record = _engine(game, lang, lambda: game.match.end_turn(player, pool))
        game.bump(player)
        if record is not None:
            game.battle = record
            game.focus = {}
            if record.ghost is not None and record.ghost.owner in owners:
                game.names[str(record.ghost.owner)] = owners[str(record.ghost.owner)]
        return record

    # In a thread: the battle, and in a solo match the shadow's shop turn (tens of milliseconds).
    game, record = await mutate(bot, match_id, change,
                                before_save=lambda: _defer_update(interaction), in_thread=True)
    if record is None:
        await replies.edit_original(
            interaction,
            content=shop_text(game, player, lang), view=None)
        await refresh_public(bot, match_id)
        return
    await replies.edit_original(interaction, content=t("digits.shop.battle_posted", lang),
                                view=None)
    await announce_battle(bot, game, record)


async def channel_of(bot: Ardoise, channel_id: int | None) -> discord.abc.Messageable | None:
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


async def refresh_public(bot: Ardoise, match_id: int) -> None:
    """Show the latest stages on the match message (best effort: the state is saved already)."""
    game = await load_game(bot, match_id)
    if game.row.status != "active" or game.row.message_id is None:
        return
    channel = await channel_of(bot, game.row.channel_id)
    if channel is None or not hasattr(channel, "get_partial_message"):
        return
    lang = await public_lang(bot, game)
    try:
        await replies.edit(channel.get_partial_message(game.row.message_id),  # type: ignore[attr-defined]
                           embed=match_embed(game, lang), view=match_view(game, lang))
    except discord.HTTPException as error:
        log.warning("could not update the message of match %s: %s", match_id, error)


async def announce_battle(bot: Ardoise, game: StoredMatch, record: RoundRecord) -> None:
    """Post the round's battle (replay and summary) with the next round's buttons, and retire
    the previous match message's buttons."""
    lang = await public_lang(bot, game)
    names = (game.name(record.left, lang, record), game.name(record.right, lang, record))
    gif = await asyncio.to_thread(images.render_replay, record.battle,
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
                                 file=discord.File(io.BytesIO(gif), filename="battle.gif"),
                                 **kwargs)
    if not over:
        await set_message(bot, game.id, message.id)
    if previous is not None and hasattr(channel, "get_partial_message"):
        left, right = record.left, record.right
        played = discord.Embed(
            title=t("digits.match.title", lang, left=game.shown(left, lang, record),
                    right=game.shown(right, lang, record)),
            description=t("digits.match.played", lang, round=record.round), colour=COLOUR)
        try:
            await replies.edit(channel.get_partial_message(previous),  # type: ignore[attr-defined]
                               embed=played, view=None)
        except discord.HTTPException as error:
            log.warning("could not retire the buttons of match %s: %s", game.id, error)


# --------------------------------------------------------------------------------------------
# The odds of the round's battle (/digits odds, the shop window's "Odds" button)

#: Seconds the odds may take before the answer is deferred (Discord waits 3 s for an answer).
ODDS_DEFER_AFTER = 1.0


def odds_whom(game: StoredMatch, player: str, pool: list[Ghost], lang: str) -> str:
    """Whom the odds are reckoned against, in words: the opponents ``likely_opponents`` gives."""
    match = game.match
    if not match.solo:
        name = bold(game.shown(match.opponent(player), lang))
        if not match.records:
            return t("digits.odds.against_first", lang, name=name)
        return t("digits.odds.against_last", lang, name=name, round=match.records[-1].round)
    ghosts = ghost_candidates(pool, match.round, player)
    if not ghosts[0].builtin:
        return t("digits.odds.against_ghosts", lang, round=match.round,
                 ghosts=t("digits.odds.ghosts", lang, count=len(ghosts)))
    if match.shadow is None:
        return t("digits.odds.against_builtin", lang, round=match.round)
    if not match.records:
        return t("digits.odds.against_shadow_first", lang)
    return t("digits.odds.against_shadow", lang)


def odds_text(game: StoredMatch, player: str, odds: Odds, whom: str, lang: str) -> str:
    win, draw, loss = (int(p) for p in odds.rounded(0))
    return "\n".join([
        t("digits.odds.title", lang, round=game.match.round, win=percent(win / 100, lang),
          draw=percent(draw / 100, lang), loss=percent(loss / 100, lang)),
        t("digits.odds.detail", lang, whom=whom, battles=odds.battles,
          distinct=t("digits.odds.distinct", lang, count=odds.distinct))])


async def show_odds(interaction: discord.Interaction, game: StoredMatch, player: str,
                    lang: str) -> None:
    """Work out the odds of ``player``'s slate in a thread and say them privately (deferring
    first when they take more than ``ODDS_DEFER_AFTER`` seconds)."""
    pool, _ = await solo_pool(_bot(interaction), game, player)
    work = asyncio.ensure_future(asyncio.to_thread(odds_for_match, game.match, player, pool))
    done, _ = await asyncio.wait({work}, timeout=ODDS_DEFER_AFTER)
    if not done:
        await _defer_thinking(interaction)
    odds = await work
    text = odds_text(game, player, odds, odds_whom(game, player, pool, lang), lang)
    if interaction.response.is_done():
        await replies.followup(interaction, text, ephemeral=True)
    else:
        await replies.respond(interaction, text, ephemeral=True)


async def odds_match(bot: Ardoise, interaction: discord.Interaction) -> StoredMatch:
    """The member's match in this channel that is in their shop turn (the newest, should there
    be more than one); refused when there is none."""
    assert bot.db is not None and interaction.guild_id is not None
    player = str(interaction.user.id)
    waiting = await bot.db.games.waiting_on(interaction.user.id, interaction.guild_id)
    games = [await load_game(bot, w.game_id) for w in waiting
             if w.game == "digits" and w.status == "active"
             and w.channel_id == interaction.channel_id]
    shopping = [g for g in games if g.match.stage(player) == "shop"]
    if shopping:
        return max(shopping, key=lambda g: g.id)
    if games:
        raise DomainError("digits.odds_focus_first", "take this round's Focus first")
    raise DomainError("digits.odds_no_match", "no match of yours is in a shop turn here")


# --------------------------------------------------------------------------------------------
# The Focus of a round (cogs._focus_ui runs it; the match keeps its progress)


async def start_focus(interaction: discord.Interaction, game: StoredMatch, player: str) -> None:
    """The round's Focus for ``player``, from where it stands: the one call the match makes.

    ``cogs._focus_ui`` asks the questions in a new ephemeral message; each answer is saved in the
    match, so that after a restart the Focus goes on at the same question, and stored in
    ``db.focus`` as a "match" answer in the same transaction; the last one submits the score to
    the match (with its answer, again one transaction) and turns the message into the shop
    (``focus_done``)."""
    bot = _bot(interaction)
    lang = await lang_for(interaction)
    match_id, round_ = game.id, game.match.round

    async def answered(run: FocusRun, answer: Answer) -> None:
        focus = FocusRound(run.round.questions, [*run.round.answers, answer])
        if focus.finished:
            return  # focus_done submits the score and stores the last answer

        def change(game: StoredMatch) -> None:
            _focus_open(game, player, round_)
            game.focus[player] = focus.to_json()
            game.answers = [focus_ui.stored_answer(run, answer, len(focus.answers) - 1)]

        await mutate(bot, match_id, change)

    async def done(interaction: discord.Interaction, run: FocusRun) -> None:
        await focus_done(interaction, run, match_id, player, round_)

    await focus_ui.start_focus(
        interaction, game.focus_round(player), lang, on_done=done, kind="match",
        title=t("digits.focus.title", lang, round=round_),
        key=f"digits:{match_id}:{round_}:{player}", on_answer=answered,
        data={"match": match_id, "round": round_}, record=False,
        round_key=f"match:{match_id}:{round_}")


def _focus_open(game: StoredMatch, player: str, round_: int) -> None:
    """Refuse a Focus answer that comes too late: another round, or the Focus already in."""
    if game.match.round != round_ or game.match.stage(player) != "focus":
        raise DomainError("match.focus_already", "the Focus of this round is already in",
                          round=game.match.round)


async def focus_done(interaction: discord.Interaction, run: FocusRun, match_id: int, player: str,
                     round_: int) -> None:
    """The Focus is in: the score goes to the match (gold, Abacus); the Focus message shows the
    corrections and becomes the shop; the match message shows the new stage."""
    bot = _bot(interaction)
    lang = run.lang
    focus = run.round

    def change(game: StoredMatch) -> None:
        _focus_open(game, player, round_)
        _engine(game, lang, lambda: game.match.submit_focus(player, focus.score))
        game.focus.pop(player, None)
        game.bump(player)
        if focus.answers:  # the last answer, with the score it completes
            game.answers = [focus_ui.stored_answer(run, focus.answers[-1],
                                                   len(focus.answers) - 1)]

    # The message of the last answer is the Focus's own ephemeral one (a Focus finished before
    # it began would answer the match message's button: then a new message).
    message = interaction.message
    new = message is None or not message.flags.ephemeral
    defer = _defer_thinking if new else _defer_update
    game, _ = await mutate(bot, match_id, change, before_save=lambda: defer(interaction))
    shop = game.match.shop(player)
    note = t("digits.focus.done", lang, score=focus.score, size=ROUND_SIZE,
             income=game.match.settings.income(focus.score), gold=shop.gold)
    title = t("digits.focus.title", lang, round=round_)
    await _reply(interaction, new, embed=focus_ui.summary_embed(focus, lang, title),
                 **await shop_message(game, player, lang, note))
    await refresh_public(bot, match_id)


# --------------------------------------------------------------------------------------------
# The persistent buttons of the public messages


def _bot(interaction: discord.Interaction) -> Ardoise:
    return interaction.client  # type: ignore[return-value]


def check_public(game: StoredMatch, clicked_round: int, message: discord.Message | None) -> None:
    """Refuse a button of an earlier round's message, unless it is still the current one."""
    if clicked_round == game.match.round:
        return
    if message is not None and message.id == game.row.message_id:
        return
    ensure_version(clicked_round, game.match.round)


class AcceptChallenge(GameButton, action="digits.accept"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        bot = _bot(interaction)
        game = await pending(bot, int(self.game_id), interaction, answering=True)
        ensure_version(self.version, game.row.version)
        message_id = interaction.message.id if interaction.message else None

        def change(game: StoredMatch) -> None:
            _still_pending(game)
            game.status = "active"
            game.message_id = message_id

        game, _ = await mutate(bot, game.id, change, active=False)
        lang = await public_lang(bot, game)
        challenger, challenged = game.match.players
        await replies.update(
            interaction,
            content=t("digits.challenge.accepted", lang,
                      challenged=bold(game.shown(challenged, lang)),
                      challenger=bold(game.shown(challenger, lang))),
            embed=match_embed(game, lang), view=match_view(game, lang))


class DeclineChallenge(GameButton, action="digits.decline"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        bot = _bot(interaction)
        game = await pending(bot, int(self.game_id), interaction, answering=True)
        await close_challenge(interaction, game, "declined", "digits.challenge.declined")


class CancelChallenge(GameButton, action="digits.cancel"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        bot = _bot(interaction)
        game = await pending(bot, int(self.game_id), interaction, answering=False)
        await close_challenge(interaction, game, "abandoned", "digits.challenge.cancelled")


def _still_pending(game: StoredMatch) -> None:
    if game.row.status != "pending":
        raise DomainError("digits.not_pending", "this challenge was already answered",
                          status=game.row.status)


async def pending(bot: Ardoise, match_id: int, interaction: discord.Interaction, *,
                  answering: bool) -> StoredMatch:
    """The pending challenge, if the clicking member may answer it (``answering``: the
    challenged member) or cancel it (the challenger)."""
    game = await load_game(bot, match_id)
    _still_pending(game)
    challenger, challenged = game.members
    user = interaction.user.id
    if answering and user == challenger:
        raise DomainError("digits.own_challenge", "wait for the answer, or cancel",
                          name=game.shown(str(challenged), await lang_for(interaction)))
    if not answering and user == challenged:
        raise DomainError("digits.not_your_challenge", "answer it with Accept or Decline")
    ensure_player(interaction, [challenged if answering else challenger])
    return game


async def close_challenge(interaction: discord.Interaction, game: StoredMatch, status: str,
                          key: str) -> None:
    bot = _bot(interaction)

    def change(game: StoredMatch) -> None:
        _still_pending(game)
        game.status = status

    game, _ = await mutate(bot, game.id, change, active=False)
    lang = await public_lang(bot, game)
    challenger, challenged = game.match.players
    await replies.update(
        interaction,
        content=t(key, lang, challenger=bold(game.shown(challenger, lang)),
                  challenged=bold(game.shown(challenged, lang))), embed=None, view=None)


class TakeFocus(GameButton, action="digits.focus"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        game = await load_active(_bot(interaction), int(self.game_id))
        player = game.player(interaction)
        check_public(game, self.version, interaction.message)
        if game.match.stage(player) != "focus":
            raise DomainError("match.focus_already", "the Focus of this round is already in",
                              round=game.match.round)
        await start_focus(interaction, game, player)


class OpenShop(GameButton, action="digits.shop"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        hit(interaction, "shop")  # it draws the shop's pictures
        game = await load_active(_bot(interaction), int(self.game_id))
        player = game.player(interaction)
        check_public(game, self.version, interaction.message)
        if game.match.stage(player) == "focus":
            raise DomainError("match.focus_first", "the round's Focus comes before the shop",
                              round=game.match.round)
        lang = await lang_for(interaction)
        await _defer_thinking(interaction)  # before drawing the pictures
        await _reply(interaction, True, **await shop_message(game, player, lang))


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
    bot = _bot(interaction)
    lang = await lang_for(interaction)
    player = str(interaction.user.id)

    def change(game: StoredMatch) -> str | None:
        game.player(interaction)
        check_public(game, clicked_round, interaction.message)

        def act() -> str | None:
            match = game.match
            if slot is None:
                match.pass_pick(player)
                return None
            draft = match.draft
            key = draft.row[slot - 1] if draft is not None and 0 < slot <= len(draft.row) else None
            shop = match.shop(player)
            onto = merge_target(shop.slate, key) if key else None
            cell = match.pick(player, slot, onto)
            piece = shop.slate[cell]
            assert piece is not None
            return t("digits.shop.bought_merged" if piece.level > 1 else "digits.shop.bought",
                     lang, digit=piece_text(piece.key, piece.level, lang), cell=cell)

        note = _engine(game, lang, act)
        if note is not None:
            game.bump(player)
        return note

    game, note = await mutate(bot, int(game_id), change,
                              before_save=lambda: _defer_update(interaction))
    public = await public_lang(bot, game)
    await replies.edit_original(interaction, embed=match_embed(game, public),
                                view=match_view(game, public))
    if note is not None:
        await _reply(interaction, True, **await shop_message(game, player, lang, note))


# --------------------------------------------------------------------------------------------
# The commands


def challenge_view(game_id: int, version: int, lang: str) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(AcceptChallenge(game_id, version, label=t("digits.challenge.accept", lang),
                                  style=discord.ButtonStyle.success))
    view.add_item(DeclineChallenge(game_id, version, label=t("digits.challenge.decline", lang),
                                   style=discord.ButtonStyle.danger))
    view.add_item(CancelChallenge(game_id, version, label=t("digits.challenge.cancel", lang),
                                  style=discord.ButtonStyle.secondary))
    return view


async def match_settings(bot: Ardoise, guild_id: int, draft: bool | None) -> MatchSettings:
    """The server's match defaults (lives, gold per round, rounds, draft) over the rulings'
    defaults; ``draft`` given by the challenger wins over the server's default."""
    assert bot.db is not None
    server = await bot.db.servers.get(guild_id)
    return MatchSettings(lives=server.match_lives, base_gold=server.match_gold,
                         rounds=server.match_rounds,
                         draft=server.match_draft if draft is None else draft)


class Digits(DigitsInfo, ArdoiseCog, commands.GroupCog, group_name="digits",
             group_description="The 20 Digits: the auto-battler of numbers"):
    persistent_items = (AcceptChallenge, DeclineChallenge, CancelChallenge, TakeFocus, OpenShop,
                        DraftPick, DraftPass, ShopControl, focus_ui.RoundButton)

    @commands.Cog.listener("on_interaction")
    async def take_unrouted(self, interaction: discord.Interaction) -> None:
        # What discord.py routes to no DynamicItem, and only that: the answer modals of the match
        # rounds' Focus (it has no DynamicItem for modals; see cogs._focus_ui; the Focus cog
        # takes the other kinds'), and a click on a shop control its message does not show (a
        # modified client), which gets the sentence of an expired window as before.
        if interaction.type is discord.InteractionType.modal_submit:
            await focus_ui.take_submission(interaction, lambda kind: kind == "match")
        elif routed_nowhere(interaction, SHOP_PREFIX):
            lang = await lang_for(interaction)
            await replies.respond(interaction, t("digits.shop.expired", lang), ephemeral=True)

    @app_commands.command(name="challenge", description="Challenge a member to a match")
    @limited("start")
    @app_commands.describe(member="The member you challenge",
                           draft="Pick in turn from one shared row instead of private shops")
    async def challenge(self, interaction: discord.Interaction, member: discord.Member,
                        draft: bool | None = None) -> None:
        lang = await lang_for(interaction)
        user = interaction.user
        if member.id == user.id:
            raise DomainError("digits.self_challenge", "you cannot challenge yourself")
        if member.bot:
            raise DomainError("digits.bot_challenge", "bots do not play",
                              name=shown_name(member.display_name))
        assert interaction.guild_id is not None and self.bot.db is not None
        waiting = [m for m in await self.bot.db.digits.open_matches(
            interaction.guild_id, user.id, kind="duel", seat=0) if m.status == "pending"]
        if len(waiting) >= self.bot.limits.open_games["digits_challenges"]:
            raise over_cap("digits_challenges", [
                t("limits.item.challenge", lang, match=m.match_id,
                  channel=channel_text(m.channel_id, lang)) for m in waiting])
        settings = await match_settings(self.bot, interaction.guild_id, draft)
        players = [str(user.id), str(member.id)]
        match = Match.new(players, seed=secrets.randbits(48), settings=settings)
        names = {players[0]: user.display_name, players[1]: member.display_name}
        row = await self.bot.db.digits.create_match(
            interaction.guild_id, [user.id, member.id], new_state(match, names, lang),
            channel_id=interaction.channel_id)
        await replies.respond(
            interaction,
            t("digits.challenge.posted", lang, challenged=member.mention, challenger=user.mention,
              lives=settings.lives, rounds=settings.rounds, variant=variant_text(settings, lang)),
            view=challenge_view(row.match_id, row.version, lang),
            allowed_mentions=pings(member.id, user.id))

    @app_commands.command(name="solo", description="Play a match against other players' ghosts")
    @limited("start")
    async def solo(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        user = interaction.user
        assert interaction.guild_id is not None and self.bot.db is not None
        playing = [StoredMatch.from_row(m) for m in await self.bot.db.digits.open_matches(
            interaction.guild_id, user.id, kind="ghost")]
        if len(playing) >= self.bot.limits.open_games["digits_solo"]:
            raise over_cap("digits_solo", [
                t("limits.item.digits", lang, match=g.id, round=g.match.round,
                  channel=channel_text(g.row.channel_id, lang)) for g in playing])
        settings = await match_settings(self.bot, interaction.guild_id, False)
        player = str(user.id)
        match = Match.new([player], seed=secrets.randbits(48), settings=settings,
                          shadow=SHADOW_PLAYER)
        row = await self.bot.db.digits.create_match(
            interaction.guild_id, [user.id], new_state(match, {player: user.display_name}, lang),
            status="active", channel_id=interaction.channel_id)
        game = StoredMatch.from_row(row)
        sent = await replies.respond(
            interaction,
            t("digits.solo.started", lang, name=user.mention), embed=match_embed(game, lang),
            view=match_view(game, lang), allowed_mentions=pings(user.id))
        if sent.message_id is not None:
            await set_message(self.bot, row.match_id, sent.message_id)

    @app_commands.command(name="odds",
                          description="Your chances in this round's battle, with your slate as "
                                      "it stands")
    @limited("odds")
    async def odds(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        game = await odds_match(self.bot, interaction)
        await show_odds(interaction, game, str(interaction.user.id), lang)


async def setup(bot: Any) -> None:
    await bot.add_cog(Digits(bot))
