"""The engine against a second, deliberately plain implementation of the same rules.

The engine's hot path is written for speed (kind codes, lists of ints, masks, held damage); this
reference is written for reading: one dataclass per digit, one function per rule, no tricks. Both
must give the very same result, log and snapshots included, on random slates. It guards every
optimisation of the engine.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.digits.battle import fight
from bot.digits.catalogue import DIGITS
from bot.digits.slate import Piece, Slate
from tools.bench.digits import random_full_slate

REACH = {"Sigma", "Pi"}


@dataclass
class Digit:
    name: str
    level: int
    atk: int
    hp: int
    shield: int = 0
    hp_after_opening: int = 0

    def state(self) -> dict[str, Any]:
        return {"digit": self.name, "level": self.level, "atk": self.atk, "hp": self.hp,
                "shield": self.shield}


Side = dict[int, Digit]  # cell 1–8 → digit


def column(cell: int) -> int:
    return cell if cell <= 4 else cell - 4


def nearest_columns(c: int) -> list[int]:
    order = [c, c - 1, c + 1, c - 2, c + 2, c - 3, c + 3]
    return [x for x in order if 1 <= x <= 4]


def is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, math.isqrt(n) + 1))


def fibonacci(e: int) -> int:
    a, b = 1, 1
    for _ in range(e - 1):
        a, b = b, a + b
    return a


def make_side(slate: Slate) -> Side:
    return {cell: Digit(p.key, p.level, p.kind.atk(p.level), p.kind.hp(p.level))
            for cell, p in slate.items()}


def front_row(side: Side) -> list[Digit]:
    return [side[c] for c in (1, 2, 3, 4) if c in side]


def opening(left: Side, right: Side, focus: dict[str, int]) -> None:
    sides = {"left": left, "right": right}
    other = {"left": "right", "right": "left"}
    # 1. Plus, Minus, Abacus: add up, then floor.
    change: dict[tuple[str, int], int] = {}
    for name, side in sides.items():
        for cell, d in side.items():
            if d.name == "Plus" and cell >= 5 and cell - 4 in side:
                change[name, cell - 4] = change.get((name, cell - 4), 0) + 2 * d.level
            if d.name == "Minus" and column(cell) in sides[other[name]]:
                key = (other[name], column(cell))
                change[key] = change.get(key, 0) - (d.level + 1)
            if d.name == "Abacus":
                change[name, cell] = change.get((name, cell), 0) + focus[name]
    for (name, cell), amount in change.items():
        d = sides[name][cell]
        d.atk = max(0, d.atk + amount)
    # 2. Average: the highest level, then the leftmost.
    for side in sides.values():
        averages = [(cell, d) for cell, d in side.items() if d.name == "Average"]
        front = front_row(side)
        if averages and front:
            _, chosen = min(averages, key=lambda cd: (-cd[1].level, column(cd[0]), cd[0]))
            value = math.ceil(sum(d.atk for d in front) / len(front)) + chosen.level - 1
            for d in front:
                d.atk = value
    # 3. Twins.
    for side in sides.values():
        gains = []
        for d in side.values():
            if d.name == "Twin":
                same = sum(1 for o in side.values() if o is not d and o.atk == d.atk)
                gains.append((d, d.level * same))
        for d, g in gains:
            d.atk += g
            d.hp += g
    # 4. Power.
    for side in sides.values():
        new = []
        for cell, d in side.items():
            if d.name == "Power" and cell >= 5 and cell - 4 in side:
                target = side[cell - 4]
                new.append((target, max(target.atk, min(target.atk ** 2, (d.level + 2) ** 2))))
        for target, atk in new:
            target.atk = atk
    # 5. Sigma.
    for side in sides.values():
        new = []
        for d in side.values():
            if d.name == "Sigma":
                total = sum(o.atk for o in front_row(side) if o is not d)
                new.append((d, total // (5 - d.level)))
        for d, atk in new:
            d.atk = atk
    # 6. Square.
    for side in sides.values():
        for d in side.values():
            if d.name == "Square":
                d.shield = (d.level + 1) ** 2
            d.hp_after_opening = d.hp


def target_cell(attacker_cell: int, foe: Side) -> int:
    row = (1, 2, 3, 4) if any(c in foe for c in (1, 2, 3, 4)) else (5, 6, 7, 8)
    offset = row[0] - 1
    for col in nearest_columns(column(attacker_cell)):
        if col + offset in foe:
            return col + offset
    raise AssertionError("no target in a living side")


def hit_value(d: Digit, cell: int, own: Side, foe: Side, target: int, e: int) -> int:
    h = d.atk
    if d.name == "Fibo":
        h = d.atk * fibonacci(e)
    if d.name == "Even" and d.hp % 2 == 0:
        h += d.level + 1
    if d.name == "Odd" and d.hp % 2 == 1:
        h += d.level + 1
    if d.name == "Prime" and is_prime(d.hp):
        h += 2 * d.level + 1
    if d.name == "Delta":
        h += (d.hp_after_opening - d.hp) // 2
    if d.name == "Half":
        h = max(h, foe[target].hp // 2)
    behind = own.get(cell + 4) if cell <= 4 else None
    if behind is not None and behind.name == "Double" and e <= behind.level:
        h *= 2
    return h


def land(d: Digit, h: int) -> int:
    if d.name == "Modulo" and h % 3 == 0:
        return 0
    if d.name == "Zero":
        h = max(1, h - d.level)
    absorbed = min(d.shield, h)
    d.shield -= absorbed
    return h - absorbed


def battle(left_slate: Slate, right_slate: Slate, lf: int, rf: int) -> dict[str, Any]:
    left, right = make_side(left_slate), make_side(right_slate)
    sides = {"left": left, "right": right}
    opening(left, right, {"left": lf, "right": rf})

    def states() -> dict[str, dict[str, Any]]:
        return {n: {str(c): d.state() for c, d in sorted(s.items())} for n, s in sides.items()}

    result: dict[str, Any] = {"opening": states(), "log": [], "snapshots": [states()]}
    exchanges = 0
    while left and right and exchanges < 12:
        exchanges += 1
        e = exchanges
        hits: list[dict[str, Any]] = []
        damage: dict[tuple[str, int], int] = {}
        for name, own, foe, foe_name in (("left", left, right, "right"),
                                         ("right", right, left, "left")):
            for cell in sorted(own):
                d = own[cell]
                if cell >= 5 and d.name not in REACH:
                    continue
                target = target_cell(cell, foe)
                h = hit_value(d, cell, own, foe, target, e)
                if h <= 0:
                    continue
                if d.name == "Pi" and e % 3 == 0:
                    row = (1, 2, 3, 4) if any(c in foe for c in (1, 2, 3, 4)) else (5, 6, 7, 8)
                    landings = [(c, h) for c in row if c in foe]
                elif d.name == "Splitter" and target <= 4 and target + 4 in foe:
                    landings = [(target, h // 2), (target + 4, h // 2)] if h // 2 else []
                else:
                    landings = [(target, h)]
                for c, value in landings:
                    lost = land(foe[c], value)
                    damage[foe_name, c] = damage.get((foe_name, c), 0) + lost
                    hits.append({"side": name, "from": cell, "to": c, "hit": value,
                                 "damage": lost})
        falls: list[dict[str, Any]] = []
        moves: list[dict[str, Any]] = []
        for name, side in sides.items():
            for cell in sorted(side):
                side[cell].hp -= damage.get((name, cell), 0)
            fallen = {c: d for c, d in side.items() if d.hp <= 0}
            for c in fallen:
                del side[c]
            for c, d in sorted(fallen.items()):
                fall: dict[str, Any] = {"side": name, "cell": c, "digit": d.name}
                if d.name == "Carry":
                    receiver = c + 4 if c <= 4 and c + 4 in side else next(
                        (x for x in nearest_columns(column(c)) if x in side), None)
                    if receiver is not None:
                        side[receiver].atk += d.atk
                        fall["gives"] = {"to": receiver, "atk": d.atk}
                falls.append(fall)
            for c in sorted(fallen):
                if c <= 4 and c + 4 in side:
                    side[c] = side.pop(c + 4)
                    moves.append({"side": name, "from": c + 4, "to": c})
        result["log"].append({"exchange": e, "hits": hits, "falls": falls, "moves": moves})
        result["snapshots"].append(states())
    result["exchanges"] = exchanges
    result["winner"] = ("draw" if bool(left) == bool(right)
                        else "left" if left else "right")
    result["survivors"] = states()
    return result


def assert_same(left: Slate, right: Slate, lf: int, rf: int) -> None:
    expected = battle(left, right, lf, rf)
    got = fight(left, right, lf, rf).to_json(full=True)
    assert got == expected, (left.to_json(), right.to_json(), lf, rf)


pieces = st.builds(Piece, st.sampled_from([d.key for d in DIGITS]), st.integers(1, 3))
slates = st.lists(st.one_of(st.none(), pieces, pieces, pieces), min_size=8, max_size=8).map(
    lambda cells: Slate(tuple(cells)))
focus = st.integers(0, 6)


@settings(max_examples=300, deadline=None)
@given(slates, slates, focus, focus)
def test_engine_matches_the_plain_reference_on_random_slates(left, right, lf, rf):
    assert_same(left, right, lf, rf)


def test_engine_matches_the_plain_reference_on_2000_random_full_battles():
    rng = random.Random(20261130)
    for _ in range(2000):
        assert_same(random_full_slate(rng), random_full_slate(rng), rng.randint(0, 6),
                    rng.randint(0, 6))


def test_reference_gives_the_contract_answer():
    # The reference itself is checked against the contract's example.
    r = battle(Slate.from_json({"1": "Odd", "5": "Plus N1"}), Slate.from_json({"1": "Minus N2"}),
               0, 3)
    assert (r["winner"], r["exchanges"]) == ("left", 1)
    assert r["survivors"] == {"left": {"1": {"digit": "Plus", "level": 1, "atk": 1, "hp": 3,
                                             "shield": 0}}, "right": {}}
