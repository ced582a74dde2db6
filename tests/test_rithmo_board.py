"""Rithmomachia: the set-up, the moves of every shape, the position string and JSON."""

import pytest

from bot.domain import DomainError
from bot.rithmo import BLACK, PYRAMID, WHITE, Board, Move, name, parse_square
from bot.rithmo.squares import IRREGULAR, REGULAR


def sq(text):
    return parse_square(text)


def targets(board, frm):
    """The plain moves of the piece on ``frm`` as {square name: "regular"/"irregular"}."""
    s = sq(frm)
    return {name(m.to): ("irregular" if m.irregular else "regular")
            for m in board.legal_moves() if m.frm == s}


# ---------------------------------------------------------------- set-up

def test_setup_has_24_pieces_a_side_with_totals_1312_and_1752():
    b = Board.start()
    assert len(b.pieces[WHITE]) == 24 and len(b.pieces[BLACK]) == 24
    assert b.army_value(WHITE) == 1312
    assert b.army_value(BLACK) == 1752
    assert b.turn == WHITE and b.taken == ([], [])


def test_setup_squares_of_the_rulings():
    b = Board.start()
    assert b.piece_at("a1").describe() == "square 289"
    assert b.piece_at("h16").describe() == "square 361"
    assert b.piece_at("f4").describe() == "round 2"
    assert b.piece_at("c13").describe() == "round 3"
    assert b.piece_at("a14").describe() == "triangle 16"
    for empty in ("c1", "d1", "e1", "f1", "a4", "b4", "g4", "h4", "c16", "f16", "a13", "h13"):
        assert b.piece_at(empty) is None
    assert all(b.piece_at(f"{f}{r}") is None for f in "abcdefgh" for r in range(5, 13))


def test_pyramids_are_made_of_their_components():
    b = Board.start()
    white, black = b.piece_at("b2"), b.piece_at("h15")
    assert white.shape == black.shape == PYRAMID
    assert sorted(v for _, v in white.parts) == [1, 4, 9, 16, 25, 36] and white.value == 91
    assert sorted(v for _, v in black.parts) == [16, 25, 36, 49, 64] and black.value == 190
    # taken apart, the armies count 29 and 28 pieces (the rules page's 57 pawns)
    assert sum(len(p.gives()) for p in b.pieces[WHITE]) == 29
    assert sum(len(p.gives()) for p in b.pieces[BLACK]) == 28


def test_start_position_lists_moves_and_no_capture():
    b = Board.start()
    assert b.captures() == []
    moves = b.legal_moves()
    assert len(moves) == len(set(moves))
    assert all(b.squares[m.frm].side == WHITE and b.squares[m.to] is None for m in moves)


# ---------------------------------------------------------------- moves by shape

def test_round_moves_one_square_diagonally_and_has_no_irregular_move():
    b = Board.from_pieces({"d5": "R4"})
    assert targets(b, "d5") == {"c4": "regular", "e4": "regular", "c6": "regular",
                                "e6": "regular"}


def test_round_at_a_corner_and_an_edge():
    b = Board.from_pieces({"a1": "R4", "h9": "R6"})
    assert targets(b, "a1") == {"b2": "regular"}
    assert targets(b, "h9") == {"g8": "regular", "g10": "regular"}


def test_round_blocked_by_any_piece():
    b = Board.from_pieces({"d5": "R4", "c6": "T6", "e6": "r9", "c4": "s15"})
    assert targets(b, "d5") == {"e4": "regular"}


def test_triangle_moves_two_straight_and_leaps_like_a_knight():
    b = Board.from_pieces({"d8": "T6"})
    regular = {"d10", "d6", "b8", "f8"}
    knight = {"c10", "e10", "b9", "f9", "b7", "f7", "c6", "e6"}
    assert targets(b, "d8") == {**dict.fromkeys(regular, "regular"),
                                **dict.fromkeys(knight, "irregular")}


def test_triangle_regular_move_needs_the_square_between_empty_but_the_leap_does_not():
    b = Board.from_pieces({"d8": "T6", "d9": "t12", "c8": "R4", "e9": "r3", "c9": "R2"})
    t = targets(b, "d8")
    assert "d10" not in t  # d9 between
    assert "b8" not in t  # c8 between
    assert t["c10"] == "irregular" and t["e10"] == "irregular"  # leaps over d9, e9, c9


def test_triangle_landing_square_must_be_empty():
    b = Board.from_pieces({"d8": "T6", "d10": "R2", "c10": "r3"})
    t = targets(b, "d8")
    assert "d10" not in t and "c10" not in t


def test_triangle_at_the_edge():
    b = Board.from_pieces({"a1": "T6"})
    assert targets(b, "a1") == {"a3": "regular", "c1": "regular", "b3": "irregular",
                                "c2": "irregular"}


def test_square_moves_three_straight_and_leaps_one_by_three():
    b = Board.from_pieces({"d8": "S15"})
    regular = {"d11", "d5", "a8", "g8"}
    leaps = {"c11", "e11", "c5", "e5", "a7", "a9", "g7", "g9"}
    assert targets(b, "d8") == {**dict.fromkeys(regular, "regular"),
                                **dict.fromkeys(leaps, "irregular")}


def test_square_regular_move_blocked_by_either_square_between():
    b = Board.from_pieces({"d8": "S15", "d10": "r3", "c8": "R4"})
    t = targets(b, "d8")
    assert "d11" not in t and "a8" not in t
    assert t["d5"] == "regular" and t["g8"] == "regular"
    assert t["c11"] == "irregular"


def test_square_at_the_far_edge():
    b = Board.from_pieces({"h16": "s361"}, "black")
    assert targets(b, "h16") == {"h13": "regular", "e16": "regular", "g13": "irregular",
                                 "e15": "irregular"}


def test_pyramid_moves_as_every_shape_it_holds():
    b = Board.from_pieces({"d8": "P(S36R1)"})
    t = targets(b, "d8")
    assert {k for k, v in t.items() if v == "regular"} == {
        "c7", "e7", "c9", "e9", "d11", "d5", "a8", "g8"}
    assert {k for k, v in t.items() if v == "irregular"} == {
        "c11", "e11", "c5", "e5", "a7", "a9", "g7", "g9"}


def test_pyramid_without_a_shape_no_longer_moves_as_it():
    full = Board.from_pieces({"d8": "P(S36T16R1)"})
    no_round = Board.from_pieces({"d8": "P(S36T16)"})
    assert "c7" in targets(full, "d8") and "c7" not in targets(no_round, "d8")
    assert "d10" in targets(no_round, "d8") and "c10" in targets(no_round, "d8")


def test_only_the_side_to_move_moves():
    b = Board.from_pieces({"d5": "R4", "d12": "r3"}, "black")
    assert {name(m.frm) for m in b.legal_moves()} == {"d12"}


def test_move_tables_stay_on_the_board():
    for mask in range(1, 8):
        for s in range(128):
            for t, b1, b2, mv in REGULAR[mask][s]:
                assert 0 <= t < 128 and mv == Move(s, t) and not mv.irregular
                assert all(0 <= x <= 128 for x in (b1, b2))
            for t, mv in IRREGULAR[mask][s]:
                assert 0 <= t < 128 and mv.irregular


# ---------------------------------------------------------------- checked moves

@pytest.mark.parametrize("turn,words,code", [
    ("c1-c3", "no piece on c1", "rithmo.no_piece"),
    ("c13-b12", "Black's", "rithmo.not_yours"),
    ("c3-d4", "occupied", "rithmo.occupied"),
    ("c3-c5", "round moves one square diagonally", "rithmo.not_a_move_of.round"),
    ("a2-a5", "blocked at a3", "rithmo.blocked"),
    ("b2-d5", "pyramid", "rithmo.not_a_move_of.pyramid"),
])
def test_refused_moves_explain_why_and_change_nothing(turn, words, code):
    b = Board.start()
    before = b.to_json()
    with pytest.raises(DomainError) as err:
        b.push(turn)
    assert err.value.code == code  # was "rithmo.illegal_move" for all six, before issue 13
    assert words in str(err.value)
    assert b.to_json() == before and b.history == []


def test_push_and_pop_a_move():
    b = Board.start()
    key = b.key()
    t = b.push("c4-b5")
    assert b.piece_at("b5").value == 8 and b.piece_at("c4") is None and b.turn == BLACK
    assert str(t) == "c4-b5" and b.history == [t]
    assert b.key() != key
    assert b.pop() == t
    assert b.to_json() == Board.start().to_json() and b.key() == key


def test_irregular_move_ends_the_turn():
    b = Board.start()
    b.push("a3-b5")  # the triangle 81 leaps like a knight
    assert b.turn == BLACK and str(b.history[-1]) == "a3-b5"


# ---------------------------------------------------------------- storage

def test_position_string_of_the_start():
    s = Board.start().position_string()
    assert s.startswith("s49s121....s225s361/s28s66t36t30t56t64s120p(s64s49t36t25r16)/")
    assert s.endswith("/S153P(S36S25T16T9R4R1)T49T42T20T25S45S15/S289S169....S81S25 w - -")


def test_position_string_round_trip_with_taken_pieces():
    b = Board.from_pieces({"a9": "P(S36T9)", "h2": "t100", "c16": "R1"}, "black",
                          {"white": "T36R9R9", "black": "S25"})
    s = b.position_string()
    again = Board.from_position_string(s)
    assert again.position_string() == s and again.to_json() == b.to_json()
    assert again.key() == b.key()


def test_json_round_trip_of_the_start_and_a_played_position():
    b = Board.start()
    for t in ("c4-b5", "f13-g12", "b5-a6", "g12-h11"):
        b.push(t)
    data = b.to_json()
    again = Board.from_json(data)
    assert again.to_json() == data and again.key() == b.key()


@pytest.mark.parametrize("text", [
    "", "x w - -", "s49/" * 15 + "........ w - -",
    "/".join(["........"] * 16) + " x - -",
    "/".join(["........"] * 15 + [".......q"]) + " w - -",
    "/".join(["........"] * 15 + ["R0......."]) + " w - -",
    "/".join(["........"] * 15 + ["......."]) + " w - -",
    "/".join(["........"] * 16) + " w T3x -",
])
def test_bad_position_strings_are_refused(text):
    with pytest.raises(DomainError) as err:
        Board.from_position_string(text)
    assert err.value.code == "rithmo.bad_position"


@pytest.mark.parametrize("data,code", [
    ([], "rithmo.bad_position"),
    ({"to_move": "red"}, "rithmo.bad_position"),
    ({"pieces": [{"square": "i3", "side": "white", "shape": "round", "value": 4}]},
     "rithmo.bad_square"),
    ({"pieces": [{"square": "c17", "side": "white", "shape": "round", "value": 4}]},
     "rithmo.bad_square"),
    ({"pieces": [{"square": "c3", "side": "white", "shape": "hexagon", "value": 4}]},
     "rithmo.bad_position"),
    ({"pieces": [{"square": "c3", "side": "white", "shape": "round", "value": 0}]},
     "rithmo.bad_position"),
    ({"pieces": [{"square": "c3", "side": "white", "shape": "round", "value": "4"}]},
     "rithmo.bad_position"),
    ({"pieces": [{"square": "c3", "side": "white", "shape": "round", "value": 4},
                 {"square": "c3", "side": "black", "shape": "round", "value": 5}]},
     "rithmo.bad_position"),
    ({"pieces": [{"square": "c3", "side": "white", "shape": "pyramid", "parts": []}]},
     "rithmo.bad_position"),
    ({"pieces": [{"square": "c3", "side": "white", "shape": "pyramid", "value": 90,
                  "parts": [{"shape": "square", "value": 36}]}]}, "rithmo.bad_position"),
    ({"taken": {"white": [{"shape": "pyramid", "value": 91}]}}, "rithmo.bad_position"),
])
def test_bad_positions_are_refused_with_a_reason(data, code):
    with pytest.raises(DomainError) as err:
        Board.from_json(data)
    assert err.value.code == code and str(err.value)


def test_key_tells_taken_pieces_apart_by_shape():
    a = Board.from_pieces({"a1": "R2"}, "white", {"white": "T36"})
    b = Board.from_pieces({"a1": "R2"}, "white", {"white": "S36"})
    assert a.key() != b.key()
    assert Board.from_pieces({"a1": "R2"}, "black").key() != Board.from_pieces({"a1": "R2"}).key()
