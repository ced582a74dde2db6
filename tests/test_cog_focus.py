"""The Focus cog end to end through the stand-in: practice rounds (and the ephemeral round of
bot.ui.focus_run), answers stored with their times, wrong formats, French, expired windows."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.focus import generate_questions
from bot.local.server import StandInError
from bot.ui.focus_run import question_level_text
from tests.focus_helpers import practice_questions

SEED = 42




async def focus_bot(start_bot: Any) -> Any:
    bot = await start_bot()
    bot.get_cog("Focus").flow.seed = lambda: SEED
    return bot


async def answer(standin: Any, member: Any, message: Any, typed: str) -> Any:
    opened = await standin.click(member, message, label="Answer")
    assert opened.modal is not None
    return await standin.submit_modal(member, opened, {"answer": typed})


async def test_a_practice_round_answered_right_and_wrong_is_scored_and_stored(
        standin, start_bot, clock):
    bot = await focus_bot(start_bot)
    ana = standin.add_member("Ana")
    questions = practice_questions(1, SEED)
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
    # Five at the level, the last one from the level above (bot.focus.review).
    assert {(a.source, a.level, a.topic) for a in stored[:5]} == {("practice", 1, "addition")}
    assert (stored[5].level, stored[5].topic) == (2, questions[5].topic)
    assert stored[0].given == questions[0].answer + 1 and stored[0].expected == questions[0].answer


async def test_a_wrong_format_is_refused_with_the_reason_and_the_same_question_asked_again(
        standin, start_bot, clock):
    bot = await focus_bot(start_bot)
    ana = standin.add_member("Ana")
    questions = generate_questions(1, 6, random.Random(SEED))
    window = (await standin.slash(ana, "focus practice")).reply
    clock.now += 3.0
    refused = await answer(standin, ana, window, "douze")
    assert refused.reply is window
    text = window.text()
    assert "⚠️ “douze” is not a whole number: type digits only, like 42 or −7. Nothing was " \
           "counted: type your answer again." in text
    assert "question 1/6" in text and f"{questions[0].text} = ?" in text
    assert await bot.db.focus.recent(standin.guild.id, ana.id) == []
    clock.now += 1.5
    await answer(standin, ana, window, f"+ {questions[0].answer}")  # a sign and a space: read
    assert "question 2/6" in window.text()
    assert f"✅ {questions[0].text} = {questions[0].answer}: right!" in window.text()
    [stored] = await bot.db.focus.recent(standin.guild.id, ana.id)
    assert stored.correct and stored.time_ms == 4500  # the clock ran on through the refusal


async def test_a_french_member_plays_in_french(standin, start_bot, clock):
    await focus_bot(start_bot)
    léa = standin.add_member("Léa", locale="fr")
    questions = practice_questions(1, SEED)
    window = (await standin.slash(léa, "focus entrainement")).reply
    assert "Entraînement · question 1/6" in window.text()
    assert "Niveau 1 · Sommes jusqu'à 20" in window.text()
    opened = await standin.click(léa, window, label="Répondre")
    assert opened.modal["title"] == "Question 1/6"
    await standin.submit_modal(léa, opened, {"answer": "1,5"})
    assert "« 1,5 » n'est pas un nombre entier : ici, toutes les réponses sont des nombres " \
           "entiers. Rien n'a été compté : tape ta réponse à nouveau." in window.text()
    for question in questions:
        clock.now += 1.25
        opened = await standin.click(léa, window, label="Répondre")
        await standin.submit_modal(léa, opened, {"answer": str(question.answer)})
    text = window.text()
    assert "Entraînement : 6/6" in text
    assert "Temps total : 7,5 s" in text
    assert "[Un autre entraînement]" in text


async def test_nobody_else_can_use_a_members_round(standin, start_bot, clock):
    await focus_bot(start_bot)
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    window = (await standin.slash(ana, "focus practice")).reply
    with pytest.raises(StandInError, match="cannot see that message"):
        await standin.click(sam, window, label="Answer")
    assert "question 1/6" in window.text()


async def test_a_practice_window_after_a_restart_says_it_expired(
        standin, start_bot, restart_bot, clock):
    bot = await focus_bot(start_bot)
    ana = standin.add_member("Ana")
    questions = generate_questions(1, 6, random.Random(SEED))
    window = (await standin.slash(ana, "focus practice")).reply
    await answer(standin, ana, window, str(questions[0].answer))
    opened = await standin.click(ana, window, label="Answer")
    await restart_bot(bot)
    expired = "This practice round has expired (it waited more than 10 minutes, or Ardoise " \
              "restarted). Your answers so far are saved. Start a new round with /focus practice."
    clicked = await standin.click(ana, window, label="Answer")
    assert clicked.reply.content == expired and clicked.reply.ephemeral
    submitted = await standin.submit_modal(ana, opened, {"answer": str(questions[1].answer)})
    assert submitted.reply.content == expired
    assert "question 2/6" in window.text()


async def test_a_round_all_right_moves_the_member_up_a_level(standin, start_bot, clock):
    bot = await focus_bot(start_bot)
    ana = standin.add_member("Ana")
    window = (await standin.slash(ana, "focus practice")).reply
    for question in practice_questions(1, SEED):
        await answer(standin, ana, window, str(question.answer))
    assert "Next round: Level 2: well done, one level up!" in window.text()
    assert (await bot.db.players.get(standin.guild.id, ana.id)).focus_level == 2
    again = await standin.click(ana, window, label="Another round")
    assert again.reply is window
    model = await bot.db.mastery.load(standin.guild.id, ana.id)
    level_2 = practice_questions(2, SEED, model, datetime.now(UTC))
    assert f"{level_2[0].text} = ?" in window.text()
    assert question_level_text(level_2[0], "en") in window.text()  # the question's own skill


async def test_a_weak_topic_is_named_and_keeps_the_level(standin, start_bot, clock):
    bot = await focus_bot(start_bot)
    ana = standin.add_member("Ana")
    await bot.db.players.set_focus_level(standin.guild.id, ana.id, 4)
    window = (await standin.slash(ana, "focus practice")).reply
    questions = practice_questions(4, SEED)
    divisions = [i for i, q in enumerate(questions) if q.topic == "division" and q.level == 4]
    # With this seed one division at level 4: 4 of its 5 right, multiplication proficient, but
    # division wrong (Attempted): not every skill of the level is proficient.
    assert len(divisions) == 1
    for i, question in enumerate(questions):
        typed = question.answer + (1 if i == divisions[0] else 0)
        await answer(standin, ana, window, str(typed))
    text = window.text()
    assert "Watch out for: division." in text
    assert "Next round: Level 4 again." in text
    assert (await bot.db.players.get(standin.guild.id, ana.id)).focus_level == 4


async def test_a_pinned_level_wins_and_other_levels_are_refused(standin, start_bot, clock):
    bot = await focus_bot(start_bot)
    await bot.db.servers.update(standin.guild.id, focus_level_pinned=3)
    ana = standin.add_member("Ana")
    window = (await standin.slash(ana, "focus practice")).reply
    assert question_level_text(practice_questions(3, SEED)[0], "en") in window.text()
    refused = await standin.slash(ana, "focus practice", level=5)
    assert refused.reply.content == "Your teacher has set the Focus level of this server to 3."
    await bot.db.servers.update(standin.guild.id, focus_level_pinned=None, focus_level_max=4)
    out = await standin.slash(ana, "focus practice", level=6)
    assert out.reply.content == ("Level 6 is not open on this server: levels go from 1 to 4 "
                                 "here.")
    chosen = (await standin.slash(ana, "focus practice", level=4)).reply
    assert question_level_text(practice_questions(4, SEED)[0], "en") in chosen.text()
