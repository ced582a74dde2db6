"""A practice round chosen from the member's mastery (:mod:`bot.focus.mastery`).

Six questions (``docs/rules/focus.md``, "Mastery"): up to ``REVIEW_SLOTS`` facts due for review
(the most overdue first: a fact answered wrong is due at once, so it comes back the next round),
one question of the next level when there is one, and the rest at the member's level, where
the weakest of a pool drawn at random are preferred (a fact or skill never seen, then the least
known; an item not due yet goes after every due one, so that nothing is crammed).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import datetime

from bot.focus.mastery import FACT, SKILL, Mastery, fact_of, fact_operands, skill_item, skill_of
from bot.focus.questions import (
    ADDITION,
    DIVISION,
    MAX_COUNT,
    MULTIPLICATION,
    ROUND_SIZE,
    SUBTRACTION,
    Question,
    generate_questions,
)

#: At most this many review questions in a round.
REVIEW_SLOTS = 2
#: The pool of the member's level is this many times the questions it gives.
POOL = 4
_TOPIC = {"+": ADDITION, "-": SUBTRACTION, "*": MULTIPLICATION, "/": DIVISION}
_SIGNS = {"+": "+", "-": "−", "*": "×", "/": "÷"}


def fact_level(fact: str) -> int:
    """The first Focus level that asks this fact (the level its answers are stored at): sums
    within 20 at 1, differences at 2, tables to 5 at 3, to 10 at 4, to 12 at 5."""
    a, op, b = fact_operands(fact)
    if op == "+":
        return 1
    if op == "-":
        return 2
    if op == "*":
        return 3 if min(a, b) <= 5 and max(a, b) <= 10 else 4 if max(a, b) <= 10 else 5
    return 4 if max(b, a // b) <= 10 else 5


def question_for_fact(fact: str, rng: random.Random) -> Question:
    """A question asking ``fact`` (``"7*8"``: ``7 × 8`` or ``8 × 7``, each order as likely)."""
    a, op, b = fact_operands(fact)
    if op in "+*" and a != b and rng.random() < 0.5:
        a, b = b, a
    value = a + b if op == "+" else a - b if op == "-" else a * b if op == "*" else a // b
    return Question(text=f"{a} {_SIGNS[op]} {b}", ascii=f"{a} {op} {b}", answer=value,
                    topic=_TOPIC[op], level=fact_level(fact))


def _weakness(question: Question, mastery: Mastery, now: datetime) -> float:
    """Lower is chosen first: never seen 0, else the item's level, plus 4 when not due."""
    fact = fact_of(question.ascii)
    item = (mastery.get(FACT, fact) if fact is not None
            else mastery.get(SKILL, skill_item(skill_of(question), question.level)))
    if item is None:
        return 0
    return item.level + (0 if item.is_due(now) else 4)


#: Draws ``count`` different questions of a level: ``(level, count, rng) -> questions``.
Generate = Callable[[int, int, random.Random], list[Question]]


def choose_round(mastery: Mastery, level: int, rng: random.Random, now: datetime, *,
                 next_level: int | None = None, size: int = ROUND_SIZE,
                 only_level: bool = False, generate: Generate | None = None) -> list[Question]:
    """The questions of a practice round at ``level`` for a member whose model is ``mastery``
    (``next_level``: the level above when the member's levels allow one; None at the top).
    ``only_level``: the reviews only of the level's own facts (a level the teacher pinned for a
    lesson on one kind of question). ``generate(level, count, rng)`` draws a level's questions
    (a school year's skills at that level: ``bot.play.focus.practice_questions``); the eight
    levels' own questions when None."""
    make = generate or generate_questions
    chosen: list[Question] = []  # the reviews first, then the level's
    seen: set[str] = set()

    def take(question: Question) -> bool:
        key = fact_of(question.ascii) or question.ascii
        if key in seen:
            return False
        seen.add(key)
        chosen.append(question)
        return True

    due = [item for item in mastery.due_facts(now)
           if (fact_level(item.key) == level if only_level else fact_level(item.key) <= level)]
    reviews = [question_for_fact(item.key, rng) for item in due[:REVIEW_SLOTS]]
    for question in reviews:
        take(question)
    ahead = 1 if next_level is not None and size - len(chosen) > 1 else 0
    wanted = size - len(chosen) - ahead
    pool = make(level, min(MAX_COUNT, max(wanted * POOL, wanted + len(seen))), rng)
    ranked = sorted(range(len(pool)), key=lambda i: (_weakness(pool[i], mastery, now), i))
    for i in ranked:
        if len(chosen) == size - ahead:
            break
        take(pool[i])
    at_level = chosen[len(reviews):]
    if ahead:
        assert next_level is not None
        above = make(next_level, 6, rng)
        at_level.append(next((q for q in above if (fact_of(q.ascii) or q.ascii) not in seen),
                             above[0]))
    # The reviews among the level's questions, at random places; the one from above last.
    for question in reviews:
        at_level.insert(rng.randrange(len(at_level) - ahead + 1), question)
    return at_level


def round_shares(questions: Sequence[Question], mastery: Mastery, level: int, now: datetime
                 ) -> dict[str, int]:
    """How many questions of a round are reviews, at the level, and above it (what the tests
    count)."""
    due = {i.key for i in mastery.due_facts(now)}
    shares = {"review": 0, "level": 0, "next": 0}
    for q in questions:
        if q.level > level:
            shares["next"] += 1
        elif fact_of(q.ascii) in due:
            shares["review"] += 1
        else:
            shares["level"] += 1
    return shares
