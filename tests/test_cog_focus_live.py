"""/focus live end to end: a teacher runs a class round in the channel, students answer through
a modal, points for correctness and speed, the ranking after each question, refusals, restart."""

from __future__ import annotations

import random
from typing import Any

from bot.focus import generate_questions

SEED = 7


class FakeWall:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def prepare(bot: Any, wall: FakeWall) -> None:
    cog = bot.get_cog("Focus").flow
    cog.seed = lambda: SEED
    cog.wall = wall


async def live_bot(start_bot: Any) -> tuple[Any, FakeWall]:
    bot = await start_bot()
    wall = FakeWall()
    prepare(bot, wall)
    return bot, wall


async def answer(standin: Any, member: Any, question: Any, typed: str) -> Any:
    opened = await standin.click(member, question, label="Answer")
    assert opened.modal is not None
    return await standin.submit_modal(member, opened, {"answer": typed})


async def test_a_live_round_with_two_students_and_the_teacher(standin, start_bot):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    questions = generate_questions(4, 2, random.Random(SEED))
    first = (await standin.slash(teacher, "focus live", count=2, level=4, auto=False)).reply
    assert not first.ephemeral
    assert "Live Focus · question 1/2" in first.text()
    assert f"{questions[0].text} = ?" in first.text()

    wall.now += 2.0
    right = await answer(standin, ana, first, str(questions[0].answer))
    assert right.reply.content == "✅ Right! +950 points." and right.reply.ephemeral
    wall.now += 4.0
    wrong = await answer(standin, sam, first, str(questions[0].answer + 1))
    assert wrong.reply.content.startswith("❌ Not right.")

    moved = await standin.click(teacher, first, label="Next question")
    assert moved.reply is first
    assert "question 1/2 · closed" in first.text()
    assert f"{questions[0].text} = {questions[0].answer}" in first.text()
    assert "1 right answer out of 2." in first.text() and first.buttons() == []
    second = await standin.wait_for_message(after=first)
    assert "Live Focus · question 2/2" in second.text()
    assert "🥇 Ana: 950 points (1/1 right)\n🥈 Sam: 0 points (0/1 right)" in second.text()

    wall.now += 10.0
    await answer(standin, ana, second, str(questions[1].answer))  # 10 s of 20: 750
    await answer(standin, sam, second, f" {questions[1].answer} ")  # at once too: 750
    await standin.click(teacher, second, label="Show the results")
    final = await standin.wait_for_message(after=second)
    assert "Live Focus · final ranking" in final.text()
    assert "🥇 Ana: 1700 points (2/2 right)\n🥈 Sam: 750 points (1/2 right)" in final.text()
    [picture] = final.attachments
    assert picture.filename == "ranking.png" and picture.data.startswith(b"\x89PNG")

    for member, expected in ((ana, [True, True]), (sam, [False, True])):
        stored = list(reversed(await bot.db.focus.recent(standin.guild.id, member.id)))
        assert [a.correct for a in stored] == expected
        assert {a.source for a in stored} == {"live"}
    row = await bot.db.focus_live.require(1)
    assert row.status == "finished" and row.state["names"] == {} and row.state["round"] is None
    assert second.buttons() == [] and "question 2/2 · closed" in second.text()


async def test_a_student_cannot_run_a_live_round_but_a_teacher_role_can(standin, start_bot):
    bot, _ = await live_bot(start_bot)
    sam = standin.add_member("Sam", locale="fr")
    refused = await standin.slash(sam, "focus live")
    assert refused.reply.ephemeral
    assert refused.reply.content.startswith("Seul un professeur")
    role = standin.add_role("Maths")
    await bot.db.servers.set_admin_roles(standin.guild.id, [role.id])
    léa = standin.add_member("Léa", roles=[role])
    started = await standin.slash(léa, "focus live", count=1)
    assert "Live Focus · question 1/1" in started.reply.text()
    assert "Level 1 · Sums within 20" in started.reply.text()


async def test_only_the_teacher_moves_on_and_the_teacher_does_not_answer(standin, start_bot):
    await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    other_teacher = standin.add_member("M. Blanc", teacher=True)
    sam = standin.add_member("Sam")
    first = (await standin.slash(teacher, "focus live", count=2, auto=False)).reply
    for someone in (sam, other_teacher):
        refused = await standin.click(someone, first, label="Next question")
        assert refused.reply.content == ("Only the teacher who started this round can move it "
                                         "on.")
        assert refused.reply.ephemeral
    assert "question 1/2" in first.text() and first.buttons()
    own = await standin.click(teacher, first, label="Answer")
    assert own.reply.content == "You are running this round: your students answer it."


async def test_answers_are_read_like_in_practice_and_the_first_readable_one_counts(
        standin, start_bot):
    _, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    ana = standin.add_member("Ana")
    [question] = generate_questions(3, 1, random.Random(SEED))
    first = (await standin.slash(teacher, "focus live", count=1, level=3)).reply
    unreadable = await answer(standin, ana, first, "douze")
    assert unreadable.reply.content == (
        "⚠️ “douze” is not a whole number: type digits only, like 42 or −7. Nothing was counted: "
        "click “Answer” to type it again.")
    wall.now += 5.0
    counted = await answer(standin, ana, first, str(question.answer))
    assert counted.reply.content == "✅ Right! +875 points."
    again = await standin.click(ana, first, label="Answer")
    assert again.reply.content == ("You have already answered this question: your first answer "
                                   "counts.")
    sam = standin.add_member("Sam")
    opened = await standin.click(sam, first, label="Answer")
    wall.now += 16.0  # 21 s after the question was posted: too late
    late = await standin.submit_modal(sam, opened, {"answer": str(question.answer)})
    assert late.reply.content == "Too late: the time for this question is up."


async def test_a_live_round_goes_on_after_a_restart(standin, start_bot, restart_bot):
    bot, wall = await live_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    questions = generate_questions(1, 2, random.Random(SEED))
    first = (await standin.slash(teacher, "focus live", count=2, auto=False)).reply
    wall.now += 1.0
    await answer(standin, ana, first, str(questions[0].answer))
    opened = await standin.click(sam, first, label="Answer")

    bot = await restart_bot(bot)
    prepare(bot, wall)
    expired = await standin.submit_modal(sam, opened, {"answer": str(questions[0].answer)})
    assert expired.reply.content == ("This answer window has expired (Ardoise restarted). Click "
                                     "“Answer” on the question again.")
    wall.now += 1.0
    retried = await answer(standin, sam, first, str(questions[0].answer))
    assert retried.reply.content == "✅ Right! +950 points."
    await standin.click(teacher, first, label="Next question")
    second = await standin.wait_for_message(after=first)
    assert "🥇 Ana: 975 points (1/1 right)\n🥈 Sam: 950 points (1/1 right)" in second.text()
    assert first.buttons() == [] and "question 1/2 · closed" in first.text()
