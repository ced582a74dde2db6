"""A match: rounds, gold from Focus, Abacus, lives and the end, ghosts, the draft, JSON."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.digits.battle import fight
from bot.digits.catalogue import BY_KEY, Role
from bot.digits.ghosts import (
    BUILTIN_FOCUS,
    BUILTIN_SLATES,
    Ghost,
    builtin_ghost,
    pick_ghost,
    slate_cost,
)
from bot.digits.match import GHOST, Match, RoundRecord, snake_order
from bot.digits.shop import MatchSettings
from bot.digits.slate import Slate
from bot.domain import DomainError

STRONG = {"1": "Splitter N3", "2": "Fibo N3", "5": "Power N3"}


def code_of(action, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(DomainError) as e:
        action(*args, **kwargs)
    return e.value.code


def refused(match: Match, code: str, action, *args: Any, **kwargs: Any) -> None:
    before = json.dumps(match.to_json(), sort_keys=True)
    assert code_of(action, *args, **kwargs) == code
    assert json.dumps(match.to_json(), sort_keys=True) == before


def play_round(m: Match, slates: dict[str, dict[str, Any]], focus: dict[str, int] | None = None,
               pool: list[Ghost] | None = None) -> RoundRecord:
    """Every player gives a Focus score, fields the given slate, ends the turn."""
    record = None
    for p in m.players:
        m.submit_focus(p, (focus or {}).get(p, 3))
        m.shops[p].slate = Slate.from_json(slates.get(p, {}))
        record = m.end_turn(p, pool or [])
    assert record is not None
    return record


# -- creating a match ----------------------------------------------------------------------------

def test_two_players_start_with_10_lives_and_no_gold():
    m = Match.new(["A", "B"], seed=1)
    assert m.lives == {"A": 10, "B": 10} and m.round == 1 and not m.over
    assert m.sides == ("A", "B") and [m.stage(p) for p in "AB"] == ["focus", "focus"]
    assert m.shop("A").gold == 0


def test_one_player_meets_a_ghost_side_with_its_own_lives():
    m = Match.new(["A"])
    assert m.solo and m.sides == ("A", GHOST) and m.lives == {"A": 10, GHOST: 10}


@pytest.mark.parametrize("players", [[], ["A", "A"], ["A", "B", "C"], [GHOST], [""]])
def test_bad_player_lists_are_refused(players):
    assert code_of(Match.new, players) == "match.bad_players"


# -- Focus and gold ------------------------------------------------------------------------------

def test_gold_is_5_plus_the_focus_score_and_unspent_gold_carries_over():
    m = Match.new(["A", "B"], seed=2)
    assert m.submit_focus("A", 4) == 9
    assert m.submit_focus("B", 0) == 5
    assert m.stage("A") == "shop" and len([o for o in m.shop("A").offers if o]) == 5
    m.buy("A", 1)
    for p in "AB":
        m.end_turn(p)
    m.submit_focus("A", 6)
    m.submit_focus("B", 2)
    assert m.shop("A").gold == 9 - 2 + 11 and m.shop("B").gold == 5 + 7


def test_focus_refusals():
    m = Match.new(["A", "B"])
    for bad in (7, -1, "3", True, 2.0):
        refused(m, "match.bad_focus", m.submit_focus, "A", bad)
    refused(m, "match.unknown_player", m.submit_focus, "C", 3)
    m.submit_focus("A", 3)
    refused(m, "match.focus_already", m.submit_focus, "A", 3)


def test_the_shop_opens_after_the_focus_and_closes_with_the_turn():
    m = Match.new(["A", "B"])
    refused(m, "match.focus_first", m.buy, "A", 1)
    refused(m, "match.focus_first", m.end_turn, "A")
    m.submit_focus("A", 3)
    m.end_turn("A")
    assert m.stage("A") == "ready"
    refused(m, "match.turn_ended", m.reroll, "A")
    refused(m, "match.turn_ended", m.end_turn, "A")
    refused(m, "match.unknown_player", m.sell, "Z", 1)


def test_the_shop_offers_the_tiers_open_at_the_match_round():
    m = Match.new(["A"], seed=5, settings=MatchSettings(offers=20))
    tiers = []
    for _ in range(7):
        m.submit_focus("A", 0)
        tiers.append(max(BY_KEY[o.key].tier for o in m.shop("A").offers))
        m.end_turn("A")
        m.lives[GHOST] = m.lives["A"] = 10  # keep the match going whoever wins
    assert tiers == [1, 1, 2, 2, 3, 3, 4]


def test_the_two_shop_turns_do_not_depend_on_who_acts_first():
    def run(order: str) -> dict[str, Any]:
        m = Match.new(["A", "B"], seed=9)
        for p in order:
            m.submit_focus(p, 5)
        for p in order:
            m.buy(p, 2)
            m.reroll(p)
            m.freeze(p, 1)
        for p in order:
            m.end_turn(p)
        return m.to_json()

    assert run("AB") == run("BA")


# -- the battle: Abacus and lives -----------------------------------------------------------------

@pytest.mark.parametrize("score", [0, 4, 6])
def test_abacus_takes_its_owners_focus_score_of_the_round(score):
    m = Match.new(["A", "B"])
    rec = play_round(m, {"A": {"1": "Abacus"}, "B": {"1": "Abacus N2"}}, {"A": score, "B": 2})
    assert rec.focus == {"A": score, "B": 2}
    assert rec.battle["opening"]["left"]["1"]["atk"] == 1 + score
    assert rec.battle["opening"]["right"]["1"]["atk"] == 2 + 2


@pytest.mark.parametrize("round_,lost", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (9, 3)])
def test_a_lost_battle_costs_1_life_in_rounds_1_2_then_2_then_3(round_, lost):
    m = Match.new(["A", "B"])
    for _ in range(round_ - 1):
        play_round(m, {})  # two empty slates: a draw, costing nothing
    assert m.round == round_ and m.lives == {"A": 10, "B": 10}
    rec = play_round(m, {"A": STRONG})
    assert (rec.winner, rec.lives_lost, m.lives) == ("A", lost, {"A": 10, "B": 10 - lost})


def test_a_draw_costs_nothing():
    m = Match.new(["A", "B"])
    rec = play_round(m, {"A": {"1": "Zero"}, "B": {"1": "Zero"}})  # nobody hits: 12 exchanges
    assert rec.winner is None and rec.battle["winner"] == "draw" and rec.lives_lost == 0
    assert m.lives == {"A": 10, "B": 10}


def test_the_match_ends_when_a_player_has_no_life_left():
    m = Match.new(["A", "B"], settings=MatchSettings(lives=4))
    play_round(m, {"B": STRONG})
    play_round(m, {"B": STRONG})
    rec = play_round(m, {"B": STRONG})  # round 3 costs 2; lives do not go below 0
    assert rec.lives_lost == 2 and m.lives == {"A": 0, "B": 4}
    assert m.over and m.winner == "B" and m.stage("A") == "over"
    refused(m, "match.over", m.submit_focus, "A", 3)
    refused(m, "match.over", m.buy, "B", 1)


def test_after_the_last_round_more_lives_wins_and_equal_lives_is_a_draw():
    m = Match.new(["A", "B"], settings=MatchSettings(rounds=3))
    play_round(m, {"A": STRONG})
    play_round(m, {})
    assert not m.over
    play_round(m, {"B": STRONG})  # round 3 costs A 2 lives: A 8, B 9
    assert m.over and m.winner == "B" and m.lives == {"A": 8, "B": 9}
    m = Match.new(["A", "B"], settings=MatchSettings(rounds=2))
    play_round(m, {"A": STRONG})
    play_round(m, {"B": STRONG})
    assert m.over and m.winner == "draw"


def test_the_record_replays_the_battle():
    m = Match.new(["A", "B"])
    rec = play_round(m, {"A": {"1": "Odd", "5": "Plus"}, "B": {"1": "Minus N2"}},
                     {"A": 0, "B": 3})
    again = fight(rec.slates["A"], rec.slates["B"], rec.focus["A"], rec.focus["B"])
    assert again.to_json() == rec.battle
    assert rec.battle["winner"] == "left" and rec.winner == "A"  # the rules page's example


# -- ghosts ---------------------------------------------------------------------------------------

def ghost(round_: int, owner: str | None, slate: dict[str, str] | None = None) -> Ghost:
    return Ghost(round_, Slate.from_json({"1": "Odd"} if slate is None else slate), 2, owner)


def test_pick_ghost_takes_one_of_the_round_from_someone_else():
    pool = [ghost(1, "x"), ghost(2, "y"), ghost(2, "me"), ghost(2, "z"), ghost(2, "e", {}),
            ghost(3, "w")]
    picked = {pick_ghost(pool, 2, random.Random(s), exclude_owner="me").owner for s in range(40)}
    assert picked == {"y", "z"}
    rng1, rng2 = random.Random(7), random.Random(7)
    assert pick_ghost(pool, 2, rng1) == pick_ghost(pool, 2, rng2)


def test_with_no_ghost_of_the_round_the_built_in_one_is_met():
    g = pick_ghost([ghost(1, "x"), ghost(4, "me")], 4, random.Random(0), exclude_owner="me")
    assert g.builtin and g.slate == BUILTIN_SLATES[4] and g.focus == BUILTIN_FOCUS
    assert builtin_ghost(20).slate == BUILTIN_SLATES[15]


def test_built_in_ghosts_are_buildable_at_their_round_and_sensibly_placed():
    assert sorted(BUILTIN_SLATES) == list(range(1, 16))
    s = MatchSettings()
    costs = []
    for r, slate in BUILTIN_SLATES.items():
        assert all(p.kind.tier <= s.open_tier(r) for _, p in slate.items()), r
        costs.append(slate_cost(slate))
        assert costs[-1] <= 8 * r, r  # 5 + a Focus of 3 a round
        for c, p in slate.items():
            if c > 4 and p.kind.role is not Role.REACH:
                assert slate[c - 4] is not None, (r, c)  # nothing stuck behind an empty cell
            if p.kind.role is Role.SUPPORT:
                assert c > 4, (r, c)
    assert costs == sorted(costs)


def test_a_solo_match_meets_a_ghost_from_the_pool_and_records_it():
    pool = [ghost(1, "x", {"1": "Zero"}), ghost(1, "A", STRONG), ghost(2, "y", STRONG)]
    m = Match.new(["A"], seed=3)
    rec = play_round(m, {"A": {"1": "Odd"}}, pool=pool)
    assert rec.winner == "A" and m.lives == {"A": 10, GHOST: 9}
    assert rec.ghost == pool[0] and rec.right == GHOST and rec.slates[GHOST] == pool[0].slate
    assert rec.focus[GHOST] == 2
    rec = play_round(m, {"A": {"1": "Odd"}}, pool=pool)
    assert rec.ghost == pool[2] and rec.winner == GHOST and m.lives == {"A": 9, GHOST: 9}
    rec = play_round(m, {"A": {"1": "Odd"}}, pool=pool)
    assert rec.ghost.builtin and rec.slates[GHOST] == BUILTIN_SLATES[3]


def test_a_solo_player_wins_when_the_ghost_side_runs_out_of_lives():
    m = Match.new(["A"], settings=MatchSettings(lives=1))
    play_round(m, {"A": STRONG}, pool=[ghost(1, "x", {"1": "Zero"})])
    assert m.over and m.winner == "A" and m.lives[GHOST] == 0


def test_a_finished_match_gives_its_slates_as_ghosts():
    m = Match.new(["A", "B"], settings=MatchSettings(rounds=2))
    play_round(m, {"A": {"1": "Odd"}, "B": {"1": "Even"}}, {"A": 1, "B": 2})
    play_round(m, {"A": {"1": "Odd N2"}}, {"A": 5, "B": 0})
    assert m.ghosts() == [Ghost(1, Slate.of(c1="Odd"), 1, "A"),
                          Ghost(1, Slate.of(c1="Even"), 2, "B"),
                          Ghost(2, Slate.of(c1="Odd N2"), 5, "A"),
                          Ghost(2, Slate(), 0, "B")]
    assert [Ghost.from_json(json.loads(json.dumps(g.to_json()))) for g in m.ghosts()] == \
        m.ghosts()


# -- the draft ------------------------------------------------------------------------------------

def test_snake_order_alternates_the_first_picker_between_rounds():
    assert snake_order(["A", "B"], 2, 1) == ["A", "B", "B", "A"]
    assert snake_order(["A", "B"], 3, 1) == ["A", "B", "B", "A", "A", "B"]
    assert snake_order(["A", "B"], 3, 2) == ["B", "A", "A", "B", "B", "A"]
    assert snake_order(["A"], 3, 1) == ["A", "A", "A"]


def draft_match(**settings: Any) -> Match:
    m = Match.new(["A", "B"], seed=4, settings=MatchSettings(draft=True, **settings))
    m.submit_focus("A", 6)
    m.submit_focus("B", 6)
    return m


def test_the_draft_row_is_shared_and_picked_in_snake_order():
    m = draft_match()
    assert m.draft is not None and len(m.draft.row) == 7
    assert all(BY_KEY[k].tier == 1 for k in m.draft.row)
    row = list(m.draft.row)
    assert m.picker() == "A"
    refused(m, "draft.not_your_turn", m.pick, "B", 1)
    assert m.pick("A", 1) == 1 and m.shop("A").slate[1].key == row[0]
    assert m.shop("A").gold == 11 - 2 and m.draft.row[0] is None
    refused(m, "draft.no_offer", m.pick, "B", 1)  # taken: gone for both
    refused(m, "draft.bad_offer", m.pick, "B", 8)
    m.pick("B", 2, 6)
    assert m.picker() == "B"
    m.pass_pick("B")
    assert m.picker() == "A" and m.picks_left("A") == 2 and m.picks_left("B") == 1


def test_the_draft_has_no_private_shop_and_a_private_match_no_draft():
    m = draft_match()
    for action, args in ((m.buy, (1,)), (m.reroll, ()), (m.freeze, (1,)), (m.unfreeze, (1,))):
        refused(m, "match.draft_no_shop", action, "A", *args)
    m.pick("A", 1)
    m.move("A", 1, 5)  # the slate itself is edited as in a shop
    m.sell("A", 5)
    assert m.shop("A").gold == 11 - 2 + 1
    p = Match.new(["A", "B"])
    p.submit_focus("A", 3)
    refused(p, "match.not_draft", p.pick, "A", 1)
    refused(p, "match.not_draft", p.pass_pick, "A")


def test_a_draft_pick_is_checked_like_a_buy():
    m = draft_match()
    m.shops["A"].gold = 1
    refused(m, "shop.not_enough_gold", m.pick, "A", 1)
    m.shops["A"].gold = 5
    m.shops["A"].slate = Slate.from_json({str(c): "Zero N3" for c in range(1, 9)})
    refused(m, "shop.slate_full", m.pick, "A", 1)


def test_ending_the_turn_gives_up_the_picks_left_and_the_battle_follows():
    m = draft_match()
    m.pick("A", 1)
    m.end_turn("B")
    assert m.picker() == "A" and m.picks_left("B") == 0 and m.picks_left("A") == 2
    m.pick("A", 2)
    rec = m.end_turn("A")
    assert rec is not None and m.round == 2 and m.picker() == "B"
    assert len(rec.slates["A"]) == 2 and len(rec.slates["B"]) == 0


def test_the_picks_wait_for_the_pickers_focus():
    m = Match.new(["A", "B"], settings=MatchSettings(draft=True))
    m.submit_focus("B", 3)
    refused(m, "draft.not_your_turn", m.pick, "B", 1)
    refused(m, "match.focus_first", m.pick, "A", 1)


def test_alone_against_ghosts_a_drafting_player_makes_every_pick():
    m = Match.new(["A"], settings=MatchSettings(draft=True))
    m.submit_focus("A", 6)
    for slot in (1, 2, 3):
        m.pick("A", slot)
    assert m.picker() is None and len(m.shop("A").slate) == 3
    refused(m, "draft.not_your_turn", m.pick, "A", 4)


# -- JSON ------------------------------------------------------------------------------------------

def test_records_and_a_match_mid_round_survive_json():
    m = Match.new(["A", "B"], seed=11, settings=MatchSettings(rounds=4))
    play_round(m, {"A": {"1": "Odd", "5": "Plus"}, "B": {"1": "Minus N2"}}, {"A": 2, "B": 5})
    m.submit_focus("A", 4)
    m.freeze("A", 2)
    m.buy("A", 1)
    again = Match.from_json(json.loads(json.dumps(m.to_json())))
    assert again == m and again.records == m.records
    for match in (m, again):  # the same future: offers, gold, battle
        match.reroll("A")
        match.submit_focus("B", 1)
        match.end_turn("A")
        match.end_turn("B")
    assert again == m
