"""Focus skills: school mathematics beyond the eight whole-number levels, each with its levels.

A *skill* (``fractions-add``) belongs to a *topic* (``fractions``, named in both languages in
the catalogue as ``focus.topics.<topic>``) and has levels 1, 2, 3… ordered by difficulty. Each
level also sits at a *tier*: the Focus level (1–8) whose difficulty it matches, which orders
the skills of a school year (``bot.focus.school``). The eight levels' topics are skills too
(``addition``, ``subtraction``, … ``parentheses``: skill id = topic), whose levels are those of
``bot.focus.questions.LEVELS`` where the topic changes, so that every question has a skill.

Every builder picks its numbers so that the answer is exact by construction and computes it
with ints and ``Fraction`` (never floats); the text is written from the same numbers. Texts use
the school's signs (``×``, ``÷``, ``−``), ``?`` for a missing number, fractions as ``a/b``,
decimals with a point, a negative after a sign in brackets (``5 − (−3)``), powers with
superscripts (``2⁵``), roots with ``√``, and a part of a number with ``of`` (``2/3 of 18``,
``25 % of 80``: the one word, which ``bot.texts.question_text`` says in French). The ``ascii``
text says the same with ``+ - * /``, ``^`` and ``sqrt(…)``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bot.domain import DomainError
from bot.focus.exact import DECIMAL, FRACTION, LOWEST, WHOLE, Exact, decimal_text, normal
from bot.focus.questions import (
    ADDITION,
    DIVISION,
    LEVELS,
    MAX_COUNT,
    MULTIPLICATION,
    PARENTHESES,
    PRIORITY,
    SQUARES,
    SUBTRACTION,
    TOPICS,
    Question,
    ascii_text,
    question_key,
    read_question,
    school_text,
)

NEGATIVES = "negatives"
DECIMALS = "decimals"
FRACTIONS = "fractions"
POWERS = "powers"
PERCENTAGES = "percentages"
MISSING = "missing"
#: The topics of the new skills, after the eight levels' ``TOPICS``.
SKILL_TOPICS = (MISSING, NEGATIVES, DECIMALS, FRACTIONS, PERCENTAGES, POWERS)
ALL_TOPICS = TOPICS + SKILL_TOPICS


@dataclass(frozen=True, slots=True)
class Made:
    """What a builder makes: the two texts, the exact answer, a key that tells questions apart."""

    text: str
    ascii: str
    answer: Exact


Build = Callable[[random.Random], Made]


@dataclass(frozen=True, slots=True)
class SkillLevel:
    number: int  # 1 upward, by difficulty
    name: str  # in English: the command line, the docs
    tier: int  # the Focus level (1–8) of the same difficulty
    build: Build


@dataclass(frozen=True, slots=True)
class Skill:
    id: str
    topic: str
    form: str  # how answers are written (bot.focus.exact)
    levels: tuple[SkillLevel, ...]

    def level(self, number: int) -> SkillLevel:
        if isinstance(number, bool) or not isinstance(number, int) \
                or not 1 <= number <= len(self.levels):
            raise DomainError("focus.unknown_skill_level",
                              f"skill {self.id} has levels 1 to {len(self.levels)}, not "
                              f"{number!r}", skill=self.id, level=number, max=len(self.levels))
        return self.levels[number - 1]

    def to_json(self) -> dict[str, Any]:
        return {"skill": self.id, "topic": self.topic, "form": self.form,
                "levels": [{"level": lv.number, "name": lv.name, "tier": lv.tier}
                           for lv in self.levels]}


# --- writing numbers and expressions ------------------------------------------------------

MINUS = "−"  # U+2212, the school's minus (and a negative's sign)
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


class Dec:
    """A number written as a decimal (``Dec(Fraction(3, 4))`` is ``0.75``)."""

    __slots__ = ("value",)

    def __init__(self, value: Exact) -> None:
        self.value = Fraction(value)


Part = int | Fraction | Dec | str


def _number(value: int | Fraction | Dec, school: bool, first: bool) -> str:
    shown = decimal_text(value.value) if isinstance(value, Dec) else (
        str(value) if isinstance(value, int) else f"{value.numerator}/{value.denominator}")
    if not shown.startswith("-"):
        return shown
    shown = (MINUS if school else "-") + shown[1:]
    return shown if first else f"({shown})"


_SIGNS = {"+": "+", "-": MINUS, "*": "×", "/": "÷"}


def _write(parts: Sequence[Part], school: bool) -> str:
    """The text of ``parts``: numbers (a negative one in brackets unless it opens the text or
    follows an opening bracket), operators ``+ - * /`` (school signs or ASCII) and other words
    (``=``, ``?``, brackets, ``%``) as they are."""
    out: list[str] = []
    for part in parts:
        if isinstance(part, str):
            out.append(_SIGNS.get(part, part) if school else part)
        else:
            out.append(_number(part, school, first=not out or out[-1] == "("))
    return " ".join(out).replace("( ", "(").replace(" )", ")")


def made(answer: Exact, *parts: Part) -> Made:
    return Made(_write(parts, True), _write(parts, False), normal(answer))


# --- builders ------------------------------------------------------------------------------


def _signed(rng: random.Random, low: int, high: int) -> int:
    """A whole number with ``low <= |n| <= high``, either sign."""
    n = rng.randint(low, high)
    return -n if rng.random() < 0.5 else n


def _with_negative(rng: random.Random, draw: Callable[[], tuple[int, ...]]) -> tuple[int, ...]:
    """Numbers from ``draw`` until at least one is negative (the skill is about negatives)."""
    while True:
        numbers = draw()
        if any(n < 0 for n in numbers):
            return numbers


def negatives_add(bound: int, low: int = 1) -> Build:
    def build(rng: random.Random) -> Made:
        a, b = _with_negative(rng, lambda: (_signed(rng, low, bound), _signed(rng, 1, bound)))
        return made(a + b, a, "+", b)
    return build


def negatives_subtract(bound: int, low: int = 1) -> Build:
    def build(rng: random.Random) -> Made:
        a, b = _with_negative(rng, lambda: (_signed(rng, low, bound), _signed(rng, 1, bound)))
        return made(a - b, a, "-", b)
    return build


def negatives_multiply(high_a: int, high_b: int) -> Build:
    def build(rng: random.Random) -> Made:
        a, b = _with_negative(rng, lambda: (_signed(rng, 2, high_a), _signed(rng, 2, high_b)))
        return made(a * b, a, "*", b)
    return build


def negatives_divide(high_q: int, high_d: int) -> Build:
    """(q × d) ÷ d with signs: the dividend is made from the answer, so the division is exact."""
    def build(rng: random.Random) -> Made:
        q, d = _with_negative(rng, lambda: (_signed(rng, 2, high_q), _signed(rng, 2, high_d)))
        return made(q, q * d, "/", d)
    return build


def negatives_priority(level: int) -> Build:
    """Two or three steps with negatives: × and ÷ first, brackets first of all."""
    def build(rng: random.Random) -> Made:
        def s(low: int, high: int) -> int:
            return _signed(rng, low, high)

        while True:
            if level == 1:  # a + b × c, a − b × c
                a, b, c = s(1, 10), s(2, 5), s(2, 5)
                op = rng.choice("+-")
                m = made(a + b * c if op == "+" else a - b * c, a, op, b, "*", c)
            elif level == 2:  # a × b + c × d, a − b ÷ c
                if rng.random() < 0.5:
                    a, b, c, d = s(2, 6), s(2, 6), s(2, 6), s(2, 6)
                    op = rng.choice("+-")
                    m = made(a * b + c * d if op == "+" else a * b - c * d,
                             a, "*", b, op, c, "*", d)
                else:
                    a, q, c = s(1, 20), s(2, 9), s(2, 9)
                    op = rng.choice("+-")
                    m = made(a + q if op == "+" else a - q, a, op, q * c, "/", c)
            else:  # (a + b) × c, a × (b − c), (a − b) ÷ c
                form = rng.randrange(3)
                if form == 0:
                    a, b, c = s(1, 12), s(1, 12), s(2, 6)
                    m = made((a + b) * c, "(", a, "+", b, ")", "*", c)
                elif form == 1:
                    a, b, c = s(2, 6), s(1, 12), s(1, 12)
                    m = made(a * (b - c), a, "*", "(", b, "-", c, ")")
                else:
                    c, q, b = s(2, 6), s(2, 9), s(1, 12)
                    a = q * c + b
                    m = made(q, "(", a, "-", b, ")", "/", c)
            if m.text.startswith(MINUS) or f"({MINUS}" in m.text:  # the skill is about signs
                return m
    return build


def _tenths(rng: random.Random, low: int, high: int) -> Fraction:
    """A decimal with one decimal digit that is not 0, in low/10..high/10."""
    while True:
        n = rng.randint(low, high)
        if n % 10:
            return Fraction(n, 10)


def _hundredths(rng: random.Random, low: int, high: int) -> Fraction:
    while True:
        n = rng.randint(low, high)
        if n % 10:
            return Fraction(n, 100)


def decimals_add(level: int) -> Build:
    def build(rng: random.Random) -> Made:
        if level == 1:  # 0.3 + 0.5, 1.2 + 3.4 (no carry past the units)
            while True:
                a, b = _tenths(rng, 1, 49), _tenths(rng, 1, 49)
                if a + b < 10:
                    break
        elif level == 2:  # 12.7 + 3.6
            a, b = _tenths(rng, 11, 899), _tenths(rng, 1, 99)
        else:  # 2.35 + 0.7
            a, b = _hundredths(rng, 101, 2999), _tenths(rng, 1, 99)
        a, b = (b, a) if rng.random() < 0.5 else (a, b)
        return made(a + b, Dec(a), "+", Dec(b))
    return build


def decimals_subtract(level: int) -> Build:
    def build(rng: random.Random) -> Made:
        while True:
            if level == 1:
                a, b = _tenths(rng, 11, 99), _tenths(rng, 1, 49)
            elif level == 2:
                a, b = _tenths(rng, 101, 999), _tenths(rng, 11, 99)
            else:
                a, b = _hundredths(rng, 101, 2999), _tenths(rng, 1, 99)
            if a - b > 0:
                return made(a - b, Dec(a), "-", Dec(b))
    return build


def decimals_multiply(level: int) -> Build:
    """A decimal times a whole number: 0.3 × 4, 1.2 × 6, 0.25 × 8."""
    def build(rng: random.Random) -> Made:
        if level == 1:
            a, n = _tenths(rng, 1, 9), rng.randint(2, 9)
        elif level == 2:
            a, n = _tenths(rng, 11, 99), rng.randint(2, 9)
        else:
            a, n = _hundredths(rng, 11, 999), rng.choice((2, 3, 4, 5, 6, 7, 8, 9, 11, 12))
        parts: tuple[Part, ...] = (Dec(a), "*", n) if rng.random() < 0.5 else (n, "*", Dec(a))
        return made(a * n, *parts)
    return build


def decimals_times_ten(level: int) -> Build:
    """× 10, × 100, × 1000 (and ÷ 10, ÷ 100 at the last level)."""
    def build(rng: random.Random) -> Made:
        if level == 1:
            a, power, divide = _tenths(rng, 1, 99), 10, False
        elif level == 2:
            a, power, divide = _hundredths(rng, 1, 999), rng.choice((10, 100)), False
        else:
            divide = rng.random() < 0.4
            if divide:  # a whole number whose quotient is a decimal (not 950 ÷ 10)
                power = rng.choice((10, 100))
                a = Fraction(rng.choice([n for n in range(1, 1000) if n % 10]))
            else:
                a, power = _hundredths(rng, 1, 9999), rng.choice((10, 100, 1000))
        if divide:
            return made(a / power, Dec(a), "/", power)
        return made(a * power, Dec(a), "*", power)
    return build


def _proper(rng: random.Random, low_d: int, high_d: int) -> Fraction:
    """A fraction p/q in lowest terms between 0 and 1 (q from low_d to high_d)."""
    q = rng.randint(low_d, high_d)
    while True:
        p = rng.randint(1, q - 1)
        if math.gcd(p, q) == 1:
            return Fraction(p, q)


def fractions_simplify(high_q: int, low_k: int, high_k: int) -> Build:
    """(p × k)/(q × k): the answer p/q in lowest terms."""
    def build(rng: random.Random) -> Made:
        f = _proper(rng, 2, high_q)
        k = rng.randint(low_k, high_k)
        shown = f"{f.numerator * k}/{f.denominator * k}"
        return Made(shown, shown, f)
    return build


def _written(f: Fraction, d: int) -> tuple[int, int]:
    """``f`` written over the denominator ``d`` (a multiple of its own)."""
    return f.numerator * (d // f.denominator), d


def fractions_sum(level: int, subtract: bool) -> Build:
    def build(rng: random.Random) -> Made:
        while True:
            if level == 1:  # the same denominator
                d = rng.randint(3, 10)
                a, b = rng.randint(1, d - 1), rng.randint(1, d - 1)
                x, y = (a, d), (b, d)
            elif level == 2:  # one denominator a multiple of the other
                d1 = rng.randint(2, 5)
                d2 = d1 * rng.randint(2, 3)
                x, y = (rng.randint(1, d1 - 1), d1), (rng.randint(1, d2 - 1), d2)
                if rng.random() < 0.5:
                    x, y = y, x
            else:  # two different small denominators
                d1, d2 = rng.sample(range(2, 8), 2)
                x, y = (rng.randint(1, d1 - 1), d1), (rng.randint(1, d2 - 1), d2)
            fx, fy = Fraction(*x), Fraction(*y)
            value = fx - fy if subtract else fx + fy
            if subtract and value <= 0:
                continue
            text = f"{x[0]}/{x[1]} {MINUS if subtract else '+'} {y[0]}/{y[1]}"
            ascii = f"{x[0]}/{x[1]} {'-' if subtract else '+'} {y[0]}/{y[1]}"
            return Made(text, ascii, normal(value))
    return build


def fraction_of(level: int) -> Build:
    """p/q of n with n a multiple of q: a whole answer. Written as a class writes it (``2/3 of
    18``, said « 2/3 de 18 » in French by ``bot.texts.question_text``); ASCII ``2/3 * 18``."""
    def build(rng: random.Random) -> Made:
        if level == 1:
            q = rng.choice((2, 3, 4, 5, 10))
            p, n = 1, q * rng.randint(2, 10)
        elif level == 2:
            q = rng.choice((3, 4, 5, 10))
            p, n = rng.randint(2, q - 1), q * rng.randint(2, 10)
        else:
            q = rng.randint(3, 12)
            p, n = rng.randint(2, q - 1), q * rng.randint(3, 12)
        f = Fraction(p, q)
        shown = f"{p}/{q}"
        return Made(f"{shown} of {n}", f"{shown} * {n}", normal(f * n))
    return build


def percentage_of(level: int) -> Build:
    """p % of n with a whole answer: n is a multiple of 100 / gcd(p, 100) (``50 % of 178``;
    ASCII ``50% * 178``)."""
    choices = {1: (10, 50), 2: (10, 20, 25, 50, 75), 3: (1, 5, 15, 30, 40, 60, 80, 90)}[level]
    high = {1: 20, 2: 20, 3: 30}[level]

    def build(rng: random.Random) -> Made:
        p = rng.choice(choices)
        step = 100 // math.gcd(p, 100)
        n = step * rng.randint(max(1, 20 // step), max(2, high * 10 // step))
        value = Fraction(p, 100) * n
        return Made(f"{p} % of {n}", f"{p}% * {n}", normal(value))
    return build


def power(level: int) -> Build:
    """aⁿ: squares and small cubes, then powers of 2, 3, 5 and 10, then negative bases."""
    bases = {1: [(a, 2) for a in range(2, 11)] + [(2, 3), (3, 3), (10, 3)],
             2: [(a, 3) for a in range(2, 6)] + [(2, n) for n in range(4, 7)]
             + [(3, 4), (10, 4), (10, 5)],
             3: [(2, n) for n in range(7, 11)] + [(3, 5), (5, 4), (4, 4)]
             + [(-a, n) for a in (1, 2, 3) for n in (2, 3, 4, 5) if a ** n <= 250]}[level]

    def build(rng: random.Random) -> Made:
        a, n = rng.choice(bases)
        exponent = str(n).translate(_SUPERSCRIPT)
        base = str(a) if a > 0 else f"({MINUS}{-a})"
        ascii_base = str(a) if a > 0 else f"({a})"
        return Made(f"{base}{exponent}", f"{ascii_base}^{n}", a ** n)
    return build


def square_root(low: int, high: int) -> Build:
    def build(rng: random.Random) -> Made:
        n = rng.randint(low, high)
        return Made(f"√{n * n}", f"sqrt({n * n})", n)
    return build


def missing(op: str, level: int) -> Build:
    """``? × 7 = 42``, ``45 − ? = 18``: the whole number in place of the ``?``."""
    def build(rng: random.Random) -> Made:
        if op in "+-":
            total = {1: 20, 2: 100, 3: 1000}[level]
            low = {1: 2, 2: 11, 3: 101}[level]
            c = rng.randint(low + 2, total)
            a = rng.randint(2 if level == 1 else low // 2, c - 2)
            b = c - a
            if op == "+":  # a + b = c
                numbers: list[int] = [a, b, c]
            else:  # c − a = b
                numbers = [c, a, b]
        else:
            high = {1: 5, 2: 10, 3: 12}[level]
            a, b = rng.randint(2, high), rng.randint(2, 10 if level < 3 else 12)
            numbers = [a, b, a * b] if op == "*" else [a * b, a, b]
        hole = rng.randrange(2)
        parts: list[Part] = [numbers[0], op, numbers[1], "=", numbers[2]]
        parts[2 * hole] = "?"
        return made(numbers[hole], *parts)
    return build


# --- the eight levels' topics as skills ------------------------------------------------------


def _topic_at(topic: str, focus_level: int) -> Build:
    """The questions of ``topic`` at Focus level ``focus_level`` (its builders there)."""
    builders = [build for t, build in LEVELS[focus_level].entries if t == topic]
    if not builders:
        raise ValueError(f"level {focus_level} has no {topic}")

    def build(rng: random.Random) -> Made:
        tree = rng.choice(builders)(rng)
        return Made(school_text(tree), ascii_text(tree), tree.value)
    return build


def _whole(topic: str, *levels: tuple[str, int]) -> Skill:
    """A topic of the eight levels as a skill: its levels are the Focus levels where it
    changes (``tier``), with the same questions as there."""
    return Skill(topic, topic, WHOLE, tuple(
        SkillLevel(n, name, lv, _topic_at(topic, lv))
        for n, (name, lv) in enumerate(levels, 1)))


def _skill(id: str, topic: str, form: str, *levels: tuple[str, int, Build]) -> Skill:
    return Skill(id, topic, form, tuple(SkillLevel(n, name, tier, build)
                                        for n, (name, tier, build) in enumerate(levels, 1)))


SKILLS: dict[str, Skill] = {skill.id: skill for skill in (
    _whole(ADDITION, ("Sums within 20", 1), ("Sums within 100", 3), ("Sums within 1000", 8)),
    _whole(SUBTRACTION, ("Differences within 20", 2), ("Differences within 100", 3),
           ("Differences within 1000", 8)),
    _whole(MULTIPLICATION, ("Tables of 2 to 5", 3), ("Tables to 10", 4), ("Tables to 12", 5),
           ("Two digits × one digit", 8)),
    _whole(DIVISION, ("Exact division, tables to 10", 4), ("Exact division, tables to 12", 5),
           ("Three digits ÷ one digit", 8)),
    _whole(SQUARES, ("Squares of 2 to 15", 5), ("Squares of 11 to 20", 8)),
    _whole(PRIORITY, ("Two steps: × and ÷ before + and −", 6),
           ("Two steps, larger numbers", 8)),
    _whole(PARENTHESES, ("Two steps with parentheses", 7),
           ("Parentheses, larger numbers", 8)),
    _skill("missing-addition", MISSING, WHOLE,
           ("? + b = c within 20", 2, missing("+", 1)),
           ("? + b = c within 100", 3, missing("+", 2)),
           ("? + b = c within 1000", 6, missing("+", 3))),
    _skill("missing-subtraction", MISSING, WHOLE,
           ("a − ? = c within 20", 2, missing("-", 1)),
           ("a − ? = c within 100", 3, missing("-", 2)),
           ("a − ? = c within 1000", 6, missing("-", 3))),
    _skill("missing-multiplication", MISSING, WHOLE,
           ("? × b = c, tables to 5", 4, missing("*", 1)),
           ("? × b = c, tables to 10", 5, missing("*", 2)),
           ("? × b = c, tables to 12", 6, missing("*", 3))),
    _skill("missing-division", MISSING, WHOLE,
           ("? ÷ b = c, tables to 5", 4, missing("/", 1)),
           ("? ÷ b = c, tables to 10", 5, missing("/", 2)),
           ("? ÷ b = c, tables to 12", 6, missing("/", 3))),
    _skill("negatives-add", NEGATIVES, WHOLE,
           ("Adding negatives within 10", 5, negatives_add(10)),
           ("Adding negatives within 20", 6, negatives_add(20, 5)),
           ("Adding negatives within 100", 7, negatives_add(100, 21))),
    _skill("negatives-subtract", NEGATIVES, WHOLE,
           ("Subtracting negatives within 10", 5, negatives_subtract(10)),
           ("Subtracting negatives within 20", 6, negatives_subtract(20, 5)),
           ("Subtracting negatives within 100", 7, negatives_subtract(100, 21))),
    _skill("negatives-multiply", NEGATIVES, WHOLE,
           ("Products of negatives, tables to 5", 6, negatives_multiply(5, 5)),
           ("Products of negatives, tables to 10", 7, negatives_multiply(10, 10)),
           ("Products of negatives, tables to 12", 8, negatives_multiply(12, 12))),
    _skill("negatives-divide", NEGATIVES, WHOLE,
           ("Quotients of negatives, tables to 5", 6, negatives_divide(5, 5)),
           ("Quotients of negatives, tables to 10", 7, negatives_divide(10, 10)),
           ("Quotients of negatives, tables to 12", 8, negatives_divide(12, 12))),
    _skill("negatives-priority", NEGATIVES, WHOLE,
           ("Two steps with negatives: × before + and −", 7, negatives_priority(1)),
           ("Two products or a quotient with negatives", 8, negatives_priority(2)),
           ("Brackets with negatives", 8, negatives_priority(3))),
    _skill("decimals-add", DECIMALS, DECIMAL,
           ("Adding tenths within 10", 4, decimals_add(1)),
           ("Adding tenths within 100", 5, decimals_add(2)),
           ("Adding hundredths and tenths", 6, decimals_add(3))),
    _skill("decimals-subtract", DECIMALS, DECIMAL,
           ("Subtracting tenths within 10", 4, decimals_subtract(1)),
           ("Subtracting tenths within 100", 5, decimals_subtract(2)),
           ("Subtracting hundredths and tenths", 6, decimals_subtract(3))),
    _skill("decimals-times-ten", DECIMALS, DECIMAL,
           ("Tenths × 10", 4, decimals_times_ten(1)),
           ("Hundredths × 10 and × 100", 5, decimals_times_ten(2)),
           ("× 10, × 100, × 1000, ÷ 10 and ÷ 100", 6, decimals_times_ten(3))),
    _skill("decimals-multiply", DECIMALS, DECIMAL,
           ("0.a × a whole number", 5, decimals_multiply(1)),
           ("a.b × a whole number", 6, decimals_multiply(2)),
           ("Hundredths × a whole number to 12", 7, decimals_multiply(3))),
    _skill("fractions-simplify", FRACTIONS, LOWEST,
           ("Simplify, denominators to 12", 5, fractions_simplify(6, 2, 2)),
           ("Simplify, denominators to 60", 6, fractions_simplify(10, 2, 6)),
           ("Simplify, denominators to 144", 7, fractions_simplify(12, 4, 12))),
    _skill("fractions-add", FRACTIONS, FRACTION,
           ("Adding fractions of the same denominator", 5, fractions_sum(1, False)),
           ("Adding halves and quarters, thirds and sixths…", 6, fractions_sum(2, False)),
           ("Adding fractions of different denominators", 7, fractions_sum(3, False))),
    _skill("fractions-subtract", FRACTIONS, FRACTION,
           ("Subtracting fractions of the same denominator", 5, fractions_sum(1, True)),
           ("Subtracting halves and quarters, thirds and sixths…", 6, fractions_sum(2, True)),
           ("Subtracting fractions of different denominators", 7, fractions_sum(3, True))),
    _skill("fractions-of", FRACTIONS, WHOLE,
           ("A unit fraction of a number", 4, fraction_of(1)),
           ("A fraction of a number", 5, fraction_of(2)),
           ("A fraction of a larger number", 6, fraction_of(3))),
    _skill("percentages", PERCENTAGES, WHOLE,
           ("10 % and 50 % of a number", 5, percentage_of(1)),
           ("20 %, 25 % and 75 % of a number", 6, percentage_of(2)),
           ("1 %, 5 %, 15 %, 30 %… of a number", 7, percentage_of(3))),
    _skill("powers", POWERS, WHOLE,
           ("Squares and small cubes", 5, power(1)),
           ("Cubes and powers of 2, 3 and 10", 6, power(2)),
           ("Larger powers, negative bases", 8, power(3))),
    _skill("square-roots", POWERS, WHOLE,
           ("Square roots of 4 to 100", 5, square_root(2, 10)),
           ("Square roots of 121 to 400", 6, square_root(11, 20)),
           ("Square roots of 441 to 900", 7, square_root(21, 30))),
)}


def check_skill(skill: Any) -> Skill:
    """The skill of that id, or a domain error naming them."""
    found = SKILLS.get(skill) if isinstance(skill, str) else None
    if found is None:
        raise DomainError("focus.unknown_skill", f"there is no Focus skill {skill!r}: "
                          f"{', '.join(SKILLS)}", skill=skill)
    return found


#: A skill and one of its levels: what a practice round may draw from.
SkillRef = tuple[str, int]

_ATTEMPTS = 20_000


def _same_question(ascii: str) -> str:
    """What tells a round's questions apart: ``8 + 4`` is ``4 + 8`` (the whole numbers'
    questions, read back as a tree, their commutative operands in order), any other text is
    itself."""
    try:
        return question_key(read_question(ascii))
    except ValueError:
        return ascii


def draw(refs: Sequence[SkillRef], count: int, rng: random.Random, level: int | None = None
         ) -> list[Question]:
    """``count`` different questions, each from a (skill, skill level) of ``refs`` drawn
    uniformly; ``level``: the Focus level they are asked at (default: each one's tier)."""
    if not refs:
        raise ValueError("nothing to draw from")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise DomainError("focus.bad_count",
                          f"the number of questions goes from 1 to {MAX_COUNT}, not {count!r}",
                          count=count, max=MAX_COUNT)
    resolved = [(check_skill(s), check_skill(s).level(n)) for s, n in refs]
    seen: set[str] = set()
    questions: list[Question] = []
    for _ in range(_ATTEMPTS):
        if len(questions) == count:
            return questions
        skill, skill_level = rng.choice(resolved)
        m = skill_level.build(rng)
        key = _same_question(m.ascii)
        if key in seen:
            continue
        seen.add(key)
        questions.append(Question(text=m.text, ascii=m.ascii, answer=m.answer,
                                  topic=skill.topic, skill=skill.id, form=skill.form,
                                  level=skill_level.tier if level is None else level,
                                  skill_level=skill_level.number))
    if len(questions) == count:
        return questions
    raise DomainError("focus.too_many_questions", "those skills cannot give that many "
                      "different questions", level=level or 0)


def level_of(question: Question) -> SkillLevel | None:
    """The level of its skill that ``question`` practises: the one it was drawn from, else (a
    question of the eight levels) its topic's level where its Focus level falls; None for a
    question of no skill of the engine's (a teacher's own)."""
    skill = SKILLS.get(question.skill)
    if skill is None:
        return None
    if 1 <= question.skill_level <= len(skill.levels):
        return skill.levels[question.skill_level - 1]
    reached = [lv for lv in skill.levels if lv.tier <= question.level]
    return reached[-1] if reached else skill.levels[0]


def generate_skill(skill: str, level: int, count: int, rng: random.Random) -> list[Question]:
    """``count`` different questions of one level of one skill, the same for the same RNG."""
    check_skill(skill).level(level)
    return draw([(skill, level)], count, rng)

