"""Where the bot puts a digit bought without a cell (bot.digits.placement), case by case."""

from __future__ import annotations

import pytest

from bot.digits.placement import How, Placement, choose, merge_cell
from bot.digits.slate import Slate

FULL = {str(c): "Zero" for c in range(1, 9)}


@pytest.mark.parametrize(("slate", "key", "expected"), [
    # An N1 copy: the new one merges onto it, a full slate included; an N2 copy does not count.
    ({"3": "Odd", "1": "Odd N2"}, "Odd", Placement(3, How.MERGE)),
    ({**FULL, "6": "Plus"}, "Plus", Placement(6, How.MERGE)),
    # A support digit behind a front digit with a free back cell: the strongest, then leftmost.
    ({"1": "Zero", "2": "Odd"}, "Double", Placement(6, How.BEHIND, 2)),
    ({"1": "Odd", "2": "Odd"}, "Plus", Placement(5, How.BEHIND, 1)),
    ({"1": "Odd", "5": "Minus", "2": "Zero"}, "Power", Placement(6, How.BEHIND, 2)),
    ({"4": "Prime N2", "1": "Even"}, "Plus", Placement(8, How.BEHIND, 4)),
    # No front digit (or none with a free back cell): a back cell whose front cell is free.
    ({}, "Double", Placement(5, How.WAITING, 1)),
    ({"1": "Odd", "5": "Minus", "6": "Zero"}, "Plus", Placement(7, How.WAITING, 3)),
    # The back row full: a support goes to the front, a plain fighter there.
    ({"5": "Zero", "6": "Zero", "7": "Zero", "8": "Zero"}, "Plus",
     Placement(1, How.SUPPORT_FRONT)),
    # Any other digit: the front row, first before a support waiting, else the leftmost.
    ({}, "Odd", Placement(1, How.FRONT)),
    ({"1": "Zero", "7": "Double"}, "Odd", Placement(3, How.FRONT, 7)),
    ({"1": "Zero", "6": "Minus"}, "Pi", Placement(2, How.FRONT)),
    # The front row full: the leftmost free back cell, behind a front digit.
    ({"1": "Odd", "2": "Odd", "3": "Odd", "4": "Odd", "5": "Plus"}, "Even",
     Placement(6, How.RESERVE, 2)),
    # A full slate with nothing to merge onto: nowhere.
    (FULL, "Plus", None), (FULL, "Odd", None), ({**FULL, "1": "Odd N2"}, "Odd", None),
])
def test_where_a_bought_digit_goes(slate: dict[str, str], key: str,
                                   expected: Placement | None) -> None:
    board = Slate.from_json(slate)
    placed = choose(board, key)
    assert placed == expected
    if placed is not None and placed.how is not How.MERGE:
        assert board[placed.cell] is None  # never onto a digit, but to merge


def test_the_first_n1_copy_is_the_one_merged_onto() -> None:
    assert merge_cell(Slate.from_json({"2": "Odd N2", "6": "Odd", "7": "Odd"}), "Odd") == 6
    assert merge_cell(Slate.from_json({"2": "Odd N2"}), "Odd") is None


def test_every_slate_of_a_few_digits_gets_a_cell_while_one_is_free() -> None:
    # All 2-digit slates of two kinds at every pair of cells: a free cell is always found.
    for a in range(1, 9):
        for b in range(1, 9):
            if a == b:
                continue
            board = Slate.from_json({str(a): "Zero", str(b): "Double"})
            for key in ("Plus", "Odd", "Sigma"):
                placed = choose(board, key)
                assert placed is not None and board[placed.cell] is None
