"""Focus practice in the browser (issue 30), end to end: a round chosen as ``/focus practice``
chooses it (the student's level and mastery, the server's school year), one question a page,
each answer marked with the worked correction, the summary with the next level, then another
round; answers stored as a member's practice answers (the mastery moves, the level moves by the
same rules); a non-number refused with Focus's words; the round kept on the server, so that a
forged form value changes no marking. Real bot, real web server, HTTP client."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.focus import Question
from bot.focus.exact import exact_text
from bot.focus.school import YEARS
from bot.play import focus as focus_play
from bot.play import web_study
from tests.web_helpers import Student, open_room, start_web_bot

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
WRONG = 99999


class Clock:
    def __init__(self) -> None:
        self.now = NOW


def shown(page: Any) -> str:
    """The page's text as read (tags out, entities read, French's no-break spaces plain)."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", page.text))
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def typed(question: Question) -> str:
    """The right answer as a student types it (``3/4``, ``-2``, ``0.75``)."""
    return exact_text(question.answer, question.form).replace("−", "-")


async def practice_bot(start_bot: Any, seed: int = 7) -> tuple[Any, Clock]:
    bot = await start_web_bot(start_bot)
    clock = Clock()
    bot.services.clocks.now = lambda: clock.now
    bot.services.clocks.seed = lambda: seed
    return bot, clock


_ROUND = re.compile(r'name="round" value="([^"]*)"')


async def post_answer(student: Student, n: int, text: str, **forged: str) -> Any:
    """Answer question ``n`` as the last page's form does (its round's key and token)."""
    assert student.last is not None
    found = _ROUND.search(student.last.text)
    return await student.post("/room/practice", {
        "n": str(n), "answer": text, "round": found.group(1) if found else "", **forged})


async def the_round(bot: Any, standin: Any, user_id: int) -> web_study.Practice:
    found = await web_study.practice(bot.services.db, standin.guild.id, user_id)
    assert found is not None
    return found


async def test_a_round_question_by_question_then_the_summary_and_another(
        standin, start_bot) -> None:
    bot, clock = await practice_bot(start_bot)
    room = await open_room(bot, standin)
    db = bot.services.db
    async with Student(bot.web.base_url) as student:
        await student.join(room.code, "Léa")
        [seat] = await db.web_rooms.seats_of_room(room.room_id)
        start = await student.get("/room/practice")
        assert start.status == 200 and "Start a round" in shown(start)
        assert "Your level: 1" in shown(start)
        assert await web_study.practice(db, standin.guild.id, seat.user_id) is None

        page = await student.post("/room/practice", {"action": "start"})
        assert page.status == 200
        played = await the_round(bot, standin, seat.user_id)
        questions = played.round.questions
        assert len(questions) == 6 and played.level == played.own == 1
        assert "Question 1 of 6" in shown(page) and f"{questions[0].text} = ?" in shown(page)
        assert 'inputmode="text"' in page.text and '<label for="answer"' in page.text
        assert "Level 1 ·" in shown(page)

        refused = await post_answer(student, 0, "3+4")
        assert refused.status == 400
        assert "Nothing was counted: type your answer again." in shown(refused)
        assert "Question 1 of 6" in shown(refused)
        assert await db.focus.round_answers(standin.guild.id, seat.user_id, played.key) == []

        # A forged form: its "question" and "expected" are not read; the marking is the
        # server's question's.
        clock.now += timedelta(seconds=5)
        page = await post_answer(student, 0, str(WRONG), expected=str(WRONG),
                                 question="99999 + 0", correct="1")
        assert f"(you typed {WRONG})" in shown(page) and "Question 2 of 6" in shown(page)
        for n, question in enumerate(questions[1:], start=1):
            clock.now += timedelta(seconds=2)
            page = await post_answer(student, n, typed(question))
            assert "right!" in shown(page)
        text = shown(page)
        assert "Round over: 5/6" in text
        assert "Another round" in text
        # Coming back shows the summary again; nothing asked.
        again = await student.get("/room/practice")
        assert "Round over: 5/6" in shown(again) and 'name="answer"' not in again.text

        # Stored as a member's practice answers, the mastery moved.
        stored = await db.focus.round_answers(standin.guild.id, seat.user_id, played.key)
        assert [(a.question_no, a.source, a.correct) for a in stored] == [
            (n, "practice", n > 0) for n in range(6)]
        assert stored[0].time_ms == 5000 and stored[1].time_ms == 2000
        mastery = await db.mastery.load(standin.guild.id, seat.user_id, clock.now)
        assert mastery.items

        another = await student.post("/room/practice", {"action": "start"})
        assert "Question 1 of 6" in shown(another)
        renewed = await the_round(bot, standin, seat.user_id)
        assert renewed.key != played.key
        # A page of the round replaced (another tab) answers nothing of the new one.
        stale = await student.post("/room/practice", {"n": "0", "answer": "1",
                                                      "round": played.key})
        assert "Question 1 of 6" in shown(stale) and "already answered" in shown(stale)
        assert await db.focus.round_answers(standin.guild.id, seat.user_id, renewed.key) == []


async def test_the_round_is_chosen_as_focus_practice_chooses_it_with_the_school_year(
        standin, start_bot) -> None:
    bot, clock = await practice_bot(start_bot, seed=1234)
    db = bot.services.db
    room = await open_room(bot, standin)
    await db.servers.update(standin.guild.id, focus_school_year="5e")
    async with Student(bot.web.base_url, lang="fr") as student:
        await student.join(room.code, "Tom")
        [seat] = await db.web_rooms.seats_of_room(room.room_id)
        await student.get("/room/practice")
        page = await student.post("/room/practice", {"action": "start"})
        assert "Question 1 sur 6" in shown(page)
        played = await the_round(bot, standin, seat.user_id)
        # What /focus practice draws for this student with the same seed.
        same = await focus_play.start_practice(db, standin.guild.id, seat.user_id, None, 1234,
                                               clock.now)
        assert [q.text for q in played.round.questions] == [q.text for q in same.questions]
        year = {skill for skill, _ in YEARS["5e"].skills}
        assert {q.skill for q in played.round.questions} <= year
        for n, question in enumerate(played.round.questions):
            page = await post_answer(student, n, typed(question))
            assert "juste" in shown(page)
        assert "Entraînement terminé : 6/6" in shown(page)


async def test_the_level_moves_by_the_rules_of_focus_practice(standin, start_bot) -> None:
    bot, clock = await practice_bot(start_bot)
    db = bot.services.db
    room = await open_room(bot, standin)
    async with Student(bot.web.base_url) as student:
        await student.join(room.code, "Tom")
        [seat] = await db.web_rooms.seats_of_room(room.room_id)
        levels = []
        await student.get("/room/practice")
        for _ in range(4):
            await student.post("/room/practice", {"action": "start"})
            played = await the_round(bot, standin, seat.user_id)
            for n, question in enumerate(played.round.questions):
                clock.now += timedelta(seconds=2)
                page = await post_answer(student, n, typed(question))
            done = await the_round(bot, standin, seat.user_id)
            assert done.finished and done.advice is not None
            player = await db.players.get(standin.guild.id, seat.user_id)
            assert player.focus_level == done.advice.level
            levels.append(done.advice.level)
            if done.advice.reason == "up":
                assert f"Level {done.advice.level}: well done, one level up!" in shown(page)
                break
        assert levels[-1] > 1, levels


async def seat_with_a_round(standin: Any, start_bot: Any) -> tuple[Any, Any]:
    """The database and the seat of Tom, who joined a room and started a practice round (kept
    on the server between pages)."""
    bot, _ = await practice_bot(start_bot)
    room = await open_room(bot, standin)
    async with Student(bot.web.base_url) as student:
        await student.join(room.code, "Tom")
        await student.get("/room/practice")
        await student.post("/room/practice", {"action": "start"})
    [seat] = await bot.services.db.web_rooms.seats_of_room(room.room_id)
    return bot.services.db, seat


async def test_the_round_kept_between_pages_goes_with_the_student(standin, start_bot) -> None:
    db, seat = await seat_with_a_round(standin, start_bot)
    assert await db.web_practice.get(standin.guild.id, seat.user_id) is not None
    await db.delete_player(standin.guild.id, seat.user_id)
    assert await db.web_practice.get(standin.guild.id, seat.user_id) is None


async def test_the_export_holds_the_round_kept_between_pages(standin, start_bot) -> None:
    db, seat = await seat_with_a_round(standin, start_bot)
    exported = await db.export_player(standin.guild.id, seat.user_id)
    [kept] = exported["web_practice"]
    assert kept["user_id"] == seat.user_id and "practice" in kept["state"]
