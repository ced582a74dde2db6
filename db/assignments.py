"""Homework (``/class assign``): an assignment's questions, drawn once and stored, its post, its
due date, and each student's one attempt (the answers themselves are ``focus_answers`` rows under
the round key ``assignment:<id>``, stored like a daily challenge's: one per question)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.domain import DomainError
from bot.focus.exact import WHOLE, Exact, parse_exact
from db.connection import Connection, Row, db_time, dumps, from_db_time, to_db_time, utc
from db.focus import FocusAnswer, FocusRepository
from db.players import PlayersRepository
from db.servers import ServersRepository


def round_key(assignment_id: int) -> str:
    """The name of a student's attempt among their stored answers (``focus_answers``)."""
    return f"assignment:{assignment_id}"


@dataclass(frozen=True)
class Assignment:
    assignment_id: int
    guild_id: int
    name: str
    teacher_id: int | None
    channel_id: int | None
    message_id: int | None
    role_id: int | None  # None: everyone
    level: int | None  # exactly one of level, topic, set_name says the questions
    topic: str | None
    set_id: int | None
    set_name: str | None
    count: int
    questions: list[dict[str, Any]]  # bot.focus.Question.to_json(), in order
    due_at: datetime
    created_at: datetime
    closed_at: datetime | None
    lang: str = "en"  # the post's
    started: int = 0  # attempts begun (finished included)
    finished: int = 0
    #: A school year's draw (schema 20): ``{"year", "skills", "climb"}``; None: drawn as before
    #: school years (``bot.play.assignments``).
    drawn_from: dict[str, Any] | None = None
    #: When the reminder is posted (None: no reminder), and when it was (claimed).
    remind_at: datetime | None = None
    reminded_at: datetime | None = None
    #: What ends an attempt (``bot.focus.goals``): None, the count of questions.
    goal: str | None = None

    def is_open(self, now: datetime) -> bool:
        """Whether it may still be taken: until its due moment, included."""
        return utc(now) <= self.due_at


@dataclass(frozen=True)
class AssignmentAttempt:
    assignment_id: int
    guild_id: int
    user_id: int
    score: int | None  # None until finished
    time_ms: int | None
    started_at: datetime
    finished_at: datetime | None


@dataclass(frozen=True)
class MemberAssignment:
    """One assignment as a student sees it in ``/focus homework``: their attempt (None before
    they begin) and how many of its questions they have answered."""

    assignment: Assignment
    attempt: AssignmentAttempt | None
    answered: int


@dataclass(frozen=True)
class AttemptAnswer:
    """One stored answer of an attempt, as the report reads it."""

    user_id: int
    question_no: int
    question: str
    expected: Exact  # an int, or a Fraction (db.focus: schema 14's exact columns)
    given: Exact | None
    correct: bool
    time_ms: int
    skill: str = ""  # the question's skill (its topic for the eight levels')
    form: str = WHOLE


_SELECT = (
    "SELECT a.*,"
    " (SELECT count(*) FROM assignment_attempts t WHERE t.assignment_id = a.assignment_id)"
    " AS started,"
    " (SELECT count(*) FROM assignment_attempts t WHERE t.assignment_id = a.assignment_id"
    " AND t.finished_at IS NOT NULL) AS finished"
    " FROM assignments a"
)


def _assignment(row: Row) -> Assignment:
    return Assignment(
        assignment_id=row["assignment_id"], guild_id=row["guild_id"], name=row["name"],
        teacher_id=row["teacher_id"], channel_id=row["channel_id"],
        message_id=row["message_id"], role_id=row["role_id"], level=row["level"],
        topic=row["topic"], set_id=row["set_id"], set_name=row["set_name"], count=row["count"],
        questions=json.loads(row["questions"]), due_at=db_time(row["due_at"]),
        created_at=db_time(row["created_at"]), closed_at=from_db_time(row["closed_at"]),
        lang=row["lang"], started=row["started"], finished=row["finished"],
        drawn_from=None if row["drawn_from"] is None else json.loads(row["drawn_from"]),
        remind_at=from_db_time(row["remind_at"]), reminded_at=from_db_time(row["reminded_at"]),
        goal=row["goal"])


def _attempt(row: Row) -> AssignmentAttempt:
    return AssignmentAttempt(
        assignment_id=row["assignment_id"], guild_id=row["guild_id"], user_id=row["user_id"],
        score=row["score"], time_ms=row["time_ms"], started_at=db_time(row["started_at"]),
        finished_at=from_db_time(row["finished_at"]))


class AssignmentsRepository:
    def __init__(self, conn: Connection, servers: ServersRepository,
                 players: PlayersRepository, focus: FocusRepository) -> None:
        self._conn = conn
        self._servers = servers
        self._players = players
        self._focus = focus

    # --- The assignment ---------------------------------------------------------------------

    async def create(self, guild_id: int, name: str, *, teacher_id: int | None,
                     role_id: int | None, level: int | None, topic: str | None,
                     set_id: int | None, set_name: str | None,
                     questions: Sequence[dict[str, Any]], due_at: datetime, lang: str = "en",
                     now: datetime | None = None,
                     drawn_from: dict[str, Any] | None = None, remind_at: datetime | None = None,
                     goal: str | None = None) -> Assignment:
        """A new assignment with its questions. ``sqlite3.IntegrityError`` (through the
        connection) if the server has one of that name, whatever its case: check with ``get``."""
        async with self._conn.atomic():
            await self._servers.ensure(guild_id, now)
            assignment_id = await self._conn.insert(
                "INSERT INTO assignments (guild_id, name, teacher_id, role_id, level, topic,"
                " set_id, set_name, count, questions, due_at, created_at, lang, drawn_from,"
                " remind_at, goal)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING assignment_id",
                (guild_id, name, teacher_id, role_id, level, topic, set_id, set_name,
                 len(questions), dumps(list(questions)), to_db_time(due_at),
                 to_db_time(utc(now)), lang,
                 None if drawn_from is None else dumps(drawn_from),
                 None if remind_at is None else to_db_time(remind_at), goal))
            found = await self.by_id(assignment_id)
        assert found is not None
        return found

    async def get(self, guild_id: int, name: str) -> Assignment | None:
        """The server's assignment of that name (any case), or None."""
        row = await self._conn.one(f"{_SELECT} WHERE a.guild_id = ? AND a.name = ?",
                                   (guild_id, name))
        return None if row is None else _assignment(row)

    async def by_id(self, assignment_id: int) -> Assignment | None:
        row = await self._conn.one(f"{_SELECT} WHERE a.assignment_id = ?", (assignment_id,))
        return None if row is None else _assignment(row)

    async def of_server(self, guild_id: int) -> list[Assignment]:
        """The server's assignments, the newest first."""
        rows = await self._conn.all(
            f"{_SELECT} WHERE a.guild_id = ? ORDER BY a.created_at DESC, a.assignment_id DESC",
            (guild_id,))
        return [_assignment(row) for row in rows]

    async def delete(self, assignment_id: int) -> bool:
        """Forget an assignment (one whose post failed); its attempts go with it."""
        return await self._conn.run("DELETE FROM assignments WHERE assignment_id = ?",
                                    (assignment_id,)) > 0

    async def set_message(self, assignment_id: int, channel_id: int, message_id: int) -> None:
        """Remember where the assignment was posted."""
        await self._conn.run(
            "UPDATE assignments SET channel_id = ?, message_id = ? WHERE assignment_id = ?",
            (channel_id, message_id, assignment_id))

    async def to_close(self, now: datetime | None = None) -> list[Assignment]:
        """The posted assignments past their due date whose post's button is not closed yet,
        the earliest due first (what the background task closes, after a restart too)."""
        rows = await self._conn.all(
            f"{_SELECT} WHERE a.closed_at IS NULL AND a.due_at < ? AND a.message_id IS NOT NULL"
            " ORDER BY a.due_at, a.assignment_id", (to_db_time(utc(now)),))
        return [_assignment(row) for row in rows]

    async def mark_closed(self, assignment_id: int, now: datetime | None = None) -> None:
        await self._conn.run(
            "UPDATE assignments SET closed_at = ? WHERE assignment_id = ? AND closed_at IS NULL",
            (to_db_time(utc(now)), assignment_id))

    async def for_member(self, guild_id: int, user_id: int, now: datetime | None = None
                         ) -> list[MemberAssignment]:
        """The server's posted assignments not yet past their due moment, the soonest due
        first, each with the member's attempt and the number of their answers stored (the
        caller keeps those for the member's roles)."""
        rows = await self._conn.all(
            "SELECT a.*,"
            " (SELECT count(*) FROM assignment_attempts s WHERE s.assignment_id = a.assignment_id)"
            " AS started,"
            " (SELECT count(*) FROM assignment_attempts s WHERE s.assignment_id = a.assignment_id"
            " AND s.finished_at IS NOT NULL) AS finished,"
            " t.user_id AS attempt_user, t.score AS attempt_score, t.time_ms AS attempt_time,"
            " t.started_at AS attempt_started, t.finished_at AS attempt_finished,"
            " (SELECT count(*) FROM focus_answers f WHERE f.guild_id = a.guild_id"
            " AND f.user_id = ? AND f.round_key = 'assignment:' || CAST(a.assignment_id AS TEXT))"
            " AS answered"
            " FROM assignments a LEFT JOIN assignment_attempts t"
            " ON t.assignment_id = a.assignment_id AND t.user_id = ?"
            " WHERE a.guild_id = ? AND a.due_at >= ? AND a.message_id IS NOT NULL"
            " ORDER BY a.due_at, a.assignment_id",
            (user_id, user_id, guild_id, to_db_time(utc(now))))
        found: list[MemberAssignment] = []
        for row in rows:
            attempt = None if row["attempt_user"] is None else AssignmentAttempt(
                assignment_id=row["assignment_id"], guild_id=row["guild_id"], user_id=user_id,
                score=row["attempt_score"], time_ms=row["attempt_time"],
                started_at=db_time(row["attempt_started"]),
                finished_at=from_db_time(row["attempt_finished"]))
            found.append(MemberAssignment(_assignment(row), attempt, row["answered"]))
        return found

    async def to_remind(self, now: datetime | None = None) -> list[Assignment]:
        """The posted assignments whose reminder is due and not yet claimed, still open (a
        reminder after the due moment would be no use), the earliest due first."""
        at = to_db_time(utc(now))
        rows = await self._conn.all(
            f"{_SELECT} WHERE a.remind_at IS NOT NULL AND a.reminded_at IS NULL"
            " AND a.remind_at <= ? AND a.due_at >= ? AND a.message_id IS NOT NULL"
            " ORDER BY a.due_at, a.assignment_id", (at, at))
        return [_assignment(row) for row in rows]

    async def claim_reminder(self, assignment_id: int, now: datetime | None = None) -> bool:
        """Whether this caller is the one to post the reminder: the database decides, once
        (another process, or this one before a restart, may have claimed it)."""
        return await self._conn.run(
            "UPDATE assignments SET reminded_at = ? WHERE assignment_id = ?"
            " AND reminded_at IS NULL", (to_db_time(utc(now)), assignment_id)) > 0

    async def release_reminder(self, assignment_id: int) -> None:
        """Give a claimed reminder back (Discord failed to take it: tried again later)."""
        await self._conn.run(
            "UPDATE assignments SET reminded_at = NULL WHERE assignment_id = ?",
            (assignment_id,))

    # --- Attempts ---------------------------------------------------------------------------

    async def attempt(self, assignment_id: int, user_id: int) -> AssignmentAttempt | None:
        row = await self._conn.one(
            "SELECT * FROM assignment_attempts WHERE assignment_id = ? AND user_id = ?",
            (assignment_id, user_id))
        return None if row is None else _attempt(row)

    async def start_attempt(self, assignment: Assignment, user_id: int,
                            now: datetime | None = None) -> AssignmentAttempt:
        """The member's one attempt: opened now, or the one they opened before."""
        async with self._conn.atomic():
            await self._players.ensure(assignment.guild_id, user_id, now)
            await self._conn.run(
                "INSERT INTO assignment_attempts (assignment_id, guild_id, user_id, started_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (assignment_id, user_id) DO NOTHING",
                (assignment.assignment_id, assignment.guild_id, user_id, to_db_time(utc(now))))
            found = await self.attempt(assignment.assignment_id, user_id)
        assert found is not None
        return found

    async def record_answer(self, assignment_id: int, answer: FocusAnswer,
                            now: datetime | None = None) -> bool:
        """Store one answer of the member's attempt (whether it was new). Raises
        ``class.assign.not_started`` when they have no attempt: one erased (``delete-player``)
        while a window of theirs was open in the running bot, which must not write their answers
        back."""
        async with self._conn.atomic():
            if await self.attempt(assignment_id, answer.user_id) is None:
                raise DomainError("class.assign.not_started", "this attempt was not started")
            return await self._focus.record(answer, now, newcomer=False)

    async def finish_attempt(self, assignment_id: int, user_id: int,
                             score: int | None = None, time_ms: int | None = None,
                             answers: Sequence[FocusAnswer] = (),
                             now: datetime | None = None) -> AssignmentAttempt:
        """Store the attempt's ``answers`` (those stored already stay as they were) and close
        it, at once; the attempt closed. Raises ``class.assign.not_started`` or
        ``class.assign.already_done``.

        The score and time are counted from the attempt's stored answers in the statement that
        closes it, unless given (as ``db.daily``'s ``finish_attempt``: never from a window's
        memory)."""
        if (score is not None and score < 0) or (time_ms is not None and time_ms < 0):
            raise ValueError(f"score and time cannot be negative: {score}, {time_ms}")
        async with self._conn.transaction():
            attempt = await self.attempt(assignment_id, user_id)
            if attempt is None:
                raise DomainError("class.assign.not_started", "this attempt was not started")
            if attempt.finished_at is not None:
                raise DomainError("class.assign.already_done", "this attempt is finished",
                                  score=attempt.score, size=len(answers))
            changed = await self._focus.close_attempt(
                "assignment_attempts", "assignment_id = ? AND user_id = ?",
                (assignment_id, user_id), attempt.guild_id, user_id, round_key(assignment_id),
                answers, score, time_ms, now)
            # Within the transaction nobody else closes it (a writer at a time).
            [found] = changed
        return _attempt(found)

    async def attempts(self, assignment_id: int) -> list[AssignmentAttempt]:
        """Every attempt, the finished ones first by score (best) and time, then the others."""
        rows = await self._conn.all(
            "SELECT * FROM assignment_attempts WHERE assignment_id = ?"
            " ORDER BY finished_at IS NULL, score DESC, time_ms, started_at, user_id",
            (assignment_id,))
        return [_attempt(row) for row in rows]

    async def answers(self, guild_id: int, assignment_id: int) -> list[AttemptAnswer]:
        """Every stored answer of the assignment, by student and question."""
        rows = await self._conn.all(
            "SELECT user_id, question_no, question, expected, given, correct, time_ms,"
            " expected_exact, given_exact, skill, form, topic"
            " FROM focus_answers WHERE guild_id = ? AND round_key = ?"
            " ORDER BY user_id, question_no", (guild_id, round_key(assignment_id)))
        return [AttemptAnswer(user_id=row[0], question_no=row[1], question=row[2],
                              expected=row[3] if row[7] is None else parse_exact(row[7]),
                              given=row[4] if row[8] is None else parse_exact(row[8]),
                              correct=bool(row[5]), time_ms=row[6], skill=row[9] or row[11],
                              form=row[10] or WHOLE) for row in rows]

    async def known_players(self, guild_id: int) -> list[int]:
        """The members who have used Ardoise in the server (the bot has no member list)."""
        rows = await self._conn.all(
            "SELECT user_id FROM players WHERE guild_id = ? ORDER BY user_id", (guild_id,))
        return [row[0] for row in rows]
