"""Homework with a goal (``/class assign goal:`` [``objectif``]) end to end: N right answers,
P % right over the last N, each ending at the goal and not before; after the most answers it
ends, the goal not reached; wrong answers bring a fresh question of the same skill; resumed
after a restart; the report (embed, CSV) with each student's answers and whether they reached
it; what cannot be read is refused."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.focus.goals import MAX_ATTEMPTS
from bot.play import assignments as homework
from tests.classroom_helpers import Moment, classroom_clock, posted
from tests.french import fr

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
DUE = "2026-12-08 18:00"
BUTTON = "Do the assignment"
WRONG = 999  # no answer of level 1 or 2


@pytest.fixture
def moment(monkeypatch: pytest.MonkeyPatch) -> Moment:
    return classroom_clock(monkeypatch, NOW)


async def answer(standin: Any, member: Any, window: Any, made: Any, rights: list[bool],
                 right: bool, clock: Any) -> None:
    """Answer the question the window shows (checked: the one of the goal's plan for the answers
    so far), right or wrong."""
    question = homework.attempt_questions(made, member.id, rights)[-1]
    # The question as either language shows it (French keeps the "?" on its line).
    assert {f"{question.text} = ?", fr(f"{question.text} = ?")} & {
        line[3:] for line in window.text().split("\n") if line.startswith("## ")}
    assert f"question {len(rights) + 1}" in window.text()
    clock.now += 2.0
    [button] = window.buttons()
    opened = await standin.click(member, window, button["custom_id"])
    await standin.submit_modal(member, opened,
                               {"answer": str(question.answer if right else WRONG)})
    rights.append(right)


async def test_n_right_answers_ends_at_the_nth_right_and_the_report_says_it(
        standin, start_bot, restart_bot, moment, clock):
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    post = (await standin.slash(roux, "class assign", name="Tables", due=DUE, level=2,
                                goal="right:3")).reply
    assert "**Goal: 3 right answers** (at most 60 questions) · Level 2" in post.text()
    made = await posted(bot, standin, "Tables")
    assert made.goal == "right:3" and len(made.questions) == homework.GOAL_POOL

    ana = standin.add_member("Ana")
    window = (await standin.click(ana, post, label=BUTTON)).reply
    assert "Assignment · Tables · 0/3 right · question 1" in window.text()
    rights: list[bool] = []
    for right in (True, False, False):
        await answer(standin, ana, window, made, rights, right, clock)
    # After a wrong answer: a fresh question of the same topic, not the pool's next one.
    asked = homework.attempt_questions(made, ana.id, rights)
    assert asked[2].topic == asked[1].topic and asked[2].text != asked[1].text
    assert asked[3] != made.questions[1] or asked[3].text != asked[2].text

    # Stopped after 3 answers; the bot restarts; the attempt goes on at question 4.
    bot = await restart_bot(bot)
    window = (await standin.click(ana, post, label=BUTTON)).reply
    assert "Assignment · Tables · 1/3 right · question 4" in window.text()
    await answer(standin, ana, window, made, rights, True, clock)
    assert "2/3 right · question 5" in window.text()  # not before the goal
    await answer(standin, ana, window, made, rights, True, clock)
    text = window.text()
    assert "Assignment · Tables: goal reached" in text
    assert "**3** right out of 5 answers · goal: 3 right answers." in text
    attempt = await bot.db.assignments.attempt(made.assignment_id, ana.id)
    assert attempt.finished_at is not None and attempt.score == 3
    stored = await bot.db.focus.round_answers(standin.guild.id, ana.id,
                                              f"assignment:{made.assignment_id}")
    assert [a.correct for a in stored] == rights == [True, False, False, True, True]
    again = await standin.click(ana, post, label=BUTTON)
    assert again.reply.content == ("You have already done this assignment: goal reached, 3 "
                                   "right out of 5.")

    bea = standin.add_member("Béa")
    window = (await standin.click(bea, post, label=BUTTON)).reply
    await answer(standin, bea, window, made, [], False, clock)
    report = (await standin.slash(roux, "class report", assignment="Tables")).reply
    text = report.text()
    assert "Goal: 3 right answers · Level 2" in text
    assert "Ana: goal reached · **3** right out of 5 · 10.0 s" in text
    assert "Béa: 1 answer, 0 right" in text
    assert "Goal reached: 1 of the 1 student who finished" in text
    sheet = report.attachments[0]
    rows = list(csv.reader(io.StringIO(sheet.data.decode("utf-8-sig"))))
    assert rows[0] == ["Student", "Status", "Score", "Answers", "Goal reached", "Question no.",
                       "Question", "Expected", "Given", "Right", "Time (s)"]
    assert [r[:5] for r in rows[1:6]] == [["Ana", "done", "3", "5", "yes"]] * 5
    assert [r[9] for r in rows[1:6]] == ["yes", "no", "no", "yes", "yes"]
    assert [r[6] for r in rows[1:6]] == [q.text for q in asked[:3]] + [
        q.text for q in homework.attempt_questions(made, ana.id, rights)[3:5]]
    assert rows[6][:5] == ["Béa", "begun", "0", "1", "no"] and rows[6][8] == str(WRONG)
    assert standin.take_errors() == []


async def test_a_percentage_over_the_last_n_ends_there_and_not_before(standin, start_bot,
                                                                       moment, clock):
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True, locale="fr")
    post = (await standin.slash(roux, "classe devoir", nom="Sommes", options={
        "pour-le": DUE}, niveau=1, objectif="80 % sur 5")).reply
    assert fr("**Objectif : 80 % de bonnes réponses sur les 5 dernières**") in post.text()
    made = await posted(bot, standin, "Sommes")
    assert made.goal == "percent:80:5"
    ana = standin.add_member("Ana", locale="fr")
    window = (await standin.click(ana, post, label="Faire le devoir")).reply
    rights: list[bool] = []
    # Four right of the first four: the window of five is not full yet; then the last five
    # are 3/5, then 4/5 = 80 %: the end.
    for right in (False, False, True, True, True):
        await answer(standin, ana, window, made, rights, right, clock)
        assert "objectif" not in window.text()
    assert fr("5 dernières : 3 justes · question 6") in window.text()
    await answer(standin, ana, window, made, rights, True, clock)
    text = window.text()
    assert fr("Devoir · Sommes : objectif atteint") in text
    assert fr("**4** justes sur 6 réponses · objectif : 80 % de bonnes réponses sur les 5 "
              "dernières.") in text
    attempt = await bot.db.assignments.attempt(made.assignment_id, ana.id)
    assert attempt.finished_at is not None and attempt.score == 4


async def test_the_attempt_ends_after_the_most_questions_goal_not_reached(
        standin, start_bot, moment, clock):
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    post = (await standin.slash(roux, "class assign", name="Hard", due=DUE, level=1,
                                goal="right:2")).reply
    made = await posted(bot, standin, "Hard")
    ana = standin.add_member("Ana")
    window = (await standin.click(ana, post, label=BUTTON)).reply
    rights: list[bool] = []
    for _ in range(MAX_ATTEMPTS - 1):
        await answer(standin, ana, window, made, rights, False, clock)
    assert f"question {MAX_ATTEMPTS}" in window.text()
    await answer(standin, ana, window, made, rights, True, clock)
    text = window.text()
    assert "Assignment · Hard: goal not reached" in text
    assert "**1** right out of 60 answers" in text
    assert "An attempt ends after 60 questions, the goal reached or not." in text
    [embed] = window.embeds
    assert len(embed["description"]) <= 4096 and "\n❌ 1. " in embed["description"]
    attempt = await bot.db.assignments.attempt(made.assignment_id, ana.id)
    assert attempt.finished_at is not None and attempt.score == 1


async def test_a_goal_of_a_question_set_and_goals_that_cannot_be_read(standin, start_bot,
                                                                       moment, clock):
    from bot.play.question_sets import SetItem

    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    await bot.db.question_sets.create(standin.guild.id, "Halves", roux.id,
                                      [SetItem("1/2 of 10", 5), SetItem("1/2 of 8", 4)])
    post = (await standin.slash(roux, "class assign", name="Halves", due=DUE, set="Halves",
                                goal="2 right")).reply
    made = await posted(bot, standin, "Halves")
    ana = standin.add_member("Ana")
    window = (await standin.click(ana, post, label=BUTTON)).reply
    rights: list[bool] = []
    for right in (False, True, True):
        await answer(standin, ana, window, made, rights, right, clock)
    assert "Assignment · Halves: goal reached" in window.text()
    # A set has no skill: after a wrong answer, its next question.
    texts = [q.text for q in homework.attempt_questions(made, ana.id, rights[:2])]
    assert texts[:3] == [q["text"] for q in made.questions[:3]]

    for goal in ("until good", "right:0", "80%:50"):
        refused = await standin.slash(roux, "class assign", name="Bad", due=DUE, level=1,
                                      goal=goal)
        assert refused.reply.content.startswith(f"I cannot read “{goal}” as a goal. Write "
                                                "right:10"), goal
    assert await bot.db.assignments.get(standin.guild.id, "Bad") is None


def test_the_end_of_a_long_attempt_fits_one_embed_its_latest_answers_kept():
    from bot.focus import FocusRound, Question
    from bot.focus.goals import RIGHT, Goal
    from bot.ui.assignments import goal_summary_embed

    long = [Question(text=f"{n} × 123456789 + 987654321 − 1 × 2 × 3 × 4 × 5 × 6", ascii="x",
                     answer=n, topic="priority", level=7) for n in range(MAX_ATTEMPTS)]
    round = FocusRound(long)
    for _ in long:
        round.submit(0, 1.0)
    embed = goal_summary_embed(round, Goal(RIGHT, 2), "en", "Assignment · Long")
    assert len(embed.description) <= 4096
    assert "earlier answers" in embed.description
    assert embed.description.endswith("you typed 0 · 1.0 s")
    assert f"{MAX_ATTEMPTS}. " in embed.description and "\n❌ 1. " not in embed.description
