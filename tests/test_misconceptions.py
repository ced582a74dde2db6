"""Known mistakes: each is recognised from an answer that makes it, and not from others."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest

from bot.focus import misconceptions as m
from bot.focus.misconceptions import MISTAKES, mistake
from bot.focus.skills import SKILLS, generate_skill
from bot.texts import has

CASES = [
    # The five.
    ("fractions-add", "1/2 + 1/3", F(5, 6), F(2, 5), "fraction", m.FRACTION_PARTS),
    ("fractions-add", "3/4 + 1/4", 1, F(4, 8), "fraction", m.FRACTION_PARTS),
    ("negatives-subtract", "−3 − 5", -8, 2, "whole", m.SIGN),
    ("negatives-subtract", "−3 − 5", -8, -2, "whole", m.SIGN),
    ("decimals-multiply", "0.3 × 0.2", F(6, 100), F(6, 10), "decimal", m.DECIMAL_POINT),
    ("priority", "2 + 3 × 4", 14, 20, "whole", m.LEFT_TO_RIGHT),
    ("percentages", "10 % × 190", 19, F(19, 10), "whole", m.PERCENT_HUNDRED),
    # One of each skill where one is classic.
    ("addition", "38 + 45", 83, 73, "whole", m.CARRY),
    ("subtraction", "52 − 27", 25, 35, "whole", m.SMALLER_FROM_LARGER),
    ("multiplication", "6 × 8", 48, 14, "whole", m.ADDED_NOT_MULTIPLIED),
    ("squares", "7 × 7", 49, 14, "whole", m.ADDED_NOT_MULTIPLIED),
    ("parentheses", "(19 − 12) × 12", 84, -125, "whole", m.BRACKETS_IGNORED),
    ("priority", "66 − 36 + 2 × 3", 36, 96, "whole", m.LEFT_TO_RIGHT),
    ("missing-addition", "? + 3 = 14", 11, 17, "whole", m.WRONG_INVERSE),
    ("missing-subtraction", "71 − ? = 30", 41, 101, "whole", m.WRONG_INVERSE),
    ("missing-multiplication", "? × 7 = 21", 3, 147, "whole", m.WRONG_INVERSE),
    ("missing-division", "? ÷ 2 = 4", 8, 2, "whole", m.WRONG_INVERSE),
    ("negatives-add", "2 + (−8)", -6, 10, "whole", m.SIGN),
    ("negatives-add", "−13 + (−11)", -24, 24, "whole", m.SIGN),
    ("negatives-multiply", "−3 × 2", -6, 6, "whole", m.SIGN),
    ("negatives-divide", "−20 ÷ (−5)", 4, -4, "whole", m.SIGN),
    ("negatives-priority", "3 + (−4) × 2", -5, -2, "whole", m.LEFT_TO_RIGHT),
    ("decimals-add", "4.4 + 3.7", F(81, 10), F(711, 100), "decimal", m.DECIMAL_PARTS),
    ("decimals-add", "8.34 + 4.8", F(1314, 100), F(882, 100), "decimal", m.DECIMAL_POINT),
    ("decimals-subtract", "5.3 − 4.2", F(11, 10), 11, "decimal", m.DECIMAL_POINT),
    ("decimals-times-ten", "3.5 × 10", 35, F(7, 2), "decimal", m.TENS_ZERO),
    ("decimals-times-ten", "0.44 × 100", 44, F(44, 10), "decimal", m.DECIMAL_POINT),
    ("fractions-subtract", "5/8 − 2/4", F(1, 8), F(3, 4), "fraction", m.FRACTION_PARTS),
    ("fractions-simplify", "6/8", F(3, 4), F(3, 4), "lowest", m.NOT_LOWEST),
    ("fractions-of", "2/3 × 15", 10, 5, "whole", m.DENOMINATOR_ONLY),
    ("percentages", "25 % × 40", 10, F(2, 5), "whole", m.PERCENT_HUNDRED),
    ("percentages", "20 % × 40", 8, 2, "whole", m.PERCENT_DIVIDE),
    # As the questions read now ("of"); the older "×" above still reads.
    ("fractions-of", "2/3 of 15", 10, 5, "whole", m.DENOMINATOR_ONLY),
    ("percentages", "10 % of 190", 19, F(19, 10), "whole", m.PERCENT_HUNDRED),
    ("percentages", "20 % of 40", 8, 2, "whole", m.PERCENT_DIVIDE),
    ("powers", "3⁴", 81, 12, "whole", m.POWER_TIMES),
    ("powers", "(−1)⁵", -1, 1, "whole", m.SIGN),
    ("square-roots", "√64", 8, 32, "whole", m.ROOT_HALF),
]


@pytest.mark.parametrize(("skill", "text", "expected", "given", "form", "named"), CASES)
def test_each_known_mistake_is_recognised(skill, text, expected, given, form, named):
    assert mistake(skill, text, expected, given, form) == named
    assert mistake(skill, text + " =", expected, given, form) == named  # as the form asks


@pytest.mark.parametrize(("skill", "text", "expected", "given", "form", "named"), CASES)
def test_the_right_answer_and_no_answer_are_no_mistake(skill, text, expected, given, form,
                                                       named):
    if form != "lowest":  # a "lowest" question's right value, not simplified, is the mistake
        assert mistake(skill, text, expected, expected, form) is None
    assert mistake(skill, text, expected, None, form) is None


@pytest.mark.parametrize(("skill", "text", "expected", "given"), [
    ("addition", "38 + 45", 83, 84),  # one off: a slip, no known mistake
    ("negatives-subtract", "−3 − 5", -8, 7),
    ("fractions-add", "1/2 + 1/3", F(5, 6), F(1, 2)),
    ("priority", "2 + 3 × 4", 14, 15),
    ("addition", "What is 2 + 3?", 5, 6),  # a teacher's own text that does not read
    ("percentages", "10 % × 190", 19, 190),
])
def test_other_wrong_answers_name_no_mistake(skill, text, expected, given):
    assert mistake(skill, text, expected, given) is None


def test_every_mistake_is_named_in_both_languages():
    for name in MISTAKES:
        for lang in ("en", "fr"):
            assert has(f"misconceptions.{name}", lang), (name, lang)


CLASSIC = {  # a mistake made on each skill's own questions, by construction below
    "addition", "subtraction", "multiplication", "squares", "priority", "parentheses",
    "missing-addition", "missing-subtraction", "missing-multiplication", "missing-division",
    "negatives-add", "negatives-subtract", "negatives-multiply", "negatives-divide",
    "negatives-priority", "decimals-add", "decimals-subtract", "decimals-times-ten",
    "decimals-multiply", "fractions-simplify", "fractions-add", "fractions-subtract",
    "fractions-of", "percentages", "powers", "square-roots"}


def test_the_builders_questions_of_each_classic_skill_show_a_known_mistake():
    """Questions as the skills build them (not hand-written): for each skill with a classic
    mistake, a wrong answer that some known mistake makes is found and named."""
    assert set(SKILLS) >= CLASSIC
    rng = random.Random(27)
    for skill in sorted(CLASSIC):
        named: set[str] = set()
        for level in SKILLS[skill].levels:
            batches = (generate_skill(skill, level.number, 4, rng) for _ in range(5))
            for question in (q for batch in batches for q in batch):
                # A "lowest" question's right value is wrong when not simplified: marked wrong.
                same = [F(question.answer)] if question.form == "lowest" else []
                for wrong in _wrong_answers(question.answer) + same:
                    found = mistake(skill, question.text, question.answer, wrong, question.form)
                    if found:
                        named.add(found)
        assert named, skill


def _wrong_answers(answer: int | F) -> list[F]:
    # Every value a known mistake of a small question can give: near the answer, its sign
    # flipped, its point moved, and small fractions and whole numbers.
    a = F(answer)
    near = [a * 10, a / 10, a * 100, a / 100, -a, F(1, 2) * a, 2 * a]
    return [v for v in near + [F(n, d) for n in range(-200, 201) for d in (1, 2, 5, 10)]
            if v != a]
