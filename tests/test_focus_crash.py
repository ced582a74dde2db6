"""A crash between two writes of a Focus answer (issue 12): the bot "dies" after the first write
(the second one fails), restarts, and the member answers again or resumes. Every question of a
round is stored exactly once, and the score and progress are right."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from test_cog_digits import duel, expected_answers, match_id_of, modal_question, take_focus
from test_cog_focus_daily import DAY, NINE, daily_bot, play, set_now

from bot.focus import daily_questions
from bot.play.digits import StoredMatch, focus_questions
from db import Database, FocusAnswer

SORRY = "Sorry, something went wrong on my side."


class Killed(Exception):
    """The process stopping right there (the write that raises it never happens)."""


def kill_once(monkeypatch: pytest.MonkeyPatch, repository: Any, name: str,
              after_calls: int = 0) -> list[int]:
    """Make ``repository.name`` raise ``Killed`` at its call number ``after_calls`` (from 0),
    once; the calls seen."""
    real = getattr(repository, name)
    calls: list[int] = []

    async def dying(*args: Any, **kwargs: Any) -> Any:
        calls.append(len(calls))
        if len(calls) - 1 == after_calls:
            raise Killed(f"killed before {name}")
        return await real(*args, **kwargs)

    monkeypatch.setattr(repository, name, dying)
    return calls


async def said_sorry(standin: Any, record: Any) -> None:
    """The member read the apology (at once, or after a deferral)."""
    await standin.wait_until(lambda: any(m.text().startswith(SORRY) for m in record.messages))


async def stored_questions(bot: Any, guild_id: int, user_id: int, source: str) -> list[str]:
    """The questions of the member's stored answers from ``source``, in the order stored."""
    rows = await bot.db.connection.all(
        "SELECT question FROM focus_answers WHERE guild_id = ? AND user_id = ? AND source = ?"
        " ORDER BY answer_id", (guild_id, user_id, source))
    return [row[0] for row in rows]


@pytest.mark.parametrize("killed_at", [2, 6], ids=["a middle answer", "the last answer"])
async def test_a_kill_between_a_match_focus_answer_and_its_progress_stores_it_once(
        standin, start_bot, restart_bot, monkeypatch, killed_at):
    bot, ana, _sam, board = await duel(standin, start_bot)
    match_id, guild_id = match_id_of(board), standin.guild.id
    game_seed = (await bot.db.digits.require_match(match_id)).state["engine"]["seed"]
    window = await take_focus(standin, bot, ana, board, stop_after=killed_at - 1)
    # The match's progress (and, at the last answer, the score) is saved next: it never is.
    kill_once(monkeypatch, bot.db.digits, "save_match")
    answer = next(b for b in window.buttons() if b["custom_id"].startswith("focus.run:"))
    opened = await standin.click(ana, window, answer["custom_id"])
    field, question = modal_question(opened.modal)
    expected = (await expected_answers(bot, match_id, ana))[question]
    died = await standin.submit_modal(ana, opened, {field: str(expected)})
    await said_sorry(standin, died)

    bot = await restart_bot(bot)
    shop = await take_focus(standin, bot, ana, board)  # goes on where the match says
    assert "Focus: 6/6" in shop.text()

    questions = [q.text for q in focus_questions(game_seed, 1, str(ana.id))]
    assert await stored_questions(bot, guild_id, ana.id, "match") == questions  # each once
    game = StoredMatch.from_row(await bot.db.digits.require_match(match_id))
    assert game.match.focus[str(ana.id)] == 6
    assert game.match.stage(str(ana.id)) == "shop"
    total = await bot.db.focus.progress(guild_id, ana.id, by="all")
    assert sum(p.answers for p in total) == 6 and sum(p.correct for p in total) == 6


async def test_a_kill_between_the_last_daily_answer_and_the_score_asks_it_again_once(
        standin, start_bot, restart_bot, monkeypatch, clock):
    bot, channel = await daily_bot(start_bot, standin)
    await bot.get_cog("Focus").flow.post_due_dailies(NINE)
    post = standin.last_message(channel)
    ana = standin.add_member("Ana")
    guild_id, questions = standin.guild.id, daily_questions(standin.guild.id, DAY)
    window = (await standin.click(ana, post, label="Take today's challenge")).reply
    await play(standin, ana, window, [q.answer for q in questions[:5]], clock)
    kill_once(monkeypatch, bot.db.daily, "finish_attempt")
    [button] = window.buttons()
    opened = await standin.click(ana, window, button["custom_id"])
    died = await standin.submit_modal(ana, opened, {"answer": str(questions[5].answer)})
    await said_sorry(standin, died)

    bot = await restart_bot(bot)
    set_now(bot, NINE + timedelta(minutes=5))
    # The last answer went with its score, in one transaction: neither is in, so the attempt
    # goes on at the last question.
    resumed = (await standin.click(ana, post, label="Take today's challenge")).reply
    assert "question 6/6" in resumed.text() and f"{questions[5].text} = ?" in resumed.text()
    await play(standin, ana, resumed, [questions[5].answer], clock)
    assert ": 6/6" in resumed.text()
    assert await stored_questions(bot, guild_id, ana.id, "daily") == [q.text for q in questions]
    attempt = await bot.db.daily.attempt(guild_id, DAY, ana.id)
    assert attempt.score == 6 and attempt.finished_at is not None
    total = await bot.db.focus.progress(guild_id, ana.id, by="all")
    assert sum(p.answers for p in total) == 6 and sum(p.correct for p in total) == 6


def answer(question: str = "2 + 3", *, key: str | None = "match:5:1", no: int | None = 0,
           given: int = 5, source: str = "match") -> FocusAnswer:
    return FocusAnswer(guild_id=1, user_id=10, topic="addition", level=1, question=question,
                       expected=5, given=given, time_ms=900, source=source, round_key=key,
                       question_no=no)


async def test_storing_the_same_question_of_a_round_again_changes_nothing(tmp_path: Path):
    async with await Database.open(tmp_path / "a.sqlite3") as db:
        assert await db.focus.record(answer()) is True
        assert await db.focus.record(answer(given=7)) is False  # the first answer stands
        assert await db.focus.record(answer(no=1)) is True
        assert await db.focus.record(answer(key="match:5:2")) is True
        # The same question of a round in a whole round at once (the daily's end): no-op too.
        await db.focus.record_many([answer(), answer(no=2), answer(no=2)])
        # Answers without a round (older callers) are not keyed: each one is stored.
        await db.focus.record(answer(key=None, no=None))
        await db.focus.record(answer(key=None, no=None))
        rows = await db.connection.all("SELECT round_key, question_no, given FROM focus_answers"
                             " ORDER BY answer_id")
        assert [tuple(r) for r in rows] == [("match:5:1", 0, 5), ("match:5:1", 1, 5),
                                            ("match:5:2", 0, 5), ("match:5:1", 2, 5),
                                            (None, None, 5), (None, None, 5)]
        assert [a.question_no for a in await db.focus.round_answers(1, 10, "match:5:1")] == [
            0, 1, 2]
        with pytest.raises(ValueError, match="go together"):
            await db.focus.record(answer(no=None))


TS = "2026-01-05 10:00:00.000"
OLD_ROWS = f"""
INSERT INTO servers (guild_id, created_at, updated_at) VALUES (1, '{TS}', '{TS}');
INSERT INTO players (guild_id, user_id, created_at) VALUES (1, 10, '{TS}'), (1, 11, '{TS}');
INSERT INTO daily_challenges (guild_id, day, questions, created_at) VALUES
    (1, '2026-01-05', '[{{"text": "1 + 1"}}, {{"text": "2 + 2"}}, {{"text": "3 + 3"}}]', '{TS}'),
    (1, '2026-01-06', '[{{"text": "4 + 4"}}, {{"text": "1 + 1"}}]', '2026-01-06 08:00:00.000');
INSERT INTO daily_attempts (guild_id, day, user_id, started_at) VALUES
    (1, '2026-01-05', 10, '{TS}'), (1, '2026-01-06', 10, '2026-01-06 09:00:00.000'),
    (1, '2026-01-05', 11, '{TS}');
INSERT INTO focus_answers (answer_id, guild_id, user_id, answered_at, source, topic, level,
    question, expected, given, correct, time_ms) VALUES
    (1, 1, 10, '2026-01-05 10:01:00.000', 'daily', 'addition', 1, '1 + 1', 2, 2, 1, 900),
    (2, 1, 10, '2026-01-05 10:02:00.000', 'daily', 'addition', 1, '2 + 2', 4, 4, 1, 900),
    (3, 1, 10, '2026-01-05 10:09:00.000', 'daily', 'addition', 1, '2 + 2', 4, 5, 0, 800),
    (4, 1, 10, '2026-01-06 09:01:00.000', 'daily', 'addition', 1, '4 + 4', 8, 8, 1, 900),
    (5, 1, 10, '2026-01-06 09:02:00.000', 'daily', 'addition', 1, '1 + 1', 2, 2, 1, 900),
    (6, 1, 11, '2026-01-05 10:03:00.000', 'daily', 'addition', 1, '2 + 2', 4, 4, 1, 900),
    (7, 1, 11, '2026-01-05 10:04:00.000', 'daily', 'addition', 1, '9 + 9', 18, 18, 1, 900),
    (8, 1, 10, '2026-01-04 10:00:00.000', 'daily', 'addition', 1, '1 + 1', 2, 2, 1, 900),
    (9, 1, 10, '{TS}', 'match', 'addition', 1, '5 + 5', 10, 10, 1, 900),
    (10, 1, 10, '{TS}', 'match', 'addition', 1, '5 + 5', 10, 10, 1, 900);
"""


async def test_the_upgrade_keys_old_daily_answers_and_drops_their_duplicates(tmp_path: Path):
    path = tmp_path / "old.sqlite3"
    await (await Database.open(path, target_version=5)).close()
    with sqlite3.connect(path) as conn:
        conn.executescript(OLD_ROWS)
    async with await Database.open(path) as db:
        rows = await db.connection.all("SELECT answer_id, round_key, question_no FROM focus_answers"
                             " ORDER BY answer_id")
        assert [tuple(r) for r in rows] == [
            (1, "daily:2026-01-05", 0), (2, "daily:2026-01-05", 1),  # 3 repeated 2: dropped
            (4, "daily:2026-01-06", 0), (5, "daily:2026-01-06", 1),
            (6, "daily:2026-01-05", 1),
            (7, None, None),  # not a question of that day: left as it was
            (8, None, None),  # before any attempt
            # Old match answers carry no trace of their round: kept as they are.
            (9, None, None), (10, None, None)]
        # An attempt begun before the upgrade resumes from its keyed answers, and its question
        # stored again is a no-op.
        done = await db.focus.round_answers(1, 10, "daily:2026-01-05")
        assert [a.question for a in done] == ["1 + 1", "2 + 2"]
        again = answer("2 + 2", key="daily:2026-01-05", no=1, source="daily")
        assert await db.focus.record(again) is False
        assert await db.connection.all("PRAGMA foreign_key_check") == []
