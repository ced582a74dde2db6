"""One test (at least) for every bullet of shared/design/digits-rulings.md (battle sections), and
for the project's own rulings written in docs/rules/the-20-digits.md.

Checklist, in the order of digits-rulings.md:

The slate
  S1 cells and columns, column c faces column c
      test_column_c_faces_column_c
  S2 "leftmost": smaller column, then front
      test_leftmost_average_is_the_smaller_column_then_the_front
  S3 "nearest" walks c, c−1, c+1, … skipping outside
      test_nearest_from_an_edge_column_skips_columns_outside
      test_carry_fallback_starts_at_its_own_column
The opening
  O1 same state within a step; step 1 sums then floors
      test_step_1_adds_all_changes_then_floors_at_0
      test_effects_of_one_step_read_the_same_state
      test_each_step_reads_the_state_the_previous_left
  O2 support digits act only from the back
      test_support_digits_in_the_front_row_are_plain_fighters
      test_support_digit_with_no_front_digit_does_nothing
  O3 Minus either row, own column only
      test_minus_acts_from_the_back_on_its_own_column_only
  O4 Abacus either row with its owner's Focus
      test_abacus_acts_from_the_back_with_its_owners_focus
  O5 Average: one per side, present front digits
      test_only_one_average_per_side_the_highest_level
      test_average_counts_the_present_front_digits_itself_included
      test_average_with_an_empty_front_row_does_nothing
  O6 Twin: every other ally, both rows, after step 2
      test_twin_counts_back_row_allies_after_the_average
      test_effects_of_one_step_read_the_same_state (twins)
  O7 Power = max(ATK, min(ATK², (N + 2)²))
      test_power_formula
  O8 Sigma either row, same state, excluding itself
      test_sigmas_read_the_same_state_each_excluding_itself
  O9 Square's shield whatever its row
      test_square_gets_its_shield_in_the_back_row
An exchange
  E1 hitters: front digits and back reach digits
      test_back_digits_hit_only_if_they_have_reach
  E2 all hits land at once
      test_hits_land_at_once_so_both_front_digits_fall
  E3 falls, then Carry, then move-ups
      test_carry_gives_before_the_move_up
  E4 end: empty side loses, both empty draw, 12 → draw
      test_a_side_with_no_digit_left_loses
      test_both_sides_emptied_at_once_is_a_draw
      test_after_12_exchanges_with_both_standing_it_is_a_draw
      test_an_empty_slate_loses_at_once
The hit
  H1 Fibo = ATK × F(e); ATK gained mid-battle scales it
      test_fibo_scales_atk_gained_mid_battle
  H2 bonuses on HP at the start; Delta from the opening
      test_bonuses_read_the_hp_of_the_start_of_the_exchange
      test_delta_counts_hp_lost_since_the_opening
  H3 Half reads the target's HP without shield
      test_half_reads_the_targets_hp_without_its_shield
  H4 Double: × 2 for exchanges 1 … N, while it stands
      test_double_applies_after_half
      test_double_stops_when_it_falls
  H5 a hit of 0 or less is not made
      test_a_digit_with_no_hit_makes_no_hit
  H6 Splitter: full hit on a back-row target
      test_splitter_hits_a_back_row_target_in_full
  H7 Pi volley: the foremost non-empty row
      test_pi_volley_hits_the_back_row_when_the_front_is_empty
Each hit landing
  L1 Modulo ignores multiples of 3
      test_modulo_ignores_multiples_of_3_only
  L2 Zero takes max(1, h − N)
      test_zero_takes_at_least_1
  L3 shield first, never regenerates
      test_shield_absorbs_first_and_never_regenerates
  L4 HP may fall below 0
      test_hp_may_fall_below_0
  L5 a Splitter hit of 1 lands nothing
      test_splitter_hit_of_1_lands_nothing
  L6 Modulo and Zero judge each half, each Pi target
      test_zero_and_modulo_judge_each_splitter_half
      test_zero_judges_each_pi_target
Falls
  F1 Carry: back digit, else nearest living front
      test_carry_whose_back_digit_also_falls_gives_to_the_nearest_front
      test_carry_fallback_starts_at_its_own_column
  F2 gains add up; no receiver, the gain is lost
      test_gains_of_several_carries_add_up
      test_carry_with_no_living_ally_gives_nothing
  F3 move-up only behind a front digit that fell
      test_back_digit_behind_an_empty_cell_stays_back
  F4 move-up keeps ATK, HP, level, shield, Delta count
      test_move_up_keeps_shield_and_delta_count
  F5 a fall in exchange 12 that empties a side wins
      test_a_fall_in_exchange_12_that_empties_a_side_wins
Project rulings (docs/rules/the-20-digits.md, "Rulings of the project")
  P1 Pi volleys from the front row too
      test_pi_in_the_front_row_still_volleys
  P2 hits on one digit: each judged, shield in log order
      test_shield_absorbs_the_hits_of_one_exchange_in_log_order
  P3 exchanges without a hit still count
      test_exchanges_without_a_hit_still_count
  P4 several hits on one digit, damage adds up
      test_shield_absorbs_the_hits_of_one_exchange_in_log_order
"""

from __future__ import annotations

import pytest
from test_digits_battle import battle

from bot.digits.battle import BattleResult


def hits(result: BattleResult, exchange: int, side: str = "left",
         cell: int | None = None) -> list[tuple[int, int, int]]:
    """(target cell, hit, damage) of the hits made by ``side`` (from ``cell``) in ``exchange``."""
    return [(h["to"], h["hit"], h["damage"]) for h in result.log[exchange - 1]["hits"]
            if h["side"] == side and (cell is None or h["from"] == cell)]


def atk(result: BattleResult, side: str, cell: int) -> int:
    return result.opening[side][cell]["atk"]


# --- The slate ----------------------------------------------------------------------------------

def test_column_c_faces_column_c():
    r = battle({"2": "Delta", "7": "Sigma N3"},
               {"1": "Zero N3", "2": "Zero N3", "3": "Zero N3", "4": "Zero N3"})
    # Delta in cell 2 (column 2) and the Sigma in cell 7 (column 3, reach) aim straight ahead.
    assert [(h["from"], h["to"]) for h in r.log[0]["hits"]] == [(2, 2), (7, 3)]


def test_nearest_from_an_edge_column_skips_columns_outside():
    # From column 1: 1, (0 skipped), 2, 3, 4. From column 4: 4, 3, (5 skipped), 2, 1.
    assert hits(battle({"1": "Delta"}, {"3": "Zero N3", "4": "Zero N3"}), 1) == [(3, 3, 1)]
    assert hits(battle({"4": "Delta"}, {"1": "Zero N3", "2": "Zero N3"}), 1) == [(2, 3, 1)]
    # Column 2 with front 2 empty: 1 before 3.
    assert hits(battle({"2": "Delta"}, {"1": "Zero N3", "3": "Zero N3"}), 1) == [(1, 3, 1)]


def test_leftmost_average_is_the_smaller_column_then_the_front():
    # Two Averages of the same level have the same effect, so "leftmost" cannot change a battle;
    # what shows is that exactly one acts. Average N2 in cell 6 (column 2, the leftmost) and in
    # cell 3: the front row (2, 3, 3) takes ⌈8 / 3⌉ + 1 = 4 once, not 5.
    r = battle({"1": "Minus", "2": "Odd", "3": "Average N2", "6": "Average N2"}, {"8": "Zero"})
    assert [atk(r, "left", c) for c in (1, 2, 3)] == [4, 4, 4]


# --- The opening --------------------------------------------------------------------------------

def test_step_1_adds_all_changes_then_floors_at_0():
    # ATK 1 (Abacus N1, Focus 0) + Plus N1 (+2) − Minus N1 (−2) → 1, not 0 + 2 = 2.
    r = battle({"1": "Abacus", "5": "Plus"}, {"1": "Minus"})
    assert atk(r, "left", 1) == 1
    # ATK 3 − Minus N3 (−4) → 0.
    assert atk(battle({"1": "Odd"}, {"1": "Minus N3"}), "left", 1) == 0


def test_effects_of_one_step_read_the_same_state():
    # Two Twin N1 at 2 ATK and a Minus at 2: each Twin sees two others at 2 → both 4/6 (applied
    # one after the other, the second would see only the Minus).
    r = battle({"1": "Twin", "2": "Twin", "3": "Minus"}, {"8": "Zero"})
    assert [(r.opening["left"][c]["atk"], r.opening["left"][c]["hp"]) for c in (1, 2)] == [
        (4, 6), (4, 6)]


def test_each_step_reads_the_state_the_previous_left():
    # The school rule: Abacus N1 (1 + Focus 2 = 3) then Power N1 → min(9, 9) = 9.
    r = battle({"1": "Abacus", "5": "Power"}, {"8": "Zero"}, left_focus=2)
    assert atk(r, "left", 1) == 9


def test_support_digits_in_the_front_row_are_plain_fighters():
    # Plus, Double, Power in front: they change nobody's ATK and hit with their own ATK.
    r = battle({"1": "Plus", "2": "Odd", "3": "Double", "4": "Power N3"}, {"8": "Delta N3"})
    assert [atk(r, "left", c) for c in (1, 2, 3, 4)] == [1, 3, 1, 4]
    assert hits(r, 1) == [(8, 1, 1), (8, 5, 5), (8, 1, 1), (8, 4, 4)]  # Odd at 3 HP: 3 + 2


def test_support_digit_with_no_front_digit_does_nothing():
    r = battle({"2": "Odd", "5": "Plus N3", "7": "Power N3"}, {"8": "Zero"})
    assert atk(r, "left", 2) == 3 and atk(r, "left", 5) == 3 and atk(r, "left", 7) == 4


def test_minus_acts_from_the_back_on_its_own_column_only():
    r = battle({"1": "Odd", "2": "Odd"}, {"6": "Minus N2", "5": "Minus N3", "7": "Minus"})
    # Minus in cell 6 (column 2) takes 3 from left front 2; cell 5 (column 1) takes 4 from front 1;
    # the Minus in cell 7 faces an empty cell 3 and changes nothing.
    assert (atk(r, "left", 1), atk(r, "left", 2)) == (0, 0)


def test_abacus_acts_from_the_back_with_its_owners_focus():
    r = battle({"5": "Abacus N3"}, {"1": "Abacus"}, left_focus=6, right_focus=2)
    assert atk(r, "left", 5) == 3 + 6 and atk(r, "right", 1) == 1 + 2


def test_only_one_average_per_side_the_highest_level():
    # Front row 2, 3 (⌈5/2⌉ = 3). Average N1 (cell 5) and N3 (cell 8): only the N3 acts → 3 + 2.
    r = battle({"1": "Minus", "2": "Odd", "5": "Average", "8": "Average N3"}, {"8": "Zero"})
    assert (atk(r, "left", 1), atk(r, "left", 2)) == (5, 5)
    # Two Average N2: one acts (+1), not both (+2).
    r = battle({"1": "Minus", "2": "Odd", "5": "Average N2", "6": "Average N2"}, {"8": "Zero"})
    assert (atk(r, "left", 1), atk(r, "left", 2)) == (4, 4)


def test_average_counts_the_present_front_digits_itself_included():
    # Average N1 (2) in front with an Odd (3): ⌈5 / 2⌉ = 3, itself too; the back Minus is not
    # counted.
    r = battle({"1": "Average", "3": "Odd", "6": "Minus"}, {"8": "Zero"})
    assert (atk(r, "left", 1), atk(r, "left", 3), atk(r, "left", 6)) == (3, 3, 2)


def test_average_with_an_empty_front_row_does_nothing():
    r = battle({"5": "Average N3", "6": "Odd"}, {"8": "Zero"})
    assert (atk(r, "left", 5), atk(r, "left", 6)) == (4, 3)


def test_twin_counts_back_row_allies_after_the_average():
    # The Average (back) sets the front Twin and Odd to ⌈(2 + 3) / 2⌉ = 3; the Twin then sees the
    # Odd (3, front) and the Prime (3, back), not the Average (2): +2 ATK, +2 HP → 5/6.
    r = battle({"1": "Twin", "2": "Odd", "5": "Average", "6": "Prime"}, {"8": "Zero"})
    assert (r.opening["left"][1]["atk"], r.opening["left"][1]["hp"]) == (5, 6)


@pytest.mark.parametrize("front,power,expected", [
    ("Zero", "Power", 0),          # 0² = 0
    ("Minus", "Power", 4),         # 2² = 4 under the cap of 9
    ("Splitter", "Power", 9),      # 36, capped at 9
    ("Splitter N3", "Power", 10),  # 100 capped at 9 would be less than 10: it stays 10
    ("Splitter N3", "Power N3", 25),
])
def test_power_formula(front, power, expected):
    assert atk(battle({"1": front, "5": power}, {"8": "Zero"}), "left", 1) == expected


def test_sigmas_read_the_same_state_each_excluding_itself():
    # Sigma N3 in cells 1 and 2 (1 ATK each) with a Carry N3 (6): each gets ⌊(1 + 6) / 2⌋ = 3
    # (one after the other, the second would get ⌊(3 + 6) / 2⌋ = 4). A back Sigma N1 sums the
    # whole front row: ⌊(1 + 1 + 6) / 4⌋ = 2.
    r = battle({"1": "Sigma N3", "2": "Sigma N3", "3": "Carry N3", "5": "Sigma"}, {"8": "Zero"})
    assert [atk(r, "left", c) for c in (1, 2, 3, 5)] == [3, 3, 6, 2]


def test_square_gets_its_shield_in_the_back_row():
    r = battle({"6": "Square N3"}, {"8": "Zero"})
    assert r.opening["left"][6]["shield"] == 16


# --- An exchange ----------------------------------------------------------------------------------

def test_back_digits_hit_only_if_they_have_reach():
    r = battle({"5": "Odd N3", "6": "Pi", "7": "Sigma", "8": "Splitter N3"}, {"1": "Delta N3"})
    # Sigma with an empty front row opens at 0 ATK: no hit. Pi hits; Odd and Splitter do not.
    assert [h["from"] for h in r.log[0]["hits"] if h["side"] == "left"] == [6]


def test_hits_land_at_once_so_both_front_digits_fall():
    r = battle({"1": "Odd"}, {"1": "Odd"})
    assert hits(r, 1, "left") == [(1, 5, 5)] and hits(r, 1, "right") == [(1, 5, 5)]
    assert (r.winner, r.exchanges) == ("draw", 1)


def test_carry_gives_before_the_move_up():
    # The Carry's ATK goes to the digit behind it (cell 5), which then moves up with it.
    r = battle({"1": "Carry", "5": "Even"}, {"1": "Odd N3", "5": "Plus N3"})
    first = r.log[0]
    assert first["falls"][0] == {"side": "left", "cell": 1, "digit": "Carry",
                                 "gives": {"to": 5, "atk": 4}}
    assert first["moves"] == [{"side": "left", "from": 5, "to": 1}]
    assert r.snapshots[1]["left"][1]["atk"] == 2 + 4


def test_a_side_with_no_digit_left_loses():
    # Splitter N3: 5 on each Plus (3 HP); the front Plus (3 ATK with the back Plus) hits back.
    r = battle({"1": "Splitter N3"}, {"1": "Plus", "5": "Plus"})
    assert (r.winner, r.exchanges) == ("left", 1)
    assert r.survivors == {"left": {1: {"digit": "Splitter", "level": 3, "atk": 10, "hp": 8 - 3,
                                        "shield": 0}}, "right": {}}


def test_both_sides_emptied_at_once_is_a_draw():
    r = battle({"1": "Delta"}, {"1": "Odd N2"})  # 3 then 6 on the Odd, 7 then 4 on the Delta
    assert (r.winner, r.exchanges) == ("draw", 2)
    assert r.survivors == {"left": {}, "right": {}}


def test_after_12_exchanges_with_both_standing_it_is_a_draw():
    r = battle({"1": "Zero"}, {"1": "Zero N3"})
    assert (r.winner, r.exchanges, len(r.log)) == ("draw", 12, 12)


@pytest.mark.parametrize("left,right,winner", [
    ({"1": "Odd"}, {}, "left"), ({}, {"8": "Zero"}, "right"), ({}, {}, "draw")])
def test_an_empty_slate_loses_at_once(left, right, winner):
    r = battle(left, right)
    assert (r.winner, r.exchanges, r.log) == (winner, 0, [])
    assert len(r.snapshots) == 1


# --- The hit ------------------------------------------------------------------------------------

def test_fibo_scales_atk_gained_mid_battle():
    # Carry N3 falls in exchange 1 and gives 6 to the Fibo N1 behind it (3 → 9 ATK). Exchange 2:
    # 9 × F(2) = 9; exchange 3: 9 × F(3) = 18 (not the page's sum of the two before, 3 + 9).
    r = battle({"1": "Carry N3", "5": "Fibo"},
               {"1": "Odd N2", "5": "Plus N3", "2": "Zero N3", "6": "Zero N3"})
    assert r.snapshots[1]["left"][1]["digit"] == "Fibo"
    assert [hits(r, e)[0][1] for e in (2, 3, 4)] == [9, 18, 27]


def test_bonuses_read_the_hp_of_the_start_of_the_exchange():
    # Prime N1 (3/5) takes 1 from an Abacus in exchange 1 while it hits: that hit reads 5 HP
    # (prime, 3 + 3); exchange 2 reads 4 HP (not prime, 3). Zero N3 takes h − 3, at least 1.
    r = battle({"1": "Prime"}, {"1": "Zero N3", "2": "Abacus"})
    assert hits(r, 1) == [(1, 6, 3)]
    assert r.snapshots[1]["left"][1]["hp"] == 4
    assert hits(r, 2) == [(1, 3, 1)]


def test_delta_counts_hp_lost_since_the_opening():
    # Delta N1 at 10 HP takes 3 (Minus N3... 4 ATK hits): lost 4 → +2.
    r = battle({"1": "Delta"}, {"1": "Zero N3", "2": "Minus N3"})
    assert hits(r, 1) == [(1, 3, 1)]
    assert r.snapshots[1]["left"][1]["hp"] == 10 - 4
    assert hits(r, 2) == [(1, 3 + 4 // 2, 2)]


def test_half_reads_the_targets_hp_without_its_shield():
    # Square N3: 7 HP and a 16 shield. Half N1: max(2, ⌊7 / 2⌋) = 3, not ⌊23 / 2⌋.
    r = battle({"1": "Half"}, {"1": "Square N3"})
    assert hits(r, 1) == [(1, 3, 0)]


def test_double_applies_after_half():
    # Half N1 against 13 HP: 6, then × 2 = 12 (doubling 2 first would give max(4, 6) = 6).
    r = battle({"1": "Half", "5": "Double"}, {"1": "Delta N2"})
    assert hits(r, 1) == [(1, 12, 12)]


def test_double_stops_when_it_falls():
    # Double N2 (4 HP) behind a Modulo (3 ATK); the foe's Splitter N2 (8) splits 4 on the Modulo
    # and 4 on the Double, which falls: exchange 2, within N = 2, is no longer doubled.
    r = battle({"1": "Modulo", "5": "Double N2"}, {"1": "Splitter N2"})
    assert hits(r, 1) == [(1, 6, 6)]
    assert hits(r, 1, side="right") == [(1, 4, 4), (5, 4, 4)]
    assert r.log[0]["falls"] == [{"side": "left", "cell": 5, "digit": "Double"}]
    assert hits(r, 2) == [(1, 3, 3)]


def test_a_digit_with_no_hit_makes_no_hit():
    # The Zeros (0 ATK) and the Abacus brought to 0 by the Minus (1 − 2, floored) make no hit.
    r = battle({"1": "Zero", "2": "Minus"}, {"1": "Zero N3", "2": "Abacus"})
    assert atk(r, "right", 2) == 0
    assert hits(r, 1) == [(2, 2, 2)]  # only the Minus hits
    assert hits(r, 1, side="right") == []


def test_splitter_hits_a_back_row_target_in_full():
    r = battle({"1": "Splitter"}, {"5": "Delta N3", "6": "Zero N3"})
    assert hits(r, 1) == [(5, 6, 6)]


def test_pi_volley_hits_the_back_row_when_the_front_is_empty():
    r = battle({"5": "Pi"}, {"6": "Zero N3", "8": "Zero N3"})
    assert hits(r, 3) == [(6, 3, 1), (8, 3, 1)]


# --- Each hit landing ---------------------------------------------------------------------------

def test_modulo_ignores_multiples_of_3_only():
    # Fibo N1 (3 ATK) hits 3, 3, 6, 9: all ignored; the Plus (a front fighter) hits 1: it lands.
    # The Modulo's own hits go to the Zero N3 in cell 1.
    r = battle({"1": "Zero N3", "2": "Fibo", "3": "Plus"}, {"1": "Modulo N3"})
    assert [hits(r, e) for e in (1, 2, 3, 4)] == [
        [(1, 3, 0), (1, 1, 1)], [(1, 3, 0), (1, 1, 1)], [(1, 6, 0), (1, 1, 1)],
        [(1, 9, 0), (1, 1, 1)]]


def test_zero_takes_at_least_1():
    r = battle({"1": "Plus"}, {"1": "Zero N3"})  # 1 − 3 → 1
    assert hits(r, 1) == [(1, 1, 1)]


def test_shield_absorbs_first_and_never_regenerates():
    # Square N1 (shield 4, 5 HP) takes 3 a time from a Modulo N1: 3 → shield 1; 3 → shield 0, 2 HP.
    r = battle({"1": "Modulo"}, {"1": "Square"})
    assert [hits(r, e) for e in (1, 2, 3)] == [[(1, 3, 0)], [(1, 3, 2)], [(1, 3, 3)]]
    assert [r.snapshots[e]["right"][1]["shield"] for e in (0, 1, 2)] == [4, 1, 0]


def test_hp_may_fall_below_0():
    r = battle({"1": "Splitter N3"}, {"1": "Plus"})  # 3 HP takes 10
    assert hits(r, 1) == [(1, 10, 10)]
    assert r.log[0]["falls"] == [{"side": "right", "cell": 1, "digit": "Plus"}]


def test_splitter_hit_of_1_lands_nothing():
    # Splitter N1 − Minus N3 = 2; the Average (back) makes the front row ⌈(2+0+0+0)/4⌉ = 1.
    r = battle({"1": "Splitter", "2": "Zero", "3": "Zero", "4": "Zero", "5": "Average"},
               {"1": "Minus N3", "5": "Odd"})
    assert atk(r, "left", 1) == 1
    assert hits(r, 1, cell=1) == []
    assert [c for c in (2, 3, 4) if hits(r, 1, cell=c)] == [2, 3, 4]  # the Zeros hit 1 each


def test_zero_and_modulo_judge_each_splitter_half():
    # Splitter N2 (8): halves of 4 on a Zero N3 and the Zero N3 behind it: 1 each (not 8 − 3).
    assert hits(battle({"1": "Splitter N2"}, {"1": "Zero N3", "5": "Zero N3"}), 1) == [
        (1, 4, 1), (5, 4, 1)]
    # Splitter N1 (6): halves of 3: the Modulo ignores its half, the Delta behind takes its 3.
    assert hits(battle({"1": "Splitter"}, {"1": "Modulo", "5": "Delta"}), 1) == [
        (1, 3, 0), (5, 3, 3)]


def test_zero_judges_each_pi_target():
    # Pi N3 (5) hits the Delta N3 on exchanges 1 and 2, then volleys: Delta 5, Zero N1 5 − 1,
    # Zero N3 5 − 3, Modulo 5 (not a multiple of 3). The Zero N3 in front soaks the foe's hits.
    r = battle({"1": "Zero N3", "5": "Pi N3"},
               {"1": "Delta N3", "2": "Zero", "3": "Zero N3", "4": "Modulo"})
    assert hits(r, 1) == hits(r, 2) == [(1, 5, 5)]
    assert hits(r, 3) == [(1, 5, 5), (2, 5, 4), (3, 5, 2), (4, 5, 5)]


# --- Falls --------------------------------------------------------------------------------------

def test_carry_whose_back_digit_also_falls_gives_to_the_nearest_front():
    # The Carry (cell 2, 4 + 2 from the Plus behind it = 6 ATK) and that Plus both fall to the
    # halves (8 and 8) of a Splitter N3 with a Plus N3 behind (16): the back digit is not living,
    # so the 6 goes to the nearest living front digit: column 2 is gone, then column 1.
    r = battle({"1": "Zero N3", "2": "Carry", "3": "Zero N3", "6": "Plus"},
               {"2": "Splitter N3", "6": "Plus N3"})
    assert hits(r, 1, side="right") == [(2, 8, 8), (6, 8, 8)]
    falls = r.log[0]["falls"]
    assert {"side": "left", "cell": 6, "digit": "Plus"} in falls
    assert {"side": "left", "cell": 2, "digit": "Carry", "gives": {"to": 1, "atk": 6}} in falls
    assert r.log[0]["moves"] == []
    assert r.snapshots[1]["left"][1]["atk"] == 0 + 6


def test_carry_fallback_starts_at_its_own_column():
    # A back-row Carry (cell 7, column 3) felled by a Splitter half (7) gives to the front digit of
    # its own column (cell 3) before column 2 (cell 2).
    r = battle({"2": "Zero N3", "3": "Zero N3", "4": "Zero N3", "7": "Carry"},
               {"3": "Splitter N3", "7": "Plus N2"})
    assert hits(r, 1, side="right") == [(3, 7, 4), (7, 7, 7)]
    assert r.log[0]["falls"] == [
        {"side": "left", "cell": 7, "digit": "Carry", "gives": {"to": 3, "atk": 4}}]
    assert r.snapshots[1]["left"][3]["atk"] == 4


def test_gains_of_several_carries_add_up():
    # Pi N3 volleys on exchange 3 … simpler: two front Carries fall to a foe's two hits and both
    # give to the same living front digit (their back cells are empty).
    r = battle({"1": "Carry", "2": "Carry N2", "3": "Zero N3"},
               {"1": "Odd N3", "5": "Plus N3", "2": "Odd N3", "6": "Plus N3"})
    gives = [f.get("gives") for f in r.log[0]["falls"] if f["side"] == "left"]
    assert gives == [{"to": 3, "atk": 4}, {"to": 3, "atk": 5}]
    assert r.snapshots[1]["left"][3]["atk"] == 0 + 4 + 5


def test_carry_with_no_living_ally_gives_nothing():
    r = battle({"1": "Carry"}, {"1": "Odd N3", "5": "Plus N3"})
    assert r.log[0]["falls"] == [{"side": "left", "cell": 1, "digit": "Carry"}]


def test_back_digit_behind_an_empty_cell_stays_back():
    r = battle({"1": "Odd", "6": "Even N3"}, {"1": "Delta N3", "2": "Abacus"}, right_focus=0)
    assert all(m["side"] != "left" or m["from"] != 6 for x in r.log for m in x["moves"])
    assert 6 in r.snapshots[1]["left"] and 2 not in r.snapshots[1]["left"]


def test_move_up_keeps_shield_and_delta_count():
    # Splitter N1 halves (3) hit the front Plus and the Square / Delta behind it.
    r = battle({"1": "Plus", "5": "Square N3", "2": "Plus", "6": "Delta"},
               {"1": "Splitter", "2": "Splitter"})
    # Exchange 1: Plus in 1 and 2 take 3 each and fall (3 HP); Square's shield 16 → 13; the Delta
    # drops 10 → 7. Both move up, keeping shield and HP.
    after = r.snapshots[1]["left"]
    assert after[1] == {"digit": "Square", "level": 3, "atk": 4, "hp": 7, "shield": 13}
    assert after[2] == {"digit": "Delta", "level": 1, "atk": 3, "hp": 7, "shield": 0}
    # Exchange 2: the Delta's bonus counts from its opening HP (10): 3 + ⌊3 / 2⌋ = 4.
    assert hits(r, 2, cell=2)[0][1] == 4


def test_a_fall_in_exchange_12_that_empties_a_side_wins():
    # Abacus N1 hits 1; Zero N3 (12 HP) takes max(1, 1 − 3) = 1 each exchange: it falls in the 12th.
    r = battle({"1": "Abacus"}, {"1": "Zero N3"})
    assert (r.winner, r.exchanges) == ("left", 12)


# --- Project rulings ----------------------------------------------------------------------------

def test_pi_in_the_front_row_still_volleys():
    r = battle({"1": "Pi"}, {"1": "Zero N3", "3": "Zero N3"})
    assert hits(r, 3) == [(1, 3, 1), (3, 3, 1)]


def test_shield_absorbs_the_hits_of_one_exchange_in_log_order():
    # Square N1 (shield 4, 5 HP) takes 3 (Modulo) then 5 (Odd) in one exchange: 3 → shield 1,
    # then 5 → 1 absorbed, 4 damage.
    r = battle({"1": "Modulo", "2": "Odd"}, {"1": "Square"})
    assert hits(r, 1) == [(1, 3, 0), (1, 5, 4)]
    assert r.snapshots[1]["right"][1] == {"digit": "Square", "level": 1, "atk": 2, "hp": 1,
                                          "shield": 0}


def test_exchanges_without_a_hit_still_count():
    r = battle({"1": "Zero"}, {"5": "Odd"})  # nobody can hit: 12 empty exchanges, a draw
    assert [x["hits"] for x in r.log] == [[]] * 12 and r.winner == "draw"
    assert len(r.snapshots) == 13
