"""Homework and Focus practice from a browser (issue 30): ``bot.play.assignments`` and
``bot.play.focus`` for pages that keep nothing between two requests.

A member's round lives in the bot's memory, in its Discord window; a web page holds nothing the
server may trust. So everything a browser student's round needs is read from the database at
each request:

- **Homework**: the attempt is the assignment's own (``assignment_attempts``), each answer a
  ``focus_answers`` row under the assignment's round key, stored as it is given, the last with
  the score (``assignments.finish``), as on Discord: the teacher's report cannot tell them apart.
  A page shows the attempt as its stored answers say it (``assignments.resumed``: a goal's next
  question is the one Discord would ask, a fresh one of the same skill after a wrong answer), so
  coming back continues where they left off, on any device of theirs.
- **Practice**: the round (its questions, level and round key) is kept in ``web_practice``
  (migration 25), its answers are ``focus_answers`` rows like a member's practice (the mastery
  moves), and its end moves the level as ``/focus practice``'s does (``focus.end_practice``).
- **The time of an answer**: from the moment its question was first shown (kept in the same
  state; a reload does not restart it) to the moment the answer came.

What a browser sends back is only what was typed and the number of the question it answers:
the question, its answer and the marking are the server's. An answer to a question already
answered (the form sent twice, another tab) changes nothing. Text that does not read as a number
is refused by Focus's own reader (``bot.focus.answers.read_for``), changing nothing.

A web student holds no Discord role: an assignment set for a role is never theirs (it is not
listed, and taking it is refused as it is for a member without the role).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from bot.domain import DomainError
from bot.focus import Answer, FocusRound, Question
from bot.focus.adaptive import Advice
from bot.focus.answers import read_for
from bot.focus.exact import Exact
from bot.focus.round import mark
from bot.play import assignments, students
from bot.play import focus as focus_play
from bot.play.assignments import Assignment, Homework
from db import Database, FocusAnswer
from db.connection import db_time, to_db_time, utc

PRACTICE_PREFIX = "practice:"


def _read(question: Question, typed: str) -> Exact | DomainError:
    """``typed`` read by Focus's own reader (which refuses a text too long itself), or its
    refusal: the same words as on Discord, nothing counted."""
    try:
        return read_for(question, typed)
    except DomainError as refusal:
        return refusal


def _stored(guild_id: int, user_id: int, answer: Answer, index: int, source: str,
            key: str) -> FocusAnswer:
    """An answer as ``db.focus`` keeps it (``bot.ui.focus_run.stored_answer``'s row)."""
    return FocusAnswer(
        guild_id=guild_id, user_id=user_id, topic=answer.topic, level=answer.level,
        question=answer.question, expected=answer.expected, given=answer.given,
        time_ms=round(answer.seconds * 1000), source=source, round_key=key,
        question_no=index, skill=answer.skill, form=answer.form)


# --- The state between two pages ---------------------------------------------------------------


async def _state(db: Database, guild_id: int, user_id: int) -> dict[str, Any]:
    return await db.web_practice.get(guild_id, user_id) or {}


def _shown(key: str, index: int, now: datetime) -> dict[str, Any]:
    return {"key": key, "index": index, "at": to_db_time(utc(now))}


def _shown_at(state: dict[str, Any], key: str, index: int) -> datetime | None:
    shown = state.get("shown")
    if not isinstance(shown, dict) or shown.get("key") != key or shown.get("index") != index:
        return None
    return db_time(str(shown["at"]))


def _seconds(state: dict[str, Any], key: str, index: int, now: datetime) -> float:
    """The time the answer took: from its question's first showing (0 when it is unknown)."""
    at = _shown_at(state, key, index)
    return 0.0 if at is None else max(0.0, (utc(now) - at).total_seconds())


async def showing(db: Database, guild_id: int, user_id: int, key: str, index: int,
                  now: datetime) -> None:
    """Question ``index`` of round ``key`` is on the student's page: its clock starts, unless
    it was shown already (a reload keeps the time running from its first showing)."""
    state = await _state(db, guild_id, user_id)
    if _shown_at(state, key, index) is None:
        state["shown"] = _shown(key, index, now)
        await db.web_practice.put(guild_id, user_id, state, now)


# --- Homework -----------------------------------------------------------------------------------


async def homework(db: Database, guild_id: int, user_id: int, now: datetime) -> list[Homework]:
    """The student's open assignments on the server (``assignments.homework_of``): those for
    everyone only, since a web student has no Discord role; the soonest due first, done ones
    included until they close."""
    return await assignments.homework_of(db, guild_id, user_id, (), now)


async def zone(db: Database, guild_id: int) -> ZoneInfo:
    return await assignments.server_zone(db, guild_id)


@dataclass(frozen=True)
class Attempt:
    assignment: Assignment
    #: The answers as stored, then the questions to come (a goal's: the next one only).
    round: FocusRound
    done: bool
    score: int | None = None

    @property
    def key(self) -> str:
        return assignments.round_key(self.assignment.assignment_id)

    @property
    def current(self) -> Question | None:
        return None if self.done else self.round.current


async def _assignment(db: Database, assignment_id: int, guild_id: int) -> Assignment:
    """The server's posted assignment ``assignment_id``; another server's (a forged address)
    is refused as if it did not exist, saying nothing of it."""
    found = await db.assignments.by_id(assignment_id)
    if found is None or found.guild_id != guild_id or found.message_id is None:
        raise DomainError("class.assign.gone", "this assignment no longer exists")
    return found


async def attempt(db: Database, assignment_id: int, guild_id: int, user_id: int,
                  now: datetime, when: Callable[[datetime], str]) -> Attempt:
    """The student's attempt, begun now or resumed where they left off
    (``assignments.take``); a finished one as it is stored, to show again. Refused as on
    Discord: another server's or a role's assignment, past its due moment (``when`` says it in
    the student's words)."""
    assignment = await _assignment(db, assignment_id, guild_id)
    begun = await db.assignments.attempt(assignment_id, user_id)
    if begun is not None and begun.finished_at is not None:
        return Attempt(assignment, await assignments.resumed(db, assignment, user_id), True,
                       begun.score)
    start = await assignments.take(db, assignment_id, guild_id, user_id, (), now, when,
                                   lambda _: None)
    return Attempt(start.assignment, start.round, False)


@dataclass(frozen=True)
class Answered:
    #: The answer as marked; None when nothing was counted: that question was answered
    #: already, or what was typed is no number (``refusal`` says why).
    answer: Answer | None
    #: The attempt after it (its next question, or done with its score).
    attempt: Attempt
    refusal: DomainError | None = None


async def answer_assignment(db: Database, assignment_id: int, guild_id: int, user_id: int,
                            index: int, typed: str, now: datetime,
                            when: Callable[[datetime], str]) -> Answered:
    """``typed`` as the answer to question ``index`` of the student's attempt, marked and
    stored as on Discord (``bot.flows.focus.AssignmentRound``): each answer as it is given,
    the last (the last question, or the goal's end) with the score in one transaction. An
    answer to a question shown before the due moment is taken after it, as a Discord window
    still open is."""
    assignment = await _assignment(db, assignment_id, guild_id)
    key = assignments.round_key(assignment_id)
    state = await _state(db, guild_id, user_id)
    try:
        current = await attempt(db, assignment_id, guild_id, user_id, now, when)
    except DomainError as refusal:
        shown = _shown_at(state, key, index)
        if refusal.code != "class.assign.closed" or shown is None or shown > assignment.due_at:
            raise
        current = Attempt(assignment, await assignments.resumed(db, assignment, user_id),
                          False)
    question = current.current
    if question is None or current.round.index != index:
        return Answered(None, current)
    read = _read(question, typed)
    if isinstance(read, DomainError):
        return Answered(None, current, read)
    answer = mark(question, read, _seconds(state, key, index, now))
    given = [*current.round.answers, answer]
    goal = assignments.goal_of(assignment)
    last = (index + 1 >= len(current.round.questions) if goal is None
            else assignments.next_question(assignment, user_id, [a.correct for a in given])
            is None)
    if last:
        # A goal's round holds the questions asked so far and this one: all of them.
        done = await assignments.finish(
            db, assignment_id, user_id, current.round.questions,
            [_stored(guild_id, user_id, a, i, "assignment", key) for i, a in enumerate(given)],
            now)
        return Answered(answer, Attempt(assignment, done.round, True, done.score))
    await assignments.record_answer(
        db, assignment_id, _stored(guild_id, user_id, answer, index, "assignment", key), now)
    state["shown"] = _shown(key, index + 1, now)
    await db.web_practice.put(guild_id, user_id, state, now)
    return Answered(answer, Attempt(assignment, await assignments.resumed(db, assignment,
                                                                           user_id), False))


# --- Practice -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Practice:
    key: str
    level: int  # the level played
    own: int  # the student's level before the round
    #: The answers as stored, then the questions to come.
    round: FocusRound
    #: Once finished: the next level and why (``focus.end_practice``).
    advice: Advice | None = None

    @property
    def finished(self) -> bool:
        return self.round.finished


def _advice(data: Any) -> Advice | None:
    if not isinstance(data, dict):
        return None
    return Advice(level=int(data["level"]), reason=str(data["reason"]),
                  right=int(data["right"]), answers=int(data["answers"]),
                  weak_topics=tuple(str(x) for x in data.get("weak_topics", ())))


async def _practice(db: Database, guild_id: int, user_id: int, state: dict[str, Any]
                    ) -> Practice | None:
    kept = state.get("practice")
    if not isinstance(kept, dict):
        return None
    questions = [Question.from_json(q) for q in kept["questions"]]
    key = str(kept["key"])
    stored = await focus_play.round_as_stored(db, guild_id, user_id, questions, key)
    return Practice(key, int(kept["level"]), int(kept["own"]), stored,
                    _advice(kept.get("advice")))


async def practice_level(db: Database, guild_id: int, user_id: int) -> int:
    """The level a new round is played at: the student's own, within their levels (the
    server's, or a teacher's pin), as ``focus.start_practice`` reads it."""
    rules = await students.rules_for(db, guild_id, user_id)
    return rules.focus.level_of(await db.players.get(guild_id, user_id))


async def practice(db: Database, guild_id: int, user_id: int) -> Practice | None:
    """The student's round in progress, or the last one they finished; None before any."""
    return await _practice(db, guild_id, user_id, await _state(db, guild_id, user_id))


async def start_practice(db: Database, guild_id: int, user_id: int, seed: int, now: datetime
                         ) -> Practice:
    """A new round at the student's level, chosen from their mastery with the server's school
    year, as ``/focus practice`` chooses it (``focus.start_practice``); kept for the pages that
    follow (a round begun and left is replaced)."""
    start = await focus_play.start_practice(db, guild_id, user_id, None, seed, now)
    key = PRACTICE_PREFIX + secrets.token_hex(8)
    state = await _state(db, guild_id, user_id)
    state["practice"] = {"key": key, "level": start.level, "own": start.own,
                         "questions": [q.to_json() for q in start.questions]}
    state["shown"] = _shown(key, 0, now)
    await db.web_practice.put(guild_id, user_id, state, now)
    return Practice(key, start.level, start.own, FocusRound(start.questions))


@dataclass(frozen=True)
class PracticeAnswered:
    #: None: nothing counted (no round, that question answered already, or ``refusal``).
    answer: Answer | None
    practice: Practice | None
    refusal: DomainError | None = None


async def answer_practice(db: Database, guild_id: int, user_id: int, key: str, index: int,
                          typed: str, now: datetime) -> PracticeAnswered:
    """``typed`` as the answer to question ``index`` of round ``key`` (the page's: a page of
    a round since replaced, in another tab, answers nothing), marked and stored as a member's
    practice answer (the mastery moves); at the last, the level moves as ``/focus practice``'s
    round end moves it."""
    state = await _state(db, guild_id, user_id)
    current = await _practice(db, guild_id, user_id, state)
    question = None if current is None else current.round.current
    if current is None or question is None or current.round.index != index \
            or current.key != key:
        return PracticeAnswered(None, current)
    read = _read(question, typed)
    if isinstance(read, DomainError):
        return PracticeAnswered(None, current, read)
    answer = mark(question, read, _seconds(state, current.key, index, now))
    await focus_play.record_answer(
        db, _stored(guild_id, user_id, answer, index, "practice", current.key), now=now,
        newcomer=False)
    questions = current.round.questions
    if index + 1 < len(questions):
        state["shown"] = _shown(current.key, index + 1, now)
        await db.web_practice.put(guild_id, user_id, state, now)
        return PracticeAnswered(answer, Practice(
            current.key, current.level, current.own,
            FocusRound(questions, [*current.round.answers, answer])))
    end = await focus_play.end_practice(db, guild_id, user_id, current.level, current.own,
                                        questions, current.key)
    state["practice"]["advice"] = None if end.advice is None else end.advice.to_json()
    state.pop("shown", None)
    await db.web_practice.put(guild_id, user_id, state, now)
    return PracticeAnswered(answer, Practice(current.key, current.level, current.own, end.round,
                                             end.advice))
