"""Reading a typed answer: a whole number as people type it, in French or English habits.

Accepted (see ``docs/rules/focus.md``): surrounding spaces; one leading sign (+, or a minus as
typed: - − – — and other hyphens), with or without a space after it; thousands grouped by three
with spaces (including non-breaking and thin spaces), commas or dots ("1 000", "1,000", "1.000");
a decimal part made only of zeros ("12,0", "12.00") and a trailing full stop or comma ("12.").
Anything else is refused with a domain error that says why; nothing is guessed.

The skills whose answers are decimals or fractions are read by ``read_exact`` (a point or a
comma, ``a/b``, the same signs); ``read_for`` picks the reader by the question's form.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from bot.domain import DomainError
from bot.focus.exact import DECIMAL, LOWEST, WHOLE, Exact, normal
from bot.focus.questions import Question

MAX_CHARS = 40
MAX_DIGITS = 12

_PLUS = "+＋"
# hyphen-minus, minus sign, en dash, em dash, hyphen, non-breaking hyphen, small and full-width
_MINUS = "-−–—‐‑﹣－"
_FULLWIDTH_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")
_TOKENS = re.compile(r"[0-9]+|\s+|[.,]")
_BODY_CHARS = re.compile(r"[0-9.,\s]*")


def _refuse(code: str, reason: str, typed: str) -> DomainError:
    return DomainError(code, f"{typed.strip()!r} {reason}", text=typed)


def _trimmed(typed: str) -> str:
    """The answer without its spaces around and with full-width digits as ASCII; a text longer
    than any answer is refused before any other reading (a 6,000-character paste)."""
    if len(typed) > MAX_CHARS:
        raise DomainError("focus.too_long",
                          f"that answer is too long: an answer has at most {MAX_DIGITS} digits",
                          text=typed[:MAX_CHARS], max=MAX_DIGITS)
    return typed.strip().translate(_FULLWIDTH_DIGITS)


def read_answer(typed: str) -> int:
    """The whole number ``typed`` means, or a DomainError saying why it is not one.

    Codes: focus.empty, focus.too_long, focus.not_a_number, focus.bad_grouping, focus.not_whole.
    """
    text = _trimmed(typed)
    if not text:
        raise DomainError("focus.empty", "type a whole number, like 42", text=typed)
    negative = False
    if text[0] in _PLUS or text[0] in _MINUS:
        negative = text[0] in _MINUS
        text = text[1:].lstrip()
    if not text or text[0] not in "0123456789" or not _BODY_CHARS.fullmatch(text):
        raise _refuse("focus.not_a_number",
                      "is not a whole number: type digits only, like 42 or −7", typed)

    tokens = _TOKENS.findall(text)
    groups = tokens[0::2]  # digit runs, starting with one (checked above)
    seps = [" " if sep.isspace() else sep for sep in tokens[1::2]]
    if any(not group.isdigit() for group in groups) or any(sep.isdigit() for sep in seps):
        # two separators side by side ("12 ,5", "1..0")
        raise _refuse("focus.bad_grouping", _GROUPING, typed)

    fraction = ""
    if len(seps) == len(groups):  # a trailing "." or "," ends the number, as in "12."
        seps.pop()
    if seps and seps[-1] != " " and _is_decimal(groups, seps):
        fraction = groups.pop()
        seps.pop()

    if seps and not _is_grouping(groups, seps):
        raise _refuse("focus.bad_grouping", _GROUPING, typed)
    digits = "".join(groups)
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise DomainError("focus.too_long",
                          f"that answer is too long: an answer has at most {MAX_DIGITS} digits",
                          text=typed, max=MAX_DIGITS)
    if fraction.strip("0"):
        raise _refuse("focus.not_whole",
                      "is not a whole number: every answer here is a whole number", typed)
    value = int(digits)
    return -value if negative else value


_GROUPING = "has its digits grouped oddly: group thousands by three (1 000 or 1,000), " \
            "or type the digits together"


def _is_decimal(groups: list[str], seps: list[str]) -> bool:
    """Whether the last "." or "," starts a decimal part rather than a group of thousands.

    It does when a different separator came before it ("1,000.5", "1 000,5"), when it is not
    followed by exactly three digits ("12,5"), or when what comes before cannot be grouped
    thousands ("0,500"). "1,000" and "1.000" are one thousand: a quiz answer is whole.
    """
    last = seps[-1]
    if any(sep != last for sep in seps[:-1]):
        return True
    if len(groups[-1]) != 3:
        return True
    return not _is_grouping(groups, seps)


def _is_grouping(groups: list[str], seps: list[str]) -> bool:
    """One kind of separator, a first group of 1–3 digits (not starting with 0), then threes."""
    return (len(set(seps)) == 1
            and 1 <= len(groups[0]) <= 3 and groups[0][0] != "0"
            and all(len(group) == 3 for group in groups[1:]))


# --- exact answers: decimals and fractions (the skills of ``bot.focus.skills``) ---------------

# Spaces that group thousands: ordinary, non-breaking, narrow non-breaking, thin, figure.
_GROUP_SPACE = "[ \u00a0\u202f\u2009\u2007]"
_DECIMAL = re.compile(rf"([0-9]{{1,3}}(?:{_GROUP_SPACE}[0-9]{{3}})*|[0-9]*)(?:[.,]([0-9]+))?")
_FRACTION = re.compile(r"([0-9]+)\s*[/⁄∕÷]\s*([0-9]+)")


def _exact_refusal(form: str, typed: str) -> DomainError:
    """What a question of ``form`` expects, said when ``typed`` is not it."""
    if form == DECIMAL:
        return _refuse("focus.not_a_decimal",
                       "is not a number: type a decimal like 0.75 or 0,75, or a fraction "
                       "like 3/4", typed)
    if form == LOWEST:
        return _refuse("focus.lowest_expected",
                       "is not a fraction: type the fraction in lowest terms, like 3/4",
                       typed)
    return _refuse("focus.not_a_fraction",
                   "is not a fraction: type it like 3/4 or −5/2, or a whole number", typed)


def read_exact(typed: str, form: str) -> Exact:
    """The exact number ``typed`` means for a question whose answers are of ``form``
    (``bot.focus.exact``), or a DomainError that says which form is expected.

    Accepted: a leading sign as ``read_answer`` takes it (``-``, ``−``, …); a decimal with a
    point or a comma (``0.75``, ``0,75``, ``,5``; thousands grouped by spaces ``1 000,5``: a
    single point or comma is always the decimal mark here); a fraction ``a/b`` (spaces around
    the bar allowed); a whole number. Any equivalent value is read as that value (``6/8`` is
    ``3/4``), except for ``LOWEST``: a fraction that can still be simplified is refused
    (``focus.not_lowest``), and so is a decimal (the question asks for a fraction).
    Codes: focus.too_long, focus.empty_exact, focus.not_a_decimal, focus.not_a_fraction,
    focus.lowest_expected, focus.not_lowest, focus.zero_denominator.
    """
    if form == WHOLE:
        return read_answer(typed)
    text = _trimmed(typed)
    if not text:
        raise DomainError(f"focus.empty_{form}", f"type a number of the form {form}", text=typed)
    negative = False
    if text[0] in _PLUS or text[0] in _MINUS:
        negative = text[0] in _MINUS
        text = text[1:].lstrip()
    if sum(ch.isdigit() for ch in text) > MAX_DIGITS:
        raise DomainError("focus.too_long",
                          f"that answer is too long: an answer has at most {MAX_DIGITS} digits",
                          text=typed, max=MAX_DIGITS)
    value: Fraction
    fraction = _FRACTION.fullmatch(text)
    if fraction is not None:
        top, bottom = int(fraction[1]), int(fraction[2])
        if bottom == 0:
            raise _refuse("focus.zero_denominator",
                          "has 0 as its denominator: a fraction's denominator is never 0",
                          typed)
        if form == LOWEST and bottom != 1 and math.gcd(top, bottom) != 1:
            raise _refuse("focus.not_lowest",
                          "can still be simplified: give the fraction in lowest terms", typed)
        value = Fraction(top, bottom)
    else:
        if len(text) > 1 and text[-1] in ".," and text[-2].isdigit():
            text = text[:-1]  # "12." ends the number, as in a sentence
        decimal = _DECIMAL.fullmatch(text)
        if decimal is None or not (decimal[1] or decimal[2]):
            raise _exact_refusal(form, typed)
        whole = re.sub(r"\D", "", decimal[1]) or "0"
        part = decimal[2] or ""
        if part and form == LOWEST:
            raise _exact_refusal(form, typed)
        value = Fraction(int(whole + part), 10 ** len(part))
    return normal(-value if negative else value)


def read_for(question: Question, typed: str) -> Exact:
    """``typed`` read as the answer to ``question``: a whole number (``read_answer``) or an
    exact number of the question's form (``read_exact``)."""
    return read_exact(typed, question.form)
