"""The 20 Digits' use cases: matches read, changed and saved over a ``Database`` and the engine.

No Discord here (``bot/flows/digits.py`` conducts each interaction, ``bot/ui/digits.py`` draws
and says, ``cogs/digits.py`` has the commands): this module keeps the persisted match
(``StoredMatch``), the load–change–save loop with its retries (``mutate``), the challenge rules
(``challenge``, ``pending_challenge``), the Focus seeding rule (``focus_questions``), the ghost
pool (``solo_pool``), the shadow's player (``SHADOW_PLAYER``; by level, ``SHADOWS``, with
``adapt_level`` for "adapt"), the end of a match with its ratings (``store``), the shop's
actions as data (``shop_move``: a ``ShopMove`` in, what it did out; ``buy`` places in the cell
that ``bot.digits.placement`` chooses), the draft's picks (``draft_turn``) and the odds of a
round (``round_odds``).

Refusals carry data, not words: a side of the match as ``Side`` (its player), a member's name
as ``Named``; the presentation says them (``bot.ui.digits.localised``).

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

Versions: every change is saved with the match's version (``db.digits.save_match``); when the
other player saved first, the change is worked out again on the new state (the two shops are
independent), and after a few collisions ``StaleVersion`` (``errors.db.stale``) goes up. The
message id is bookkeeping (``set_message``): it keeps the version.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, TypeVar

from bot.digits.forecast import Example, Forecast, example_battles, forecast_for_match
from bot.digits.ghosts import Ghost
from bot.digits.levels import ADAPT, CHOICES, DEFAULT_LEVEL, SHADOWS, Adapted, adapt, solo_match
from bot.digits.match import Match, RoundRecord, ShadowPlayer
from bot.digits.placement import How, Placement, choose
from bot.digits.shop import FOCUS_MAX, MatchSettings
from bot.digits.slate import Piece, Slate, SlateError
from bot.digits.strategy import OddsPlayer
from bot.domain import DomainError, OpenGame, check_open
from bot.domain import TooManyOpen as TooManyOpen  # the refusal the callers catch
from bot.focus import ROUND_SIZE, FocusRound, Question, level_for_match_round
from bot.formats import FORMAT_KEY, upgrade
from bot.play.digits_clock import open_clock, turn_deadline
from bot.play.focus import practice_questions
from bot.play.students import match_level
from db import Database, DigitsMatch, FocusAnswer, RatingChange, StaleVersion
from db.students import StudentSettings

log = logging.getLogger(__name__)

T = TypeVar("T")

@dataclass(frozen=True)
class Side:
    """A side of a match named in a refusal, by its player (a member's id as text, or the
    ghosts): the presentation says its name as the match keeps it (``bot.ui.digits.localised``),
    so that no use case words a name."""

    player: str


@dataclass(frozen=True)
class Named:
    """A member's display name in a refusal about someone not (yet) in a match: the presentation
    shows it inert (``bot.replies.shown_name``, by ``bot.ui.digits.localised``)."""

    name: str


#: How a caller wraps an engine call (to word its refusals in the member's language).
Engine = Callable[["StoredMatch", Callable[[], Any]], Any]

#: The version of the stored state's layout (the module's docstring). 1: the layout of 2026-12
#: with the field; 0 (no field): the same, written before versions.
STATE_FORMAT = 1

#: The version of a stored ghost's layout (``db.digits.record_ghost``): ``{"format", "slate",
#: "focus", "name"}``. 1: the layout of 2026-12 with the field; 0: the same without it (a bare
#: slate, older still, is read as well).
GHOST_FORMAT = 1

#: Who plays the shadow of a solo match saved without a level (before levels, every shadow was the
#: stronger shop player; the engine's format 2 names it "strong"), passed to the engine (which
#: imports no player of its own). A match at a level is played by ``SHADOWS[level]``.
SHADOW_PLAYER: ShadowPlayer = OddsPlayer

#: The finished solo matches "adapt" looks back on.
ADAPT_HISTORY = 10

#: Tries at saving a change when the other player keeps saving first.
SAVE_ATTEMPTS = 4


def focus_questions(seed: int | str, round_: int, player: str,
                    student: StudentSettings | None = None, year: str | None = None
                    ) -> list[Question]:
    """The Focus questions of ``player`` at ``round_`` of the match with ``seed``: the same
    before and after a restart, different for each player and round; at the round's level of the
    match's ramp, or at the student's own (``bot.play.students.match_level``); from the player's
    school ``year`` (their own, else the server's: ``bot.play.focus.practice_year``) when they
    have one, as their practice is."""
    rng = random.Random(f"{seed}/focus/{round_}/{player}")
    level = match_level(level_for_match_round(round_), student)
    return practice_questions(year, level, rng, ROUND_SIZE)


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
    #: The state's keys this class does not read (the shop clock's, ``bot.play.digits_clock``):
    #: kept as they are by every save.
    extra: dict[str, Any] = field(default_factory=dict)
    #: How "adapt" chose the level of a solo match just started (said once, not stored).
    adapted: Adapted | None = None
    #: After ``submit_focus``: the round's Focus answers as stored, which its score counts.
    focus_answers: list[FocusAnswer] = field(default_factory=list)

    @classmethod
    def from_row(cls, row: DigitsMatch) -> StoredMatch:
        state = upgrade(row.state, "match state", STATE_FORMAT)
        match = Match.from_json(state["engine"], shadow=SHADOW_PLAYER, shadows=SHADOWS)
        focus = state.get("focus") or {}
        progress = focus.get("players", {}) if focus.get("round") == match.round else {}
        return cls(row, match, dict(state.get("names", {})), str(state.get("lang", "en")),
                   {k: int(v) for k, v in state.get("steps", {}).items()}, dict(progress),
                   extra={k: v for k, v in state.items() if k not in _STATE_KEYS})

    def state(self) -> dict[str, Any]:
        return {**self.extra,
                FORMAT_KEY: STATE_FORMAT, "engine": self.match.to_json(), "names": self.names,
                "lang": self.lang,
                "steps": self.steps, "focus": {"round": self.match.round, "players": self.focus}}

    @property
    def id(self) -> int:
        return self.row.match_id

    @property
    def members(self) -> list[int]:
        return [int(p) for p in self.match.players]

    def check_step(self, player: str, step: int) -> None:
        current = self.steps.get(player, 0)
        if step != current:
            raise DomainError("game.stale", "This message is out of date: the game has moved on.",
                              clicked=step, current=current)

    def bump(self, player: str) -> None:
        self.steps[player] = self.steps.get(player, 0) + 1

    def focus_round(self, player: str, student: StudentSettings | None = None,
                    year: str | None = None) -> FocusRound:
        """The player's Focus of this round, as far as it was answered (once begun, its
        questions are kept with the match: a setting changed meanwhile changes the next round);
        ``year``: the player's school year (``focus_questions``)."""
        saved = self.focus.get(player)
        if saved is not None:
            return FocusRound.from_json(saved)
        return FocusRound(focus_questions(self.match.seed, self.match.round, player, student,
                                          year))

    def still_pending(self) -> None:
        """Refuse answering a challenge that was answered (or cancelled) already."""
        if self.row.status != "pending":
            raise DomainError("digits.not_pending", "this challenge was already answered",
                              status=self.row.status)

    def focus_open(self, player: str, round_: int) -> None:
        """Refuse a Focus answer that comes too late: another round, or the Focus already in."""
        if self.match.round != round_ or self.match.stage(player) != "focus":
            raise DomainError("match.focus_already", "the Focus of this round is already in",
                              round=self.match.round)

    def shop_open(self, player: str) -> None:
        """Refuse opening the shop before the round's Focus is in (its score is the gold)."""
        if self.match.stage(player) == "focus":
            raise DomainError("match.focus_first", "the round's Focus comes before the shop",
                              round=self.match.round)

    def shopping(self, player: str) -> None:
        """Refuse the odds of a shop turn that is over (they are of the slate being shopped)."""
        if self.match.stage(player) != "shop":
            raise DomainError("digits.odds_turn_over", "the odds are for your shop turn")

    def answerer(self, answering: bool) -> int:
        """Who may answer the pending challenge (``answering``: the challenged member) or
        cancel it (the challenger)."""
        challenger, challenged = self.members
        return challenged if answering else challenger


#: The state's keys ``StoredMatch`` reads itself (the others are its ``extra``).
_STATE_KEYS = frozenset({FORMAT_KEY, "engine", "names", "lang", "steps", "focus"})


def new_state(match: Match, names: dict[str, str], lang: str) -> dict[str, Any]:
    return {FORMAT_KEY: STATE_FORMAT, "engine": match.to_json(), "names": names, "lang": lang,
            "steps": dict.fromkeys(match.players, 0), "focus": {"round": 1, "players": {}}}


# --------------------------------------------------------------------------------------------
# Load, save, the load–change–save loop


async def load_game(db: Database, match_id: int) -> StoredMatch:
    return StoredMatch.from_row(await db.digits.require_match(match_id))


async def load_active(db: Database, match_id: int) -> StoredMatch:
    game = await load_game(db, match_id)
    if game.row.status != "active":
        raise DomainError("digits.not_active", "this match is not being played",
                          status=game.row.status)
    return game


def scores(match: Match) -> dict[int, float]:
    """The match's result for the ratings: 1 a win, 0.5 a draw, 0 a loss."""
    return {int(p): 0.5 if match.winner == "draw" else float(match.winner == p)
            for p in match.players}


async def store(db: Database, game: StoredMatch) -> None:
    """Save the game at the version it was read, with everything its change brought: the round's
    ghosts, the end of the match and its ratings. All or nothing."""
    match = game.match
    deadline = await turn_deadline(db, game.row.guild_id, game.status or game.row.status,
                                   match.round, match.over, game.extra)
    state = game.state()
    async with db.transaction():
        if match.over and game.battle is not None:
            game.ratings = await db.digits.finish_match(game.id, state, game.row.version,
                                                        scores(match))
        else:
            status = game.status or game.row.status
            to_act = None
            if status == "active":
                to_act = [int(p) for p in match.players if match.stage(p) in ("focus", "shop")]
            await db.digits.save_match(game.id, state, game.row.version, status=game.status,
                                       round=match.round, to_act=to_act, deadline=deadline)
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
                     "focus": record.focus[player], "name": game.names.get(player, "?")},
                    match=game.row)


async def mutate(db: Database, match_id: int, change: Callable[[StoredMatch], T], *,
                 before_save: Callable[[], Awaitable[None]] | None = None,
                 active: bool = True, in_thread: bool = False,
                 read: Callable[[StoredMatch], Awaitable[None]] | None = None,
                 first: StoredMatch | None = None) -> tuple[StoredMatch, T]:
    """Read the match, apply ``change`` (which raises a ``DomainError`` to refuse: nothing is
    saved), save. When the other player saved in between, do it again on the new state.
    ``before_save`` runs between the change and the save (the caller's deferral: a refusal is
    answered at once, a change once known to be allowed). ``in_thread``: ``change`` may take a
    while (a battle, the shadow's shop turn), so it runs off the event loop; it only touches the
    ``StoredMatch`` just read. ``read`` reads what the change needs besides the match, after
    the match at each attempt: what was written with an older version is then caught by the
    save's version like the match itself. ``first``: the match as the caller has just read it
    (checked as active already if ``active``), for the first attempt; a stale one is caught by
    the save's version like any other."""
    for attempt in range(SAVE_ATTEMPTS):
        if attempt == 0 and first is not None and first.id == match_id:
            game = first
        else:
            game = await (load_active(db, match_id) if active else load_game(db, match_id))
        if read is not None:
            await read(game)
        result = await asyncio.to_thread(change, game) if in_thread else change(game)
        if before_save is not None:
            await before_save()
        try:
            await store(db, game)
        except StaleVersion:
            if attempt == SAVE_ATTEMPTS - 1:
                raise
            log.debug("match %s changed while saving; trying again", match_id)
            continue
        return game, result
    raise AssertionError("unreachable")


async def set_message(db: Database, match_id: int, message_id: int) -> None:
    """Remember the match's current public message (its buttons are the ones that count).
    Bookkeeping: the match's version stays, so no click or change is made stale by it."""
    await db.digits.set_message_id(match_id, message_id)


# --------------------------------------------------------------------------------------------
# Starting a match


def _open(item: str, game: StoredMatch) -> OpenGame:
    numbers = (("round", game.match.round),) if item == "digits" else ()
    return OpenGame(item, game.id, "match", game.row.channel_id, numbers)


@dataclass(frozen=True)
class Member:
    """A member as a match keeps them: id and display name."""

    id: int
    name: str
    #: A bot account: it does not play (``challenge`` refuses it).
    bot: bool = False


async def match_settings(db: Database, guild_id: int, draft: bool | None) -> MatchSettings:
    """The server's match defaults (lives, gold per round, rounds, draft) over the rulings'
    defaults; ``draft`` given by the challenger wins over the server's default."""
    server = await db.servers.get(guild_id)
    return MatchSettings(lives=server.match_lives, base_gold=server.match_gold,
                         rounds=server.match_rounds,
                         draft=server.match_draft if draft is None else draft)


async def challenge(db: Database, guild_id: int, channel_id: int | None, challenger: Member,
                    challenged: Member, *, draft: bool | None, lang: str, most: int
                    ) -> StoredMatch:
    """A pending duel of ``challenger`` against ``challenged``; refused
    (``bot.domain.check_open``) when the challenger has ``most`` challenges waiting for an
    answer already."""
    if challenged.bot and challenged.id != challenger.id:
        raise DomainError("digits.bot_challenge", "bots do not play",
                          name=Named(challenged.name))
    if challenged.id == challenger.id:
        raise DomainError("digits.self_challenge", "you cannot challenge yourself")
    waiting = [m for m in await db.digits.open_matches(guild_id, challenger.id, kind="duel",
                                                       seat=0) if m.status == "pending"]
    check_open("digits_challenges",
               [_open("challenge", StoredMatch.from_row(m)) for m in waiting], most)
    settings = await match_settings(db, guild_id, draft)
    players = [str(challenger.id), str(challenged.id)]
    match = Match.new(players, seed=secrets.randbits(48), settings=settings)
    names = {players[0]: challenger.name, players[1]: challenged.name}
    row = await db.digits.create_match(guild_id, [challenger.id, challenged.id],
                                       new_state(match, names, lang), channel_id=channel_id)
    return StoredMatch.from_row(row)


async def adapt_level(db: Database, guild_id: int, user_id: int) -> Adapted:
    """The level "adapt" gives the member's next solo match in this server, from their last
    finished ones (``bot.digits.levels.adapt``: two wins in a row at a level, one stronger; two
    losses, one gentler)."""
    history: list[tuple[str | None, str | None]] = []
    for row in await db.digits.finished_solo(guild_id, user_id, ADAPT_HISTORY):
        seat = next((s for s in row.seats if s.user_id == user_id), None)
        try:
            level = Match.from_json(upgrade(row.state, "match state", STATE_FORMAT)["engine"]
                                    ).level
        except (DomainError, KeyError, TypeError, ValueError):
            level = None  # unreadable (or newer): not a result at a level
        history.append((level, seat.result if seat is not None else None))
    return adapt(history)


async def solo(db: Database, guild_id: int, channel_id: int | None, member: Member, *,
               lang: str, most: int, level: str = DEFAULT_LEVEL) -> StoredMatch:
    """An active solo match of ``member`` against ghosts and the shadow at ``level`` (gentle,
    fair, strong, or adapt: chosen from their recent results, ``adapted`` says how); refused
    (``bot.domain.check_open``) when they play ``most`` solo matches already."""
    if level not in CHOICES:
        raise DomainError("digits_levels.unknown", f"no level is called {level!r}", level=level)
    playing = [StoredMatch.from_row(m) for m in await db.digits.open_matches(
        guild_id, member.id, kind="ghost")]
    check_open("digits_solo", [_open("digits", g) for g in playing], most)
    adapted = await adapt_level(db, guild_id, member.id) if level == ADAPT else None
    settings = await match_settings(db, guild_id, False)
    player = str(member.id)
    match = solo_match(player, adapted.level if adapted else level, seed=secrets.randbits(48),
                       settings=settings)
    state = new_state(match, {player: member.name}, lang)
    deadline = await open_clock(db, guild_id, state, match.round)
    row = await db.digits.create_match(guild_id, [member.id], state, status="active",
                                       channel_id=channel_id, deadline=deadline)
    game = StoredMatch.from_row(row)
    game.adapted = adapted
    return game


async def pending_challenge(db: Database, match_id: int, user_id: int, *, answering: bool
                            ) -> StoredMatch:
    """The pending challenge, if ``user_id`` may answer it (``answering``: the challenged
    member) or cancel it (the challenger): each is told the button that is theirs. Anyone else
    the caller refuses as not a player (``StoredMatch.answerer``)."""
    game = await load_game(db, match_id)
    game.still_pending()
    challenger, challenged = game.members
    if answering and user_id == challenger:
        raise DomainError("digits.own_challenge", "wait for the answer, or cancel",
                          name=Side(str(challenged)))
    if not answering and user_id == challenged:
        raise DomainError("digits.not_your_challenge", "answer it with Accept or Decline")
    return game


async def answer_challenge(db: Database, match_id: int, status: str,
                           message_id: int | None = None) -> StoredMatch:
    """The pending challenge answered: ``active`` (accepted, its message becomes the match
    message), ``declined`` or ``abandoned`` (cancelled by the challenger)."""

    def change(game: StoredMatch) -> None:
        game.still_pending()
        game.status = status
        if message_id is not None:
            game.message_id = message_id

    game, _ = await mutate(db, match_id, change, active=False)
    return game


# --------------------------------------------------------------------------------------------
# The shop (pure: applied to a StoredMatch inside ``mutate``; the engine refuses what it must)


@dataclass(frozen=True)
class Placed:
    """A digit bought or picked, as it now stands on the slate, and why it went there
    (``bot.digits.placement``)."""

    piece: Piece
    cell: int
    how: How = How.FRONT
    ally: int | None = None  # the other cell of its column the reason names

    @property
    def merged(self) -> bool:
        return self.piece.level > 1


def _placed(match: Match, player: str, cell: int, chosen: Placement | None) -> Placed:
    piece = match.shop(player).slate[cell]
    assert piece is not None
    if chosen is None:  # the engine chose (it refuses a full slate before that)
        return Placed(piece, cell)
    return Placed(piece, cell, chosen.how, chosen.ally)


def buy(game: StoredMatch, player: str, slot: int) -> Placed:
    """Buy the offer in ``slot`` into the cell where it can act (``bot.digits.placement``): the
    bot's choice, passed to the engine, which checks the buy (with no cell to offer, a full slate,
    the engine refuses it and says why)."""
    match = game.match
    shop = match.shop(player)
    offer = shop.offers[slot - 1] if 0 < slot <= len(shop.offers) else None
    chosen = choose(shop.slate, offer.key) if offer is not None else None
    cell = match.buy(player, slot, chosen.cell if chosen else None)
    return _placed(match, player, cell, chosen)


def pick(game: StoredMatch, player: str, slot: int | None) -> Placed | None:
    """A pick from the draft's shared row (``slot``, placed as a bought digit), or a pass."""
    match = game.match
    if slot is None:
        match.pass_pick(player)
        return None
    draft = match.draft
    key = draft.row[slot - 1] if draft is not None and 0 < slot <= len(draft.row) else None
    chosen = choose(match.shop(player).slate, key) if key else None
    cell = match.pick(player, slot, chosen.cell if chosen else None)
    return _placed(match, player, cell, chosen)


@dataclass(frozen=True)
class Frozen:
    """An offer frozen (kept for the next round) or, ``frozen`` False, unfrozen."""

    slot: int
    key: str
    frozen: bool


def toggle_freeze(game: StoredMatch, player: str, slot: int) -> Frozen:
    match = game.match
    offers = match.shop(player).offers
    offer = offers[slot - 1] if 0 < slot <= len(offers) else None
    if offer is not None and offer.frozen:
        match.unfreeze(player, slot)
        return Frozen(slot, offer.key, False)
    match.freeze(player, slot)
    assert offer is not None  # the engine refused an empty slot
    return Frozen(slot, offer.key, True)


class Sold(NamedTuple):
    """A digit sold: the piece, and the gold it brought."""

    piece: Piece
    gold: int


def sell(game: StoredMatch, player: str, cell: int) -> Sold:
    """Sell the digit on ``cell``: the piece sold and the gold it brought."""
    piece = game.match.shop(player).slate[cell]
    gain = game.match.sell(player, cell)
    assert piece is not None
    return Sold(piece, gain)


@dataclass(frozen=True)
class Rerolled:
    """The offers were drawn again, for ``cost`` gold."""

    cost: int


def reroll(game: StoredMatch, player: str) -> Rerolled:
    game.match.reroll(player)
    return Rerolled(game.match.settings.reroll_cost)


@dataclass(frozen=True)
class Arranged:
    """Two cells picked in the "move" menu: ``kind`` is ``merged`` (onto ``cell``, ``piece`` the
    result), ``moved`` (``piece`` to the empty ``cell``) or ``swapped``."""

    kind: str
    piece: Piece | None = None
    cell: int | None = None
    #: The two cells picked, lower first.
    picked: tuple[int, int] = (0, 0)


def arrange(game: StoredMatch, player: str, a: int, b: int) -> Arranged:
    """Swap cells ``a < b``, move a digit to an empty one, or merge two equal digits."""
    match = game.match
    slate = match.shop(player).slate
    pa, pb = slate[a], slate[b]
    if pa is not None and pb is not None and pa.key == pb.key and pa.level == pb.level:
        # Two equal digits merge; the lower cell (front row, then left) keeps the result.
        match.merge(player, b, a)
        return Arranged("merged", slate[a], a, (a, b))
    match.swap(player, a, b)
    if pa is None or pb is None:
        moved, to = (pb, a) if pa is None else (pa, b)
        return Arranged("moved", moved, to, (a, b))
    return Arranged("swapped", picked=(a, b))


@dataclass(frozen=True)
class ShopMove:
    """One action of a shop window, as data: ``buy`` the offer in ``slot``, ``reroll``,
    ``freeze`` (or unfreeze) the offer in ``slot``, ``sell`` the digit on ``cells[0]``,
    ``arrange`` the two ``cells`` (swap, move or merge). The window reads its components into
    one; ``shop_move`` applies it."""

    kind: Literal["buy", "reroll", "freeze", "sell", "arrange"]
    slot: int = 0
    cells: tuple[int, ...] = ()


#: What a shop action did (``shop_move``), for the window to say.
ShopDone = Placed | Rerolled | Frozen | Sold | Arranged


def apply_move(game: StoredMatch, player: str, move: ShopMove) -> ShopDone:
    """``move`` applied to ``player``'s shop in ``game`` (the engine refuses what it must)."""
    if move.kind == "buy":
        return buy(game, player, move.slot)
    if move.kind == "reroll":
        return reroll(game, player)
    if move.kind == "freeze":
        return toggle_freeze(game, player, move.slot)
    if move.kind == "sell":
        return sell(game, player, move.cells[0])
    a, b = sorted(move.cells)
    return arrange(game, player, a, b)


async def shop_move(db: Database, match_id: int, player: str, step: int, move: ShopMove, *,
                    engine: Engine,
                    before_save: Callable[[], Awaitable[None]] | None = None
                    ) -> tuple[StoredMatch, ShopDone]:
    """One action of ``player`` in their shop window shown at ``step``: refused when the window
    is out of date (another action of theirs came since), applied through ``engine`` (whose
    refusals the caller words), the player's other windows made stale by it, saved. Gives the
    match saved and what the move did."""

    def change(game: StoredMatch) -> ShopDone:
        game.check_step(player, step)
        done: ShopDone = engine(game, lambda: apply_move(game, player, move))
        game.bump(player)
        return done

    return await mutate(db, match_id, change, before_save=before_save)


async def draft_turn(db: Database, match_id: int, player: str, slot: int | None, *,
                     check: Callable[[StoredMatch], None], engine: Engine,
                     before_save: Callable[[], Awaitable[None]] | None = None
                     ) -> tuple[StoredMatch, Placed | None]:
    """A pick from the draft's shared row (``slot``) or a pass (None) by ``player``, whose turn
    it must be (the engine refuses otherwise). ``check`` refuses a click the match as read does
    not take (the caller's: not a player, an earlier round's message). A pick makes the
    picker's shop windows stale (the slate changed)."""

    def change(game: StoredMatch) -> Placed | None:
        check(game)
        placed: Placed | None = engine(game, lambda: pick(game, player, slot))
        if placed is not None:
            game.bump(player)
        return placed

    return await mutate(db, match_id, change, before_save=before_save)


# --------------------------------------------------------------------------------------------
# The ghosts, the end of a turn, the odds


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


async def solo_pool(db: Database, game: StoredMatch, player: str
                    ) -> tuple[list[Ghost], dict[str, str]]:
    """The ghosts a solo match may meet at its round (none for a duel), and their owners'
    names."""
    if not game.match.solo:
        return [], {}
    rows = await db.digits.ghost_pool(game.row.guild_id, game.match.round,
                                      exclude_user_id=int(player))
    return engine_ghosts(rows)


async def end_turn(db: Database, match_id: int, player: str, step: int, *,
                   engine: Engine | None = None,
                   before_save: Callable[[], Awaitable[None]] | None = None
                   ) -> tuple[StoredMatch, RoundRecord | None]:
    """"Ready": the player's turn ends; with every side ready, the battle is fought (the record
    comes back, and is saved with the round's ghosts). ``engine`` wraps the engine's call (the
    caller words its refusals)."""
    first = await load_active(db, match_id)
    pool, owners = await solo_pool(db, first, player)

    def change(game: StoredMatch) -> RoundRecord | None:
        game.check_step(player, step)

        def act() -> RoundRecord | None:
            return game.match.end_turn(player, pool)

        record = engine(game, act) if engine is not None else act()
        game.bump(player)
        if record is not None:
            game.battle = record
            game.focus = {}
            if record.ghost is not None and record.ghost.owner in owners:
                game.names[str(record.ghost.owner)] = owners[str(record.ghost.owner)]
        return record

    # In a thread: the battle, and in a solo match the shadow's shop turn (tens of milliseconds).
    return await mutate(db, match_id, change, before_save=before_save, in_thread=True,
                        first=first)


async def odds_match(db: Database, user_id: int, guild_id: int, channel_id: int | None
                     ) -> StoredMatch:
    """The member's match in this channel that is in their shop turn (the newest, should there
    be more than one); refused when there is none."""
    player = str(user_id)
    waiting = await db.games.waiting_on(user_id, guild_id)
    games = [await load_game(db, w.game_id) for w in waiting
             if w.game == "digits" and w.status == "active" and w.channel_id == channel_id]
    shopping = [g for g in games if g.match.stage(player) == "shop"]
    if shopping:
        return max(shopping, key=lambda g: g.id)
    if games:
        raise DomainError("digits.odds_focus_first", "take this round's Focus first")
    raise DomainError("digits.odds_no_match", "no match of yours is in a shop turn here")


@dataclass(frozen=True)
class RoundOdds:
    """The forecast of a slate in the round's battle, and the ghosts it was reckoned with."""

    forecast: Forecast
    pool: list[Ghost]


async def round_odds(db: Database, game: StoredMatch, player: str) -> RoundOdds:
    """The forecast (win, draw, loss) of ``player``'s slate as it stands in the round's battle,
    after the opponent's shop turn (``bot.digits.forecast``; the same ghost pool as the battle),
    worked out in a thread."""
    pool, _ = await solo_pool(db, game, player)
    forecast = await asyncio.to_thread(forecast_for_match, game.match, player, pool)
    return RoundOdds(forecast, pool)


async def round_examples(db: Database, game: StoredMatch, player: str
                         ) -> tuple[Example | None, Example | None]:
    """One battle ``player``'s slate wins and one it loses among those its odds count
    (``bot.digits.forecast.example_battles``; the same ghost pool), worked out in a thread."""
    pool, _ = await solo_pool(db, game, player)
    return await asyncio.to_thread(example_battles, game.match, player, pool)


async def odds_game(db: Database, match_id: int, clicked_round: int, player: str
                    ) -> StoredMatch:
    """The match whose odds a button of the odds asks about, while ``player``'s shop turn of
    that round lasts (refused otherwise: the odds are of the slate being shopped)."""
    game = await load_active(db, match_id)
    if player not in game.match.players:  # a forged button: the bot shows the odds to players
        raise DomainError("component.invalid", "a button sent an invalid member")
    if clicked_round != game.match.round:
        raise DomainError("game.stale", "This message is out of date: the game has moved on.",
                          clicked=clicked_round, current=game.match.round)
    game.shopping(player)
    return game


# --------------------------------------------------------------------------------------------
# The Focus of a round (the match keeps its progress; each answer is stored with it)


async def focus_answered(db: Database, match_id: int, player: str, round_: int,
                         focus: FocusRound, answer: FocusAnswer) -> None:
    """One more answer of the round's Focus (not the last): kept in the match, and stored as a
    "match" answer in the same transaction."""

    def change(game: StoredMatch) -> None:
        game.focus_open(player, round_)
        game.focus[player] = focus.to_json()
        game.answers = [answer]

    await mutate(db, match_id, change)


def focus_round_key(match_id: int, round_: int) -> str:
    """The name of a round's Focus among a player's stored answers (``db.focus``)."""
    return f"match:{match_id}:{round_}"


def with_last(stored: list[FocusAnswer], last: FocusAnswer | None) -> list[FocusAnswer]:
    """A round's stored answers (in question order) with its ``last`` answer, about to be
    stored with them, unless its question has one stored already (which stands)."""
    if last is None or any(a.question_no == last.question_no for a in stored):
        return stored
    return sorted([*stored, last], key=lambda a: a.question_no or 0)


async def submit_focus(db: Database, match_id: int, player: str, round_: int,
                       score: int | None, last: FocusAnswer | None, *,
                       engine: Engine | None = None,
                       before_save: Callable[[], Awaitable[None]] | None = None
                       ) -> StoredMatch:
    """The round's Focus is in: the score goes to the match (gold, Abacus), with its last answer
    (one transaction). ``engine`` wraps the engine's call (the caller words its refusals).

    Without a ``score`` (a test's given one aside), it is counted from the player's stored
    answers of the round with ``last``, read at the version the save checks (every answer of
    the Focus is stored with a save of the match: one stored by another window since moves the
    version, and the count is made again); the answers counted are the game's
    ``focus_answers``, for the window to show."""
    counted: list[FocusAnswer] = []

    async def read(game: StoredMatch) -> None:
        if score is None:
            stored = await db.focus.round_answers(game.row.guild_id, int(player),
                                                  focus_round_key(match_id, round_))
            counted[:] = with_last(stored, last)

    def change(game: StoredMatch) -> None:
        game.focus_open(player, round_)

        def act() -> None:
            game.match.submit_focus(player, score if score is not None
                                    else sum(a.correct for a in counted))

        if engine is not None:
            engine(game, act)
        else:
            act()
        game.focus.pop(player, None)
        game.bump(player)
        if last is not None:
            game.answers = [last]
        game.focus_answers = list(counted)

    game, _ = await mutate(db, match_id, change, before_save=before_save, read=read)
    return game
