"""Placement: a short adaptive round that finds a new student's starting Focus level.

The rule (also in ``docs/rules/focus.md``, "Placement"):

- The first question is at the middle of the student's allowed levels (``(low + high) // 2``:
  level 4 of 1–8), or at the level they had, for a placement taken again.
- A staircase of one level: after a right answer the next question is one level up, after a
  wrong one one level down, always within the student's levels (``low`` to ``high``).
- A level is **passed** when it has at least two right answers and more right than wrong ones;
  **failed** when it has at least two wrong answers and more wrong than right ones.
- The placement **settles** at the highest level L that is passed while the level above is
  failed (or L is the top of the range), or at the bottom of the range when that is failed:
  it stops there, usually after 4 to 7 questions.
- It stops after ``MAX_QUESTIONS`` (12) questions in any case; its level is then the highest
  level passed, else the highest level with more right than wrong answers, else the bottom.

A student who answers right exactly up to level k (and wrong above) ends at k (within their
levels: at the bottom when k is below it), whatever the start: tested for every k.

Pure and deterministic: the questions come from ``draw`` with the caller's seeded RNG (the
student's school year's at the current level, ``bot.focus.school.draw_round``); the state is JSON
with a format version (``PLACEMENT_FORMAT``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from bot.domain import DomainError
from bot.focus.daily import check_level_range
from bot.focus.questions import MAX_LEVEL, MIN_LEVEL, Question, check_level, generate_questions
from bot.focus.school import draw_round
from bot.formats import FORMAT_KEY, upgrade

PLACEMENT_FORMAT = 1
#: A placement asks at most this many questions.
MAX_QUESTIONS = 12
#: Answers of one kind that pass (right) or fail (wrong) a level.
SETTLE = 2
#: Questions drawn to find one not asked yet in this placement.
_CANDIDATES = 4


@dataclass(frozen=True, slots=True)
class Step:
    """One answered question: its level and whether it was right."""

    level: int
    correct: bool

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "correct": self.correct}


@dataclass(frozen=True)
class Placement:
    """A placement in progress or over. ``questions``: those asked, in order; while it is not
    over, the last one is the current question (asked, not answered yet) once ``ask`` put it
    there."""

    low: int
    high: int
    start: int
    steps: tuple[Step, ...] = ()
    questions: tuple[Question, ...] = ()

    @classmethod
    def new(cls, low: int = MIN_LEVEL, high: int = MAX_LEVEL, start: int | None = None
            ) -> Placement:
        """A placement within levels ``low`` to ``high``, first asking at ``start`` (default the
        middle, kept within the levels)."""
        low, high = check_level_range(low, high)
        first = (low + high) // 2 if start is None else check_level(start)
        return cls(low, high, min(max(first, low), high))

    # --- the state ----------------------------------------------------------------------

    def tally(self, level: int) -> tuple[int, int]:
        """(right, wrong) answers at ``level``."""
        right = sum(1 for s in self.steps if s.level == level and s.correct)
        return right, sum(1 for s in self.steps if s.level == level) - right

    def passed(self, level: int) -> bool:
        right, wrong = self.tally(level)
        return right >= SETTLE and right > wrong

    def failed(self, level: int) -> bool:
        right, wrong = self.tally(level)
        return wrong >= SETTLE and wrong > right

    @property
    def level(self) -> int:
        """The level of the next question (that of the last answer, one up if it was right,
        one down if not, within the levels)."""
        if not self.steps:
            return self.start
        last = self.steps[-1]
        return min(max(last.level + (1 if last.correct else -1), self.low), self.high)

    @property
    def settled(self) -> int | None:
        """The level the answers settled at (see the module's rule), or None."""
        for level in range(self.high, self.low - 1, -1):
            if self.passed(level) and (level == self.high or self.failed(level + 1)):
                return level
        return self.low if self.failed(self.low) else None

    @property
    def done(self) -> bool:
        return len(self.steps) >= MAX_QUESTIONS or self.settled is not None

    @property
    def result(self) -> int:
        """The level the placement gives (its current guess while not over)."""
        settled = self.settled
        if settled is not None:
            return settled
        passed = [lv for lv in range(self.low, self.high + 1) if self.passed(lv)]
        if passed:
            return max(passed)
        ahead = [lv for lv in range(self.low, self.high + 1)
                 if self.tally(lv)[0] > self.tally(lv)[1]]
        return max(ahead) if ahead else self.low

    @property
    def current(self) -> Question | None:
        """The question asked and not answered yet, if any."""
        return self.questions[-1] if len(self.questions) > len(self.steps) else None

    # --- moves --------------------------------------------------------------------------

    def ask(self, question: Question) -> Placement:
        """``question`` is the next one asked (at ``level``)."""
        if self.done:
            raise DomainError("placement.over", "this placement is over", level=self.result)
        if self.current is not None:
            raise ValueError("a question is waiting for its answer already")
        if question.level != self.level:
            raise ValueError(f"the next question is at level {self.level}, not {question.level}")
        return replace(self, questions=(*self.questions, question))

    def answer(self, correct: bool) -> Placement:
        """The current question was answered (``correct`` or not)."""
        question = self.current
        if question is None:
            raise DomainError("placement.no_question", "no question is waiting for an answer")
        return replace(self, steps=(*self.steps, Step(question.level, bool(correct))))

    def draw(self, year: str | None, rng: random.Random) -> Question:
        """A question at ``level`` of school year ``year`` (None: the eight levels' own), not
        one asked already in this placement when the level can give another."""
        count = _CANDIDATES + len(self.questions)
        if year is None:
            candidates = generate_questions(self.level, min(count, 6), rng)
        else:
            candidates = draw_round(year, self.level, count, rng)
        asked = {q.text for q in self.questions}
        return next((q for q in candidates if q.text not in asked), candidates[0])

    # --- JSON ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {FORMAT_KEY: PLACEMENT_FORMAT, "low": self.low, "high": self.high,
                "start": self.start, "steps": [s.to_json() for s in self.steps],
                "questions": [q.to_json() for q in self.questions]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Placement:
        data = upgrade(data, "placement", PLACEMENT_FORMAT)
        low, high = check_level_range(int(data["low"]), int(data["high"]))
        placement = cls(low, high, check_level(int(data["start"])),
                        tuple(Step(check_level(int(s["level"])), bool(s["correct"]))
                              for s in data["steps"]),
                        tuple(Question.from_json(q) for q in data["questions"]))
        if not len(placement.steps) <= len(placement.questions) <= len(placement.steps) + 1:
            raise ValueError("a placement's questions are its answers' and at most one more")
        return placement


def simulate(knows: int, low: int = MIN_LEVEL, high: int = MAX_LEVEL,
             start: int | None = None) -> Placement:
    """The placement of a student who answers right exactly the levels up to ``knows`` (0: none)
    — what the tests and ``docs/rules/focus.md`` walk. No questions are drawn: each step only
    needs its level."""
    placement = Placement.new(low, high, start)
    while not placement.done:
        level = placement.level
        placement = replace(placement, steps=(*placement.steps, Step(level, level <= knows)))
    return placement
