"""Reading the answers of the skills whose answers are decimals or fractions
(``bot.focus.answers.read_exact``): each accepted form, each refused one, and what the refusal
says in both languages (the form it expects)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.domain import DomainError
from bot.focus.answers import read_exact, read_for
from bot.focus.exact import DECIMAL, FRACTION, LOWEST, WHOLE, parse_exact
from bot.focus.questions import Question
from bot.i18n import error_text

F = Fraction

# Read the same for a decimal and for a fraction question: a value is a value.
VALUES = [
    ("0.75", F(3, 4)), ("0,75", F(3, 4)), (" 0,75 ", F(3, 4)), (".75", F(3, 4)), (",5", F(1, 2)),
    ("3/4", F(3, 4)), ("6/8", F(3, 4)), ("3 / 4", F(3, 4)), ("3⁄4", F(3, 4)), ("３/４", F(3, 4)),
    ("-5/2", F(-5, 2)), ("−5/2", F(-5, 2)), ("– 5/2", F(-5, 2)), ("- 2,5", F(-5, 2)),
    ("−2.5", F(-5, 2)), ("+0.5", F(1, 2)), ("12", 12), ("-7", -7), ("−7", -7), ("4/2", 2),
    ("12.", 12), ("12,50", F(25, 2)), ("1 000,5", F(2001, 2)), ("0.125", F(1, 8)),
    ("0", 0), ("0/5", 0), ("1\u00a0000,5", F(2001, 2)), ("1\u202f000.25", F(4001, 4)),
    ("1\u2009000,5", F(2001, 2)),
]


@pytest.mark.parametrize("form", [DECIMAL, FRACTION])
@pytest.mark.parametrize(("typed", "value"), VALUES)
def test_a_value_is_read_exactly_whatever_its_writing(form: str, typed: str, value) -> None:
    got = read_exact(typed, form)
    assert got == value and type(got) is type(value)  # an int when whole, never a float


LOWEST_ACCEPTED = [("3/4", F(3, 4)), ("−5/2", F(-5, 2)), ("-5/2", F(-5, 2)), (" 1 / 3 ", F(1, 3)),
                   ("7", 7), ("7/1", 7)]


@pytest.mark.parametrize(("typed", "value"), LOWEST_ACCEPTED)
def test_a_fraction_in_lowest_terms_is_read_for_a_simplification(typed: str, value) -> None:
    assert read_exact(typed, LOWEST) == value


REFUSED = [
    # (typed, form, code)
    ("", DECIMAL, "focus.empty_decimal"), ("  ", FRACTION, "focus.empty_fraction"),
    ("", LOWEST, "focus.empty_lowest"),
    ("abc", DECIMAL, "focus.not_a_decimal"), ("1,000.5", DECIMAL, "focus.not_a_decimal"),
    ("0.7.5", DECIMAL, "focus.not_a_decimal"), ("1 1/2", DECIMAL, "focus.not_a_decimal"),
    ("3,4,5", DECIMAL, "focus.not_a_decimal"), ("1 00,5", DECIMAL, "focus.not_a_decimal"),
    ("3/4/5", DECIMAL, "focus.not_a_decimal"), ("0.75%", DECIMAL, "focus.not_a_decimal"),
    ("3 ÷ 4 × 2", FRACTION, "focus.not_a_fraction"), ("trois quarts", FRACTION,
                                                       "focus.not_a_fraction"),
    ("1 1/2", FRACTION, "focus.not_a_fraction"), ("3/-4", FRACTION, "focus.not_a_fraction"),
    ("3/0", FRACTION, "focus.zero_denominator"), ("−1/0", DECIMAL, "focus.zero_denominator"),
    ("6/8", LOWEST, "focus.not_lowest"), ("12/16", LOWEST, "focus.not_lowest"),
    ("-2/4", LOWEST, "focus.not_lowest"), ("0.75", LOWEST, "focus.lowest_expected"),
    ("0,75", LOWEST, "focus.lowest_expected"), ("abc", LOWEST, "focus.lowest_expected"),
    ("1" * 13, DECIMAL, "focus.too_long"), ("1" * 41, FRACTION, "focus.too_long"),
]


@pytest.mark.parametrize(("typed", "form", "code"), REFUSED)
def test_a_refusal_says_which_form_is_expected_in_both_languages(typed: str, form: str,
                                                                 code: str) -> None:
    with pytest.raises(DomainError) as refused:
        read_exact(typed, form)
    assert refused.value.code == code
    en, fr = error_text(refused.value, "en"), error_text(refused.value, "fr")
    assert en != fr and "{" not in en + fr
    if code.startswith(("focus.empty", "focus.not_a", "focus.lowest")):
        # The expected form, as an example of it, in the member's own way of writing it.
        example_en = {DECIMAL: "0.75", FRACTION: "3/4", LOWEST: "3/4"}[form]
        example_fr = {DECIMAL: "0,75", FRACTION: "3/4", LOWEST: "3/4"}[form]
        assert example_en in en and example_fr in fr
    if code in ("focus.not_lowest", "focus.lowest_expected"):
        assert "lowest terms" in en and "irréductible" in fr
    if code == "focus.zero_denominator":
        assert "denominator" in en and "dénominateur" in fr


def test_whole_number_questions_read_as_before() -> None:
    q = Question("−8 + 3", "-8 + 3", -5, "negatives", 5, skill="negatives-add")
    assert read_for(q, "−5") == -5 and read_for(q, "-5") == -5 and read_for(q, "- 5") == -5
    with pytest.raises(DomainError) as refused:
        read_for(q, "0,5")
    assert refused.value.code == "focus.not_whole"  # the eight levels' own refusal
    assert read_exact("1,000", WHOLE) == 1000  # a whole number: a comma groups thousands
    assert read_exact("1,000", DECIMAL) == 1  # a decimal question: a comma is the mark


def test_a_fraction_question_is_marked_on_its_value() -> None:
    from bot.focus.round import FocusRound
    q = Question("1/2 + 1/4", "1/2 + 1/4", F(3, 4), "fractions", 5, skill="fractions-add",
                 form=FRACTION)
    simplify = Question("6/8", "6/8", F(3, 4), "fractions", 5, skill="fractions-simplify",
                        form=LOWEST)
    rnd = FocusRound([q, q, simplify])
    assert rnd.answer("6/8", 2.0).correct  # any equivalent fraction
    assert rnd.answer("0,75", 2.0).correct and rnd.answers[-1].given == F(3, 4)
    with pytest.raises(DomainError):
        rnd.answer("6/8", 1.0)  # not in lowest terms: nothing counted
    assert rnd.index == 2
    assert not rnd.answer("2/3", 3.0).correct
    again = FocusRound.from_json(rnd.to_json())
    assert again == rnd and again.answers[0].given == F(3, 4)
    assert again.answers[2].form == LOWEST and again.answers[2].skill == "fractions-simplify"
    assert rnd.to_json()["answers"][2]["expected"] == "3/4"


def test_canonical_texts_are_read_back_and_nothing_else() -> None:
    assert parse_exact("3/4") == F(3, 4) and parse_exact("-0.75") == F(-3, 4)
    assert parse_exact("12") == 12 and parse_exact(12) == 12
    for bad in ("0,75", " 3/4", "3/0", "1e3", "", "--1", True):
        with pytest.raises(ValueError):
            parse_exact(bad)  # type: ignore[arg-type]
