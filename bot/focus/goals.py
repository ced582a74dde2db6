"""Homework with a goal (``/class assign goal:``): what ends a student's attempt, and the
questions they are asked on the way. Pure: no clock, no database; the questions are the same for
the same assignment, student and answers (each drawn with its own seed).

- **N right answers** (``right:10``): the attempt ends at the N-th right answer.
- **P % right over the last N** (``80%:10``): it ends once at least N answers are given and at
  least P % of the last N are right.
- Either way it ends after ``MAX_ATTEMPTS`` answers, the goal not reached, so that it cannot run
  forever.

The questions: the first, and the one after a right answer, come in turn from the assignment's
pool (its questions drawn once, at creation: every student meets the same ones in the same
order, so the report compares them). After a wrong answer comes a fresh question of the same
skill at the same level (``redraw``: the assignment's questions come from the engine; a
teacher's set has no skill, so its next question comes from the pool instead), drawn with the
seed ``<seed>:<question number>`` (``seed``: the assignment and the student).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.domain import DomainError
from bot.focus.questions import LEVELS, TOPICS, Question, generate_questions
from bot.focus.skills import SKILLS, draw

#: The most answers of one attempt: then it ends, the goal not reached.
MAX_ATTEMPTS = 60
#: The most right answers a goal may ask (reachable within ``MAX_ATTEMPTS`` with mistakes).
MAX_RIGHT = 30
#: The window of a percentage goal: from 2 to 20 answers.
MIN_WINDOW, MAX_WINDOW = 2, 20
#: Draws before a question of the same topic is given up (as ``bot.play.assignments``).
_DRAWS = 500

RIGHT, PERCENT = "right", "percent"

_RIGHT_WORDS = r"(?:right|correct|juste|justes|bonnes?(?:\s+réponses?)?|réussies?)"
_RIGHT_FIRST = re.compile(_RIGHT_WORDS + r"\s*[:=]?\s*(?P<n>\d{1,3})")
_RIGHT_AFTER = re.compile(r"(?P<n>\d{1,3})\s*" + _RIGHT_WORDS)
_PERCENT = re.compile(r"(?P<p>\d{1,3})\s*%\s*(?:[:/]|of|over|on|sur|des|de)?\s*"
                      r"(?:the\s+last\s+|last\s+|les\s+)?(?P<n>\d{1,3})"
                      r"(?:\s+(?:answers?|réponses?|derni[èe]res?(?:\s+réponses?)?))?")


def _bad(text: str) -> DomainError:
    return DomainError("homework.bad_goal", f"cannot read {text!r} as a goal", text=text,
                       max_right=MAX_RIGHT, min_window=MIN_WINDOW, max_window=MAX_WINDOW)


@dataclass(frozen=True)
class Goal:
    kind: str  # RIGHT or PERCENT
    target: int  # right answers, or the percentage
    window: int = 0  # the last answers a percentage is taken over

    def stored(self) -> str:
        """As the database keeps it: ``right:10``, ``percent:80:10``."""
        return f"{RIGHT}:{self.target}" if self.kind == RIGHT else \
            f"{PERCENT}:{self.target}:{self.window}"

    @classmethod
    def from_stored(cls, text: str) -> Goal:
        kind, *numbers = text.split(":")
        if kind == RIGHT and len(numbers) == 1:
            return cls(RIGHT, int(numbers[0]))
        if kind == PERCENT and len(numbers) == 2:
            return cls(PERCENT, int(numbers[0]), int(numbers[1]))
        raise ValueError(f"no stored goal {text!r}")

    def reached(self, correct: Sequence[bool]) -> bool:
        """Whether these answers (right or wrong, in order) reach the goal."""
        if self.kind == RIGHT:
            return sum(correct) >= self.target
        last = correct[-self.window:]
        return len(correct) >= self.window and sum(last) * 100 >= self.target * self.window

    def over(self, correct: Sequence[bool]) -> bool:
        """Whether the attempt ends after these answers: the goal reached, or too many."""
        return self.reached(correct) or len(correct) >= MAX_ATTEMPTS


def read_goal(text: str | None) -> Goal | None:
    """What a teacher typed: ``right:10`` (``10 right``, ``juste:10``, ``10 bonnes réponses``)
    or ``80%:10`` (``80% of 10``, ``80 % sur 10``, ``80%/10``); None for nothing typed (the
    count of questions). Anything else, or out of bounds, is refused (``homework.bad_goal``)."""
    if text is None or not text.strip():
        return None
    cleaned = " ".join(text.casefold().split())
    found = _RIGHT_FIRST.fullmatch(cleaned) or _RIGHT_AFTER.fullmatch(cleaned)
    if found is not None:
        n = int(found["n"])
        if not 1 <= n <= MAX_RIGHT:
            raise _bad(text)
        return Goal(RIGHT, n)
    found = _PERCENT.fullmatch(cleaned)
    if found is None:
        raise _bad(text)
    percent, window = int(found["p"]), int(found["n"])
    if not 1 <= percent <= 100 or not MIN_WINDOW <= window <= MAX_WINDOW:
        raise _bad(text)
    return Goal(PERCENT, percent, window)


def _same_skill(question: Question, rng: random.Random) -> Question | None:
    """A fresh question of ``question``'s skill at its level, another text if it can; None when
    the engine has none (a teacher's question)."""
    for _ in range(_DRAWS):
        fresh = _draw_like(question, rng)
        if fresh is None:
            return None
        if fresh.text != question.text:
            return fresh
    return None


def _draw_like(question: Question, rng: random.Random) -> Question | None:
    if question.skill in SKILLS and question.skill_level:
        # The very skill level it was drawn from (a school year's question at a Focus level
        # may come from a level of its skill above that level's tier).
        return draw([(question.skill, question.skill_level)], 1, rng, level=question.level)[0]
    if question.skill in SKILLS and question.skill not in TOPICS:
        skill = SKILLS[question.skill]
        # The skill's level asked at that Focus level: the highest whose tier is not above it.
        number = max((lv.number for lv in skill.levels if lv.tier <= question.level), default=1)
        return draw([(skill.id, number)], 1, rng, level=question.level)[0]
    if question.topic in TOPICS and question.level in LEVELS \
            and question.topic in LEVELS[question.level].topics:
        for _ in range(_DRAWS):
            [drawn] = generate_questions(question.level, 1, rng)
            if drawn.topic == question.topic:
                return drawn
    return None


def goal_questions(pool: Sequence[Question], correct: Sequence[bool], seed: str, *,
                   redraw: bool) -> list[Question]:
    """The questions of an attempt whose answers so far were ``correct`` (right or wrong, in
    order): one for each, then the next one (see the module's docstring). The same for the same
    arguments: a resumed attempt asks what it asked."""
    if not pool:
        raise ValueError("a goal needs questions to start from")
    asked: list[Question] = []
    from_pool = 0
    for k in range(len(correct) + 1):
        question = None
        if k and redraw and not correct[k - 1]:
            question = _same_skill(asked[-1], random.Random(f"{seed}:{k}"))
        if question is None:
            question = pool[from_pool % len(pool)]
            from_pool += 1
        asked.append(question)
    return asked
