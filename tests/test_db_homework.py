"""Homework's storage of issue 27 (on both engines): a member's open assignments with their
attempt and answers, the reminder claimed once, the goal kept, and the skill of each answer."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from fractions import Fraction

from db import Database, FocusAnswer
from db.assignments import round_key

G, ANA, BEA = 10, 20, 21
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
QUESTION = {"text": "1 + 1", "ascii": "1 + 1", "answer": 2, "topic": "addition", "level": 1}


async def make(db: Database, name: str, due: datetime, *, posted: bool = True,
               remind_at: datetime | None = None, goal: str | None = None) -> int:
    made = await db.assignments.create(G, name, teacher_id=1, role_id=None, level=1, topic=None,
                                       set_id=None, set_name=None, questions=[QUESTION] * 2,
                                       due_at=due, now=NOW, remind_at=remind_at, goal=goal)
    if posted:
        await db.assignments.set_message(made.assignment_id, 5, 6 + made.assignment_id)
    return made.assignment_id


async def test_a_members_open_assignments_with_their_attempt_and_answers(db: Database) -> None:
    later = await make(db, "Later", NOW + timedelta(days=3))
    soon = await make(db, "Soon", NOW + timedelta(days=1), goal="right:3")
    await make(db, "Past", NOW - timedelta(minutes=1))
    await make(db, "Unposted", NOW + timedelta(days=2), posted=False)
    assignment = await db.assignments.by_id(soon)
    assert assignment is not None and assignment.goal == "right:3"
    await db.assignments.start_attempt(assignment, ANA, NOW)
    await db.assignments.record_answer(soon, FocusAnswer(
        G, ANA, "fractions", 5, "1/2 + 1/4", Fraction(3, 4), Fraction(2, 6), 1500,
        source="assignment", round_key=round_key(soon), question_no=0, skill="fractions-add",
        form="fraction"), NOW)
    mine = await db.assignments.for_member(G, ANA, NOW)
    assert [(m.assignment.name, m.answered) for m in mine] == [("Soon", 1), ("Later", 0)]
    assert mine[0].attempt is not None and mine[0].attempt.finished_at is None
    assert mine[1].attempt is None
    assert [m.answered for m in await db.assignments.for_member(G, BEA, NOW)] == [0, 0]
    [stored] = await db.assignments.answers(G, soon)
    assert (stored.skill, stored.form, stored.given) == ("fractions-add", "fraction",
                                                         Fraction(1, 3))
    assert later in {m.assignment.assignment_id for m in mine}


async def test_a_reminder_is_claimed_once_and_given_back(db: Database) -> None:
    at = NOW + timedelta(hours=1)
    due = await make(db, "Due", NOW + timedelta(days=1), remind_at=at)
    await make(db, "None", NOW + timedelta(days=1))
    await make(db, "Unposted", NOW + timedelta(days=1), posted=False, remind_at=at)
    assert await db.assignments.to_remind(NOW) == []
    assert [a.assignment_id for a in await db.assignments.to_remind(at)] == [due]
    assert await db.assignments.claim_reminder(due, at)
    assert not await db.assignments.claim_reminder(due, at)
    assert await db.assignments.to_remind(at) == []
    await db.assignments.release_reminder(due)
    assert [a.assignment_id for a in await db.assignments.to_remind(at)] == [due]
    # Past its due moment, a reminder is no use.
    assert await db.assignments.to_remind(NOW + timedelta(days=2)) == []
