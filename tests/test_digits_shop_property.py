"""Property: any sequence of shop actions keeps gold at 0 or more and loses no digit; a refused
action changes nothing."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.digits.shop import MatchSettings, Shop
from bot.domain import DomainError

ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("buy"), st.integers(0, 6), st.one_of(st.none(), st.integers(0, 9))),
        st.tuples(st.just("sell"), st.integers(0, 9)),
        st.tuples(st.just("reroll")),
        st.tuples(st.just("freeze"), st.integers(0, 6)),
        st.tuples(st.just("unfreeze"), st.integers(0, 6)),
        st.tuples(st.just("move"), st.integers(1, 8), st.integers(1, 8)),
        st.tuples(st.just("swap"), st.integers(1, 8), st.integers(1, 8)),
        st.tuples(st.just("merge"), st.integers(1, 8), st.integers(1, 8)),
        st.tuples(st.just("round"), st.integers(0, 6)),
    ),
    max_size=80,
)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), actions=ACTIONS)
def test_random_shop_actions_never_make_gold_negative_or_lose_a_digit(seed, actions):
    shop = Shop(str(seed), MatchSettings())
    shop.start_round(1, 5)
    for action in actions:
        name, *args = action
        before = json.dumps(shop.to_json(), sort_keys=True)
        copies, gold = shop.copies(), shop.gold
        sold = None
        if name == "sell" and 1 <= args[0] <= 8 and shop.slate[args[0]] is not None:
            sold = shop.slate[args[0]]
        try:
            if name == "round":
                shop.start_round(shop.round + 1, 5 + args[0])
            else:
                getattr(shop, name)(*args)
        except DomainError:
            assert json.dumps(shop.to_json(), sort_keys=True) == before
            continue
        assert shop.gold >= 0
        if name == "buy":
            assert shop.copies() == copies + 1 and shop.gold < gold
        elif name == "sell":
            assert sold is not None
            assert shop.copies() == copies - (1 << (sold.level - 1))
            assert shop.gold == gold + sold.level
        else:
            assert shop.copies() == copies
        assert len(shop.offers) == 5
