"""bot.ui.focus_run as another cog uses it (the 20 Digits cog's match rounds): the callbacks, no
storage when asked, a round reopened by its key, the match's sentence for an expired window."""

from __future__ import annotations

import random
from typing import Any

from bot.focus import generate_questions

UI_COG = ["focus_ui_test_cog"]
QUESTIONS = generate_questions(1, 3, random.Random(5))




async def answer(standin: Any, member: Any, window: Any, typed: str) -> Any:
    opened = await standin.click(member, window, label="Answer")
    return await standin.submit_modal(member, opened, {"answer": typed})


async def test_a_match_focus_calls_back_and_leaves_the_end_to_its_cog(standin, start_bot, clock):
    bot = await start_bot(extra_cogs=UI_COG)
    ana = standin.add_member("Ana")
    window = (await standin.slash(ana, "uitest match")).reply
    assert "Round 3 · Focus · question 1/3" in window.text()
    for i, question in enumerate(QUESTIONS):
        clock.now += 2.0
        await answer(standin, ana, window, str(question.answer + (i == 1)))
    assert window.content == "Gold: 7"
    assert "Round 3 · Focus: 2/3" in window.text() and window.buttons() == []
    assert bot.get_cog("FocusUiTest").seen == [(42, True), (42, False), (42, True)]
    assert await bot.db.focus.recent(standin.guild.id, ana.id) == []  # record=False


async def test_the_same_key_reopens_the_round_where_it_was(standin, start_bot, clock):
    await start_bot(extra_cogs=UI_COG)
    ana = standin.add_member("Ana")
    first = (await standin.slash(ana, "uitest match")).reply
    await answer(standin, ana, first, str(QUESTIONS[0].answer))
    again = (await standin.slash(ana, "uitest match")).reply
    assert again is not first
    assert "question 2/3" in again.text()
    assert f"✅ {QUESTIONS[0].text} = {QUESTIONS[0].answer}" not in again.text()
    old = await standin.click(ana, first, label="Answer")  # the first window was replaced
    assert old.reply.content.startswith("This Focus window has expired")


async def test_an_expired_match_window_points_to_the_match_message(
        standin, start_bot, restart_bot, clock):
    bot = await start_bot(extra_cogs=UI_COG)
    ana = standin.add_member("Ana")
    window = (await standin.slash(ana, "uitest match")).reply
    await restart_bot(bot)
    expired = await standin.click(ana, window, label="Answer")
    assert expired.reply.content == (
        "This Focus window has expired (it waited more than 10 minutes, or Ardoise restarted). "
        "Open your Focus again from the match's message.")
