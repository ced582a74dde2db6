"""The odds of a battle of The 20 Digits: win, draw and loss percentages of a slate against its
likely opponents, before the battle is fought.

A battle has no randomness: the same two slates with the same Focus scores always give the same
result. What the player does not know before the battle is *whom* it will fight and with *which
Focus score*. So each simulated battle draws, independently, with ``rng``:

1. **the opponent**, uniformly among the ``opponents`` given (the ghosts of the round a solo match
   may meet, exactly as :func:`bot.digits.ghosts.pick_ghost` draws them; or the challenger's last
   slate, a single opponent);
2. **each unknown Focus score** (the opponent's, and the player's own when not given yet), from a
   binomial law: 6 questions, each right with probability ``accuracy``. A known score (a ghost's
   recorded one, a score already given) is used as it is. A score that no Abacus of that side reads
   cannot change the battle, so it is not drawn.

Then the battle is fought (:func:`bot.digits.battle.outcome`, the player on the left: a battle is
the same seen from either side). Draws that repeat the same inputs (same opponent slate, same
scores) repeat the same battle: it is fought once and counted as often as it was drawn. ``Odds``
tells both: ``battles`` (drawn and counted) and ``distinct`` (really fought).

:func:`expected` gives the exact odds (every opponent and every score weighed by its probability,
no drawing); the stronger bot player uses it. :func:`odds_for_match` is what the bot's
``/digits odds`` calls in a shop turn; :func:`likely_opponents` says whom a player of a match is
likely to meet.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

from bot.digits.battle import MAX_FOCUS, outcome
from bot.digits.ghosts import Ghost, builtin_ghost
from bot.digits.match import GHOST, Match
from bot.digits.slate import Slate
from bot.domain import DomainError

DEFAULT_BATTLES = 2000
# The chance of a right Focus answer assumed when nothing is known of a player's scores.
DEFAULT_ACCURACY = 0.75


@dataclass(frozen=True, slots=True)
class Foe:
    """A likely opponent: its slate and its Focus score, ``None`` when unknown (then drawn with
    ``accuracy``, the chance it answers a Focus question right)."""

    slate: Slate
    focus: int | None = None
    accuracy: float = DEFAULT_ACCURACY

    def __post_init__(self) -> None:
        _check_focus(self.focus, "an opponent's Focus score")
        _check_accuracy(self.accuracy)

    def to_json(self) -> dict[str, Any]:
        return {"slate": self.slate.to_json(), "focus": self.focus, "accuracy": self.accuracy}


Opponent = Foe | Ghost | tuple[Slate, int | None]


@dataclass(frozen=True, slots=True)
class Odds:
    """Win, draw and loss percentages (each ``100 × count / battles``; they sum to 100) over
    ``battles`` simulated battles, of which ``distinct`` were different battles, really fought."""

    win: float
    draw: float
    loss: float
    battles: int
    distinct: int

    def counts(self) -> tuple[int, int, int]:
        """(wins, draws, losses) among the battles."""
        n = self.battles / 100
        return round(self.win * n), round(self.draw * n), round(self.loss * n)

    def rounded(self, decimals: int = 0) -> tuple[float, float, float]:
        """The three percentages rounded for display so that they still add up to 100 (largest
        remainders get the last units)."""
        unit = 10 ** decimals
        exact = [p * unit for p in (self.win, self.draw, self.loss)]
        down = [int(x) for x in exact]
        left = 100 * unit - sum(down)
        for i in sorted(range(3), key=lambda i: (down[i] - exact[i], i))[:left]:
            down[i] += 1
        return down[0] / unit, down[1] / unit, down[2] / unit

    def to_json(self) -> dict[str, Any]:
        wins, draws, losses = self.counts()
        return {"win": round(self.win, 4), "draw": round(self.draw, 4),
                "loss": round(self.loss, 4), "battles": self.battles, "distinct": self.distinct,
                "counts": {"win": wins, "draw": draws, "loss": losses}}


def _check_focus(focus: Any, what: str) -> None:
    if focus is not None and (type(focus) is not int or not 0 <= focus <= MAX_FOCUS):
        raise ValueError(f"{what} is 0 to {MAX_FOCUS} or unknown (None), not {focus!r}")


def _check_accuracy(accuracy: Any) -> None:
    if not isinstance(accuracy, int | float) or isinstance(accuracy, bool) \
            or not 0 <= accuracy <= 1:
        raise ValueError(f"an accuracy is a chance, 0 to 1, not {accuracy!r}")


def as_foe(opponent: Opponent, accuracy: float = DEFAULT_ACCURACY) -> Foe:
    """A ghost (its recorded score), a ``(slate, focus)`` pair (``focus`` None: unknown, drawn with
    ``accuracy``) or a :class:`Foe` as it is."""
    if isinstance(opponent, Foe):
        return opponent
    if isinstance(opponent, Ghost):
        return Foe(opponent.slate, opponent.focus)
    slate, focus = opponent
    if not isinstance(slate, Slate):
        raise ValueError(f"an opponent is a ghost, a Foe or a (slate, focus) pair: {opponent!r}")
    return Foe(slate, focus, accuracy)


def focus_law(focus: int | None, accuracy: float) -> tuple[tuple[int, float], ...]:
    """The Focus scores a side may have and their chances: the score itself when known, else the
    binomial law of 6 questions each right with probability ``accuracy``."""
    if focus is not None:
        return ((focus, 1.0),)
    p = accuracy
    law = tuple((s, comb(MAX_FOCUS, s) * p ** s * (1 - p) ** (MAX_FOCUS - s))
                for s in range(MAX_FOCUS + 1))
    return tuple((s, w) for s, w in law if w > 0)


def reads_focus(slate: Slate) -> bool:
    """Whether a Focus score can change this slate's battles (only an Abacus reads it)."""
    return any(p.key == "Abacus" for p in slate.cells if p is not None)


# A battle's inputs once scores nobody reads are set to 0: (opponent slate, own score, its score).
Key = tuple[Slate, int, int]


def outcomes(slate: Slate, focus: int | None, foes: Sequence[Foe],
             accuracy: float = DEFAULT_ACCURACY) -> list[tuple[Key, float]]:
    """Every battle the player may fight and its chance: the opponents (equally likely) times the
    scores that matter. The same battle may appear more than once (two ghosts with one slate)."""
    if not foes:
        raise ValueError("the odds need at least one opponent")
    _check_focus(focus, "the player's Focus score")
    _check_accuracy(accuracy)
    own = focus_law(focus, accuracy) if reads_focus(slate) else ((0, 1.0),)
    share = 1 / len(foes)
    out: list[tuple[Key, float]] = []
    for foe in foes:
        theirs = focus_law(foe.focus, foe.accuracy) if reads_focus(foe.slate) else ((0, 1.0),)
        for s, ws in own:
            for t, wt in theirs:
                out.append(((foe.slate, s, t), share * ws * wt))
    return out


class Battles:
    """Battles of one slate against opponents, each distinct one fought once. ``fought`` counts
    them (the raw battles, as the benchmark reports them)."""

    __slots__ = ("fought", "results", "slate")

    def __init__(self, slate: Slate) -> None:
        self.slate = slate
        self.results: dict[Key, str] = {}
        self.fought = 0

    def winner(self, key: Key) -> str:
        """"left" (the player), "right" (the opponent) or "draw"."""
        w = self.results.get(key)
        if w is None:
            w = self.results[key] = outcome(self.slate, key[0], key[1], key[2])[0]
            self.fought += 1
        return w


def odds(slate: Slate, focus: int | None, opponents: Iterable[Opponent], *,
         battles: int = DEFAULT_BATTLES, rng: random.Random | None = None,
         accuracy: float = DEFAULT_ACCURACY) -> Odds:
    """The odds of ``slate`` (with the player's Focus score ``focus``; None: unknown, drawn with
    ``accuracy``) against ``opponents``, over ``battles`` simulated battles drawn with ``rng``
    (``random.Random(0)`` when not given). See the module's docstring for what is drawn.
    A ``(slate, None)`` opponent's score is drawn with ``accuracy`` too."""
    if type(battles) is not int or battles < 1:
        raise ValueError(f"battles is a whole number, 1 or more, not {battles!r}")
    foes = [as_foe(o, accuracy) for o in opponents]
    law = outcomes(slate, focus, foes, accuracy)
    rng = rng if rng is not None else random.Random(0)
    keys = [k for k, _ in law]
    drawn = Counter(rng.choices(range(len(keys)), weights=[w for _, w in law], k=battles))
    fights = Battles(slate)
    tally = {"left": 0, "draw": 0, "right": 0}
    for i, n in drawn.items():
        tally[fights.winner(keys[i])] += n
    return Odds(100 * tally["left"] / battles, 100 * tally["draw"] / battles,
                100 * tally["right"] / battles, battles, fights.fought)


def expected(slate: Slate, focus: int | None, opponents: Iterable[Opponent], *,
             accuracy: float = DEFAULT_ACCURACY, fights: Battles | None = None
             ) -> tuple[float, float, float]:
    """The exact chances (win, draw, loss), 0 to 1, nothing drawn: every battle of
    :func:`outcomes` weighed by its chance. ``fights`` may carry battles already fought."""
    foes = [as_foe(o, accuracy) for o in opponents]
    fights = fights if fights is not None else Battles(slate)
    tally = {"left": 0.0, "draw": 0.0, "right": 0.0}
    for key, w in outcomes(slate, focus, foes, accuracy):
        tally[fights.winner(key)] += w
    return tally["left"], tally["draw"], tally["right"]


# ------------------------------------------------------------------------------------------------
# In a match
# ------------------------------------------------------------------------------------------------

def accuracy_of(scores: Iterable[int]) -> float:
    """A player's chance of a right Focus answer, from the scores it has given (Laplace's rule of
    succession: one right and one wrong answer are added, so that a first score of 6 or 0 does not
    make a certainty)."""
    scores = list(scores)
    return (sum(scores) + 1) / (MAX_FOCUS * len(scores) + 2)


def ghost_candidates(pool: Iterable[Ghost], round_: int, owner: str | None) -> list[Ghost]:
    """The ghosts a solo player may meet at ``round_``: those :func:`pick_ghost` chooses among
    (the round's ghosts from the pool, not the player's own, not empty), or, with none, the
    built-in ghost of the round."""
    candidates = [g for g in pool
                  if g.round == round_ and len(g.slate) > 0
                  and (owner is None or g.owner != owner)]
    return candidates or [builtin_ghost(round_)]


def likely_opponents(match: Match, player: str, ghost_pool: Iterable[Ghost] = ()) -> list[Foe]:
    """Whom ``player`` is likely to fight at the match's current round, seen as a person sees it:

    - alone against ghosts, every ghost the round may bring (:func:`ghost_candidates`), with its
      recorded score; when the pool has none and the match has a shadow, the shadow (see
      :func:`shadow_foe`);
    - in a challenge, the slate the challenger fielded last round (what the player saw it fight
      with), its score of this round unknown and drawn with the accuracy of its scores so far;
      in round 1, with no slate fielded yet, the built-in ghost of round 1 stands in for it.
    """
    if match.solo:
        ghosts = ghost_candidates(ghost_pool, match.round, player)
        if match.shadow is not None and ghosts[0].builtin:
            return [shadow_foe(match)]
        return [as_foe(g) for g in ghosts]
    foe = match.opponent(player)
    if not match.records:
        return [as_foe(builtin_ghost(match.round))]
    last = match.records[-1]
    return [Foe(last.slates[foe], None, accuracy_of(r.focus[foe] for r in match.records))]


def shadow_foe(match: Match) -> Foe:
    """The shadow of a solo match as the member expects it, like a challenger: the slate it has
    now, the one it fielded last round (its shop turn of this round comes with the battle), its
    score unknown, drawn with the accuracy of the scores it showed in the battles it was met in;
    in round 1, with nothing fielded yet, the built-in ghost of round 1 stands in for it."""
    assert match.shadow is not None
    if not match.records:
        return as_foe(builtin_ghost(match.round))
    shown = [r.focus[GHOST] for r in match.records if r.ghost is not None and r.ghost.shadow]
    return Foe(match.shadow.slate, None, accuracy_of(shown))


def match_in_play(match_state: Match | Mapping[str, Any], player: str) -> Match:
    """The match (from its JSON if need be) that ``player`` plays and that is not over: what
    odds and forecasts are asked about. Refused: ``match.unknown_player``, ``match.over``."""
    match = match_state if isinstance(match_state, Match) else Match.from_json(match_state)
    if player not in match.players or player == GHOST:
        raise DomainError("match.unknown_player", f"{player!r} does not play in this match",
                          player=player)
    if match.over:
        raise DomainError("match.over", "the match is over")
    return match


def odds_for_match(match_state: Match | Mapping[str, Any], player: str,
                   ghost_pool: Iterable[Ghost] = (), *, battles: int = DEFAULT_BATTLES,
                   rng: random.Random | None = None) -> Odds:
    """The odds of ``player``'s slate as it stands now, against its likely opponents of this round
    (:func:`likely_opponents`; pass the server's ghost pool for a solo match). ``match_state`` is a
    :class:`Match` or its JSON. The player's own score is the one given this round, or, before the
    Focus, drawn with the accuracy of its scores so far. Without ``rng`` the draw is seeded by the
    match, the player and the round, so asking again gives the same figures.

    Refused (``DomainError``): ``match.unknown_player``, ``match.over``."""
    match = match_in_play(match_state, player)
    slate = match.shops[player].slate
    focus = match.focus.get(player)
    own_accuracy = accuracy_of(r.focus[player] for r in match.records)
    if rng is None:
        rng = random.Random(f"{match.seed}/odds/{player}/{match.round}")
    return odds(slate, focus, likely_opponents(match, player, ghost_pool), battles=battles,
                rng=rng, accuracy=own_accuracy)
