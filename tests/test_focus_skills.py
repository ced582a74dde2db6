"""The skills of ``bot.focus.skills``: every question's answer recomputed here from its ASCII text
by an evaluator of this file's own (exact fractions, the school's order of operations), the texts
well formed, the levels ordered by difficulty, the same questions for the same seed."""

from __future__ import annotations

import itertools
import math
import random
import re
import statistics
from collections.abc import Callable
from fractions import Fraction

import pytest

from bot.domain import DomainError
from bot.focus import ROUND_SIZE, Question
from bot.focus.exact import DECIMAL, FRACTION, LOWEST, WHOLE, decimal_text, json_answer
from bot.focus.questions import LEVELS, TOPICS
from bot.focus.skills import ALL_TOPICS, SKILLS, check_skill, draw, generate_skill

SAMPLES = 300
REFS = [(skill.id, level.number) for skill in SKILLS.values() for level in skill.levels]


# --- an evaluator of this test's own: exact, never eval -----------------------------------------

_TOKEN = re.compile(r"\s*(sqrt\(|[0-9]+(?:\.[0-9]+)?|[-+*/^()%?=])")


def _tokens(text: str) -> list[str]:
    out, at = [], 0
    while at < len(text.rstrip()):
        m = _TOKEN.match(text, at)
        assert m is not None, f"cannot read {text!r} at {text[at:]!r}"
        out.append(m[1])
        at = m.end()
    return out


def evaluate(text: str) -> Fraction:
    """The value of an ASCII question: + - * / with the school's priorities, ^ (right to left),
    sqrt( ) of a perfect square, a postfix % (hundredths), unary minus."""
    tokens = _tokens(text)
    at = 0

    def peek() -> str | None:
        return tokens[at] if at < len(tokens) else None

    def take() -> str:
        nonlocal at
        at += 1
        return tokens[at - 1]

    def atom() -> Fraction:
        token = take()
        if token == "(":
            value = expression()
            assert take() == ")"
            return value
        if token == "sqrt(":
            inside = expression()
            assert take() == ")"
            root = math.isqrt(int(inside))
            assert inside.denominator == 1 and root * root == inside, text
            return Fraction(root)
        if token == "-":
            return -power()
        return Fraction(token)  # "12" or "0.75", exactly

    def power() -> Fraction:
        base = atom()
        if peek() == "%":
            take()
            base /= 100
        if peek() == "^":
            take()
            exponent = power()
            assert exponent.denominator == 1
            return base ** int(exponent)
        return base

    def term() -> Fraction:
        value = power()
        while peek() in ("*", "/"):
            op, right = take(), power()
            value = value * right if op == "*" else value / right
        return value

    def expression() -> Fraction:
        value = term()
        while peek() in ("+", "-"):
            op, right = take(), term()
            value = value + right if op == "+" else value - right
        return value

    value = expression()
    assert at == len(tokens), f"{text!r}: {tokens[at:]} left over"
    return value


def check_answer(question: Question) -> None:
    """The answer recomputed from the ASCII text: a missing number makes both sides equal (and
    only it: the sides are linear in it), a fraction to simplify keeps its value."""
    text = question.ascii
    if "?" in text:
        left, right = text.split("=")
        assert evaluate(left.replace("?", f"({question.answer})")) == evaluate(right)
        assert evaluate(left.replace("?", f"({question.answer} + 1)")) != evaluate(right)
        return
    assert evaluate(text) == question.answer, question
    if question.form == LOWEST:
        top, bottom = (int(x) for x in text.split("/"))
        assert math.gcd(top, bottom) > 1, f"{text} is already in lowest terms"
        assert isinstance(question.answer, Fraction) and question.answer.denominator > 1


def sample(skill: str, level: int, seed: int = 11, count: int = SAMPLES) -> list[Question]:
    """Many questions of one level, not all different (each drawn on its own)."""
    rng = random.Random(seed)
    built = SKILLS[skill].level(level).build
    out = []
    for _ in range(count):
        m = built(rng)
        out.append(Question(text=m.text, ascii=m.ascii, answer=m.answer,
                            topic=SKILLS[skill].topic, level=SKILLS[skill].level(level).tier,
                            skill=skill, form=SKILLS[skill].form))
    return out


# --- generation ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("skill", "level"), REFS)
def test_every_answer_is_exact_and_recomputed_from_the_text(skill: str, level: int) -> None:
    for question in sample(skill, level):
        assert isinstance(question.answer, int | Fraction) and not isinstance(question.answer, bool)
        if isinstance(question.answer, Fraction):
            assert question.answer.denominator > 1  # a whole answer is an int
        check_answer(question)


#: The school's signs, and "of" for a part of a number (``2/3 of 18``, ``25 % of 80``).
_SCHOOL = re.compile(r"(?:[0-9 +−×÷()?=/.%√⁰¹²³⁴⁵⁶⁷⁸⁹]| of )+")
_ASCII = re.compile(r"[0-9 +\-*/()?=.%^a-z]+")


@pytest.mark.parametrize(("skill", "level"), REFS)
def test_texts_are_well_formed(skill: str, level: int) -> None:
    for q in sample(skill, level, count=100):
        assert _SCHOOL.fullmatch(q.text), q.text
        assert _ASCII.fullmatch(q.ascii), q.ascii
        assert "-" not in q.text and "*" not in q.text and "  " not in q.text
        # A negative number after a sign is bracketed: "5 − (−3)", never "5 − −3".
        assert not re.search(r"[+−×÷=] −", q.text), q.text
        # Decimals with a point and digits on both sides; no float artefacts.
        for number in re.findall(r"[0-9.]+", q.text):
            assert re.fullmatch(r"[0-9]+(\.[0-9]*[1-9])?", number), (q.text, number)
        assert q.text.count("(") == q.text.count(")")
        assert ("?" in q.text) == q.skill.startswith("missing-")
        # A part of a number is written as a class writes it: "2/3 of 18", "25 % of 80".
        assert (" of " in q.text) == (q.skill in ("fractions-of", "percentages")), q.text
        assert q.text.count("?") <= 1 and q.text.count("=") == q.text.count("?")
        if q.form == DECIMAL:  # a decimal asked, or one to find (525 ÷ 100)
            assert "." in q.text or isinstance(q.answer, Fraction)
        if q.skill.startswith("negatives-"):
            assert q.text.startswith("−") or "(−" in q.text  # a negative number in it


def _digits(q: Question) -> float:
    return sum(len(re.sub(r"\D", "", n)) for n in re.findall(r"[0-9][0-9.]*", q.ascii))


def _lcm_of_denominators(q: Question) -> float:
    return math.lcm(*(int(d) for d in re.findall(r"/([0-9]+)", q.ascii)))


def _steps(q: Question) -> float:
    """Operations, a bracket that holds one counting as one more step."""
    text = re.sub(r"\(-[0-9]+\)", "n", q.ascii)  # a bracketed negative number is a number
    binary = len(re.findall(r"(?<=[0-9n)]) [-+*/] ", text))
    return binary + len(re.findall(r"\([^()]* [-+*/] [^()]*\)", text))


def _percent_numerator(q: Question) -> float:
    return Fraction(int(q.ascii.split("%")[0]), 100).numerator


# What grows from one level to the next (the default: how many digits the numbers have).
MEASURES: dict[str, Callable[[Question], float]] = {
    "negatives-priority": _steps,
    "decimals-multiply": lambda q: abs(q.answer),
    "fractions-add": _lcm_of_denominators,
    "fractions-subtract": _lcm_of_denominators,
    "percentages": _percent_numerator,
    "powers": lambda q: int(q.ascii.split("^")[1]),
    "square-roots": lambda q: q.answer,
}


@pytest.mark.parametrize("skill", list(SKILLS))
def test_levels_are_ordered_by_difficulty(skill: str) -> None:
    found = SKILLS[skill]
    assert [lv.number for lv in found.levels] == list(range(1, len(found.levels) + 1))
    tiers = [lv.tier for lv in found.levels]
    assert tiers == sorted(tiers) and all(1 <= t <= 8 for t in tiers)
    measure = MEASURES.get(skill, _digits)
    means = [statistics.mean(measure(q) for q in sample(skill, lv.number))
             for lv in found.levels]
    assert all(a < b for a, b in itertools.pairwise(means)), (skill, means)


@pytest.mark.parametrize(("skill", "level"), REFS)
def test_the_same_seed_gives_the_same_questions(skill: str, level: int) -> None:
    first = generate_skill(skill, level, ROUND_SIZE, random.Random(7))
    assert generate_skill(skill, level, ROUND_SIZE, random.Random(7)) == first
    assert len({q.ascii for q in first}) == ROUND_SIZE  # all different
    assert all(q.skill == skill and q.topic == SKILLS[skill].topic for q in first)
    others = [generate_skill(skill, level, ROUND_SIZE, random.Random(s)) for s in range(8, 12)]
    assert any(o != first for o in others)


def test_the_eight_levels_topics_are_skills_with_the_same_questions() -> None:
    assert all(topic in SKILLS and SKILLS[topic].topic == topic for topic in TOPICS)
    assert set(ALL_TOPICS) == {skill.topic for skill in SKILLS.values()}
    for topic in TOPICS:
        for lv in SKILLS[topic].levels:
            assert topic in LEVELS[lv.tier].topics
    # A question of the eight levels has its topic as skill, before and after JSON.
    q = Question("7 + 8", "7 + 8", 15, "addition", 1)
    assert q.skill == "addition" and q.form == WHOLE
    old = {"text": "7 + 8", "ascii": "7 + 8", "answer": 15, "topic": "addition", "level": 1}
    assert Question.from_json(old) == q and Question.from_json(q.to_json()) == q


def test_exact_answers_go_through_json_as_text() -> None:
    q = Question("1/2 + 1/4", "1/2 + 1/4", Fraction(3, 4), "fractions", 5,
                 skill="fractions-add", form=FRACTION)
    assert q.to_json()["answer"] == "3/4" and Question.from_json(q.to_json()) == q
    d = Question("0.5 + 0.25", "0.5 + 0.25", Fraction(3, 4), "decimals", 5,
                 skill="decimals-add", form=DECIMAL)
    assert d.to_json()["answer"] == "0.75" and Question.from_json(d.to_json()).answer == d.answer
    assert json_answer(Fraction(-5, 2), FRACTION) == "-5/2"
    assert json_answer(Fraction(6, 3), FRACTION) == 2  # whole: an int
    assert decimal_text(Fraction(-1, 8)) == "-0.125"
    with pytest.raises(ValueError):
        Question("x", "x", 1, "addition", 1, form="float")


def test_unknown_skills_and_levels_are_refused() -> None:
    with pytest.raises(DomainError) as unknown:
        check_skill("fractions-divide")
    assert unknown.value.code == "focus.unknown_skill"
    with pytest.raises(DomainError) as level:
        generate_skill("fractions-add", 4, 3, random.Random(1))
    assert level.value.code == "focus.unknown_skill_level"
    with pytest.raises(DomainError):
        generate_skill("fractions-add", 1, 51, random.Random(1))


def test_a_mixed_draw_is_asked_at_the_given_level() -> None:
    refs = [("fractions-add", 1), ("negatives-add", 2), ("decimals-add", 1)]
    questions = draw(refs, 12, random.Random(3), level=4)
    assert {q.level for q in questions} == {4}
    assert {q.skill for q in questions} == {"fractions-add", "negatives-add", "decimals-add"}
    for q in questions:
        check_answer(q)
