"""The odds a player is shown: a calibrated forecast of the battle to come.

:func:`bot.digits.odds.odds_for_match` reckons a slate against what the opponent fielded *last*
round; but the battle is fought after the opponent's shop turn of *this* round, and a player
nearly always buys in it. Measured on bot-against-bot challenges those odds were overconfident
(a Brier skill of −0.6 against always saying the base rate: ``python -m
tools.bench.digits_calibration``, ``docs/benchmarks.md``). The forecast here:

1. **Whom the player will fight** (:func:`likely_foes`): in a challenge (and against the shadow of
   a solo match, which shops alongside the member), the opponent's last slate as it is, and
   ``GROWN`` copies of it grown by one shop turn as players usually buy at that round — the
   baseline player's buying rules (:class:`bot.digits.baseline.BotPlayer`) on random offers, with
   the gold it had left plus the round's income for a Focus score drawn from its scores so far,
   placed as the baseline places against the player's last slate. Every draw is seeded by the
   match, the player, the round and the copy: asking again gives the same figures. In round 1
   the copies grow from an empty slate. Alone against the server's ghosts of the round, the
   ghosts are already slates of this round: they are taken as they are.
2. **The raw odds** (:func:`bot.digits.odds.odds`) of the slate as it stands against those foes,
   equally likely.
3. **The calibration** (:func:`calibrate`), a multinomial Platt scaling of the raw chances
   ``p`` (each first kept off 0 and 1: ``p' = (p + EPS) / (1 + 3 EPS)``): ``q_k ∝ exp(A ×
   log p'_k + B_k)`` for k = win, draw, loss (``B_win`` = 0), so the three are in [0, 1] and sum
   to 1, and with ``A`` > 0 a higher raw chance of winning (the draw unchanged) gives a higher
   forecast. ``A`` and ``B`` are fitted (the least log loss) for each kind of opponent in
   :data:`CALIBRATION` on bot-against-bot challenges and solo matches by ``python -m
   tools.bench.digits_calibration --fit``, and checked on other seeds. The server's ghosts of a
   round are what the battle really draws from, so their odds are not recalibrated.

The opponent's chance of a right Focus answer is its scores so far with one round of
``DEFAULT_ACCURACY`` added (:func:`prior_accuracy`): with no score yet, Laplace's 50 % would make
it buy with too little gold.

Pure and deterministic like the rest of the engine.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from math import exp, log
from typing import Any

from bot.digits.battle import fight, opening_effects
from bot.digits.ghosts import Ghost
from bot.digits.match import GHOST, Match
from bot.digits.odds import (
    DEFAULT_ACCURACY,
    DEFAULT_BATTLES,
    Battles,
    Foe,
    Odds,
    accuracy_of,
    as_foe,
    ghost_candidates,
    match_in_play,
    odds,
    outcomes,
)
from bot.digits.shop import FOCUS_MAX, MatchSettings
from bot.digits.slate import Slate
from bot.digits.strategy import grow

#: Copies of the opponent's slate grown by one shop turn (besides the slate as it is).
GROWN = 16

#: Raw chances are kept this far off 0 and 1 before their logarithm (module docstring, step 3).
EPS = 0.01

# The calibration (module docstring, step 3): (A, B_draw, B_loss) by kind of opponent, fitted by
# ``python -m tools.bench.digits_calibration --fit`` (docs/benchmarks.md, "Odds that forecast").
# Fitted 2026-12-01 on 3,009 forecasts (150 challenges, 100 solo matches, seed calibration/fit).
CALIBRATION: dict[str, tuple[float, float, float]] = {
    "challenge": (0.778, -0.141, 0.098),
    "shadow": (0.422, -0.721, 2.023),
    # The solo levels' own (2026-12-01, 150 solo matches at each level, seed calibration/fit,
    # ``--level gentle|fair --fit``); strong's shadow is the one "shadow" was fitted on.
    "shadow/gentle": (0.778, -0.470, -0.368),
    "shadow/fair": (0.860, -0.350, 0.152),
}
#: The calibration's parameters that change nothing but keep the chances off 0 and 1.
IDENTITY = (1.0, 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class Forecast:
    """The calibrated chances (win, draw, loss; 0 to 1, summing to 1) of the battle to come, the
    raw odds they come from, and what was assumed: ``kind`` "challenge" or "shadow" when the
    opponent was assumed to shop as players usually do at ``round``, "ghosts" when the foes
    were taken as they are (the server's ghosts of the round)."""

    win: float
    draw: float
    loss: float
    raw: Odds
    round: int
    kind: str
    foes: int = 1  # the opponents reckoned with
    copies: int = 0  # of them, slates grown by a shop turn (the others are taken as they are)

    @property
    def grown(self) -> bool:
        """Whether the opponent was assumed to shop before the battle."""
        return self.kind != "ghosts"

    def rounded(self) -> tuple[int, int, int]:
        """Whole percentages that still add up to 100 (largest remainders get the last units)."""
        shown = Odds(100 * self.win, 100 * self.draw, 100 * self.loss, 1, 1).rounded(0)
        return int(shown[0]), int(shown[1]), int(shown[2])


def features(win: float, draw: float, loss: float) -> tuple[float, float, float]:
    """``log p'`` of the raw chances (module docstring, step 3)."""
    raw = (win, draw, loss)
    if any(not 0 <= p <= 1 for p in raw) or abs(sum(raw) - 1) > 1e-6:
        raise ValueError(f"raw chances are 0 to 1 and sum to 1, not {raw!r}")
    win_f, draw_f, loss_f = (log((p + EPS) / (1 + 3 * EPS)) for p in raw)
    return win_f, draw_f, loss_f


def calibrate(win: float, draw: float, loss: float,
              params: tuple[float, float, float] = IDENTITY) -> tuple[float, float, float]:
    """The calibrated (win, draw, loss) of raw chances (0 to 1, summing to 1) with ``params``
    (A, B_draw, B_loss) (module docstring, step 3)."""
    a, b_draw, b_loss = params
    if not a > 0:
        raise ValueError(f"the calibration's slope A is above 0, not {a!r}")
    logits = [a * x + b for x, b in zip(features(win, draw, loss), (0.0, b_draw, b_loss),
                                        strict=True)]
    top = max(logits)
    e = [exp(v - top) for v in logits]
    total = sum(e)
    return e[0] / total, e[1] / total, e[2] / total


def prior_accuracy(scores: Iterable[int]) -> float:
    """A player's chance of a right Focus answer: its scores with one round of
    ``DEFAULT_ACCURACY`` added (module docstring)."""
    scores = list(scores)
    return (sum(scores) + FOCUS_MAX * DEFAULT_ACCURACY) / (FOCUS_MAX * (len(scores) + 1))


def grown_foes(last: Slate, gold: int, accuracy: float, round_: int, settings: MatchSettings,
               their_view: Slate | None, seed: str, copies: int = GROWN) -> list[Foe]:
    """The opponent's last slate as it is (its score drawn with ``accuracy``; left out when it
    is empty) and ``copies`` of it grown by one shop turn, each with a Focus score drawn with
    ``accuracy`` (the same score gives its gold and fights its battle)."""
    foes = [Foe(last, None, accuracy)] if len(last) else []
    for k in range(copies):
        rng = random.Random(f"{seed}/{k}")
        focus = sum(rng.random() < accuracy for _ in range(FOCUS_MAX))
        foes.append(Foe(grow(last, gold, round_, settings, focus, their_view, f"{seed}/{k}"),
                        focus))
    return foes


def likely_foes(match: Match, player: str, ghost_pool: Iterable[Ghost] = (), *,
                copies: int = GROWN) -> tuple[list[Foe], str]:
    """Whom ``player`` will likely fight in this round's battle (module docstring, step 1), and
    the kind of opponent: "challenge", "shadow" (both grown) or "ghosts" (taken as they are)."""
    seed = f"{match.seed}/forecast/{player}/{match.round}"
    mine = match.records[-1].slates[player] if match.records else None
    if match.solo:
        ghosts = ghost_candidates(ghost_pool, match.round, player)
        if match.shadow is None or not ghosts[0].builtin:
            return [as_foe(g) for g in ghosts], "ghosts"
        shown = [r.focus[GHOST] for r in match.records if r.ghost is not None and r.ghost.shadow]
        return grown_foes(match.shadow.slate, match.shadow.gold, prior_accuracy(shown),
                          match.round, match.settings, mine, seed, copies), "shadow"
    foe = match.opponent(player)
    accuracy = prior_accuracy(r.focus[foe] for r in match.records)
    if match.records:
        last = match.records[-1]
        slate, gold = last.slates[foe], last.gold_left.get(foe, 0)
    else:
        slate, gold = Slate(), 0
    return grown_foes(slate, gold, accuracy, match.round, match.settings, mine, seed,
                      copies), "challenge"


def calibration_key(match: Match, kind: str) -> str:
    """Which calibration a forecast takes: the solo level's own where one was fitted (the shadow
    is another player at each level, ``bot.digits.levels``), else its kind's ("shadow" was
    fitted on the shadow of before the levels, the odds player: strong's)."""
    if kind == "shadow" and match.level is not None and f"shadow/{match.level}" in CALIBRATION:
        return f"shadow/{match.level}"
    return kind


def forecast_for_match(match_state: Match | Mapping[str, Any], player: str,
                       ghost_pool: Iterable[Ghost] = (), *, battles: int = DEFAULT_BATTLES,
                       copies: int = GROWN, calibrated: bool = True) -> Forecast:
    """The forecast of ``player``'s slate as it stands now in this round's battle (module
    docstring). ``calibrated=False`` gives the raw odds as the chances (for the calibration).

    Refused (``DomainError``): ``match.unknown_player``, ``match.over``."""
    match = match_in_play(match_state, player)
    foes, kind = likely_foes(match, player, ghost_pool, copies=copies)
    own = accuracy_of(r.focus[player] for r in match.records)
    rng = random.Random(f"{match.seed}/forecast/{player}/{match.round}")
    raw = odds(match.shops[player].slate, match.focus.get(player), foes, battles=battles,
               rng=rng, accuracy=own)
    chances = (raw.win / 100, raw.draw / 100, raw.loss / 100)
    key = calibration_key(match, kind)
    if calibrated and key in CALIBRATION:
        chances = calibrate(*chances, CALIBRATION[key])
    return Forecast(*chances, raw=raw, round=match.round, kind=kind, foes=len(foes),
                    copies=copies if kind != "ghosts" else 0)


@dataclass(frozen=True, slots=True)
class Example:
    """One battle the forecast counts, fought again with its log: the player's slate on the left,
    the foe's on the right, and each side's Focus score in it."""

    foe: Slate
    focus: int
    foe_focus: int
    result: dict[str, Any]  # BattleResult.to_json() plus the opening effects, as replays draw


def example_battles(match_state: Match | Mapping[str, Any], player: str,
                    ghost_pool: Iterable[Ghost] = (), *, copies: int = GROWN
                    ) -> tuple[Example | None, Example | None]:
    """One battle the slate wins and one it loses among those the forecast counts (the same foes
    and Focus scores, :func:`bot.digits.odds.outcomes`), the likeliest of each first, or None
    when the slate never wins (never loses) there: a student sees where the chances come from."""
    match = match_in_play(match_state, player)
    foes, _ = likely_foes(match, player, ghost_pool, copies=copies)
    own = accuracy_of(r.focus[player] for r in match.records)
    slate = match.shops[player].slate
    law = sorted(outcomes(slate, match.focus.get(player), foes, own), key=lambda kw: -kw[1])
    fights = Battles(slate)
    found: dict[str, Example] = {}
    for key, _weight in law:
        winner = fights.winner(key)
        if winner in found or winner == "draw":
            continue
        foe, mine, theirs = key
        result = fight(slate, foe, mine, theirs).to_json(full=True)
        result["effects"] = opening_effects(slate, foe, mine, theirs)
        found[winner] = Example(foe, mine, theirs, result)
        if len(found) == 2:
            break
    return found.get("left"), found.get("right")
