"""A bot shop player: a fair opponent for a class, and the two players of ``python -m bot.digits
match``.

It plays only through the match's own actions (so it obeys every rule a person does), sees only
what a person sees (its shop, and the slate its opponent fielded last round), and is deterministic:
every choice comes from ``random.Random(f"{seed}/…/{round}")``, so the bot keeps no state of its
own and a match saved to JSON goes on exactly as it would have.

Its plan, each shop turn: merge any pair it can; buy the offer worth most to it (a copy that merges,
then strong digits, with supports only while it has front digits to support), selling its weakest
digit for a clearly better one when the slate is full; reroll (5 times at most) while it has gold to
spend and nothing worth buying; freeze a strong offer it cannot afford yet; then place its digits:
tanks (Square, Zero, Modulo) and the strongest fighters in front, each support behind the front
digit it helps most, a strong reserve behind Carry, reach digits in the back, Minus facing the
column where the opponent's strongest front digit stood last round.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from bot.digits.catalogue import BY_KEY, Role
from bot.digits.ghosts import Ghost, slate_cost
from bot.digits.match import Match, RoundRecord
from bot.digits.shop import FOCUS_MAX, MatchSettings, Shop, weight
from bot.digits.slate import Piece, Slate

# How much a level-1 copy of each digit is worth to the bot, in gold-like units: roughly its
# strength for its price, from trial matches between bots.
BASE_VALUE: dict[str, float] = {
    "Plus": 2.2, "Minus": 2.0, "Double": 2.0, "Zero": 1.4, "Even": 2.0, "Odd": 2.3,
    "Prime": 3.0, "Half": 3.0, "Square": 3.3, "Twin": 2.6, "Abacus": 2.4,
    "Splitter": 4.4, "Modulo": 4.0, "Sigma": 3.4, "Average": 3.3, "Carry": 4.2,
    "Power": 5.2, "Pi": 5.0, "Delta": 5.0, "Fibo": 5.4,
}
TANKS = frozenset({"Square", "Zero", "Modulo"})
MAX_REROLLS = 5


def role(piece: Piece) -> Role:
    return BY_KEY[piece.key].role


def atk(piece: Piece, focus: int = 0) -> int:
    """ATK before the other digits' openings (an Abacus counts its owner's Focus)."""
    return piece.kind.atk(piece.level) + (focus if piece.key == "Abacus" else 0)


def strength(piece: Piece, focus: int = 0) -> float:
    return atk(piece, focus) + piece.kind.hp(piece.level) / 2


def piece_value(piece: Piece, focus: int = 0) -> float:
    bonus = focus / 3 if piece.key == "Abacus" else 0.0
    return (BASE_VALUE[piece.key] + bonus) * weight(piece)


def _support_gain(support: Piece, front: Piece, focus: int) -> float:
    a, n = atk(front, focus), support.level
    if support.key == "Power":
        return max(a, min(a * a, (n + 2) ** 2)) - a
    if support.key == "Double":
        return a * n
    return 2 * n + a / 10  # Plus: the same +2N anywhere; better on a digit that already hits


def arrange(slate: Slate, opponent: Slate | None = None, focus: int = 0) -> Slate:
    """The bot's placement of the digits it has (see the module's docstring)."""
    pieces = [p for _, p in slate.items()]
    fighters = sorted((p for p in pieces if role(p) is Role.FIGHTER),
                      key=lambda p: -(strength(p, focus) + (3 if p.key in TANKS else 0)
                                      + (2 if p.key == "Carry" else 0)))
    supports = sorted((p for p in pieces if role(p) is Role.SUPPORT),
                      key=lambda p: -piece_value(p))
    reach = sorted((p for p in pieces if role(p) is Role.REACH), key=lambda p: -piece_value(p))
    front, reserves = fighters[:4], fighters[4:]
    # A support or reserve in the back needs a front digit in its column (behind an empty cell it
    # never moves up and supports nothing): move the weakest up to the front while there is room.
    while len(front) < 4 and (len(supports) + len(reserves) > len(front)
                              or len(supports) + len(reserves) + len(reach) > 4):
        if supports:
            front.append(supports.pop())
        else:
            front.append(reach.pop())
    # Minus (from either row) faces the opponent's strongest front digits of last round.
    threats = [] if opponent is None else [c for _, c in sorted(
        ((strength(p), c) for c, p in opponent.items() if c <= 4), reverse=True)]
    columns: dict[int, Piece] = {}
    for c, m in zip(threats, [p for p in front if p.key == "Minus"], strict=False):
        columns[c] = m
        front.remove(m)
    free = [c for c in (1, 2, 3, 4) if c not in columns]
    for c, p in zip(free, front, strict=False):
        columns[c] = p
    behind: dict[int, Piece] = {}
    # The strongest reserves go behind Carry first (they take its ATK when it falls), then each
    # support behind the front digit it helps most, then the other reserves behind tanks.
    for c in sorted(columns):
        if columns[c].key == "Carry" and reserves:
            behind[c] = reserves.pop(0)
    for m in [p for p in reserves if p.key == "Minus"]:
        column = next((c for c in threats if c in columns and c not in behind), None)
        if column is not None:
            behind[column] = m
            reserves.remove(m)
    order = {"Power": 0, "Double": 1, "Plus": 2}  # multipliers choose before the flat +2N
    for s in sorted(supports, key=lambda p: (order[p.key], -p.level)):
        c = max((c for c in columns if c not in behind),
                key=lambda c: (_support_gain(s, columns[c], focus), -c))
        behind[c] = s
    for r in reserves:
        open_cols = [c for c in columns if c not in behind]
        tanks = [c for c in open_cols if columns[c].key in TANKS]
        behind[(tanks or open_cols)[0]] = r
    for r in reach:
        behind[next(c for c in (1, 2, 3, 4) if c not in behind)] = r
    cells: list[Piece | None] = [None] * 8
    for c, p in columns.items():
        cells[c - 1] = p
    for c, p in behind.items():
        cells[c + 3] = p
    return Slate(tuple(cells))


@dataclass(frozen=True, slots=True)
class Buy:
    """An offer the bot takes: its worth to the bot, the slot, where it goes, what is sold first."""

    value: float
    slot: int
    cell: int | None  # where it goes (an N1 copy to merge onto, or None: first empty cell)
    sell: int | None  # the cell to sell first, on a full slate


@dataclass(frozen=True, slots=True)
class _View:
    """What the bot reads of its slate to judge offers, worked out once per decision."""

    focus: int
    levels: dict[str, tuple[int, ...]]  # digit → the levels of its copies
    n1_cell: dict[str, int]  # digit → a cell holding it at N1 (a buy there merges)
    roles: dict[Role, int]
    hitters: int  # fighters with 2 ATK or more
    full: bool
    weakest: tuple[int, Piece, float]  # (cell, piece, value), on a full slate

    @classmethod
    def of(cls, slate: Slate, focus: int) -> _View:
        levels: dict[str, tuple[int, ...]] = {}
        n1: dict[str, int] = {}
        roles = dict.fromkeys(Role, 0)
        hitters = 0
        weakest: tuple[int, Piece, float] | None = None
        for c, p in slate.items():
            levels[p.key] = (*levels.get(p.key, ()), p.level)
            if p.level == 1:
                n1.setdefault(p.key, c)
            r = role(p)
            roles[r] += 1
            hitters += r is Role.FIGHTER and atk(p, focus) >= 2
            v = piece_value(p, focus)
            if weakest is None or v < weakest[2]:
                weakest = (c, p, v)
        full = slate.is_full()
        return cls(focus, levels, n1, roles, hitters, full,
                   weakest if full and weakest else (0, Piece("Zero"), 0.0))


class BotPlayer:
    """A bot that plays one side of a match. ``accuracy`` is the chance it answers a Focus question
    right (its Focus scores are drawn from it)."""

    def __init__(self, seed: int | str = 0, accuracy: float = 0.75) -> None:
        self.seed = seed
        self.accuracy = accuracy

    def _rng(self, what: str, round_: int) -> random.Random:
        return random.Random(f"{self.seed}/{what}/{round_}")

    def focus_score(self, round_: int) -> int:
        rng = self._rng("focus", round_)
        return sum(rng.random() < self.accuracy for _ in range(FOCUS_MAX))

    # -- judging offers ---------------------------------------------------------------------

    def _offer_value(self, key: str, view: _View, jitter: float) -> float:
        kind = BY_KEY[key]
        value = BASE_VALUE[key] + (view.focus / 3 if key == "Abacus" else 0.0)
        mine = view.levels.get(key, ())
        if 1 in mine:
            value += BASE_VALUE[key] * (2.2 if 2 in mine else 1.2)
        elif mine and all(level == 3 for level in mine):
            value *= 0.6
        if kind.atk(1) == 0 and view.hitters < 2:
            value *= 0.5  # a Zero protects hitters; without them it only waits
        if kind.role is Role.SUPPORT and view.roles[Role.SUPPORT] >= min(
                view.roles[Role.FIGHTER], 4):
            value *= 0.4
        if kind.role is Role.REACH and view.roles[Role.REACH] >= 2:
            value *= 0.6
        return value + jitter

    def _placing(self, shop: Shop, key: str, value: float,
                 view: _View) -> tuple[float, int | None, int | None] | None:
        """(value, cell, cell to sell first) of taking ``key``, or None when the bot cannot pay
        for it or it is not worth a digit of the slate."""
        cost = shop.settings.cost(BY_KEY[key])
        copy = view.n1_cell.get(key)
        if copy is not None or not view.full:
            return (value, copy, None) if cost <= shop.gold else None
        cell, weakest, worth = view.weakest
        gain = shop.settings.sell_per_level * weakest.level
        if value > worth + 1.0 and cost <= shop.gold + gain:
            return value - worth, None, cell
        return None

    def best_buy(self, shop: Shop, keys: list[tuple[int, str]], focus: int,
                 rng: random.Random) -> Buy | None:
        """The offer (slot, key) among ``keys`` worth most to the bot now, with where it goes,
        or None when none is worth buying or affordable; ``rng`` draws each offer's jitter."""
        best: Buy | None = None
        view = _View.of(shop.slate, focus)
        for slot, key in keys:
            value = self._offer_value(key, view, rng.random() * 0.4)
            placed = self._placing(shop, key, value, view)
            if placed is not None and (best is None or placed[0] > best.value):
                best = Buy(placed[0], slot, placed[1], placed[2])
        return best

    def worth_cap(self, match: Match, player: str) -> int | None:
        """The most its slate may be worth (``slate_cost``) after this shop turn, or None for no
        limit (the baseline's: it spends what it likes; a level's shadow may hold back)."""
        return None

    # -- a turn -----------------------------------------------------------------------------

    def _merge_all(self, match: Match, player: str) -> None:
        while True:
            first: dict[Piece, int] = {}
            for c, p in match.shop(player).slate.items():
                if p.level < 3 and p in first:
                    match.merge(player, c, first[p])  # onto the front-most copy
                    break
                first.setdefault(p, c)
            else:
                return

    def _opponent_slate(self, match: Match, player: str) -> Slate | None:
        if not match.records:
            return None
        last: RoundRecord = match.records[-1]
        return last.slates[match.opponent(player)]

    def _placed_against(self, match: Match, player: str) -> Slate | None:
        """The slate it places its digits against (the opponent's last; None: by role alone)."""
        return self._opponent_slate(match, player)

    def _arrange(self, match: Match, player: str) -> None:
        shop = match.shop(player)
        target = arrange(shop.slate, self._placed_against(match, player), match.focus[player])
        for cell in range(1, 9):
            want = target[cell]
            if shop.slate[cell] == want:
                continue
            src = next(c for c in range(cell + 1, 9) if shop.slate[c] == want)
            match.swap(player, cell, src)

    def _shop_turn(self, match: Match, player: str) -> None:
        shop = match.shop(player)
        focus = match.focus[player]
        rng = self._rng("shop", match.round)
        cheapest = min(shop.settings.tier_costs)
        cap = self.worth_cap(match, player)
        rerolls = 0
        while True:
            self._merge_all(match, player)
            worth = slate_cost(shop.slate)
            offers = [(i + 1, o.key) for i, o in enumerate(shop.offers) if o is not None
                      and (cap is None or worth + BY_KEY[o.key].cost <= cap)]
            buy = self.best_buy(shop, offers, focus, rng)
            if buy is not None:
                if buy.sell is not None:
                    match.sell(player, buy.sell)
                match.buy(player, buy.slot, buy.cell)
                continue
            if (rerolls < MAX_REROLLS and shop.gold >= shop.settings.reroll_cost + cheapest
                    and (cap is None or worth + cheapest <= cap)
                    and not all(o is not None and o.frozen for o in shop.offers)):
                match.reroll(player)
                rerolls += 1
                continue
            break
        self._merge_all(match, player)
        # Freeze what it could not pay for yet but wants; let go of frozen offers it no longer
        # wants, so they do not block the slots.
        view = _View.of(shop.slate, focus)
        for i, o in enumerate(shop.offers):
            if o is None:
                continue
            want = self._offer_value(o.key, view, 0.0) >= 4.0
            if want and not o.frozen:
                match.freeze(player, i + 1)
            elif o.frozen and not want:
                match.unfreeze(player, i + 1)

    def _draft_pick(self, match: Match, player: str) -> None:
        assert match.draft is not None
        shop = match.shop(player)
        rng = self._rng(f"pick{match.draft.turn}", match.round)
        row = [(i + 1, k) for i, k in enumerate(match.draft.row) if k is not None]
        buy = self.best_buy(shop, row, match.focus[player], rng)
        if buy is None:
            match.pass_pick(player)
            return
        if buy.sell is not None:
            match.sell(player, buy.sell)
        match.pick(player, buy.slot, buy.cell)

    def act(self, match: Match, player: str, ghost_pool: Iterable[Ghost] = ()) -> bool:
        """Do what the bot can do now in the match: give its Focus score, shop, pick (draft),
        end its turn. Returns False when it has to wait for the other player."""
        if match.over:
            return False
        stage = match.stage(player)
        if stage == "focus":
            match.submit_focus(player, self.focus_score(match.round))
            return True
        if stage != "shop":
            return False
        if match.draft is None:
            self._shop_turn(match, player)
        elif match.picker() == player:
            self._draft_pick(match, player)
            return True
        elif match.picks_left(player):
            return False
        self._merge_all(match, player)
        self._arrange(match, player)
        match.end_turn(player, ghost_pool)
        return True


def play_bot_match(seed: int | str = 0, settings: MatchSettings | None = None, *,
                   bots: list[BotPlayer] | None = None, solo: bool = False) -> Match:
    """A whole match between two bot players (or one bot against the built-in ghosts)."""
    players = ["A"] if solo else ["A", "B"]
    bots = bots or [BotPlayer(f"{seed}/bot/{p}") for p in players]
    match = Match.new(players, seed=seed, settings=settings)
    while not match.over:
        moved = False
        for p, bot in zip(players, bots, strict=True):
            moved = bot.act(match, p) or moved
        if not moved:
            raise RuntimeError("bot players are stuck")  # a bug, never a rule
    return match
