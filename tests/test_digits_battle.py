"""The battle engine against the rules page: one test per worked example (each of the 20 digits and
the targeting example) and the contract's example of engine-commands.md.

The rulings of digits-rulings.md have their own file, tests/test_digits_battle_rulings.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.digits.battle import BattleResult, fight, outcome
from bot.digits.slate import Slate


def battle(left: dict[str, Any], right: dict[str, Any], left_focus: int = 0,
           right_focus: int = 0) -> BattleResult:
    result = fight(Slate.from_json(left), Slate.from_json(right), left_focus, right_focus)
    # Every battle of these tests also checks that the outcome-only path agrees.
    assert outcome(Slate.from_json(left), Slate.from_json(right), left_focus, right_focus) == (
        result.winner, result.exchanges)
    return result


def hits(result: BattleResult, exchange: int, side: str = "left",
         cell: int | None = None) -> list[tuple[int, int, int]]:
    """(target cell, hit, damage) of the hits made by ``side`` (from ``cell``) in ``exchange``."""
    entry = result.log[exchange - 1]
    assert entry["exchange"] == exchange
    return [(h["to"], h["hit"], h["damage"]) for h in entry["hits"]
            if h["side"] == side and (cell is None or h["from"] == cell)]


def opening_atk(result: BattleResult, side: str, cell: int) -> int:
    return result.opening[side][cell]["atk"]


# --- Tier 1 -------------------------------------------------------------------------------------

def test_plus_n1_behind_odd_n1_opens_it_at_5_atk():
    r = battle({"1": "Odd", "5": "Plus N1"}, {"4": "Zero"})
    assert opening_atk(r, "left", 1) == 3 + 2


def test_minus_n2_facing_odd_n1_opens_it_at_0_atk():
    r = battle({"1": "Odd"}, {"1": "Minus N2"})
    assert opening_atk(r, "left", 1) == 0


def test_double_n2_behind_a_3_atk_front_digit_hits_6_6_then_3():
    # Modulo N1 is a front digit of 3 ATK with no bonus; Zero N3 does not hit back.
    r = battle({"1": "Modulo", "5": "Double N2"}, {"1": "Zero N3"})
    assert [hits(r, e, cell=1)[0][1] for e in (1, 2, 3)] == [6, 6, 3]


def test_zero_n2_takes_2_then_5_as_1_then_3():
    # Minus N1 hits 2, Carry N2 hits 5; both aim at the lone Zero N2 (9 HP).
    r = battle({"1": "Minus", "2": "Carry N2"}, {"1": "Zero N2"})
    assert r.opening["right"][1]["hp"] == 9
    assert hits(r, 1) == [(1, 2, 1), (1, 5, 3)]
    hp = [9]
    for _to, _hit, damage in hits(r, 1):
        hp.append(hp[-1] - damage)
    assert hp == [9, 8, 5]
    assert r.snapshots[1]["right"][1]["hp"] == 5


def test_even_n1_hits_4_at_4_hp_and_2_at_3_hp():
    # Abacus N1 (1 ATK, Focus 0) takes 1 HP off the Even each exchange; Zero N3 soaks its hits.
    r = battle({"1": "Even"}, {"1": "Zero N3", "2": "Abacus"})
    assert r.snapshots[0]["left"][1]["hp"] == 4 and hits(r, 1, cell=1)[0][1] == 4
    assert r.snapshots[1]["left"][1]["hp"] == 3 and hits(r, 2, cell=1)[0][1] == 2


def test_odd_n2_hits_7_at_5_hp_and_4_at_4_hp():
    r = battle({"1": "Odd N2"}, {"1": "Zero N3", "2": "Abacus"})
    assert r.snapshots[0]["left"][1]["hp"] == 5 and hits(r, 1, cell=1)[0][1] == 7
    assert r.snapshots[1]["left"][1]["hp"] == 4 and hits(r, 2, cell=1)[0][1] == 4


# --- Tier 2 -------------------------------------------------------------------------------------

def test_prime_n3_hits_5_at_9_hp_and_12_at_7_hp():
    # Minus N1 (2 ATK) takes the Prime from 9 to 7 HP; its opening hits an empty cell.
    r = battle({"1": "Prime N3"}, {"1": "Zero N3", "2": "Minus"})
    assert r.snapshots[0]["left"][1]["hp"] == 9 and hits(r, 1, cell=1)[0][1] == 5
    assert r.snapshots[1]["left"][1]["hp"] == 7 and hits(r, 2, cell=1)[0][1] == 12


def test_half_n1_against_13_hp_hits_6():
    r = battle({"1": "Half"}, {"1": "Delta N2"})
    assert r.opening["right"][1]["hp"] == 13
    assert hits(r, 1) == [(1, 6, 6)]


def test_square_n2_opens_with_a_shield_of_9_that_absorbs_the_first_hits():
    r = battle({"1": "Square N2"}, {"1": "Odd"})
    assert r.opening["left"][1] == {"digit": "Square", "level": 2, "atk": 3, "hp": 6, "shield": 9}
    assert hits(r, 1, side="right") == [(1, 5, 0)]  # Odd N1 at 3 HP hits 5: all absorbed
    assert r.snapshots[1]["left"][1]["shield"] == 4 and r.snapshots[1]["left"][1]["hp"] == 6


def test_twin_n1_with_two_allies_at_2_atk_opens_at_4_6():
    r = battle({"1": "Twin", "2": "Minus", "3": "Even"}, {"8": "Zero"})
    assert r.opening["left"][1] == {"digit": "Twin", "level": 1, "atk": 4, "hp": 6, "shield": 0}


def test_abacus_n1_after_a_focus_of_4_opens_at_5_atk():
    r = battle({"1": "Abacus"}, {"8": "Zero"}, left_focus=4)
    assert opening_atk(r, "left", 1) == 1 + 4


# --- Tier 3 -------------------------------------------------------------------------------------

def test_splitter_n1_hits_3_on_its_target_and_3_on_the_digit_behind():
    r = battle({"1": "Splitter"}, {"1": "Delta", "5": "Delta"})
    assert hits(r, 1) == [(1, 3, 3), (5, 3, 3)]


def test_splitter_n1_with_nobody_behind_its_target_hits_it_for_6():
    r = battle({"1": "Splitter"}, {"1": "Delta"})
    assert hits(r, 1) == [(1, 6, 6)]


def test_modulo_n1_ignores_a_hit_of_12_then_falls_to_minus_5_from_13():
    # Even N3 + Plus N2: 8 ATK at 8 HP (even) hits 12; Odd N3 + Plus N2: 9 ATK at 7 HP hits 13.
    r = battle({"1": "Even N3", "5": "Plus N2", "2": "Odd N3", "6": "Plus N2"}, {"1": "Modulo"})
    assert r.opening["right"][1]["hp"] == 8
    assert hits(r, 1) == [(1, 12, 0), (1, 13, 13)]  # 8 − 13 = −5
    assert r.log[0]["falls"] == [{"side": "right", "cell": 1, "digit": "Modulo"}]
    assert (r.winner, r.exchanges) == ("left", 1)


def test_sigma_n1_behind_a_front_row_at_5_0_4_2_opens_at_2_atk():
    # Carry N2 = 5, Zero = 0, Delta N2 = 4, Minus N1 = 2 (its Minus finds no opposing front 4).
    r = battle({"1": "Carry N2", "2": "Zero", "3": "Delta N2", "4": "Minus", "5": "Sigma"},
               {"8": "Zero"})
    assert [opening_atk(r, "left", c) for c in (1, 2, 3, 4)] == [5, 0, 4, 2]
    assert opening_atk(r, "left", 5) == 11 // 4 == 2


def test_average_n1_behind_a_front_row_at_2_2_3_0_sets_each_to_2():
    r = battle({"1": "Minus", "2": "Even", "3": "Odd", "4": "Zero", "5": "Average"},
               {"8": "Zero"})
    assert [opening_atk(r, "left", c) for c in (1, 2, 3, 4)] == [2, 2, 2, 2]


def test_carry_n2_in_front_of_odd_n2_gives_it_5_atk_and_it_moves_up():
    # Odd N2 under Power N2 (16 ATK, hits 19) fells the Carry; the Carry fells it back.
    r = battle({"1": "Carry N2", "5": "Odd N2"}, {"1": "Odd N2", "5": "Power N2"})
    first = r.log[0]
    assert {"side": "left", "cell": 1, "digit": "Carry", "gives": {"to": 5, "atk": 5}} in (
        first["falls"])
    assert {"side": "left", "from": 5, "to": 1} in first["moves"]
    assert r.snapshots[1]["left"] == {
        1: {"digit": "Odd", "level": 2, "atk": 4 + 5, "hp": 5, "shield": 0}}


# --- Tier 4 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("level,atk", [(1, 9), (2, 16)])
def test_power_behind_a_6_atk_front_digit_gives_36_capped(level, atk):
    r = battle({"1": "Splitter", "5": f"Power N{level}"}, {"8": "Zero"})
    assert opening_atk(r, "left", 1) == atk


def test_pi_n1_hits_one_target_then_the_whole_front_row_on_exchange_3():
    r = battle({"5": "Pi"}, {"1": "Zero N3", "2": "Zero N3", "3": "Zero N3", "4": "Zero N3"})
    assert hits(r, 1) == [(1, 3, 1)]
    assert hits(r, 2) == [(1, 3, 1)]
    assert [(to, hit) for to, hit, _ in hits(r, 3)] == [(1, 3), (2, 3), (3, 3), (4, 3)]


def test_delta_n1_down_to_3_hp_hits_6():
    # Odd N2 (5 HP) hits 7: the Delta drops from 10 to 3.
    r = battle({"1": "Delta"}, {"1": "Odd N2"})
    assert hits(r, 1) == [(1, 3, 3)]
    assert r.snapshots[1]["left"][1]["hp"] == 3
    assert hits(r, 2) == [(1, 3 + 7 // 2, 6)]


def test_fibo_n2_base_hits_4_4_8_12_20_32():
    r = battle({"1": "Fibo N2"}, {str(c): "Zero N3" for c in range(1, 9)})
    assert [hits(r, e)[0][1] for e in range(1, 7)] == [4, 4, 8, 12, 20, 32]


# --- Who targets whom ----------------------------------------------------------------------------

@pytest.mark.parametrize("front,target", [
    ({"2", "4", "1"}, 2),  # from column 3 with opposing front 3 empty: 2 first,
    ({"4", "1"}, 4),       # then 4,
    ({"1"}, 1),            # then 1
])
def test_from_column_3_with_opposing_front_3_empty_the_order_is_2_4_then_1(front, target):
    r = battle({"3": "Delta"}, {c: "Zero N3" for c in front})
    assert hits(r, 1) == [(target, 3, 1)]


# --- The contract --------------------------------------------------------------------------------

CONTRACT_IN = {"left": {"slate": {"1": "Odd", "5": "Plus N1"}, "focus": 0},
               "right": {"slate": {"1": {"digit": "Minus", "level": 2}}, "focus": 3},
               "seed": 7}

CONTRACT_OUT = json.loads("""
{"winner": "left",
 "exchanges": 1,
 "opening": {"left":  {"1": {"digit": "Odd",  "level": 1, "atk": 2, "hp": 3, "shield": 0},
                       "5": {"digit": "Plus", "level": 1, "atk": 1, "hp": 3, "shield": 0}},
             "right": {"1": {"digit": "Minus", "level": 2, "atk": 3, "hp": 4, "shield": 0}}},
 "log": [{"exchange": 1,
          "hits":  [{"side": "left",  "from": 1, "to": 1, "hit": 4, "damage": 4},
                    {"side": "right", "from": 1, "to": 1, "hit": 3, "damage": 3}],
          "falls": [{"side": "left", "cell": 1, "digit": "Odd"},
                    {"side": "right", "cell": 1, "digit": "Minus"}],
          "moves": [{"side": "left", "from": 5, "to": 1}]}],
 "survivors": {"left": {"1": {"digit": "Plus", "level": 1, "atk": 1, "hp": 3, "shield": 0}},
               "right": {}}}
""")


def test_the_contract_example_gives_exactly_the_contract_answer():
    left, right = CONTRACT_IN["left"], CONTRACT_IN["right"]
    r = battle(left["slate"], right["slate"], left["focus"], right["focus"])
    assert r.to_json() == CONTRACT_OUT
    assert list(r.to_json()) == ["winner", "exchanges", "opening", "log", "survivors"]


# --- The engine's interface ----------------------------------------------------------------------

@pytest.mark.parametrize("focus", [-1, 7, True, 2.0, "3"])
def test_a_focus_score_outside_0_to_6_is_refused(focus):
    slate = Slate.from_json({"1": "Abacus"})
    with pytest.raises(ValueError, match="Focus"):
        fight(slate, slate, focus, 0)
    with pytest.raises(ValueError, match="Focus"):
        outcome(slate, slate, 0, focus)


def test_without_the_log_a_result_still_has_opening_and_survivors():
    left, right = Slate.from_json({"1": "Odd", "5": "Plus"}), Slate.from_json({"1": "Minus N2"})
    full, bare = fight(left, right, 0, 3), fight(left, right, 0, 3, log=False)
    assert (bare.winner, bare.exchanges) == (full.winner, full.exchanges) == ("left", 1)
    assert bare.opening == full.opening and bare.survivors == full.survivors
    assert bare.log == [] and bare.snapshots == []


def test_snapshots_are_the_state_after_the_opening_and_after_each_exchange():
    r = battle({"1": "Odd", "5": "Plus N1"}, {"1": "Minus N2"}, 0, 3)
    assert r.snapshots == [r.opening, r.survivors]


@pytest.mark.parametrize("bad", [{}, {"winner": "nobody", "exchanges": 0, "opening": {},
                                      "log": [], "survivors": {}}, []])
def test_a_malformed_result_is_refused(bad):
    with pytest.raises(ValueError):
        BattleResult.from_json(bad)
