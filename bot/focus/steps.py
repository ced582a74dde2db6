"""Worked corrections: the steps that lead to a Focus question's answer, for every skill.

After a wrong answer the member reads how the answer is found, in one to three short steps:
``3/4 − 1/4 = 2/4 = 1/2 (simplify by 2)``, ``−3 − 5: start at −3, go 5 to the left: −8``,
``25 % of 80 = 80 ÷ 4 = 20``, ``12 × ? = 96 → ? = 96 ÷ 12 = 8``, ``2 + 3 × 4: first 3 × 4 =
12, then 2 + 12 = 14``, ``√49 = 7 because 7 × 7 = 49``.

This module makes the steps as data, never as words: each ``Step`` is a text key (worded in
English and French by ``bot.corrections`` from ``focus_steps.<key>``) and exact values, as small
expression trees (``Expr``) that both evaluate (ints and ``Fraction``, never floats) and write
themselves the engine's way (school signs, a decimal point, ``of``; ``bot.texts.question_text``
then writes them as the member reads). So a test can check every step by evaluating it: each
equality a step states (``Step.equalities``) holds, and the last value is the answer.

The steps are read back from the question's text (``Answer.question`` is all a finished round
keeps): ``steps(skill, text, answer)`` parses the text as the builders write it (``bot.focus
.skills``, ``bot.focus.questions``) and gives None when it cannot, or when its own result is not
``answer`` (a teacher's question with an answer of its own): no step is ever wrong.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from fractions import Fraction

from bot.focus.exact import Exact, decimal_text, is_decimal, normal

MINUS = "−"
_SIGN = {"+": "+", "-": MINUS, "*": "×", "/": "÷"}
_RANK = {"+": 1, "-": 1, "*": 2, "/": 2}
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_FROM_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


# --- expressions: what a step says, exact and written ----------------------------------------


@dataclass(frozen=True, slots=True)
class Num:
    """A number as written: ``7``, ``−3``, ``0.75``, ``2/4`` (not in lowest terms when a step
    says so), ``25 %`` (the value 1/4)."""

    value: Fraction
    text: str  # the engine's writing, without a sign for a negative number


@dataclass(frozen=True, slots=True)
class Bin:
    op: str  # + - * /
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Of:
    """``2/3 of 18``, ``25 % of 80``: a part of a whole."""

    part: Expr
    whole: Expr


@dataclass(frozen=True, slots=True)
class Pow:
    base: Expr
    exponent: int


@dataclass(frozen=True, slots=True)
class Root:
    inner: Expr


@dataclass(frozen=True, slots=True)
class Hole:
    """The ``?`` of a missing-number question: its value is the answer."""


Expr = Num | Bin | Of | Pow | Root | Hole


def num(value: Exact | Fraction, decimal: bool = False) -> Num:
    """A number written the usual way: whole, a decimal (``decimal``, when it has one) or a
    fraction in lowest terms."""
    v = Fraction(value)
    if v.denominator == 1:
        text = str(abs(v.numerator))
    elif decimal and is_decimal(v):
        text = decimal_text(abs(v))
    else:
        text = f"{abs(v.numerator)}/{v.denominator}"
    return Num(v, text)


def frac(top: int, bottom: int) -> Num:
    """``top/bottom`` written as it is (``2/4``), worth its value."""
    return Num(Fraction(top, bottom), f"{top}/{bottom}")


#: A percentage as the questions write it (``bot.focus.skills``: ``25 % of 80``), one form for
#: every language like the rest of a question's text.
_PERCENT = " %"


def percent(p: int) -> Num:
    return Num(Fraction(p, 100), f"{p}{_PERCENT}")


def value(expr: Expr, hole: Exact | None = None) -> Fraction:
    """The exact value of ``expr`` (``hole``: the value of a ``?``)."""
    if isinstance(expr, Num):
        return expr.value
    if isinstance(expr, Hole):
        if hole is None:
            raise ValueError("a ? has no value here")
        return Fraction(hole)
    if isinstance(expr, Of):
        return value(expr.part, hole) * value(expr.whole, hole)
    if isinstance(expr, Pow):
        return value(expr.base, hole) ** expr.exponent
    if isinstance(expr, Root):
        inner = value(expr.inner, hole)
        root = math.isqrt(int(inner)) if inner >= 0 and inner.denominator == 1 else -1
        if root < 0 or root * root != inner:
            raise ValueError(f"√{inner} is not whole")
        return Fraction(root)
    a, b = value(expr.left, hole), value(expr.right, hole)
    if expr.op == "+":
        return a + b
    if expr.op == "-":
        return a - b
    if expr.op == "*":
        return a * b
    return a / b


def write(expr: Expr, first: bool = True) -> str:
    """``expr`` the engine's way (``bot.texts.question_text`` writes it for a member): a negative
    number in brackets unless it opens the text, the brackets a tree needs, ``of``."""
    if isinstance(expr, Num):
        if expr.value >= 0:
            return expr.text
        return f"{MINUS}{expr.text}" if first else f"({MINUS}{expr.text})"
    if isinstance(expr, Hole):
        return "?"
    if isinstance(expr, Of):
        return f"{write(expr.part, first)} of {write(expr.whole, False)}"
    if isinstance(expr, Pow):
        base = write(expr.base, True)
        if not isinstance(expr.base, Num) or expr.base.value < 0:
            base = f"({base})"
        return base + str(expr.exponent).translate(_SUPERSCRIPT)
    if isinstance(expr, Root):
        return f"√{write(expr.inner, True)}"
    left = write(expr.left, first)
    right = write(expr.right, False)
    rank = _RANK[expr.op]
    if isinstance(expr.left, Bin) and _RANK[expr.left.op] < rank:
        left = f"({write(expr.left, True)})"
    if isinstance(expr.right, Bin) and _RANK[expr.right.op] <= rank:
        right = f"({write(expr.right, True)})"
    return f"{left} {_SIGN[expr.op]} {right}"


def _b(op: str, left: Expr | int | Fraction, right: Expr | int | Fraction) -> Bin:
    return Bin(op, _e(left), _e(right))


def _e(x: Expr | int | Fraction) -> Expr:
    return num(x) if isinstance(x, int | Fraction) else x


# --- steps ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """One step: ``focus_steps.<key>`` worded with ``chain`` (expressions said equal, in order:
    ``{chain}`` is ``a = b = c``) and the named ``values``; ``checks``: the other equalities
    the wording states (``start at −3, go 5 to the left: −8`` is −3 − 5 = −8), with a ``?``
    worth the answer. ``count``: the number a plural wording follows (places moved)."""

    key: str
    chain: tuple[Expr, ...] = ()
    values: tuple[tuple[str, Expr], ...] = ()
    checks: tuple[tuple[Expr, Expr], ...] = ()
    count: int | None = None

    def equalities(self) -> list[tuple[Expr, Expr]]:
        """Every equality the step states: its chain's neighbours, then its checks."""
        return [*zip(self.chain, self.chain[1:], strict=False), *self.checks]

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"key": self.key, "chain": [write(e) for e in self.chain]}
        data.update({name: write(e) for name, e in self.values})
        return data


def _chain(*exprs: Expr | int | Fraction) -> tuple[Expr, ...]:
    """The expressions, each written once (a step never says ``6 = 6``)."""
    out: list[Expr] = []
    for x in map(_e, exprs):
        if not out or write(out[-1]) != write(x):
            out.append(x)
    return tuple(out)


def chain_step(*exprs: Expr | int | Fraction) -> Step:
    return Step("chain", _chain(*exprs))


# --- reading a question's text ---------------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?(?:/\d+)?)|(of\b)|([⁰¹²³⁴⁵⁶⁷⁸⁹]+)|([-+−×÷*()=?%√]))")
_OPS = {"+": "+", "-": "-", "−": "-", "×": "*", "*": "*", "÷": "/"}
_ASKED = re.compile(r"\s*=\s*\?\s*$")


def _tokens(text: str) -> list[str] | None:
    out: list[str] = []
    position = 0
    while position < len(text):
        found = _TOKEN.match(text, position)
        if found is None:
            return None if text[position:].strip() else out
        out.append(next(g for g in found.groups() if g is not None))
        position = found.end()
    return out


def _literal(token: str) -> Num:
    if "/" in token:
        top, bottom = token.split("/")
        return frac(int(top), int(bottom))
    return Num(Fraction(token), token)


def parse(text: str) -> tuple[Expr, Expr | None] | None:
    """A question's text as its builder wrote it, as a tree (and the right side of an equation,
    ``12 × ? = 96``); None if it does not read."""
    items = _tokens(_ASKED.sub("", text))
    if not items:
        return None
    at = 0

    def peek() -> str | None:
        return items[at] if at < len(items) else None

    def take() -> str:
        nonlocal at
        if at >= len(items):
            raise ValueError("ends too soon")
        at += 1
        return items[at - 1]

    def expression() -> Expr:
        node = term()
        while peek() in ("+", "-", "−"):
            op = _OPS[take()]
            node = Bin(op, node, term())
        return node

    def term() -> Expr:
        node = factor()
        while peek() in ("×", "÷", "*"):
            op = _OPS[take()]
            node = Bin(op, node, factor())
        return node

    def factor() -> Expr:
        token = take()
        if token in ("-", "−"):
            inner = factor()
            if not isinstance(inner, Num) or inner.value < 0:
                raise ValueError("a sign before something else than a number")
            return Num(-inner.value, inner.text)
        if token == "(":
            node = expression()
            if take() != ")":
                raise ValueError("unbalanced brackets")
        elif token == "?":
            node = Hole()
        elif token == "√":
            node = Root(factor())
        elif token[0].isdigit():
            node = _literal(token)
            if peek() == "%":
                take()
                node = Num(node.value / 100, f"{node.text}{_PERCENT}")
        else:
            raise ValueError(f"unexpected {token!r}")
        if peek() is not None and peek()[0] in "⁰¹²³⁴⁵⁶⁷⁸⁹":  # type: ignore[index]
            node = Pow(node, int(take().translate(_FROM_SUPERSCRIPT)))
        if peek() == "of":
            take()
            node = Of(node, factor())
        return node

    try:
        left = expression()
        right = None
        if peek() == "=":
            take()
            right = expression()
    except (ValueError, ZeroDivisionError):
        return None
    return (left, right) if at == len(items) else None


# --- the steps of each skill -------------------------------------------------------------------


def _int(expr: Expr) -> int | None:
    if isinstance(expr, Num) and expr.value.denominator == 1:
        return int(expr.value)
    return None


def _pair(expr: Expr, op: str) -> tuple[int, int] | None:
    if isinstance(expr, Bin) and expr.op == op:
        a, b = _int(expr.left), _int(expr.right)
        if a is not None and b is not None:
            return a, b
    return None


def _split(n: int) -> tuple[int, int]:
    """``n`` as its leading place and the rest: 38 → (30, 8), 378 → (300, 78)."""
    place = 10 ** (len(str(n)) - 1)
    lead = n - n % place
    return lead, n - lead


def _add(expr: Expr) -> list[Step] | None:
    pair = _pair(expr, "+")
    if pair is None:
        return None
    a, b = pair
    if b < 10:
        to = 10 - a % 10
        if 0 < to < b:  # 8 + 5 = 8 + 2 + 3 = 10 + 3 = 13: make the next ten
            return [chain_step(expr, _b("+", _b("+", a, to), b - to), _b("+", a + to, b - to),
                               a + b)]
        if a >= 10 and a % 10:  # 12 + 5 = 10 + 7 = 17
            return [chain_step(expr, _b("+", a - a % 10, a % 10 + b), a + b)]
        return [chain_step(expr, a + b)]
    lead, rest = _split(b)
    if rest == 0:  # 24 + 30 = 50 + 4 = 54: the tens (or hundreds) together
        units = a % 10 ** (len(str(b)) - 1)
        if units and a > units:
            return [chain_step(expr, _b("+", a - units + b, units), a + b)]
        return [chain_step(expr, a + b)]
    return [chain_step(expr, _b("+", _b("+", a, lead), rest), _b("+", a + lead, rest), a + b)]


def _subtract(expr: Expr) -> list[Step] | None:
    pair = _pair(expr, "-")
    if pair is None:
        return None
    a, b = pair
    if b < 10:
        units = a % 10
        if a >= 10 and 0 < units < b:  # 13 − 5 = 13 − 3 − 2 = 10 − 2 = 8: down to the ten
            return [chain_step(expr, _b("-", _b("-", a, units), b - units),
                               _b("-", a - units, b - units), a - b)]
        return [chain_step(expr, a - b)]
    lead, rest = _split(b)
    if rest == 0:  # 85 − 30 = 50 + 5 = 55: the tens taken away, the units stay
        units = a % 10 ** (len(str(b)) - 1)
        if units and a - units >= b:
            return [chain_step(expr, _b("+", a - units - b, units), a - b)]
        return [chain_step(expr, a - b)]
    return [chain_step(expr, _b("-", _b("-", a, lead), rest), _b("-", a - lead, rest), a - b)]


def _multiply(expr: Expr) -> list[Step] | None:
    pair = _pair(expr, "*")
    if pair is None:
        return None
    a, b = pair
    product = a * b
    split_left = a > b or (a == b)  # split the larger factor (a square: the first)
    big, small = (a, b) if split_left else (b, a)

    def times(x: int, y: int) -> Bin:  # the split factor where the question had it
        return _b("*", x, y) if split_left else _b("*", y, x)

    if small <= 3 and big < 10:  # 6 × 2 = 6 + 6 = 12
        total: Expr = num(big)
        for _ in range(small - 1):
            total = _b("+", total, big)
        return [chain_step(expr, total, product)]
    if big >= 10:
        lead, rest = _split(big)
        if rest == 0 or small == 1:
            return [chain_step(expr, product)]
        parts = _b("+", times(lead, small), times(rest, small))
        return [chain_step(expr, parts, _b("+", lead * small, rest * small), product)]
    if big >= 6:  # 7 × 8 = 7 × 5 + 7 × 3 = 35 + 21 = 56
        parts = _b("+", times(5, small), times(big - 5, small))
        return [chain_step(expr, parts, _b("+", 5 * small, (big - 5) * small), product)]
    # 4 × 5 = 5 + 5 + 5 + 5 = 20: the larger added as many times as the smaller says
    total = num(big)
    for _ in range(small - 1):
        total = _b("+", total, big)
    return [chain_step(expr, total, product)]


def _divide(expr: Expr) -> list[Step] | None:
    pair = _pair(expr, "/")
    if pair is None or pair[1] == 0 or pair[0] % pair[1]:
        return None
    a, d = pair
    q = a // d
    lead, rest = _split(q) if q > 12 else (q, 0)  # a table's quotient: its product
    if rest and d > 1:  # 282 ÷ 6 = 240 ÷ 6 + 42 ÷ 6 = 40 + 7 = 47
        return [chain_step(expr, _b("+", _b("/", lead * d, d), _b("/", rest * d, d)),
                           _b("+", lead, rest), q)]
    return [_because(expr, q, _b("*", d, q), a)]


def _because(expr: Expr, result: Exact, reason: Expr, reason_value: Exact) -> Step:
    """``56 ÷ 7 = 8 because 7 × 8 = 56``."""
    return Step("because", _chain(expr, result),
                (("reason", reason), ("reason_value", num(reason_value))),
                ((reason, num(reason_value)),))


def _operations(expr: Expr) -> list[Bin]:
    """The operations of a tree in the order the school does them (post-order: the tree holds
    the priorities and the brackets)."""
    if not isinstance(expr, Bin):
        return []
    return [*_operations(expr.left), *_operations(expr.right), expr]


def _in_order(expr: Expr, decimal: bool = False) -> list[Step] | None:
    """``2 + 3 × 4: first 3 × 4 = 12, then 2 + 12 = 14``: each operation with the values found
    before it."""
    ops = _operations(expr)
    if len(ops) < 2:
        return None
    found: dict[int, Fraction] = {}

    def shown(node: Expr) -> Expr:
        return num(found[id(node)], decimal) if isinstance(node, Bin) else node

    steps: list[Step] = []
    for n, op in enumerate(ops):
        step = Bin(op.op, shown(op.left), shown(op.right))
        result = value(step)
        found[id(op)] = result
        key = "first" if n == 0 else "then"
        values = (("question", expr),) if n == 0 else ()
        steps.append(Step(key, _chain(step, num(result, decimal)), values))
    return steps


def _number_line(expr: Expr) -> list[Step] | None:
    """``−3 − 5: start at −3, go 5 to the left: −8``; ``5 − (−3) = 5 + 3 = 8`` first when a
    negative is taken away."""
    if not isinstance(expr, Bin) or expr.op not in "+-":
        return None
    a, b = expr.left, expr.right
    if not (isinstance(a, Num) and isinstance(b, Num)):
        return None
    steps: list[Step] = []
    op = expr.op
    if b.value < 0:  # adding −3 is taking 3 away; taking −3 away is adding 3
        turned = Bin("+" if op == "-" else "-", a, Num(-b.value, b.text))
        key = "minus_negative" if op == "-" else "plus_negative"
        steps.append(Step(key, _chain(expr, turned), (("negative", b),
                                                      ("positive", Num(-b.value, b.text)))))
        op, b = turned.op, turned.right
        assert isinstance(b, Num)
    result = value(expr)
    moved = Bin(op, a, b)
    key = ("then_" if steps else "line_") + ("right" if op == "+" else "left")
    steps.append(Step(key, (), (("question", moved), ("start", a), ("steps", b),
                                ("result", num(result))), ((moved, num(result)),)))
    return steps


def _signs(expr: Expr) -> list[Step] | None:
    """``−4 × 6: the signs differ, so the result is negative; 4 × 6 = 24, so −4 × 6 = −24``."""
    if not isinstance(expr, Bin) or expr.op not in "*/":
        return None
    a, b = expr.left, expr.right
    if not (isinstance(a, Num) and isinstance(b, Num)) or not b.value:
        return None
    size = Bin(expr.op, Num(abs(a.value), a.text), Num(abs(b.value), b.text))
    result = value(expr)
    key = "signs_same" if (a.value < 0) == (b.value < 0) else "signs_differ"
    return [Step(key, _chain(size, abs(result)), (("question", expr), ("result", num(result))),
                 ((expr, num(result)),))]


def _tenths(expr: Expr) -> list[Step] | None:
    """``4.3 − 0.6: in tenths, 43 − 6 = 37, so 3.7`` (hundredths when a number has two
    decimals); a decimal times a whole number the same way."""
    if not isinstance(expr, Bin):
        return None
    a, b = expr.left, expr.right
    if not (isinstance(a, Num) and isinstance(b, Num)) or a.value < 0 or b.value < 0:
        return None
    places = max(_places(a), _places(b))
    if places not in (1, 2):
        return None
    unit = 10 ** places
    result = value(expr)
    if expr.op in "+-":
        whole = Bin(expr.op, num(a.value * unit), num(b.value * unit))
        scaled = result * unit
    elif expr.op == "*" and (a.value.denominator == 1 or b.value.denominator == 1):
        decimal, other = (a, b) if _places(a) else (b, a)
        places = _places(decimal)
        unit = 10 ** places
        whole = (Bin("*", num(decimal.value * unit), other) if decimal is a
                 else Bin("*", other, num(decimal.value * unit)))
        scaled = result * unit
    else:
        return None
    key = "in_tenths" if places == 1 else "in_hundredths"
    return [Step(key, _chain(whole, scaled), (("question", expr), ("result", num(result, True))),
                 ((Bin("/", num(scaled), num(unit)), num(result, True)),
                  (expr, num(result, True))))]


def _places(n: Num) -> int:
    return len(n.text.partition(".")[2]) if "/" not in n.text else -1


def _times_power(expr: Expr) -> list[Step] | None:
    """``3.45 × 100``: the digits move two places to the left: 345."""
    if not isinstance(expr, Bin) or expr.op not in "*/":
        return None
    a, power = expr.left, expr.right
    if isinstance(a, Num) and isinstance(power, Num) and power.value in (10, 100, 1000):
        places = len(str(int(power.value))) - 1
        result = value(expr)
        key = "shift_left" if expr.op == "*" else "shift_right"
        # "moves each digit {count} places": as many as the power of ten has zeros
        return [Step(key, _chain(expr, num(result, True)), (("power", power),),
                     ((Pow(num(10), places), power),), count=places)]
    return None


def _simplify(expr: Expr) -> list[Step] | None:
    """``12/16``: divide the top and the bottom by 4: 12/16 = 3/4."""
    if not isinstance(expr, Num) or "/" not in expr.text:
        return None
    top, bottom = (int(x) for x in expr.text.split("/"))
    k = math.gcd(top, bottom)
    if k == 1:
        return [chain_step(expr)]
    lowest = num(Fraction(top, bottom))
    return [Step("simplify", _chain(expr, lowest), (("by", num(k)),),
                 ((_b("/", top, k), num(lowest.value.numerator)),
                  (_b("/", bottom, k), num(lowest.value.denominator))))]


def _fraction_sum(expr: Expr) -> list[Step] | None:
    """``1/2 + 1/6 = 3/6 + 1/6 = 4/6 = 2/3 (simplify by 2)``."""
    if not isinstance(expr, Bin) or expr.op not in "+-":
        return None
    a, b = expr.left, expr.right
    if not (isinstance(a, Num) and isinstance(b, Num) and "/" in a.text and "/" in b.text):
        return None
    (p, q), (r, s) = ((int(x) for x in n.text.split("/")) for n in (a, b))
    d = q * s // math.gcd(q, s)
    same = Bin(expr.op, frac(p * d // q, d), frac(r * d // s, d))
    top = p * d // q + (r * d // s if expr.op == "+" else -(r * d // s))
    total = frac(top, d)
    lowest = num(Fraction(top, d))
    k = math.gcd(abs(top), d)
    if k == 1:
        if q == s:  # 1/5 + 3/5 = 4/5: the same denominator, the numerators added
            key = "same_denominator_add" if expr.op == "+" else "same_denominator_subtract"
            return [Step(key, _chain(expr, total))]
        return [chain_step(expr, same, total)]
    return [Step("simplify_by", _chain(expr, same, total, lowest), (("by", num(k)),),
                 ((_b("/", top, k), num(lowest.value.numerator)),
                  (_b("/", d, k), num(lowest.value.denominator))))]


def _part_of(expr: Expr) -> list[Step] | None:
    """``2/3 of 18 = 18 ÷ 3 × 2 = 6 × 2 = 12``; ``25 % of 80 = 80 ÷ 4 = 20``."""
    if isinstance(expr, Bin) and expr.op == "*":  # written before "of" (``50 % × 178``)
        expr = Of(expr.left, expr.right)
    if not isinstance(expr, Of) or not isinstance(expr.part, Num):
        return None
    whole = _int(expr.whole)
    part = expr.part.value
    if whole is None or part <= 0:
        return None
    p, q = part.numerator, part.denominator
    if "/" in expr.part.text:  # 2/4 of 24 as written: 24 ÷ 4 × 2
        p, q = (int(x) for x in expr.part.text.split("/"))
    if whole % q:
        return None
    divided = _b("/", whole, q)
    if p == 1:
        return [chain_step(expr, divided, whole // q)]
    return [chain_step(expr, Bin("*", divided, num(p)), _b("*", whole // q, p),
                       whole // q * p)]


def _power(expr: Expr) -> list[Step] | None:
    """``2⁵ = 2 × 2 × 2 × 2 × 2 = 32``."""
    if not isinstance(expr, Pow) or not isinstance(expr.base, Num) or expr.exponent < 2:
        return None
    product: Expr = expr.base
    for _ in range(expr.exponent - 1):
        product = Bin("*", product, expr.base)
    return [chain_step(expr, product, value(expr))]


def _root(expr: Expr) -> list[Step] | None:
    """``√49 = 7 because 7 × 7 = 49``."""
    if not isinstance(expr, Root):
        return None
    n = _int(expr.inner)
    if n is None or n < 0 or math.isqrt(n) ** 2 != n:
        return None
    r = math.isqrt(n)
    return [_because(expr, r, _b("*", r, r), n)]


def _missing(left: Expr, right: Expr | None) -> list[Step] | None:
    """``12 × ? = 96 → ? = 96 ÷ 12 = 8``: the other operation undoes the one asked."""
    if right is None or not isinstance(left, Bin):
        return None
    c = _int(right)
    a, b = left.left, left.right
    if c is None:
        return None
    if isinstance(a, Hole) and isinstance(b, Num):
        known = b
        undo = {"+": "-", "-": "+", "*": "/", "/": "*"}[left.op]
        solved = Bin(undo, num(c), known)
    elif isinstance(b, Hole) and isinstance(a, Num):
        known = a
        # a + ? = c → c − a; a − ? = c → a − c; a × ? = c → c ÷ a; a ÷ ? = c → a ÷ c
        solved = {"+": _b("-", c, a), "-": _b("-", a, c), "*": _b("/", c, a),
                  "/": _b("/", a, c)}[left.op]
    else:
        return None
    if not known.value or value(solved).denominator != 1:
        return None
    return [Step("missing", _chain(solved, value(solved)),
                 (("left", left), ("right", right)), ((left, right),))]


def _whole(expr: Expr) -> list[Step] | None:
    if isinstance(expr, Bin) and len(_operations(expr)) >= 2:
        return _in_order(expr)
    for make in (_add, _subtract, _multiply, _divide):
        found = make(expr)
        if found is not None:
            return found
    return None


_BY_SKILL = {
    "negatives-add": _number_line,
    "negatives-subtract": _number_line,
    "negatives-multiply": _signs,
    "negatives-divide": _signs,
    "negatives-priority": _in_order,
    "decimals-add": _tenths,
    "decimals-subtract": _tenths,
    "decimals-multiply": _tenths,
    "decimals-times-ten": _times_power,
    "fractions-simplify": _simplify,
    "fractions-add": _fraction_sum,
    "fractions-subtract": _fraction_sum,
    "fractions-of": _part_of,
    "percentages": _part_of,
    "powers": _power,
    "square-roots": _root,
}


@functools.lru_cache(maxsize=4096)
def steps(skill: str, text: str, answer: Exact) -> tuple[Step, ...] | None:
    # Kept: a wrong answer's steps are shown under it, then again in the round's summary, and a
    # class meets the same questions (a live round's, an assignment's); steps are immutable.
    """The worked steps of the question ``text`` of ``skill`` (its topic for the eight levels'
    questions), whose answer is ``answer``; None when the text does not read as that skill's
    questions do, or when the steps would not end at ``answer``."""
    read = parse(text)
    if read is None:
        return None
    left, right = read
    try:
        if skill.startswith("missing-"):
            found = _missing(left, right)
        elif right is not None:
            return None
        elif skill in _BY_SKILL:
            found = _BY_SKILL[skill](left)
        else:  # the eight levels' topics, or a teacher's question of whole numbers
            found = _whole(left)
    except (ValueError, ZeroDivisionError):
        return None
    if not found or not _all_true(found, answer):
        return None
    return tuple(found)


def result(found: tuple[Step, ...]) -> Fraction | None:
    """The value the steps end at: the last step's ``result`` when it names one, else the last
    value of its chain."""
    last = found[-1]
    named = dict(last.values).get("result")
    if named is not None:
        return value(named)
    return value(last.chain[-1]) if last.chain else None


def _all_true(found: list[Step], answer: Exact) -> bool:
    """Every equality of the steps holds (a ``?`` worth ``answer``) and they end at it."""
    try:
        if any(value(x, answer) != value(y, answer) for s in found for x, y in s.equalities()):
            return False
        return result(tuple(found)) == Fraction(normal(answer))
    except (ValueError, ZeroDivisionError):
        return False
