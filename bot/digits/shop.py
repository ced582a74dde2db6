"""A player's shop in a match of The 20 Digits: gold, offers, and the slate being built.

The shop checks every action against the match settings and refuses with a
``bot.domain.DomainError`` (codes ``shop.*``) before it changes anything, so a refused action leaves
the shop exactly as it was.

Offers are numbered 1 to ``settings.offers`` (slots), cells 1 to 8, as the players see them.
Randomness: the offers of a roll come from ``random.Random(f"{seed}/{rolls}")``, where ``rolls``
counts the rolls made so far; the state is then plain data and survives a JSON round trip, and two
players' shops never share a random stream (their turns are order-independent).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from bot.digits.catalogue import BY_KEY, DIGITS, MAX_LEVEL, DigitKind
from bot.digits.slate import CELLS, Piece, Slate, SlateError
from bot.domain import DomainError

FOCUS_MAX = 6


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """The match defaults of the rulings; a server may change any of them.

    ``life_loss[i]`` is the lives a lost battle costs in round i + 1; the last entry holds for every
    later round (1, 1, 2, 2, 3: one life in rounds 1–2, two in 3–4, three from round 5).
    ``tier_rounds[t - 1]`` is the round tier t opens at, ``tier_costs[t - 1]`` its price.
    """

    lives: int = 10
    rounds: int = 15
    base_gold: int = 5
    offers: int = 5
    tier_costs: tuple[int, ...] = (2, 3, 4, 5)
    tier_rounds: tuple[int, ...] = (1, 3, 5, 7)
    reroll_cost: int = 1
    sell_per_level: int = 1
    life_loss: tuple[int, ...] = (1, 1, 2, 2, 3)
    draft: bool = False
    draft_row: int = 7
    draft_picks: int = 3

    def __post_init__(self) -> None:
        def bad(field: str, why: str) -> DomainError:
            return DomainError("settings.invalid", f"match setting {field}: {why}", field=field)

        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "draft":
                if not isinstance(v, bool):
                    raise bad(f.name, "must be true or false")
            elif isinstance(v, tuple):
                if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in v):
                    raise bad(f.name, "must be whole numbers, 0 or more")
            elif not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise bad(f.name, "must be a whole number, 0 or more")
        for name in ("lives", "rounds", "offers", "draft_row", "draft_picks"):
            if getattr(self, name) < 1:
                raise bad(name, "must be 1 or more")
        if len(self.tier_costs) != 4 or len(self.tier_rounds) != 4:
            raise bad("tier_costs" if len(self.tier_costs) != 4 else "tier_rounds",
                      "needs one entry per tier (4)")
        if self.tier_rounds[0] != 1 or list(self.tier_rounds) != sorted(self.tier_rounds):
            raise bad("tier_rounds", "tier 1 opens at round 1 and later tiers never earlier")
        if not self.life_loss:
            raise bad("life_loss", "needs at least one entry")

    def cost(self, kind: DigitKind) -> int:
        return self.tier_costs[kind.tier - 1]

    def open_tier(self, round_: int) -> int:
        """The highest tier open at this round."""
        return max(t for t in (1, 2, 3, 4) if self.tier_rounds[t - 1] <= round_)

    def open_kinds(self, round_: int) -> list[DigitKind]:
        top = self.open_tier(round_)
        return [d for d in DIGITS if d.tier <= top]

    def lives_lost(self, round_: int) -> int:
        return self.life_loss[min(round_, len(self.life_loss)) - 1]

    def income(self, focus: int) -> int:
        return self.base_gold + focus

    def to_json(self) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}

    @classmethod
    def from_json(cls, data: Any) -> MatchSettings:
        """Settings from an object; a missing key keeps its default (a server stores only what it
        changed)."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise DomainError("settings.invalid", "match settings are an object", field="")
        known = {f.name for f in fields(cls)}
        for k in data:
            if k not in known:
                raise DomainError("settings.invalid", f"unknown match setting {k!r}", field=k)
        # Still JSON: replace() and __post_init__ check each value's type and range.
        values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v
                                  for k, v in data.items()}
        return replace(cls(), **values)


@dataclass(frozen=True, slots=True)
class Offer:
    """One digit for sale at level 1; a frozen offer stays through rerolls and rounds."""

    key: str
    frozen: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"digit": self.key, "frozen": self.frozen}

    @classmethod
    def from_json(cls, data: Any) -> Offer:
        if not isinstance(data, Mapping) or data.get("digit") not in BY_KEY:
            raise SlateError(f"bad offer {data!r}")
        return cls(data["digit"], bool(data.get("frozen", False)))


def weight(piece: Piece) -> int:
    """How many level-1 copies a piece is made of (N1 = 1, N2 = 2, N3 = 4): merges keep the sum."""
    return 1 << (piece.level - 1)


class Shop:
    """One player's gold, offers and slate. Mutable; every action checks first, then changes."""

    __slots__ = ("gold", "offers", "rolls", "round", "seed", "settings", "slate")

    def __init__(self, seed: str, settings: MatchSettings | None = None, *, gold: int = 0,
                 slate: Slate | None = None, offers: list[Offer | None] | None = None,
                 rolls: int = 0, round_: int = 0) -> None:
        self.seed = seed
        self.settings = settings or MatchSettings()
        self.gold = gold
        self.slate = slate or Slate()
        self.offers: list[Offer | None] = list(offers or [])
        self.rolls = rolls
        self.round = round_

    # -- the round --------------------------------------------------------------------------

    def start_round(self, round_: int, income: int, *, private_offers: bool = True) -> None:
        """Add the round's gold (unspent gold carries over) and refill the offers, keeping the
        frozen ones where they are. In a draft match there are no private offers."""
        self.round = round_
        self.gold += income
        if private_offers:
            self._refill()

    def _refill(self) -> None:
        n = self.settings.offers
        kept = (self.offers + [None] * n)[:n]
        kinds = self.settings.open_kinds(self.round)
        rng = random.Random(f"{self.seed}/{self.rolls}")
        self.rolls += 1
        self.offers = [o if o is not None and o.frozen else Offer(rng.choice(kinds).key)
                       for o in kept]

    # -- checks -----------------------------------------------------------------------------

    def _check_cell(self, cell: Any) -> int:
        if not isinstance(cell, int) or isinstance(cell, bool) or cell not in CELLS:
            raise DomainError("shop.bad_cell", f"cells are 1 to 8, not {cell!r}", cell=cell)
        return cell

    def _piece_at(self, cell: Any) -> Piece:
        cell = self._check_cell(cell)
        piece = self.slate[cell]
        if piece is None:
            raise DomainError("shop.cell_empty", f"cell {cell} is empty", cell=cell)
        return piece

    def _offer_at(self, slot: Any) -> Offer:
        if (not isinstance(slot, int) or isinstance(slot, bool)
                or not 1 <= slot <= len(self.offers)):
            raise DomainError("shop.bad_offer", f"offers are 1 to {len(self.offers)}, not {slot!r}",
                              slot=slot, offers=len(self.offers))
        offer = self.offers[slot - 1]
        if offer is None:
            raise DomainError("shop.no_offer", f"offer {slot} was already bought", slot=slot)
        return offer

    def _pay(self, amount: int) -> None:
        if amount > self.gold:
            raise DomainError("shop.not_enough_gold", f"this costs {amount} gold; you have "
                              f"{self.gold}", cost=amount, gold=self.gold)

    def placement(self, key: str, cell: int | None = None) -> tuple[int, Slate]:
        """Where a bought level-1 ``key`` goes and the slate after it, without changing anything.

        ``cell=None``: the first empty cell. A cell holding the same digit at level 1: the new
        copy merges onto it at once (N2 in that cell), which works on a full slate too."""
        if cell is None:
            empty = self.slate.empty_cells()
            if not empty:
                raise DomainError("shop.slate_full", "your slate is full: sell, merge, or buy onto "
                                  "a copy at N1 to merge")
            return empty[0], self.slate.with_cell(empty[0], Piece(key, 1))
        cell = self._check_cell(cell)
        there = self.slate[cell]
        if there is None:
            return cell, self.slate.with_cell(cell, Piece(key, 1))
        if there.key != key:
            raise DomainError("shop.cell_occupied", f"cell {cell} holds {there.key}", cell=cell,
                              digit=there.key)
        if there.level != 1:
            raise DomainError("shop.merge_levels_differ", f"a new {key} is N1 and merges only onto "
                              f"an N1; cell {cell} holds N{there.level}", cell=cell,
                              digit=key, level=there.level)
        return cell, self.slate.with_cell(cell, Piece(key, 2))

    def _check_tier(self, key: str) -> DigitKind:
        kind = BY_KEY[key]
        if kind.tier > self.settings.open_tier(self.round):
            raise DomainError("shop.tier_closed", f"tier {kind.tier} opens at round "
                              f"{self.settings.tier_rounds[kind.tier - 1]}", digit=key,
                              tier=kind.tier, round=self.round)
        return kind

    # -- actions ----------------------------------------------------------------------------

    def take(self, key: str, cell: int | None = None) -> int:
        """Pay for a level-1 ``key`` and place it (the common half of a buy and a draft pick).
        Returns the cell it went to."""
        kind = self._check_tier(key)
        cost = self.settings.cost(kind)
        self._pay(cost)
        where, slate = self.placement(key, cell)
        self.gold -= cost
        self.slate = slate
        return where

    def buy(self, slot: int, cell: int | None = None) -> int:
        """Buy offer ``slot`` into ``cell`` (first empty cell when None). Returns the cell."""
        offer = self._offer_at(slot)
        where = self.take(offer.key, cell)
        self.offers[slot - 1] = None
        return where

    def sell(self, cell: int) -> int:
        """Sell the digit in ``cell`` for 1 gold per level. Returns the gold gained."""
        piece = self._piece_at(cell)
        gain = self.settings.sell_per_level * piece.level
        self.slate = self.slate.with_cell(cell, None)
        self.gold += gain
        return gain

    def reroll(self) -> None:
        """New offers in every slot that is not frozen (bought slots are filled again)."""
        if self.offers and all(o is not None and o.frozen for o in self.offers):
            raise DomainError("shop.all_frozen", "every offer is frozen: nothing to reroll")
        self._pay(self.settings.reroll_cost)
        self.gold -= self.settings.reroll_cost
        self._refill()

    def freeze(self, slot: int) -> None:
        offer = self._offer_at(slot)
        if offer.frozen:
            raise DomainError("shop.already_frozen", f"offer {slot} is already frozen", slot=slot)
        self.offers[slot - 1] = replace(offer, frozen=True)

    def unfreeze(self, slot: int) -> None:
        offer = self._offer_at(slot)
        if not offer.frozen:
            raise DomainError("shop.not_frozen", f"offer {slot} is not frozen", slot=slot)
        self.offers[slot - 1] = replace(offer, frozen=False)

    def move(self, src: int, dst: int) -> None:
        """Move the digit in ``src`` to the empty cell ``dst``."""
        piece = self._piece_at(src)
        dst = self._check_cell(dst)
        if dst == src:
            raise DomainError("shop.same_cell", f"the digit is already in cell {dst}", cell=dst)
        there = self.slate[dst]
        if there is not None:
            raise DomainError("shop.cell_occupied", f"cell {dst} holds {there.key}: swap them",
                              cell=dst, digit=there.key)
        self.slate = self.slate.with_cell(src, None).with_cell(dst, piece)

    def swap(self, a: int, b: int) -> None:
        """Exchange the contents of two cells (one of them may be empty)."""
        a, b = self._check_cell(a), self._check_cell(b)
        if a == b:
            raise DomainError("shop.same_cell", f"cells {a} and {b} are the same", cell=a)
        pa, pb = self.slate[a], self.slate[b]
        if pa is None and pb is None:
            raise DomainError("shop.cell_empty", f"cells {a} and {b} are both empty", cell=a)
        self.slate = self.slate.with_cell(a, pb).with_cell(b, pa)

    def merge(self, src: int, onto: int) -> Piece:
        """Merge the digit in ``src`` onto the equal digit in ``onto``: one digit of the next level
        in ``onto``, ``src`` left empty. Returns the merged piece."""
        a = self._piece_at(src)
        b = self._piece_at(onto)
        if src == onto:
            raise DomainError("shop.same_cell", "a digit cannot merge with itself", cell=src)
        if a.key != b.key:
            raise DomainError("shop.merge_different_digits", f"{a.key} and {b.key} are different "
                              "digits", digit=a.key, other=b.key)
        if a.level != b.level:
            raise DomainError("shop.merge_levels_differ", f"N{a.level} and N{b.level} are "
                              "different levels", digit=a.key, level=a.level, other=b.level)
        if a.level >= MAX_LEVEL:
            raise DomainError("shop.max_level", f"N{MAX_LEVEL} is the top level", digit=a.key,
                              level=a.level)
        merged = Piece(a.key, a.level + 1)
        self.slate = self.slate.with_cell(src, None).with_cell(onto, merged)
        return merged

    # -- state ------------------------------------------------------------------------------

    def copies(self) -> int:
        """The level-1 copies on the slate (N2 = 2, N3 = 4), which merges do not change."""
        return sum(weight(p) for _, p in self.slate.items())

    def to_json(self) -> dict[str, Any]:
        return {"gold": self.gold, "slate": self.slate.to_json(), "round": self.round,
                "offers": [o.to_json() if o else None for o in self.offers],
                "seed": self.seed, "rolls": self.rolls}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], settings: MatchSettings | None = None) -> Shop:
        return cls(str(data["seed"]), settings, gold=int(data["gold"]),
                   slate=Slate.from_json(data["slate"]),
                   offers=[Offer.from_json(o) if o is not None else None for o in data["offers"]],
                   rolls=int(data["rolls"]), round_=int(data["round"]))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shop) and self.to_json() == other.to_json() and \
            self.settings == other.settings

    __hash__ = None  # type: ignore[assignment]  # typeshed: object.__hash__ is a method
