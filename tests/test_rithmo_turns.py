"""Rithmomachia: the turn (captures before and after, the step onto a victim's square, drops),
the steps a search walks, and the text notation."""

import pytest

from bot.domain import DomainError
from bot.rithmo import (
    AFTER,
    BEFORE,
    BLACK,
    END,
    ROUND,
    START,
    TRIANGLE,
    WHITE,
    Board,
    Capture,
    Drop,
    Move,
    Turn,
    parse_square,
)


def sq(text):
    return parse_square(text)


def refused(board, turn, code):
    before = (board.to_json(), board.key(), list(board.history))
    with pytest.raises(DomainError) as err:
        board.push(turn)
    assert err.value.code == code
    assert (board.to_json(), board.key(), list(board.history)) == before
    return str(err.value)


# ---------------------------------------------------------------- captures before the move

def two_victims():
    """White's round 16 on d5 can take the Black 16 on e6 (encounter); the White triangle 6 on
    a4 can take the Black 12 on d1 (assault)."""
    return Board.from_pieces({"d5": "R16", "e6": "s16", "a4": "T6", "d1": "t12",
                              "h16": "s361"})


def test_capture_first_then_the_capturer_takes_the_victims_square():
    b = two_victims()
    t = b.push("xe6 d5-e6")
    assert b.piece_at("e6").describe() == "round 16" and b.piece_at("d5") is None
    assert b.taken[WHITE] == [(4, 16)]  # a square 16
    assert t.before == (Capture(sq("e6")),) and t.move == Move(sq("d5"), sq("e6"))


def test_several_captures_first_one_capturer_chooses_which_square():
    b = two_victims()
    b.push("xe6 xd1 a4-d1")
    assert b.piece_at("d1").describe() == "triangle 6" and b.piece_at("e6") is None
    assert b.piece_at("d5").describe() == "round 16"
    assert len(b.taken[WHITE]) == 2


def test_after_capturing_first_a_capturer_must_step_in():
    b = two_victims()
    msg = refused(b, "xe6", "rithmo.must_step")
    assert "d5-e6" in msg
    refused(b, "xe6 c1-c3", "rithmo.must_step")  # not a capturer
    refused(b, "xe6 a4-e6", "rithmo.must_step")  # a4 did not take e6
    refused(b, "xe6 a4-a6", "rithmo.must_step")  # a plain move after capturing first


def test_step_in_then_capture_after():
    # taking e6 first and stepping in puts the round 16 next to the Black 4 on f7 (16 = 4²)
    b = Board.from_pieces({"d5": "R16", "e6": "s16", "f7": "t4", "h16": "s361"})
    assert Capture(sq("f7")) not in b.captures()
    b.push("xe6 d5-e6 xf7")
    assert b.piece_at("f7") is None and b.piece_at("e6").side == WHITE
    assert len(b.taken[WHITE]) == 2


def test_captures_after_a_regular_move_leave_the_square_empty():
    b = two_victims()
    b.push("d5-c6 xd1")
    assert b.piece_at("d1") is None and b.piece_at("a4").describe() == "triangle 6"


def test_no_capture_after_an_irregular_move():
    b = two_victims()
    assert "irregular" in refused(b, "a4-b6 xd1", "rithmo.after_leap")


def test_captures_are_never_forced():
    b = two_victims()
    b.push("d5-c4")
    assert b.turn == BLACK and b.taken[WHITE] == []


def test_captures_are_taken_one_after_another_in_the_position_as_it_stands():
    # the Black 9 on c3 stands between the White 2 on c1 and the Black 8 on c6. Once the round 9
    # on b2 has taken it (encounter), c2–c5 are 4 empty squares: 2 × 4 = 8, an Assault.
    b = Board.from_pieces({"b2": "R9", "c3": "r9", "c1": "R2", "c6": "s8", "h16": "s361"})
    assert Capture(sq("c6")) not in b.captures()
    b.play("xc3")
    assert Capture(sq("c6"), 0, (sq("c1"),)) in b.captures()
    b.cancel_turn()
    b.push("xc3 xc6 b2-c3")
    assert b.piece_at("c6") is None and b.piece_at("c3").describe() == "round 9"
    b.pop()
    # stepping in first puts the 9 back between: the 8 cannot be taken after
    refused(b, "xc3 b2-c3 xc6", "rithmo.cannot_take")


def test_capture_first_that_frees_no_square_ends_the_turn():
    b = Board.from_pieces({"h15": "p(s64s49t36t25r16)", "g14": "R16", "a1": "R2"})
    t = b.push("xh15(16)")
    assert t == Turn((Capture(sq("h15"), 16),)) and b.turn == BLACK
    b.pop()
    refused(b, "xh15(16) a1-b2", "rithmo.no_square_freed")


def test_a_turn_needs_something():
    b = Board.start()
    with pytest.raises(DomainError) as err:
        b.play("end")
    assert err.value.code == "rithmo.empty_turn"


@pytest.mark.parametrize("turn,words,code", [
    ("xe5", "no piece", "rithmo.nothing_to_take"),
    ("xd5", "yours", "rithmo.own_piece"),
    ("xe6(16)", "only a pyramid", "rithmo.not_a_pyramid"),
    ("xd1 a4-d1 xe7", "no piece", "rithmo.nothing_to_take"),
])
def test_refused_captures(turn, words, code):
    b = two_victims()
    assert words in refused(b, turn, code)  # was "rithmo.illegal_capture" before issue 13


def test_refused_capture_that_no_method_allows():
    b = Board.from_pieces({"d5": "R16", "e6": "s17"})
    assert "cannot be taken now" in refused(b, "xe6 d5-e6", "rithmo.cannot_take")


def test_refused_component_the_pyramid_does_not_hold():
    b = Board.from_pieces({"h15": "p(s64s49t36t25r16)", "g14": "R16"})
    assert "holds 64, 49, 36, 25, 16" in refused(b, "xh15(9)", "rithmo.no_component")


# ---------------------------------------------------------------- drops

def with_taken():
    return Board.from_pieces({"c1": "R4", "c16": "r3", "d14": "t12"}, "white",
                             {"white": "T36R9", "black": "S25"})


def test_drop_a_taken_piece_on_the_first_rank():
    b = with_taken()
    t = b.push("drop T36 d1")
    assert t.drop == Drop(TRIANGLE, 36, sq("d1"))
    p = b.piece_at("d1")
    assert p.side == WHITE and p.describe() == "triangle 36"
    assert b.taken[WHITE] == [(ROUND, 9)]
    b.pop()
    assert b.taken[WHITE] == [(TRIANGLE, 36), (ROUND, 9)] and b.piece_at("d1") is None


def test_black_drops_on_rank_16():
    b = with_taken()
    b.push("c1-b2")
    b.push("drop S25 a16")
    assert b.piece_at("a16").side == BLACK and b.taken[BLACK] == []


def test_legal_drops_every_taken_piece_on_every_free_square_of_the_first_rank():
    b = with_taken()
    drops = b.legal_drops()
    assert len(drops) == 2 * 7
    assert {d.square for d in drops} == {sq(f"{f}1") for f in "abdefgh"}


@pytest.mark.parametrize("turn,words,code", [
    ("drop T37 d1", "no triangle 37", "rithmo.drop_none"),
    ("drop R9 d2", "first rank (rank 1)", "rithmo.drop_rank"),
    ("drop R9 c1", "occupied", "rithmo.drop_occupied"),
])
def test_refused_drops(turn, words, code):
    assert words in refused(with_taken(), turn, code)  # was "rithmo.illegal_drop" before


def test_no_captures_before_a_drop():
    with pytest.raises(DomainError) as err:
        Turn.parse("xd14 drop T36 d1")
    assert err.value.code == "rithmo.capture_before_drop"


def test_drop_then_capture():
    b = Board.from_pieces({"h8": "R2", "d14": "t12"}, "white", {"white": "R1"})
    b.push("drop R1 d1 xd14")  # 12 empty squares between d1 and d14: 1 × 12 = 12
    assert b.piece_at("d14") is None and b.taken[WHITE] == [(TRIANGLE, 12)]


def test_drop_of_a_pyramid_component_comes_back_as_a_plain_piece():
    b = Board.from_pieces({"h15": "p(s64s49t36t25r16)", "g14": "R16", "a16": "s9"})
    b.push("xh15(16)")
    b.push("a16-a13")
    b.push("drop R16 a1")
    assert b.piece_at("a1").describe() == "round 16"


# ---------------------------------------------------------------- steps for a search

def test_steps_walk_a_turn_phase_by_phase():
    b = two_victims()
    steps = b.legal_steps()
    assert Capture(sq("e6")) in steps and Move(sq("d5"), sq("c6")) in steps
    assert END not in steps and b.phase == START
    cap = next(s for s in steps if s == Capture(sq("e6")))
    assert cap.by == (sq("d5"),)
    b.push_step(cap)
    assert b.phase == BEFORE
    steps = b.legal_steps()
    assert Move(sq("d5"), sq("e6")) in steps and END not in steps
    assert not any(isinstance(s, Move) and s.to != sq("e6") for s in steps)
    b.push_step(Move(sq("d5"), sq("e6")))
    assert b.phase == AFTER and END in b.legal_steps()
    b.push_step(END)
    assert b.phase == START and b.turn == BLACK and str(b.history[-1]) == "xe6 d5-e6"
    assert [str(b.pop_step()) for _ in range(3)] == ["end", "d5-e6", "xe6"]
    assert b.to_json() == two_victims().to_json() and b.key() == two_victims().key()


def test_pop_step_of_an_irregular_move_undoes_the_move_and_its_end():
    b = Board.start()
    b.push_step(Move(sq("a3"), sq("b5")))
    assert b.turn == BLACK
    assert b.pop_step() == Move(sq("a3"), sq("b5"))
    assert b.turn == WHITE and b.to_json() == Board.start().to_json()


def test_legal_turns_lists_whole_turns_once():
    b = two_victims()
    turns = {str(t) for t in b.legal_turns()}
    assert "xe6 d5-e6" in turns and "xe6 xd1 a4-d1" in turns and "d5-c6 xd1" in turns
    assert ("xd1 xe6 a4-d1" in turns) != ("xe6 xd1 a4-d1" in turns)  # one order kept
    assert "a4-b6" in turns
    for t in list(b.legal_turns())[:20]:
        b.push(t)
        b.pop()
    assert b.to_json() == two_victims().to_json()


def test_mid_turn_json_keeps_the_turn_in_progress():
    b = two_victims()
    b.play("xe6")
    data = b.to_json()
    assert data["turn_in_progress"] == "xe6" and "e6" in {p["square"] for p in data["pieces"]}
    again = Board.from_json(data)
    assert again.phase == BEFORE and again.to_json() == data and again.key() == b.key()
    assert b.phase == BEFORE  # serialising did not disturb the turn


# ---------------------------------------------------------------- notation

@pytest.mark.parametrize("text", [
    "c3-c5", "c3-c5 xd7 xe8", "xd7 c3-d7", "xd7 xe8 c3-e8 xf9", "xh15(36)",
    "drop T36 d1", "drop S289 h16 xg14", "a16-h1",
])
def test_notation_round_trip(text):
    t = Turn.parse(text)
    assert str(t) == text and Turn.parse(str(t)) == t


@pytest.mark.parametrize("text,canonical", [
    ("C3 - C5  X d7 x E8", "c3-c5 xd7 xe8"),
    ("×d7 c3–d7", "xd7 c3-d7"),
    ("x h15 ( 36 )", "xh15(36)"),
    ("DROP t36 D1", "drop T36 d1"),
    ("c3-c5, xd7", "c3-c5 xd7"),
    # Issue 16: a move as two squares, a space or nothing between, any dash, any case.
    ("c4 d5", "c4-d5"),
    ("c4d5", "c4-d5"),
    ("C4-D5", "c4-d5"),
    ("c4–d5", "c4-d5"),
    ("c4—d5", "c4-d5"),
    ("c4 → d5", "c4-d5"),
    ("c14d5", "c14-d5"),
    ("h16 h13", "h16-h13"),
    ("xd7 c3 d7", "xd7 c3-d7"),
    ("c3 c5 ×d7 XE8", "c3-c5 xd7 xe8"),
])
def test_notation_is_forgiving_about_case_and_spaces(text, canonical):
    assert str(Turn.parse(text)) == canonical


@pytest.mark.parametrize("text,code", [
    ("", "rithmo.bad_notation"),
    ("c3c", "rithmo.bad_notation"),
    ("c3 c5 d4", "rithmo.bad_notation"),
    ("c3-", "rithmo.bad_notation"),
    ("c3-c5 d4-d6", "rithmo.bad_notation"),
    ("c3-c3", "rithmo.bad_notation"),
    ("drop Q4 d1", "rithmo.bad_notation"),
    ("drop P91 d1", "rithmo.bad_notation"),
    ("drop T0 d1", "rithmo.bad_notation"),
    ("xd7(0)", "rithmo.bad_notation"),
    ("c3-c5 drop T36 d1", "rithmo.bad_notation"),
    ("xi9", "rithmo.bad_square"),
    ("c3-c17", "rithmo.bad_square"),
    ("c0-c2", "rithmo.bad_square"),
])
def test_bad_notation_is_refused_with_a_reason(text, code):
    with pytest.raises(DomainError) as err:
        Turn.parse(text)
    assert err.value.code == code and str(err.value)


def test_turn_parts():
    t = Turn.parse("xd7 xe8 c3-e8 xf9")
    assert [str(c) for c in t.before] == ["xd7", "xe8"] and str(t.move) == "c3-e8"
    assert [str(c) for c in t.after] == ["xf9"] and len(t.captures) == 3
    assert not t.move.irregular and Turn.parse("a3-b5").move.irregular


def test_turn_from_the_steps_a_search_walked():
    b = two_victims()
    walked = []
    for text in ("xe6", "d5-e6"):
        walked.append(b.play(text))
    walked.append(b.play("end"))
    t = Turn.from_steps(walked)
    assert t == b.history[-1] and str(t) == "xe6 d5-e6"
    again = two_victims()
    assert again.push(t) == t
