"""Issue 16: a turn typed as children type it is read as the notation means it, and a refused
turn close to legal ones gets "did you mean …?" with the nearest legal turns (engine level)."""

from __future__ import annotations

import pytest

from bot.domain import DomainError
from bot.rithmo import Board
from bot.rithmo.notation import (
    LIMIT,
    candidate_turns,
    edit_distance,
    nearest_turns,
    with_suggestions,
)
from bot.rithmo.turns import tidy


@pytest.mark.parametrize("typed", ["c4 d5", "c4d5", "C4-D5", "c4–d5", "c4—d5", "c4 - d5",
                                   "  C4   D5 ", "c4→d5", "c4−d5"])
def test_every_spelling_of_a_move_plays_the_same_turn(typed: str) -> None:
    board = Board.start()
    assert str(board.push(typed)) == "c4-d5"


def test_tidy_joins_only_bare_squares() -> None:
    assert tidy("xd7 c3 d7") == "xd7 c3-d7"  # the capture's square stays a capture
    assert tidy("DROP T36 D1") == "drop t36 d1"  # a drop's piece is not a square
    assert tidy("x h15 ( 36 )") == "x h15 ( 36 )"


def test_edit_distance_counts_swaps_as_one() -> None:
    assert edit_distance("c4-d5", "c4-d5") == 0
    assert edit_distance("c4-d6", "c4-d5") == 1
    assert edit_distance("4c-d5", "c4-d5") == 1
    assert edit_distance("", "abc") == 3


def test_a_round_moved_straight_is_offered_its_diagonal_moves_first() -> None:
    board = Board.start()
    near = nearest_turns(board, "c4-c5")
    assert near[:2] == ["c4-d5", "c4-b5"] and len(near) <= LIMIT
    legal = set(candidate_turns(board))
    assert set(near) <= legal


def test_a_move_one_square_too_far_suggests_that_pieces_moves() -> None:
    board = Board.start()
    assert nearest_turns(board, "c4-d6") == ["c4-d5", "c4-b5"]
    assert nearest_turns(board, "C4 E5")[:2] == ["c4-d5", "c4-b5"]


def test_every_suggestion_is_a_legal_turn_and_the_board_is_unchanged() -> None:
    board = Board.start()
    board.push("c4-b5")
    board.push("f13-e12")
    before = (board.to_json(), board.key())
    for typed in ["b5-b6", "e4-f6", "xe12", "c3c4", "a2-a5", "d5-e6"]:
        for turn in nearest_turns(board, typed):
            board.push(turn)  # legal: it plays
            board.pop()
    assert (board.to_json(), board.key()) == before


def test_nothing_close_suggests_nothing() -> None:
    board = Board.start()
    assert nearest_turns(board, "hello") == []
    assert nearest_turns(board, "") == []
    assert nearest_turns(board, "c4-d5" + "x" * 5990) == []  # no turn is that long
    refused = DomainError("rithmo.game_over", "over", outcome="white")
    assert with_suggestions(board, "c4-c5", refused) is refused  # not a typed turn's refusal


def test_the_refusal_keeps_its_reason_and_lists_the_turns() -> None:
    board = Board.start()
    with pytest.raises(DomainError) as caught:
        board.push("c4-c5")
    error = with_suggestions(board, "c4-c5", caught.value)
    assert error.code == "rithmo.did_you_mean"
    assert error.params["refusal"] is caught.value
    assert error.params["turns"].split("`, `")[:2] == ["c4-d5", "c4-b5"]
    assert error.params["count"] == len(error.params["turns"].split("`, `"))
    assert "did you mean c4-d5, c4-b5" in str(error)
