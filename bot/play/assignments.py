"""Homework (``/class assign``): a teacher sets a Focus set, due at a moment in the server's time
zone, for everyone or a role; each student takes it once (resumed where they stopped, after a
restart too, as the daily challenge is); the list, the closing of past-due posts, the report and
its spreadsheet. No Discord: ``cogs/_class_assign.py`` and ``bot.ui.assignments`` show what these
return.

Decisions:

- The questions are drawn once, at creation, with the caller's seed, and stored: every student
  gets the same questions in the same order (fair, and the report compares them question by
  question).
- A topic's questions come from the levels that have the topic, within the server's level range
  when some are (else all of them), spread evenly over those levels, easiest first.
- On a server with a school year (issue 26), a level's questions are the year's at that level
  (``bot.focus.school.draw_round``), a topic's are the year's skills of that topic, climbing
  through the server's levels; ``skill:`` (``bot.play.year_skills``) keeps only those skills, at
  the level given or, alone, climbing through the server's levels. The questions stored carry
  their skill, which the post names.
- The due moment is read in the server's time zone: ``2026-12-08 18:00``, ``08/12/2026 18h00``
  (day first, as in French), ``08/12 18h`` (the next such date), a date alone means 23:59 that
  day. The assignment may be taken up to that minute, included; an attempt begun before it may be
  finished after it (the window stays open), but not resumed.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from bot import spreadsheet
from bot.domain import DomainError, RoleRef
from bot.focus import LEVELS, TOPICS, FocusRound, Question, generate_questions
from bot.focus.exact import WHOLE, Exact
from bot.focus.goals import MAX_ATTEMPTS, Goal, goal_questions, read_goal
from bot.focus.question_stats import Given, QuestionStat, answer_text, question_stats
from bot.play.focus import (
    class_questions,
    level_range,
    practice_questions,
    round_as_stored,
    stored_round,
)
from bot.play.question_sets import answer_cell, find_set, questions_of
from bot.play.year_skills import read_skills, read_topic, server_year, topic_skills
from bot.shards import Owner, every_server
from bot.texts import decimal, decimal_symbol, question_text, t
from db import Database
from db.assignments import (
    Assignment,
    AssignmentAttempt,
    AttemptAnswer,
    MemberAssignment,
    round_key,
)
from db.connection import IntegrityError
from db.focus import FocusAnswer

DEFAULT_COUNT = 6
MAX_COUNT = 20
#: The reminder's choices, in hours before the due moment (0: none), and the default.
REMINDERS = (0, 1, 24, 48)
DEFAULT_REMINDER = 24
NAME_LENGTH = 60
#: A date without a time: the last minute of that day.
END_OF_DAY = time(23, 59)
#: Draws of one level's question before a topic is given up (a level has it once in 3 at
#: worst: level 7's order of operations).
_TOPIC_ATTEMPTS = 500

#: The questions an assignment with a goal starts from (``bot.focus.goals``: the pool).
GOAL_POOL = MAX_COUNT

__all__ = ["DEFAULT_COUNT", "MAX_ATTEMPTS", "MAX_COUNT", "Assignment", "AssignmentAttempt",
           "Goal", "round_key"]


# --- The due moment ---------------------------------------------------------------------------

_TIME = r"(?:\s+(?P<hour>\d{1,2})(?:\s*[:hH]\s*(?P<minute>\d{2})?)?)?"
_ISO = re.compile(r"(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})" + _TIME)
_DAY_FIRST = re.compile(r"(?P<day>\d{1,2})[/.](?P<month>\d{1,2})(?:[/.](?P<year>\d{2}|\d{4}))?"
                        + _TIME)
#: Words a teacher may put between the date and the time ("le 8/12 à 18h", "2026-12-08 at 6").
_FILLER = re.compile(r"\b(?:le|at|on)\b|[àT,]", re.IGNORECASE)


def _bad_due(text: str) -> DomainError:
    return DomainError("class.assign.bad_due", f"cannot read {text!r} as a date and time",
                       text=text)


def read_due(text: str, zone: ZoneInfo, now: datetime) -> datetime:
    """``text`` as a moment in ``zone`` (see the module's decisions), in UTC. Unreadable or
    impossible (31/02): ``class.assign.bad_due``. The past is the caller's to refuse."""
    cleaned = " ".join(_FILLER.sub(" ", text).split())
    found = _ISO.fullmatch(cleaned) or _DAY_FIRST.fullmatch(cleaned)
    if found is None:
        raise _bad_due(text)
    parts = found.groupdict()
    local_now = now.astimezone(zone)
    try:
        year = parts["year"]
        day = date(int(year) + (2000 if year and len(year) == 2 else 0) if year
                   else local_now.year, int(parts["month"]), int(parts["day"]))
        if year is None and day < local_now.date():
            day = day.replace(year=day.year + 1)  # "08/12" in January: next December
        at = (END_OF_DAY if parts["hour"] is None
              else time(int(parts["hour"]), int(parts["minute"] or 0)))
    except ValueError:
        raise _bad_due(text) from None
    return datetime.combine(day, at, tzinfo=zone).astimezone(UTC)


def due_choices(typed: str, zone: ZoneInfo, now: datetime, days: int = 7
                ) -> list[tuple[datetime, str]]:
    """What the due date's autocomplete offers: what is typed, as it is read (when it is, and is
    to come), then the end of each of the next ``days`` days; each with the value to send
    back."""
    offered: list[tuple[datetime, str]] = []
    if typed.strip():
        try:
            due = read_due(typed, zone, now)
        except DomainError:
            pass
        else:
            if due > now:  # a past one would only be refused
                offered.append((due, due.astimezone(zone).strftime("%Y-%m-%d %H:%M")))
    today = now.astimezone(zone).date()
    for n in range(days + 1):
        day = today + timedelta(days=n)
        due = datetime.combine(day, END_OF_DAY, tzinfo=zone).astimezone(UTC)
        if due > now and all(due != seen for seen, _ in offered):
            offered.append((due, f"{day.isoformat()} 23:59"))
    return offered


# --- Setting an assignment --------------------------------------------------------------------


def topic_levels(topic: str, low: int, high: int) -> list[int]:
    """The levels that have ``topic``: those within ``low``–``high`` if any, else all."""
    having = [n for n, level in sorted(LEVELS.items()) if topic in level.topics]
    within = [n for n in having if low <= n <= high]
    return within or having


def topic_questions(topic: str, count: int, levels: Sequence[int], rng: random.Random
                    ) -> list[Question]:
    """``count`` different questions of ``topic``, spread over ``levels``, easiest first."""
    if topic not in TOPICS or not levels:
        raise DomainError("class.assign.unknown_topic", f"no Focus topic {topic!r}", topic=topic)
    plan = sorted(levels[n * len(levels) // count] for n in range(count))
    seen: set[str] = set()
    drawn: list[Question] = []
    for level in plan:
        for _ in range(_TOPIC_ATTEMPTS):
            [question] = generate_questions(level, 1, rng)
            if question.topic == topic and question.text not in seen:
                break
        else:
            raise DomainError("focus.too_many_questions",
                              f"level {level} cannot give that many {topic} questions",
                              level=level)
        seen.add(question.text)
        drawn.append(question)
    return drawn


@dataclass(frozen=True)
class Draft:
    """What a teacher asks, read from the command (nothing is checked yet)."""

    name: str
    due: str
    level: int | None = None
    topic: str | None = None
    set_name: str | None = None
    #: The ``skill:`` option as given (``bot.play.year_skills.read_skills`` reads it).
    skills: str | None = None
    count: int = DEFAULT_COUNT
    role_id: int | None = None
    lang: str = "en"  # the post's language
    #: Hours before the due moment when the students not done are reminded (0: never).
    reminder: int = DEFAULT_REMINDER
    #: What ends an attempt, as typed (``bot.focus.goals.read_goal``); None: ``count``.
    goal: str | None = None


def remind_at(due: datetime, hours: int, now: datetime) -> datetime | None:
    """When the reminder is posted: ``hours`` before ``due``; none when 0, or when that moment
    is already past as the assignment is set (a reminder at once would only be noise)."""
    if hours not in REMINDERS:
        raise DomainError("homework.bad_reminder", f"a reminder is one of {REMINDERS} hours",
                          hours=hours)
    at = due - timedelta(hours=hours)
    return at if hours and at > now else None


async def create_assignment(db: Database, guild_id: int, teacher_id: int, draft: Draft,
                            now: datetime, seed: int) -> Assignment:
    """Check the draft, draw its questions with ``seed`` and store the assignment (not posted
    yet: ``posted`` says where it went). Bad input changes nothing."""
    name = " ".join(draft.name.split())
    if not 1 <= len(name) <= NAME_LENGTH:
        raise DomainError("class.assign.bad_name", "an assignment's name has 1 to 60 characters",
                          max=NAME_LENGTH)
    chosen = read_skills(draft.skills)
    if chosen and (draft.topic is not None or draft.set_name is not None):
        raise DomainError("focus_year.skill_and_source", "skills go alone or with a level")
    given = sum(x is not None for x in (draft.level, draft.topic, draft.set_name))
    if given != 1 and not (chosen and given == 0):
        raise DomainError("class.assign.no_source" if given == 0 else "class.assign.two_sources",
                          "say which questions with exactly one of level, topic or set")
    if not 1 <= draft.count <= MAX_COUNT:
        raise DomainError("class.assign.bad_count", "from 1 to 20 questions", max=MAX_COUNT)
    if draft.reminder not in REMINDERS:
        raise DomainError("homework.bad_reminder", f"a reminder is one of {REMINDERS} hours",
                          hours=draft.reminder)
    goal = read_goal(draft.goal)
    # With a goal, the count is the pool's: the questions met in turn (bot.focus.goals).
    count = draft.count if goal is None else GOAL_POOL
    settings = await db.servers.get(guild_id)
    zone = settings.tz()
    due = read_due(draft.due, zone, now)
    if due <= now:
        raise DomainError("class.assign.past_due", "the due date is past",
                          due=due.astimezone(zone).strftime("%Y-%m-%d %H:%M"),
                          now=now.astimezone(zone).strftime("%Y-%m-%d %H:%M"),
                          zone=settings.timezone)
    if await db.assignments.get(guild_id, name) is not None:
        raise DomainError("class.assign.duplicate", "an assignment has that name", name=name)
    rng = random.Random(seed)
    set_id = set_name = None
    topic = None if draft.topic is None else read_topic(draft.topic)
    year = server_year(settings)
    if draft.level is not None and draft.level not in LEVELS:
        raise DomainError("focus.unknown_level", "no such level", level=draft.level,
                          min=min(LEVELS), max=max(LEVELS))
    level = draft.level
    levels = level_range(settings)
    climb = bool(chosen) and level is None
    drawn_from: dict[str, Any] | None = None
    if year is not None or chosen:
        drawn_from = {"year": year, "skills": list(chosen), "climb": climb}
    if chosen:
        questions = class_questions(year, level, rng, count, chosen, levels)
        if climb:
            level = levels[0]  # from the lowest up (the row has a level, a topic or a set)
    elif level is not None:
        # The year's questions at that level; the level's own without a year, as before.
        questions = practice_questions(year, level, rng, count)
    elif topic is not None:
        if year is None and topic in TOPICS:
            questions = topic_questions(topic, count, topic_levels(topic, *levels), rng)
        else:
            drawn_from = {"year": year, "skills": [], "climb": True}
            questions = class_questions(year, None, rng, count, topic_skills(topic, year),
                                        levels)
    else:
        drawn_from = None  # a teacher's set: their own questions, whatever the year
        assert draft.set_name is not None
        found = await find_set(db, guild_id, draft.set_name)
        questions = await questions_of(db, guild_id, found.name, count, rng)
        if not questions:
            raise DomainError("class.assign.empty_set", "that set has no questions",
                              name=found.name)
        set_id, set_name = found.set_id, found.name
    try:
        return await db.assignments.create(
            guild_id, name, teacher_id=teacher_id, role_id=draft.role_id, level=level,
            topic=topic, set_id=set_id, set_name=set_name,
            questions=[q.to_json() for q in questions], due_at=due, lang=draft.lang,
            now=now, drawn_from=drawn_from, remind_at=remind_at(due, draft.reminder, now),
            goal=None if goal is None else goal.stored())
    except IntegrityError:  # the same name set a moment ago by another teacher
        raise DomainError("class.assign.duplicate", "an assignment has that name",
                          name=name) from None


async def posted(db: Database, assignment_id: int, channel_id: int, message_id: int) -> None:
    await db.assignments.set_message(assignment_id, channel_id, message_id)


async def withdraw(db: Database, assignment_id: int) -> None:
    """Forget an assignment whose post could not be sent (nobody could have seen it)."""
    await db.assignments.delete(assignment_id)


async def server_assignments(db: Database, guild_id: int) -> list[Assignment]:
    """The server's assignments, newest first."""
    return await db.assignments.of_server(guild_id)


async def set_names(db: Database, guild_id: int) -> list[str]:
    """The server's question sets' names (the ``set`` option's autocomplete)."""
    return [found.name for found in await db.question_sets.of_server(guild_id)]


async def server_zone(db: Database, guild_id: int) -> ZoneInfo:
    return (await db.servers.get(guild_id)).tz()


# --- Taking it --------------------------------------------------------------------------------


def questions(assignment: Assignment) -> list[Question]:
    return [Question.from_json(q) for q in assignment.questions]


async def find(db: Database, guild_id: int, name: str) -> Assignment:
    """The server's assignment of that name, or a refusal naming it."""
    found = await db.assignments.get(guild_id, " ".join(name.split()))
    if found is None:
        raise DomainError("class.assign.unknown", f"no assignment named {name!r}", name=name)
    return found


def goal_of(assignment: Assignment) -> Goal | None:
    return None if assignment.goal is None else Goal.from_stored(assignment.goal)


def attempt_questions(assignment: Assignment, user_id: int, correct: Sequence[bool]
                      ) -> list[Question]:
    """A goal's attempt: the questions asked for the answers ``correct`` (right or wrong, in
    order), then the next (``bot.focus.goals``: the same for the same assignment, student and
    answers; a fresh question of the same skill after a wrong answer, but from a teacher's set,
    which has no skill)."""
    return goal_questions(questions(assignment), correct,
                          f"{assignment.assignment_id}:{user_id}",
                          redraw=assignment.set_name is None)


def next_question(assignment: Assignment, user_id: int, correct: Sequence[bool]
                  ) -> Question | None:
    """The question after the answers ``correct`` of a goal's attempt; None once it is over
    (the goal reached, or ``MAX_ATTEMPTS`` answers)."""
    goal = goal_of(assignment)
    if goal is None:
        raise ValueError("only an assignment with a goal draws as it goes")
    if goal.over(correct):
        return None
    return attempt_questions(assignment, user_id, correct)[-1]


async def resumed(db: Database, assignment: Assignment, user_id: int) -> FocusRound:
    """An attempt begun earlier (its window closed, or the bot restarted): the answers already
    stored, in order, then the rest (a goal's: the next question)."""
    key = round_key(assignment.assignment_id)
    if assignment.goal is None:
        return await round_as_stored(db, assignment.guild_id, user_id, questions(assignment),
                                     key)
    stored = await db.focus.round_answers(assignment.guild_id, user_id, key)
    asked = attempt_questions(assignment, user_id, [a.correct for a in stored])
    return stored_round(asked, stored)


@dataclass(frozen=True)
class Start:
    assignment: Assignment
    round: FocusRound


async def take(db: Database, assignment_id: int, guild_id: int, user_id: int,
               role_ids: Sequence[int], now: datetime,
               when: Callable[[datetime], str],
               open_round: Callable[[int], FocusRound | None]) -> Start:
    """The member's attempt: new, or resumed (the round still open in this process,
    ``open_round(assignment_id)``, else the answers stored). Refused: not for their roles, already
    finished (with their score), past its due moment (``when`` says it in the member's words)."""
    assignment = await db.assignments.by_id(assignment_id)
    if assignment is None or assignment.guild_id != guild_id:
        raise DomainError("class.assign.gone", "this assignment no longer exists")
    if assignment.role_id is not None and assignment.role_id not in role_ids:
        raise DomainError("class.assign.not_for_you", "the assignment is for a role",
                          role=RoleRef(assignment.role_id))
    attempt = await db.assignments.attempt(assignment_id, user_id)
    if attempt is not None and attempt.finished_at is not None:
        goal = goal_of(assignment)
        if goal is not None:
            done = await db.focus.round_answers(guild_id, user_id, round_key(assignment_id))
            reached = goal.reached([a.correct for a in done])
            raise DomainError(f"homework.done_{'reached' if reached else 'missed'}",
                              "already done", score=attempt.score, count=len(done))
        raise DomainError("class.assign.already_done", "already done", score=attempt.score,
                          size=assignment.count)
    if not assignment.is_open(now):
        raise DomainError("class.assign.closed", "past its due date",
                          due=when(assignment.due_at))
    if attempt is None:
        await db.assignments.start_attempt(assignment, user_id, now)
        first = (questions(assignment) if assignment.goal is None
                 else attempt_questions(assignment, user_id, []))
        return Start(assignment, FocusRound(first))
    return Start(assignment, open_round(assignment_id) or await resumed(db, assignment, user_id))


async def record_answer(db: Database, assignment_id: int, answer: FocusAnswer,
                        now: datetime) -> None:
    """One answer, stored as it is given (a second write of that question is a no-op); refused
    (``class.assign.not_started``) if the attempt is gone: its member was erased."""
    await db.assignments.record_answer(assignment_id, answer, now)


@dataclass(frozen=True)
class Finished:
    attempt: AssignmentAttempt
    #: The attempt as stored (its score is the stored answers' right ones): what to show, even
    #: if another window of the attempt stored some of them first.
    round: FocusRound

    @property
    def score(self) -> int | None:
        return self.attempt.score

    @property
    def time_ms(self) -> int | None:
        return self.attempt.time_ms


async def finish(db: Database, assignment_id: int, user_id: int, asked: list[Question],
                 answers: list[FocusAnswer], now: datetime) -> Finished:
    """Every answer, then the score and time counted from the answers stored, in one
    transaction (the others were stored already: each is keyed by its question, a second write
    is a no-op); and the attempt as stored."""
    attempt = await db.assignments.finish_attempt(assignment_id, user_id, answers=answers,
                                                  now=now)
    return Finished(attempt, await round_as_stored(db, attempt.guild_id, user_id, asked,
                                                   round_key(assignment_id)))


# --- A student's homework (/focus homework) ----------------------------------------------------


@dataclass(frozen=True)
class Homework:
    """One open assignment of a student's: ``status`` is ``done``, ``started`` (at question
    ``answered + 1``) or ``todo``."""

    assignment: Assignment
    attempt: AssignmentAttempt | None
    answered: int

    @property
    def status(self) -> str:
        if self.attempt is None:
            return "todo"
        return "done" if self.attempt.finished_at is not None else "started"


async def homework_of(db: Database, guild_id: int, user_id: int, role_ids: Sequence[int],
                      now: datetime) -> list[Homework]:
    """The member's open assignments on the server (those not past their due moment, for
    everyone or for one of ``role_ids``), the soonest due first; done ones included (their
    score is shown), until they close."""
    held = set(role_ids)
    found: list[MemberAssignment] = await db.assignments.for_member(guild_id, user_id, now)
    return [Homework(m.assignment, m.attempt, m.answered) for m in found
            if m.assignment.role_id is None or m.assignment.role_id in held]


# --- Closing the posts ------------------------------------------------------------------------


async def to_close(db: Database, now: datetime, owns: Owner = every_server
                   ) -> list[Assignment]:
    """The posts past their due date whose button is not closed yet (after a restart too), of
    the servers this process ``owns`` (its shards')."""
    return [made for made in await db.assignments.to_close(now) if owns(made.guild_id)]


async def closed(db: Database, assignment_id: int, now: datetime) -> None:
    await db.assignments.mark_closed(assignment_id, now)


# --- The reminder ------------------------------------------------------------------------------


async def to_remind(db: Database, now: datetime, owns: Owner = every_server
                    ) -> list[Assignment]:
    """The assignments whose reminder is due, not yet claimed, still open, of the servers this
    process ``owns``."""
    return [made for made in await db.assignments.to_remind(now) if owns(made.guild_id)]


async def claim_reminder(db: Database, assignment_id: int, now: datetime) -> bool:
    """Whether this process posts the reminder (once: the database decides)."""
    return await db.assignments.claim_reminder(assignment_id, now)


async def release_reminder(db: Database, assignment_id: int) -> None:
    await db.assignments.release_reminder(assignment_id)


# --- The report -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Report:
    assignment: Assignment
    attempts: list[AssignmentAttempt]  # finished first (best score, then time), then begun
    answers: dict[int, list[AttemptAnswer]]  # by student, in question order
    #: Known players of the server who have not begun it (the caller keeps those still members,
    #: with the role, and not teachers).
    not_started: list[int]
    teacher_role_ids: frozenset[int] = field(default_factory=frozenset)
    zone: ZoneInfo = field(default_factory=lambda: ZoneInfo("UTC"))

    @property
    def finished(self) -> list[AssignmentAttempt]:
        return [a for a in self.attempts if a.finished_at is not None]

    @property
    def unfinished(self) -> list[AssignmentAttempt]:
        return [a for a in self.attempts if a.finished_at is None]

    @property
    def goal(self) -> Goal | None:
        return goal_of(self.assignment)

    def reached(self, user_id: int) -> bool:
        """Whether the student's stored answers reach the assignment's goal."""
        goal = self.goal
        return goal is not None and goal.reached([a.correct for a in
                                                  self.answers.get(user_id, [])])

    def question_stats(self) -> list[QuestionStat]:
        """Each question's figures from the stored answers (``bot.focus.question_stats``), in
        the assignment's order; a question nobody answered is left out. With a goal, each
        student met their own questions: they are told apart by their text."""
        if self.goal is not None:
            return question_stats(
                Given(a.user_id, a.question, a.question, a.skill, a.form, a.expected, a.given,
                      a.correct, a.time_ms)
                for answers in self.answers.values() for a in answers)
        asked = questions(self.assignment)
        return question_stats(
            Given(a.user_id, str(a.question_no), a.question,
                  asked[a.question_no].skill if a.question_no < len(asked) else "",
                  asked[a.question_no].form if a.question_no < len(asked) else WHOLE,
                  a.expected, a.given, a.correct, a.time_ms, a.question_no + 1)
            for answers in self.answers.values() for a in answers)


async def report(db: Database, guild_id: int, name: str) -> Report:
    return await report_of(db, await find(db, guild_id, name))


async def report_of(db: Database, assignment: Assignment) -> Report:
    """The assignment's report: who finished, who began, who of the known players has not (the
    reminder's "not finished" is the last two, as the report shows them)."""
    guild_id = assignment.guild_id
    settings = await db.servers.get(guild_id)
    attempts = await db.assignments.attempts(assignment.assignment_id)
    answers: dict[int, list[AttemptAnswer]] = {}
    for answer in await db.assignments.answers(guild_id, assignment.assignment_id):
        answers.setdefault(answer.user_id, []).append(answer)
    begun = {a.user_id for a in attempts}
    others = [uid for uid in await db.assignments.known_players(guild_id) if uid not in begun]
    return Report(assignment, attempts, answers, others, settings.admin_role_ids, settings.tz())


async def assignment_names(db: Database, guild_id: int) -> list[str]:
    return [a.name for a in await db.assignments.of_server(guild_id)]


def expected_cell(question: Question, lang: str) -> str | Exact:
    """A question's answer in the report: a teacher's as written, with the decimal sign of
    ``lang`` (``1/2 | 0,5``, as the set's file says it); else the answer as the reports write
    it (``8,6`` in French, ``3/4``)."""
    if question.written:
        return answer_cell(question.written, lang)
    return number_cell(question.answer, question.form, lang)


def number_cell(value: Exact | None, form: str, lang: str) -> str:
    """An answer as a spreadsheet reads a number: the decimal sign of ``lang`` (``8,6``), a
    fraction ``3/4``, an ASCII minus (``-2``); "" for none."""
    return answer_text(value, form, decimal_symbol(lang)).replace("−", "-")


_MARK = {True: "right", False: "wrong"}
def report_csv(report: Report, names: dict[int, str], missing: Sequence[int], lang: str) -> bytes:
    """One row per student and question: who (``names``), their state and score, the question,
    the answer expected and given, right or wrong, the time (every cell through
    ``bot.spreadsheet``: a name or a question that a spreadsheet would read as a formula is kept
    as text). UTF-8 with a BOM (so spreadsheets
    read the accents); in French ``;`` between fields and a decimal comma, as French spreadsheets
    expect."""
    out = io.StringIO()
    writer = spreadsheet.writer(out, lang)
    if report.goal is not None:
        _goal_csv(writer, report, names, missing, lang)
        return out.getvalue().encode("utf-8-sig")
    writer.writerow([t(f"class.assign.csv.{column}", lang) for column in
                     ("student", "status", "score", "number", "question", "expected", "given",
                      "correct", "time")])
    asked = questions(report.assignment)
    rows: list[tuple[int, str, int | None]] = [
        *((a.user_id, "done", a.score) for a in report.finished),
        *((a.user_id, "started", None) for a in report.unfinished),
        *((uid, "missing", None) for uid in missing)]
    for user_id, status, score in rows:
        given = {a.question_no: a for a in report.answers.get(user_id, [])}
        for n, question in enumerate(asked):
            answer = given.get(n)
            writer.writerow([
                names[user_id], t(f"class.assign.csv.{status}", lang),
                "" if score is None else score, n + 1, question_text(question.text, lang),
                expected_cell(question, lang),
                "" if answer is None else number_cell(answer.given, question.form, lang),
                "" if answer is None else t(f"class.assign.csv.{_MARK[answer.correct]}", lang),
                "" if answer is None else decimal(answer.time_ms / 1000, lang, 1)])
    return out.getvalue().encode("utf-8-sig")


def _goal_csv(writer: spreadsheet.Writer, report: Report, names: dict[int, str],
              missing: Sequence[int], lang: str) -> None:
    """An assignment with a goal: one row per student and answer (each met their own
    questions), with their attempts (answers given) and whether they reached the goal; one row
    for a student who has not begun."""
    writer.writerow([t(f"class.assign.csv.{column}", lang) for column in
                     ("student", "status", "score")]
                    + [t(f"homework.csv.{column}", lang) for column in ("attempts", "reached")]
                    + [t(f"class.assign.csv.{column}", lang) for column in
                       ("number", "question", "expected", "given", "correct", "time")])
    rows: list[tuple[int, str]] = [*((a.user_id, "done") for a in report.finished),
                                   *((a.user_id, "started") for a in report.unfinished)]
    for user_id, status in rows:
        answers = report.answers.get(user_id, [])
        right = sum(a.correct for a in answers)
        reached = t(f"class.assign.csv.{_MARK[report.reached(user_id)]}", lang)
        for answer in answers:
            writer.writerow([
                names[user_id], t(f"class.assign.csv.{status}", lang), right, len(answers),
                reached, answer.question_no + 1, answer.question, answer.expected,
                "" if answer.given is None else answer.given,
                t(f"class.assign.csv.{_MARK[answer.correct]}", lang),
                decimal(answer.time_ms / 1000, lang, 1)])
    for user_id in missing:
        writer.writerow([names[user_id], t("class.assign.csv.missing", lang), "", 0,
                         t("class.assign.csv.wrong", lang), "", "", "", "", "", ""])
