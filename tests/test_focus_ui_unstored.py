"""A Focus round whose click or answer reaches the bot before discord.py has registered the view
or modal that shows it (a quick member while the bot is busy, found by ``tools.load``): the
round is still open, so it goes on instead of being called expired.

Since issue 13 the buttons are ``RoundButton`` DynamicItems (discord.py stores nothing per
window, so a click cannot come "before" anything) and every answer modal's submission is taken
by ``take_submission`` (stored by discord.py or not)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from bot.focus import generate_questions
from bot.ui import focus_run as _focus_ui

SEED = 7
EXPIRED = "This practice round has expired"


async def practice(standin: Any, start_bot: Any) -> tuple[Any, Any, Any]:
    bot = await start_bot()
    bot.get_cog("Focus").flow.seed = lambda: SEED
    ana = standin.add_member("Ana")
    window = (await standin.slash(ana, "focus practice")).reply
    return bot, ana, window


def the_run(bot: Any) -> _focus_ui.FocusRun:
    [run] = _focus_ui._registry(bot).runs.values()
    return run


async def stored(bot: Any, wanted: Callable[[Any], bool]) -> Any:
    """The view or modal of the bot's view store that ``wanted`` picks, once discord.py has
    stored it (a moment after the stand-in received the answer that shows it)."""
    store = bot._connection._view_store
    for _ in range(1000):
        found = [*store._modals.values(),
                 *(item.view for items in store._views.values() for item in items.values())]
        found = [v for v in found if wanted(v)]
        if found:
            return found[0]
        await asyncio.sleep(0)
    raise AssertionError("discord.py never stored it")


async def forget(bot: Any, wanted: Callable[[Any], bool]) -> None:
    """As if discord.py had not stored it yet."""
    bot._connection._view_store.remove_view(await stored(bot, wanted))


async def test_a_click_before_the_question_view_is_registered_opens_the_modal(
        standin, start_bot):
    bot, ana, window = await practice(standin, start_bot)
    questions = generate_questions(1, 6, random.Random(SEED))
    # Nothing of the window is in discord.py's store, so nothing can be missing from it...
    store = bot._connection._view_store
    assert window.id not in store._views and not store.is_message_tracked(window.id)
    # ... and a click read while the window was still being sent (its message not known yet).
    the_run(bot).shown_in = None
    opened = await standin.click(ana, window, label="Answer")
    assert opened.modal is not None and opened.modal["title"] == "Question 1/6"
    await standin.submit_modal(ana, opened, {"answer": str(questions[0].answer)})
    assert "question 2/6" in window.text()
    assert f"✅ {questions[0].text} = {questions[0].answer}: right!" in window.text()


async def test_an_answer_before_its_modal_is_registered_is_marked_and_stored(
        standin, start_bot):
    bot, ana, window = await practice(standin, start_bot)
    questions = generate_questions(1, 6, random.Random(SEED))
    opened = await standin.click(ana, window, label="Answer")
    await forget(bot, lambda v: isinstance(v, _focus_ui.AnswerModal))
    wrong = questions[0].answer + 1
    submitted = await standin.submit_modal(ana, opened, {"answer": str(wrong)})
    assert submitted.reply is window
    assert "question 2/6" in window.text()
    [stored] = await bot.db.focus.recent(standin.guild.id, ana.id)
    assert stored.given == wrong and not stored.correct


async def test_a_second_answer_to_a_question_already_answered_changes_nothing(
        standin, start_bot):
    bot, ana, window = await practice(standin, start_bot)
    questions = generate_questions(1, 6, random.Random(SEED))
    opened = await standin.click(ana, window, label="Answer")
    await standin.submit_modal(ana, opened, {"answer": str(questions[0].answer)})
    # Question 1's modal again, which nothing has registered any more: the round has moved on,
    # so it is not taken for question 2; the window shows where the round is.
    again = await standin.submit_modal(ana, opened, {"answer": "3"})
    assert again.reply is window
    assert "question 2/6" in window.text()
    assert len(await bot.db.focus.recent(standin.guild.id, ana.id)) == 1


async def test_a_click_on_a_round_that_is_closed_still_says_expired(standin, start_bot):
    bot, ana, window = await practice(standin, start_bot)
    _focus_ui._close(the_run(bot))  # as when the round is replaced or finished
    clicked = await standin.click(ana, window, label="Answer")
    assert clicked.reply.content.startswith(EXPIRED) and clicked.reply.ephemeral


async def test_a_round_left_idle_ten_minutes_expires(standin, start_bot, clock):
    bot, ana, window = await practice(standin, start_bot)
    clock.now += _focus_ui.VIEW_TIMEOUT - 1
    opened = await standin.click(ana, window, label="Answer")  # in time: its clock starts again
    assert opened.modal is not None
    clock.now += _focus_ui.VIEW_TIMEOUT + 1
    late = await standin.submit_modal(ana, opened, {"answer": "3"})
    assert late.reply.content.startswith(EXPIRED) and late.reply.ephemeral
    assert await bot.db.focus.recent(standin.guild.id, ana.id) == []
    again = await standin.click(ana, window, label="Answer")
    assert again.reply.content.startswith(EXPIRED)
    registry = _focus_ui._registry(bot)
    registry.sweep()  # as each new round's start does: the expired round is forgotten
    assert registry.runs == {} and registry.keys == {}
