"""The shadow of a solo match: a stronger bot player shopping alongside the member, met when the
ghost pool has no ghost of the round (``Match.new([player], shadow=OddsPlayer)``)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.digits.baseline import BotPlayer
from bot.digits.ghosts import BUILTIN_SLATES, SHADOW, Ghost, builtin_ghost, pick_ghost, slate_cost
from bot.digits.match import GHOST, Match, RoundRecord
from bot.digits.odds import Foe, accuracy_of, likely_opponents, odds_for_match, shadow_foe
from bot.digits.shop import MatchSettings, Shop
from bot.digits.slate import Slate
from bot.digits.strategy import OddsPlayer
from tools.ladder import digits_solo


def one_round(m: Match, slate: dict[str, str], focus: int = 3,
              pool: list[Ghost] | None = None) -> RoundRecord:
    """The member gives ``focus``, fields ``slate`` and ends the turn: the battle comes."""
    m.submit_focus("A", focus)
    m.shops["A"].slate = Slate.from_json(slate)
    record = m.end_turn("A", pool or [])
    assert record is not None
    return record


def reloaded(m: Match) -> Match:
    return Match.from_json(json.loads(json.dumps(m.to_json())), shadow=OddsPlayer)


def test_a_solo_match_on_an_empty_pool_faces_the_shadow_s_slate():
    m = Match.new(["A"], seed=5, shadow=OddsPlayer)
    record = one_round(m, {"1": "Odd"})
    assert record.ghost is not None and record.ghost.shadow and not record.ghost.builtin
    assert record.ghost.owner == SHADOW and record.ghost.round == 1
    assert m.shadow is not None and record.slates[GHOST] == m.shadow.slate
    assert record.slates[GHOST] != BUILTIN_SLATES[1] and len(record.slates[GHOST]) > 0
    # Its Focus score is its bot's, drawn with its seed; its gold is 5 + that score, spent on
    # what stands on its slate (rerolls aside), and never below zero.
    score = OddsPlayer(f"5/{SHADOW}").focus_score(1)
    assert record.focus[GHOST] == record.ghost.focus == score
    spent = m.settings.income(score) - m.shadow.gold
    assert m.shadow.gold >= 0 and slate_cost(m.shadow.slate) <= spent
    assert "[the shadow (bot)]" in m.summary()


def test_the_shadow_shops_every_round_on_its_own_gold_and_grows():
    m = Match.new(["A"], seed=8, shadow=OddsPlayer, settings=MatchSettings(lives=30))
    assert m.shadow is not None
    bot = OddsPlayer(f"8/{SHADOW}")
    for round_ in range(1, 6):
        before = m.shadow.gold
        record = one_round(m, {"1": "Odd"})
        assert m.shadow.round == round_
        income = m.settings.income(bot.focus_score(round_))
        assert m.shadow.gold <= before + income
        assert record.ghost is not None and record.ghost.shadow
    # Its digits come from the tiers open so far: by round 5 the shadow has grown.
    assert slate_cost(m.shadow.slate) > slate_cost(m.records[0].slates[GHOST])


def test_a_ghost_of_the_round_in_the_pool_is_met_but_the_shadow_still_shops():
    pool = [Ghost(1, Slate.of(c1="Zero"), 2, "x"), Ghost(2, Slate.of(c1="Prime"), 4, "y")]
    m = Match.new(["A"], seed=6, shadow=OddsPlayer)
    record = one_round(m, {"1": "Odd"}, pool=pool)
    assert record.ghost == pool[0]
    assert m.shadow is not None and m.shadow.round == 1 and len(m.shadow.slate) > 0
    # The same match without the pool: the shadow's turn was the same, met or not.
    alone = Match.new(["A"], seed=6, shadow=OddsPlayer)
    one_round(alone, {"1": "Odd"})
    assert alone.shadow == m.shadow


def test_the_shadow_sees_the_member_s_past_slates_never_this_round_s():
    first, second = (Match.new(["A"], seed=12, shadow=OddsPlayer) for _ in range(2))
    for m in (first, second):
        one_round(m, {"1": "Odd", "5": "Plus"})
    one_round(first, {"1": "Odd", "5": "Plus"})
    one_round(second, {"1": "Fibo N3", "2": "Splitter N3", "5": "Power N3"})
    # Round 2's shadow answered the same round 1: the same slate, whatever the member fields now.
    assert first.records[1].slates[GHOST] == second.records[1].slates[GHOST]


def test_the_shadow_plays_the_stronger_player_s_turn_of_a_challenge_against_the_member():
    m = Match.new(["A"], seed=21, shadow=OddsPlayer)
    one_round(m, {"1": "Odd", "2": "Even", "5": "Plus"}, focus=4)
    assert m.shadow is not None
    # A challenge in which the same bot sits as "S" with the shadow's shop, having fought the
    # member's round 1 slate with what the member met: the member has not even taken its Focus.
    shop = Shop.from_json(m.shadow.to_json(), m.settings)
    records = [RoundRecord(r.round, "A", "S", {"A": r.focus["A"], "S": r.focus[GHOST]},
                           {"A": r.slates["A"], "S": r.slates[GHOST]}, r.battle, r.winner,
                           r.lives_lost, {}) for r in m.records]
    duel = Match(players=["A", "S"], seed=0, settings=m.settings, round_=2,
                 lives={"A": 10, "S": 10}, shops={"A": Shop("a", m.settings), "S": shop},
                 focus={}, ready=[], draft=None, records=records, over=False, winner=None)
    bot = OddsPlayer(f"21/{SHADOW}")
    while duel.stage("S") != "ready":
        assert bot.act(duel, "S")
    record = one_round(m, {"1": "Odd", "2": "Even", "5": "Plus"}, focus=4)
    assert record.slates[GHOST] == shop.slate and record.focus[GHOST] == duel.focus["S"]
    assert m.shadow == shop


def test_a_shadow_match_survives_json_at_every_step_and_goes_on_the_same():
    straight = Match.new(["A"], seed=31, shadow=OddsPlayer, settings=MatchSettings(rounds=5))
    saved = Match.new(["A"], seed=31, shadow=OddsPlayer, settings=MatchSettings(rounds=5))
    bots = [BotPlayer("31/bot/A"), BotPlayer("31/bot/A")]
    while not straight.over:
        bots[0].act(straight, "A")
        bots[1].act(saved, "A")
        saved = reloaded(saved)
        assert saved == straight and saved.shadow == straight.shadow
    assert saved.records == straight.records
    assert all(r.ghost is not None and r.ghost.shadow for r in saved.records)
    assert "shadow" in straight.to_json()


def test_old_match_json_without_a_shadow_still_loads_and_meets_the_built_in_ghost():
    m = Match.new(["A"], seed=2)
    data = m.to_json()
    assert "shadow" not in data  # matches without a shadow keep the JSON they had
    old = Match.from_json(json.loads(json.dumps(data)))
    assert old.shadow is None and old == m
    record = one_round(old, {"1": "Odd"})
    assert record.ghost == builtin_ghost(1)


def test_a_shadow_plays_only_in_a_solo_match():
    with pytest.raises(ValueError):
        Match.new(["A", "B"], shadow=OddsPlayer)


def test_in_a_solo_draft_the_shadow_picks_from_a_row_of_its_own():
    settings = MatchSettings(draft=True, lives=30)
    m = Match.new(["A"], seed=14, shadow=OddsPlayer, settings=settings)
    rows: list[Any] = []
    for _ in range(3):
        copies = sum(1 << (p.level - 1) for _, p in m.shadow.slate.items()) if m.shadow else 0
        rows.append(m.draft.row if m.draft else None)
        record = one_round(m, {"1": "Odd"})
        assert m.shadow is not None and record.ghost is not None and record.ghost.shadow
        grown = sum(1 << (p.level - 1) for _, p in m.shadow.slate.items())
        assert copies < grown <= copies + settings.draft_picks
        assert m.shadow.offers == []  # no private offers in a draft


def test_pick_ghost_falls_back_to_the_given_ghost_before_the_built_in_one():
    shade = Ghost(4, Slate.of(c1="Square"), 5, SHADOW)
    pool = [Ghost(3, Slate.of(c1="Odd"), 1, "x"), Ghost(4, Slate.of(c1="Even"), 1, "me")]
    assert pick_ghost(pool, 4, random.Random(0), exclude_owner="me", fallback=shade) == shade
    assert pick_ghost(pool, 3, random.Random(0), exclude_owner="me", fallback=shade) == pool[0]
    assert pick_ghost(pool, 4, random.Random(0), exclude_owner="me") == builtin_ghost(4)


def test_the_odds_alone_with_a_shadow_expect_it_like_a_challenger():
    m = Match.new(["A"], seed=9, shadow=OddsPlayer)
    assert likely_opponents(m, "A") == [Foe(BUILTIN_SLATES[1], 3)]  # nothing fielded yet
    one_round(m, {"1": "Odd"}, focus=2)
    one_round(m, {"1": "Odd", "2": "Even"}, focus=5)
    assert m.shadow is not None
    [foe] = likely_opponents(m, "A")
    assert foe == shadow_foe(m)
    assert foe.slate == m.shadow.slate == m.records[-1].slates[GHOST] and foe.focus is None
    assert foe.accuracy == accuracy_of(r.focus[GHOST] for r in m.records)
    # A ghost of the round in the pool comes first, as in the battle.
    pool = [Ghost(3, Slate.of(c1="Zero"), 2, "x")]
    assert likely_opponents(m, "A", pool) == [Foe(pool[0].slate, 2)]
    m.submit_focus("A", 4)
    odds = odds_for_match(m, "A")
    assert odds.battles == 2000 and round(odds.win + odds.draw + odds.loss, 6) == 100


def test_the_solo_ladder_plays_both_opponents_on_the_same_seeds_and_prints_its_table(capsys):
    results = digits_solo.ladder(1, "t")
    assert [(r.seed, r.shadow) for r in results] == [("t/0", True), ("t/0", False)]
    against_shadow, against_builtin = results
    assert against_shadow.rounds == len(against_shadow.shadow_turns)
    assert against_builtin.shadow_turns == []
    assert digits_solo.main(["--matches", "1", "--seed", "t"]) == 0
    out = capsys.readouterr().out
    assert "| the shadow (OddsPlayer) | 1 |" in out and "| the built-in ghosts | 1 |" in out

