"""The live round in a class room (issue 30), end to end over HTTP: the teacher runs ``/focus live``
on the stand-in, a browser student sees the question, answers it in the same round (the same
timers and ranking: they show by nickname in the ranking on Discord), the answer stored as a
live answer; the push (Server-Sent Events), with one bot and with two bots on one database;
the refusals (an unreadable answer, twice, a closed room)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
from test_cog_focus_live import SEED, FakeWall, prepare

from bot.focus import generate_questions
from bot.play.focus_live import NEXT_DELAY
from db import Database
from tests.test_shards import settings_of
from tests.web_helpers import Student, open_room, start_web_bot

QUESTIONS = generate_questions(4, 2, random.Random(SEED))


def flow(bot: Any) -> Any:
    return bot.get_cog("Focus").flow


async def live_web_bot(start_bot: Any, **overrides: Any) -> tuple[Any, FakeWall]:
    bot = await start_web_bot(start_bot, **overrides)
    wall = FakeWall()
    prepare(bot, wall)
    return bot, wall


async def answer_json(student: Student, number: int, typed: str) -> tuple[int, dict[str, Any]]:
    """The answer as the page's script sends it: the form, asking for JSON."""
    await student.get("/room/live")
    assert student.last is not None and student.last.csrf
    async with student.session.post(
            student.base + "/room/live/answer",
            data={"csrf": student.last.csrf, "number": str(number), "answer": typed},
            headers={"Accept": "application/json"}) as response:
        return response.status, await response.json()


async def test_a_web_student_answers_the_live_round_and_shows_in_the_discord_ranking(
        standin, start_bot) -> None:
    bot, wall = await live_web_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    ana = standin.add_member("Ana")
    room = await open_room(bot, standin)
    async with Student(bot.web.base_url) as léa:
        await léa.join(room.code, "Léa 42")
        waiting = await léa.get("/room/live")
        assert waiting.status == 200 and "No live round is running" in waiting.text

        first = (await standin.slash(teacher, "focus live", count=2, level=4)).reply
        page = await léa.get("/room/live")
        assert "Question 1 of 2" in page.text and f"{QUESTIONS[0].text} =" in page.text
        assert 'name="answer"' in page.text and "Time left: 20 s" in page.text

        wall.now += 2.0
        status, said = await answer_json(léa, 1, str(QUESTIONS[0].answer))
        assert status == 200 and said == {"ok": True, "correct": True, "points": 950,
                                          "message": "Right! +950 points."}
        again = await léa.post("/room/live/answer", {"number": "1", "answer": "3"})
        assert again.status == 409 and "already answered" in again.text
        wall.now += 1.0
        opened = await standin.click(ana, first, label="Answer")
        await standin.submit_modal(ana, opened, {"answer": str(QUESTIONS[0].answer + 1)})

        wall.now += 17.0  # 20 s: the question closes by its timer
        assert await flow(bot).run_due_live() == [1]
        assert "🥇 Léa 42: 950 points (1/1 right)\n🥈 Ana: 0 points (0/1 right)" in first.text()
        assert "Found by: Léa 42" in first.text()
        closed = await léa.get("/room/live")
        assert "Question 1 is closed." in closed.text
        assert f"The right answer: {QUESTIONS[0].answer}" in closed.text
        assert "Ranking after question 1" in closed.text and "Léa 42 (you)" in closed.text

        # The second question: the page's form without script (a page comes back); everyone
        # taking part has answered, so the question closes at once, as on Discord.
        wall.now += NEXT_DELAY
        assert await flow(bot).run_due_live() == [1]
        second = await standin.wait_for_message(after=first)
        await léa.get("/room/live")
        posted = await léa.post("/room/live/answer", {"number": "2",
                                                      "answer": str(QUESTIONS[1].answer + 1)})
        assert posted.status == 200 and "Not right." in posted.text
        assert "Your answer is in" in posted.text and 'name="answer"' not in posted.text
        opened = await standin.click(ana, second, label="Answer")
        await standin.submit_modal(ana, opened, {"answer": str(QUESTIONS[1].answer)})
        final = await standin.wait_for_message(lambda m: "final ranking" in m.text(),
                                               after=second)
        assert "Léa 42: 950 points (1/2 right)" in final.text()
        over = await léa.get("/room/live")
        assert "No live round is running" in over.text
        # Her own result of the round just over (the round forgets its ranking as it ends).
        assert "Your right answers: 1 of 2 (you answered 2)" in over.text
    seat = (await bot.services.db.web_rooms.seats_of_room(room.room_id))[0]
    answers = list(reversed(await bot.services.db.focus.recent(standin.guild.id, seat.user_id)))
    assert [(a.source, a.correct, a.round_key) for a in answers] == [
        ("live", True, "live:1"), ("live", False, "live:1")]


async def test_an_unreadable_answer_changes_nothing_and_a_closed_room_refuses(
        standin, start_bot) -> None:
    bot, _ = await live_web_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True, locale="fr")
    room = await open_room(bot, standin)
    async with Student(bot.web.base_url, lang="fr") as tom:
        await tom.join(room.code, "Tom")
        await standin.slash(teacher, "focus live", count=2, level=4)
        status, said = await answer_json(tom, 1, "douze")
        assert status == 400 and said["ok"] is False
        assert said["message"].startswith("«\u202fdouze\u202f» n'est pas un nombre entier")
        assert said["message"].endswith("Rien n'a été compté\xa0: tape ta réponse à nouveau.")
        row = await bot.services.db.focus_live.require(1)
        assert row.state["round"]["players"] == [] and row.version == 2  # posted: v2 only
        wrong_number = await tom.post("/room/live/answer", {"number": "2", "answer": "1"})
        assert wrong_number.status == 409

        await bot.services.db.web_rooms.close(room.room_id, bot.services.clocks.now())
        refused = await tom.post("/room/live/answer",
                                 {"number": "1", "answer": str(QUESTIONS[0].answer)})
        assert refused.status == 410 and "This room is closed" not in refused.text
        assert "Cette salle est fermée" in refused.text
    assert (await bot.services.db.focus_live.require(1)).state["round"]["answers"] == []


async def last_event(events: list[str], wanted: str, timeout: float = 5.0) -> None:
    """Wait until the stream's last event is ``wanted`` (the stream is read by another task)."""
    async with asyncio.timeout(timeout):
        while events[-1:] != [wanted]:
            await asyncio.sleep(0.02)


async def read_events(base: str, cookies: Any, phase: str, events: list[str],
                      started: asyncio.Event) -> None:
    """An EventSource's reading: every ``data:`` line, into ``events``."""
    async with aiohttp.ClientSession(cookie_jar=cookies) as session, session.get(
            f"{base}/room/live/events", params={"phase": phase}) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/event-stream")
        started.set()
        async for line in response.content:
            text = line.decode().strip()
            if text.startswith("data: "):
                events.append(text.removeprefix("data: "))


@contextlib.asynccontextmanager
async def pushed(base: str, student: Student) -> AsyncIterator[list[str]]:
    """The live page's event stream of ``student`` read by another task while inside: the
    events so far (from the first, the phase the page was loaded with being "none")."""
    events: list[str] = []
    started = asyncio.Event()
    reader = asyncio.create_task(read_events(base, student.session.cookie_jar, "none", events,
                                             started))
    try:
        await asyncio.wait_for(started.wait(), 5)
        yield events
    finally:
        reader.cancel()


async def test_the_page_is_pushed_the_rounds_changes(standin, start_bot) -> None:
    bot, wall = await live_web_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    room = await open_room(bot, standin)
    async with Student(bot.web.base_url) as léa:
        await léa.join(room.code, "Léa")
        async with pushed(bot.web.base_url, léa) as events:
            first = (await standin.slash(teacher, "focus live", count=2, level=4)).reply
            await last_event(events, "1:1:open")
            await standin.click(teacher, first, label="Pause")
            await last_event(events, "1:1:paused")
            await standin.click(teacher, first, label="Resume")
            await standin.click(teacher, first, label="Close the question")
            await last_event(events, "1:1:closed")
            wall.now += NEXT_DELAY
            await flow(bot).run_due_live()
            await last_event(events, "1:2:open")
            second = await standin.wait_for_message(after=first)
            await standin.click(teacher, second, label="End the round")
            await last_event(events, "none")
    assert events[0] != "none" or events == ["none"]
    assert "1:1:open" in events and "1:1:closed" in events


async def test_two_bots_on_one_database_one_runs_the_round_the_other_serves_the_page(
        standin, start_bot, shared_database) -> None:
    """Any process reads and writes through the shared database: the web page of one bot shows
    the round another bot runs, pushed; its answer counts in that round and its ranking."""
    mine = standin.shard_of(standin.guild, 2)  # the bot of that shard runs the round
    bots = {}
    for shard in (mine, 1 - mine):
        bots[shard] = await start_bot(settings=settings_of(
            standin, shared_database, ARDOISE_SHARDS=str(shard), ARDOISE_SHARD_COUNT="2"),
            web_listen=("127.0.0.1", 0))
    runner, other = bots[mine], bots[1 - mine]
    assert runner.owns(standin.guild.id) and not other.owns(standin.guild.id)
    wall = FakeWall()
    prepare(runner, wall)
    prepare(other, wall)
    teacher = standin.add_member("Mme Roux", teacher=True)
    room = await open_room(runner, standin)
    async with Student(other.web.base_url) as léa:
        await léa.join(room.code, "Léa")
        async with pushed(other.web.base_url, léa) as events:
            first = (await standin.slash(teacher, "focus live", count=2, level=4)).reply
            # The round is the first bot's: the second sees it by polling the database.
            await last_event(events, "1:1:open")
            wall.now += 3.0
            status, said = await answer_json(léa, 1, str(QUESTIONS[0].answer))
            assert status == 200 and said["correct"] and said["points"] == 925
            wall.now += 17.0
            # The runner's copy in memory is older than the stored round: it reads it again.
            assert await flow(runner).run_due_live() == [1]
            await last_event(events, "1:1:closed")
            assert "🥇 Léa: 925 points (1/1 right)" in first.text()
    other_db = await Database.open(shared_database)
    try:
        seat = (await other_db.web_rooms.seats_of_room(room.room_id))[0]
        [stored] = await other_db.focus.recent(standin.guild.id, seat.user_id)
        assert stored.source == "live" and stored.correct
    finally:
        await other_db.close()


async def test_a_nickname_shows_escaped_in_the_discord_ranking(standin, start_bot) -> None:
    """The nickname filter keeps Markdown and mentions out (bot.play.web_rooms); the ranking on
    Discord escapes a name anyway (``shown_name``), as it does a member's: a name the flow is
    given with them shows as text, never as a mention or formatting."""
    bot, wall = await live_web_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    first = (await standin.slash(teacher, "focus live", count=2, level=4)).reply
    wall.now += 2.0
    answered = await flow(bot).web_answer(1, 1, -77, "**Léa** @everyone 1.", str(
        QUESTIONS[0].answer))
    assert answered.correct
    wall.now += 18.0
    assert await flow(bot).run_due_live() == [1]
    assert "🥇 \\*\\*Léa\\*\\* @\u200beveryone 1.: 950 points (1/1 right)" in first.text()
