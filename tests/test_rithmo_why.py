"""Every capture explained: the arithmetic of each of the six methods and of a pyramid's
component, as data (bot.rithmo.why) and as a sentence in both languages (bot.ui.rithmo_explain),
and the scan and the explanation agreeing along random games."""

import random

import pytest

from bot.play.rithmo_turns import last_turn_json, turn_explanations
from bot.rithmo import Board, Capture, Turn
from bot.rithmo.why import RELATIONS, explain_capture, explained_options, why
from bot.ui.rithmo_explain import capture_text, superscript
from tests.french import fr


def only(board: Board, victim: str, method: str) -> dict:
    found = [o for o in explained_options(board) if o["victim"] == victim and o["method"] == method]
    assert len(found) == 1, explained_options(board)
    return found[0]


def both(entry: dict) -> tuple[str, str]:
    return capture_text(entry, "en"), capture_text(entry, "fr")


def test_encounter_equal_numbers_meet() -> None:
    entry = only(Board.from_pieces({"d5": "R16", "e6": "s16"}), "e6", "encounter")
    assert entry["why"] == {"relation": "equal", "values": [16], "result": 16}
    assert both(entry) == ("16 taken by encounter: 16 = 16", fr("16 pris par rencontre : 16 = 16"))


@pytest.mark.parametrize(("victim", "relation", "en", "fr"), [
    (12, "sum", "12 taken by ambush: 8 + 4 = 12", fr("12 pris par embuscade : 8 + 4 = 12")),
    (4, "difference", "4 taken by ambush: 8 − 4 = 4", fr("4 pris par embuscade : 8 − 4 = 4")),
    (32, "product", "32 taken by ambush: 8 × 4 = 32", fr("32 pris par embuscade : 8 × 4 = 32")),
    (2, "ratio", "2 taken by ambush: 8 ÷ 4 = 2", fr("2 pris par embuscade : 8 ÷ 4 = 2")),
])
def test_ambush_says_which_operation(victim: int, relation: str, en: str, fr: str) -> None:
    entry = only(Board.from_pieces({"b1": "R8", "b3": "R4", "c2": f"t{victim}"}), "c2", "ambush")
    assert entry["why"] == {"relation": relation, "values": [8, 4], "result": victim}
    assert both(entry) == (en, fr)


def test_assault_counts_the_empty_squares_between() -> None:
    # The round 6 on a1 and the 30 on a7: five empty squares between, 6 × 5 = 30.
    entry = only(Board.from_pieces({"a1": "R6", "a7": "t30"}), "a7", "assault")
    assert entry["why"] == {"relation": "distance", "values": [6, 5], "result": 30,
                            "operation": "product", "empty": 5}
    assert both(entry) == (
        "30 taken by assault: 6 × 5 = 30, with 5 empty squares between",
        fr("30 pris par assaut : 6 × 5 = 30, avec 5 cases vides entre les deux"))


def test_assault_the_other_way_divides_and_one_square_is_singular() -> None:
    # The capturer is the multiple: the 30 on a1 takes the 6 on a7, five squares away.
    entry = only(Board.from_pieces({"a1": "T30", "a7": "r6"}), "a7", "assault")
    assert entry["why"]["operation"] == "ratio"
    assert capture_text(entry, "en") == (
        "6 taken by assault: 30 ÷ 5 = 6, with 5 empty squares between")
    one = only(Board.from_pieces({"a1": "R7", "a3": "r7"}), "a3", "assault")
    assert one["why"]["empty"] == 1
    assert both(one) == ("7 taken by assault: 7 × 1 = 7, with 1 empty square between",
                         fr("7 pris par assaut : 7 × 1 = 7, avec 1 case vide entre les deux"))


def test_power_and_root() -> None:
    up = only(Board.from_pieces({"d5": "R3", "e6": "s81"}), "e6", "power")
    assert up["why"] == {"relation": "power", "values": [3, 4], "result": 81}
    assert both(up) == ("81 taken by power: 3⁴ = 81", fr("81 pris par puissance : 3⁴ = 81"))
    down = only(Board.from_pieces({"d5": "R81", "e6": "s3"}), "e6", "power")
    assert down["why"] == {"relation": "root", "values": [81, 4], "result": 3}
    assert both(down) == (
        "3 taken by power: 3⁴ = 81, so 3 is the fourth root of 81",
        fr("3 pris par puissance : 3⁴ = 81, donc 3 est la racine quatrième de 81"))
    square = only(Board.from_pieces({"d5": "R49", "e6": "s7"}), "e6", "power")
    assert capture_text(square, "en").endswith("so 7 is the square root of 49")


@pytest.mark.parametrize(("a", "b", "victim", "relation", "step", "en", "fr"), [
    (15, 20, 25, "arithmetic", 5, "25 taken by progression: 15, 20, 25 (arithmetic, difference 5)",
     fr("25 pris par progression : 15, 20, 25 (suite arithmétique de raison 5)")),
    (4, 6, 9, "geometric", "3/2", "9 taken by progression: 4, 6, 9 (geometric, ratio 3/2)",
     fr("9 pris par progression : 4, 6, 9 (suite géométrique de raison 3/2)")),
    (3, 6, 4, "harmonic", "1/12",
     "4 taken by progression: 3, 4, 6 (harmonic: the reciprocals 1/3, 1/4, 1/6 go down by 1/12)",
     fr("4 pris par progression : 3, 4, 6 (harmonique : les inverses 1/3, 1/4, 1/6 diminuent de "
     "1/12 à chaque fois)")),
])
def test_progression_names_its_kind_and_step(a: int, b: int, victim: int, relation: str,
                                             step: object, en: str, fr: str) -> None:
    entry = only(Board.from_pieces({"b1": f"R{a}", "b3": f"R{b}", "c2": f"t{victim}"}), "c2",
                 "progression")
    assert entry["why"]["relation"] == relation and entry["why"]["step"] == step
    assert entry["why"]["values"] == sorted([a, b, victim])
    assert both(entry) == (en, fr)


def test_emprisonment_says_no_move_is_left() -> None:
    # The black round in the corner a16 can only step to b15, which a white piece holds.
    entry = only(Board.from_pieces({"b15": "R7", "a16": "r30"}), "a16", "emprisonment")
    assert entry["why"] == {"relation": "surrounded", "values": [], "result": 30}
    assert both(entry) == ("30 imprisoned: no regular move left",
                           fr("30 emprisonné : plus aucun déplacement régulier possible"))


def test_a_pyramid_component_says_which_component_and_its_pyramid() -> None:
    # The round 4 takes either component of the pyramid 80: 16 = 4², 64 = 4³.
    board = Board.from_json({"to_move": "white", "pieces": [
        {"square": "g14", "side": "white", "shape": "round", "value": 4},
        {"square": "h15", "side": "black", "shape": "pyramid",
         "parts": [{"shape": "square", "value": 64}, {"shape": "round", "value": 16}]}]})
    entries = [o for o in explained_options(board) if o["victim"] == "h15"]
    assert [o["why"] for o in entries] == [
        {"relation": "power", "values": [4, 2], "result": 16, "pyramid": 80},
        {"relation": "power", "values": [4, 3], "result": 64, "pyramid": 80}]
    assert [capture_text(o, "en") for o in entries] == [
        "16 (of pyramid 80) taken by power: 4² = 16", "64 (of pyramid 80) taken by power: 4³ = 64"]
    assert capture_text(entries[1], "fr") == fr(
        "64 (de la pyramide 80) pris par puissance : 4³ = 64")


def test_a_turns_captures_are_explained_in_order_on_the_board_as_it_was() -> None:
    # 8 and 4 ambush the 12 (also 4-8-12, a progression: the rules' order puts ambush first).
    board = Board.from_pieces({"b1": "R8", "b3": "R4", "c2": "t12", "h16": "r5"})
    assert explain_capture(board, Capture(board.captures()[0].square))["method"] == "ambush"
    turn = Turn.parse("xc2 b1-c2")
    whys = turn_explanations(board, turn)
    assert [w["why"] for w in whys] == [{"relation": "sum", "values": [8, 4], "result": 12}]
    assert last_turn_json(turn, whys)["why"] == whys
    assert str(board) == str(Board.from_pieces({"b1": "R8", "b3": "R4", "c2": "t12",
                                                "h16": "r5"}))  # the board is given back


def test_why_refuses_a_way_that_does_not_hold() -> None:
    board = Board.from_pieces({"d5": "R16", "e6": "s16"})
    with pytest.raises(ValueError):
        why(board, "e6", 16, "power", ["d5"])


def test_superscripts() -> None:
    assert superscript(4) == "⁴" and superscript(12) == "¹²"


def test_every_capture_of_random_games_has_its_arithmetic() -> None:
    """The scan and the explanation agree: along random games, every way to capture that the
    scan lists is explained, with a relation of the contract, and the arithmetic holds."""
    rng = random.Random(20261201)
    seen: set[str] = set()
    for _ in range(12):
        board = Board.start()
        for _ply in range(140):
            for entry in explained_options(board):
                w = entry["why"]
                assert w["relation"] in RELATIONS and w["result"] == entry["value"]
                vals = w["values"]
                r = w["relation"]
                if r == "sum":
                    assert vals[0] + vals[1] == w["result"]
                elif r == "product":
                    assert vals[0] * vals[1] == w["result"]
                elif r == "power":
                    assert vals[0] ** vals[1] == w["result"]
                elif r == "root":
                    assert w["result"] ** vals[1] == vals[0]
                elif r == "distance":
                    assert w["result"] in (vals[0] * vals[1], vals[0] / vals[1])
                capture_text(entry, "en"), capture_text(entry, "fr")
                seen.add(r)
            steps = board.legal_steps()
            if not steps:
                break
            caps = [s for s in steps if isinstance(s, Capture)]
            board.push_step(rng.choice(caps) if caps and rng.random() < 0.8 else rng.choice(steps))
    assert {"equal", "distance", "surrounded", "power", "root"} <= seen


def test_the_picture_is_handed_each_sentence_in_the_members_language() -> None:
    from bot.ui.rithmo import explained_turn

    board = Board.from_pieces({"b1": "R8", "b3": "R4", "c2": "t12", "h16": "r5"})
    turn = Turn.parse("xc2 b1-c2")
    last = last_turn_json(turn, turn_explanations(board, turn))
    assert explained_turn(last, "fr")["explained"] == [fr("12 pris par embuscade : 8 + 4 = 12")]
    assert explained_turn(last_turn_json(turn), "en") == last_turn_json(turn)  # nothing to add
