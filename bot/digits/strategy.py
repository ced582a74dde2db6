"""A stronger bot shop player for The 20 Digits: it tries its choices out in simulated battles.

:class:`OddsPlayer` plays a side of a match like :class:`bot.digits.player.BotPlayer` (the
baseline: same Focus accuracy, same actions, sees only what a person sees), but judges its shop
turn by battles fought in its head against the opponents it is likely to meet this round:

- **Whom it expects** (:meth:`OddsPlayer.likely_foes`): alone, a sample of the ghosts the round may
  bring (:func:`bot.digits.odds.ghost_candidates`); in a challenge, the slate the challenger
  fielded last round, as it is and grown by one shop turn of a steady player (the baseline's
  buying rules on random offers, with the gold the challenger's Focus scores suggest).
- **What a slate is worth** (:class:`Judge`): the mean, over those opponents, of each battle's
  result (+1 won, 0 draw, −1 lost) plus a small share of the margin (the share of HP each side
  still has at the end), so that a closer loss scores above a rout; plus the baseline's value of
  the digits owned (``piece_value``), which stands for the rounds to come.
- **Buying**: at each step it scores every purchase it can make (each offer, merged onto a copy or
  put in a free cell, or replacing any digit of a full slate), and takes the best while it raises
  the score; it rerolls (a few times at most) while gold is left and no purchase helps.
- **Placing**: starting from the baseline's placement, it swaps pairs of cells (a digit with a free
  cell is a move) while a swap raises the score.

Every battle is deterministic and every choice is seeded by the bot's seed and the round, so a
match replays the same; the work of a turn is bounded by a number of battles (``budget``), not by
the clock, for the same reason.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from bot.digits.battle import fight
from bot.digits.ghosts import Ghost, builtin_ghost
from bot.digits.match import Match
from bot.digits.odds import DEFAULT_ACCURACY, accuracy_of, ghost_candidates
from bot.digits.player import BotPlayer, arrange, piece_value
from bot.digits.shop import FOCUS_MAX, Shop
from bot.digits.slate import Piece, Slate

# How a battle's margin (share of HP left to each side) weighs against its result (±1).
MARGIN = 0.3
# Weight of the baseline's value of the digits owned (the rounds to come) against this round's
# battles.
MATERIAL = 0.02


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


def _hp(side: dict[int, dict[str, int]]) -> int:
    return sum(max(s["hp"], 0) for s in side.values())


class Judge:
    """Scores a slate against the likely opponents; each battle is fought once per turn."""

    def __init__(self, foes: list[Likely], focus: int) -> None:
        total = sum(f.weight for f in foes)
        self.foes = [(f.slate, f.focus, f.weight / total) for f in foes]
        self.focus = focus
        self.cache: dict[tuple[Slate, Slate, int], float] = {}
        self.scores: dict[Slate, float] = {}
        self.fought = 0

    def battle(self, mine: Slate, foe: Slate, focus: int) -> float:
        key = (mine, foe, focus)
        v = self.cache.get(key)
        if v is None:
            r = fight(mine, foe, self.focus, focus, log=False)
            self.fought += 1
            v = {"left": 1.0, "right": -1.0, "draw": 0.0}[r.winner]
            mine0, foe0 = _hp(r.opening["left"]), _hp(r.opening["right"])
            if mine0 and foe0:
                v += MARGIN * (_hp(r.survivors["left"]) / mine0 - _hp(r.survivors["right"]) / foe0)
            self.cache[key] = v
        return v

    def fights(self, mine: Slate) -> float:
        """The mean result of the battles against the likely opponents, −1.3 to 1.3."""
        return sum(w * self.battle(mine, s, f) for s, f, w in self.foes)

    def score(self, mine: Slate) -> float:
        s = self.scores.get(mine)
        if s is None:
            material = sum(piece_value(p, self.focus) for _, p in mine.items())
            s = self.scores[mine] = self.fights(mine) + MATERIAL * material
        return s


def swaps(slate: Slate) -> Iterable[Slate]:
    for a in range(1, 9):
        for b in range(a + 1, 9):
            pa, pb = slate[a], slate[b]
            if pa == pb:  # both empty, or the same digit: nothing changes
                continue
            yield slate.with_cell(a, pb).with_cell(b, pa)


def improve(slate: Slate, judge: Judge, budget: int) -> Slate:
    """Hill-climbing on the placement: take any swap of two cells that raises the score, until none
    does or ``budget`` battles have been fought."""
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
    """The stronger bot player (see the module's docstring). ``foes`` is how many likely opponents
    it weighs a slate against; ``budget`` the battles it may fight in one shop turn."""

    def __init__(self, seed: int | str = 0, accuracy: float = 0.75, *, foes: int = 6,
                 budget: int = 4000, max_rerolls: int = 3) -> None:
        super().__init__(seed, accuracy)
        self.foes = foes
        self.budget = budget
        self.max_rerolls = max_rerolls
        self._pool: list[Ghost] = []

    # -- whom it expects ----------------------------------------------------------------------

    def likely_foes(self, match: Match, player: str, ghost_pool: Iterable[Ghost] = ()
                    ) -> list[Likely]:
        rng = self._rng("foes", match.round)
        if match.solo:
            ghosts = ghost_candidates(ghost_pool, match.round, player)
            if len(ghosts) > self.foes:
                ghosts = rng.sample(ghosts, self.foes)
            return [Likely(g.slate, g.focus) for g in ghosts]
        foe = match.opponent(player)
        if match.records:
            last = match.records[-1]
            seen = last.slates[foe]
            mine = last.slates[player]
            accuracy = accuracy_of(r.focus[foe] for r in match.records)
        else:
            seen, mine, accuracy = Slate(), None, DEFAULT_ACCURACY
        focus = round(FOCUS_MAX * accuracy)
        gold = match.settings.income(focus)
        out = [Likely(seen, focus)] if len(seen) else [Likely(builtin_ghost(match.round).slate, 3)]
        for k in range(self.foes - len(out)):
            grown = grow(seen, gold, match, mine, focus, f"{self.seed}/grow/{match.round}/{k}")
            out.append(Likely(grown, focus))
        return out

    # -- a turn -------------------------------------------------------------------------------

    def _judge(self, match: Match, player: str) -> Judge:
        return Judge(self.likely_foes(match, player, self._pool), match.focus[player])

    def _arrange(self, match: Match, player: str) -> None:
        shop = match.shop(player)
        judge = self._judge(match, player)
        start = arrange(shop.slate, self._opponent_slate(match, player), match.focus[player])
        target = improve(start, judge, self.budget)
        self._place(match, player, target)

    def _place(self, match: Match, player: str, target: Slate) -> None:
        shop = match.shop(player)
        for cell in range(1, 9):
            want = target[cell]
            if shop.slate[cell] == want:
                continue
            src = next(c for c in range(cell + 1, 9) if shop.slate[c] == want)
            match.swap(player, cell, src)

    def act(self, match: Match, player: str, ghost_pool: Iterable[Ghost] = ()) -> bool:
        self._pool = list(ghost_pool)
        try:
            return super().act(match, player, self._pool)
        finally:
            self._pool = []


def grow(slate: Slate, gold: int, match: Match, their_view: Slate | None, focus: int,
         seed: str) -> Slate:
    """A slate grown by one shop turn of the baseline's buying rules, with ``gold`` and random
    offers (seeded by ``seed``), placed as the baseline places (facing ``their_view``, the slate it
    saw last)."""
    shop = Shop(seed, match.settings, slate=slate)
    shop.start_round(match.round, gold)
    bot = BotPlayer(seed)
    rng = random.Random(seed)
    cheapest = min(shop.settings.tier_costs)
    rerolls = 0
    while True:
        shop.slate = merged(shop.slate)
        offers = [(i + 1, o.key) for i, o in enumerate(shop.offers) if o is not None]
        buy = bot._best(shop, offers, focus, rng)
        if buy is not None:
            if buy.sell is not None:
                shop.sell(buy.sell)
            shop.buy(buy.slot, buy.cell)
            continue
        if rerolls < 2 and shop.gold >= shop.settings.reroll_cost + cheapest:
            shop.reroll()
            rerolls += 1
            continue
        break
    return arrange(merged(shop.slate), their_view, focus)


__all__ = ["Judge", "Likely", "OddsPlayer", "grow", "improve", "merged"]
