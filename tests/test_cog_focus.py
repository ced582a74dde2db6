"""The Focus cog end to end through the stand-in: practice rounds (and the ephemeral round of
cogs._focus_ui), answers stored with their times, wrong formats, French, expired windows."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.focus import generate_questions
from cogs import _focus_ui

SEED = 42


class FakeClock:
    """The answer clock: each question takes exactly the time the test says."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(_focus_ui, "clock", fake)
    return fake


async def focus_bot(start_bot: Any) -> Any:
    bot = await start_bot()
    bot.get_cog("Focus").seed = lambda: SEED
    return bot


async def answer(standin: Any, member: Any, message: Any, typed: str) -> Any:
    opened = await standin.click(member, message, label="Answer")
    assert opened.modal is not None
    return await standin.submit_modal(member, opened, {"answer": typed})


async def test_a_practice_round_answered_right_and_wrong_is_scored_and_stored(
        standin, start_bot, clock):
    bot = await focus_bot(start_bot)
    ana = standin.add_member("Ana")
    questions = generate_questions(1, 6, random.Random(SEED))
    record = await standin.slash(ana, "focus practice")
    window = record.reply
    assert window.ephemeral_to == ana.id
    assert f"{questions[0].text} = ?" in window.text()
    for i, question in enumerate(questions):
        assert f"question {i + 1}/6" in window.text()
        clock.now += 2.5 + i
        typed = question.answer if i % 3 else question.answer + 1  # questions 1 and 4 wrong
        await answer(standin, ana, window, str(typed))
    text = window.text()
    assert "Practice: 4/6" in text
    assert f"❌ 1. {questions[0].text} = **{questions[0].answer}** · you typed " \
           f"{questions[0].answer + 1} · 2.5 s" in text
    assert f"✅ 2. {questions[1].text} = **{questions[1].answer}** · 3.5 s" in text
    assert "Total time: 30.0 s" in text
    stored = list(reversed(await bot.db.focus.recent(standin.guild.id, ana.id)))
    assert [a.question for a in stored] == [q.text for q in questions]
    assert [a.correct for a in stored] == [False, True, True, False, True, True]
    assert [a.time_ms for a in stored] == [2500, 3500, 4500, 5500, 6500, 7500]
    assert {(a.source, a.level, a.topic) for a in stored} == {("practice", 1, "addition")}
    assert stored[0].given == questions[0].answer + 1 and stored[0].expected == questions[0].answer
