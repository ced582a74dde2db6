"""The daily challenge end to end: the post (post_due_dailies), the button, one attempt a day,
streaks over days, an attempt interrupted by a restart, the leaderboard image."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from bot.focus import daily_questions
from tests.french import fr

DAY = date(2026, 11, 30)
MORNING = datetime(2026, 11, 30, 7, 59, tzinfo=UTC)
NINE = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)




async def daily_bot(start_bot: Any, standin: Any, now: datetime = NINE, **settings: Any
                    ) -> tuple[Any, Any]:
    """A bot whose server posts its daily challenge at 8 in #daily; the cog's clock at ``now``."""
    bot = await start_bot()
    await no_autopost(bot)
    channel = standin.add_channel("daily")
    await bot.db.servers.update(standin.guild.id, daily_channel_id=channel.id, daily_hour=8,
                                **settings)
    set_now(bot, now)
    return bot, channel


async def no_autopost(bot: Any) -> None:
    """The test posts, at the hours it chooses. The background task may have begun a round of
    posts as the bot got ready (at the real time): a call waits for it, as both take the same
    lock, before the test sets a daily channel (a slower database, PostgreSQL or a loaded
    machine, made that round see the channel and post)."""
    cog = bot.get_cog("Focus").flow
    cog.autopost = False
    assert await cog.post_due_dailies(MORNING) == []


def set_now(bot: Any, now: datetime) -> None:
    bot.get_cog("Focus").flow.now = lambda: now


async def play(standin: Any, member: Any, window: Any, answers: list[int], clock: Any,
               seconds: float = 2.0) -> None:
    for typed in answers:
        clock.now += seconds
        [button] = window.buttons()  # "Answer" or "Répondre"
        opened = await standin.click(member, window, button["custom_id"])
        await standin.submit_modal(member, opened, {"answer": str(typed)})


async def test_the_daily_challenge_is_posted_once_at_the_servers_hour(standin, start_bot):
    bot, channel = await daily_bot(start_bot, standin)
    cog = bot.get_cog("Focus").flow
    assert await cog.post_due_dailies(MORNING) == []
    assert standin.channel_messages(channel) == []
    assert await cog.post_due_dailies(NINE) == [(standin.guild.id, DAY)]
    assert await cog.post_due_dailies(NINE + timedelta(hours=3)) == []
    [post] = standin.channel_messages(channel)
    assert "Daily challenge · 30 November 2026" in post.text()
    assert "from level 2 to level 7" in post.text()
    assert post.button("Take today's challenge")["custom_id"] == (
        f"focus.daily:{standin.guild.id}:1:2026-11-30")
    stored = await bot.db.daily.get(standin.guild.id, DAY)
    assert (stored.channel_id, stored.message_id) == (channel.id, post.id)


async def test_the_post_follows_the_servers_time_zone(standin, start_bot):
    bot, _ = await daily_bot(start_bot, standin, timezone="Pacific/Auckland")
    # 9:00 UTC on 30 November is 22:00 in Auckland (UTC+13): the challenge of that local day.
    assert await bot.get_cog("Focus").flow.post_due_dailies(NINE) == [
        (standin.guild.id, date(2026, 11, 30))]
    # 12:00 UTC is 1:00 on 1 December there: before the hour of that day.
    assert await bot.get_cog("Focus").flow.post_due_dailies(NINE + timedelta(hours=3)) == []


async def test_a_member_takes_the_posted_challenge_from_its_button(standin, start_bot, clock):
    bot, channel = await daily_bot(start_bot, standin)
    await bot.get_cog("Focus").flow.post_due_dailies(NINE)
    post = standin.last_message(channel)
    questions = daily_questions(standin.guild.id, DAY)
    assert [q.level for q in questions] == [2, 3, 4, 5, 6, 7]
    ana = standin.add_member("Ana")
    window = (await standin.click(ana, post, label="Take today's challenge")).reply
    assert window.ephemeral_to == ana.id
    assert f"{questions[0].text} = ?" in window.text()
    await play(standin, ana, window, [q.answer for q in questions[:5]] + [0], clock, 3.0)
    text = window.text()
    assert "Daily challenge · 30 November 2026: 5/6" in text
    assert "Streak: 1 day in a row (best: 1)" in text
    assert "Today's ranking: #1 of 1" in text
    attempt = await bot.db.daily.attempt(standin.guild.id, DAY, ana.id)
    assert (attempt.score, attempt.time_ms) == (5, 18000)
    stored = await bot.db.focus.recent(standin.guild.id, ana.id)
    assert len(stored) == 6 and {a.source for a in stored} == {"daily"}


async def test_a_second_attempt_the_same_day_is_refused(standin, start_bot, clock):
    bot, channel = await daily_bot(start_bot, standin)
    await bot.get_cog("Focus").flow.post_due_dailies(NINE)
    post = standin.last_message(channel)
    ana = standin.add_member("Ana")
    questions = daily_questions(standin.guild.id, DAY)
    window = (await standin.click(ana, post, label="Take today's challenge")).reply
    await play(standin, ana, window, [q.answer for q in questions], clock)
    again = await standin.click(ana, post, label="Take today's challenge")
    assert again.reply.content == "You have already taken today's challenge. Come back tomorrow!"
    assert again.reply.ephemeral
    by_command = await standin.slash(ana, "focus daily")
    assert by_command.reply.content == again.reply.content
    assert len(await bot.db.focus.recent(standin.guild.id, ana.id)) == 6


async def test_the_streak_grows_over_two_days_and_yesterdays_post_is_refused(
        standin, start_bot, clock):
    bot, channel = await daily_bot(start_bot, standin)
    cog = bot.get_cog("Focus").flow
    ana = standin.add_member("Ana")
    await cog.post_due_dailies(NINE)
    first_post = standin.last_message(channel)
    window = (await standin.click(ana, first_post, label="Take today's challenge")).reply
    await play(standin, ana, window, [0] * 6, clock)
    assert "Streak: 1 day in a row (best: 1)" in window.text()

    tomorrow = NINE + timedelta(days=1)
    set_now(bot, tomorrow)
    old = await standin.click(ana, first_post, label="Take today's challenge")
    assert old.reply.content == ("This was the challenge of 30 November 2026. "
                                 "Take today's with /focus daily.")
    assert await cog.post_due_dailies(tomorrow) == [(standin.guild.id, DAY + timedelta(days=1))]
    window = (await standin.slash(ana, "focus daily")).reply
    assert "Daily challenge · 1 December 2026" in window.text()
    questions = daily_questions(standin.guild.id, DAY + timedelta(days=1))
    await play(standin, ana, window, [q.answer for q in questions], clock)
    assert "6/6" in window.text()
    assert "Streak: 2 days in a row (best: 2)" in window.text()


async def test_an_attempt_interrupted_by_a_restart_goes_on_where_it_stopped(
        standin, start_bot, restart_bot, clock):
    bot, channel = await daily_bot(start_bot, standin)
    await bot.get_cog("Focus").flow.post_due_dailies(NINE)
    post = standin.last_message(channel)
    ana = standin.add_member("Ana")
    questions = daily_questions(standin.guild.id, DAY)
    window = (await standin.click(ana, post, label="Take today's challenge")).reply
    await play(standin, ana, window, [q.answer for q in questions[:2]], clock)
    opened = await standin.click(ana, window, label="Answer")  # the modal stays open

    bot = await restart_bot(bot)
    set_now(bot, NINE + timedelta(minutes=5))
    expired = await standin.click(ana, window, label="Answer")
    assert expired.reply.content.startswith("This window has expired")
    late = await standin.submit_modal(ana, opened, {"answer": str(questions[2].answer)})
    assert late.reply.content.startswith("This window has expired")

    resumed = (await standin.click(ana, post, label="Take today's challenge")).reply
    assert "question 3/6" in resumed.text() and f"{questions[2].text} = ?" in resumed.text()
    await play(standin, ana, resumed, [q.answer for q in questions[2:]], clock)
    assert ": 6/6" in resumed.text()
    assert len(await bot.db.focus.recent(standin.guild.id, ana.id)) == 6


async def test_a_closed_window_reopens_at_the_same_question_with_its_clock_running(
        standin, start_bot, clock):
    bot, _ = await daily_bot(start_bot, standin)
    ana = standin.add_member("Ana")
    questions = daily_questions(standin.guild.id, DAY)
    await standin.slash(ana, "focus daily")
    clock.now += 4.0
    reopened = (await standin.slash(ana, "focus daily")).reply
    assert "question 1/6" in reopened.text()
    await play(standin, ana, reopened, [questions[0].answer], clock, seconds=1.0)
    [first] = await bot.db.focus.recent(standin.guild.id, ana.id)
    assert first.time_ms == 5000  # from the first showing, not the second


async def test_the_leaderboard_is_an_image_with_the_members_streak(standin, start_bot, clock):
    bot, _ = await daily_bot(start_bot, standin)
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam", locale="fr")
    empty = await standin.slash(sam, "focus leaderboard")
    assert empty.reply.content.startswith("Personne n'a encore fini le défi du jour.")
    questions = daily_questions(standin.guild.id, DAY)
    for member, right in ((ana, 6), (sam, 4)):
        window = (await standin.slash(member, "focus daily")).reply
        answers = [q.answer for q in questions[:right]] + [0] * (6 - right)
        await play(standin, member, window, answers, clock)
    record = await standin.slash(sam, "focus leaderboard")
    reply = record.reply
    assert reply.ephemeral
    assert reply.content == fr("Sam : série de 1 jour, record 1.")
    [picture] = reply.attachments
    assert picture.filename == "leaderboard.png" and picture.data.startswith(b"\x89PNG")
    shown = await standin.slash(ana, "focus leaderboard", show=True)
    assert not shown.reply.ephemeral and shown.reply.attachments
    board = await bot.db.daily.leaderboard(standin.guild.id, DAY)
    assert [(row.user_id, row.score) for row in board] == [(ana.id, 6), (sam.id, 4)]


async def test_a_daily_channel_that_is_gone_is_reported_once_and_the_command_still_works(
        standin, start_bot, clock, caplog):
    bot = await start_bot()
    cog = bot.get_cog("Focus").flow
    await no_autopost(bot)
    set_now(bot, NINE)
    await bot.db.servers.update(standin.guild.id, daily_channel_id=123456789, daily_hour=8)
    with caplog.at_level("WARNING", logger="bot.flows.focus"):
        assert await cog.post_due_dailies(NINE) == []
        assert await cog.post_due_dailies(NINE + timedelta(minutes=1)) == []
    assert len([r for r in caplog.records if "cannot post the daily challenge" in r.message]) == 1
    ana = standin.add_member("Ana")
    window = (await standin.slash(ana, "focus daily")).reply
    assert f"{daily_questions(standin.guild.id, DAY)[0].text} = ?" in window.text()
