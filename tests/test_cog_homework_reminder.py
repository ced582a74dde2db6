"""The reminder of ``/class assign reminder:`` [``rappel``]: posted once in the assignment's
channel at its moment (24 hours before the due moment by default), naming and pinging exactly
the students who have not finished; once across a restart and when two callers race (the
database decides); none when the teacher chose none, nothing when nobody is missing."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.flows.classroom import ClassroomFlow
from tests.classroom_helpers import Moment, classroom_clock, posted
from tests.french import fr

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
DUE = "2026-12-08 18:00"
DUE_AT = datetime(2026, 12, 8, 18, 0, tzinfo=UTC)
BUTTON = "Do the assignment"


@pytest.fixture
def moment(monkeypatch: pytest.MonkeyPatch) -> Moment:
    return classroom_clock(monkeypatch, NOW)


async def play(standin: Any, member: Any, window: Any, answers: list[Any], clock: Any) -> None:
    for typed in answers:
        clock.now += 2.0
        [button] = window.buttons()
        opened = await standin.click(member, window, button["custom_id"])
        await standin.submit_modal(member, opened, {"answer": str(typed)})


def flow(bot: Any) -> ClassroomFlow:
    return bot.get_cog("Classroom").flow


async def test_the_reminder_names_exactly_the_students_not_done_once(
        standin, start_bot, restart_bot, moment, clock):
    bot = await start_bot()
    six_b = standin.add_role("6B")
    roux = standin.add_member("Roux", teacher=True, roles=[six_b])
    post = (await standin.slash(roux, "class assign", name="Sums", due=DUE, level=1, count=2,
                                role=six_b)).reply
    assert "A reminder 24 hours before, to those not done." in post.text()
    await standin.slash(roux, "class assign", name="Quiet", due=DUE, level=1, count=1,
                        reminder=0)
    made = await posted(bot, standin, "Sums")
    quiet = await posted(bot, standin, "Quiet")
    assert made.remind_at == DUE_AT - timedelta(hours=24) and quiet.remind_at is None
    assert "reminder" not in standin.channel_messages()[-1].text()
    questions = made.questions

    ana = standin.add_member("Ana", roles=[six_b])  # done
    bea = standin.add_member("Béa", roles=[six_b])  # begun, not finished
    cy = standin.add_member("Cy", roles=[six_b])  # known to Ardoise, not begun
    dan = standin.add_member("Dan")  # known, not in 6B
    eve = standin.add_member("Eve", roles=[six_b])  # known, but left the server
    standin.add_member("Flo", roles=[six_b])  # never used Ardoise: Ardoise cannot know her
    window = (await standin.click(ana, post, label=BUTTON)).reply
    await play(standin, ana, window, [q["answer"] for q in questions], clock)
    window = (await standin.click(bea, post, label=BUTTON)).reply
    await play(standin, bea, window, [questions[0]["answer"]], clock)
    for member in (cy, dan, eve):
        await standin.slash(member, "focus daily")
    del standin.guild.members[eve.id]
    before = len(standin.channel_messages())

    assert await flow(bot).remind_due_assignments(made.remind_at - timedelta(minutes=1)) == []
    assert len(standin.channel_messages()) == before
    assert await flow(bot).remind_due_assignments(made.remind_at) == [made.assignment_id]
    [reminder] = standin.channel_messages()[before:]
    assert reminder.content == (
        "⏰ Reminder: **Sums** is due **Tuesday 8 December 2026 at 18:00** (server time). Not "
        f"finished yet (2 students): <@{bea.id}> <@{cy.id}>")
    assert reminder.pinged() == {bea.id, cy.id}  # nobody else, not the role

    # Once: not again, not after a restart, not once the bot's clock moves on.
    assert await flow(bot).remind_due_assignments(made.remind_at + timedelta(hours=1)) == []
    bot = await restart_bot(bot)
    assert await flow(bot).remind_due_assignments(made.remind_at + timedelta(hours=2)) == []
    assert len(standin.channel_messages()) == before + 1
    assert (await bot.db.assignments.get(standin.guild.id, "Sums")).reminded_at == made.remind_at
    assert standin.take_errors() == []


async def test_two_racing_callers_post_it_once_and_nobody_missing_posts_nothing(
        standin, start_bot, moment, clock):
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True, locale="fr")
    post = (await standin.slash(roux, "classe devoir", nom="Calcul", options={
        "pour-le": DUE}, niveau=1, nombre=1, rappel=1)).reply
    assert "Un rappel 1 heure avant, pour qui ne l'a pas fini." in post.text()
    made = await posted(bot, standin, "Calcul")
    ana = standin.add_member("Ana")
    bea = standin.add_member("Béa")
    for member in (ana, bea):
        await standin.slash(member, "focus daily")
    before = len(standin.channel_messages())
    at = DUE_AT - timedelta(hours=1)
    first, second = await asyncio.gather(flow(bot).remind_due_assignments(at),
                                         flow(bot).remind_due_assignments(at))
    assert sorted(first + second) == [made.assignment_id]
    [reminder] = standin.channel_messages()[before:]
    assert reminder.content.startswith(fr("⏰ Rappel : **Calcul** est à rendre le **mardi 8 "
                                          "décembre 2026 à 18 h** (heure du serveur). Pas "
                                          "encore fini (2 élèves) :"))
    assert reminder.pinged() == {ana.id, bea.id}

    # Everyone done: the reminder's moment passes and nothing is posted.
    await standin.slash(roux, "classe devoir", nom="Fini", options={"pour-le": DUE}, niveau=1,
                        nombre=1, rappel=48)
    done = await posted(bot, standin, "Fini")
    posts = standin.channel_messages()
    for member in (ana, bea):
        window = (await standin.click(member, posts[-1], label="Faire le devoir")).reply
        await play(standin, member, window, [done.questions[0]["answer"]], clock)
    before = len(standin.channel_messages())
    assert await flow(bot).remind_due_assignments(DUE_AT - timedelta(hours=48)) == [
        done.assignment_id]
    assert len(standin.channel_messages()) == before


async def test_a_reminder_whose_moment_is_past_when_set_is_not_sent(standin, start_bot, moment):
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    await standin.slash(roux, "class assign", name="Soon", due="2026-11-30 12:00", level=1)
    made = await posted(bot, standin, "Soon")
    assert made.remind_at is None  # 24 hours before is already past
    assert "reminder" not in standin.channel_messages()[-1].text()


async def test_the_background_task_posts_it_after_a_restart(standin, start_bot, restart_bot,
                                                            moment, monkeypatch):
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    ana = standin.add_member("Ana")
    await standin.slash(ana, "focus daily")  # known to Ardoise
    await standin.slash(roux, "class assign", name="Sums", due=DUE, level=1, reminder=48)
    made = await posted(bot, standin, "Sums")
    # The bot was stopped at the reminder's moment; the task finds it when it starts again.
    moment.now = made.remind_at + timedelta(minutes=30)
    monkeypatch.setattr(ClassroomFlow, "assign_autoclose", True)
    bot = await restart_bot(bot)
    await standin.wait_until(lambda: any(
        m.content.startswith("⏰ Reminder: **Sums**") for m in standin.channel_messages()))
    [reminder] = [m for m in standin.channel_messages() if m.content.startswith("⏰")]
    assert reminder.pinged() == {ana.id}
    assert await flow(bot).remind_due_assignments(moment.now) == []
