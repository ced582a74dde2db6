"""Homework and practice in a real Chromium on a phone-sized screen (issue 30), with the keyboard
alone: a student joins from the teacher's link, opens their homework, answers each question
(typed, then Enter), reads the correction of a wrong one, ends on the summary; the assignment's
report holds their answers. Then a practice round. Screenshots at 360 px into docs/web-room/."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from bot.focus import Question
from bot.focus.exact import exact_text
from bot.play import assignments as homework
from bot.play import web_rooms, web_study
from tests.browser import chromium, phone, screenshot  # noqa: F401  (the fixture)
from tests.classroom_helpers import Moment, classroom_clock, posted
from tests.web_helpers import open_room, start_web_bot

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
DUE = "2026-12-08 18:00"


@pytest.fixture
def moment(monkeypatch: pytest.MonkeyPatch) -> Moment:
    return classroom_clock(monkeypatch, NOW, seed=5)


def typed(question: Question) -> str:
    """The right answer as typed on a phone: ``1/2``, ``-6``."""
    return exact_text(question.answer, question.form).replace("−", "-")


async def answer(page: Any, text: str) -> None:
    """Type into the answer field (focused as the page opens) and press Enter."""
    # Chromium gives the autofocus a moment after the page's load: wait for it (5 s at most).
    await page.wait_for_function("document.activeElement && document.activeElement.id === 'answer'",
                                 timeout=5000)
    await page.keyboard.type(text)
    async with page.expect_navigation():
        await page.keyboard.press("Enter")


async def follow(page: Any, name: str) -> None:
    """Reach a link by the keyboard and open it."""
    await page.get_by_role("link", name=name).first.focus()
    async with page.expect_navigation():
        await page.keyboard.press("Enter")


async def test_a_student_does_homework_and_practises_in_the_browser(
        start_bot, standin, chromium, moment) -> None:  # noqa: F811
    bot = await start_web_bot(start_bot)
    bot.services.clocks.now = lambda: moment.now
    bot.services.clocks.seed = lambda: 3
    db = bot.services.db
    await db.servers.update(standin.guild.id, focus_school_year="5e")
    roux = standin.add_member("Roux", teacher=True)
    await standin.slash(roux, "class assign", name="Revision", due=DUE, level=2, count=3)
    await standin.slash(roux, "class assign", name="Squares", due="2026-12-10 18:00", level=1,
                        goal="right:5")
    made = await posted(bot, standin, "Revision")
    await posted(bot, standin, "Squares")
    questions = homework.questions(made)
    room = await open_room(bot, standin, name="5e B")

    page = await phone(chromium)
    await page.goto(f"{bot.web.base_url}/join/{room.code}")
    await page.get_by_label("Nickname").fill("Léa")
    async with page.expect_navigation():
        await page.keyboard.press("Enter")
    await follow(page, "My homework")
    listed = await page.inner_text("main")
    assert "Revision" in listed and "Squares" in listed and "Goal: 5 right answers" in listed
    await screenshot(page, "homework")

    await follow(page, "Start")  # the soonest due first: Revision
    assert "Question 1 of 3" in await page.inner_text("main")
    await answer(page, typed(questions[0]))
    await answer(page, "7")  # wrong
    shown = await page.inner_text("main")
    assert "(you typed 7)" in shown and "Question 3 of 3" in shown
    await screenshot(page, "homework-question")
    await answer(page, typed(questions[2]))
    shown = await page.inner_text("main")
    assert "Revision: finished" in shown and "Your score: 2/3" in shown

    # The assignment's report holds the web student's answers, named by their nickname.
    [seat] = await db.web_rooms.seats_of_room(room.room_id)
    report = await homework.report(db, standin.guild.id, "Revision")
    [attempt] = report.finished
    assert attempt.user_id == seat.user_id and attempt.score == 2
    assert [(a.question_no, a.correct) for a in report.answers[seat.user_id]] == [
        (0, True), (1, False), (2, True)]
    names = await web_rooms.nicknames(db, standin.guild.id)
    sheet = homework.report_csv(report, names, [], "en").decode("utf-8-sig")
    assert sheet.count("Léa") == 3 and ",7," in sheet
    # The teacher's report on Discord counts them (how it names a web student is the
    # teachers' side's: a nickname).
    shown = (await standin.slash(roux, "class report", assignment="Revision")).reply.text()
    assert "Done: 1:" in shown and "**2/3**" in shown

    # Practice, at the student's level with the server's school year.
    await follow(page, "Back to my homework")
    await follow(page, "Back to the room")
    await follow(page, "Practise")
    # "Start a round" has the focus (its autofocus, given a moment after the page's load).
    await page.wait_for_function("document.activeElement && document.activeElement.tagName"
                                 " === 'BUTTON'", timeout=5000)
    async with page.expect_navigation():
        await page.keyboard.press("Enter")
    played = await web_study.practice(db, standin.guild.id, seat.user_id)
    assert played is not None
    assert "Question 1 of 6" in await page.inner_text("main")
    await screenshot(page, "practice")
    await answer(page, "7" if typed(played.round.questions[0]) != "7" else "8")
    shown = await page.inner_text("main")
    assert "you typed" in shown and "Question 2 of 6" in shown
    await screenshot(page, "practice-correction")
    stored = await db.focus.round_answers(standin.guild.id, seat.user_id, played.key)
    assert [(a.source, a.correct) for a in stored] == [("practice", False)]
