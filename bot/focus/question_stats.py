"""Question by question: how many answered, the share right, the median time, the commonest
wrong answers and the known mistakes they show; the figures the reports lead with.

Pure: the reports (``bot.play.live_report``, ``bot.play.assignments``, ``bot.play.class_report``)
read the stored answers and hand them here as ``Given``; the same answers always make the same
figures, whatever their order.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.focus.exact import Exact, decimal_text, is_decimal
from bot.focus.misconceptions import mistake

#: How many wrong answers a question lists (the commonest; ties: the smaller value first).
WRONG_SHOWN = 3
#: How many questions the report leads with: those that went worst.
WORST = 3


@dataclass(frozen=True)
class Given:
    """One stored answer as the reports read it. ``key`` tells questions apart: a round's
    question number, or the question's text over a period of practice."""

    user_id: int
    key: str
    text: str
    skill: str
    form: str
    expected: Exact
    given: Exact | None  # None: no answer in time
    correct: bool
    time_ms: int
    number: int | None = None  # the question's number in its round or assignment (from 1)

    @property
    def mistake(self) -> str | None:
        return None if self.correct else mistake(self.skill, self.text, self.expected,
                                                 self.given, self.form)


@dataclass(frozen=True)
class Wrong:
    """One wrong answer to a question: the value (None: no answer in time), how many students
    gave it and how many times, and the known mistake it shows."""

    given: Exact | None
    students: int
    answers: int
    mistake: str | None


@dataclass(frozen=True)
class QuestionStat:
    key: str
    number: int | None
    text: str
    skill: str
    form: str
    expected: Exact
    answers: int
    students: int
    right: int
    median_ms: float
    wrong: tuple[Wrong, ...]  # the commonest first, at most WRONG_SHOWN

    @property
    def share(self) -> float:
        return self.right / self.answers if self.answers else 0.0


def _wrong_order(item: tuple[Exact | None, set[int], int]) -> tuple[int, int, int, Fraction]:
    value, students, answers = item
    return (-len(students), -answers, value is None, Fraction(value or 0))


def question_stats(answers: Iterable[Given]) -> list[QuestionStat]:
    """The figures of each question (by ``key``), in their number's order (then the most
    answered, then the text)."""
    by_key: dict[str, list[Given]] = {}
    for answer in answers:
        by_key.setdefault(answer.key, []).append(answer)
    stats = []
    for key, given in by_key.items():
        first = min(given, key=lambda g: (g.number or 0, g.user_id))
        wrong: dict[Exact | None, tuple[set[int], list[Given]]] = {}
        for g in given:
            if not g.correct:
                whom, which = wrong.setdefault(g.given, (set(), []))
                whom.add(g.user_id)
                which.append(g)
        ranked = sorted(((value, whom, len(which)) for value, (whom, which) in wrong.items()),
                        key=_wrong_order)[:WRONG_SHOWN]
        stats.append(QuestionStat(
            key, first.number, first.text, first.skill, first.form, first.expected,
            len(given), len({g.user_id for g in given}), sum(g.correct for g in given),
            float(statistics.median(g.time_ms for g in given)),
            tuple(Wrong(value, len(whom), count, wrong[value][1][0].mistake)
                  for value, whom, count in ranked)))
    stats.sort(key=lambda s: (s.number if s.number is not None else 0, -s.answers, s.text))
    return stats


def worst(stats: Sequence[QuestionStat], count: int = WORST) -> list[QuestionStat]:
    """The questions that went worst: the smallest share right, then the most answers (more
    students missed it), then their order."""
    order = {id(s): n for n, s in enumerate(stats)}
    return sorted(stats, key=lambda s: (s.share, -s.answers, order[id(s)]))[:count]


@dataclass(frozen=True)
class Mistakes:
    """The known mistakes in a set of answers: per student, and for everyone."""

    by_student: dict[int, Counter[str]]
    total: Counter[str]


def mistakes(answers: Iterable[Given]) -> Mistakes:
    by_student: dict[int, Counter[str]] = {}
    total: Counter[str] = Counter()
    for answer in answers:
        found = answer.mistake
        if found is not None:
            by_student.setdefault(answer.user_id, Counter())[found] += 1
            total[found] += 1
    return Mistakes(by_student, total)


def answer_text(value: Exact | None, form: str, point: str = ".") -> str:
    """An answer as the reports write it: the school's minus, decimals with ``point`` (for a
    decimal question), fractions ``a/b``; "" for no answer."""
    if value is None:
        return ""
    # A decimal question's answers as decimals; so is a whole question's answer that is not
    # whole but decimal (10 % of 190 → 1.9, the percentage divided by 100).
    whole = Fraction(value).denominator == 1
    if is_decimal(value) and (form == "decimal" or (form == "whole" and not whole)):
        shown = decimal_text(value).replace(".", point)
    else:
        v = Fraction(value)
        shown = str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    return shown.replace("-", "−")
