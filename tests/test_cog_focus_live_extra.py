"""Extra time in a self-running /focus live round, end to end through the real bot (the clock
replaced, the due steps taken with ``run_due_live``): a student of the server with extra time
(×1.5, ×2, no timer) has their own window on every question, the first included, even before
they take part, and across a restart; a classmate without extra time at the same moment is
refused as late; the others wait no longer than needed."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_cog_focus_live import SEED, live_bot, prepare
from test_cog_focus_live_auto import START, cog, join, set_student

from bot.focus import generate_questions
from bot.play.focus_live import NEXT_DELAY
from tests.french import fr

#: Each setting, the time the question is held for it (× the limit), and the points of a right
#: answer at 1.3 × the limit (counted divided by the factor; no timer scores as ×2).
FACTORS = [
    pytest.param("x1.5", 1.5, 566, id="x1.5"),  # 1.3 / 1.5 of the time: 500 + 66
    pytest.param("x2", 2.0, 675, id="x2"),  # 0.65 of the time: 500 + 175
    pytest.param("untimed", 2.0, 675, id="no-timer"),
]

LATE = "Too late: the time for this question is up."


async def answer(standin: Any, member: Any, question: Any, typed: str,
                 label: str = "Answer") -> Any:
    """The member clicks "Answer" (``label``: in the round's language) and types ``typed``."""
    return await standin.submit_modal(member, await join(standin, member, question, label),
                                      {"answer": typed})


async def refused(standin: Any, member: Any, question: Any, label: str = "Answer") -> str:
    """The member clicks "Answer" and is refused (no modal): what they read, privately."""
    clicked = await standin.click(member, question, label=label)
    assert clicked.modal is None and clicked.reply.ephemeral
    return clicked.reply.content


async def next_question(bot: Any, standin: Any, wall: Any, shown: Any) -> Any:
    """The question on show closes at its time, and the next one comes NEXT_DELAY later."""
    at = cog(bot).live_timers()[1]
    wall.now = at
    assert await cog(bot).run_due_live() == [1]
    assert shown.buttons() == []  # closed, its answer shown
    wall.now = at + NEXT_DELAY
    assert await cog(bot).run_due_live() == [1]
    return await standin.wait_for_message(after=shown)


@pytest.mark.parametrize("extra_time,hold,points", FACTORS)
async def test_at_the_first_question_a_student_with_extra_time_answers_at_1_3_times_the_window(
        standin, start_bot, extra_time, hold, points):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    ana, sam, léo = (standin.add_member(n) for n in ("Ana", "Sam", "Léo"))
    await set_student(bot, standin, ana, extra_time=extra_time)
    [question] = generate_questions(2, 1, random.Random(SEED))
    # The case: a 5-second question, nobody known to take part yet.
    first = (await standin.slash(teacher, "focus live", count=1, level=2, seconds=5)).reply
    assert cog(bot).live_timers() == {1: START + 5 * hold}
    assert (f"Extra time: Students with extra time have their own, longer window: this question "
            f"stays open for them until <t:{int(START + 5 * hold)}:T> (the first question waits "
            f"for all of them") in first.text()
    wall.now += 1.0
    léo_modal = await join(standin, léo, first)  # in time, but submitted late

    wall.now = START + 6.5
    assert await cog(bot).run_due_live() == []  # still open, for Ana
    assert await refused(standin, sam, first) == LATE
    late = await standin.submit_modal(léo, léo_modal, {"answer": str(question.answer)})
    assert late.reply.content == LATE
    # Ana's first click, late in her own window, makes her part of the round; her answer counts.
    taken = await answer(standin, ana, first, str(question.answer))
    assert taken.reply.content == f"✅ Right! +{points} points."
    [stored] = await bot.db.focus.round_answers(standin.guild.id, ana.id, "live:1")
    assert (stored.correct, stored.time_ms, stored.source) == (True, 6500, "live")
    for member in (sam, léo):
        assert await bot.db.focus.round_answers(standin.guild.id, member.id, "live:1") == []

    wall.now = START + 5 * hold
    assert await cog(bot).run_due_live() == [1]
    assert "Found by: Ana" in first.text()
    final = await standin.wait_for_message(lambda m: "final ranking" in m.text(), after=first)
    assert f"🥇 Ana: {points} points (1/1 right)\n🥈 Léo: 0 points (0/1 right)" in final.text()
    assert "Sam" not in final.text()  # refused at the button: he never took part


@pytest.mark.parametrize("extra_time,hold,points", FACTORS)
async def test_at_later_questions_too_taking_part_first_or_not(standin, start_bot, extra_time,
                                                               hold, points):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True, locale="fr")
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam", locale="fr")
    await set_student(bot, standin, ana, extra_time=extra_time)
    questions = generate_questions(2, 3, random.Random(SEED))
    first = (await standin.slash(teacher, "focus live", count=3, level=2, seconds=10)).reply
    wall.now += 2.0
    await answer(standin, sam, first, str(questions[0].answer),
                 "Répondre")  # Ana misses question 1

    second = await next_question(bot, standin, wall, first)
    shown = wall.now
    assert cog(bot).live_timers() == {1: shown + 10 * hold}
    # From the second question on it may close sooner: the French class reads so.
    assert ("Temps majoré: " + fr(  # an embed field, "name: value"
            f"Les élèves qui ont un temps majoré ont leur propre délai, plus long : "
            f"cette question reste ouverte pour eux jusqu'à <t:{int(shown + 10 * hold)}:T>, ou se "
            f"ferme dès que tous ceux qui participent ont répondu.")) in second.text()
    wall.now = shown + 1.0
    sam_modal = await join(standin, sam, second, "Répondre")
    wall.now = shown + 13.0
    assert await cog(bot).run_due_live() == []
    late = await standin.submit_modal(sam, sam_modal, {"answer": str(questions[1].answer)})
    assert late.reply.content == fr("Trop tard : le temps de cette question est écoulé.")
    # Her first click on "Answer" in this round.
    taken = await answer(standin, ana, second, str(questions[1].answer), "Répondre")
    assert taken.reply.content == f"✅ Right! +{points} points."

    third = await next_question(bot, standin, wall, second)
    assert "Trouvée par: Ana" in second.text()
    shown = wall.now
    assert cog(bot).live_timers() == {1: shown + 10 * hold}
    wall.now = shown + 13.0
    clicked = await standin.click(sam, third, label="Répondre")
    assert clicked.modal is None
    assert clicked.reply.content == fr("Trop tard : le temps de cette question est écoulé.")
    taken = await answer(standin, ana, third, str(questions[2].answer), "Répondre")
    assert taken.reply.content == f"✅ Right! +{points} points."

    stored = await bot.db.focus.round_answers(standin.guild.id, ana.id, "live:1")
    assert [(a.question_no, a.correct, a.time_ms) for a in stored] == [(1, True, 13000),
                                                                       (2, True, 13000)]
    assert [a.question_no for a in
            await bot.db.focus.round_answers(standin.guild.id, sam.id, "live:1")] == [0]


@pytest.mark.parametrize("extra_time,hold,points", FACTORS)
async def test_the_extra_time_windows_survive_a_restart(standin, start_bot, restart_bot,
                                                        extra_time, hold, points):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    await set_student(bot, standin, ana, extra_time=extra_time)
    questions = generate_questions(2, 2, random.Random(SEED))
    first = (await standin.slash(teacher, "focus live", count=2, level=2, seconds=10)).reply
    wall.now += 2.0

    bot = await restart_bot(bot)  # before anyone took part: the round knows Ana's time anyway
    prepare(bot, wall)
    assert cog(bot).live_timers() == {1: START + 10 * hold}
    wall.now = START + 13.0
    assert await cog(bot).run_due_live() == []
    assert await refused(standin, sam, first) == LATE
    taken = await answer(standin, ana, first, str(questions[0].answer))
    assert taken.reply.content == f"✅ Right! +{points} points."

    second = await next_question(bot, standin, wall, first)
    shown = wall.now
    wall.now = shown + 1.0
    sam_modal = await join(standin, sam, second)
    bot = await restart_bot(bot)  # mid-question, Ana now taking part
    prepare(bot, wall)
    assert cog(bot).live_timers() == {1: shown + 10 * hold}
    wall.now = shown + 13.0
    assert await cog(bot).run_due_live() == []
    expired = await standin.submit_modal(sam, sam_modal, {"answer": "1"})  # opened before it
    assert expired.reply.content.startswith("This answer window has expired (Ardoise restarted)")
    assert await refused(standin, sam, second) == LATE
    taken = await answer(standin, ana, second, str(questions[1].answer))
    assert taken.reply.content == f"✅ Right! +{points} points."

    wall.now = shown + 10 * hold
    assert await cog(bot).run_due_live() == [1]
    final = await standin.wait_for_message(lambda m: "final ranking" in m.text(), after=second)
    assert f"🥇 Ana: {2 * points} points (2/2 right)\n🥈 Sam: 0 points (0/2 right)" in final.text()
    assert len(await bot.db.focus.round_answers(standin.guild.id, ana.id, "live:1")) == 2


async def test_the_class_waits_for_extra_time_at_the_first_question_only_as_long_as_needed_after(
        standin, start_bot):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    ana, sam, léo = (standin.add_member(n) for n in ("Ana", "Sam", "Léo"))
    await set_student(bot, standin, ana, extra_time="x2")  # absent today
    questions = generate_questions(2, 2, random.Random(SEED))
    first = (await standin.slash(teacher, "focus live", count=2, level=2)).reply
    wall.now += 3.0
    for member in (sam, léo):
        await answer(standin, member, first, str(questions[0].answer))
    wall.now = START + 20.0
    # Everyone in sight has answered, but Ana's first click may still come: the question waits.
    assert await cog(bot).run_due_live() == []
    assert "· closed" not in first.text()
    wall.now = START + 40.0
    assert await cog(bot).run_due_live() == [1]

    wall.now += NEXT_DELAY
    assert await cog(bot).run_due_live() == [1]
    second = await standin.wait_for_message(after=first)
    wall.now += 3.0
    for member in (sam, léo):
        await answer(standin, member, second, str(questions[1].answer))
    # Everyone taking part has answered: it closes at once, as without extra time.
    final = await standin.wait_for_message(lambda m: "final ranking" in m.text(), after=second)
    assert "question 2/2 · closed" in second.text()
    assert "Ana" not in final.text()


async def test_once_the_time_held_went_by_nobody_answers_not_even_without_a_timer(
        standin, start_bot):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    noé, ana, sam = (standin.add_member(n) for n in ("Noé", "Ana", "Sam"))
    await set_student(bot, standin, noé, extra_time="untimed")
    await set_student(bot, standin, ana, extra_time="x1.5")
    await set_student(bot, standin, teacher, extra_time="x2")  # the teacher never holds it
    first = (await standin.slash(teacher, "focus live", count=2, level=2)).reply
    assert cog(bot).live_timers() == {1: START + 40}  # no timer: held as for ×2
    wall.now = START + 40.5  # its timer has not come yet (or the bot is coming back)
    assert await refused(standin, noé, first) == "This question no longer takes answers."
    assert await refused(standin, ana, first) == LATE
    assert await refused(standin, sam, first) == LATE
    assert await cog(bot).run_due_live() == [1]
    assert "0 right answers out of 0." in first.text()


async def test_a_paused_question_shows_no_extra_time_deadline_until_it_resumes(standin,
                                                                              start_bot):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    await set_student(bot, standin, standin.add_member("Ana"), extra_time="x2")
    first = (await standin.slash(teacher, "focus live", count=2, level=2)).reply
    wall.now += 5.0
    await standin.click(teacher, first, label="Pause")
    assert "⏸️ Paused" in first.text() and "Extra time" not in first.text()
    wall.now += 60.0
    await standin.click(teacher, first, label="Resume")
    assert cog(bot).live_timers() == {1: START + 100}  # 35 s of Ana's 40 were left
    assert f"until <t:{int(START + 100)}:T>" in first.text()
