"""Focus questions: built from numbers as expression trees, by level, from a seeded RNG.

A question is never produced by evaluating text: each builder picks numbers that make the
expression right by construction (a quotient times a divisor gives an exact dividend, a
difference is drawn above the subtracted product, …), the tree computes its own value, and the
text is rendered from the tree. The levels are documented in ``docs/rules/focus.md``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.domain import DomainError
from bot.focus.exact import (
    FORMS,
    WHOLE,
    Exact,
    accepted_values,
    json_answer,
    normal,
    parse_exact,
)

ADDITION = "addition"
SUBTRACTION = "subtraction"
MULTIPLICATION = "multiplication"
DIVISION = "division"
SQUARES = "squares"
PRIORITY = "priority"
PARENTHESES = "parentheses"
TOPICS = (ADDITION, SUBTRACTION, MULTIPLICATION, DIVISION, SQUARES, PRIORITY, PARENTHESES)

MIN_LEVEL = 1
MAX_LEVEL = 8
ROUND_SIZE = 6

# Operators are kept in ASCII inside the tree; the text shows the school signs.
_SIGN = {"+": "+", "-": "−", "*": "×", "/": "÷"}
_RANK = {"+": 1, "-": 1, "*": 2, "/": 2}


class Num:
    __slots__ = ("value",)
    value: int

    def __init__(self, value: int) -> None:
        self.value = value


class Op:
    __slots__ = ("left", "op", "right", "value")
    left: Node
    op: str
    right: Node
    value: int

    def __init__(self, op: str, left: Node, right: Node) -> None:
        a, b = left.value, right.value
        if op == "+":
            value = a + b
        elif op == "-":
            value = a - b
        elif op == "*":
            value = a * b
        else:
            value, rest = divmod(a, b)
            if rest:  # a builder bug, never a player's problem
                raise ValueError(f"{a} ÷ {b} is not exact")
        self.op, self.left, self.right, self.value = op, left, right, value


Node = Num | Op


def _render(node: Node, signs: dict[str, str]) -> str:
    if isinstance(node, Num):
        return str(node.value)
    left = _render(node.left, signs)
    right = _render(node.right, signs)
    rank = _RANK[node.op]
    # The tree is the question: a child of lower rank, or a right child of the same rank, keeps
    # its parentheses; a left child of the same rank reads left to right without them.
    if isinstance(node.left, Op) and _RANK[node.left.op] < rank:
        left = f"({left})"
    if isinstance(node.right, Op) and _RANK[node.right.op] <= rank:
        right = f"({right})"
    return f"{left} {signs[node.op]} {right}"


_ASCII = {op: op for op in _SIGN}


def school_text(node: Node) -> str:
    """A tree's text with the school's signs (+ − × ÷)."""
    return _render(node, _SIGN)


def ascii_text(node: Node) -> str:
    """A tree's text with + - * /."""
    return _render(node, _ASCII)


def _key(node: Node) -> str:
    """The same question however its commutative operands are ordered (7 + 8 is 8 + 7)."""
    if isinstance(node, Num):
        return str(node.value)
    a, b = _key(node.left), _key(node.right)
    if node.op in "+*" and b < a:
        a, b = b, a
    return f"({a}{node.op}{b})"


def question_key(node: Node) -> str:
    """What tells two questions apart: the same key for ``7 + 8`` and ``8 + 7``."""
    return _key(node)


# --- reading a question back: the member's side (local play, the load benchmark, tests) ------

# Either of the question's signs: the school's (``text``) or ASCII (``ascii``).
_READ = {sign: op for op, sign in _SIGN.items()} | {op: op for op in _SIGN}
_TOKEN = re.compile(r"\s*(?:([0-9]+)|([-+−×÷*/()]))")  # ASCII digits only, as written
_ASKED = re.compile(r"\s*=\s*\??\s*$")  # the form's "7 + 8 =" or the window's "7 + 8 = ?"


def read_question(question: str) -> Node:
    """The tree of a question as this module writes it (``Question.text`` or ``.ascii``, with
    or without the ``=`` or ``= ?`` after it): whole numbers, + − × ÷ (or + - * /) and
    parentheses, read the school's way (parentheses first, then × and ÷, then + and −, each left
    to right). Never ``eval``: anything else raises ``ValueError``, and so does a division that
    is not exact, as no question has one."""
    text = _ASKED.sub("", question)
    tokens: list[str] = []
    position = 0
    while position < len(text):
        found = _TOKEN.match(text, position)
        if found is None:
            if text[position:].strip():
                raise ValueError(f"cannot read {question!r} at {text[position:].strip()!r}")
            break
        number, sign = found.groups()
        tokens.append(number or _READ.get(sign, sign))  # brackets stay as they are
        position = found.end()
    at = 0

    def peek() -> str | None:
        return tokens[at] if at < len(tokens) else None

    def take() -> str:
        nonlocal at
        if at >= len(tokens):
            raise ValueError(f"{question!r} ends too soon")
        at += 1
        return tokens[at - 1]

    def factor() -> Node:
        token = take()
        if token == "(":
            inner = expression()
            if take() != ")":
                raise ValueError(f"unbalanced parentheses in {question!r}")
            return inner
        if not token.isdigit():
            raise ValueError(f"a number was expected in {question!r}, not {token!r}")
        return Num(int(token))

    def operation(op: str, left: Node, right: Node) -> Op:
        if op == "/" and (right.value == 0 or left.value % right.value):
            raise ValueError(f"{question!r} has a division that is not exact")
        return Op(op, left, right)

    def term() -> Node:
        node = factor()
        while peek() in ("*", "/"):
            op = take()
            node = operation(op, node, factor())
        return node

    def expression() -> Node:
        node = term()
        while peek() in ("+", "-"):
            op = take()
            node = operation(op, node, term())
        return node

    tree = expression()
    if at != len(tokens):
        raise ValueError(f"cannot read {question!r}: {' '.join(tokens[at:])!r} is left over")
    return tree


def work_out(question: str) -> int:
    """The answer to a question's text (``"35 ÷ (2 + 5) ="`` → 5): see :func:`read_question`."""
    return read_question(question).value


def variant_fields(topic: str, skill: str, form: str) -> dict[str, str]:
    """The JSON fields of a question (or an answer) that differ from one of the eight levels':
    only those are written, so the eight levels' JSON stays as it was."""
    out: dict[str, str] = {}
    if skill != topic:
        out["skill"] = skill
    if form != WHOLE:
        out["form"] = form
    return out


@dataclass(frozen=True, slots=True)
class Question:
    """One question. ``answer`` is exact: an int, or a ``Fraction`` when not whole (never a
    float). ``level`` is the Focus level (1–8) it is asked at; ``skill`` the skill it practises
    (``bot.focus.skills``; the eight levels' questions have their topic as skill); ``form`` how
    its answer is written and read (``bot.focus.exact``: whole, decimal, fraction, lowest)."""

    text: str  # with + − × ÷
    ascii: str  # the same with + - * /
    answer: Exact
    topic: str
    level: int
    skill: str = ""  # "": the topic (a question of the eight levels)
    form: str = WHOLE
    #: A teacher's question: the accepted answers as written (``bot.focus.exact.ANSWER_BAR``,
    #: ``"1/2 | 0.5"``), ``answer`` the first; "": ``answer`` alone.
    written: str = ""
    #: The level of its skill it was drawn from (``bot.focus.skills``); 0: not said (a question
    #: of the eight levels, whose skill level follows from its Focus level).
    skill_level: int = 0

    def __post_init__(self) -> None:
        if not self.skill:
            object.__setattr__(self, "skill", self.topic)
        if self.form not in FORMS:
            raise ValueError(f"a question's form is one of {FORMS}, not {self.form!r}")
        object.__setattr__(self, "answer", normal(self.answer))
        if self.written and self.answer not in accepted_values(self.written):
            raise ValueError(f"{self.answer!r} is not among the accepted {self.written!r}")

    @property
    def accepted(self) -> tuple[Exact, ...]:
        """Every answer that is right (equal in value to one of them, as Focus reads it)."""
        return accepted_values(self.written) if self.written else (self.answer,)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"text": self.text, "ascii": self.ascii,
                                "answer": json_answer(self.answer, self.form),
                                "topic": self.topic, "level": self.level}
        data.update(variant_fields(self.topic, self.skill, self.form))
        if self.written:
            data["written"] = self.written
        if self.skill_level:
            data["skill_level"] = self.skill_level
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Question:
        """The question of :meth:`to_json`; an older one (no skill, no form) is a whole-number
        question of its topic."""
        return cls(text=str(data["text"]), ascii=str(data["ascii"]),
                   answer=parse_exact(data["answer"]), topic=str(data["topic"]),
                   level=int(data["level"]), skill=str(data.get("skill") or data["topic"]),
                   form=str(data.get("form", WHOLE)), written=str(data.get("written") or ""),
                   skill_level=int(data.get("skill_level", 0)))


# --- builders: each returns a tree that is right by construction -----------------------------

Builder = Callable[[random.Random], Node]


def _op(op: str, a: Node | int, b: Node | int) -> Op:
    return Op(op, Num(a) if isinstance(a, int) else a, Num(b) if isinstance(b, int) else b)


def _maybe_swap(rng: random.Random, op: str, a: Node | int, b: Node | int) -> Op:
    return _op(op, b, a) if rng.random() < 0.5 else _op(op, a, b)


def _sum(low: int, high: int, total: int, low_b: int = 2) -> Builder:
    """a + b, a drawn in low..high, b at least low_b, a + b at most total."""
    def build(rng: random.Random) -> Node:
        # Both terms drawn evenly, then kept if they fit: every pair is as likely as another
        # (drawing b below total − a would favour big a with tiny b).
        while True:
            a, b = rng.randint(low, high), rng.randint(low_b, total - low)
            if a + b <= total:
                return _maybe_swap(rng, "+", a, b)
    return build


def _difference(low: int, high: int, low_b: int = 2) -> Builder:
    """a − b with a in low..high, b at least low_b, the difference at least 1."""
    def build(rng: random.Random) -> Node:
        a = rng.randint(low, high)
        return _op("-", a, rng.randint(low_b, a - 1))
    return build


def _product(low_a: int, high_a: int, low_b: int, high_b: int, distinct: bool = False) -> Builder:
    def build(rng: random.Random) -> Node:
        a = rng.randint(low_a, high_a)
        b = rng.randint(low_b, high_b)
        while distinct and a == b:  # a × a belongs to the squares topic at this level
            b = rng.randint(low_b, high_b)
        return _maybe_swap(rng, "*", a, b)
    return build


def _quotient(low_q: int, high_q: int, low_d: int, high_d: int) -> Builder:
    """(q × d) ÷ d: the dividend is made from the answer, so the division is exact."""
    def build(rng: random.Random) -> Node:
        q = rng.randint(low_q, high_q)
        d = rng.randint(low_d, high_d)
        return _op("/", q * d, d)
    return build


def _long_quotient(rng: random.Random) -> Node:
    """A three-digit number divided by a one-digit number, exactly."""
    d = rng.randint(2, 9)
    q = rng.randint(max(12, -(-100 // d)), 999 // d)
    return _op("/", q * d, d)


def _square(low: int, high: int) -> Builder:
    def build(rng: random.Random) -> Node:
        n = rng.randint(low, high)
        return _op("*", n, n)
    return build


def _priority_forms(f: int, t: int) -> list[Builder]:
    """Two steps without parentheses: × and ÷ before + and −, then left to right.

    Factors, divisors and quotients are drawn in 2..f, added terms in 2..t.
    """
    def factor(rng: random.Random) -> int:
        return rng.randint(2, f)

    def term(rng: random.Random) -> int:
        return rng.randint(2, t)

    def product(rng: random.Random) -> Op:
        return _op("*", factor(rng), factor(rng))

    def quotient(rng: random.Random, low_q: int = 2) -> Op:
        q, d = rng.randint(low_q, f), factor(rng)
        return _op("/", q * d, d)

    def add_product(rng: random.Random) -> Node:  # 4 + 3 × 5
        return _op("+", term(rng), product(rng))

    def product_add(rng: random.Random) -> Node:  # 3 × 5 + 4
        return _op("+", product(rng), term(rng))

    def subtract_product(rng: random.Random) -> Node:  # 20 − 3 × 5
        p = product(rng)
        return _op("-", p.value + rng.randint(1, t), p)

    def product_subtract(rng: random.Random) -> Node:  # 3 × 5 − 4
        p = product(rng)
        return _op("-", p, rng.randint(2, min(p.value - 1, t)))

    def add_quotient(rng: random.Random) -> Node:  # 4 + 12 ÷ 3
        return _op("+", term(rng), quotient(rng))

    def quotient_add(rng: random.Random) -> Node:  # 12 ÷ 3 + 4
        return _op("+", quotient(rng), term(rng))

    def subtract_quotient(rng: random.Random) -> Node:  # 9 − 12 ÷ 3
        q = quotient(rng)
        return _op("-", q.value + rng.randint(1, t), q)

    def quotient_subtract(rng: random.Random) -> Node:  # 12 ÷ 3 − 2
        q = quotient(rng, low_q=3)
        return _op("-", q, rng.randint(2, q.value - 1))

    def left_to_right_sum(rng: random.Random) -> Node:  # 15 − 6 + 2 is 11, not 7
        a = rng.randint(10, max(10, 2 * t))
        return _op("+", _op("-", a, rng.randint(2, a - 1)), term(rng))

    def left_to_right_product(rng: random.Random) -> Node:  # 12 ÷ 3 × 2 is 8, not 2
        return _op("*", quotient(rng), factor(rng))

    return [add_product, product_add, subtract_product, product_subtract, add_quotient,
            quotient_add, subtract_quotient, quotient_subtract, left_to_right_sum,
            left_to_right_product]


def _parentheses_forms(f: int, t: int) -> list[Builder]:
    """Two steps where parentheses change the order: the bracket first."""
    def factor(rng: random.Random) -> int:
        return rng.randint(2, f)

    def term(rng: random.Random) -> int:
        return rng.randint(2, t)

    def small_sum(rng: random.Random) -> Op:  # a sum that is still a table factor
        s = rng.randint(4, f + 2)
        a = rng.randint(2, s - 2)
        return _op("+", a, s - a)

    def small_difference(rng: random.Random) -> Op:
        b = term(rng)
        return _op("-", b + rng.randint(2, f), b)

    def sum_times(rng: random.Random) -> Node:  # (4 + 3) × 5
        return _op("*", small_sum(rng), factor(rng))

    def times_sum(rng: random.Random) -> Node:  # 5 × (4 + 3)
        return _op("*", factor(rng), small_sum(rng))

    def difference_times(rng: random.Random) -> Node:  # (12 − 7) × 3
        return _op("*", small_difference(rng), factor(rng))

    def times_difference(rng: random.Random) -> Node:  # 3 × (12 − 7)
        return _op("*", factor(rng), small_difference(rng))

    def sum_divided(rng: random.Random) -> Node:  # (9 + 6) ÷ 3
        d = factor(rng)
        s = rng.randint(2, f) * d
        a = rng.randint(2, s - 2)
        return _op("/", _op("+", a, s - a), d)

    def difference_divided(rng: random.Random) -> Node:  # (23 − 8) ÷ 5
        d = factor(rng)
        b = term(rng)
        return _op("/", _op("-", rng.randint(2, f) * d + b, b), d)

    def divided_by_sum(rng: random.Random) -> Node:  # 35 ÷ (2 + 5)
        s = small_sum(rng)
        return _op("/", rng.randint(2, f) * s.value, s)

    def divided_by_difference(rng: random.Random) -> Node:  # 24 ÷ (11 − 5)
        s = small_difference(rng)
        return _op("/", rng.randint(2, f) * s.value, s)

    def minus_sum(rng: random.Random) -> Node:  # 30 − (8 + 5)
        s = _op("+", term(rng), term(rng))
        return _op("-", s.value + rng.randint(1, t), s)

    def minus_difference(rng: random.Random) -> Node:  # 20 − (9 − 4)
        b = rng.randint(5, max(5, t))
        s = _op("-", b, rng.randint(2, b - 1))
        return _op("-", s.value + rng.randint(1, t), s)

    return [sum_times, times_sum, difference_times, times_difference, sum_divided,
            difference_divided, divided_by_sum, divided_by_difference, minus_sum,
            minus_difference]


def _forms(topic: str, forms: list[Builder], weight: int = 1) -> list[tuple[str, Builder]]:
    return [(topic, form) for form in forms] * weight


def _topic(topic: str, forms: list[Builder]) -> tuple[str, Builder]:
    """One entry for a topic, whatever its number of forms (each topic equally likely)."""
    def build(rng: random.Random) -> Node:
        return rng.choice(forms)(rng)
    return (topic, build)


@dataclass(frozen=True, slots=True)
class Level:
    number: int
    name: str
    entries: tuple[tuple[str, Builder], ...]  # drawn uniformly: (topic, builder)

    @property
    def topics(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(topic for topic, _ in self.entries))


LEVELS: dict[int, Level] = {
    level.number: level for level in (
        Level(1, "Sums within 20", (
            (ADDITION, _sum(2, 18, 20)),
        )),
        Level(2, "Sums and differences within 20", (
            (ADDITION, _sum(2, 18, 20)),
            (SUBTRACTION, _difference(5, 20)),
        )),
        Level(3, "Within 100 and small tables", (
            (ADDITION, _sum(11, 89, 100)),
            (SUBTRACTION, _difference(21, 100)),
            (MULTIPLICATION, _product(2, 5, 2, 10)),
        )),
        Level(4, "Tables to 10 and exact division", (
            (MULTIPLICATION, _product(2, 10, 2, 10)),
            (DIVISION, _quotient(2, 10, 2, 10)),
        )),
        Level(5, "Squares and tables to 12", (
            (SQUARES, _square(2, 15)),
            (MULTIPLICATION, _product(2, 12, 2, 12, distinct=True)),
            (DIVISION, _quotient(2, 12, 2, 12)),
        )),
        Level(6, "Two steps: × and ÷ before + and −", tuple(
            _forms(PRIORITY, _priority_forms(10, 30)))),
        Level(7, "Two steps with parentheses", tuple(
            _forms(PARENTHESES, _parentheses_forms(10, 30), weight=2)
            + _forms(PRIORITY, _priority_forms(10, 30)))),
        Level(8, "Mixed review, larger numbers", (
            (ADDITION, _sum(101, 888, 1000, low_b=12)),
            (SUBTRACTION, _difference(101, 1000, low_b=12)),
            (MULTIPLICATION, _product(12, 99, 2, 9)),
            (DIVISION, _long_quotient),
            (SQUARES, _square(11, 20)),
            _topic(PRIORITY, _priority_forms(12, 100)),
            _topic(PARENTHESES, _parentheses_forms(12, 100)),
        )),
    )
}


def check_level(level: Any) -> int:
    """The level as an int, or a domain error naming the levels that exist."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise DomainError("focus.unknown_level",
                          f"there is no Focus level {level!r}: levels go from {MIN_LEVEL} to "
                          f"{MAX_LEVEL}", level=level, min=MIN_LEVEL, max=MAX_LEVEL)
    return level


def level_for_match_round(round: int) -> int:
    """The Focus level of round ``round`` (1 upward) of a match of The 20 Digits.

    The rulings' ramp, in step with the shop tiers (which open at rounds 1, 3, 5, 7): sums within
    20 first; then within 100 and small tables; tables to 10 and exact division; then two-step
    expressions with priority of operations, with parentheses from round 11.
    """
    if isinstance(round, bool) or not isinstance(round, int) or round < 1:
        raise ValueError(f"a match round is a whole number from 1, not {round!r}")
    if round <= 2:
        return 1
    if round <= 4:
        return 3
    if round <= 6:
        return 4
    if round <= 10:
        return 6
    return 7


# Plenty for the rarest case (the last distinct question of a 50-question sample at level 1);
# reaching it means the level cannot give that many different questions.
_ATTEMPTS = 20_000


def _draw(level: Level, rng: random.Random, seen: set[str]) -> Question:
    for _ in range(_ATTEMPTS):
        topic, build = rng.choice(level.entries)
        tree = build(rng)
        key = _key(tree)
        if key in seen:
            continue
        seen.add(key)
        return Question(text=_render(tree, _SIGN), ascii=_render(tree, _ASCII),
                        answer=tree.value, topic=topic, level=level.number)
    raise DomainError("focus.too_many_questions",
                      f"level {level.number} cannot give that many different questions",
                      level=level.number)


MAX_COUNT = 50


def generate_for_levels(levels: Sequence[int], rng: random.Random) -> list[Question]:
    """One question per entry of ``levels`` (each at that level), all different."""
    if len(levels) > MAX_COUNT:
        raise DomainError("focus.too_many_questions",
                          f"at most {MAX_COUNT} questions at a time", count=len(levels),
                          max=MAX_COUNT)
    seen: set[str] = set()
    return [_draw(LEVELS[check_level(level)], rng, seen) for level in levels]


def generate_questions(level: int, count: int, rng: random.Random) -> list[Question]:
    """``count`` different questions of one level, the same for the same RNG state."""
    check_level(level)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise DomainError("focus.bad_count",
                          f"the number of questions goes from 1 to {MAX_COUNT}, not {count!r}",
                          count=count, max=MAX_COUNT)
    return generate_for_levels([level] * count, rng)
