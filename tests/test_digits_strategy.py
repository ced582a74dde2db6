"""The stronger shop player (``bot.digits.strategy.OddsPlayer``) and the ladder against the
baseline (``tools.ladder.digits``)."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.digits.baseline import BotPlayer, arrange, play_bot_match
from bot.digits.ghosts import BUILTIN_SLATES, Ghost, builtin_ghost, slate_cost
from bot.digits.match import Match
from bot.digits.odds import ghost_candidates
from bot.digits.shop import MatchSettings, weight
from bot.digits.slate import Slate
from bot.digits.strategy import Judge, Likely, OddsPlayer, improve, merged, swaps
from tools.ladder.digits import ladder, main, play, table


def pieces(slate: Slate) -> list[str]:
    return sorted(f"{p.key} N{p.level}" for _, p in slate.items())


def copies(slate: Slate) -> int:
    return sum(weight(p) for _, p in slate.items())


def play_checked(match: Match, bots: dict[str, BotPlayer], pool: list[Ghost] = ()) -> Match:
    """Plays the match to its end, checking the shops after every action. Any refused action
    would raise ``DomainError`` here and fail the test."""
    while not match.over:
        moved = False
        for p, bot in bots.items():
            moved = bot.act(match, p, pool) or moved
            for shop in match.shops.values():
                assert shop.gold >= 0 and len(shop.slate) <= 8
        assert moved
    return match


# -- pieces of the strategy --------------------------------------------------------------------

def test_merged_makes_every_merge_onto_the_front_most_copy():
    assert merged(Slate.of(c1="Odd", c3="Odd", c5="Odd N2", c6="Zero")) == Slate.of(
        c1="Odd N3", c6="Zero")
    assert merged(Slate.of(c2="Pi N3", c4="Pi N3")) == Slate.of(c2="Pi N3", c4="Pi N3")


def test_swaps_are_every_exchange_of_two_cells_that_changes_the_slate():
    s = Slate.of(c1="Odd", c2="Odd", c5="Plus")
    out = list(swaps(s))
    # 28 pairs of cells, minus the 10 pairs of two free cells and the pair of the two Odds.
    assert len(out) == 28 - 10 - 1 and len(set(out)) == len(out)
    assert all(pieces(x) == pieces(s) for x in out) and s not in out


def test_the_placement_keeps_the_digits_and_never_scores_below_the_baseline_s():
    mine = Slate.of(c1="Minus N2", c2="Odd N2", c3="Square", c5="Power", c6="Double N2",
                    c7="Carry", c8="Zero")
    judge = Judge([Likely(BUILTIN_SLATES[7], 3), Likely(BUILTIN_SLATES[8], 3)], 4)
    start = arrange(mine, BUILTIN_SLATES[7], 4)
    out = improve(start, judge, 3000)
    assert pieces(out) == pieces(mine)
    assert judge.score(out) >= judge.score(start)
    assert judge.fought <= 3000 + 2  # stops as soon as the budget is spent (one slate's battles)


def test_the_budget_bounds_the_battles_of_a_placement():
    judge = Judge([Likely(BUILTIN_SLATES[r], 3) for r in (5, 6, 7)], 3)
    improve(arrange(BUILTIN_SLATES[9]), judge, 40)
    assert judge.fought <= 40 + 3


def test_a_judge_scores_a_win_above_a_draw_above_a_loss():
    judge = Judge([Likely(BUILTIN_SLATES[5], 3)], 3)
    win, draw, loss = judge.score(BUILTIN_SLATES[15]), judge.score(BUILTIN_SLATES[5]), \
        judge.score(BUILTIN_SLATES[1])
    assert 1 <= win <= 1.3 and draw == 0 and -1.3 <= loss <= -1
    assert judge.score(Slate()) == pytest.approx(-1.3)  # nothing fielded: the worst loss


# -- whom it expects ---------------------------------------------------------------------------

def test_alone_it_expects_the_round_s_ghosts_a_sample_when_there_are_many():
    m = Match.new(["me"], seed=3)
    bot = OddsPlayer("me", foes=4)
    pool = [Ghost(1, Slate.of(c1=k), 2, f"g{i}")
            for i, k in enumerate(["Odd", "Even", "Minus", "Zero", "Plus", "Double"])]
    foes = bot.likely_foes(m, "me", pool)
    assert len(foes) == 4 and len(set(foes)) == 4
    assert {f.slate for f in foes} <= {g.slate for g in ghost_candidates(pool, 1, "me")}
    assert bot.likely_foes(m, "me", pool[:2]) == [Likely(g.slate, 2) for g in pool[:2]]
    assert bot.likely_foes(m, "me") == [Likely(BUILTIN_SLATES[1], 3)]


def test_in_a_challenge_it_expects_the_last_slate_and_that_slate_grown_by_a_shop_turn():
    bots = {"A": OddsPlayer("a"), "B": BotPlayer("b")}
    m = Match.new(["A", "B"], seed=11)
    first = bots["A"].likely_foes(m, "A")
    assert first[0] == Likely(builtin_ghost(1).slate, builtin_ghost(1).focus)
    assert len(first) == 6 and all(len(f.slate) for f in first)
    while len(m.records) < 2:
        for p, bot in bots.items():
            bot.act(m, p)
    seen = m.records[-1].slates["B"]
    assert not seen.is_full()
    foes = bots["A"].likely_foes(m, "A")
    assert foes[0].slate == seen and len(foes) == 6
    income = m.settings.income(foes[0].focus)
    for f in foes[1:]:
        # Grown from what was seen: nothing sold on a slate with room, no more spent than a
        # round's gold.
        assert copies(f.slate) >= copies(seen)
        assert 0 < slate_cost(f.slate) - slate_cost(seen) <= income
    assert len({f.slate for f in foes[1:]}) > 1  # different random offers, different growths


def test_it_sees_only_what_a_person_sees():
    # The opponent's shop this round (its offers, its gold, the slate it is building) does not
    # change a single thing the bot does.
    bots = {"A": OddsPlayer("a"), "B": BotPlayer("b")}
    m = Match.new(["A", "B"], seed=5)
    while m.round < 4:
        for p, bot in bots.items():
            bot.act(m, p)
    bots["A"].act(m, "A")  # round 4's Focus
    bots["B"].act(m, "B")
    other = Match.from_json(copy.deepcopy(m.to_json()))
    other.shops["B"].gold += 30
    other.shops["B"].slate = BUILTIN_SLATES[15]
    other.shops["B"].offers = list(reversed(other.shops["B"].offers))
    for match in (m, other):
        OddsPlayer("a").act(match, "A")  # its whole shop turn, ended
        assert match.stage("A") == "ready"
    assert m.shops["A"].to_json() == other.shops["A"].to_json()


# -- whole matches -------------------------------------------------------------------------------

@pytest.mark.parametrize("draft", [False, True])
def test_it_only_takes_legal_actions_and_never_goes_below_zero_gold(draft):
    for seed in range(2):
        m = Match.new(["A", "B"], seed=seed, settings=MatchSettings(draft=draft))
        play_checked(m, {"A": OddsPlayer(f"{seed}/a"), "B": BotPlayer(f"{seed}/b")})
        assert all(g >= 0 for r in m.records for g in r.gold_left.values())


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6), st.tuples(*[st.integers(1, 6)] * 4), st.integers(1, 7),
       st.integers(0, 8), st.booleans())
def test_legal_under_other_settings_too(seed, costs, offers, base_gold, draft):
    s = MatchSettings(rounds=6, tier_costs=costs, offers=offers, base_gold=base_gold, draft=draft)
    m = Match.new(["A", "B"], seed=seed, settings=s)
    play_checked(m, {"A": OddsPlayer(seed, budget=300), "B": OddsPlayer(seed + 1, budget=300)})
    assert m.over


def test_alone_against_a_pool_of_ghosts_it_plays_legally_and_meets_the_pool():
    source = play_bot_match(1)
    m = play_checked(Match.new(["me"], seed=2), {"me": OddsPlayer("me")}, source.ghosts())
    assert all(not r.ghost.builtin for r in m.records if r.round <= len(source.records))


def test_the_same_seed_plays_the_same_match():
    def once() -> dict:
        m = Match.new(["A", "B"], seed=8)
        play_checked(m, {"A": OddsPlayer("x"), "B": BotPlayer("y")})
        return m.to_json()

    assert json.dumps(once()) == json.dumps(once())


def test_alone_against_the_built_in_ghosts_it_wins_at_least_as_often_as_the_baseline():
    def wins(bot_type: type[BotPlayer]) -> int:
        return sum(play_checked(Match.new(["A"], seed=s), {"A": bot_type(f"{s}")}).winner == "A"
                   for s in range(6))

    assert wins(OddsPlayer) >= max(wins(BotPlayer), 5)


def test_it_beats_the_baseline_over_20_matches():
    results = ladder(20, "test")
    assert len(results) == 20 and {r.seat for r in results} == {"left", "right"}
    score = sum({"win": 1, "draw": 0.5, "loss": 0}[r.outcome] for r in results) / 20
    assert score > 0.5
    assert all(len(r.turns) == r.rounds for r in results)  # one shop turn timed a round


def test_a_ladder_of_the_baseline_against_itself_splits_each_pair():
    # The harness is fair: with nothing to gain from its placement (a budget of 0 battles), the
    # stronger player is the baseline, and each pair of matches on one seed is one win each.
    results = [play(f"fair/{i // 2}", i % 2 == 0, budget=0) for i in range(6)]
    for a, b in zip(results[::2], results[1::2], strict=True):
        assert {a.outcome, b.outcome} in ({"win", "loss"}, {"draw"})


def test_the_ladder_prints_its_table(capsys):
    assert main(["--matches", "2", "--seed", "t"]) == 0
    out = capsys.readouterr().out
    assert "| in all | 2 |" in out and "shop turns" in out
    assert table([]).count("\n") == 4
