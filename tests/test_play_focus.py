"""bot.play.focus and bot.play.focus_live directly, on a real Database in tmp_path (no Discord,
no stand-in): the level rules, a practice round's start and end, the daily attempt (new,
refused twice, resumed, finished with its rank), the daily post's bookkeeping, the live rounds'
state kept and saved."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from bot.domain import DomainError
from bot.focus import ROUND_SIZE, FocusRound
from bot.focus.round import mark
from bot.play import focus as play
from bot.play.focus_live import LiveRounds, LiveState, live_or_over
from db import Database, FocusAnswer, ServerSettings
from tests.focus_helpers import practice_questions

GUILD, ANA, BEN = 1, 10, 11
NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
DAY = date(2026, 12, 1)


def settings(**values: object) -> ServerSettings:
    return ServerSettings(guild_id=GUILD, **values)  # type: ignore[arg-type]


def test_the_level_range_is_the_server_s_and_a_pin_makes_the_daily_one_level() -> None:
    assert play.level_range(settings()) == (1, 8)
    assert play.level_range(settings(focus_level_min=3, focus_level_max=5)) == (3, 5)
    assert play.clamp(8, settings(focus_level_max=5)) == 5
    assert play.daily_range(settings()) == (2, 7)
    assert play.daily_range(settings(focus_level_min=4)) == (4, 7)
    assert play.daily_range(settings(focus_level_pinned=6, focus_level_max=5)) == (5, 5)
    assert play.daily_range(settings(focus_level_min=8)) == (8, 8)


async def test_practice_starts_at_the_member_s_level_and_refuses_a_level_out_of_range(
        db: Database) -> None:
    start = await play.start_practice(db, GUILD, ANA, None, seed=42)
    assert (start.level, start.own) == (1, 1)
    # A newcomer's round (bot.focus.review): five at their level, one of the level above.
    assert start.questions == practice_questions(1, 42)
    assert [q.level for q in start.questions] == [1] * (ROUND_SIZE - 1) + [2]
    await db.servers.update(GUILD, focus_level_max=4)
    with pytest.raises(DomainError) as refused:
        await play.start_practice(db, GUILD, ANA, 6, seed=42)
    assert refused.value.code == "focus.level_out_of_range"
    assert refused.value.params == {"level": 6, "min": 1, "max": 4}
    await db.servers.update(GUILD, focus_level_pinned=3)
    with pytest.raises(DomainError) as pinned:
        await play.start_practice(db, GUILD, ANA, 2, seed=42)
    assert pinned.value.code == "focus.level_pinned" and pinned.value.params == {"level": 3}
    at_pin = await play.start_practice(db, GUILD, ANA, 3, seed=1)
    # A pinned level is a lesson on one kind of question: nothing from the level above.
    assert at_pin.level == 3 and {q.level for q in at_pin.questions} == {3}


async def test_a_perfect_round_at_the_own_level_moves_the_level_a_chosen_one_does_not(
        db: Database) -> None:
    start = await play.start_practice(db, GUILD, ANA, None, seed=3)
    for i, question in enumerate(start.questions):
        answer = mark(question, question.answer, 2.0)
        await play.record_answer(db, FocusAnswer(
            guild_id=GUILD, user_id=ANA, topic=answer.topic, level=answer.level,
            question=answer.question, expected=answer.expected, given=answer.given,
            time_ms=2000, source="practice", round_key="practice:t", question_no=i))
    assert await play.finish_practice(db, GUILD, ANA, level=5, own=1) is None
    before = await db.players.get(GUILD, ANA)
    assert before is not None and before.focus_level == 1  # a chosen level moves nothing
    advice = await play.finish_practice(db, GUILD, ANA, level=1, own=1)
    assert advice is not None and advice.level == 2
    player = await db.players.get(GUILD, ANA)
    assert player is not None and player.focus_level == 2


async def test_the_daily_attempt_is_one_a_day_resumed_where_it_stopped_and_ranked(
        db: Database) -> None:
    def nothing_open(day: date) -> FocusRound | None:
        return None

    start = await play.start_daily(db, GUILD, ANA, NOON, None, str, nothing_open)
    assert start.day == DAY and start.round.index == 0
    questions = start.round.questions
    assert [q.level for q in questions] == [2, 3, 4, 5, 6, 7]
    with pytest.raises(DomainError) as old:
        await play.start_daily(db, GUILD, ANA, NOON, date(2026, 11, 30), lambda d: "hier",
                               nothing_open)
    assert old.value.code == "focus.daily_old_post" and old.value.params == {"day": "hier"}
    first = mark(questions[0], questions[0].answer, 3.0)
    await play.record_answer(db, FocusAnswer(
        guild_id=GUILD, user_id=ANA, topic=first.topic, level=first.level,
        question=first.question, expected=first.expected, given=first.given, time_ms=3000,
        source="daily", round_key=play.daily_round_key(DAY), question_no=0))
    again = await play.start_daily(db, GUILD, ANA, NOON, None, str, nothing_open)
    assert again.round.index == 1 and again.round.answers[0].correct  # resumed from the db
    kept = FocusRound(questions)
    assert (await play.start_daily(db, GUILD, ANA, NOON, None, str, lambda d: kept)).round \
        is kept  # the round open in this process wins
    answers = [FocusAnswer(guild_id=GUILD, user_id=ANA, topic=q.topic, level=q.level,
                           question=q.text, expected=q.answer, given=q.answer, time_ms=1000,
                           source="daily", round_key=play.daily_round_key(DAY), question_no=i)
               for i, q in enumerate(questions)]
    result = await play.finish_daily(db, GUILD, ANA, DAY, questions, answers, NOON)
    assert result.player.current_daily_streak(DAY) == 1
    assert result.mine is not None and result.mine.rank == 1 and result.total == 1
    with pytest.raises(DomainError) as twice:
        await play.start_daily(db, GUILD, ANA, NOON, None, str, nothing_open)
    assert twice.value.code == "focus.daily_already_played"
    board = await play.daily_board(db, GUILD, ANA, NOON)
    assert board.day == DAY and board.row_of(ANA) is not None and board.row_of(BEN) is None


async def test_a_daily_is_due_from_its_hour_until_its_post_is_remembered(db: Database) -> None:
    await db.servers.update(GUILD, daily_channel_id=5, daily_hour=9)
    [server] = await play.servers_with_daily(db)
    assert await play.due_daily(db, server, datetime(2026, 12, 1, 8, 59, tzinfo=UTC)) is None
    assert await play.due_daily(db, server, NOON) == DAY
    await play.daily_challenge(db, server, DAY, NOON)
    await play.daily_posted(db, GUILD, DAY, 5, 99)
    assert await play.due_daily(db, server, NOON) is None


async def test_live_rounds_are_for_teachers_saved_after_each_change_and_read_back(
        db: Database) -> None:
    clock = [100.0]
    rounds = LiveRounds(db, now=lambda: NOON, wall=lambda: clock[0])
    server = await play.server_settings(db, GUILD)
    with pytest.raises(DomainError) as refused:
        await rounds.start(server, 7, ANA, "Ana", "en", teaches=False, count=2, level=None,
                           seconds=20, seed=1)
    assert refused.value.code == "focus.live_teachers_only"
    live = await rounds.start(server, 7, ANA, "Ana", "en", teaches=True, count=2, level=None,
                              seconds=20, seed=1)
    assert live.live_id > 0 and live.level == 1 and live.shown_at == 100.0
    async with rounds.lock(live.live_id):
        game = live_or_over(await rounds.load(live.live_id))
        assert game.current is not None
        game.answer(BEN, str(game.current.answer), 2.0)
        await rounds.save(live)
    fresh = LiveRounds(db, now=lambda: NOON, wall=lambda: clock[0])  # as after a restart
    read = await fresh.load(live.live_id)
    assert read.version == live.version and read.names == {ANA: "Ana"}
    assert read.game is not None and [a.player for a in read.game.answers] == [BEN]
    read.game = None
    await fresh.save(read)
    finished = await fresh.load(live.live_id)
    assert finished.status == "finished"
    with pytest.raises(DomainError) as over:
        live_or_over(finished)
    assert over.value.code == "focus.live_finished"
    assert isinstance(finished, LiveState)


async def test_a_live_round_is_answered_moved_on_and_finished_by_its_service(
        db: Database) -> None:
    clock = [100.0]
    rounds = LiveRounds(db, now=lambda: NOON, wall=lambda: clock[0])
    server = await play.server_settings(db, GUILD)
    live = await rounds.start(server, 7, ANA, "Ana", "en", teaches=True, count=2, level=1,
                              seconds=20, seed=1)
    with pytest.raises(DomainError) as teacher:
        await rounds.answerable(live.live_id, 1, ANA)
    assert teacher.value.code == "focus.live_teacher_answers"
    question = await rounds.answerable(live.live_id, 1, BEN)
    unreadable = await rounds.answer(live.live_id, 1, BEN, "Ben", "douze", 101.0)
    assert unreadable.unreadable is not None and unreadable.unreadable.code == "focus.not_a_number"
    clock[0] = 103.0
    right = await rounds.answer(live.live_id, 1, BEN, "Ben", str(question.answer), 103.0)
    assert right.correct and right.points > 0 and right.unreadable is None
    [stored] = await db.focus.recent(GUILD, BEN)
    assert (stored.source, stored.round_key, stored.time_ms) == ("live", f"live:{live.live_id}",
                                                                 3000)
    with pytest.raises(DomainError) as twice:
        await rounds.answerable(live.live_id, 1, BEN)
    assert twice.value.code == "focus.live_already_answered"
    with pytest.raises(DomainError) as not_teacher:
        await rounds.next(live.live_id, 1, BEN)
    assert not_teacher.value.code == "focus.live_next_teacher_only"
    step = await rounds.next(live.live_id, 1, ANA)
    assert (step.closed.number, step.closed.right, step.closed.answered) == (1, 1, 1)
    assert step.final is None and step.live.shown_at == 103.0 and step.game.index == 1
    with pytest.raises(DomainError) as stale:
        await rounds.next(live.live_id, 1, ANA)
    assert stale.value.code == "game.stale"
    last = await rounds.next(live.live_id, 2, ANA)
    assert last.final is not None and last.final.names == {ANA: "Ana", BEN: "Ben"}
    assert last.live.game is None and last.live.status == "finished"
    assert [s.player for s in last.game.ranking()] == [BEN]
