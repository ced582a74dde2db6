"""The odds of a battle (``bot.digits.odds``): what is drawn, what is counted, the match's likely
opponents, and ``python -m bot.digits odds``."""

from __future__ import annotations

import io
import json
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.digits.__main__ import main
from bot.digits.baseline import BotPlayer
from bot.digits.battle import outcome
from bot.digits.catalogue import DIGITS
from bot.digits.ghosts import BUILTIN_SLATES, Ghost, builtin_ghost, pick_ghost
from bot.digits.match import Match
from bot.digits.odds import (
    Foe,
    Odds,
    accuracy_of,
    expected,
    focus_law,
    ghost_candidates,
    likely_opponents,
    odds,
    odds_for_match,
)
from bot.digits.slate import Piece, Slate
from bot.domain import DomainError

KEYS = [d.key for d in DIGITS]


@st.composite
def slates(draw: st.DrawFn, min_size: int = 0) -> Slate:
    cells = draw(st.lists(st.integers(1, 8), min_size=min_size, max_size=8, unique=True))
    return Slate.from_json({str(c): {"digit": draw(st.sampled_from(KEYS)),
                                     "level": draw(st.integers(1, 3))} for c in cells})


focus_or_unknown = st.one_of(st.none(), st.integers(0, 6))


# -- the odds ----------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(slates(), focus_or_unknown,
       st.lists(st.tuples(slates(), focus_or_unknown), min_size=1, max_size=4),
       st.integers(1, 500), st.integers(0, 2**32))
def test_the_percentages_sum_to_100_over_the_battles_asked(slate, focus, opponents, battles, seed):
    o = odds(slate, focus, opponents, battles=battles, rng=random.Random(seed))
    assert o.win + o.draw + o.loss == pytest.approx(100)
    assert o.battles == battles and sum(o.counts()) == battles
    assert 1 <= o.distinct <= min(battles, len(opponents) * 49)
    assert sum(o.rounded(1)) == pytest.approx(100) and sum(o.rounded()) == 100
    assert sum(expected(slate, focus, opponents)) == pytest.approx(1)


@settings(max_examples=60, deadline=None)
@given(slates(), st.integers(0, 6))
def test_a_slate_against_itself_is_always_a_draw(slate, focus):
    # Both sides do the same to each other at every exchange: they fall together or stand after 12.
    o = odds(slate, focus, [(slate, focus)], battles=300)
    assert (o.win, o.draw, o.loss) == (0, 100, 0)


@settings(max_examples=60, deadline=None)
@given(slates(), slates(), st.integers(0, 6), st.integers(0, 6))
def test_the_odds_are_the_same_seen_from_the_other_side(a, b, fa, fb):
    # The player is fought on the left; a battle must not favour a side.
    win, draw, loss = expected(a, fa, [(b, fb)])
    assert (loss, draw, win) == expected(b, fb, [(a, fa)])
    assert outcome(b, a, fb, fa)[0] == {"left": "right", "right": "left",
                                         "draw": "draw"}[outcome(a, b, fa, fb)[0]]


def test_an_overwhelming_slate_wins_every_battle():
    early = [builtin_ghost(r) for r in (1, 2, 3)]
    o = odds(BUILTIN_SLATES[15], 3, early, battles=2000, rng=random.Random(1))
    assert (o.win, o.draw, o.loss) == (100, 0, 0)
    assert o.distinct == 3  # no Abacus: one battle per opponent


def test_an_empty_slate_loses_every_battle_and_two_empty_slates_draw():
    assert odds(Slate(), 0, [builtin_ghost(1)]).loss == 100
    assert odds(Slate(), 0, [(Slate(), 0)]).draw == 100


def test_the_same_seed_gives_the_same_odds_and_the_draws_follow_the_seed():
    abacus = Slate.of(c1="Abacus N2", c2="Odd")
    foe = Slate.of(c1="Abacus N2", c2="Odd", c5="Plus")
    runs = [odds(abacus, None, [(foe, None)], battles=2000, rng=random.Random(s))
            for s in (7, 7, 8)]
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]  # unknown scores on both sides: the draws differ with the seed
    assert odds(abacus, None, [(foe, None)]) == odds(abacus, None, [(foe, None)])


def test_repeated_battles_are_fought_once_and_counted_as_often_as_drawn():
    a, b = BUILTIN_SLATES[5], BUILTIN_SLATES[4]
    o = odds(a, 3, [(a, 3), (a, 3), (b, 3)], battles=3000, rng=random.Random(2))
    assert o.distinct == 2
    assert expected(a, 3, [(b, 3)]) == (1.0, 0.0, 0.0)  # a round-5 slate beats a round-4 one
    # Two of the three opponents are the mirror (a draw), one a win: 1/3 wins, 2/3 draws.
    assert o.win == pytest.approx(100 / 3, abs=3) and o.loss == 0
    assert o.battles == 3000 and o.counts()[0] + o.counts()[1] == 3000


def test_the_drawn_odds_come_close_to_the_exact_ones():
    mine = Slate.of(c1="Abacus N3", c2="Odd N2", c5="Plus", c6="Double")
    foes = [(Slate.of(c1="Abacus N3", c2="Prime N2", c5="Plus N2"), None),
            (Slate.of(c1="Square N2", c2="Abacus N2", c3="Minus"), 2), builtin_ghost(3)]
    exact = expected(mine, None, foes, accuracy=0.6)
    o = odds(mine, None, foes, battles=20_000, rng=random.Random(3), accuracy=0.6)
    for drawn, p in zip((o.win, o.draw, o.loss), exact, strict=True):
        assert drawn == pytest.approx(100 * p, abs=1.5)
    assert 0 < exact[0] < 1  # the scores matter here: the test would not see a wrong law


def test_a_score_no_abacus_reads_is_not_drawn():
    o = odds(BUILTIN_SLATES[6], None, [(BUILTIN_SLATES[6], None), (BUILTIN_SLATES[7], None)])
    assert o.distinct == 2
    with_abacus = Slate.of(c1="Abacus", c2="Odd")
    assert odds(with_abacus, None, [(BUILTIN_SLATES[1], 0)], battles=5000).distinct == 7


def test_the_focus_law_is_the_binomial_of_six_questions():
    law = dict(focus_law(None, 0.75))
    assert sum(law.values()) == pytest.approx(1)
    assert sum(s * w for s, w in law.items()) == pytest.approx(4.5)
    assert law[6] == pytest.approx(0.75 ** 6)
    assert focus_law(4, 0.1) == ((4, 1.0),)
    assert dict(focus_law(None, 1.0)) == {6: 1.0}


def test_accuracy_follows_the_scores_given_with_one_right_and_one_wrong_answer_added():
    assert accuracy_of([]) == 0.5
    assert accuracy_of([6]) == 7 / 8
    assert accuracy_of([3, 4, 5]) == 13 / 20


@pytest.mark.parametrize("bad", [
    {"battles": 0}, {"battles": 2.5}, {"accuracy": 1.5}, {"focus": 7}, {"opponents": []},
    {"opponents": [(Slate(), 9)]}, {"opponents": ["Odd"]},
])
def test_bad_arguments_are_refused(bad):
    args = {"focus": 3, "opponents": [(Slate(), 0)]} | bad
    focus, opponents = args.pop("focus"), args.pop("opponents")
    with pytest.raises(ValueError):
        odds(Slate.of(c1="Odd"), focus, opponents, **args)


# -- in a match ------------------------------------------------------------------------------

def ghost(round_: int, owner: str | None, **cells: str) -> Ghost:
    return Ghost(round_, Slate.of(**cells), 2, owner)


def test_the_ghost_candidates_are_exactly_those_pick_ghost_chooses_among():
    pool = [ghost(3, "ana", c1="Odd"), ghost(3, "ben", c1="Even"), ghost(3, "me", c1="Prime"),
            ghost(4, "cy", c1="Zero"), Ghost(3, Slate(), 1, "dee"), ghost(3, "eve", c1="Half")]
    candidates = ghost_candidates(pool, 3, "me")
    assert [g.owner for g in candidates] == ["ana", "ben", "eve"]
    picked = {pick_ghost(pool, 3, random.Random(s), exclude_owner="me") for s in range(200)}
    assert picked == set(candidates)
    assert ghost_candidates(pool, 7, "me") == [builtin_ghost(7)]
    assert ghost_candidates([ghost(5, "me", c1="Odd")], 5, "me") == [builtin_ghost(5)]


def test_alone_the_likely_opponents_are_the_round_s_ghosts_with_their_scores():
    m = Match.new(["me"], seed=1)
    pool = [ghost(1, "ana", c1="Odd"), ghost(1, "ben", c1="Even", c5="Plus")]
    assert likely_opponents(m, "me", pool) == [Foe(g.slate, 2) for g in pool]
    assert likely_opponents(m, "me") == [Foe(BUILTIN_SLATES[1], 3)]


def test_a_challenger_is_met_with_its_last_slate_its_score_unknown():
    bots = {p: BotPlayer(f"b/{p}") for p in "AB"}
    m = Match.new(["A", "B"], seed=4)
    assert likely_opponents(m, "A") == [Foe(BUILTIN_SLATES[1], 3)]  # nothing fielded yet
    while len(m.records) < 3:
        for p, bot in bots.items():
            bot.act(m, p)
    [foe] = likely_opponents(m, "A")
    assert foe.slate == m.records[-1].slates["B"] and foe.focus is None
    assert foe.accuracy == accuracy_of(r.focus["B"] for r in m.records)


def test_odds_for_match_reads_the_player_s_slate_and_repeats_itself():
    bot = BotPlayer("solo")
    m = Match.new(["me"], seed=9)
    while not (m.round == 3 and m.stage("me") == "shop"):
        bot.act(m, "me")
    pool = [ghost(3, "ana", c1="Odd N2", c2="Square"), ghost(3, "ben", c1="Prime", c5="Plus"),
            ghost(2, "cy", c1="Fibo N3")]
    first = odds_for_match(m, "me", pool)
    assert first == odds_for_match(m.to_json(), "me", pool)
    assert first == odds(m.shop("me").slate, m.focus["me"], pool[:2], battles=2000,
                         rng=random.Random("9/odds/me/3"))
    assert first.distinct == 2 and first.battles == 2000
    with pytest.raises(DomainError) as e:
        odds_for_match(m, "nobody")
    assert e.value.code == "match.unknown_player"


def test_odds_for_match_before_the_focus_and_after_the_end():
    m = Match.new(["A", "B"], seed=2)
    assert odds_for_match(m, "A").battles == 2000  # the player's score not given yet: drawn
    m.over = True
    with pytest.raises(DomainError) as e:
        odds_for_match(m, "A")
    assert e.value.code == "match.over"


# -- the command line ------------------------------------------------------------------------

def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        data: object) -> tuple[int, str, str]:
    raw = data if isinstance(data, str) else json.dumps(data)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw.encode())))
    code = main(["odds"])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_odds_command_prints_the_odds_as_json(monkeypatch, capsys):
    data = {"player": {"slate": {"1": "Odd N2", "2": "Abacus", "5": "Plus"}, "focus": 4},
            "opponents": [{"slate": {"1": "Minus N2"}},
                          {"slate": {"1": "Abacus N2", "2": "Zéro"}, "focus": None}],
            "battles": 1000, "seed": 5}
    code, out, err = run(monkeypatch, capsys, data)
    answer = json.loads(out)
    assert code == 0 and err == ""
    mine = Slate.of(c1="Odd N2", c2="Abacus", c5="Plus")
    foes = [(Slate.of(c1="Minus N2"), 0), (Slate.of(c1="Abacus N2", c2="Zero"), None)]
    assert answer == odds(mine, 4, foes, battles=1000, rng=random.Random(5)).to_json()
    assert answer["battles"] == 1000 and sum(answer["counts"].values()) == 1000
    assert set(answer) == {"win", "draw", "loss", "battles", "distinct", "counts"}


def test_the_rules_page_example_of_the_odds_command(monkeypatch, capsys):
    data = {"player": {"slate": {"1": "Abacus N2", "5": "Plus"}, "focus": None},
            "opponents": [{"slate": {"1": "Modulo"}},
                          {"slate": {"1": "Boulier N2", "5": "Plus"}, "focus": 3}],
            "battles": 2000, "seed": 7, "accuracy": 0.75}
    code, out, _ = run(monkeypatch, capsys, data)
    assert code == 0 and json.loads(out) == {
        "win": 31.8, "draw": 46.3, "loss": 21.9, "battles": 2000, "distinct": 13,
        "counts": {"win": 636, "draw": 926, "loss": 438}}
    # Why: the Abacus hits 4 + its score; a Modulo ignores 6 and 9 (scores 2 and 5).
    mine, modulo = Slate.of(c1="Abacus N2", c5="Plus"), Slate.of(c1="Modulo")
    assert [outcome(mine, modulo, s, 0)[0] for s in range(7)] == [
        "left", "left", "right", "left", "left", "right", "left"]


@pytest.mark.parametrize("data", [
    "not json",
    {"player": {"slate": {"1": "Odd"}}},
    {"player": {"slate": {"1": "Odd"}}, "opponents": []},
    {"player": {"slate": {"1": "Odd"}}, "opponents": {"slate": {}}},
    {"player": {"slate": {"1": "Nine"}}, "opponents": [{"slate": {}}]},
    {"player": {"slate": {"1": "Odd"}}, "opponents": [{"slate": {"0": "Odd"}}]},
    {"player": {"slate": {"1": "Odd"}, "focus": 7}, "opponents": [{"slate": {}}]},
    {"player": {"slate": {"1": "Odd"}}, "opponents": [{"slate": {}, "focus": "3"}]},
    {"player": {"slate": {"1": "Odd"}}, "opponents": [{"slate": {}}], "battles": 0},
    {"player": {"slate": {"1": "Odd"}}, "opponents": [{"slate": {}}], "accuracy": 2},
    {"player": {"slate": {"1": "Odd"}}, "opponents": [{"slate": {}}], "seed": "x"},
    {"player": {"slate": {"1": "Odd"}}, "opponents": [{"slate": {}}], "extra": 1},
])
def test_bad_odds_input_exits_2_with_one_line_on_stderr(monkeypatch, capsys, data):
    code, out, err = run(monkeypatch, capsys, data)
    assert code == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1


def test_odds_json_and_rounding_keep_100():
    o = Odds(100 / 3, 100 / 3, 100 / 3, 3, 3)
    assert o.rounded() == (34.0, 33.0, 33.0) and o.counts() == (1, 1, 1)
    assert Odds(12.5, 25.0, 62.5, 8, 2).to_json()["counts"] == {"win": 1, "draw": 2, "loss": 5}


def test_pieces_of_every_kind_may_face_each_other():
    # Every digit against every digit, each side's score unknown: the odds stay whole.
    for d in DIGITS:
        mine = Slate.of(c1=d.key, c5="Plus")
        foes = [(Slate.of(c1=e.key, c2="Abacus"), None) for e in DIGITS]
        assert sum(expected(mine, None, foes)) == pytest.approx(1)
    assert Piece("Abacus").kind.tier == 2
