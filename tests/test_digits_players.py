"""The player models of the solo levels (bot.digits.players): what defines greedy and novice,
and ``python -m bot.digits match --solo --player P``."""

from __future__ import annotations

import io
import json

import pytest

from bot.digits import __main__ as digits_cli
from bot.digits.baseline import BotPlayer
from bot.digits.levels import LEVELS, play_solo, solo_match
from bot.digits.match import Match
from bot.digits.players import (
    NOVICE_ACCURACY,
    PLAYERS,
    GreedyPlayer,
    NovicePlayer,
    player_model,
)
from bot.digits.shop import FOCUS_MAX, MatchSettings, Offer
from bot.digits.slate import Slate

#: Every tier open from round 1, so that a test's offers can be of any price.
ALL_TIERS = MatchSettings(tier_rounds=(1, 1, 1, 1))


def cells(slate: Slate) -> dict[int, str]:
    return {c: f"{p.key} N{p.level}" for c, p in slate.items()}


def shop_turn(player: BotPlayer, *, gold: int, offers: list[str],
              slate: Slate | None = None) -> tuple[Match, Slate, int]:
    """One shop turn of ``player`` from the given shop: the slate it fielded and the gold it kept
    (the built-in ghosts' match, so that nothing else shops)."""
    m = Match.new(["A"], seed=1, settings=ALL_TIERS)
    assert player.act(m, "A")  # the Focus
    shop = m.shop("A")
    shop.gold, shop.offers = gold, [Offer(k) for k in offers]
    shop.slate = slate or Slate()
    assert player.act(m, "A")  # the shop turn, then Ready: the battle is fought
    record = m.records[-1]
    return m, record.slates["A"], record.gold_left["A"]


class NoMoves(Match):
    """A match that fails the test at any placement or freeze: the models never make one."""

    def move(self, player: str, src: int, dst: int) -> None:
        raise AssertionError(f"moved {src} → {dst}")

    def swap(self, player: str, a: int, b: int) -> None:
        raise AssertionError(f"swapped {a} and {b}")

    def freeze(self, player: str, slot: int) -> None:
        raise AssertionError(f"froze offer {slot}")


def whole_match(model: str, level: str, seed: int) -> NoMoves:
    base = solo_match("A", level, seed=seed)
    m = NoMoves.from_json(base.to_json(), shadow=base.shadow_player)
    assert isinstance(m, NoMoves)
    bot = player_model(model)(f"{seed}/bot/A")
    while not m.over:
        assert bot.act(m, "A")
    return m


# -- greedy: the quick child ------------------------------------------------------------------


def test_greedy_answers_every_focus_question():
    m = whole_match("greedy", "gentle", 3)
    assert {r.focus["A"] for r in m.records} == {FOCUS_MAX}


def test_greedy_buys_the_dearest_digit_it_can_afford():
    # Pi (5) is too dear for 4 gold; Carry (4) is the dearest it can pay for.
    _, slate, gold = shop_turn(GreedyPlayer("g"), gold=4,
                               offers=["Plus", "Pi", "Carry", "Prime", "Odd"])
    assert cells(slate) == {1: "Carry N1"} and gold == 0


def test_greedy_merges_copies():
    # A pair on the slate merges onto the front-most copy; a bought copy merges onto its N1.
    _, slate, gold = shop_turn(GreedyPlayer("g"), gold=2, offers=["Even"] * 5,
                               slate=Slate.of(c2="Odd", c6="Odd", c3="Even"))
    assert cells(slate) == {2: "Odd N2", 3: "Even N2"} and gold == 0


def test_greedy_sells_its_weakest_digit_when_full_and_a_dearer_one_is_offered():
    full = Slate.of(c1="Odd", c2="Even", c3="Minus", c4="Zero", c5="Plus", c6="Square",
                    c7="Odd N2", c8="Even N2")
    # Plus (1 ATK, 3 HP) is the weakest; selling it gives 1 gold, enough with 4 for a Pi (5).
    _, slate, gold = shop_turn(GreedyPlayer("g"), gold=4, offers=["Pi"] * 5, slate=full)
    assert slate[5] is not None and slate[5].key == "Pi" and gold == 0
    assert cells(slate) == {**cells(full), 5: "Pi N1"}
    # An offer no dearer than the weakest digit (and no copy to merge) is not worth a sale.
    _, kept, gold = shop_turn(GreedyPlayer("g"), gold=2, offers=["Double"] * 5, slate=full)
    assert kept == full and gold == 2


def test_greedy_rerolls_with_gold_to_spare():
    # Nothing it can afford (every offer costs 5): it rerolls while a reroll leaves 2 gold.
    m, slate, gold = shop_turn(GreedyPlayer("g"), gold=4, offers=["Pi"] * 5)
    rerolls = m.shop("A").rolls - 1  # the first refill is the round's
    assert rerolls >= 1
    assert gold == 4 - rerolls - sum(ALL_TIERS.cost(p.kind) for _, p in slate.items())


@pytest.mark.parametrize("level", LEVELS[:2])
def test_greedy_never_moves_a_digit(level):
    m = whole_match("greedy", level, 8)
    assert m.over and len(m.records) >= 3
    with pytest.raises(AssertionError, match="swapped"):
        whole_match("baseline", level, 8)  # the baseline places its digits: the check bites


# -- novice -----------------------------------------------------------------------------------


def test_novice_answers_each_focus_question_right_two_times_in_three():
    bot = NovicePlayer("n")
    assert bot.accuracy == NOVICE_ACCURACY == 2 / 3
    scores = [bot.focus_score(r) for r in range(1, 601)]
    # 3600 questions: the standard error of the share is below 0.008.
    assert abs(sum(scores) / (FOCUS_MAX * len(scores)) - 2 / 3) < 0.03
    assert len(set(scores)) > 3  # drawn, not a fixed score


def test_novice_buys_the_first_digit_it_can_afford():
    # Fibo (5) first but too dear: Prime (3), not the dearer Carry (4) it could pay for too;
    # then 1 gold is left, too little for anything.
    _, slate, gold = shop_turn(NovicePlayer("n"), gold=4,
                               offers=["Fibo", "Prime", "Carry", "Plus", "Odd"])
    assert cells(slate) == {1: "Prime N1"} and gold == 1
    # With more gold it goes on down the offers: Fibo first, then Prime.
    _, slate, gold = shop_turn(NovicePlayer("n"), gold=9,
                               offers=["Fibo", "Prime", "Carry", "Plus", "Odd"])
    assert cells(slate) == {1: "Fibo N1", 2: "Prime N1"} and gold == 1


def test_novice_never_merges_sells_or_rerolls():
    _, slate, gold = shop_turn(NovicePlayer("n"), gold=2, offers=["Odd"] * 5,
                               slate=Slate.of(c1="Odd", c2="Even", c5="Even"))
    assert cells(slate) == {1: "Odd N1", 2: "Even N1", 3: "Odd N1", 5: "Even N1"} and gold == 0
    full = Slate.of(**{f"c{c}": "Plus" for c in range(1, 9)})
    m, kept, gold = shop_turn(NovicePlayer("n"), gold=20, offers=["Pi"] * 5, slate=full)
    assert kept == full and gold == 20 and m.shop("A").rolls == 1  # the round's refill only


@pytest.mark.parametrize("level", LEVELS[:2])
def test_novice_never_moves_a_digit(level):
    m = whole_match("novice", level, 8)
    assert m.over


# -- the command line -------------------------------------------------------------------------


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = digits_cli.main(list(args), stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("model", list(PLAYERS))
def test_match_solo_player_prints_that_model_s_match(model):
    code, out, err = cli("match", "--solo", "--level", "gentle", "--seed", "6", "--player", model)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data == play_solo(6, "gentle", player=model).record()
    # Each round says the lives after it; the last round's are the match's.
    assert all(set(r["lives"]) == {"A", "ghost"} for r in data["rounds"])
    assert data["rounds"][-1]["lives"] == data["lives"]
    assert [r["focus"]["A"] for r in data["rounds"]] == [
        r.focus["A"] for r in play_solo(6, "gentle", player=model).records]


def test_the_models_play_different_matches_and_baseline_is_the_default():
    records = {m: play_solo(6, "gentle", player=m).record() for m in PLAYERS}
    assert len({json.dumps(r) for r in records.values()}) == 3
    assert json.loads(cli("match", "--solo", "--level", "gentle", "--seed", "6")[1]) \
        == records["baseline"]


@pytest.mark.parametrize("args", [
    ("match", "--player", "greedy"),  # a model without --solo
    ("match", "--solo", "--player", "child"),
    ("match", "--solo", "--player"),
])
def test_match_solo_refuses_bad_players_with_one_line(args):
    code, out, err = cli(*args)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("error: ")


def test_an_unknown_model_is_refused():
    with pytest.raises(ValueError):
        player_model("child")
    with pytest.raises(ValueError):
        play_solo(1, "gentle", player="child")
