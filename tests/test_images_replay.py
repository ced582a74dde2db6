"""The battle replay one can follow: the hits of a frame never cross one another (an exchange
takes several frames when they would), nothing is drawn over a card, the opening says what each
effect changed and why, and the engine tells what each opening effect did."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from bot.digits.battle import fight, opening_effects
from bot.digits.catalogue import BY_KEY
from bot.digits.slate import Slate
from bot.i18n import image_words
from images.cards import read_slate
from images.replay import _effect_text, _paths_cross, exchange_parts
from images.slate import BattleLayout
from tests.french import fr
from tools import samples

EN, FR = image_words("en"), image_words("fr")
LAYOUT = BattleLayout()
CARDS = [LAYOUT.cell_box(side, cell) for side in ("left", "right") for cell in range(1, 9)]


def _inside(point: tuple[float, float], box: tuple[int, int, int, int]) -> bool:
    x, y = point
    return box[0] + 1 < x < box[2] - 1 and box[1] + 1 < y < box[3] - 1


def _check_exchange(hits: list[dict]) -> None:
    parts = exchange_parts(LAYOUT, hits)
    shown = [h for these, _ in parts for h in these]
    assert sorted(map(repr, shown)) == sorted(map(repr, hits))  # each hit once
    for these, arrows in parts:
        assert len(arrows) == len(these)
        for a, b in itertools.combinations(arrows, 2):
            if a.hitter != b.hitter:
                assert not _paths_cross(a.points, b.points), (a, b)
        for a in arrows:
            # Along every segment, no point inside a card: arrows end on a card's edge.
            for (x0, y0), (x1, y1) in itertools.pairwise(a.points):
                for k in range(21):
                    p = (x0 + (x1 - x0) * k / 20, y0 + (y1 - y0) * k / 20)
                    assert not any(_inside(p, box) for box in CARDS), (a, p)
            _, ly0, _, ly1 = a.label_box
            assert LAYOUT.strip_top <= ly0 and ly1 <= LAYOUT.strip_bottom
        for a, b in itertools.combinations(arrows, 2):
            box_a, box_b = a.label_box, b.label_box
            assert (box_a[2] <= box_b[0] or box_b[2] <= box_a[0] or box_a[3] <= box_b[1]
                    or box_b[3] <= box_a[1]), "two hit values overlap"


def test_the_long_battles_hits_read_without_crossing() -> None:
    for entry in samples.long_battle()["log"]:
        _check_exchange(entry["hits"])


def test_an_exchange_whose_hits_would_cross_takes_several_frames() -> None:
    # Exchange 2 of the long battle: the left's Carry (3) hits the Half above it while the
    # right's Pi (back, 7) and Half both hit the Carry: in one frame the arrows would cross.
    entry = samples.long_battle()["log"][1]
    parts = exchange_parts(LAYOUT, entry["hits"])
    assert len(parts) == 2
    assert {h["side"] for h in parts[0][0]} == {"left"}
    assert {h["side"] for h in parts[1][0]} == {"right"}


def test_a_simple_exchange_is_one_frame() -> None:
    entry = samples.short_battle()["log"][0]
    assert len(exchange_parts(LAYOUT, entry["hits"])) == 1


_slate = hs.dictionaries(hs.sampled_from([str(c) for c in range(1, 9)]),
                         hs.builds(lambda d, n: f"{d} N{n}", hs.sampled_from(sorted(BY_KEY)),
                                   hs.integers(1, 3)), max_size=8)


@settings(max_examples=40, deadline=None)
@given(left=_slate, right=_slate)
def test_no_battle_draws_crossing_hits_or_arrows_over_cards(left: dict, right: dict) -> None:
    result = fight(Slate.from_json(left), Slate.from_json(right)).to_json()
    for entry in result["log"]:
        _check_exchange(entry["hits"])


# ---------------------------------------------------------------------------------------------
# The opening


def test_opening_effects_say_what_each_effect_did() -> None:
    # The battle command's example: the Plus behind the Odd gives +2, the opposing Minus N2
    # takes 3: the Odd opens at 3 + 2 − 3 = 2 ATK.
    effects = opening_effects(Slate.from_json(samples.SHORT_LEFT),
                              Slate.from_json(samples.SHORT_RIGHT))
    assert effects == [
        {"side": "left", "cell": 5, "digit": "Plus", "target": {"side": "left", "cell": 1},
         "atk": 2, "hp": 0, "shield": 0},
        {"side": "right", "cell": 1, "digit": "Minus", "target": {"side": "left", "cell": 1},
         "atk": -3, "hp": 0, "shield": 0}]


def test_opening_effects_of_every_step() -> None:
    left = Slate.from_json({"1": "Odd", "2": "Even", "5": "Power N2", "6": "Average",
                            "4": "Twin", "3": "Square", "8": "Sigma N3", "7": "Abacus"})
    effects = opening_effects(left, Slate.from_json({}), 3, 0)
    # In the order of the six steps; the Average once per digit it changes.
    assert list(dict.fromkeys(e["digit"] for e in effects)) == [
        "Abacus", "Average", "Twin", "Power", "Sigma", "Square"]
    assert all(e["atk"] or e["hp"] or e["shield"] for e in effects)  # no "+0"
    square = effects[-1]
    assert square["shield"] == 4 and square["target"] == {"side": "left", "cell": 3}
    assert effects[0]["atk"] == 3  # Abacus: +1 per right answer


def test_opening_effects_match_the_opening_the_battle_fought() -> None:
    # What the effects add up to is what the opening left, when no floor at 0 was needed.
    left = Slate.from_json({"1": "Odd N2", "5": "Plus N3", "2": "Twin", "6": "Twin"})
    right = Slate.from_json({"1": "Even", "5": "Minus", "3": "Square N2"})
    result = fight(left, right).to_json()
    effects = opening_effects(left, right)
    for side, slate in (("left", left), ("right", right)):
        for cell, piece in slate.items():
            kind = BY_KEY[piece.key]
            gained = sum(e["atk"] for e in effects
                         if e["target"] == {"side": side, "cell": cell})
            assert result["opening"][side][str(cell)]["atk"] == kind.atk(piece.level) + gained


@pytest.mark.parametrize(("words", "plus", "minus"), [
    (EN, "Plus 5 → Odd 1: +2 ATK", "Minus 1 → Odd 1: −3 ATK"),
    (FR, fr("Plus 5 → Impair 1 : +2 ATT"), fr("Moins 1 → Impair 1 : −3 ATT")),
])
def test_the_opening_frame_says_what_changed_and_why(words, plus, minus) -> None:
    result = samples.short_battle()
    state = {side: read_slate(result["opening"][side]) for side in ("left", "right")}
    assert [_effect_text(e, state, words) for e in result["effects"]] == [plus, minus]
