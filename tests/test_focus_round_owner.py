"""One protocol for a round's owner (issue 25): the Focus window calls its ``RoundOwner`` —
``answered`` for each readable answer before the member sees it, ``finished`` once at the end —
and nothing else; an owner's refusal closes the window; and the Focus conductor's student side of
an assignment (``bot.flows.focus.take_assignment``, ``AssignmentRound``) stores, resumes after a
restart and finishes an attempt."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.flows.classroom import ClassroomFlow
from bot.focus import generate_questions
from tests.focus_owner_test_cog import NOW

OWNER_COG = ["focus_owner_test_cog"]
QUESTIONS = generate_questions(1, 3, random.Random(5))


async def answer(standin: Any, member: Any, window: Any, typed: str) -> Any:
    opened = await standin.click(member, window, label="Answer")
    assert opened.modal is not None, opened.reply.text()
    return await standin.submit_modal(member, opened, {"answer": typed})


async def test_the_window_tells_its_owner_each_answer_and_the_end(standin, start_bot, clock):
    bot = await start_bot(extra_cogs=OWNER_COG)
    ana = standin.add_member("Ana")
    window = (await standin.slash(ana, "ownertest round")).reply
    assert "Owned · question 1/3" in window.text()
    await answer(standin, ana, window, "douze")  # unreadable: the owner never hears of it
    assert "question 1/3" in window.text()
    for i, question in enumerate(QUESTIONS):
        clock.now += 2.0
        await answer(standin, ana, window, str(question.answer + (i == 1)))
    assert window.content == "Done: 2" and window.buttons() == []
    assert bot.get_cog("OwnerTest").seen == [
        ("answered", 0, True), ("answered", 1, False), ("answered", 2, True), ("finished", 3, 2)]
    # The window stores nothing itself: storing is the owner's.
    assert await bot.db.focus.recent(standin.guild.id, ana.id) == []


async def test_an_owner_that_refuses_an_answer_closes_the_window(standin, start_bot, clock):
    bot = await start_bot(extra_cogs=OWNER_COG)
    ana = standin.add_member("Ana")
    window = (await standin.slash(ana, "ownertest round")).reply
    bot.get_cog("OwnerTest").refuse = True
    refused = await answer(standin, ana, window, str(QUESTIONS[0].answer))
    assert refused.reply.ephemeral and refused.reply.content.startswith(
        "Your data on this server was erased while this window was open")
    again = await standin.click(ana, window, label="Answer")
    assert again.reply.content.startswith("This practice round has expired")
    assert bot.get_cog("OwnerTest").seen == []


@pytest.fixture
def classroom_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ClassroomFlow, "assign_now", lambda self: NOW)
    monkeypatch.setattr(ClassroomFlow, "assign_seed", lambda self: 11)
    monkeypatch.setattr(ClassroomFlow, "assign_autoclose", False)


async def test_the_focus_flow_takes_an_assignment_resumes_it_and_finishes_it(
        standin, start_bot, restart_bot, clock, classroom_clock):
    bot = await start_bot(extra_cogs=OWNER_COG)
    roux = standin.add_member("Roux", teacher=True)
    await standin.slash(roux, "class assign", name="Tables", due="2026-12-08 18:00", level=4)
    made = None
    for _ in range(100):
        made = await bot.db.assignments.get(standin.guild.id, "Tables")
        if made is not None:
            break
    assert made is not None
    answers = [q["answer"] for q in made.questions]
    ana = standin.add_member("Ana")
    window = (await standin.slash(ana, "ownertest assignment",
                                  assignment_id=made.assignment_id)).reply
    assert "Assignment · Tables · question 1/6" in window.text()
    for typed in answers[:2]:
        clock.now += 2.0
        await answer(standin, ana, window, str(typed))

    bot = await restart_bot(bot)  # the attempt goes on where it stopped, from the database
    window = (await standin.slash(ana, "ownertest assignment",
                                  assignment_id=made.assignment_id)).reply
    assert "question 3/6" in window.text()
    for typed in [*answers[2:5], 0]:
        clock.now += 2.0
        await answer(standin, ana, window, str(typed))
    assert "Assignment · Tables: 5/6" in window.text()
    attempt = await bot.db.assignments.attempt(made.assignment_id, ana.id)
    assert attempt.score == 5
    stored = await bot.db.focus.recent(standin.guild.id, ana.id)
    assert len(stored) == 6 and {(a.source, a.round_key) for a in stored} == {
        ("assignment", f"assignment:{made.assignment_id}")}
    done = await standin.slash(ana, "ownertest assignment", assignment_id=made.assignment_id)
    assert done.reply.content == "You have already done this assignment: 5/6."
