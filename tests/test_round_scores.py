"""Every round's score is what its stored answers say (issue 23).

Two windows of one round (two processes that both served a shard, or two copies of a round in
memory) each hold answers of their own; the database keeps the first answer of each question.
Whichever window finishes, the score stored (daily challenge, assignment), shown (practice) or
given to the match (a 20 Digits Focus) is the count of the right answers stored, and a live
round's ranking never counts an answer the database does not hold. On both databases."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.domain import DomainError
from bot.focus import FocusRound, Question
from bot.focus.round import mark
from bot.play import assignments
from bot.play import digits as match_play
from bot.play import focus as play
from bot.play.digits import Member
from bot.play.focus_live import LiveRounds, live_or_over
from db import Database, FocusAnswer, StaleVersion

G, TEACHER, ANA, SAM = 7, 1, 1001, 1002
NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def given(question: Question, number: int, right: bool, source: str, key: str,
          user: int = ANA) -> FocusAnswer:
    """Answer ``number`` of a round, right or wrong, as a window stores it."""
    return FocusAnswer(guild_id=G, user_id=user, topic=question.topic, level=question.level,
                       question=question.text, expected=question.answer,
                       given=question.answer if right else question.answer + 1,
                       time_ms=1000 + number, source=source, round_key=key,
                       question_no=number)


async def right_stored(db: Database, key: str, user: int = ANA) -> tuple[int, int, int]:
    """How many answers of the round are stored, how many right, their time."""
    stored = await db.focus.round_answers(G, user, key)
    return len(stored), sum(a.correct for a in stored), sum(a.time_ms for a in stored)


async def test_a_daily_attempt_finished_by_its_second_window_scores_the_stored_answers(
        db: Database) -> None:
    start = await play.start_daily(db, G, ANA, NOON, None, str, lambda day: None)
    day, questions = start.day, start.round.questions
    key = play.daily_round_key(day)
    # The first window: four answers, two wrong then two right.
    for number, right in enumerate([False, False, True, True]):
        await play.record_answer(db, given(questions[number], number, right, "daily", key))
    # The second window, opened before them, answers all six right and finishes the attempt.
    second = [given(q, n, True, "daily", key) for n, q in enumerate(questions)]
    for answer in second[:-1]:
        await play.record_answer(db, answer)
    result = await play.finish_daily(db, G, ANA, day, questions, second, NOON)
    count, right, time_ms = await right_stored(db, key)
    assert (count, right) == (6, 4)
    attempt = await db.daily.attempt(G, day, ANA)
    assert attempt is not None and (attempt.score, attempt.time_ms) == (right, time_ms)
    assert result.round.score == 4 and result.round.finished  # what the window shows
    assert result.mine is not None and result.mine.score == 4  # and the ranking
    with pytest.raises(DomainError) as twice:  # the first window, finishing in turn
        await play.finish_daily(db, G, ANA, day, questions, second, NOON)
    assert twice.value.code == "daily.already_finished"
    assert (await db.daily.attempt(G, day, ANA)).score == 4


async def test_an_assignment_finished_by_its_second_window_scores_the_stored_answers(
        db: Database) -> None:
    made = await assignments.create_assignment(
        db, G, TEACHER, assignments.Draft(name="Tables", due="2026-12-08 18:00", level=2,
                                          count=6), NOON, seed=5)
    start = await assignments.take(db, made.assignment_id, G, ANA, [], NOON, str,
                                   lambda _: None)
    questions = start.round.questions
    key = assignments.round_key(made.assignment_id)
    for number in range(3):  # the first window: three right
        await assignments.record_answer(
            db, made.assignment_id, given(questions[number], number, True, "assignment", key),
            NOON)
    # The second window answers all six wrong and finishes.
    second = [given(q, n, False, "assignment", key) for n, q in enumerate(questions)]
    for answer in second[:-1]:
        await assignments.record_answer(db, made.assignment_id, answer, NOON)
    done = await assignments.finish(db, made.assignment_id, ANA, questions, second, NOON)
    count, right, time_ms = await right_stored(db, key)
    assert (count, right) == (6, 3)
    assert (done.score, done.time_ms) == (right, time_ms)
    assert done.round.score == 3
    [row] = [a for a in await db.assignments.attempts(made.assignment_id) if a.user_id == ANA]
    assert row.score == 3


async def test_a_practice_round_in_two_windows_shows_its_stored_answers(db: Database) -> None:
    start = await play.start_practice(db, G, ANA, None, 3, NOON)
    questions = start.questions
    key = "practice:two-windows"
    await play.record_answer(db, given(questions[0], 0, True, "practice", key))
    for number, question in enumerate(questions):  # the other window: all wrong
        await play.record_answer(db, given(question, number, False, "practice", key))
    end = await play.end_practice(db, G, ANA, start.level, start.own, questions, key)
    count, right, _ = await right_stored(db, key)
    assert (count, right) == (len(questions), 1)
    assert end.round.score == 1 and end.round.finished


async def test_a_live_rounds_stale_copy_never_counts_an_answer_the_database_has_not(
        db: Database) -> None:
    clock = [100.0]
    here = LiveRounds(db, now=lambda: NOON, wall=lambda: clock[0])
    server = await play.server_settings(db, G)
    live = await here.start(server, 70, TEACHER, "Mme Roux", "en", teaches=True, count=2,
                            level=1, seconds=20, seed=1)
    # Another process's copy of the round, read before Ana answers in this one.
    there = LiveRounds(db, now=lambda: NOON, wall=lambda: clock[0])
    await there.load(live.live_id)
    question = await here.answerable(live.live_id, 1, ANA, "Ana")
    clock[0] = 102.0
    assert (await here.answer(live.live_id, 1, ANA, "Ana", str(question.answer), 102.0)).correct
    with pytest.raises(StaleVersion):
        await there.answer(live.live_id, 1, ANA, "Ana", str(question.answer + 1), 103.0)
    key = f"live:{live.live_id}"
    count, right, _ = await right_stored(db, key)
    assert (count, right) == (1, 1)
    for copy in (here, there):  # the stale copy was dropped: both read what is stored
        game = live_or_over(await copy.load(live.live_id))
        mine = [a for a in game.answers if a.player == ANA]
        assert len(mine) == count and sum(a.answer.correct for a in mine) == right
    # An answer the database holds for a question the copy thinks open (stored by a process
    # whose copy this one never saw): the copy's own answer is refused, not counted.
    await here.answerable(live.live_id, 1, SAM, "Sam")
    await db.focus.record(given(question, 0, False, "live", key, user=SAM))
    with pytest.raises(DomainError) as refused:
        await here.answer(live.live_id, 1, SAM, "Sam", str(question.answer), 104.0)
    assert refused.value.code == "focus.live_already_answered"
    game = live_or_over(await here.load(live.live_id))
    assert not [a for a in game.answers if a.player == SAM]
    assert await right_stored(db, key, SAM) == (1, 0, 1000)


async def test_a_matchs_focus_finished_by_its_second_window_gives_the_stored_score(
        db: Database) -> None:
    game = await match_play.challenge(db, G, 70, Member(ANA, "Ana"), Member(SAM, "Sam"),
                                      draft=None, lang="en", most=3)
    game = await match_play.answer_challenge(db, game.id, "active", message_id=555)
    questions = game.focus_round(str(ANA)).questions
    key = match_play.focus_round_key(game.id, game.match.round)

    async def window(rights: list[bool]) -> list[FocusAnswer]:
        marks, answers = [], []
        for number, right in enumerate(rights):
            answer = given(questions[number], number, right, "match", key)
            marks.append(mark(questions[number], answer.given, 1.0))
            answers.append(answer)
            if number + 1 < len(questions):
                await match_play.focus_answered(db, game.id, str(ANA), game.match.round,
                                                FocusRound(questions, list(marks)), answer)
        return answers

    await window([True, True, True])  # the first window
    second = await window([False] * len(questions))  # the second, which submits
    done = await match_play.submit_focus(db, game.id, str(ANA), game.match.round, None,
                                         second[-1])
    count, right, _ = await right_stored(db, key)
    assert (count, right) == (len(questions), 3)
    assert done.match.focus[str(ANA)] == right  # the gold of the round follows it
    assert sum(a.correct for a in done.focus_answers) == right
    assert len(done.focus_answers) == count
