"""The levels of a solo match: who plays the shadow at gentle, fair and strong, and how "adapt"
chooses one from a member's recent results.

Measured, not guessed (``python -m tools.ladder.digits_levels``, figures in docs/benchmarks.md):
the baseline player (:class:`bot.digits.baseline.BotPlayer`, a steady student's stand-in) alone
against the shadow of each level, over 200 seeds, should win about 70 % at gentle, 40–60 % at
fair, at most 25 % at strong. The levels differ in who shops for the shadow, nothing else: the
same rules, the same shop, the same view of the member's slates.

- **gentle**: the baseline player answering its Focus questions right half the time (3 of 6 on
  average, where the baseline answers 4.5): about 1.5 gold less a round, so fewer and later
  merges, bought and placed by the same rules;
- **fair**: the baseline player itself, a match of equals;
- **strong**: the stronger player (:class:`bot.digits.strategy.OddsPlayer`, placements tried out in
  simulated battles), the shadow of every solo match before levels.

The ghosts drawn from the server's pool follow the level too (``bot.digits.ghosts.fits_level``).

**adapt** (:func:`adapt`): the level of the member's last solo match (fair for a first one), one
step gentler after two losses in a row at that level, one step stronger after two wins in a row
at that level (a draw, or a match at another level, breaks the run): two results at a level
before it changes again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from bot.digits.baseline import BotPlayer
from bot.digits.ghosts import LEVELS
from bot.digits.match import Match, ShadowPlayer
from bot.digits.shop import MatchSettings
from bot.digits.strategy import OddsPlayer

__all__ = ["ADAPT", "CHOICES", "DEFAULT_LEVEL", "GENTLE_ACCURACY", "LEVELS", "SHADOWS", "Adapted",
           "adapt", "play_solo", "shadow_player", "solo_match"]

DEFAULT_LEVEL = "fair"
ADAPT = "adapt"
#: What a member may ask for: a level, or "adapt".
CHOICES = (*LEVELS, ADAPT)
#: The gentle shadow's chance of answering a Focus question right (the baseline's is 0.75).
GENTLE_ACCURACY = 0.5

#: Who plays the shadow at each level (a seed gives the player; see the module's docstring).
SHADOWS: dict[str, ShadowPlayer] = {
    "gentle": partial(BotPlayer, accuracy=GENTLE_ACCURACY),
    "fair": BotPlayer,
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


def play_solo(seed: int | str, level: str, settings: MatchSettings | None = None) -> Match:
    """One whole solo match of the baseline player against the shadow at ``level`` (what
    ``python -m bot.digits match --solo --level LEVEL --seed N`` prints): no ghost pool, so the
    shadow is met every round."""
    match = solo_match(PLAYER, level, seed=seed, settings=settings)
    bot = BotPlayer(f"{seed}/bot/{PLAYER}")
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
        return Adapted(DEFAULT_LEVEL, "first")
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
