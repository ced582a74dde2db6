"""/focus live runs itself, end to end through the real bot: the timers close each question (the
clock replaced, the due steps taken at once with ``run_due_live``), the next comes by itself; the
teacher pauses, closes or ends; a restart re-arms the timers; a student's extra time (×2, no timer)
counts; anonymous and hidden students in the public rankings; the teacher's report (picture and
CSV); a question set used in a live round."""

from __future__ import annotations

import asyncio
import csv
import io
import random
from typing import Any

from PIL import Image
from test_cog_focus_live import SEED, answer, live_bot, prepare

from bot.focus import generate_questions
from bot.play.focus_live import NEXT_DELAY
from bot.texts import skill_name
from db.question_sets import SetItem
from db.students import StudentSettings
from images import live_report as drawing
from images import style

START = 1_800_000_000.0


def cog(bot: Any) -> Any:
    return bot.get_cog("Focus").flow


async def set_student(bot: Any, standin: Any, member: Any, **settings: Any) -> None:
    await bot.db.students.save(StudentSettings(standin.guild.id, member.id, **settings))


async def join(standin: Any, member: Any, question: Any, label: str = "Answer") -> Any:
    """The member opens the answer modal (and so joins the round); the opened modal."""
    opened = await standin.click(member, question, label=label)
    assert opened.modal is not None
    return opened


async def test_the_round_closes_each_question_by_itself_and_moves_on(standin, start_bot):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    questions = generate_questions(4, 2, random.Random(SEED))
    first = (await standin.slash(teacher, "focus live", count=2, level=4)).reply
    assert [b["label"] for b in first.buttons()] == ["Answer", "Pause", "Close the question",
                                                     "End the round"]
    assert "Mme Roux can pause, close the question or end the round" in first.text()
    assert cog(bot).live_timers() == {1: START + 20}
    wall.now += 2.0
    await answer(standin, ana, first, str(questions[0].answer))
    sam_modal = await join(standin, sam, first)

    wall.now += 17.0  # 19 s: not yet
    assert await cog(bot).run_due_live() == []
    assert "· closed" not in first.text()
    wall.now += 1.0  # 20 s: the time is up
    assert await cog(bot).run_due_live() == [1]
    assert "question 1/2 · closed" in first.text() and first.buttons() == []
    assert f"{questions[0].text} = {questions[0].answer}" in first.text()
    assert "Found by: Ana" in first.text()
    assert ("Ranking after question 1: 🥇 Ana: 950 points (1/1 right)\n"
            "🥈 Sam: 0 points (0/1 right)") in first.text()
    late = await standin.submit_modal(sam, sam_modal, {"answer": "1"})
    assert late.reply.content == "This question no longer takes answers."

    assert cog(bot).live_timers() == {1: START + 20 + NEXT_DELAY}
    assert await cog(bot).run_due_live() == []  # the answer shows for a few seconds
    wall.now += NEXT_DELAY
    assert await cog(bot).run_due_live() == [1]
    second = await standin.wait_for_message(after=first)
    assert "Live Focus · question 2/2" in second.text()
    assert f"{questions[1].text} = ?" in second.text()

    # Everyone who joined has answered: the question closes at once, by its own timer.
    wall.now += 4.0
    await answer(standin, ana, second, str(questions[1].answer))
    await answer(standin, sam, second, str(questions[1].answer))
    final = await standin.wait_for_message(lambda m: "final ranking" in m.text(), after=second)
    assert "question 2/2 · closed" in second.text() and second.buttons() == []
    assert "🥇 Ana: 1850 points (2/2 right)\n🥈 Sam: 900 points (1/2 right)" in final.text()
    assert [b["label"] for b in final.buttons()] == ["Report (teacher)"]
    assert final.attachments[0].filename == "ranking.png"
    assert cog(bot).live_timers() == {}
    row = await bot.db.focus_live.require(1)
    assert row.status == "finished" and row.state["names"] == {}


async def test_only_the_teacher_pauses_closes_or_ends_and_a_pause_stops_the_clock(
        standin, start_bot):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    sam = standin.add_member("Sam", locale="fr")
    first = (await standin.slash(teacher, "focus live", count=3)).reply
    for label in ("Pause", "Close the question", "End the round"):
        refused = await standin.click(sam, first, label=label)
        assert refused.reply.ephemeral
        assert refused.reply.content == ("Seul le professeur qui a lancé cette partie peut la "
                                         "mettre en pause, fermer sa question ou la terminer.")
    wall.now += 5.0
    await standin.click(teacher, first, label="Pause")
    assert "⏸️ Paused" in first.text() and first.button("Answer").get("disabled")
    assert cog(bot).live_timers() == {}
    wall.now += 60.0  # paused: the time does not run
    assert await cog(bot).run_due_live() == []
    await standin.click(teacher, first, label="Resume")
    assert cog(bot).live_timers() == {1: START + 80}  # 15 s were left
    assert not first.button("Answer").get("disabled")

    await standin.click(teacher, first, label="Close the question")
    assert "question 1/3 · closed" in first.text() and first.buttons() == []
    wall.now += NEXT_DELAY
    assert await cog(bot).run_due_live() == [1]
    second = await standin.wait_for_message(after=first)
    assert "question 2/3" in second.text()

    await standin.click(teacher, second, label="End the round")
    final = await standin.wait_for_message(lambda m: "final ranking" in m.text(), after=second)
    assert "Nobody answered." in final.text()
    assert "question 2/3 · closed" in second.text()
    assert cog(bot).live_timers() == {}
    assert (await bot.db.focus_live.require(1)).status == "finished"


async def test_a_timer_and_the_teachers_click_close_the_question_once(standin, start_bot):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    first = (await standin.slash(teacher, "focus live", count=2)).reply
    await standin.idle()  # the question's message is remembered
    wall.now += 20.0
    timer, click = await asyncio.gather(
        cog(bot).run_due_live(), standin.click(teacher, first, label="Close the question"))
    closed_by_click = click.reply is first
    assert (timer == [1]) != closed_by_click  # one of them closed it, the other found it done
    assert "question 1/2 · closed" in first.text()
    wall.now += NEXT_DELAY
    assert await cog(bot).run_due_live() == [1]
    assert await cog(bot).run_due_live() == []
    await standin.idle()
    posted = [m for m in standin.channel_messages() if "question 2/2" in m.text()]
    assert len(posted) == 1


async def test_after_a_restart_the_timers_are_armed_again_from_the_stored_moments(
        standin, start_bot, restart_bot):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    ana = standin.add_member("Ana")
    questions = generate_questions(1, 2, random.Random(SEED))
    first = (await standin.slash(teacher, "focus live", count=2)).reply
    wall.now += 3.0
    await answer(standin, ana, first, str(questions[0].answer))

    bot = await restart_bot(bot)
    prepare(bot, wall)
    assert cog(bot).live_timers() == {1: START + 20}  # armed by cog_load
    wall.now += 16.0
    assert await cog(bot).run_due_live() == []
    wall.now += 1.0
    assert await cog(bot).run_due_live() == [1]
    assert "question 1/2 · closed" in first.text() and "Found by: Ana" in first.text()

    # Down while the next question was due: it comes at once when the bot is back.
    bot = await restart_bot(bot)
    prepare(bot, wall)
    wall.now += 60.0
    assert await cog(bot).arm_live_timers() == {1: START + 20 + NEXT_DELAY}
    second = await standin.wait_for_message(after=first)  # by the timer itself
    assert "question 2/2" in second.text()
    # Armed again once the round's next moment is read back (after the post: a database hop).
    async with asyncio.timeout(5):
        while cog(bot).live_timers() != {1: wall.now + 20}:
            await asyncio.sleep(0.005)


async def test_a_student_with_twice_the_time_answers_after_the_usual_window(standin, start_bot):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    await set_student(bot, standin, ana, extra_time="x2")
    [question] = generate_questions(2, 1, random.Random(SEED))
    first = (await standin.slash(teacher, "focus live", count=1, level=2)).reply
    assert "Extra time" in first.text()
    ana_modal = await join(standin, ana, first)
    sam_modal = await join(standin, sam, first)
    assert cog(bot).live_timers() == {1: START + 40}  # the question waits for Ana's window

    wall.now += 30.0  # after the usual 20 s, within Ana's 40 s
    assert await cog(bot).run_due_live() == []
    late = await standin.submit_modal(sam, sam_modal, {"answer": str(question.answer)})
    assert late.reply.content == "Too late: the time for this question is up."
    taken = await standin.submit_modal(ana, ana_modal, {"answer": str(question.answer)})
    # 30 s of her 40 count as 15 s of 20: the points of 15 s, not fewer.
    assert taken.reply.content == "✅ Right! +625 points."
    stored = await bot.db.focus.round_answers(standin.guild.id, ana.id, "live:1")
    assert [(a.correct, a.time_ms) for a in stored] == [(True, 30000)]

    wall.now += 10.0
    assert await cog(bot).run_due_live() == [1]
    final = await standin.wait_for_message(lambda m: "final ranking" in m.text(), after=first)
    assert "🥇 Ana: 625 points (1/1 right)\n🥈 Sam: 0 points (0/1 right)" in final.text()


async def test_a_student_without_a_timer_answers_until_the_question_closes(standin, start_bot):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    noé, ana = standin.add_member("Noé"), standin.add_member("Ana")
    await set_student(bot, standin, noé, extra_time="untimed")
    questions = generate_questions(2, 2, random.Random(SEED))
    first = (await standin.slash(teacher, "focus live", count=2, level=2)).reply
    await join(standin, ana, first)
    noé_modal = await join(standin, noé, first)
    # No timer of their own, but the question must end by itself: it waits as for ×2.
    assert cog(bot).live_timers() == {1: START + 40}
    wall.now += 19.0
    taken = await standin.submit_modal(noé, noé_modal, {"answer": str(questions[0].answer)})
    assert taken.reply.content == "✅ Right! +762 points."  # 19 s scored as 9.5 s
    wall.now += 20.0
    assert await cog(bot).run_due_live() == []  # Ana has not answered: the question waits
    wall.now += 1.0
    assert await cog(bot).run_due_live() == [1]
    wall.now += NEXT_DELAY
    assert await cog(bot).run_due_live() == [1]
    second = await standin.wait_for_message(after=first)
    noé_modal = await join(standin, noé, second)
    wall.now += 40.0  # the time held for Noé is over: the question closes
    assert await cog(bot).run_due_live() == [1]
    late = await standin.submit_modal(noé, noé_modal, {"answer": str(questions[1].answer)})
    assert late.reply.content == "This live round is over."


async def test_public_rankings_show_anonymous_students_as_a_student_and_leave_hidden_ones_out(
        standin, start_bot):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    ana, sam, léo = (standin.add_member(n) for n in ("Ana", "Sam", "Léo"))
    await set_student(bot, standin, ana, rankings="anonymous")
    await set_student(bot, standin, sam, rankings="hidden")
    questions = generate_questions(3, 2, random.Random(SEED))
    first = (await standin.slash(teacher, "focus live", count=2, level=3)).reply
    for seconds, member in ((1.0, sam), (2.0, ana), (4.0, léo)):
        wall.now = START + seconds
        await answer(standin, member, first, str(questions[0].answer))
    wall.now = START + 20
    await cog(bot).run_due_live()
    text = first.text()
    assert "Found by: a student, Léo" in text
    assert "🥇 a student: 950 points (1/1 right)\n🥈 Léo: 900 points (1/1 right)" in text
    assert "Sam" not in text and "Ana" not in text
    wall.now += NEXT_DELAY
    await cog(bot).run_due_live()
    second = await standin.wait_for_message(after=first)
    for member in (sam, ana, léo):
        await answer(standin, member, second, "0")
    final = await standin.wait_for_message(lambda m: "final ranking" in m.text(), after=second)
    assert "🥇 a student: 950 points (1/2 right)\n🥈 Léo: 900 points (1/2 right)" in final.text()
    assert "Sam" not in final.text() and "Ana" not in final.text()

    # The teacher's report lists everyone, by name.
    report = await standin.click(teacher, final, label="Report (teacher)")
    sheet = next(a for m in report.messages for a in m.attachments if a.filename.endswith(".csv"))
    names = {row[0] for row in csv.reader(io.StringIO(sheet.data.decode("utf-8-sig")))}
    assert names == {"Student", "Ana", "Sam", "Léo"}


async def test_the_teachers_report_is_a_picture_and_a_csv_for_the_teacher_only(
        standin, start_bot, restart_bot):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True, locale="fr")
    ana, bob = standin.add_member("Ana"), standin.add_member("=Bob")
    questions = generate_questions(4, 2, random.Random(SEED))

    async def say(member: Any, question: Any, typed: str) -> None:
        opened = await join(standin, member, question, "Répondre")
        await standin.submit_modal(member, opened, {"answer": typed})

    first = (await standin.slash(teacher, "focus live", count=2, level=4)).reply
    wall.now += 2.5
    await say(ana, first, str(questions[0].answer))
    await join(standin, bob, first, "Répondre")
    wall.now += 17.5
    await cog(bot).run_due_live()
    wall.now += NEXT_DELAY
    await cog(bot).run_due_live()
    second = await standin.wait_for_message(after=first)
    wall.now += 3.0
    await say(ana, second, str(questions[1].answer + 1))
    wall.now += 1.0
    await say(bob, second, str(questions[1].answer))
    final = await standin.wait_for_message(lambda m: "classement final" in m.text(),
                                           after=second)

    refused = await standin.click(ana, final, label="Bilan (professeur)")
    assert refused.reply.ephemeral and refused.reply.content == (
        "Only the teacher who ran this round can see its report.")

    bot = await restart_bot(bot)  # the report comes from the stored answers
    report = await standin.click(teacher, final, label="Bilan (professeur)")
    [message] = [m for m in report.messages if m.attachments]
    assert message.ephemeral and message.content.startswith("Le bilan de la partie")
    files = {a.filename: a.data for a in message.attachments}
    assert set(files) == {"live-1.png", "live-1.csv", "live-1-questions.png",
                          "live-1-questions.csv"}
    assert files["live-1-questions.png"].startswith(b"\x89PNG")
    lines = list(csv.reader(io.StringIO(files["live-1-questions.csv"].decode("utf-8-sig")),
                            delimiter=";"))
    # Question 2 went worst: Ana's wrong answer, Bob's right one; Bob never answered question 1.
    assert [line[:10] for line in lines[1:]] == [
        ["1", "2", questions[1].text, skill_name(questions[1].skill, "fr"),
         str(questions[1].answer), "2", "2", "1", "50,0", "3,5"],
        ["2", "1", questions[0].text, skill_name(questions[0].skill, "fr"),
         str(questions[0].answer), "1", "1", "1", "100,0", "2,5"]]
    assert lines[1][10] == f"{questions[1].answer + 1} (1 élève)"

    sheet = files["live-1.csv"]
    assert sheet.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(sheet.decode("utf-8-sig")), delimiter=";"))
    assert rows[0] == ["Élève", "Numéro de question", "Question", "Réponse attendue",
                       "Réponse donnée", "Résultat", "Temps (s)"]
    q1, q2 = questions
    # As many right answers each: Bob's 4 s before Ana's 5.5 s.
    assert rows[1:] == [
        ["'=Bob", "1", q1.text, str(q1.answer), "", "pas de réponse", ""],
        ["'=Bob", "2", q2.text, str(q2.answer), str(q2.answer), "juste", "4,0"],
        ["Ana", "1", q1.text, str(q1.answer), str(q1.answer), "juste", "2,5"],
        ["Ana", "2", q2.text, str(q2.answer), str(q2.answer + 1), "faux", "3,0"],
    ]

    picture = Image.open(io.BytesIO(files["live-1.png"])).convert("RGB")
    width = drawing.NAME_W + drawing.CELL_W * 2 + drawing.TOTAL_W + 28
    height = drawing.HEAD_H + drawing.COLS_H + drawing.ROW_H * 2 + drawing.LEGEND_H
    assert picture.size == (width, height)

    def cell(row: int, column: int) -> tuple[int, int, int]:
        x = 14 + drawing.NAME_W + drawing.CELL_W * column + drawing.CELL_W // 2
        y = drawing.HEAD_H + drawing.COLS_H + drawing.ROW_H * row + 7
        return picture.getpixel((x, y))

    def near(got: tuple[int, int, int], want: tuple[int, int, int]) -> bool:
        return all(abs(a - b) <= 24 for a, b in zip(got, want, strict=True))

    # Bob: no answer, right; Ana: right, wrong.
    assert near(cell(0, 0), style.SLATE_LIGHT) and near(cell(0, 1), style.GREEN)
    assert near(cell(1, 0), style.GREEN) and near(cell(1, 1), style.VERMILLION)


async def test_a_teachers_question_set_is_used_in_a_live_round(standin, start_bot):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    ana = standin.add_member("Ana")
    await bot.db.question_sets.create(standin.guild.id, "Tables de 7", teacher.id,
                                      [SetItem("7 × 8", 56), SetItem("7 × 6", 42)])
    choices = await standin.autocomplete(teacher, "focus live", "set", set="tab")
    assert [c["value"] for c in choices] == ["Tables de 7"]
    unknown = await standin.slash(teacher, "focus live", set="Nope")
    assert unknown.reply.ephemeral and "no question set named “Nope”" in unknown.reply.content

    first = (await standin.slash(teacher, "focus live", set="Tables de 7")).reply
    assert "question 1/2" in first.text() and "7 × 8 = ?" in first.text()
    assert "Question set “Tables de 7”" in first.text()
    wall.now += 5.0
    right = await answer(standin, ana, first, "56")
    assert right.reply.content == "✅ Right! +875 points."
    wall.now += 15.0
    await cog(bot).run_due_live()
    wall.now += NEXT_DELAY
    await cog(bot).run_due_live()
    second = await standin.wait_for_message(after=first)
    assert "7 × 6 = ?" in second.text()
    [stored] = await bot.db.focus.round_answers(standin.guild.id, ana.id, "live:1")
    assert (stored.question, stored.topic, stored.source) == ("7 × 8", "Tables de 7", "live")


async def test_a_round_whose_teacher_was_erased_stops_its_timer(standin, start_bot):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    ana = standin.add_member("Ana")
    first = (await standin.slash(teacher, "focus live", count=2)).reply
    await join(standin, ana, first)
    await bot.db.delete_player(standin.guild.id, teacher.id)  # the round ends, keeping nothing
    wall.now += 20.0
    assert await cog(bot).run_due_live() == []  # its copy in memory was stale: nothing moved
    assert cog(bot).live_timers() == {}
    assert (await bot.db.focus_live.require(1)).status == "finished"
    refused = await standin.click(ana, first, label="Answer")
    assert refused.reply.content == "This live round is over."


async def test_a_paused_question_stays_paused_across_a_restart(standin, start_bot, restart_bot):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    first = (await standin.slash(teacher, "focus live", count=2)).reply
    wall.now += 5.0
    await standin.click(teacher, first, label="Pause")
    bot = await restart_bot(bot)
    prepare(bot, wall)
    assert cog(bot).live_timers() == {}  # nothing runs while paused
    wall.now += 100.0
    await standin.click(teacher, first, label="Resume")
    assert cog(bot).live_timers() == {1: wall.now + 15}


async def test_a_teachers_own_question_is_shown_as_written_with_its_markdown_escaped(
        standin, start_bot):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    await bot.db.question_sets.create(standin.guild.id, "Mine", teacher.id,
                                      [SetItem("How much is 5 * 5 * 2?", 50),
                                       SetItem("@everyone 3 * 3", 9)])
    first = (await standin.slash(teacher, "focus live", set="Mine")).reply
    assert "## How much is 5 \\* 5 \\* 2?" in first.text()
    assert "2? = ?" not in first.text()  # it asks itself: no "= ?" added
    wall.now += 20.0
    assert await cog(bot).run_due_live() == [1]
    await standin.idle()
    assert "**Answer: 50**" in first.text()
    wall.now += NEXT_DELAY
    await cog(bot).run_due_live()
    second = await standin.wait_for_message(after=first)
    assert "3 \\* 3 = ?" in second.text() and "@\u200beveryone" in second.text()
    assert second.pinged() == set()
