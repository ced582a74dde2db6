"""Properties of every battle, over random slates (hypothesis)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.digits.battle import BattleResult, fight, outcome
from bot.digits.catalogue import DIGITS
from bot.digits.slate import Piece, Slate

pieces = st.builds(Piece, st.sampled_from([d.key for d in DIGITS]), st.integers(1, 3))
# Mostly occupied cells, sometimes empty ones, sometimes a whole empty slate.
slates = st.lists(st.one_of(st.none(), pieces, pieces, pieces), min_size=8, max_size=8).map(
    lambda cells: Slate(tuple(cells)))
focus = st.integers(0, 6)
battles = st.tuples(slates, slates, focus, focus)

SETTINGS = settings(max_examples=200, deadline=None)


@SETTINGS
@given(battles)
def test_a_battle_ends_within_12_exchanges_with_a_consistent_winner(args):
    r = fight(*args)
    assert 0 <= r.exchanges <= 12
    assert len(r.log) == r.exchanges and len(r.snapshots) == r.exchanges + 1
    assert [x["exchange"] for x in r.log] == list(range(1, r.exchanges + 1))
    left, right = bool(r.survivors["left"]), bool(r.survivors["right"])
    if left and right:
        assert (r.winner, r.exchanges) == ("draw", 12)
    else:
        assert r.winner == ("left" if left else "right" if right else "draw")
    assert r.snapshots[0] == r.opening and r.snapshots[-1] == r.survivors


@SETTINGS
@given(battles)
def test_the_same_input_gives_the_same_result(args):
    assert fight(*args) == fight(*args)
    assert fight(*args).to_json(full=True) == fight(*args).to_json(full=True)


@SETTINGS
@given(battles)
def test_hp_never_rises_during_the_exchanges(args):
    r = fight(*args)
    for i, entry in enumerate(r.log):
        before, after = r.snapshots[i], r.snapshots[i + 1]
        moved = {(m["side"], m["to"]): m["from"] for m in entry["moves"]}
        for side in ("left", "right"):
            for cell, state in after[side].items():
                was = before[side][moved.get((side, cell), cell)]
                assert (was["digit"], was["level"]) == (state["digit"], state["level"])
                assert state["hp"] <= was["hp"] and state["shield"] <= was["shield"]


@SETTINGS
@given(battles)
def test_the_json_of_a_result_reads_back_the_same(args):
    r = fight(*args)
    assert BattleResult.from_json(json.loads(json.dumps(r.to_json(full=True)))) == r
    # Without the snapshots, reading back replays them from the opening and the log.
    assert BattleResult.from_json(json.loads(json.dumps(r.to_json()))) == r


@SETTINGS
@given(battles)
def test_the_log_free_paths_agree_with_the_full_one(args):
    full = fight(*args)
    bare = fight(*args, log=False)
    assert outcome(*args) == (full.winner, full.exchanges)
    assert (bare.winner, bare.exchanges) == (full.winner, full.exchanges)
    assert (bare.opening, bare.survivors) == (full.opening, full.survivors)
    assert bare.log == [] and bare.snapshots == []


@SETTINGS
@given(battles)
def test_every_hit_is_above_0_and_damage_never_exceeds_it(args):
    for entry in fight(*args).log:
        for h in entry["hits"]:
            assert h["hit"] > 0 and 0 <= h["damage"] <= h["hit"]
