"""The live round in a real Chromium on a phone-sized screen (issue 30), as the issue tells it: a
teacher opens a room on the stand-in (``/class room open``), a student joins with the code the
reply shows, the question the teacher starts on Discord appears without a reload (pushed), they
answer with the keyboard and read "right" in place, and show in the live ranking on Discord and
in ``/class report``; once the teacher closes the room (``/class room close``), an answer is
refused. The screenshot docs/web-room/live.png."""

from __future__ import annotations

import random

from test_cog_class_room import open_with_command
from test_cog_focus_live import SEED, FakeWall, prepare
from test_web_reports import csv_of

from bot.focus import generate_questions
from bot.play.focus_live import NEXT_DELAY
from tests.browser import chromium, phone, screenshot  # noqa: F401  (the fixture)
from tests.web_helpers import start_web_bot

QUESTIONS = generate_questions(4, 3, random.Random(SEED))


async def test_a_browser_student_takes_the_live_round(start_bot, standin, chromium) -> None:  # noqa: F811
    bot = await start_web_bot(start_bot)
    wall = FakeWall()
    prepare(bot, wall)
    flow = bot.get_cog("Focus").flow
    teacher = standin.add_member("Mme Roux", teacher=True)
    _, code = await open_with_command(standin, teacher, name="5e B")
    page = await phone(chromium)
    await page.goto(bot.web.base_url + "/")
    await page.get_by_label("Room code").fill(code)
    await page.keyboard.press("Enter")
    await page.wait_for_url("**/join/*")
    await page.get_by_label("Nickname").fill("Léa")
    await page.keyboard.press("Enter")
    await page.wait_for_url("**/room")
    await page.get_by_role("link", name="Live round").click()
    await page.wait_for_url("**/room/live")
    await page.get_by_text("No live round is running").wait_for()

    first = (await standin.slash(teacher, "focus live", count=3, level=4)).reply
    # Pushed: no reload, the question shows by itself.
    await page.get_by_text("Question 1 of 3").wait_for()
    assert f"{QUESTIONS[0].text} =" in await page.inner_text("#question")
    await screenshot(page, "live")
    wall.now += 2.0
    await page.get_by_label("Your answer").fill(str(QUESTIONS[0].answer))
    await page.keyboard.press("Enter")
    await page.get_by_text("Right! +950 points.").wait_for()
    assert page.url.endswith("/room/live")  # in place: the page did not change

    wall.now += 18.0
    assert await flow.run_due_live() == [1]
    assert "🥇 Léa: 950 points (1/1 right)" in first.text()
    await page.get_by_text("Question 1 is closed.").wait_for()
    assert "Léa (you)" in await page.inner_text("table")

    wall.now += NEXT_DELAY
    assert await flow.run_due_live() == [1]
    await page.get_by_text("Question 2 of 3").wait_for()
    report = (await standin.slash(teacher, "class report")).reply
    assert "Léa (web)" in {row[0] for row in csv_of(report)[1:]}
    closed = (await standin.slash(teacher, "class room close")).reply
    assert "is closed" in closed.text()
    await page.get_by_label("Your answer").fill(str(QUESTIONS[1].answer))
    await page.keyboard.press("Enter")
    await page.get_by_text("This room is closed").first.wait_for()
    row = await bot.services.db.focus_live.require(1)
    assert [a["index"] for a in row.state["round"]["answers"]] == [0]
