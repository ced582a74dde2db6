"""The levels of a solo match: who plays the shadow at gentle, fair and strong, and how "adapt"
chooses one from a member's recent results.

Measured, not guessed, on three player models (:mod:`bot.digits.players`: the baseline, a steady
student's stand-in; greedy, a quick child; novice), 100 seeds each (``python -m
tools.ladder.digits_models``, figures in docs/benchmarks.md). The aims: at gentle, at least 75 %
won by greedy, 55 % by novice, 70 % by the baseline, and a lead of 5 lives or more after round 5
kept (won) in at least 90 % of those matches; at fair, 40–60 % for greedy and the baseline; at
strong, at most 30 % for the baseline. The levels differ in who shops for the shadow, nothing
else: the same rules, the same shop, the same view of the member's slates.

- **gentle** (:data:`GENTLE`): the baseline player answering its Focus questions right half the
  time, and holding back every round: its slate after the shop is worth (what its digits cost)
  at most 7/10 of the slate the member fielded last round, plus 4 gold. Why it holds back: a
  quick child's slate stops growing once it is full (every digit as dear as the dearest offer, no
  copies to merge, unspent gold piling up), while a shadow that only earns less still grows every
  round; from round 5 a lost battle costs 3 lives, so a shadow that overtakes a stalled slate
  around round 6 took a 10–1 lead back in four battles. Held to the member's slate, it stalls
  when the member stalls.
- **fair** (:data:`FAIR`, :class:`Matched`): a match of equals, read from how the member plays.
  Against a member who places its digits (:func:`places`: it moved a digit to another cell in at
  least half of the rounds seen), the baseline player itself; against one who leaves its digits
  where they were bought, the baseline held to the member's last slate (no dearer) and placing
  its digits by their roles alone, without reading the member's slate. Why: the baseline placing
  against the member's last slate beat a quick child who never places three matches in four, a
  steady student one in two; one shadow for both, held back by a share or by its lead in lives,
  moved both results together and never put both in 40–60 %.
- **strong**: the stronger player (:class:`bot.digits.strategy.OddsPlayer`, placements tried out in
  simulated battles), the shadow of every solo match before levels.

The ghosts drawn from the server's pool follow the level too (``bot.digits.ghosts.fits_level``:
at gentle, no dearer than the gentle shadow's slate of the round).

**adapt** (:func:`adapt`): the level of the member's last solo match (gentle for a first one),
one step gentler after two losses in a row at that level, one step stronger after two wins in a
row at that level (a draw, or a match at another level, breaks the run): two results at a level
before it changes again. A member's first solo match is gentle too: it is the default level.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from itertools import pairwise

from bot.digits.baseline import BotPlayer
from bot.digits.ghosts import LEVELS, slate_cost
from bot.digits.match import Match, ShadowPlayer
from bot.digits.players import player_model
from bot.digits.shop import MatchSettings
from bot.digits.slate import Slate
from bot.digits.strategy import OddsPlayer

__all__ = ["ADAPT", "CHOICES", "DEFAULT_LEVEL", "FAIR", "GENTLE", "GENTLE_ACCURACY", "LEVELS",
           "SHADOWS", "Adapted", "HeldBack", "Matched", "adapt", "moved", "places", "play_solo",
           "shadow_player", "solo_match"]

DEFAULT_LEVEL = "gentle"
ADAPT = "adapt"
#: What a member may ask for: a level, or "adapt".
CHOICES = (*LEVELS, ADAPT)
#: The gentle shadow's chance of answering a Focus question right (the baseline's is 0.75).
GENTLE_ACCURACY = 0.5


class HeldBack(BotPlayer):
    """The baseline player holding back: after its shop turn its slate is worth
    (:func:`bot.digits.ghosts.slate_cost`) at most ``share`` of the slate its opponent fielded
    last round, plus ``ahead`` gold (``ahead`` alone in round 1). It answers its Focus questions
    right with probability ``accuracy``; the gold it does not spend stays in its shop."""

    def __init__(self, seed: int | str = 0, accuracy: float = 0.75, *, share: float = 1.0,
                 ahead: int = 0, leading: int | None = None) -> None:
        super().__init__(seed, accuracy)
        self.share = share
        self.ahead = ahead
        self.leading = leading

    def worth_cap(self, match: Match, player: str) -> int | None:
        if self.leading is not None and (
                match.lives[player] - match.lives[match.opponent(player)] < self.leading):
            return None
        seen = self._opponent_slate(match, player)
        return int(self.share * (slate_cost(seen) if seen is not None else 0)) + self.ahead


def moved(before: Slate, after: Slate) -> bool:
    """Whether a digit was moved between two slates a player fielded one round apart: a cell lost
    its kind of digit, and that kind stands in a cell that did not hold it before. Buying, selling
    and merging do not count (a merge lands on the front-most copy, which held the kind), except
    a merge followed by a new copy bought into another cell: rare, and :func:`places` reads half
    of the rounds for that reason."""
    was = _cells_by_key(before)
    now = _cells_by_key(after)
    for key, cells in was.items():
        if now.get(key, set()) >= cells:
            continue  # every cell that held this kind still holds it
        if now.get(key, set()) - cells:
            return True
    return False


def _cells_by_key(slate: Slate) -> dict[str, set[int]]:
    cells: dict[str, set[int]] = {}
    for cell, piece in slate.items():
        cells.setdefault(piece.key, set()).add(cell)
    return cells


def places(slates: Sequence[Slate]) -> bool:
    """Whether a player who fielded ``slates`` (one a round, oldest first) places its digits: it
    moved one (:func:`moved`) in at least half of the rounds after the first. Before two slates
    are seen, yes (the shadow plays as against a player who does)."""
    seen = [moved(a, b) for a, b in pairwise(slates)]
    return not seen or 2 * sum(seen) >= len(seen)


class Matched(HeldBack):
    """The fair shadow: the baseline player against a member who places its digits; against one
    who does not (:func:`places`, read from the slates the member fielded, round after round), it
    holds back (:class:`HeldBack`: at most ``share`` of the member's last slate, plus ``ahead``
    gold) and places its own digits by their roles alone, without reading the member's last slate.

    Why: the baseline placing its digits against the member's last slate beats a player whose
    digits stand where they were bought far more often than one who moves them (a quick child
    who never moved a digit won a quarter of its matches against it, a steady student half), and
    holding back by lives or by a share alone moved both players' results together."""

    def _places(self, match: Match, player: str) -> bool:
        member = match.opponent(player)
        return places([record.slates[member] for record in match.records])

    def worth_cap(self, match: Match, player: str) -> int | None:
        return None if self._places(match, player) else super().worth_cap(match, player)

    def _placed_against(self, match: Match, player: str) -> Slate | None:
        return super()._placed_against(match, player) if self._places(match, player) else None


#: The gentle shadow: always held back to 7/10 of the member's last slate plus 4 gold (chosen from
#: a grid over seeds 0–99 of 0.7–0.9 and 0–6 gold: the one with the widest margins on every aim).
GENTLE = partial(HeldBack, accuracy=GENTLE_ACCURACY, share=0.7, ahead=4)
#: The fair shadow: the baseline against a member who places its digits; against one who does
#: not, held to what the member fielded last round and placing by roles alone (chosen on seeds
#: 200–399 among shares 0.5–1.4 of the member's slate, with or without its lead in lives).
FAIR = partial(Matched, share=1.0)

#: Who plays the shadow at each level (a seed gives the player; see the module's docstring).
SHADOWS: dict[str, ShadowPlayer] = {
    "gentle": GENTLE,
    "fair": FAIR,
    "strong": OddsPlayer,
}

#: The seat of the baseline player in ``play_solo`` (the member's, in a real match).
PLAYER = "A"


def shadow_player(level: str) -> ShadowPlayer:
    """Who plays the shadow at ``level``."""
    try:
        return SHADOWS[level]
    except KeyError:
        raise ValueError(f"a level is one of {LEVELS}, not {level!r}") from None


def solo_match(player: str, level: str, *, seed: int | str = 0,
               settings: MatchSettings | None = None) -> Match:
    """A new solo match of ``player`` against the shadow at ``level``."""
    return Match.new([player], seed=seed, settings=settings, shadow=shadow_player(level),
                     level=level)


def play_solo(seed: int | str, level: str, settings: MatchSettings | None = None, *,
              player: str = "baseline") -> Match:
    """One whole solo match of the player model ``player`` (:data:`bot.digits.players.PLAYERS`;
    the baseline player by default) against the shadow at ``level`` (what ``python -m bot.digits
    match --solo --level LEVEL --seed N --player P`` prints): no ghost pool, so the shadow is met
    every round."""
    bot = player_model(player)(f"{seed}/bot/{PLAYER}")
    match = solo_match(PLAYER, level, seed=seed, settings=settings)
    while not match.over:
        if not bot.act(match, PLAYER):
            raise RuntimeError("the bot player is stuck")  # a bug, never a rule
    return match


def step(level: str, by: int) -> str:
    """The level ``by`` steps stronger (negative: gentler), kept within the levels."""
    return LEVELS[min(max(LEVELS.index(level) + by, 0), len(LEVELS) - 1)]


@dataclass(frozen=True, slots=True)
class Adapted:
    """The level "adapt" chose, and why: ``reason`` is ``first`` (no solo match at a level yet),
    ``won_two`` / ``lost_two`` (one step stronger / gentler than ``last``), ``top`` / ``bottom``
    (two wins at strong, two losses at gentle: it stays), or ``kept`` (no run of two)."""

    level: str
    reason: str
    last: str | None = None


def adapt(history: Sequence[tuple[str | None, str | None]]) -> Adapted:
    """The level for the next solo match from the member's finished ones, oldest first: (the
    level it was played at, or None for a match before levels; "win", "loss" or "draw")."""
    played = [(level, result) for level, result in history if level in LEVELS]
    if not played:
        return Adapted(LEVELS[0], "first")
    last = played[-1][0]
    assert last is not None
    run: list[str | None] = []
    for level, result in reversed(played):
        if level != last or len(run) == 2:
            break
        run.append(result)
    if run == ["win", "win"]:
        return Adapted(step(last, 1), "won_two" if last != LEVELS[-1] else "top", last)
    if run == ["loss", "loss"]:
        return Adapted(step(last, -1), "lost_two" if last != LEVELS[0] else "bottom", last)
    return Adapted(last, "kept", last)
