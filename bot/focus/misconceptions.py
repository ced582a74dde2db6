"""Known mistakes: which classic misconception a wrong answer shows, from the question alone.

A question's text is what its builder wrote (``bot.focus.skills``, ``bot.focus.questions``):
school signs, decimals with a point, fractions ``a/b``, a negative in brackets after a sign,
``%``, ``of`` (``2/3 of 18``; a product, as older answers wrote it), superscript powers and
``√``. ``mistake`` reads that text again (never ``eval``), works
out what each known mistake of the question's skill would have answered, and names the one the
member's answer matches. A wrong answer that matches none is just wrong: nothing is guessed.

The ids (``MISTAKES``) are named in both languages in the catalogue (``misconceptions.<id>``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from fractions import Fraction

Value = int | Fraction

CARRY = "carry"  # 38 + 45 → 73: the ten carried is dropped
SMALLER_FROM_LARGER = "smaller-from-larger"  # 52 − 27 → 35: each column's smaller digit taken away
ADDED_NOT_MULTIPLIED = "added-not-multiplied"  # 7 × 7 → 14
LEFT_TO_RIGHT = "left-to-right"  # 2 + 3 × 4 → 20
BRACKETS_IGNORED = "brackets-ignored"  # (19 − 12) × 12 → −125
WRONG_INVERSE = "wrong-inverse"  # ? + 3 = 14 → 17: the numbers shown combined the wrong way
SIGN = "sign"  # −3 − 5 → 2 or −2: one sign dropped, or the result's sign wrong
DECIMAL_POINT = "decimal-point"  # 0.3 × 0.2 → 0.6: the right digits, the point misplaced
DECIMAL_PARTS = "decimal-parts"  # 4.4 + 3.7 → 7.11: whole parts and decimal parts apart
TENS_ZERO = "tens-zero"  # 3.5 × 10 → 3.50: a zero written after, the number unchanged
FRACTION_PARTS = "fraction-parts"  # 1/2 + 1/3 → 2/5: numerators and denominators added
NOT_LOWEST = "not-lowest"  # 6/8 → 6/8 or 3/4 given as 6/8: the value, not in lowest terms
DENOMINATOR_ONLY = "denominator-only"  # 2/3 of 15 → 5: divided by the denominator only
PERCENT_HUNDRED = "percent-hundred"  # 10 % of 190 → 1.9: ÷ 100 and no more
PERCENT_DIVIDE = "percent-divide"  # 20 % of 40 → 2: "20 %" read as "÷ 20"
POWER_TIMES = "power-times"  # 3⁴ → 12: the base times the exponent
ROOT_HALF = "root-half"  # √64 → 32: halved

MISTAKES = (CARRY, SMALLER_FROM_LARGER, ADDED_NOT_MULTIPLIED, LEFT_TO_RIGHT, BRACKETS_IGNORED,
            WRONG_INVERSE, SIGN, DECIMAL_POINT, DECIMAL_PARTS, TENS_ZERO, FRACTION_PARTS,
            NOT_LOWEST, DENOMINATOR_ONLY, PERCENT_HUNDRED, PERCENT_DIVIDE, POWER_TIMES,
            ROOT_HALF)

# --- reading a question's text -------------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?(?:/\d+)?)|([-+−×÷*/()=?%√]|of\b))")
#: "2/3 of 18", "25 % of 80" (older answers: "2/3 × 18"): a part of a number is a product.
_SIGNS = {"−": "-", "-": "-", "+": "+", "×": "*", "*": "*", "÷": "/", "/": "/", "of": "*"}
_SUPER = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_POWER = re.compile(r"^\(?(−?\d+)\)?([⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+)$")


class _Num:
    """A number as written: its value and its text (``0.3``, ``3/4``)."""

    __slots__ = ("text", "value")

    def __init__(self, text: str, value: Fraction) -> None:
        self.text, self.value = text, value


Token = _Num | str


def _number(text: str) -> Fraction:
    if "/" in text:
        top, bottom = text.split("/")
        return Fraction(Fraction(top), int(bottom))
    return Fraction(text)


def tokens(text: str) -> list[Token] | None:
    """The numbers (a negative one as one number) and signs of ``text``; None if unreadable."""
    out: list[Token] = []
    position = 0
    while position < len(text):
        found = _TOKEN.match(text, position)
        if found is None:
            return None if text[position:].strip() else out
        number, sign = found.groups()
        position = found.end()
        if number is not None:
            negative = bool(out) and out[-1] == "~"
            if negative:
                out.pop()
            value = _number(number)
            out.append(_Num(("−" if negative else "") + number, -value if negative else value))
        elif sign in "−-" and (not out or out[-1] in ("(", "=")):
            out.append("~")  # a negative's sign: it opens the text or follows a bracket
        else:
            out.append(_SIGNS.get(sign, sign))
    return None if "~" in out else out


def _apply(op: str, a: Fraction, b: Fraction) -> Fraction:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        raise ZeroDivisionError
    return a / b


_RANK = {"+": 1, "-": 1, "*": 2, "/": 2}


def evaluate(items: list[Token], priority: bool = True) -> Fraction | None:
    """The value of numbers, ``+ - * /`` and brackets; with ``priority`` the school's order,
    without it strictly left to right (brackets still first). None if it does not read."""
    at = 0

    def expression() -> Fraction:
        nonlocal at
        value = operand()
        pending: list[tuple[str, Fraction]] = []
        while at < len(items) and items[at] in _RANK:
            op = str(items[at])
            at += 1
            pending.append((op, operand()))
        if not priority:
            for op, right in pending:
                value = _apply(op, value, right)
            return value
        terms: list[tuple[str, Fraction]] = [("+", value)]
        for op, right in pending:
            if _RANK[op] == 2:
                sign, last = terms[-1]
                terms[-1] = (sign, _apply(op, last, right))
            else:
                terms.append((op, right))
        total = Fraction(0)
        for sign, term in terms:
            total = _apply(sign, total, term)
        return total

    def operand() -> Fraction:
        nonlocal at
        if at >= len(items):
            raise ValueError("an operand is missing")
        item = items[at]
        at += 1
        if isinstance(item, _Num):
            return item.value
        if item == "(":
            value = expression()
            if at >= len(items) or items[at] != ")":
                raise ValueError("a bracket is not closed")
            at += 1
            return value
        raise ValueError(f"unexpected {item!r}")

    try:
        value = expression()
    except (ValueError, ZeroDivisionError):
        return None
    return value if at == len(items) else None


def _numbers(items: list[Token]) -> list[_Num]:
    return [item for item in items if isinstance(item, _Num)]


def _ops(items: list[Token]) -> list[str]:
    return [item for item in items if isinstance(item, str) and item in _RANK]


# --- what each mistake would answer -------------------------------------------------------

Candidates = Iterator[tuple[str, Fraction]]


def _digits_apart(a: int, b: int, combine: Callable[[int, int], int]) -> int:
    """``a`` and ``b`` combined column by column, nothing carried or borrowed."""
    out, place = 0, 1
    while a or b:
        out += combine(a % 10, b % 10) * place
        a, b, place = a // 10, b // 10, place * 10
    return out


def _whole_pair(items: list[Token], op: str) -> tuple[int, int] | None:
    nums = _numbers(items)
    if len(nums) != 2 or _ops(items) != [op] or any(
            n.value.denominator != 1 or n.value < 0 for n in nums):
        return None
    return int(nums[0].value), int(nums[1].value)


def _whole_mistakes(items: list[Token]) -> Candidates:
    pair = _whole_pair(items, "+")
    if pair:
        yield CARRY, Fraction(_digits_apart(*pair, lambda x, y: (x + y) % 10))
    pair = _whole_pair(items, "-")
    if pair:
        yield SMALLER_FROM_LARGER, Fraction(_digits_apart(*pair, lambda x, y: abs(x - y)))
    nums, ops = _numbers(items), _ops(items)
    if len(nums) == 2 and ops == ["*"]:
        yield ADDED_NOT_MULTIPLIED, nums[0].value + nums[1].value
    if len(ops) >= 2:
        shown = evaluate(items, priority=False)
        if shown is not None:
            yield LEFT_TO_RIGHT, shown
    if "(" in items:
        bare = evaluate([item for item in items if item not in ("(", ")")])
        if bare is not None:
            yield BRACKETS_IGNORED, bare


def _missing_mistakes(items: list[Token], expected: Fraction) -> Candidates:
    nums = _numbers(items)
    if len(nums) != 2:
        return
    a, b = nums[0].value, nums[1].value
    for value in (a + b, a - b, b - a, a * b, *((a / b,) if b else ()), *((b / a,) if a else ())):
        if value != expected and value.denominator == 1:
            yield WRONG_INVERSE, value


def _sign_mistakes(items: list[Token], expected: Fraction) -> Candidates:
    yield SIGN, -expected
    for n, item in enumerate(items):
        if isinstance(item, _Num) and item.value:
            flipped = [*items[:n], _Num(item.text, -item.value), *items[n + 1:]]
            value = evaluate(flipped)
            if value is not None:
                yield SIGN, value
    for n, item in enumerate(items):
        if item in ("+", "-"):
            flipped = [*items[:n], "-" if item == "+" else "+", *items[n + 1:]]
            value = evaluate(flipped)
            if value is not None:
                yield SIGN, value


def _places(num: _Num) -> int:
    return len(num.text.partition(".")[2])


def _decimal_mistakes(items: list[Token], expected: Fraction) -> Candidates:
    nums, ops = _numbers(items), _ops(items)
    # Before the point misplaced: 3.5 × 10 → 3.50 is also a point a place off, but the member
    # wrote the number as it was, with a zero after (the rule of whole numbers).
    if len(nums) == 2 and ops in (["*"], ["/"]) and any(n.value in (10, 100, 1000)
                                                        for n in nums):
        shown = nums[0] if nums[1].value in (10, 100, 1000) else nums[1]
        yield TENS_ZERO, shown.value
    if expected:
        for k in (1, 2, 3):
            yield DECIMAL_POINT, expected * 10 ** k
            yield DECIMAL_POINT, expected / 10 ** k
    if len(nums) == 2 and len(ops) == 1 and ops[0] in "+-":
        a, b = (n.text.lstrip("−").partition(".") for n in nums)
        if a[2] and b[2]:
            whole = _apply(ops[0], Fraction(int(a[0])), Fraction(int(b[0])))
            part = _apply(ops[0], Fraction(int(a[2])), Fraction(int(b[2])))
            if whole >= 0 and part >= 0:
                yield DECIMAL_PARTS, Fraction(f"{int(whole)}.{int(part)}")
        # The last digits lined up instead of the points: 8.34 + 4.8 → 8.82.
        places = max(_places(nums[0]), _places(nums[1]))
        if _places(nums[0]) != _places(nums[1]):
            digits = [int(n.text.lstrip("−").replace(".", "")) for n in nums]
            yield DECIMAL_POINT, _apply(ops[0], Fraction(digits[0]),
                                        Fraction(digits[1])) / 10 ** places


def _fraction_mistakes(items: list[Token], expected: Fraction, form: str) -> Candidates:
    nums, ops = _numbers(items), _ops(items)
    fractions = [n for n in nums if "/" in n.text]
    if len(fractions) == 2 and len(ops) == 1 and ops[0] in "+-":
        (p, q), (r, s) = (map(int, n.text.lstrip("−").split("/")) for n in fractions)
        bottom = q + s if ops[0] == "+" else q - s
        if bottom:
            yield FRACTION_PARTS, Fraction(p + r if ops[0] == "+" else p - r, bottom)
    if len(fractions) == 1 and len(nums) == 2 and ops == ["*"]:
        p, q = map(int, fractions[0].text.split("/"))
        whole = next(n.value for n in nums if n is not fractions[0])
        if p != 1:
            yield DENOMINATOR_ONLY, whole / q
    if form == "lowest" and len(nums) == 1:
        yield NOT_LOWEST, expected  # the value, written in other terms: marked wrong


def _percent_mistakes(items: list[Token]) -> Candidates:
    nums = _numbers(items)
    if len(nums) == 2 and "%" in items:
        p, n = nums[0].value, nums[1].value
        if p != 1:
            yield PERCENT_HUNDRED, n / 100
        if p and p != 10:
            yield PERCENT_DIVIDE, n / p


def _power_mistakes(text: str, expected: Fraction) -> Candidates:
    found = _POWER.match(text.strip())
    if found:
        base = int(found.group(1).replace("−", "-"))
        exponent = int(found.group(2).translate(_SUPER))
        yield POWER_TIMES, Fraction(base * exponent)
        yield SIGN, -expected
    if text.strip().startswith("√"):
        inside = text.strip()[1:].strip()
        if inside.isdigit():
            yield ROOT_HALF, Fraction(int(inside), 2)


_ASKED = re.compile(r"\s*=\s*\??\s*$")


# A class makes the same mistake on the same question many times: a report of 20,000 answers
# reads each question once.
@functools.lru_cache(maxsize=16_384)
def mistake(skill: str, text: str, expected: Value, given: Value | None,
            form: str = "whole") -> str | None:
    """The known mistake (an id of ``MISTAKES``) that a wrong answer ``given`` to the question
    ``text`` of ``skill`` shows, or None (right, no answer, or no known mistake matches).
    ``skill`` is the question's skill (the eight levels': their topic)."""
    if given is None:
        return None
    expected, given = Fraction(expected), Fraction(given)
    if given == expected and form != "lowest":
        return None
    text = _ASKED.sub("", text)
    if skill in ("powers", "square-roots"):
        candidates: Candidates = _power_mistakes(text, expected)
    else:
        items = tokens(text)
        if not items:
            return None
        candidates = _skill_mistakes(skill, items, expected, form)
    for name, value in candidates:
        if value == given and (value != expected or name == NOT_LOWEST):
            return name
    return None


def _skill_mistakes(skill: str, items: list[Token], expected: Fraction, form: str
                    ) -> Candidates:
    if skill.startswith("missing-"):
        yield from _missing_mistakes(items, expected)
    elif skill.startswith("negatives-"):
        if skill == "negatives-priority":
            yield from _whole_mistakes(items)
        yield from _sign_mistakes(items, expected)
    elif skill.startswith("decimals-"):
        yield from _decimal_mistakes(items, expected)
    elif skill.startswith("fractions-"):
        yield from _fraction_mistakes(items, expected, form)
    elif skill == "percentages":
        yield from _percent_mistakes(items)
    else:  # the eight levels' topics, and any skill of whole numbers
        yield from _whole_mistakes(items)
