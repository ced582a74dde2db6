"""Exact answers: whole numbers, or fractions (``fractions.Fraction``), never floats.

A Focus answer is an ``int`` when it is whole and a ``Fraction`` otherwise (``normal`` makes
sure of it), so that the whole-number levels keep their plain ints. How an answer is written
depends on the question's *form*:

- ``WHOLE``: a whole number (the eight levels, negatives, missing numbers, powers, …);
- ``DECIMAL``: a decimal with a point (``0.75``), for the decimals skills;
- ``FRACTION``: a fraction ``a/b`` (any equivalent fraction is right);
- ``LOWEST``: a fraction that must be in lowest terms (the question asks to simplify).

``exact_text`` writes a value in a form's canonical ASCII text (the command line, the JSON of a
question, the database's text columns) and ``parse_exact`` reads that canonical text back.
Neither reads what a member types: that is ``bot.focus.answers``.

A teacher's question (``bot.play.question_sets``) may accept several answers, each in the form
the teacher wrote it: ``"1/2 | 0.5"``, canonical texts joined by ``ANSWER_BAR``
(``accepted_values`` reads them back).
"""

from __future__ import annotations

import re
from fractions import Fraction

WHOLE = "whole"
DECIMAL = "decimal"
FRACTION = "fraction"
LOWEST = "lowest"
FORMS = (WHOLE, DECIMAL, FRACTION, LOWEST)

Exact = int | Fraction


def normal(value: int | Fraction) -> Exact:
    """``value`` as an int when it is whole (``Fraction(6, 3)`` is 2), else as a Fraction."""
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise TypeError(f"an exact answer is an int or a Fraction, not {value!r}")
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value.numerator)
    return value


def is_decimal(value: Exact) -> bool:
    """Whether ``value`` has a finite decimal writing (its denominator divides a power of ten)."""
    d = Fraction(value).denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def decimal_text(value: Exact) -> str:
    """``Fraction(3, 4)`` → ``"0.75"``, ``Fraction(-5, 2)`` → ``"-2.5"``, 12 → ``"12"``."""
    v = Fraction(value)
    if not is_decimal(v):
        raise ValueError(f"{v} has no finite decimal writing")
    sign = "-" if v < 0 else ""
    v = abs(v)
    places = 0
    while (v * 10 ** places).denominator != 1:
        places += 1
    digits = str((v * 10 ** places).numerator).rjust(places + 1, "0")
    if not places:
        return sign + digits
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def fraction_text(value: Exact) -> str:
    """In lowest terms: ``"3/4"``, ``"-5/2"``, ``"7"`` (a whole value has no denominator)."""
    v = Fraction(value)
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def exact_text(value: Exact, form: str = WHOLE) -> str:
    """The canonical text of ``value`` in ``form``: a decimal for DECIMAL (when it has one), a
    fraction in lowest terms otherwise; a whole value is its digits."""
    if form == DECIMAL and is_decimal(value):
        return decimal_text(value)
    return fraction_text(value)


def json_answer(value: Exact, form: str = WHOLE) -> int | str:
    """An answer in JSON: an int when whole, else its canonical text (``"3/4"``, ``"0.75"``)."""
    value = normal(value)
    return value if isinstance(value, int) else exact_text(value, form)


_CANONICAL = re.compile(r"-?[0-9]+(?:/[0-9]+|\.[0-9]+)?")


def parse_exact(text: str | int) -> Exact:
    """The value of a canonical text (``exact_text``'s, or an int): ``"3/4"``, ``"-5/2"``,
    ``"0.75"``, ``"12"``. Anything else raises ``ValueError`` (this is not a member's typing)."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    if not isinstance(text, str) or not _CANONICAL.fullmatch(text):
        raise ValueError(f"not an exact answer's text: {text!r}")
    try:
        value = Fraction(text)  # exact for "0.75" and "3/4" alike
    except ZeroDivisionError:
        raise ValueError(f"not an exact answer's text: {text!r}") from None
    return normal(value)


#: Between the accepted answers of a teacher's question: ``"1/2 | 0.5"``.
ANSWER_BAR = "|"


def accepted_values(written: str) -> tuple[Exact, ...]:
    """The values of accepted answers written canonically and joined by ``ANSWER_BAR``
    (``"1/2 | 0.5 | -3"``); anything else raises ``ValueError`` (this is not a member's typing)."""
    return tuple(parse_exact(part.strip()) for part in written.split(ANSWER_BAR))
