"""Homework in the browser (issue 30), end to end: a teacher sets assignments on Discord (the
stand-in's ``/class assign``), a web student lists them, does one question by question (each
answer marked, with the worked correction; a non-number refused with Focus's own words, nothing
counted), leaves and comes back where they left off, and ends on the summary; the report holds
their answers as it holds a member's. A role's assignment, a past-due one and another server's
are refused; a forged form changes nothing. Real bot, real web server, HTTP client."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.play import assignments as homework
from tests.classroom_helpers import Moment, classroom_clock, posted
from tests.web_helpers import Student, open_room, start_web_bot

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
DUE = "2026-12-08 18:00"
BUTTON = "Do the assignment"
WRONG = 999  # no answer of levels 1 and 2


@pytest.fixture
def moment(monkeypatch: pytest.MonkeyPatch) -> Moment:
    return classroom_clock(monkeypatch, NOW)


async def web_bot(start_bot: Any, moment: Moment) -> Any:
    bot = await start_web_bot(start_bot)
    bot.services.clocks.now = lambda: moment.now  # the pages' clock is the classroom's
    return bot


def shown(page: Any) -> str:
    """The page's text as a student reads it (tags out, entities read)."""
    return html.unescape(re.sub(r"<[^>]+>", " ", page.text))


async def test_a_web_student_lists_does_resumes_and_finishes_an_assignment(
        standin, start_bot, moment, clock) -> None:
    bot = await web_bot(start_bot, moment)
    roux = standin.add_member("Roux", teacher=True)
    six_b = standin.add_role("6B")
    await standin.slash(roux, "class assign", name="Sums", due=DUE, level=1, count=3)
    await standin.slash(roux, "class assign", name="Only 6B", due=DUE, level=1, count=2,
                        role=six_b)
    made = await posted(bot, standin, "Sums")
    await posted(bot, standin, "Only 6B")
    room = await open_room(bot, standin)
    questions = homework.questions(made)
    db = bot.services.db

    async with Student(bot.web.base_url) as student:
        assert (await student.join(room.code, "Léa")).status == 200
        listed = await student.get("/room/homework")
        assert listed.status == 200
        text = shown(listed)
        # A role's assignment is never a web student's (they hold no Discord role).
        assert "Sums" in text and "Only 6B" not in text
        assert "Due Tuesday 8 December 2026 at 18:00" in text and "To do" in text
        path = f"/room/homework/{made.assignment_id}"
        assert f'href="{path}"' in listed.text

        first = await student.get(path)
        assert first.status == 200
        assert "Question 1 of 3" in shown(first)
        assert f"{questions[0].text} = ?" in shown(first)
        assert 'inputmode="text"' in first.text and 'name="csrf"' in first.text

        # Not a number: Focus's own words, nothing counted, the same question again.
        refused = await student.post(path, {"n": "0", "answer": "douze"})
        assert refused.status == 400
        assert ("“douze” is not a whole number: type digits only, like 42 or −7. Nothing was "
                "counted: type your answer again.") in shown(refused)
        assert "Question 1 of 3" in shown(refused)
        seat = (await db.web_rooms.seats_of_room(room.room_id))[0]
        key = homework.round_key(made.assignment_id)
        assert await db.focus.round_answers(standin.guild.id, seat.user_id, key) == []

        moment.now += timedelta(seconds=4)
        right = await student.post(path, {"n": "0", "answer": str(questions[0].answer)})
        assert f"{questions[0].text} = {questions[0].answer}: right!" in shown(right)
        assert "Question 2 of 3" in shown(right)
        # The same form sent again (a second tab, a reload): nothing changes.
        again = await student.post(path, {"n": "0", "answer": str(WRONG)})
        assert "already answered" in shown(again) and "Question 2 of 3" in shown(again)
        # A forged question number answers nothing either.
        forged = await student.post(path, {"n": "2", "answer": "1"})
        assert "Question 2 of 3" in shown(forged)

        moment.now += timedelta(seconds=6)
        wrong = await student.post(path, {"n": "1", "answer": str(WRONG)})
        assert (f"{questions[1].text} = {questions[1].answer} (you typed {WRONG})"
                in shown(wrong))
        assert "Question 3 of 3" in shown(wrong)

        # Leaving and coming back: the list says where they are, the page goes on there.
        listed = await student.get("/room/homework")
        assert "In progress: at question 3 of 3" in shown(listed)
        assert "Continue" in shown(listed)
        back = await student.get(path)
        assert "Question 3 of 3" in shown(back)

        done = await student.post(path, {"n": "2", "answer": str(questions[2].answer)})
        assert done.status == 200
        text = shown(done)
        assert "Sums: finished" in text and "Your score: 2/3" in text
        assert f"1. {questions[0].text} = {questions[0].answer} · 4.0 s" in text
        assert f"you typed {WRONG} · 6.0 s" in text
        # Coming back after the end shows the summary again, nothing asked.
        seen = await student.get(path)
        assert "Your score: 2/3" in shown(seen) and 'name="answer"' not in seen.text
        listed = await student.get("/room/homework")
        assert "Done: 2/3" in shown(listed)

    # Stored as a member's: the attempt, its score, the answers under the assignment's key.
    attempt = await db.assignments.attempt(made.assignment_id, seat.user_id)
    assert attempt is not None and attempt.score == 2 and attempt.finished_at is not None
    stored = await db.focus.round_answers(standin.guild.id, seat.user_id, key)
    assert [(a.question_no, a.source, a.time_ms) for a in stored] == [
        (0, "assignment", 4000), (1, "assignment", 6000), (2, "assignment", 0)]
    assert [a.correct for a in stored] == [True, False, True]


async def test_the_report_holds_a_web_students_answers_as_a_members(
        standin, start_bot, moment, clock) -> None:
    bot = await web_bot(start_bot, moment)
    roux = standin.add_member("Roux", teacher=True)
    post = (await standin.slash(roux, "class assign", name="Tables", due=DUE, level=1,
                                count=2)).reply
    made = await posted(bot, standin, "Tables")
    questions = homework.questions(made)
    room = await open_room(bot, standin)

    ana = standin.add_member("Ana")
    window = (await standin.click(ana, post, label=BUTTON)).reply
    for typed in (questions[0].answer, WRONG):
        clock.now += 3.0
        [button] = window.buttons()
        opened = await standin.click(ana, window, button["custom_id"])
        await standin.submit_modal(ana, opened, {"answer": str(typed)})

    async with Student(bot.web.base_url) as student:
        await student.join(room.code, "Tom")
        path = f"/room/homework/{made.assignment_id}"
        await student.get(path)
        moment.now += timedelta(seconds=3)
        await student.post(path, {"n": "0", "answer": str(questions[0].answer)})
        moment.now += timedelta(seconds=3)
        await student.post(path, {"n": "1", "answer": str(WRONG)})
    [seat] = await bot.services.db.web_rooms.seats_of_room(room.room_id)

    report = await homework.report(bot.services.db, standin.guild.id, "Tables")
    by_student = {a.user_id: a for a in report.finished}
    assert by_student[ana.id].score == by_student[seat.user_id].score == 1
    assert by_student[seat.user_id].time_ms == by_student[ana.id].time_ms == 6000

    def kept(user_id: int) -> list[tuple[Any, ...]]:
        return [(a.question_no, a.question, a.expected, a.given, a.correct, a.time_ms)
                for a in report.answers[user_id]]

    assert kept(seat.user_id) == kept(ana.id)
    assert seat.user_id not in report.not_started
    # The figures of each question count them both.
    assert [(s.students, s.right) for s in report.question_stats()] == [(2, 2), (2, 0)]


async def test_with_a_goal_a_wrong_answer_brings_a_fresh_question_and_it_ends_at_the_goal(
        standin, start_bot, moment, clock) -> None:
    bot = await web_bot(start_bot, moment)
    roux = standin.add_member("Roux", teacher=True)
    await standin.slash(roux, "class assign", name="Tables", due=DUE, level=2,
                        goal="right:2")
    made = await posted(bot, standin, "Tables")
    room = await open_room(bot, standin)
    async with Student(bot.web.base_url) as student:
        await student.join(room.code, "Tom")
        [seat] = await bot.services.db.web_rooms.seats_of_room(room.room_id)
        path = f"/room/homework/{made.assignment_id}"
        page = await student.get(path)
        listed = shown(await student.get("/room/homework"))
        assert "Goal: 2 right answers" in listed
        rights: list[bool] = []
        for right in (False, True, True):
            question = homework.attempt_questions(made, seat.user_id, rights)[-1]
            assert f"Question {len(rights) + 1}" in shown(page)
            page = await student.get(path)
            assert f"{question.text} = ?" in shown(page)
            page = await student.post(path, {"n": str(len(rights)),
                                             "answer": str(question.answer if right
                                                           else WRONG)})
            rights.append(right)
        asked = homework.attempt_questions(made, seat.user_id, [False])
        # After the wrong answer, a fresh question of the same skill (as on Discord).
        assert asked[1].skill == asked[0].skill and asked[1].text != asked[0].text
        assert "Tables: goal reached" in shown(page) and 'name="answer"' not in page.text
    attempt = await bot.services.db.assignments.attempt(made.assignment_id, seat.user_id)
    assert attempt is not None and attempt.score == 2 and attempt.finished_at is not None


async def test_past_due_a_roles_and_another_servers_assignment_are_refused(
        standin, start_bot, moment, clock) -> None:
    bot = await web_bot(start_bot, moment)
    roux = standin.add_member("Roux", teacher=True)
    six_b = standin.add_role("6B")
    await standin.slash(roux, "class assign", name="Soon", due="2026-11-30 12:00", level=1,
                        count=2)
    await standin.slash(roux, "class assign", name="Only 6B", due=DUE, level=1, count=2,
                        role=six_b)
    soon = await posted(bot, standin, "Soon")
    role = await posted(bot, standin, "Only 6B")
    db = bot.services.db
    # Another server's assignment, with a name the page must never show.
    other = await homework.create_assignment(
        db, 4242, 1, homework.Draft(name="Secret of another class", due=DUE, level=1,
                                    count=2), NOW, seed=3)
    await homework.posted(db, other.assignment_id, 77, 78)
    room = await open_room(bot, standin)
    async with Student(bot.web.base_url) as student:
        await student.join(room.code, "Tom")
        [seat] = await db.web_rooms.seats_of_room(room.room_id)
        page = await student.get(f"/room/homework/{soon.assignment_id}")
        assert page.status == 200  # begun before its due moment
        token = page.csrf
        assert token
        moment.now = NOW + timedelta(hours=4)
        listed = shown(await student.get("/room/homework"))
        assert "Soon" not in listed and "no homework to do" in listed
        closed = await student.get(f"/room/homework/{soon.assignment_id}")
        assert closed.status == 410
        assert ("This assignment closed on Monday 30 November 2026 at 12:00."
                in shown(closed))
        # An answer to the question shown before the due moment is still taken (a Discord
        # window still open is), then nothing more.
        question = homework.questions(soon)[0]
        late = await student.post(f"/room/homework/{soon.assignment_id}",
                                  {"n": "0", "answer": str(question.answer), "csrf": token})
        assert "right!" in shown(late) and 'name="answer"' not in late.text
        assert "This assignment closed on Monday 30 November 2026 at 12:00." in shown(late)
        refused = await student.post(f"/room/homework/{soon.assignment_id}",
                                     {"n": "1", "answer": "1", "csrf": token})
        assert refused.status == 410

        for_role = await student.get(f"/room/homework/{role.assignment_id}")
        assert for_role.status == 403 and "only for the members of" in shown(for_role)
        for path in (f"/room/homework/{other.assignment_id}", "/room/homework/999999"):
            forged = await student.get(path)
            assert forged.status == 404
            assert "This assignment no longer exists." in shown(forged)
            assert "Secret" not in forged.text
        posted_forged = await student.post(f"/room/homework/{other.assignment_id}",
                                           {"n": "0", "answer": "1", "csrf": token})
        assert posted_forged.status == 404 and "Secret" not in posted_forged.text
        # A form without its token changes nothing.
        tokenless = await student.post(f"/room/homework/{role.assignment_id}",
                                       {"n": "0", "answer": "1"}, csrf=False)
        assert tokenless.status == 403
    assert await db.assignments.attempt(other.assignment_id, seat.user_id) is None
    assert await db.assignments.attempt(role.assignment_id, seat.user_id) is None


async def test_a_closed_room_takes_no_homework_answer(standin, start_bot, moment, clock
                                                      ) -> None:
    bot = await web_bot(start_bot, moment)
    roux = standin.add_member("Roux", teacher=True)
    await standin.slash(roux, "class assign", name="Sums", due=DUE, level=1, count=2)
    made = await posted(bot, standin, "Sums")
    room = await open_room(bot, standin)
    async with Student(bot.web.base_url) as student:
        await student.join(room.code, "Tom")
        path = f"/room/homework/{made.assignment_id}"
        await student.get(path)
        await bot.services.db.web_rooms.close(room.room_id, moment.now)
        page = await student.post(path, {"n": "0", "answer": "1"})
        assert page.status == 410 and "This room is closed" in shown(page)
    [seat] = await bot.services.db.web_rooms.seats_of_room(room.room_id)
    assert await bot.services.db.focus.round_answers(
        standin.guild.id, seat.user_id, homework.round_key(made.assignment_id)) == []



async def test_in_french_the_list_and_the_correction(standin, start_bot, moment, clock
                                                     ) -> None:
    bot = await web_bot(start_bot, moment)
    roux = standin.add_member("Roux", teacher=True)
    await standin.slash(roux, "class assign", name="Tables", due=DUE, level=1, count=2)
    made = await posted(bot, standin, "Tables")
    room = await open_room(bot, standin)
    question = homework.questions(made)[0]
    async with Student(bot.web.base_url, lang="fr") as student:
        await student.join(room.code, "Tom")
        listed = shown(await student.get("/room/homework")).replace("\u202f", " ").replace(
            "\u00a0", " ")
        assert "À rendre le mardi 8 décembre 2026 à 18 h" in listed and "À faire" in listed
        path = f"/room/homework/{made.assignment_id}"
        page = await student.get(path)
        assert "Question 1 sur 2" in shown(page)
        page = await student.post(path, {"n": "0", "answer": str(WRONG)})
        text = shown(page).replace("\u202f", " ").replace("\u00a0", " ")
        assert "Pas tout à fait" in text and f"(tu as tapé {WRONG})" in text
        assert f"{question.text} = {question.answer}" in text
