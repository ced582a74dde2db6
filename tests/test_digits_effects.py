"""A digit's card text at its own level: numbers, never N, and the numbers the battles use."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from bot.digits.battle import FIB, PRIMES, fight
from bot.digits.catalogue import BY_KEY, DIGITS, MAX_LEVEL
from bot.digits.effects import FIBO_SHOWN, effect, numbers
from bot.digits.slate import Slate

LEVELS = range(1, MAX_LEVEL + 1)
CASES = [(d.key, n, lang) for d in DIGITS for n in LEVELS for lang in ("en", "fr")]
# An N standing alone ("2N", "N + 1", "(N + 2)²", "N1"): the formula the level text replaces.
FORMULA = re.compile(r"(?<![A-Za-zÀ-ÿ])N(?![A-Za-zÀ-ÿ])|[⌊⌈]")


@pytest.mark.parametrize(("key", "level", "lang"), CASES)
def test_the_text_at_a_level_has_numbers_and_no_formula(key: str, level: int, lang: str) -> None:
    text = effect(key, level, lang)
    assert not FORMULA.search(text), text
    assert "{" not in text and len(text) <= 100  # a Discord menu's description holds 100
    for name, value in numbers(key, level).items():
        if (key, name, value) in (("Average", "bonus", 0), ("Double", "exchanges", 1)):
            continue  # "+ 0" is not written; "the first exchange"
        assert re.search(rf"(?<![0-9]){value}(?![0-9])", text), (text, value)
    assert text != effect(key, level, "fr" if lang == "en" else "en")
    if numbers(key, level):  # the N-formula stays in the catalogue's text, for /digits card
        assert text != BY_KEY[key].ability(lang)


def test_texts_that_depend_on_the_level_change_with_it() -> None:
    for kind in DIGITS:
        texts = {effect(kind.key, n) for n in LEVELS}
        assert len(texts) == (3 if numbers(kind.key, 1) else 1), kind.key
    assert effect("Double", 1) == "The front digit of its column hits × 2 in the first exchange."
    assert effect("Double", 2) == ("The front digit of its column hits × 2 for the first 2 "
                                   "exchanges.")
    assert effect("Double", 2, "fr") == ("L'avant de sa colonne frappe × 2 pendant les 2 "
                                         "premiers échanges.")
    assert effect("Average", 1).endswith("(rounded up).")
    assert effect("Average", 3).endswith("(rounded up) + 2.")
    assert effect("Fibo", 2).startswith("Hits 4, 4, 8, 12, 20…")
    with pytest.raises(ValueError):
        numbers("Plus", 4)


# -- the numbers against the battle engine --------------------------------------------------

def opening(left: dict[str, str], right: dict[str, str] | None = None) -> dict:
    result = fight(Slate.from_json(left), Slate.from_json(right or {"1": "Zero N3"}))
    return result.to_json()


def hits_from(result: dict, side: str, cell: int) -> list[int]:
    return [h["hit"] for x in result["log"] for h in x["hits"]
            if h["side"] == side and h["from"] == cell]


def measure_plus(n: int) -> dict[str, int]:
    return {"gain": opening({"1": "Odd", "5": f"Plus N{n}"})["opening"]["left"]["1"]["atk"] - 3}


def measure_minus(n: int) -> dict[str, int]:
    atk = opening({"1": f"Minus N{n}"}, {"1": "Prime N3"})["opening"]["right"]["1"]["atk"]
    return {"loss": 5 - atk}


def measure_double(n: int) -> dict[str, int]:
    # Minus N1 (ATK 2) hits a Zero N3 (12 HP, each hit cut to 1): 12 exchanges to count in.
    hits = hits_from(opening({"1": "Minus", "5": f"Double N{n}"}), "left", 1)
    assert set(hits) == {2, 4} and len(hits) == 12
    return {"exchanges": hits.index(2)}


def measure_zero(n: int) -> dict[str, int]:
    result = opening({"1": f"Zero N{n}"}, {"1": "Prime N3"})  # 9 HP, not prime: hits 5
    first = next(h for h in result["log"][0]["hits"] if h["side"] == "right")
    return {"cut": first["hit"] - first["damage"]}


def measure_bonus(key: str, holds: Callable[[int], bool]) -> Callable[[int], dict[str, int]]:
    """Even, Odd, Prime: hit − ATK when the HP (at the start of the exchange) qualifies, and no
    bonus when it does not. A Minus N1 opposite takes 2 HP an exchange and 2 ATK at the opening."""

    def measure(n: int) -> dict[str, int]:
        result = fight(Slate.from_json({"1": f"{key} N{n}"}),
                       Slate.from_json({"1": "Zero N3", "2": "Minus"}))
        bonuses = set()
        for before, entry in zip(result.snapshots, result.log, strict=False):
            unit = before["left"].get(1)
            hit = next(h["hit"] for h in entry["hits"] if h["side"] == "left")
            if holds(unit["hp"]):
                bonuses.add(hit - unit["atk"])
            else:
                assert hit == unit["atk"]
        [bonus] = bonuses
        return {"bonus": bonus}

    return measure


def measure_square(n: int) -> dict[str, int]:
    return {"shield": opening({"1": f"Square N{n}"})["opening"]["left"]["1"]["shield"]}


def measure_twin(n: int) -> dict[str, int]:
    same_atk = {1: "Even", 2: "Minus N2", 3: "Minus N3"}[n]  # the Twin's ATK: 2, 3, 4
    twin = opening({"1": f"Twin N{n}", "2": same_atk})["opening"]["left"]["1"]
    gain = twin["atk"] - BY_KEY["Twin"].atk(n)
    assert twin["hp"] - BY_KEY["Twin"].hp(n) == gain
    return {"gain": gain}


def measure_sigma(n: int) -> dict[str, int]:
    front = {"1": "Prime N3", "2": "Prime N3", "3": "Prime N3"}  # 15 ATK in all
    atk = opening({**front, "5": f"Sigma N{n}"})["opening"]["left"]["5"]["atk"]
    divisor = next(d for d in (4, 3, 2) if 15 // d == atk)
    return {"divisor": divisor}


def measure_average(n: int) -> dict[str, int]:
    # Average (ATK 2, 3, 4) beside an Odd N1 (3): ⌈average⌉ = 3 at N1 and N2, 4 at N3.
    left = opening({"1": f"Average N{n}", "2": "Odd"})["opening"]["left"]
    assert left["1"]["atk"] == left["2"]["atk"]
    return {"bonus": left["2"]["atk"] - -(-(BY_KEY["Average"].atk(n) + 3) // 2)}


def measure_power(n: int) -> dict[str, int]:
    # An ATK above the cap stays ("never lowering it"); an Odd N3's 5 squared is 25.
    splitter = opening({"1": "Splitter N3", "5": f"Power N{n}"})["opening"]["left"]["1"]["atk"]
    assert splitter == (10 if n == 1 else 16 if n == 2 else 25)
    return {"cap": opening({"1": "Odd N3", "5": f"Power N{n}"})["opening"]["left"]["1"]["atk"]}


def measure_fibo(n: int) -> dict[str, int]:
    hits = hits_from(opening({"1": f"Fibo N{n}"}, {"1": "Zero N3", "5": "Zero N3"}), "left", 1)
    atk = BY_KEY["Fibo"].atk(n)
    assert hits[:FIBO_SHOWN] == [atk * f for f in FIB[1:FIBO_SHOWN + 1]]
    shown = ", ".join(map(str, hits[:FIBO_SHOWN]))
    assert effect("Fibo", n).startswith(f"Hits {shown}…")
    return {"atk": hits[0]}


MEASURES: dict[str, Callable[[int], dict[str, int]]] = {
    "Plus": measure_plus, "Minus": measure_minus, "Double": measure_double,
    "Zero": measure_zero, "Even": measure_bonus("Even", lambda hp: hp % 2 == 0),
    "Odd": measure_bonus("Odd", lambda hp: hp % 2 == 1),
    "Prime": measure_bonus("Prime", lambda hp: hp in PRIMES), "Square": measure_square,
    "Twin": measure_twin, "Sigma": measure_sigma, "Average": measure_average,
    "Power": measure_power, "Fibo": measure_fibo,
}


@pytest.mark.parametrize("key", [d.key for d in DIGITS])
def test_the_numbers_are_those_the_battles_use(key: str) -> None:
    for n in LEVELS:
        if key in MEASURES:
            assert MEASURES[key](n) == numbers(key, n), (key, n)
        else:  # the text does not change with the level: nothing to measure
            assert numbers(key, n) == {}
