"""A teacher's question sets as Focus questions, for practice, live rounds and assignments.

A set's item is a text and a whole-number answer (``db.question_sets``); as a
``bot.focus.Question`` its topic is the item's own or else the set's name, and its level is 1 (a
set has no level: practising one never moves the student's level).
"""

from __future__ import annotations

import random

from bot.domain import DomainError
from bot.focus import Question
from db import Database
from db.question_sets import QuestionSet, SetItem

#: A set's questions carry this level (``focus_answers.level`` is at least 1).
SET_LEVEL = 1


def as_question(item: SetItem, set_name: str) -> Question:
    return Question(text=item.text, ascii=item.text, answer=item.answer,
                    topic=item.topic or set_name, level=SET_LEVEL)


async def find_set(db: Database, guild_id: int, name: str) -> QuestionSet:
    """The server's set of that name, or a refusal naming it (``class.questions.unknown``)."""
    found = await db.question_sets.get(guild_id, name.strip())
    if found is None:
        raise DomainError("class.questions.unknown", f"no question set named {name!r}",
                          name=name)
    return found


async def questions_of(db: Database, guild_id: int, name: str, count: int | None = None,
                       rng: random.Random | None = None) -> list[Question]:
    """The set's questions: all in the set's order, or ``count`` of them drawn with ``rng``
    (every question once before any comes again, when ``count`` is more than the set holds)."""
    found = await find_set(db, guild_id, name)
    items = await db.question_sets.items(found.set_id)
    questions = [as_question(item, found.name) for item in items]
    if count is None:
        return questions
    rng = rng or random.Random()
    drawn: list[Question] = []
    while len(drawn) < count and questions:
        batch = questions[:]
        rng.shuffle(batch)
        drawn.extend(batch[: count - len(drawn)])
    return drawn
