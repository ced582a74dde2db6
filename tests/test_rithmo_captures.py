"""Rithmomachia: the six captures, where each applies and where it just fails, the rules page's
worked examples re-created on the board, and pyramids."""

import pytest

from bot.rithmo import BLACK, PYRAMID, ROUND, SQUARE, TRIANGLE, WHITE, Board, Capture, parse_square


def options(board):
    """The captures open to the side to move as {(victim, method, capturers...)}, the capturers'
    squares in alphabetical order."""
    return {(c["victim"], c["method"], *sorted(c["by"])) for c in board.capture_options()}


def methods_on(board, victim):
    return {c["method"] for c in board.capture_options() if c["victim"] == victim}


# ---------------------------------------------------------------- 1. Encounter

def test_encounter_equal_values_within_a_regular_move():
    b = Board.from_pieces({"d5": "R16", "e6": "s16"})
    assert ("e6", "encounter", "d5") in options(b)


def test_encounter_fails_when_the_value_is_off_by_one():
    b = Board.from_pieces({"d5": "R16", "e6": "s17"})
    assert options(b) == set()


def test_encounter_fails_when_the_path_is_blocked():
    open_path = Board.from_pieces({"d5": "T16", "d7": "s16"})
    assert ("d7", "encounter", "d5") in options(open_path)
    blocked = Board.from_pieces({"d5": "T16", "d7": "s16", "d6": "R5"})
    assert "encounter" not in methods_on(blocked, "d7")


def test_encounter_fails_out_of_reach():
    # e7 is neither on a line with d5 nor within the round's one diagonal step
    b = Board.from_pieces({"d5": "R16", "e7": "s16"})
    assert options(b) == set()


def test_encounter_fails_at_an_irregular_reach():
    # e7 is a knight's leap from the triangle: a leap gives no reach
    b = Board.from_pieces({"d5": "T16", "e7": "s16"})
    assert options(b) == set()


def test_captures_are_only_against_the_enemy():
    b = Board.from_pieces({"d5": "R16", "b5": "s17", "c6": "r16"}, "black")
    assert options(b) == {("d5", "encounter", "c6")}


# ---------------------------------------------------------------- 2. Ambush

@pytest.mark.parametrize("victim", [12, 4, 32, 2])  # 8 + 4, 8 − 4, 8 × 4, 8 ÷ 4
def test_ambush_sum_difference_product_ratio(victim):
    b = Board.from_pieces({"b1": "R8", "b3": "R4", "c2": f"t{victim}"})
    assert ("c2", "ambush", "b1", "b3") in options(b)


def test_ambush_fails_when_the_value_is_off_by_one():
    b = Board.from_pieces({"b1": "R8", "b3": "R4", "c2": "t13"})
    assert options(b) == set()


def test_ambush_ratio_must_be_exact():
    b = Board.from_pieces({"b1": "R9", "b3": "R4", "c2": "t2"})
    assert "ambush" not in methods_on(b, "c2")


def test_ambush_fails_when_one_capturer_is_out_of_reach():
    b = Board.from_pieces({"b1": "R8", "a4": "R4", "c2": "t12"})
    assert "ambush" not in methods_on(b, "c2")


def test_ambush_fails_when_one_path_is_blocked():
    b = Board.from_pieces({"c4": "T8", "b1": "R4", "c2": "t12", "c3": "r5"})
    assert "ambush" not in methods_on(b, "c2")
    b = Board.from_pieces({"c4": "T8", "b1": "R4", "c2": "t12"})
    assert ("c2", "ambush", "b1", "c4") in options(b)


# ---------------------------------------------------------------- 3. Assault

def test_assault_value_is_capturer_times_empty_squares_between():
    b = Board.from_pieces({"a4": "T6", "d1": "t12"})  # b3, c2 between: 6 × 2 = 12
    assert options(b) == {("d1", "assault", "a4")}


def test_assault_by_ratio():
    b = Board.from_pieces({"a4": "T12", "d1": "t6"})  # 12 = 6 × 2
    assert options(b) == {("d1", "assault", "a4")}


def test_assault_needs_no_reach_any_distance():
    b = Board.from_pieces({"c1": "R2", "c10": "s16"})  # 8 empty squares c2–c9: 2 × 8 = 16
    assert options(b) == {("c10", "assault", "c1")}


def test_assault_with_one_empty_square_between_equal_values_count():
    b = Board.from_pieces({"c1": "S15", "e3": "r15"})
    assert ("e3", "assault", "c1") in options(b)


def test_assault_fails_when_the_value_is_off_by_one():
    b = Board.from_pieces({"a4": "T6", "d1": "t13"})
    assert options(b) == set()


def test_assault_fails_when_a_square_between_is_occupied():
    b = Board.from_pieces({"a4": "T6", "d1": "t12", "c2": "R5"})
    assert "assault" not in methods_on(b, "d1")


def test_assault_needs_a_line():
    b = Board.from_pieces({"a4": "T6", "d2": "t12"})
    assert options(b) == set()


def test_assault_fails_side_by_side_no_square_between():
    b = Board.from_pieces({"c1": "S15", "d1": "r15"})
    assert "assault" not in methods_on(b, "d1")


# ---------------------------------------------------------------- 4. Power

def test_power_victim_is_a_power_of_the_capturer():
    b = Board.from_pieces({"a2": "R3", "b3": "s81"})
    assert options(b) == {("b3", "power", "a2")}


def test_power_victim_is_a_root_of_the_capturer():
    b = Board.from_pieces({"a2": "R81", "b3": "s3"})
    assert options(b) == {("b3", "power", "a2")}


def test_power_fails_when_the_value_is_off_by_one():
    b = Board.from_pieces({"a2": "R3", "b3": "s80"})
    assert options(b) == set()


def test_power_fails_out_of_reach():
    b = Board.from_pieces({"a2": "R3", "c4": "s81"})  # on a line, but 3 × 1 ≠ 81
    assert options(b) == set()


def test_power_fails_at_an_irregular_reach():
    b = Board.from_pieces({"a2": "T3", "b4": "s81"})  # a knight's leap away
    assert options(b) == set()


def test_power_of_one_only_takes_a_one():
    b = Board.from_pieces({"a2": "R1", "b3": "s5"})
    assert options(b) == set()


# ---------------------------------------------------------------- 5. Progression

@pytest.mark.parametrize("values", [(15, 20, 25), (2, 4, 8), (3, 4, 6)],
                         ids=["arithmetic", "geometric", "harmonic"])
def test_progression_of_the_three_kinds(values):
    a, b_, v = values
    b = Board.from_pieces({"d1": f"S{a}", "a3": f"T{b_}", "a1": f"r{v}"})
    assert ("a1", "progression", "a3", "d1") in options(b)


def test_progression_victim_may_be_in_the_middle():
    b = Board.from_pieces({"d1": "S15", "a3": "T25", "a1": "r20"})
    assert ("a1", "progression", "a3", "d1") in options(b)


def test_progression_fails_when_the_value_is_off_by_one():
    b = Board.from_pieces({"d1": "S15", "a3": "T20", "a1": "r26"})
    assert "progression" not in methods_on(b, "a1")


def test_progression_fails_when_one_capturer_only_leaps_there():
    b = Board.from_pieces({"d1": "S15", "b3": "T20", "a1": "r25"})  # b3-a1: a knight's leap
    assert "progression" not in methods_on(b, "a1")


def test_progression_needs_three_different_values():
    b = Board.from_pieces({"d1": "S7", "a3": "T7", "a1": "r7"})
    assert "progression" not in methods_on(b, "a1")
    assert "encounter" in methods_on(b, "a1")


def test_progression_fails_when_one_capturer_is_blocked():
    b = Board.from_pieces({"d1": "S15", "a3": "T20", "a1": "r25", "b1": "R2"})
    assert "progression" not in methods_on(b, "a1")


# ---------------------------------------------------------------- 6. Emprisonment

def test_emprisonment_of_a_piece_with_no_regular_move():
    # the round on a1 has one regular move, to b2, where a White piece stands
    b = Board.from_pieces({"a1": "r9", "b2": "T6"})
    assert options(b) == {("a1", "emprisonment", "b2")}


def test_emprisonment_counts_every_blocker_of_the_capturing_side():
    # triangle on a1: a3 blocked through a2 (White), c1 blocked through b1 (Black) and at c1
    b = Board.from_pieces({"a1": "t30", "a2": "R5", "b1": "r7", "c1": "S11"})
    assert options(b) == {("a1", "emprisonment", "a2", "c1")}


def test_emprisonment_fails_with_one_free_move():
    b = Board.from_pieces({"a1": "t30", "a2": "R5", "b1": "r7"})
    assert "emprisonment" in methods_on(b, "a1")
    b = Board.from_pieces({"a1": "t30", "a2": "R5"})  # a1-c1 is free
    assert "emprisonment" not in methods_on(b, "a1")


def test_emprisonment_fails_when_only_its_own_side_blocks():
    b = Board.start()
    b.turn = WHITE
    # Black's a16 square is walled in by Black pieces only
    assert "emprisonment" not in methods_on(b, "a16")


def test_emprisonment_of_a_pyramid_takes_it_whole_and_uses_all_its_shapes():
    walled = {"a1": "p(t25r16)", "b2": "R6", "a3": "R7", "c1": "r3"}
    b = Board.from_pieces(walled)
    assert options(b) == {("a1", "emprisonment", "a3", "b2")}
    assert Capture(parse_square("a1"), 0) in b.captures()
    walled.pop("a3")
    assert options(Board.from_pieces(walled)) == set()


# ---------------------------------------------------------------- the rules page's examples

def test_worked_example_encounter():
    # B1: White round; D3: Black square. White moves to C2 and can take the square.
    b = Board.from_pieces({"b1": "R16", "d3": "s16"})
    assert "encounter" not in methods_on(b, "d3")
    b.push_step(next(m for m in b.legal_steps() if str(m) == "b1-c2"))
    assert ("d3", "encounter", "c2") in options(b)
    b.play("xd3")
    b.play("end")
    assert b.piece_at("d3") is None and b.taken[WHITE] == [(SQUARE, 16)]


def test_worked_example_ambush():
    # B1, A4: Black rounds 8 and 4; C2: the White triangle 12. Black moves the 4 to B3: 8 + 4.
    b = Board.from_pieces({"b1": "r8", "a4": "r4", "c2": "T12"}, "black")
    assert options(b) == set()
    b.push_step(next(m for m in b.legal_steps() if str(m) == "a4-b3"))
    assert ("c2", "ambush", "b1", "b3") in options(b)
    b.play("xc2")
    b.play("end")
    assert b.piece_at("c2") is None and b.taken[BLACK] == [(TRIANGLE, 12)]


def test_worked_example_assault():
    # D1: White triangle 12; B3: Black round 2; A4: Black triangle 6. The 2 steps aside (A2 or
    # C4): two empty squares between, 12 / 6 = 2.
    for aside in ("a2", "c4"):
        b = Board.from_pieces({"d1": "T12", "b3": "r2", "a4": "t6"}, "black")
        assert options(b) == set()
        b.push(f"b3-{aside} xd1")
        assert b.piece_at("d1") is None and b.taken[BLACK] == [(TRIANGLE, 12)]
    b = Board.from_pieces({"d1": "T12", "b3": "r2", "a4": "t6"}, "black")
    b.push_step(next(m for m in b.legal_steps() if str(m) == "b3-c2"))
    assert options(b) == set()  # c2 is still between


def test_worked_example_power():
    # B1: the round 3; B3: the enemy square 81. Moved to A2 or C2, the 3 takes 81 = 3^4.
    for to in ("a2", "c2"):
        b = Board.from_pieces({"b1": "R3", "b3": "s81"})
        b.push(f"b1-{to} xb3")
        assert b.taken[WHITE] == [(SQUARE, 81)]


def test_worked_example_progression():
    # A1: White round 25; D1: Black square 15; C3: Black triangle 20. The 20 goes to A3:
    # 15-20-25, and both are within a regular move of the 25.
    b = Board.from_pieces({"a1": "R25", "d1": "s15", "c3": "t20"}, "black")
    assert options(b) == set()
    b.push_step(next(m for m in b.legal_steps() if str(m) == "c3-a3"))
    assert ("a1", "progression", "a3", "d1") in options(b)
    b.play("xa1")
    assert b.taken[BLACK] == [(ROUND, 25)]


def test_worked_example_emprisonment():
    # B2: White triangle 30 (a White piece on D2 closes its last way); D4: Black triangle 72 goes
    # to B4 and the 30 has no regular move left.
    b = Board.from_pieces({"b2": "T30", "d2": "R5", "d4": "t72"}, "black")
    assert options(b) == set()
    b.push_step(next(m for m in b.legal_steps() if str(m) == "d4-b4"))
    assert options(b) == {("b2", "emprisonment", "b4")}
    b.play("xb2")
    b.play("end")
    assert b.taken[BLACK] == [(TRIANGLE, 30)]


# ---------------------------------------------------------------- pyramids

BLACK_PYRAMID = "p(s64s49t36t25r16)"


def test_pyramid_component_taken_by_its_value():
    b = Board.from_pieces({"h15": BLACK_PYRAMID, "g14": "R16"})
    assert ("h15", "encounter", "g14") in options(b)
    assert b.captures() == [Capture(parse_square("h15"), 16, (parse_square("g14"),))]
    b.push("xh15(16)")  # taken first, nothing freed: the turn ends there
    pyr = b.piece_at("h15")
    assert pyr.shape == PYRAMID and pyr.value == 174
    assert [v for _, v in pyr.parts] == [64, 49, 36, 25]
    assert b.taken[WHITE] == [(ROUND, 16)] and b.turn == BLACK
    assert str(b.history[-1]) == "xh15(16)"


def test_pyramid_taken_whole_by_its_total_gives_every_component():
    b = Board.from_pieces({"h15": BLACK_PYRAMID, "h12": "S190"})
    assert options(b) == {("h15", "encounter", "h12")}
    b.push("xh15 h12-h15")
    assert b.piece_at("h15").describe() == "square 190"
    assert sorted(b.taken[WHITE]) == sorted(
        [(SQUARE, 64), (SQUARE, 49), (TRIANGLE, 36), (TRIANGLE, 25), (ROUND, 16)])


def test_pyramid_taken_component_by_component_until_it_is_gone():
    b = Board.from_pieces({"e6": "p(t25r16)", "d5": "R16", "f5": "R25", "a16": "s3"})
    b.push("xe6(16) xe6 f5-e6")  # the 16, then the last component (whole), then step in
    assert b.piece_at("e6").describe() == "round 25"
    assert sorted(b.taken[WHITE]) == [(ROUND, 16), (TRIANGLE, 25)]
    assert not b.has_pyramid(BLACK)


def test_pyramid_down_to_one_component_is_still_a_pyramid_taken_whole():
    b = Board.from_pieces({"e6": "p(t25r16)", "d5": "R16", "f5": "R25", "a16": "s3"})
    b.push("xe6(16)")
    last = b.piece_at("e6")
    assert last.shape == PYRAMID and last.value == 25 and b.has_pyramid(BLACK)
    b.push("a16-a13")
    # its one component is the whole pyramid: one capture, whichever way it is written
    assert b.captures() == [Capture(parse_square("e6"), 0, (parse_square("f5"),))]
    b.push("xe6(25) f5-e6")
    assert str(b.history[-1]) == "xe6 f5-e6" and not b.has_pyramid(BLACK)


def test_pyramid_capturing_with_a_component_value():
    b = Board.from_pieces({"d5": "P(S36R4)", "e6": "r4"})
    assert options(b) == {("e6", "encounter", "d5")}


def test_pyramid_capturing_with_its_total():
    b = Board.from_pieces({"d5": "P(S36R4)", "e6": "r40"})
    assert options(b) == {("e6", "encounter", "d5")}


def test_pyramid_reaches_only_with_the_shapes_it_still_holds():
    b = Board.from_pieces({"d5": "P(S36T4)", "e6": "r4"})
    assert options(b) == set()


def test_pyramid_component_by_power_and_whole_by_ambush():
    # the Black pyramid 77 = 64 + 9 + 4; the round 2 and the round 75 both reach it
    b = Board.from_pieces({"d6": "p(s64t9r4)", "c5": "R2", "e5": "R75"})
    opts = b.capture_options()
    assert {"victim": "d6", "method": "power", "by": ["c5"], "value": 64} in opts  # 2^6
    assert {"victim": "d6", "method": "power", "by": ["c5"], "value": 4} in opts  # 2^2
    assert {"victim": "d6", "method": "ambush", "by": ["c5", "e5"], "value": 77} in opts
    assert {c["value"] for c in opts} == {64, 4, 77}
    d6, c5, e5 = (parse_square(s) for s in ("d6", "c5", "e5"))
    assert set(b.captures()) == {Capture(d6, 64), Capture(d6, 4), Capture(d6, 0)}
    assert next(c for c in b.captures() if c.part == 0).by == (c5, e5)


def test_threats_are_the_captures_the_other_side_would_have():
    b = Board.from_pieces({"d5": "R16", "e6": "r16"})
    assert b.captures(BLACK) == [Capture(parse_square("d5"), 0, (parse_square("e6"),))]
    assert b.captures(WHITE) == b.captures()
