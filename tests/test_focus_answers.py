"""Reading typed answers: what is accepted, what is refused and why."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.domain import DomainError
from bot.focus import read_answer

NBSP, NNBSP, THIN, FIGURE = "\u00a0", "\u202f", "\u2009", "\u2007"

ACCEPTED = [
    ("12", 12), ("0", 0), ("007", 7), ("  12 ", 12), ("\t12\n", 12), (f"{NBSP}12{NBSP}", 12),
    ("+12", 12), ("+ 12", 12), ("＋12", 12),
    ("-12", -12), ("−12", -12), ("–12", -12), ("—12", -12), ("‐12", -12), ("‑12", -12),
    ("－12", -12), ("−7", -7), ("–7", -7), ("- 7", -7), ("− 7", -7), ("-0", 0),
    ("1 000", 1000), (f"1{NBSP}000", 1000), (f"1{NNBSP}000", 1000), (f"1{THIN}000", 1000),
    (f"1{FIGURE}000", 1000), ("1  000", 1000),
    ("1,000", 1000), ("1.000", 1000), ("12,345", 12345), ("999.999", 999999),
    ("1 000 000", 1_000_000), ("1,000,000", 1_000_000), ("1.000.000", 1_000_000),
    ("-1 000", -1000), ("− 1.000", -1000),
    ("12.", 12), ("12,", 12), ("1 000.", 1000), ("1.000.", 1000),
    ("12,0", 12), ("12.00", 12), ("1 000,00", 1000), ("1,000.0", 1000), ("1.000,00", 1000),
    ("0.000", 0), ("１２", 12), ("999999999999", 999_999_999_999),
]


@pytest.mark.parametrize("typed,number", ACCEPTED)
def test_accepted_answers(typed, number):
    assert read_answer(typed) == number


REFUSED = [
    *[(typed, "focus.empty") for typed in ("", "   ", NBSP)],
    *[(typed, "focus.not_a_number") for typed in (
        "douze", "twelve", "12a", "a12", "3+4", "3 × 4", "3*4", "3/4", "½", "-", "+", "--5",
        "+-5", "5-", "1e3", "5²", ".5", ",5", "(5)", "= 12", "12 !", "0x1F", "١٢", "12\u200b")],
    *[(typed, "focus.not_whole") for typed in (
        "12,5", "12.5", "0,500", "1,000.5", "1 000,5", "3.14", "-0,5", "12,5.", "0,5",
        "1234,567")],
    *[(typed, "focus.bad_grouping") for typed in (
        "10 00", "1 00", "1,2,3", "12 ,5", "1..0", "1,000 000", "1 0000", "0 500", "12 3",
        "1234 567")],
    *[(typed, "focus.too_long") for typed in ("1000000000000", "9" * 41)],
]


@pytest.mark.parametrize("typed,code", REFUSED)
def test_refused_answers_say_why(typed, code):
    with pytest.raises(DomainError) as error:
        read_answer(typed)
    assert error.value.code == code
    assert str(error.value)  # a sentence for logs and the command line
    assert "text" in error.value.params


def test_refusal_messages_are_clear():
    with pytest.raises(DomainError) as error:
        read_answer("12,5")
    assert "'12,5' is not a whole number" in str(error.value)
    with pytest.raises(DomainError) as error:
        read_answer("douze")
    assert "type digits only" in str(error.value)
    with pytest.raises(DomainError) as error:
        read_answer("10 00")
    assert "group thousands by three" in str(error.value)


SEPARATORS = [" ", NBSP, NNBSP, THIN, ",", "."]
MINUSES = ["-", "−", "–", "—", "- ", "− "]


def grouped(n: int, sep: str) -> str:
    return f"{n:,}".replace(",", sep)


@settings(max_examples=300, deadline=None)
@given(n=st.integers(0, 10**12 - 1), sep=st.sampled_from(SEPARATORS),
       sign=st.sampled_from(["", "+", *MINUSES]), tail=st.sampled_from(["", ".", ",", ",0", ".00"]),
       pad=st.sampled_from(["", " ", NBSP]))
def test_property_a_number_typed_any_accepted_way_reads_back(n, sep, sign, tail, pad):
    typed = f"{pad}{sign}{grouped(n, sep)}{tail}{pad}"
    expected = -n if sign.strip() in ("-", "−", "–", "—") else n
    assert read_answer(typed) == expected


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=45))
def test_property_any_text_is_a_number_or_a_domain_error(typed):
    try:
        number = read_answer(typed)
    except DomainError as error:
        assert error.code.startswith("focus.")
    else:
        assert isinstance(number, int) and abs(number) < 10**12
