"""A Focus round: six questions answered in turn, scored 0–6, every answer kept with its time.

The engine never reads the clock: whoever runs the round says how many seconds each answer took.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bot.domain import DomainError
from bot.focus.answers import read_for
from bot.focus.exact import WHOLE, Exact, json_answer, normal, parse_exact
from bot.focus.questions import ROUND_SIZE, Question, generate_questions, variant_fields
from bot.formats import FORMAT_KEY, upgrade

#: The version of :meth:`FocusRound.to_json`'s layout (:mod:`bot.formats`). 1: today's layout with
#: the field; 0 (no field): the same, written before versions.
ROUND_FORMAT = 1


def check_seconds(seconds: float) -> float:
    # A negative or endless duration is the caller's bug, not a player's move.
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) \
            or not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"a time taken is a finite number of seconds from 0, not {seconds!r}")
    return float(seconds)


@dataclass(frozen=True, slots=True)
class Answer:
    """One answered (or skipped) question: the raw material of a student's progress."""

    question: str  # the question's text
    topic: str
    level: int
    expected: Exact  # an int, or a Fraction (never a float)
    given: Exact | None  # None: no answer in time (skipped)
    correct: bool
    seconds: float
    skill: str = ""  # "": the topic
    form: str = WHOLE  # how the answer is written (bot.focus.exact)
    written: str = ""  # a teacher's question: its accepted answers as written (Question.written)

    def __post_init__(self) -> None:
        if not self.skill:
            object.__setattr__(self, "skill", self.topic)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "question": self.question, "topic": self.topic, "level": self.level,
            "expected": json_answer(self.expected, self.form),
            "given": None if self.given is None else json_answer(self.given, self.form),
            "correct": self.correct, "seconds": self.seconds}
        data.update(variant_fields(self.topic, self.skill, self.form))
        if self.written:
            data["written"] = self.written
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Answer:
        given = data["given"]
        return cls(question=str(data["question"]), topic=str(data["topic"]),
                   level=int(data["level"]), expected=parse_exact(data["expected"]),
                   given=None if given is None else parse_exact(given),
                   correct=bool(data["correct"]), seconds=float(data["seconds"]),
                   skill=str(data.get("skill") or data["topic"]),
                   form=str(data.get("form", WHOLE)), written=str(data.get("written") or ""))


def mark(question: Question, given: Exact | None, seconds: float) -> Answer:
    """``given`` is right when it equals one of the question's accepted answers (a teacher's
    question may have several: ``Question.accepted``); the answer expected is then the one
    found, so that a stored answer stays right as ``given == expected`` (``db.focus``)."""
    right = given is not None and given in question.accepted
    return Answer(question=question.text, topic=question.topic, level=question.level,
                  expected=normal(given) if right and given is not None else question.answer,
                  given=None if given is None else normal(given), correct=right,
                  seconds=check_seconds(seconds), skill=question.skill, form=question.form,
                  written=question.written)


class FocusRound:
    """Questions asked one at a time; states: a current question to answer, or finished."""

    __slots__ = ("answers", "questions")

    def __init__(self, questions: list[Question], answers: list[Answer] | None = None) -> None:
        if not questions:
            raise ValueError("a Focus round has at least one question")
        self.questions = list(questions)
        self.answers = list(answers or [])
        if len(self.answers) > len(self.questions):
            raise ValueError("more answers than questions")

    @classmethod
    def new(cls, level: int, rng: random.Random, size: int = ROUND_SIZE) -> FocusRound:
        return cls(generate_questions(level, size, rng))

    @property
    def index(self) -> int:
        """The number of the current question, from 0 (equal to the size once finished)."""
        return len(self.answers)

    @property
    def finished(self) -> bool:
        return len(self.answers) == len(self.questions)

    @property
    def current(self) -> Question | None:
        return None if self.finished else self.questions[len(self.answers)]

    @property
    def score(self) -> int:
        return sum(answer.correct for answer in self.answers)

    @property
    def total_seconds(self) -> float:
        return sum(answer.seconds for answer in self.answers)

    def _question(self) -> Question:
        if self.finished:
            raise DomainError("focus.round_finished", "this Focus round is over",
                              score=self.score, size=len(self.questions))
        return self.questions[len(self.answers)]

    def answer(self, typed: str, seconds: float) -> Answer:
        """Read ``typed`` and mark it. Unreadable text changes nothing and can be typed again."""
        question = self._question()
        check_seconds(seconds)
        return self._record(mark(question, read_for(question, typed), seconds))

    def submit(self, given: Exact, seconds: float) -> Answer:
        """Mark a number already read (a bot player's answer, a button): exact, never a
        float."""
        question = self._question()
        if isinstance(given, bool) or not isinstance(given, int | Fraction):
            raise ValueError(f"an answer is a whole number or a Fraction, not {given!r}")
        return self._record(mark(question, given, seconds))

    def skip(self, seconds: float) -> Answer:
        """No answer in time: the question counts as wrong and the round moves on."""
        return self._record(mark(self._question(), None, seconds))

    def _record(self, answer: Answer) -> Answer:
        self.answers.append(answer)
        return answer

    def to_json(self) -> dict[str, Any]:
        return {FORMAT_KEY: ROUND_FORMAT, "questions": [q.to_json() for q in self.questions],
                "answers": [a.to_json() for a in self.answers]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FocusRound:
        """The round of :meth:`to_json`: an older format upgraded, a newer one refused."""
        data = upgrade(data, "focus round", ROUND_FORMAT)
        return cls([Question.from_json(q) for q in data["questions"]],
                   [Answer.from_json(a) for a in data["answers"]])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FocusRound) and (self.questions, self.answers) == (
            other.questions, other.answers)

    __hash__ = None  # type: ignore[assignment]  # typeshed: object.__hash__ is a method
