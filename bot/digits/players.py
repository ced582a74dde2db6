"""Player models: stand-ins for the children who play a solo match, to measure the levels on.

The baseline (:class:`bot.digits.baseline.BotPlayer`) plays like a steady student who reads the
digits' roles and places them. Children do not all play like that, so the levels are measured on
two more models (issue "games a child wins"), each playing only through the match's own actions,
deterministic for its seed like the baseline:

- **greedy** (:class:`GreedyPlayer`), the quick child: 6 of 6 in every Focus; buys the dearest
  digit it can afford (a copy of a level-1 digit merges onto it); merges every pair of copies;
  on a full slate, sells its weakest digit when a dearer one than it is offered; re-rolls while it
  has gold to spare and nothing to buy; never moves a piece (a digit stays in the first empty cell
  it was bought into, front row first) and never freezes.
- **novice** (:class:`NovicePlayer`): each Focus question right with probability 2/3; buys the
  first offer it can afford into the first empty cell, until none is affordable or the slate is
  full; never sells, merges, re-rolls, freezes or moves.

:data:`PLAYERS` names them for ``python -m bot.digits match --solo --player P``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.digits.baseline import MAX_REROLLS, BotPlayer, strength
from bot.digits.catalogue import BY_KEY
from bot.digits.ghosts import Ghost
from bot.digits.match import Match, ShopPlayer
from bot.digits.shop import FOCUS_MAX, Shop, weight
from bot.digits.slate import Piece

__all__ = ["NOVICE_ACCURACY", "PLAYERS", "GreedyPlayer", "NovicePlayer", "player_model"]

#: The novice's chance of answering a Focus question right.
NOVICE_ACCURACY = 2 / 3


def _price(shop: Shop, key: str) -> int:
    return shop.settings.cost(BY_KEY[key])


def _paid(shop: Shop, piece: Piece) -> int:
    """What a piece cost in the shop: its price once per level-1 copy it is made of."""
    return _price(shop, piece.key) * weight(piece)


class _ModelPlayer(BotPlayer):
    """The turn every model shares: the Focus score, a shop turn of its own, then the end of the
    turn with no placement. The draft variant is the baseline's (the models are measured on private
    shops, the solo levels' default)."""

    def _model_turn(self, match: Match, player: str) -> None:
        raise NotImplementedError

    def act(self, match: Match, player: str, ghost_pool: Iterable[Ghost] = ()) -> bool:
        if match.over or match.draft is not None:
            return super().act(match, player, ghost_pool)
        stage = match.stage(player)
        if stage == "focus":
            match.submit_focus(player, self.focus_score(match.round))
            return True
        if stage != "shop":
            return False
        self._model_turn(match, player)
        match.end_turn(player, ghost_pool)
        return True


class GreedyPlayer(_ModelPlayer):
    """The quick child (see the module's docstring)."""

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__(seed, accuracy=1.0)

    def focus_score(self, round_: int) -> int:
        return FOCUS_MAX

    def _choice(self, shop: Shop) -> tuple[int, int | None, int | None] | None:
        """(slot, cell, cell to sell first) of the dearest offer it can take now, or None."""
        n1 = {p.key: c for c, p in reversed(list(shop.slate.items())) if p.level == 1}
        weakest = None if not shop.slate.is_full() else min(
            shop.slate.items(), key=lambda cp: (strength(cp[1]), cp[0]))
        best: tuple[int, int, int | None, int | None] | None = None
        for i, offer in enumerate(shop.offers):
            if offer is None:
                continue
            price = _price(shop, offer.key)
            copy = n1.get(offer.key)
            taken: tuple[int, int | None, int | None] | None
            if copy is not None or weakest is None:
                taken = (i + 1, copy, None) if price <= shop.gold else None
            else:
                cell, piece = weakest
                gain = shop.settings.sell_per_level * piece.level
                taken = ((i + 1, None, cell) if price > _paid(shop, piece)
                         and price <= shop.gold + gain else None)
            if taken is not None and (best is None or price > best[0]):
                best = (price, *taken)
        return None if best is None else best[1:]

    def _model_turn(self, match: Match, player: str) -> None:
        shop = match.shop(player)
        cheapest = min(shop.settings.tier_costs)
        rerolls = 0
        while True:
            self._merge_all(match, player)
            choice = self._choice(shop)
            if choice is not None:
                slot, cell, sell = choice
                if sell is not None:
                    match.sell(player, sell)
                match.buy(player, slot, cell)
                continue
            # Gold to spare: a reroll still leaves enough for the cheapest digit.
            if rerolls < MAX_REROLLS and shop.gold >= shop.settings.reroll_cost + cheapest:
                match.reroll(player)
                rerolls += 1
                continue
            break
        self._merge_all(match, player)


class NovicePlayer(_ModelPlayer):
    """The novice (see the module's docstring)."""

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__(seed, accuracy=NOVICE_ACCURACY)

    def _model_turn(self, match: Match, player: str) -> None:
        shop = match.shop(player)
        while not shop.slate.is_full():
            slot = next((i + 1 for i, o in enumerate(shop.offers)
                         if o is not None and _price(shop, o.key) <= shop.gold), None)
            if slot is None:
                return
            # Into the first empty cell, even beside a copy: a novice does not merge.
            match.buy(player, slot, shop.slate.empty_cells()[0])


#: The player models of ``python -m bot.digits match --solo --player P``: a seed gives the player.
PLAYERS: dict[str, Callable[[str], ShopPlayer]] = {
    "baseline": BotPlayer,
    "greedy": GreedyPlayer,
    "novice": NovicePlayer,
}


def player_model(name: str) -> Callable[[str], ShopPlayer]:
    """The player model called ``name`` (one of :data:`PLAYERS`)."""
    try:
        return PLAYERS[name]
    except KeyError:
        raise ValueError(f"a player model is one of {tuple(PLAYERS)}, not {name!r}") from None
