"""The class's weekly digest end to end: ``/settings class digest:`` only in a channel students
cannot read; posted on its day and hour (server time), once, across a restart; what it says
(who practised and how much, who did not, the topics and the mastery that moved, the
assignments due, the week's known mistakes, a button to the full report for teachers); a week
with nothing is one line; ``/class digest`` posts now."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

import pytest

from bot.flows.classroom import ClassroomFlow
from bot.local.server import BOT_PERMISSIONS, VIEW_CHANNEL
from db import FocusAnswer
from tests.classroom_helpers import Moment, classroom_clock
from tests.french import fr

NOW = datetime(2026, 12, 4, 16, 59, tzinfo=UTC)  # a Friday, a minute before the digest


@pytest.fixture
def moment(monkeypatch: pytest.MonkeyPatch) -> Moment:
    return classroom_clock(monkeypatch, NOW)


def private_server(standin: Any) -> Any:
    """Channels only teachers (and the bot, by its own role) see: @everyone cannot view them."""
    standin.guild.everyone.permissions &= ~VIEW_CHANNEL
    standin.guild.members[standin.bot_user.id].roles.append(
        standin.add_role("Ardoise", permissions=BOT_PERMISSIONS))
    return standin.add_channel("teachers")


def flow(bot: Any) -> ClassroomFlow:
    return bot.get_cog("Classroom").flow


async def answer(bot: Any, guild_id: int, user_id: int, at: datetime, question: str,
                 expected: Any, given: Any, *, topic: str = "addition", skill: str | None = None,
                 form: str | None = None) -> None:
    await bot.db.players.ensure(guild_id, user_id, at)
    await bot.db.focus.record(FocusAnswer(guild_id, user_id, topic, 1, question, expected, given,
                                          2000, answered_at=at, skill=skill, form=form), at)


async def test_the_digest_is_refused_where_students_can_read_it(standin, start_bot, moment):
    await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    refused = await standin.slash(roux, "settings class", digest=standin.channel)
    assert refused.reply.ephemeral
    assert refused.reply.content == (
        f"Students can read <#{standin.channel.id}> (@everyone sees it): the digest names "
        "students, so it goes only in a channel for teachers. Choose another channel, or change "
        "that one's permissions.")


async def test_a_students_role_that_reads_it_is_named(standin, start_bot, moment):
    private_server(standin)
    six_b = standin.add_role("6B", permissions=VIEW_CHANNEL)
    await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    refused = await standin.slash(roux, "settings class", digest=standin.channel)
    assert f"(<@&{six_b.id}> sees it)" in refused.reply.content
    ana = standin.add_member("Ana")
    student = await standin.slash(ana, "settings class", digest=standin.channel)
    assert "teacher" in student.reply.content.lower()


async def test_posted_on_its_day_once_across_a_restart_with_the_weeks_figures(
        standin, start_bot, restart_bot, moment):
    teachers = private_server(standin)
    bot = await start_bot()
    guild = standin.guild.id
    roux = standin.add_member("Roux", teacher=True)
    saved = await standin.slash(roux, "settings class", digest=teachers, day=4, hour=17)
    assert saved.reply.content == (f"The weekly digest is posted in <#{teachers.id}> every "
                                   "Friday at 17:00 (time zone UTC), with the students' names.")
    ana = standin.add_member("Ana")
    bea = standin.add_member("Béa")
    standin.add_member("Cy")  # never used Ardoise: Ardoise cannot know him
    this_week, last_week = NOW - timedelta(days=1), NOW - timedelta(days=8)
    for n in range(5):
        await answer(bot, guild, ana.id, this_week, f"{n} + 1", n + 1, n + 1)
        await answer(bot, guild, ana.id, last_week, f"{n} + 2", n + 2, n + 2 if n < 2 else 0)
    await answer(bot, guild, ana.id, this_week, "1/2 + 1/3", Fraction(5, 6), Fraction(2, 5),
                 topic="fractions", skill="fractions-add", form="fraction")
    await answer(bot, guild, bea.id, NOW - timedelta(days=20), "1 + 1", 2, 2)
    await standin.slash(roux, "class assign", name="Sums", due="2026-12-05 18:00", level=1)
    before = len(standin.channel_messages(teachers))

    assert await flow(bot).post_due_digests(NOW) == []  # 16:59: not yet
    moment.now = NOW + timedelta(minutes=1)
    assert await flow(bot).post_due_digests(moment.now) == [guild]
    [digest] = standin.channel_messages(teachers)[before:]
    assert digest.pinged() == set()
    text = digest.text()
    assert "The week from Saturday 28 November to Friday 4 December" in text
    assert "Practised: 1 student" in text and "Ana: 6 answers, 83% right" in text
    assert "Did not practise: 1 student" in text and "Béa" in text
    assert "Roux" not in text and "Cy" not in text
    assert "▲ addition: 40% → 100% right" in text
    # Her mastery of sums went up over the week; a first wrong try at fractions is no move.
    assert "Mastery that moved (students ▲ up · ▼ down)" in text
    assert "addition: ▲ 1 · ▼ 0" in text and "adding fractions" not in text
    assert ("**Sums** · due Saturday 5 December 2026 at 18:00 · done by 0 · in progress: 0"
            in text)
    assert "Known mistakes of the week: numerators and denominators added across: 1 time" in text
    assert digest.button("Full report")

    # Once: not again that day, not after a restart.
    assert await flow(bot).post_due_digests(moment.now + timedelta(hours=1)) == []
    bot = await restart_bot(bot)
    assert await flow(bot).post_due_digests(moment.now + timedelta(hours=2)) == []
    assert len(standin.channel_messages(teachers)) == before + 1
    # Its button: the week's report, for a teacher only (after the restart too).
    report = await standin.click(roux, digest, label="Full report")
    assert report.reply.ephemeral and "1 student · 6 answers · 83% right" in report.reply.text()
    refused = await standin.click(ana, digest, label="Full report")
    assert "Only teachers can see the class report" in refused.reply.content
    # The next Friday, the next week's.
    assert await flow(bot).post_due_digests(moment.now + timedelta(days=7)) == [guild]
    assert standin.take_errors() == []


async def test_the_task_posts_it_after_a_restart_and_an_empty_week_is_one_line(
        standin, start_bot, restart_bot, moment, monkeypatch):
    teachers = private_server(standin)
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True, locale="fr")
    await standin.slash(roux, "réglages classe", options={"résumé": teachers, "jour": 4,
                                                         "heure": 17, "pseudonymes": True})
    # The bot is stopped at 17:00 and back at 17:30: its task posts the digest.
    moment.now = NOW + timedelta(minutes=31)
    monkeypatch.setattr(ClassroomFlow, "assign_autoclose", True)
    bot = await restart_bot(bot)
    await standin.wait_until(lambda: len(standin.channel_messages(teachers)) == 1)
    [digest] = standin.channel_messages(teachers)
    [embed] = digest.embeds
    assert embed["description"] == "No practice and no assignment due this week."
    assert "fields" not in embed or not embed["fields"]
    assert digest.buttons() == []
    await asyncio.sleep(0)
    assert await flow(bot).post_due_digests(moment.now) == []


async def test_class_digest_posts_now_privately_or_in_the_teachers_channel(
        standin, start_bot, moment):
    teachers = private_server(standin)
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True, locale="fr")
    ana = standin.add_member("Ana")
    await answer(bot, standin.guild.id, ana.id, NOW - timedelta(days=2), "2 + 2", 4, 4)
    now = (await standin.slash(roux, "classe semaine")).reply
    assert now.ephemeral_to == roux.id
    assert "La semaine du samedi 28 novembre au vendredi 4 décembre" in now.text()
    assert fr("Ana : 1 réponse, 100 % justes") in now.text()
    await standin.slash(roux, "réglages classe", options={"résumé": teachers,
                                                         "pseudonymes": True})
    told = (await standin.slash(roux, "classe semaine")).reply
    assert told.content == f"Le résumé de la semaine est publié dans <#{teachers.id}>."
    [posted] = standin.channel_messages(teachers)
    # In the server's language (English here: none is set), with pseudonyms.
    assert "Student 1: 1 answer" in posted.text() and "Ana" not in posted.text()
    off = (await standin.slash(roux, "réglages classe")).reply
    assert off.content == "Le résumé de la semaine est arrêté."
    assert await bot.db.digests.get(standin.guild.id) is None
