"""Worked corrections (``bot.focus.steps``, worded by ``bot.corrections``): every skill's steps,
checked by evaluating them — each equality a step states holds (exactly: ints and Fraction), and
the steps end at the question's answer — over many seeded questions of every level of every
skill; and how they read in English and French."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from bot.corrections import is_missing, step_texts, worked
from bot.focus.questions import LEVELS, generate_questions
from bot.focus.skills import SKILLS
from bot.focus.steps import Bin, Hole, Num, Step, frac, num, parse, result, steps, value, write
from bot.texts import has, plural_categories
from tests.french import fr

SEEDS = 60
#: The keys the steps use, each worded in both languages (a plural one in its forms).
KEYS = ("chain", "because", "first", "then", "minus_negative", "plus_negative", "line_right",
        "line_left", "then_right", "then_left", "signs_same", "signs_differ", "in_tenths",
        "in_hundredths", "shift_left", "shift_right", "simplify", "simplify_by",
        "same_denominator_add", "same_denominator_subtract", "missing")


def _checked(found: tuple[Step, ...], answer: int | Fraction) -> None:
    assert 1 <= len(found) <= 3, found  # a child reads it: one to three steps
    for step in found:
        assert step.key in KEYS
        for left, right in step.equalities():
            assert value(left, answer) == value(right, answer), (write(left), write(right))
    assert result(found) == Fraction(answer)


@pytest.mark.parametrize("skill", list(SKILLS))
def test_every_level_of_every_skill_has_steps_that_are_true_and_end_at_the_answer(
        skill: str) -> None:
    keys: set[str] = set()
    for level in SKILLS[skill].levels:
        for seed in range(SEEDS):
            made = level.build(random.Random(f"{skill}:{level.number}:{seed}"))
            found = steps(skill, made.text, made.answer)
            assert found is not None, (skill, level.number, made.text)
            _checked(found, made.answer)
            keys |= {s.key for s in found}
            # The words too: every step worded in both languages, no placeholder left.
            for lang in ("en", "fr"):
                for text in step_texts(found, lang):
                    assert "{" not in text and "focus_steps" not in text, text
    assert keys  # the skill was worked at least once


def test_the_eight_levels_questions_have_steps_too() -> None:
    for level in LEVELS:
        for q in generate_questions(level, 30, random.Random(level)):
            found = steps(q.skill, q.text, q.answer)
            assert found is not None, q.text
            _checked(found, q.answer)


def test_the_steps_read_as_a_class_writes_them() -> None:
    assert worked("fractions-subtract", "3/4 − 1/4", Fraction(1, 2), "en") == \
        "3/4 − 1/4 = 2/4 = 1/2 (simplify by 2)"
    assert worked("fractions-subtract", "3/4 − 1/4", Fraction(1, 2), "fr") == \
        "3/4 − 1/4 = 2/4 = 1/2 (simplifie par 2)"
    assert worked("fractions-add", "1/5 + 3/5", Fraction(4, 5), "en") == \
        "1/5 + 3/5 = 4/5 (same denominator: add the numerators)"
    assert worked("negatives-subtract", "−3 − 5", -8, "en") == \
        "−3 − 5: start at −3, go 5 to the left: −8"
    assert worked("percentages", "25 % of 80", 20, "en") == "25 % of 80 = 80 ÷ 4 = 20"
    assert worked("percentages", "25 % of 80", 20, "fr") == "25 % de 80 = 80 ÷ 4 = 20"
    # A question stored before "of" (``25 % × 80``) is worked the same way.
    assert worked("percentages", "25 % × 80", 20, "en") == "25 % of 80 = 80 ÷ 4 = 20"
    assert worked("missing-multiplication", "12 × ? = 96", 8, "en") == \
        "12 × ? = 96 → ? = 96 ÷ 12 = 8"
    assert worked("priority", "2 + 3 × 4", 14, "en") == \
        "2 + 3 × 4: first 3 × 4 = 12, then 2 + 12 = 14"
    assert worked("priority", "2 + 3 × 4", 14, "fr") == \
        fr("2 + 3 × 4 : d'abord 3 × 4 = 12, puis 2 + 12 = 14")
    assert worked("square-roots", "√49", 7, "en") == "√49 = 7 because 7 × 7 = 49"
    assert worked("fractions-of", "2/3 of 18", 12, "en") == "2/3 of 18 = 18 ÷ 3 × 2 = 6 × 2 = 12"
    assert worked("decimals-subtract", "22.4 − 5.3", Fraction(171, 10), "fr") == \
        fr("22,4 − 5,3 : en dixièmes, 224 − 53 = 171, donc 22,4 − 5,3 = 17,1")
    assert worked("decimals-times-ten", "3.45 × 100", 345, "en") == \
        "3.45 × 100 = 345: × 100 moves each digit 2 places to the left"
    assert worked("negatives-multiply", "−4 × 6", -24, "en") == (
        "−4 × 6: different signs, so the result is negative; 4 × 6 = 24, so −4 × 6 = −24")
    assert worked("powers", "(−2)³", -8, "en") == "(−2)³ = −2 × (−2) × (−2) = −8"
    assert worked("addition", "8 + 5", 13, "en") == "8 + 5 = 8 + 2 + 3 = 10 + 3 = 13"
    assert worked("multiplication", "7 × 8", 56, "en") == "7 × 8 = 7 × 5 + 7 × 3 = 35 + 21 = 56"
    assert worked("division", "56 ÷ 7", 8, "en") == "56 ÷ 7 = 8 because 7 × 8 = 56"


def test_no_steps_rather_than_wrong_steps() -> None:
    # A teacher's own question, or an answer that is not the text's: nothing is said.
    assert steps("addition", "How much is 3 × 4?", 12) is None
    assert steps("multiplication", "3 × 4", 13) is None
    assert steps("percentages", "25 % of 80", 21) is None
    assert steps("fractions-add", "", 1) is None
    assert worked("Géométrie", "Combien de côtés a un carré ?", 4, "fr") is None
    assert parse("2 +") is None and parse("3 × (4") is None


def test_the_expressions_evaluate_and_write_exactly() -> None:
    assert write(Bin("-", num(5), num(-3))) == "5 − (−3)"
    assert write(Bin("*", Bin("+", num(2), num(3)), num(4))) == "(2 + 3) × 4"
    assert value(frac(2, 4)) == Fraction(1, 2) and write(frac(2, 4)) == "2/4"
    assert write(num(Fraction(3, 4), decimal=True)) == "0.75"
    assert value(Bin("*", Hole(), num(12)), 8) == 96
    assert isinstance(parse("12 × ? = 96")[0], Bin)  # type: ignore[index]
    assert parse("50 % of 178") is not None and value(parse("50 % of 178")[0]) == 89  # type: ignore[index]
    assert value(Num(Fraction(-3), "3")) == -3


def test_the_words_exist_in_both_languages() -> None:
    for lang in ("en", "fr"):
        for key in KEYS:
            forms = [f"focus_steps.{key}"] if key not in ("shift_left", "shift_right") else [
                f"focus_steps.{key}.{form}" for form in plural_categories(lang)]
            for name in forms:
                assert has(name, lang), (lang, name)
    assert is_missing("12 × ? = 96") and is_missing("? + 5 = 12") and not is_missing("7 + 8")
    assert not is_missing("3 × 4 = ?") and not is_missing("How much is 3 × 4?")


def test_a_long_round_s_summary_keeps_every_line_and_the_steps_that_fit() -> None:
    from bot.focus import FocusRound
    from bot.focus.skills import generate_skill
    from bot.replies import EMBED_DESCRIPTION
    from bot.ui.focus_run import answer_line, summary_embed
    questions = generate_skill("negatives-priority", 2, 20, random.Random(3))
    round = FocusRound(questions)
    for q in questions:
        round.submit(q.answer + 1, 2.0)  # all wrong: twenty corrections with their steps
    for lang in ("en", "fr"):
        text = summary_embed(round, lang).description or ""
        assert len(text) <= EMBED_DESCRIPTION
        for i, answer in enumerate(round.answers):
            assert answer_line(i, answer, lang, steps=False) in text  # no line cut
        assert text.count("↳ ") >= 5  # the steps of as many as fit
    # A short round shows every correction's steps.
    short = FocusRound(questions[:6])
    for q in questions[:6]:
        short.submit(q.answer + 1, 2.0)
    assert (summary_embed(short, "en").description or "").count("↳ ") == 6
