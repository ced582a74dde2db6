"""Homework without Discord: the due date as teachers write it, a topic's questions, the
assignment's storage (one attempt each, resumable, closed posts) and its erasure."""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from bot.domain import DomainError
from bot.focus import LEVELS
from bot.play import assignments as play
from db import Database
from db.focus import FocusAnswer

PARIS = ZoneInfo("Europe/Paris")
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)  # 10:00 in Paris
G, TEACHER, ANA, SAM = 10, 1, 20, 30


@pytest.mark.parametrize(("typed", "local"), [
    ("2026-12-08 18:00", (2026, 12, 8, 18, 0)),
    ("2026-12-08T18:30", (2026, 12, 8, 18, 30)),
    ("08/12/2026 18h00", (2026, 12, 8, 18, 0)),
    ("8/12/2026 18h", (2026, 12, 8, 18, 0)),
    ("le 08/12/2026 à 18H15", (2026, 12, 8, 18, 15)),
    ("08.12.26 7:05", (2026, 12, 8, 7, 5)),
    ("2026-12-08", (2026, 12, 8, 23, 59)),  # a date alone: the last minute of that day
    ("08/12", (2026, 12, 8, 23, 59)),  # no year: the next such date
    ("15/01 8h", (2027, 1, 15, 8, 0)),
    ("  2026-12-08   at 18:00 ", (2026, 12, 8, 18, 0)),
])
def test_a_due_date_is_read_as_teachers_write_it_in_the_servers_zone(typed, local):
    due = play.read_due(typed, PARIS, NOW)
    assert due.tzinfo == UTC
    assert due.astimezone(PARIS).timetuple()[:5] == local


@pytest.mark.parametrize("typed", ["tomorrow", "31/02/2027", "2026-13-01", "08/12/2026 25h",
                                   "12/08/2026 18:61", "", "2026-12-08 18:00 18:00"])
def test_a_due_date_that_means_nothing_is_refused_with_what_was_typed(typed):
    with pytest.raises(DomainError) as refused:
        play.read_due(typed, PARIS, NOW)
    assert refused.value.code == "class.assign.bad_due"
    assert refused.value.params == {"text": typed}


def test_the_autocomplete_offers_what_is_typed_then_the_next_days():
    offered = play.due_choices("9/12 17h", PARIS, NOW, days=3)
    assert [value for _, value in offered] == [
        "2026-12-09 17:00", "2026-11-30 23:59", "2026-12-01 23:59", "2026-12-02 23:59",
        "2026-12-03 23:59"]
    assert offered[0][0] == datetime(2026, 12, 9, 16, 0, tzinfo=UTC)
    # Every value offered reads back as the same moment.
    assert all(play.read_due(value, PARIS, NOW) == due for due, value in offered)
    assert [value for _, value in play.due_choices("nonsense", PARIS, NOW, days=0)] == [
        "2026-11-30 23:59"]
    assert [value for _, value in play.due_choices("30/11 9h", PARIS, NOW, days=0)] == [
        "2026-11-30 23:59"]  # 9:00 in Paris is past at 10:00


def test_a_topics_questions_come_from_the_levels_that_have_it_easiest_first():
    assert play.topic_levels("addition", 1, 8) == [1, 2, 3, 8]
    assert play.topic_levels("addition", 4, 7) == [1, 2, 3, 8]  # none within: all of them
    assert play.topic_levels("priority", 6, 8) == [6, 7, 8]
    drawn = play.topic_questions("priority", 7, [6, 7, 8], random.Random(3))
    assert {q.topic for q in drawn} == {"priority"}
    assert [q.level for q in drawn] == [6, 6, 6, 7, 7, 8, 8]
    assert len({q.text for q in drawn}) == 7
    assert all("priority" in LEVELS[q.level].topics for q in drawn)
    again = play.topic_questions("priority", 7, [6, 7, 8], random.Random(3))
    assert again == drawn  # the same seed, the same questions
    with pytest.raises(DomainError) as refused:
        play.topic_questions("fractions", 3, [1], random.Random(0))
    assert refused.value.code == "class.assign.unknown_topic"


def draft(**given) -> play.Draft:
    return play.Draft(**{"name": "Tables", "due": "2026-12-08 18:00", **given})


async def test_the_draft_is_checked_before_anything_is_stored(db: Database) -> None:
    cases = {
        "class.assign.no_source": draft(),
        "class.assign.two_sources": draft(level=3, topic="addition"),
        "class.assign.past_due": draft(level=3, due="2026-11-30 08:59"),
        "class.assign.bad_due": draft(level=3, due="next week"),
        "class.assign.bad_count": draft(level=3, count=21),
        "class.assign.bad_name": draft(level=3, name="   "),
        "class.questions.unknown": draft(set_name="Nope"),
        # The skill topics are topics too (issue 26: a school year's): only no topic at all is.
        "focus_year.unknown_topic": draft(topic="geometry"),
        "focus_year.unknown_skill": draft(skills="fractions-add, geometry"),
        "focus_year.skill_and_source": draft(skills="fractions-add", topic="fractions"),
    }
    for code, wanted in cases.items():
        with pytest.raises(DomainError) as refused:
            await play.create_assignment(db, G, TEACHER, wanted, NOW, seed=1)
        assert refused.value.code == code, code
    assert await db.assignments.of_server(G) == []


async def test_one_attempt_each_resumed_from_the_answers_stored(db: Database) -> None:
    made = await play.create_assignment(db, G, TEACHER, draft(level=4, count=3), NOW, seed=5)
    assert made.count == 3 and made.level == 4 and made.due_at == datetime(2026, 12, 8, 18,
                                                                           tzinfo=UTC)
    with pytest.raises(DomainError) as twice:
        await play.create_assignment(db, G, TEACHER, draft(name="TABLES ", level=2), NOW, 6)
    assert twice.value.code == "class.assign.duplicate"

    asked = play.questions(made)
    start = await play.take(db, made.assignment_id, G, ANA, [], NOW, str, lambda _: None)
    assert start.round.index == 0
    first = FocusAnswer(G, ANA, asked[0].topic, 4, asked[0].text, asked[0].answer,
                        asked[0].answer, 2000, "assignment", None, play.round_key(
                            made.assignment_id), 0)
    await play.record_answer(db, made.assignment_id, first, NOW)
    # Without an attempt (its member erased while their window was open), nothing is stored.
    stray = dataclasses.replace(first, user_id=ANA + 1)
    with pytest.raises(DomainError) as gone:
        await play.record_answer(db, made.assignment_id, stray, NOW)
    assert gone.value.code == "class.assign.not_started"
    assert await db.focus.recent(G, ANA + 1) == []
    again = await play.take(db, made.assignment_id, G, ANA, [], NOW, str, lambda _: None)
    assert again.round.index == 1 and again.round.score == 1
    rest = [first] + [FocusAnswer(G, ANA, q.topic, 4, q.text, q.answer, None, 1000,
                                  "assignment", None, play.round_key(made.assignment_id), n)
                      for n, q in enumerate(asked[1:], 1)]
    done = await play.finish(db, made.assignment_id, ANA, asked, rest, NOW)
    assert (done.score, done.time_ms) == (1, 4000)
    with pytest.raises(DomainError) as finished:
        await play.take(db, made.assignment_id, G, ANA, [], NOW, str, lambda _: None)
    assert finished.value.code == "class.assign.already_done"
    assert finished.value.params == {"score": 1, "size": 3}

    late = datetime(2026, 12, 8, 18, 1, tzinfo=UTC)
    with pytest.raises(DomainError) as closed:
        await play.take(db, made.assignment_id, G, SAM, [], late, lambda m: m.isoformat(),
                        lambda _: None)
    assert closed.value.params == {"due": "2026-12-08T18:00:00+00:00"}
    assert await play.to_close(db, late) == []  # never posted: nothing to close
    await play.posted(db, made.assignment_id, 5, 6)
    assert [a.assignment_id for a in await play.to_close(db, late)] == [made.assignment_id]
    # Another process's server (another shard): closed by that process, not this one.
    assert await play.to_close(db, late, lambda guild_id: guild_id != G) == []
    assert await play.to_close(db, NOW) == []
    await play.closed(db, made.assignment_id, late)
    assert await play.to_close(db, late) == []


async def test_erasing_a_student_and_a_teacher(db: Database) -> None:
    made = await play.create_assignment(db, G, TEACHER, draft(level=1, count=1), NOW, seed=5)
    [question] = play.questions(made)
    await play.take(db, made.assignment_id, G, ANA, [], NOW, str, lambda _: None)
    answer = FocusAnswer(G, ANA, question.topic, 1, question.text, question.answer,
                         question.answer, 900, "assignment", None,
                         play.round_key(made.assignment_id), 0)
    await play.finish(db, made.assignment_id, ANA, [question], [answer], NOW)
    exported = await db.export_player(G, ANA)
    assert exported["assignment_attempts"][0]["score"] == 1
    counts = await db.delete_player(G, ANA)
    assert counts["assignment_attempts"] == 1
    assert await db.assignments.attempts(made.assignment_id) == []
    assert await db.assignments.answers(G, made.assignment_id) == []

    await db.players.ensure(G, TEACHER)
    exported = await db.export_player(G, TEACHER)
    [mine] = exported["assignments_set"]
    assert mine["name"] == "Tables" and mine["closed_at"] is None and mine["level"] == 1
    counts = await db.delete_player(G, TEACHER)
    assert counts["assignments_anonymised"] == 1
    kept = await db.assignments.by_id(made.assignment_id)
    assert kept is not None and kept.teacher_id is None
