"""The school year drives every Focus (issue 26), through the real commands: on a Cycle 4 server a
live round and an assignment on ``skill: fractions-add`` ask fraction additions, take "1/2" and
"0,5" for a half, store the answers with their skill (mastery and ``/class report`` count them);
``skill:``'s autocomplete in the member's language, several skills, forged values refused;
``topic:`` offers the year's topics; the daily challenge asks the year's questions; a 5e
student's 20 Digits Focus asks 5e questions; what a round was drawn from survives a restart."""

from __future__ import annotations

import csv
import io
import random
from datetime import date
from fractions import Fraction
from typing import Any

from test_cog_class_assign import DUE, Moment, questions_of, stored_as
from test_cog_class_assign import moment as moment  # the fixture
from test_cog_digits import duel, match_id_of, settle
from test_cog_focus_daily import NINE, daily_bot, set_now
from test_cog_focus_live import FakeWall, answer, prepare

from bot.flows.classroom import ClassroomFlow
from bot.focus import Question, daily_questions
from bot.focus.school import YEARS
from bot.focus.skills import SKILLS
from bot.play.digits import focus_questions
from bot.play.focus import class_questions
from bot.ui.focus_run import get_run, question_level_text, value_text

HALF = Fraction(1, 2)
CYCLE4 = "cycle4"


def drawn(seed: int, count: int, skills: tuple[str, ...]) -> list[Question]:
    """What a live round or an assignment on ``skills`` alone draws with ``seed`` on a Cycle 4
    server of the usual levels (1 to 8): the bot's own draw."""
    return class_questions(CYCLE4, None, random.Random(seed), count, skills, (1, 8))


def seed_with_a_half(count: int, skills: tuple[str, ...] = ("fractions-add",)) -> int:
    """A seed whose draw has a question whose answer is one half (found, not assumed: the
    draw's internals may change, the search follows them)."""
    return next(seed for seed in range(10_000)
                if any(q.answer == HALF for q in drawn(seed, count, skills)))


async def cycle4_server(bot: Any, standin: Any) -> Any:
    head = standin.add_member("Mme Roux", teacher=True)
    saved = await standin.slash(head, "settings focus", school_year=CYCLE4)
    assert saved.reply.ephemeral
    assert (await bot.db.servers.get(standin.guild.id)).focus_school_year == CYCLE4
    return head


def report_rows(record: Any) -> list[list[str]]:
    [sheet] = [a for a in record.reply.attachments if a.filename.startswith("class-report-")]
    return list(csv.reader(io.StringIO(sheet.data[3:].decode("utf-8"))))


async def mastered_skills(bot: Any, guild: int, user_id: int) -> set[str]:
    return {s.skill for s in await bot.db.mastery.skill_levels(guild, [user_id])}


# --- /focus live ---------------------------------------------------------------------------


async def test_a_live_round_on_fractions_add_takes_a_half_both_ways_and_stores_the_skill(
        standin, start_bot, restart_bot):
    seed = seed_with_a_half(6)
    bot = await start_bot()
    wall = FakeWall()
    prepare(bot, wall)
    bot.get_cog("Focus").flow.seed = lambda: seed
    teacher = await cycle4_server(bot, standin)
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    questions = drawn(seed, 6, ("fractions-add",))
    assert {q.skill for q in questions} == {"fractions-add"}
    half = next(i for i, q in enumerate(questions) if q.answer == HALF)

    message = (await standin.slash(teacher, "focus live", skill="fractions-add",
                                   auto=False)).reply
    row = await bot.db.focus_live.require(1)
    assert row.state["year"] == CYCLE4 and row.state["skills"] == ["fractions-add"]
    for number, question in enumerate(questions):
        text = message.text()
        assert f"{question.text} = ?" in text
        # The question's own skill level, never the old level's name.
        assert question_level_text(question, "en") in text and "Within" not in text
        wall.now += 3.0
        if number == half:
            right = await answer(standin, ana, message, "1/2")
            assert right.reply.content.startswith("✅ Right!"), right.reply.content
            also = await answer(standin, sam, message, "0,5")
            assert also.reply.content.startswith("✅ Right!"), also.reply.content
        else:
            await answer(standin, ana, message, str(question.answer))
            unreadable = await answer(standin, sam, message, "a half")
            assert "Nothing was counted" in unreadable.reply.content  # read as a fraction
            await answer(standin, sam, message, "0")
        if number == 2:  # a restart mid-round: the year and the skills are the round's still
            bot = await restart_bot(bot)
            prepare(bot, wall)
        label = "Show the results" if number == len(questions) - 1 else "Next question"
        await standin.click(teacher, message, label=label)
        closed = f"{question.text} = {question.answer}"
        assert closed in message.text()
        message = await standin.wait_for_message(after=message)
    assert "Live Focus · final ranking" in message.text()

    guild = standin.guild.id
    for member, right in ((ana, 6), (sam, 1)):
        stored = await bot.db.focus.recent(guild, member.id)
        assert len(stored) == 6 and sum(a.correct for a in stored) == right
        assert {(a.source, a.skill, a.form, a.topic) for a in stored} == {
            ("live", "fractions-add", "fraction", "fractions")}
        assert "fractions-add" in await mastered_skills(bot, guild, member.id)
    [sams_half] = [a for a in await bot.db.focus.recent(guild, sam.id) if a.expected == HALF]
    assert sams_half.given == HALF and sams_half.correct

    report = await standin.slash(teacher, "class report")
    # A topic's row (no skill), then one row per skill of it with the student's mastery in words.
    rows = {(r[0], r[1]): r[3:] for r in report_rows(report)[1:] if not r[2]}
    skills = {(r[0], r[2]): r[7:] for r in report_rows(report)[1:] if r[2]}
    assert skills[("Ana", "adding fractions")][0] in {"Familiar", "Proficient", "Mastered",
                                                      "Attempted"}
    assert rows[("Ana", "fractions")][:2] == ["6", "6"]
    assert rows[("Sam", "fractions")][:2] == ["6", "1"]
    assert rows[("Class", "fractions")][:2] == ["12", "7"]
    # One student's page gives the mastery by skill: the live answers count under theirs.
    page = await standin.slash(teacher, "class report", student=ana)
    [sheet] = [a for a in page.reply.attachments if a.filename.startswith("student-")]
    lines = list(csv.reader(io.StringIO(sheet.data[3:].decode("utf-8"))))
    mastery = [line for line in lines if line[0] == "Mastery"]
    assert [line[1] for line in mastery] == ["adding fractions"]
    assert mastery[0][2] in {"Attempted", "Familiar", "Proficient", "Mastered"}


async def test_a_live_round_at_a_level_asks_the_years_questions(standin, start_bot):
    bot = await start_bot()
    prepare(bot, FakeWall())
    teacher = await cycle4_server(bot, standin)
    message = (await standin.slash(teacher, "focus live", level=3, count=4)).reply
    game = (await bot.db.focus_live.require(1)).state["round"]["questions"]
    asked = [Question.from_json(q) for q in game]
    year_skills = {skill for skill, _ in YEARS[CYCLE4].skills}
    assert {q.skill for q in asked} <= year_skills and {q.level for q in asked} == {3}
    assert "Within 100 and small tables" not in message.text()
    assert "9 + 26" not in message.text()


# --- skill: and topic:, their autocomplete and refusals -------------------------------------


async def test_skill_autocompletes_the_years_skills_by_name_and_several_of_them(
        standin, start_bot, moment):
    bot = await start_bot()
    await cycle4_server(bot, standin)
    roux = standin.add_member("Roux", teacher=True, locale="fr")
    offered = await standin.autocomplete(roux, "focus live", "skill",
                                         options={"compétence": "fract"})
    assert {c["value"] for c in offered} == {
        "fractions-of", "fractions-simplify", "fractions-add", "fractions-subtract"}
    assert {"addition de fractions", "soustraction de fractions"} <= {c["name"] for c in offered}
    # One picked, typed on: the next one joins it.
    more = await standin.autocomplete(roux, "classe devoir", "skill",
                                      options={"compétence": "addition de fractions, puis"})
    assert more == [{"name": "addition de fractions + puissances",
                     "value": "fractions-add,powers"}]
    everything = await standin.autocomplete(roux, "classe devoir", "skill",
                                            options={"compétence": ""})
    cycle4 = list(dict.fromkeys(skill for skill, _ in YEARS[CYCLE4].skills))
    assert len(everything) == len(cycle4) and {c["value"] for c in everything} == set(cycle4)
    for choice in everything:  # a member never reads an id
        assert choice["name"] != choice["value"] and "-" not in choice["name"]
    # Not a teacher: nothing offered.
    ana = standin.add_member("Ana")
    assert await standin.autocomplete(ana, "focus live", "skill", skill="fra") == []
    # Without a school year, every skill is offered.
    await bot.db.servers.update(standin.guild.id, focus_school_year=None)
    everything = await standin.autocomplete(roux, "focus live", "skill",
                                            options={"compétence": ""})
    assert len(everything) == min(25, len(SKILLS))


async def test_several_skills_named_in_english_and_a_forged_one_refused(
        standin, start_bot, moment):
    bot = await start_bot()
    head = await cycle4_server(bot, standin)
    made = (await standin.slash(head, "class assign", name="Mixed", due=DUE, count=8,
                                skill="adding fractions, powers")).reply
    assert "**8 questions** · Skills: adding fractions + powers" in made.text()
    asked = [Question.from_json(q) for q in await questions_of(bot, standin, "Mixed")]
    assert {q.skill for q in asked} == {"fractions-add", "powers"}
    for forged, part in (("fractions-add,geometry", "geometry"), ("DROP TABLE", "DROP TABLE")):
        refused = await standin.slash(head, "class assign", name="Forged", due=DUE,
                                      skill=forged)
        assert refused.reply.ephemeral
        assert refused.reply.content == (
            f"“{part}” is not a Focus skill. Pick the skills from the list: pick one, then "
            "type a comma to add the next.")
        live = await standin.slash(head, "focus live", skill=forged)
        assert live.reply.content == refused.reply.content
    both = await standin.slash(head, "class assign", name="Both", due=DUE, skill="powers",
                               topic="fractions")
    assert both.reply.content == ("`skill:` picks questions of the school year: use it alone "
                                  "or with `level:`, not with `topic:` or `set:`.")
    assert [a.name for a in await bot.db.assignments.of_server(standin.guild.id)] == ["Mixed"]
    assert await bot.db.focus_live.active() == []


async def test_topic_offers_the_years_topics_and_draws_their_skills(
        standin, start_bot, moment):
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    before = await standin.autocomplete(roux, "class assign", "topic", topic="")
    assert [c["value"] for c in before] == ["addition", "subtraction", "multiplication",
                                            "division", "squares", "priority", "parentheses"]
    await cycle4_server(bot, standin)
    offered = await standin.autocomplete(roux, "class assign", "topic", topic="")
    assert {"fractions", "negatives", "powers"} <= {c["value"] for c in offered}
    assert "addition" not in {c["value"] for c in offered}  # no whole-number sums in Cycle 4
    assert {"negative numbers", "fractions"} <= {c["name"] for c in offered}
    post = (await standin.slash(roux, "class assign", name="Relatifs", due=DUE,
                                topic="negatives")).reply
    assert "Topic: negative numbers" in post.text()
    asked = await questions_of(bot, standin, "Relatifs")
    assert {q["topic"] for q in asked} == {"negatives"}
    refused = await standin.slash(roux, "class assign", name="Geo", due=DUE, topic="geometry")
    assert refused.reply.content == "There is no Focus topic “geometry”: pick one from the list."


# --- /class assign ---------------------------------------------------------------------------


async def test_an_assignment_on_fractions_add_takes_a_half_both_ways(
        standin, start_bot, restart_bot, moment: Moment, clock, monkeypatch):
    seed = seed_with_a_half(4)
    monkeypatch.setattr(ClassroomFlow, "assign_seed", lambda self: seed)
    bot = await start_bot()
    head = await cycle4_server(bot, standin)
    post = (await standin.slash(head, "class assign", name="Fractions", due=DUE, count=4,
                                skill="fractions-add")).reply
    assert "**4 questions** · Skills: adding fractions" in post.text()
    made = await stored_as(bot, standin, "Fractions", lambda a: a.message_id is not None)
    assert made.drawn_from == {"year": CYCLE4, "skills": ["fractions-add"], "climb": True}
    questions = [Question.from_json(q) for q in made.questions]
    assert questions == drawn(seed, 4, ("fractions-add",))
    half = next(i for i, q in enumerate(questions) if q.answer == HALF)

    bot = await restart_bot(bot)  # what it was drawn from is stored, not remembered
    listed = await standin.slash(head, "class assignments")
    assert "Skills: adding fractions" in listed.reply.text()
    for member, typed in ((standin.add_member("Ana"), "1/2"), (standin.add_member("Sam"),
                                                                 "0,5")):
        window = (await standin.click(member, post, label="Do the assignment")).reply
        for number, question in enumerate(questions):
            clock.now += 2.0
            [button] = window.buttons()
            opened = await standin.click(member, window, button["custom_id"])
            given = typed if number == half else str(question.answer)
            await standin.submit_modal(member, opened, {"answer": given})
        assert "Assignment · Fractions: 4/4" in window.text()
        stored = await bot.db.focus.recent(standin.guild.id, member.id)
        assert {(a.source, a.skill, a.form) for a in stored} == {
            ("assignment", "fractions-add", "fraction")}
        assert "fractions-add" in await mastered_skills(bot, standin.guild.id, member.id)
    # The answers are the assignment clock's (30 November): all of them, not the last week's.
    report = await standin.slash(head, "class report", period="all")
    rows = {(r[0], r[1]): r[3:] for r in report_rows(report)[1:] if not r[2]}
    assert rows[("Class", "fractions")][:2] == ["8", "8"]


async def test_an_assignment_of_a_level_on_a_year_server_names_the_years_skills(
        standin, start_bot, moment):
    bot = await start_bot()
    head = await cycle4_server(bot, standin)
    post = (await standin.slash(head, "class assign", name="Level 3", due=DUE, level=3,
                                count=5)).reply
    assert "Within 100 and small tables" not in post.text()
    made = await bot.db.assignments.get(standin.guild.id, "Level 3")
    assert made.level == 3 and made.drawn_from == {"year": CYCLE4, "skills": [],
                                                   "climb": False}
    asked = [Question.from_json(q) for q in made.questions]
    assert {q.level for q in asked} == {3}
    assert {q.skill for q in asked} <= {skill for skill, _ in YEARS[CYCLE4].skills}
    assert "**5 questions** · Level 3 · " in post.text()


# --- The daily challenge, The 20 Digits ------------------------------------------------------


async def test_the_daily_challenge_of_a_year_server_asks_the_years_questions(
        standin, start_bot, clock):
    bot, _ = await daily_bot(start_bot, standin)
    await cycle4_server(bot, standin)
    day = date(2026, 11, 30)
    questions = daily_questions(standin.guild.id, day, 2, 7, year=CYCLE4)
    assert questions != daily_questions(standin.guild.id, day, 2, 7)
    assert {q.skill for q in questions} <= {skill for skill, _ in YEARS[CYCLE4].skills}
    assert [q.level for q in questions] == [2, 3, 4, 5, 6, 7]
    ana = standin.add_member("Ana")
    window = (await standin.slash(ana, "focus daily")).reply
    assert f"## {questions[0].text}" in window.text()
    stored = await bot.db.daily.get(standin.guild.id, day)
    assert [Question.from_json(q) for q in stored.questions] == questions
    # A student of another year takes the same questions: the challenge is the server's.
    head = standin.add_member("M. Blanc", teacher=True)
    sam = standin.add_member("Sam")
    await standin.slash(head, "class student", member=sam, school_year="cp")
    theirs = (await standin.slash(sam, "focus daily")).reply
    assert f"## {questions[0].text}" in theirs.text()
    set_now(bot, NINE)


async def test_a_5e_students_digits_focus_asks_5e_questions(standin, start_bot):
    bot, ana, sam, board = await duel(standin, start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    await standin.slash(head, "class student", member=ana, school_year="5e")
    match_id = match_id_of(board)
    engine = (await bot.db.digits.require_match(match_id)).state["engine"]
    student = await bot.db.students.get(standin.guild.id, ana.id)
    fifth = focus_questions(engine["seed"], engine["round"], str(ana.id), student, "5e")
    assert {q.skill for q in fifth} <= {skill for skill, _ in YEARS["5e"].skills}
    window = (await standin.click(ana, board, label="Take my Focus")).reply
    run = get_run(bot, f"digits:{match_id}:1:{ana.id}")
    assert run is not None and run.round.questions == fifth
    assert f"## {fifth[0].text}" in window.text()
    # Sam has no year (nor has the server): the eight levels' questions, as before.
    usual = focus_questions(engine["seed"], engine["round"], str(sam.id))
    theirs = (await standin.click(sam, board, label="Take my Focus")).reply
    assert f"{usual[0].text} = ?" in theirs.text()
    # Right answers count for the gold, whatever the year: Ana answers all of hers (a
    # fraction as a fraction, a decimal with a comma).
    for question in fifth:
        [button] = [b for b in window.buttons() if b["custom_id"].startswith("focus.run:")]
        opened = await standin.click(ana, window, button["custom_id"])
        typed = str(question.answer)
        if question.form == "decimal":
            typed = value_text(question.answer, question.form, "fr")
        window = (await settle(standin, window, standin.submit_modal(
            ana, opened, {"answer": typed}))).reply
    assert "Focus done: 6/6. You earn 11 gold" in window.text()
    game = (await bot.db.digits.require_match(match_id)).state
    assert game["engine"]["focus"][str(ana.id)] == len(fifth)

