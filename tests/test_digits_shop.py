"""The shop of a match: each action, each refusal, tiers, gold and the settings."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from bot.digits.catalogue import BY_KEY
from bot.digits.shop import MatchSettings, Offer, Shop
from bot.digits.slate import Piece, Slate
from bot.domain import DomainError


def shop_with(slate: dict[str, Any] | None = None, offers: list[str | None] | None = None,
              gold: int = 20, round_: int = 1, **settings: Any) -> Shop:
    return Shop("t", MatchSettings(**settings), gold=gold,
                slate=Slate.from_json(slate or {}),
                offers=[Offer(k) if k else None for k in (offers or ["Odd", "Even", "Plus",
                                                                      "Minus", "Zero"])],
                round_=round_)


def refused(shop: Shop, code: str, action, *args: Any) -> DomainError:
    """The action raises ``code`` and leaves the shop exactly as it was."""
    before = json.dumps(shop.to_json(), sort_keys=True)
    with pytest.raises(DomainError) as e:
        action(*args)
    assert e.value.code == code
    assert json.dumps(shop.to_json(), sort_keys=True) == before
    return e.value


# -- settings -------------------------------------------------------------------------------------

def test_default_settings_are_the_rulings_match_defaults():
    s = MatchSettings()
    assert (s.lives, s.rounds, s.base_gold, s.offers, s.reroll_cost, s.sell_per_level) == (
        10, 15, 5, 5, 1, 1)
    assert [s.cost(BY_KEY[k]) for k in ("Odd", "Prime", "Carry", "Fibo")] == [2, 3, 4, 5]
    assert [s.income(f) for f in (0, 6)] == [5, 11]
    assert [s.lives_lost(r) for r in range(1, 16)] == [1, 1, 2, 2] + [3] * 11
    assert not s.draft


def test_settings_round_trip_and_a_server_changes_only_some():
    s = MatchSettings.from_json({"lives": 6, "draft": True, "tier_costs": [1, 2, 3, 4]})
    assert (s.lives, s.draft, s.tier_costs, s.rounds) == (6, True, (1, 2, 3, 4), 15)
    assert MatchSettings.from_json(json.loads(json.dumps(s.to_json()))) == s
    assert MatchSettings.from_json(None) == MatchSettings()


@pytest.mark.parametrize("bad", [{"lives": 0}, {"rounds": -1}, {"draft": 1}, {"colour": 3},
                                 {"tier_costs": [2, 3]}, {"tier_rounds": [1, 5, 3, 7]},
                                 {"tier_rounds": [2, 3, 5, 7]}, {"life_loss": []},
                                 {"offers": "5"}, []])
def test_bad_settings_are_refused(bad):
    with pytest.raises(DomainError) as e:
        MatchSettings.from_json(bad)
    assert e.value.code == "settings.invalid"


# -- tiers, offers, gold --------------------------------------------------------------------------

@pytest.mark.parametrize("round_,top", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3),
                                        (7, 4), (15, 4)])
def test_tiers_open_at_rounds_1_3_5_7(round_, top):
    s = MatchSettings()
    assert s.open_tier(round_) == top
    shop = Shop("tiers", s, gold=1000)
    shop.start_round(round_, 0)
    seen = Counter()
    for _ in range(60):
        seen.update(BY_KEY[o.key].tier for o in shop.offers if o)
        shop.reroll()
    assert max(seen) == top  # the newest tier does appear, and nothing above it
    assert set(seen) == set(range(1, top + 1))


def test_five_offers_the_same_for_the_same_seed_and_not_for_another():
    def offers(seed: str) -> list[str]:
        shop = Shop(seed)
        shop.start_round(7, 5)
        shop.reroll()
        return [o.key for o in shop.offers if o]

    assert len(offers("a")) == 5
    assert offers("a") == offers("a")
    assert any(offers("a") != offers(s) for s in ("b", "c", "d"))


def test_gold_is_5_plus_focus_and_unspent_gold_carries_over():
    shop = Shop("g")
    shop.start_round(1, MatchSettings().income(4))
    assert shop.gold == 9
    shop.buy(1)
    assert shop.gold == 7
    shop.start_round(2, MatchSettings().income(0))
    assert shop.gold == 12


# -- buy ------------------------------------------------------------------------------------------

def test_buy_pays_the_cost_into_the_first_empty_cell_and_empties_the_offer():
    shop = shop_with({"1": "Zero"}, ["Odd", "Even"], gold=5)
    assert shop.buy(1) == 2
    assert shop.slate[2] == Piece("Odd") and shop.gold == 3
    assert shop.offers == [None, Offer("Even")]


def test_buy_into_a_chosen_cell():
    shop = shop_with({}, ["Prime"], gold=3, round_=3)
    assert shop.buy(1, 6) == 6
    assert shop.slate[6] == Piece("Prime") and shop.gold == 0


def test_buying_onto_an_n1_copy_merges_at_once_even_on_a_full_slate():
    full = {str(c): "Zero" if c != 3 else "Odd" for c in range(1, 9)}
    full.update({"1": "Plus", "2": "Minus", "4": "Even", "5": "Double", "6": "Zero N2"})
    shop = shop_with(full, ["Odd"], gold=2)
    assert shop.buy(1, 3) == 3
    assert shop.slate[3] == Piece("Odd", 2) and shop.gold == 0 and shop.slate.is_full()


def test_buy_refusals():
    shop = shop_with({"1": "Odd N2", "2": "Even"}, ["Odd", "Plus", None], gold=2)
    refused(shop, "shop.bad_offer", shop.buy, 0)
    refused(shop, "shop.bad_offer", shop.buy, 4)
    refused(shop, "shop.bad_offer", shop.buy, True)
    refused(shop, "shop.no_offer", shop.buy, 3)
    refused(shop, "shop.cell_occupied", shop.buy, 2, 2)
    refused(shop, "shop.merge_levels_differ", shop.buy, 1, 1)
    refused(shop, "shop.bad_cell", shop.buy, 1, 9)
    refused(shop, "shop.bad_cell", shop.buy, 1, "3")
    shop.gold = 1
    e = refused(shop, "shop.not_enough_gold", shop.buy, 2)
    assert e.params == {"cost": 2, "gold": 1}


def test_buy_refused_on_a_full_slate_without_a_copy_to_merge_onto():
    shop = shop_with({str(c): "Zero" for c in range(1, 9)}, ["Odd"])
    refused(shop, "shop.slate_full", shop.buy, 1)


def test_a_digit_of_a_tier_not_open_yet_cannot_be_bought():
    shop = shop_with({}, ["Fibo", "Carry"], gold=20, round_=6)
    refused(shop, "shop.tier_closed", shop.buy, 1)
    shop.freeze(1)
    shop.start_round(7, 0)  # tier 4 opens at round 7
    assert shop.buy(1) == 1 and shop.slate[1] == Piece("Fibo") and shop.gold == 15


# -- sell, reroll, freeze -------------------------------------------------------------------------

@pytest.mark.parametrize("level", [1, 2, 3])
def test_sell_gives_one_gold_per_level(level):
    shop = shop_with({"4": f"Carry N{level}"}, gold=0)
    assert shop.sell(4) == level
    assert shop.gold == level and shop.slate[4] is None


def test_sell_refusals():
    shop = shop_with({"1": "Odd"})
    refused(shop, "shop.cell_empty", shop.sell, 2)
    refused(shop, "shop.bad_cell", shop.sell, 0)


def test_reroll_costs_one_gold_keeps_frozen_offers_and_refills_bought_slots():
    shop = Shop("r", gold=0)
    shop.start_round(1, 5)
    first = list(shop.offers)
    shop.freeze(2)
    shop.buy(4)
    shop.reroll()
    assert shop.gold == 5 - 2 - 1
    assert shop.offers[1] == Offer(first[1].key, frozen=True)
    assert all(o is not None for o in shop.offers)
    assert [o.key for o in shop.offers] != [o.key for o in first]


def test_reroll_refusals():
    shop = shop_with(gold=0)
    refused(shop, "shop.not_enough_gold", shop.reroll)
    shop.gold = 5
    for slot in range(1, 6):
        shop.freeze(slot)
    refused(shop, "shop.all_frozen", shop.reroll)


def test_a_frozen_offer_stays_through_rounds_until_bought_or_unfrozen():
    shop = Shop("f")
    shop.start_round(1, 5)
    kept = shop.offers[0].key
    shop.freeze(1)
    for r in (2, 3):
        shop.start_round(r, 5)
        assert shop.offers[0] == Offer(kept, frozen=True)
    shop.unfreeze(1)
    assert shop.offers[0] == Offer(kept, frozen=False)
    shop.freeze(1)
    shop.buy(1)
    assert shop.offers[0] is None
    shop.start_round(4, 0)
    assert shop.offers[0] is not None and not shop.offers[0].frozen


def test_freeze_refusals():
    shop = shop_with(offers=["Odd", None])
    refused(shop, "shop.no_offer", shop.freeze, 2)
    refused(shop, "shop.bad_offer", shop.freeze, 3)
    refused(shop, "shop.not_frozen", shop.unfreeze, 1)
    shop.freeze(1)
    refused(shop, "shop.already_frozen", shop.freeze, 1)


# -- move, swap, merge ----------------------------------------------------------------------------

def test_move_and_swap():
    shop = shop_with({"1": "Odd", "5": "Plus"})
    shop.move(1, 2)
    assert shop.slate == Slate.of(c2="Odd", c5="Plus")
    shop.swap(2, 5)
    assert shop.slate == Slate.of(c5="Odd", c2="Plus")
    shop.swap(5, 8)  # with an empty cell, a swap is a move
    assert shop.slate == Slate.of(c8="Odd", c2="Plus")


def test_move_and_swap_refusals():
    shop = shop_with({"1": "Odd", "5": "Plus"})
    refused(shop, "shop.cell_empty", shop.move, 2, 3)
    refused(shop, "shop.cell_occupied", shop.move, 1, 5)
    refused(shop, "shop.same_cell", shop.move, 1, 1)
    refused(shop, "shop.bad_cell", shop.move, 1, 9)
    refused(shop, "shop.cell_empty", shop.swap, 2, 3)
    refused(shop, "shop.same_cell", shop.swap, 1, 1)
    refused(shop, "shop.bad_cell", shop.swap, -1, 1)


def test_merges_to_n2_then_n3_keep_the_cell_merged_onto():
    shop = shop_with({"1": "Odd", "5": "Odd", "2": "Odd N2"})
    assert shop.merge(5, 1) == Piece("Odd", 2)
    assert shop.slate == Slate.of(c1="Odd N2", c2="Odd N2")
    assert shop.merge(1, 2) == Piece("Odd", 3)
    assert shop.slate == Slate.of(c2="Odd N3")
    assert BY_KEY["Odd"].stats[2] == (5, 7)  # an N3's stats come from the level table


def test_merge_refusals():
    shop = shop_with({"1": "Odd", "2": "Even", "3": "Odd N2", "4": "Zero N3", "8": "Zero N3"})
    refused(shop, "shop.merge_different_digits", shop.merge, 1, 2)
    refused(shop, "shop.merge_levels_differ", shop.merge, 1, 3)
    refused(shop, "shop.max_level", shop.merge, 4, 8)
    refused(shop, "shop.same_cell", shop.merge, 1, 1)
    refused(shop, "shop.cell_empty", shop.merge, 5, 1)
    refused(shop, "shop.cell_empty", shop.merge, 1, 6)


def test_buy_onto_copy_then_merge_makes_an_n3_from_four_copies():
    shop = shop_with({"1": "Plus", "2": "Plus"}, ["Plus", "Plus"], gold=4)
    shop.buy(1, 1)
    shop.buy(2, 2)
    shop.merge(2, 1)
    assert shop.slate == Slate.of(c1="Plus N3") and shop.copies() == 4 and shop.gold == 0


def test_shop_json_round_trip():
    shop = Shop("j", gold=0)
    shop.start_round(3, 9)
    shop.freeze(3)
    shop.buy(1, 5)
    again = Shop.from_json(json.loads(json.dumps(shop.to_json())), shop.settings)
    assert again == shop
    shop.reroll()
    again.reroll()
    assert again == shop  # the random stream goes on the same after the round trip
