"""Mastery through the real bot: a fact answered wrong in one practice round comes back in the
next (bot/focus/review.py), the answers move the stored model (db/mastery.py), and /progress
draws it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from test_cog_focus import focus_bot

from bot.focus.mastery import ATTEMPTED, fact_of
from bot.focus.questions import work_out
from tests.focus_helpers import shown_question


async def answer_shown(standin, member, window, *, wrong: bool = False) -> str:
    """Answer the question the window shows (wrong: one more); the question's text."""
    asked = shown_question(window.text())
    opened = await standin.click(member, window, label="Answer")
    await standin.submit_modal(member, opened, {"answer": str(work_out(asked) + wrong)})
    return asked


async def test_a_fact_answered_wrong_comes_back_the_next_round(standin, start_bot, clock):
    bot = await focus_bot(start_bot)
    ana = standin.add_member("Ana")
    guild = standin.guild.id
    await bot.db.players.set_focus_level(guild, ana.id, 4)
    window = (await standin.slash(ana, "focus practice")).reply
    asked = [await answer_shown(standin, ana, window, wrong=True)]
    while " = ?" in window.text():
        asked.append(await answer_shown(standin, ana, window))
    missed = fact_of(asked[0])
    assert missed is not None  # level 4: tables and exact divisions, all facts
    model = await bot.db.mastery.load(guild, ana.id)
    assert model.fact(missed).level == ATTEMPTED and model.fact(missed).answers == 1
    assert sum(i.answers for i in model.skills()) == 6

    await standin.click(ana, window, label="Another round")
    again = []
    while " = ?" in window.text():
        again.append(await answer_shown(standin, ana, window))
    assert missed in {fact_of(text) for text in again}, (missed, again)
    model = await bot.db.mastery.load(guild, ana.id)
    assert model.fact(missed).answers == 2 and model.fact(missed).correct == 1

    progress = await standin.slash(ana, "progress")
    assert {a.filename for a in progress.reply.attachments} >= {"mastery.png"}


async def test_a_fact_answered_well_comes_back_a_day_later_on_the_bots_clock(standin, start_bot,
                                                                            clock):
    bot = await focus_bot(start_bot)
    focus = bot.get_cog("Focus").flow
    monday = datetime(2026, 12, 7, 9, tzinfo=UTC)
    focus.now = lambda: monday
    ana = standin.add_member("Ana")
    guild = standin.guild.id
    await bot.db.players.set_focus_level(guild, ana.id, 4)
    window = (await standin.slash(ana, "focus practice")).reply
    first = fact_of(await answer_shown(standin, ana, window))
    while " = ?" in window.text():
        await answer_shown(standin, ana, window)
    item = (await bot.db.mastery.load(guild, ana.id)).fact(first)
    # Answered within 3 s on the bot's clock (the round's own clock: no time passed): back Tuesday.
    assert item.due == monday + timedelta(days=1) and item.step == 1
    model = await bot.db.mastery.load(guild, ana.id)
    assert model.due_facts(monday + timedelta(hours=23)) == []
    focus.now = lambda: monday + timedelta(days=1, minutes=5)
    await standin.click(ana, window, label="Another round")
    tuesday = set()
    while " = ?" in window.text():
        tuesday.add(fact_of(await answer_shown(standin, ana, window)))
    due = {i.key for i in model.due_facts(monday + timedelta(days=1, minutes=5))}
    # Two of Monday's facts come back on Tuesday (two review slots), passed: back on Friday.
    assert len(due & tuesday) == 2
    after = await bot.db.mastery.load(guild, ana.id)
    passed = [after.fact(key) for key in due & tuesday]
    assert all(i.step == 2 and i.due == monday + timedelta(days=4, minutes=5) for i in passed)
