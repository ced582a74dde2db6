"""A live round's answers given at the same moment are saved together (issue 30: a class room of
200 answering one question): each answer gets its own result or refusal, as if it had come
alone, and every answer counts once, in the round and in ``focus_answers``. On both
databases."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from bot.domain import DomainError
from bot.focus import Question
from bot.play import focus as play
from bot.play.focus_live import LiveAnswered, LiveRounds, LiveState, live_or_over, round_key
from db import Database, FocusAnswer

G, TEACHER = 7, 1
NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
WALL = 100.0  # the rounds' clock (seconds)


async def started(db: Database) -> tuple[LiveRounds, LiveState, Question]:
    """A live round of two questions started (its wall clock at ``WALL``), and its first
    question."""
    rounds = LiveRounds(db, now=lambda: NOON, wall=lambda: WALL)
    server = await play.server_settings(db, G)
    live = await rounds.start(server, 70, TEACHER, "Mme Roux", "en", teaches=True, count=2,
                              level=4, seconds=20, seed=1)
    question = live_or_over(live).current
    assert question is not None
    return rounds, live, question


async def test_answers_at_the_same_moment_are_saved_together_each_with_its_own_result(
        db: Database) -> None:
    rounds, live, question = await started(db)
    first_version = live.version
    students = list(range(-40, 0))  # browser students' ids are negative
    typed = {uid: str(question.answer if uid % 3 else question.answer + 1) for uid in students}
    typed[-1] = "twelve"  # unreadable: refused, nothing changed

    async def answer(uid: int, text: str) -> LiveAnswered | DomainError:
        try:
            return await rounds.answer(live.live_id, 1, uid, f"S{uid}", text, 102.0)
        except DomainError as refusal:
            return refusal

    results = await asyncio.gather(*(answer(uid, typed[uid]) for uid in students),
                                   answer(-2, "1"))  # -2 a second time: refused
    by_student = dict(zip([*students, 0], results, strict=True))
    twice = by_student[0]
    assert isinstance(twice, DomainError) and twice.code == "focus.live_already_answered"
    unreadable = by_student[-1]
    assert isinstance(unreadable, LiveAnswered) and unreadable.unreadable is not None
    for uid in students[:-1]:
        result = by_student[uid]
        assert isinstance(result, LiveAnswered) and result.unreadable is None
        assert result.correct == (uid % 3 != 0) and result.points == (950 if uid % 3 else 0)
    stored = await db.focus.answers_of_round(G, round_key(live.live_id))
    assert sorted(a.user_id for a in stored) == students[:-1]
    assert sum(a.correct for a in stored) == sum(1 for uid in students[:-1] if uid % 3)
    row = await db.focus_live.require(live.live_id)
    game = live_or_over(await LiveRounds(db, now=lambda: NOON, wall=lambda: WALL)
                        .load(live.live_id))
    assert sorted(a.player for a in game.answers) == students[:-1]
    assert -1 not in game.players and row.state["names"]["-3"] == "S-3"
    # Saved together: far fewer versions than answers.
    assert row.version - first_version < len(students) - 1


async def test_a_group_that_cannot_be_saved_is_taken_one_by_one(db: Database) -> None:
    rounds, live, question = await started(db)
    # An answer of -3 stored by a process whose copy of the round this one never saw (the
    # round's version unchanged): the group holding -3 fails to save as a whole, and its
    # answers are then taken one by one: -3's refused, the others counted.
    await db.focus.record(FocusAnswer(
        guild_id=G, user_id=-3, topic=question.topic, level=question.level,
        question=question.text, expected=question.answer, given=question.answer + 1,
        time_ms=1000, source="live", round_key=round_key(live.live_id), question_no=0))
    results = await asyncio.gather(*(rounds.answer(live.live_id, 1, uid, f"S{uid}",
                                                   str(question.answer), 102.0)
                                     for uid in (-5, -4, -3, -2)), return_exceptions=True)
    refused = results[2]
    assert isinstance(refused, DomainError) and refused.code == "focus.live_already_answered"
    assert all(isinstance(r, LiveAnswered) and r.correct for i, r in enumerate(results)
               if i != 2)
    stored = await db.focus.answers_of_round(G, round_key(live.live_id))
    assert sorted((a.user_id, a.correct) for a in stored) == [
        (-5, True), (-4, True), (-3, False), (-2, True)]
    game = live_or_over(await rounds.load(live.live_id))
    assert sorted(a.player for a in game.answers) == [-5, -4, -2]


async def test_with_other_processes_a_copy_is_used_only_while_it_is_the_stored_one(
        db: Database) -> None:
    """Several processes (``shared``): any of them takes a class room's answer, so a copy kept
    in memory is checked against the stored version before use. A round another process went
    past is read again: its answer is refused as given already, never counted twice; a member
    an erasure took out of the round has the answer of their open window refused."""
    clock = [100.0]
    server = await play.server_settings(db, G)
    here = LiveRounds(db, now=lambda: NOON, wall=lambda: clock[0], shared=True)
    live = await here.start(server, 70, TEACHER, "Mme Roux", "en", teaches=True, count=2,
                            level=4, seconds=20, seed=1)
    question = live_or_over(live).current
    assert question is not None
    there = LiveRounds(db, now=lambda: NOON, wall=lambda: clock[0], shared=True)
    await there.load(live.live_id)  # read before -5 answers here
    await here.answerable(live.live_id, 1, 1005, "Ana")  # a member joins (their modal opens)
    assert (await here.answer(live.live_id, 1, -5, "E", str(question.answer), 101.0)).correct
    with pytest.raises(DomainError) as twice:
        await there.answer(live.live_id, 1, -5, "E", str(question.answer + 1), 102.0)
    assert twice.value.code == "focus.live_already_answered"
    await db.delete_player(G, 1005)
    with pytest.raises(DomainError) as erased:
        await here.answer(live.live_id, 1, 1005, "Ana", str(question.answer), 103.0)
    assert erased.value.code == "focus.erased"
    stored = await db.focus.answers_of_round(G, round_key(live.live_id))
    assert [(a.user_id, a.correct) for a in stored] == [(-5, True)]
