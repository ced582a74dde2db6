"""A stronger bot shop player for The 20 Digits: it tries its placements out in simulated battles.

:class:`OddsPlayer` plays a side of a match like :class:`bot.digits.baseline.BotPlayer` (the
baseline): the same Focus accuracy, the same actions, the same view (its shop, the slates fielded
in the rounds already fought, the scores given), and the same buying rules. What it adds is a
placement worked out by battles fought in its head against the opponents it is likely to meet
this round:

- **Whom it expects** (:meth:`OddsPlayer.likely_foes`): alone, the ghosts the round may bring
  (:func:`bot.digits.odds.ghost_candidates`, a sample of ``foes`` of them when there are more);
  in a challenge, the slate the challenger fielded last round as it is, and that slate grown by one
  shop turn of a steady player (the baseline's buying rules on random offers, with the gold the
  challenger's Focus scores suggest, placed as the baseline places against the bot's last slate),
  ``foes`` opponents in all. (In round 1, with nothing fielded yet, the built-in ghost of round 1
  and slates grown from nothing.)
- **What a placement is worth** (:class:`Judge`): the mean, over those opponents, of each battle's
  result (+1 won, 0 draw, −1 lost) plus ``margin`` times the difference of the shares of HP each
  side still has at the end, so that a closer loss scores above a rout and a cleaner win above a
  narrow one.
- **Placing** (:func:`improve`): from the baseline's placement, it swaps two cells (a digit and a
  free cell: a move) whenever the swap raises the score, until no swap does or ``budget`` battles
  have been fought.

Why the buying stays the baseline's: choosing each purchase by simulated battles too (every offer,
merged onto a copy, put in a free cell or replacing any digit of a full slate, scored the same way
with a term for the digits' value in rounds to come) was tried and scored no better than the
baseline's buying with this placement, for two to six times the time (docs/benchmarks.md).

Every battle is deterministic and every choice is seeded by the bot's seed and the round, so a
match replays the same; a turn's work is bounded by a number of battles, not by the clock, for the
same reason.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from bot.digits.baseline import MAX_REROLLS, BotPlayer, arrange
from bot.digits.battle import UnitState, fight
from bot.digits.ghosts import Ghost, builtin_ghost
from bot.digits.match import Match
from bot.digits.odds import DEFAULT_ACCURACY, accuracy_of, ghost_candidates
from bot.digits.shop import FOCUS_MAX, MatchSettings, Shop
from bot.digits.slate import Piece, Slate

# How a battle's margin (share of HP left to each side) weighs against its result (±1). Without
# it the placement scored 25 % against the same player with it (docs/benchmarks.md).
MARGIN = 0.3
FOES = 6
BUDGET = 2000
GROWTH_REROLLS = 2


@dataclass(frozen=True, slots=True)
class Likely:
    """An opponent the bot expects, with the Focus score it assumes and the weight it gives it."""

    slate: Slate
    focus: int
    weight: float = 1.0


def merged(slate: Slate) -> Slate:
    """The slate after every merge the baseline makes (a copy onto the front-most equal one)."""
    while True:
        first: dict[Piece, int] = {}
        for c, p in slate.items():
            if p.level < 3 and p in first:
                slate = slate.with_cell(c, None).with_cell(first[p], Piece(p.key, p.level + 1))
                break
            first.setdefault(p, c)
        else:
            return slate


def grow(slate: Slate, gold: int, round_: int, settings: MatchSettings, focus: int,
         their_view: Slate | None, seed: str, *, rerolls: int = MAX_REROLLS) -> Slate:
    """``slate`` after one shop turn of the baseline player's (:class:`BotPlayer`'s buying
    rules, on a bare shop): ``gold`` left from last round plus the income of ``focus``, random
    offers seeded by ``seed``, every merge, the offer worth most bought while one is, a reroll
    (``rerolls`` at most) while gold is left and nothing is worth buying, then placed as the
    baseline places facing ``their_view`` (the slate that player saw last). The forecast
    (:mod:`bot.digits.forecast`) and :meth:`OddsPlayer.likely_foes` both expect this shop turn
    of the opponent."""
    buyer = BotPlayer(seed)
    shop = Shop(seed, settings, gold=gold, slate=slate)
    shop.start_round(round_, settings.income(focus))
    rng = random.Random(seed)
    cheapest = min(settings.tier_costs)
    rerolled = 0
    while True:
        shop.slate = merged(shop.slate)
        offers = [(i + 1, o.key) for i, o in enumerate(shop.offers) if o is not None]
        buy = buyer.best_buy(shop, offers, focus, rng)
        if buy is not None:
            if buy.sell is not None:
                shop.sell(buy.sell)
            shop.buy(buy.slot, buy.cell)
        elif rerolled < rerolls and shop.gold >= settings.reroll_cost + cheapest:
            shop.reroll()
            rerolled += 1
        else:
            return arrange(merged(shop.slate), their_view, focus)


def _share(end: dict[int, UnitState], start: dict[int, UnitState]) -> float:
    """The share of its HP a side still has at the end of a battle (0 for an empty slate)."""
    total = sum(s["hp"] for s in start.values())
    return sum(max(s["hp"], 0) for s in end.values()) / total if total else 0.0


class Judge:
    """Scores a slate against the likely opponents; each battle is fought once (``fought``
    counts them)."""

    def __init__(self, foes: list[Likely], focus: int, *, margin: float = MARGIN) -> None:
        if not foes:
            raise ValueError("a judge needs at least one likely opponent")
        total = sum(f.weight for f in foes)
        self.foes = [(f.slate, f.focus, f.weight / total) for f in foes]
        self.focus = focus
        self.margin = margin
        self.cache: dict[tuple[Slate, Slate, int], float] = {}
        self.scores: dict[Slate, float] = {}
        self.fought = 0

    def battle(self, mine: Slate, foe: Slate, focus: int) -> float:
        """+1, 0 or −1 for a win, a draw or a loss, plus the margin term."""
        key = (mine, foe, focus)
        v = self.cache.get(key)
        if v is None:
            r = fight(mine, foe, self.focus, focus, log=False)
            self.fought += 1
            v = {"left": 1.0, "right": -1.0, "draw": 0.0}[r.winner]
            v += self.margin * (_share(r.survivors["left"], r.opening["left"])
                                - _share(r.survivors["right"], r.opening["right"]))
            self.cache[key] = v
        return v

    def score(self, mine: Slate) -> float:
        """The weighted mean of the battles against the likely opponents."""
        s = self.scores.get(mine)
        if s is None:
            s = self.scores[mine] = sum(w * self.battle(mine, foe, f) for foe, f, w in self.foes)
        return s


def swaps(slate: Slate) -> Iterator[Slate]:
    """Every slate one swap of two cells away (a digit and a free cell: a move)."""
    for a in range(1, 9):
        for b in range(a + 1, 9):
            pa, pb = slate[a], slate[b]
            if pa == pb:  # both empty, or the same digit: nothing changes
                continue
            yield slate.with_cell(a, pb).with_cell(b, pa)


def improve(slate: Slate, judge: Judge, budget: int) -> Slate:
    """Hill-climbing on the placement: take any swap that raises the score, until none does or
    the judge has fought ``budget`` battles."""
    best, score = slate, judge.score(slate)
    better = True
    while better and judge.fought < budget:
        better = False
        for cand in swaps(best):
            s = judge.score(cand)
            if s > score + 1e-9:
                best, score, better = cand, s, True
            if judge.fought >= budget:
                break
    return best


class OddsPlayer(BotPlayer):
    """The stronger bot player (see the module's docstring). ``foes``: how many likely opponents
    it weighs a placement against; ``budget``: the battles it may fight in one shop turn."""

    def __init__(self, seed: int | str = 0, accuracy: float = 0.75, *, foes: int = FOES,
                 budget: int = BUDGET, margin: float = MARGIN) -> None:
        super().__init__(seed, accuracy)
        self.foes = foes
        self.budget = budget
        self.margin = margin
        self._pool: list[Ghost] = []

    # -- whom it expects ----------------------------------------------------------------------

    def likely_foes(self, match: Match, player: str, ghost_pool: Iterable[Ghost] = ()
                    ) -> list[Likely]:
        """The opponents the bot weighs its placement against this round (module docstring)."""
        if match.solo:
            ghosts = ghost_candidates(ghost_pool, match.round, player)
            if len(ghosts) > self.foes:
                ghosts = self._rng("foes", match.round).sample(ghosts, self.foes)
            return [Likely(g.slate, g.focus) for g in ghosts]
        foe = match.opponent(player)
        if match.records:
            last = match.records[-1]
            seen, mine = last.slates[foe], last.slates[player]
            accuracy = accuracy_of(r.focus[foe] for r in match.records)
        else:
            seen, mine, accuracy = Slate(), None, DEFAULT_ACCURACY
        focus = round(FOCUS_MAX * accuracy)
        out = [Likely(seen, focus) if len(seen) else
               Likely(builtin_ghost(match.round).slate, builtin_ghost(match.round).focus)]
        for k in range(self.foes - 1):
            out.append(Likely(self.grow(seen, match, mine, focus, f"{self.seed}/grow/"
                                        f"{match.round}/{k}"), focus))
        return out

    def grow(self, slate: Slate, match: Match, their_view: Slate | None, focus: int,
             seed: str) -> Slate:
        """``slate`` after one shop turn of the baseline's buying rules (:func:`grow`) with no
        gold left over, a Focus score of ``focus`` and at most ``GROWTH_REROLLS`` rerolls."""
        return grow(slate, 0, match.round, match.settings, focus, their_view, seed,
                    rerolls=GROWTH_REROLLS)

    # -- a turn -------------------------------------------------------------------------------

    def placement(self, match: Match, player: str, ghost_pool: Iterable[Ghost] = ()) -> Slate:
        """Where the bot would put its digits now: the baseline's placement improved by swaps
        against the likely opponents."""
        judge = Judge(self.likely_foes(match, player, ghost_pool), match.focus[player],
                      margin=self.margin)
        start = arrange(match.shop(player).slate, self._opponent_slate(match, player),
                        match.focus[player])
        return improve(start, judge, self.budget)

    def _arrange(self, match: Match, player: str) -> None:
        target = self.placement(match, player, self._pool)
        shop = match.shop(player)
        for cell in range(1, 9):
            want = target[cell]
            if shop.slate[cell] != want:
                src = next(c for c in range(cell + 1, 9) if shop.slate[c] == want)
                match.swap(player, cell, src)

    def act(self, match: Match, player: str, ghost_pool: Iterable[Ghost] = ()) -> bool:
        # The pool is needed in the middle of the turn (the placement), not only at its end.
        self._pool = list(ghost_pool)
        try:
            return super().act(match, player, self._pool)
        finally:
            self._pool = []
