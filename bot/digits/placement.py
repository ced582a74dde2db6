"""Where a bought digit goes when the player names no cell: where it can act.

The shop engine (``Shop.placement``) puts a digit bought without a cell in the first empty cell,
and the baseline players rely on that; the bot chooses the cell with :func:`choose` instead and
passes it to the engine (issue 15, "A shop that does not trap"):

1. onto an N1 copy of itself, which merges at once (a full slate included);
2. a support digit (Plus, Double, Power: they act only from the back, on the front digit of their
   column) into a free back cell of a column that has a front digit: the column of the strongest
   front digit (its ATK at its level), the leftmost among equals; with no such column, into a free
   back cell whose front cell is free (the next fighter bought goes in front of it); with the back
   row full, into the front row, where it fights as a plain digit;
3. any other digit into a free front cell, first one with a support digit waiting behind it (the
   support then acts on it), else the leftmost; with the front row full, into the leftmost free
   back cell (it moves up when the digit in front of it falls).

``None`` when the slate is full and no N1 copy is there to merge onto: nothing can be bought.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.digits.catalogue import BY_KEY, Role
from bot.digits.slate import BACK, FRONT, Slate


class How(StrEnum):
    """Why the digit went where it did (the bot says it to the player)."""

    MERGE = "merge"  # onto the N1 copy in ``cell``
    BEHIND = "behind"  # a support behind the front digit in ``ally``
    WAITING = "waiting"  # a support in the back, the front cell ``ally`` in front of it empty
    SUPPORT_FRONT = "support_front"  # a support in the front: the back row is full
    FRONT = "front"  # in the front row; ``ally``: the support behind it, if any
    RESERVE = "reserve"  # in the back row, behind the front digit in ``ally``: the front is full


@dataclass(frozen=True, slots=True)
class Placement:
    cell: int
    how: How
    ally: int | None = None  # the other cell of its column that the reason names


def merge_cell(slate: Slate, key: str) -> int | None:
    """The cell of an N1 copy of ``key`` on the slate (a new copy merges onto it), the first."""
    return next((cell for cell, piece in slate.items() if piece.key == key and piece.level == 1),
                None)


def is_support(key: str) -> bool:
    return BY_KEY[key].role is Role.SUPPORT


def choose(slate: Slate, key: str) -> Placement | None:
    """Where a new level-1 ``key`` goes on ``slate`` (see the module's docstring)."""
    onto = merge_cell(slate, key)
    if onto is not None:
        return Placement(onto, How.MERGE)
    free_front = [c for c in FRONT if slate[c] is None]
    free_back = [c for c in BACK if slate[c] is None]
    if is_support(key):
        behind = [c for c in free_back if slate[c - 4] is not None]
        if behind:
            def strength(cell: int) -> tuple[int, int]:
                front = slate[cell - 4]
                assert front is not None
                return (-front.kind.atk(front.level), cell)

            cell = min(behind, key=strength)
            return Placement(cell, How.BEHIND, cell - 4)
        if free_back:  # every free back cell has a free front cell here
            return Placement(free_back[0], How.WAITING, free_back[0] - 4)
        if free_front:
            return Placement(free_front[0], How.SUPPORT_FRONT)
        return None
    if free_front:
        waiting = [c for c in free_front if (b := slate[c + 4]) is not None and is_support(b.key)]
        cell = (waiting or free_front)[0]
        return Placement(cell, How.FRONT, cell + 4 if waiting else None)
    if free_back:
        return Placement(free_back[0], How.RESERVE, free_back[0] - 4)
    return None
