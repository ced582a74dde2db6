"""Ghosts: the slate a player fielded at one round, met later by a solo player at that round.

The engine does not store ghosts: the bot keeps them (``Match.ghosts()`` gives a finished match's
ghosts) and passes a pool in; ``pick_ghost`` chooses one with a seeded random and, when the pool
has none, falls back to the solo match's shadow (``fallback``: a bot player shopping alongside the
member, see ``bot.digits.match``), else to a built-in slate for the round.

A solo match at a level (:data:`LEVELS`, see ``bot.digits.levels``) draws only the pool's ghosts
that suit it (:func:`fits_level`), measured against the shadow of that level, whose strength is
measured (docs/benchmarks.md): at gentle, a ghost whose slate cost no more gold than the gentle
shadow's slate of the round; at strong, one that cost at least as much as the strong shadow's; at
fair, any. So a gentle solo never meets a ghost built with more gold than its gentle shadow, and
a strong one never a ghost weaker (by gold) than its strong shadow.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.digits.catalogue import BY_KEY
from bot.digits.slate import Slate, SlateError

# The Focus score the built-in ghosts play with (it only matters to an Abacus): a middling 3 of 6.
BUILTIN_FOCUS = 3
# The owner of the shadow's ghosts (a member's ghost is owned by the member's id, a number).
SHADOW = "shadow"
#: The levels of a solo match's shadow, gentlest first (``bot.digits.levels`` says who plays each).
LEVELS = ("gentle", "fair", "strong")


@dataclass(frozen=True, slots=True)
class Ghost:
    """A slate fielded at ``round`` with its owner's Focus score that round; ``owner`` is None
    for a built-in ghost."""

    round: int
    slate: Slate
    focus: int = 0
    owner: str | None = None

    @property
    def builtin(self) -> bool:
        return self.owner is None

    @property
    def shadow(self) -> bool:
        """A slate of the solo match's shadow (the bot player shopping alongside the member)."""
        return self.owner == SHADOW

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "slate": self.slate.to_json(), "focus": self.focus,
                "owner": self.owner}

    @classmethod
    def from_json(cls, data: Any) -> Ghost:
        if not isinstance(data, Mapping):
            raise SlateError("a ghost is an object")
        owner = data.get("owner")
        return cls(int(data["round"]), Slate.from_json(data["slate"]), int(data.get("focus", 0)),
                   None if owner is None else str(owner))


# Built-in ghosts, one per round, built as a steady player would at about 8 gold a round (5 + a
# Focus of 3): only open tiers, never more than the gold earned by then, supports behind a front
# digit, reserves and reach digits in the back row.
_BUILTIN: dict[int, dict[str, str]] = {
    1: {"1": "Odd", "2": "Even", "3": "Minus", "5": "Plus"},
    2: {"1": "Odd N2", "2": "Even", "3": "Minus", "4": "Zero", "5": "Plus", "6": "Double"},
    3: {"1": "Odd N2", "2": "Square", "3": "Minus", "4": "Prime", "5": "Plus", "7": "Even",
        "8": "Double"},
    4: {"1": "Odd N2", "2": "Square N2", "3": "Minus N2", "4": "Prime", "5": "Plus N2",
        "6": "Zero", "8": "Double"},
    5: {"1": "Carry", "2": "Square N2", "3": "Minus N2", "4": "Prime N2", "5": "Odd N2",
        "6": "Plus N2", "7": "Sigma", "8": "Double"},
    6: {"1": "Carry", "2": "Square N2", "3": "Modulo", "4": "Prime N2", "5": "Odd N2",
        "6": "Plus N2", "7": "Minus N2", "8": "Double N2"},
    7: {"1": "Carry N2", "2": "Square N2", "3": "Modulo", "4": "Prime N2", "5": "Odd N2",
        "6": "Power", "7": "Sigma", "8": "Double N2"},
    8: {"1": "Carry N2", "2": "Fibo", "3": "Modulo N2", "4": "Prime N2", "5": "Odd N3",
        "6": "Power", "7": "Minus N2", "8": "Double N2"},
    9: {"1": "Carry N2", "2": "Fibo", "3": "Modulo N2", "4": "Square N3", "5": "Odd N3",
        "6": "Power", "7": "Pi", "8": "Double N2"},
    10: {"1": "Carry N2", "2": "Fibo N2", "3": "Modulo N2", "4": "Square N3", "5": "Odd N3",
         "6": "Power N2", "7": "Pi", "8": "Double N2"},
    11: {"1": "Carry N3", "2": "Fibo N2", "3": "Modulo N2", "4": "Square N3", "5": "Odd N3",
         "6": "Power N2", "7": "Pi", "8": "Double N3"},
    12: {"1": "Carry N3", "2": "Fibo N2", "3": "Delta N2", "4": "Square N3", "5": "Odd N3",
         "6": "Power N2", "7": "Pi N2", "8": "Double N3"},
    13: {"1": "Carry N3", "2": "Fibo N3", "3": "Delta N2", "4": "Square N3", "5": "Odd N3",
         "6": "Power N2", "7": "Pi N2", "8": "Double N3"},
    14: {"1": "Carry N3", "2": "Fibo N3", "3": "Delta N3", "4": "Square N3", "5": "Odd N3",
         "6": "Power N2", "7": "Pi N2", "8": "Double N3"},
    15: {"1": "Carry N3", "2": "Fibo N3", "3": "Delta N3", "4": "Square N3", "5": "Odd N3",
         "6": "Power N3", "7": "Pi N2", "8": "Double N3"},
}
BUILTIN_SLATES: dict[int, Slate] = {r: Slate.from_json(s) for r, s in _BUILTIN.items()}
BUILTIN_ROUNDS = max(BUILTIN_SLATES)


def builtin_ghost(round_: int) -> Ghost:
    """The built-in ghost of a round (the last one for rounds after 15, the first before 1)."""
    r = min(max(round_, 1), BUILTIN_ROUNDS)
    return Ghost(round_, BUILTIN_SLATES[r], BUILTIN_FOCUS, None)


def fits_level(ghost: Ghost, level: str, shadow: Ghost) -> bool:
    """Whether a solo match at ``level`` may meet ``ghost``, its shadow fielding ``shadow`` this
    round (the module's docstring): gentle, no more gold than the shadow's slate; strong, at
    least as much; fair, any ghost."""
    if level not in LEVELS:
        raise ValueError(f"a level is one of {LEVELS}, not {level!r}")
    if level == "gentle":
        return slate_cost(ghost.slate) <= slate_cost(shadow.slate)
    if level == "strong":
        return slate_cost(ghost.slate) >= slate_cost(shadow.slate)
    return True


def pick_ghost(pool: Iterable[Ghost], round_: int, rng: random.Random,
               exclude_owner: str | None = None, fallback: Ghost | None = None,
               level: str | None = None) -> Ghost:
    """A ghost of ``round_`` from the pool, chosen by ``rng`` in the pool's order; ghosts of other
    rounds, of ``exclude_owner`` (the player itself) and empty slates are left out, and, with a
    ``level`` and a ``fallback`` (the shadow's slate of the round), those that do not fit the
    level (:func:`fits_level`). With none left, ``fallback`` when given, else the built-in ghost
    of the round."""
    candidates = [g for g in pool
                  if g.round == round_ and len(g.slate) > 0
                  and (exclude_owner is None or g.owner != exclude_owner)
                  and (level is None or fallback is None or fits_level(g, level, fallback))]
    if not candidates:
        return fallback if fallback is not None else builtin_ghost(round_)
    return rng.choice(candidates)


def slate_cost(slate: Slate) -> int:
    """The gold a slate took to build at the default prices (an N2 is 2 copies, an N3 is 4)."""
    return sum(BY_KEY[p.key].cost << (p.level - 1) for _, p in slate.items())
