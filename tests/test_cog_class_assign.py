"""Homework end to end, through the real bot and the stand-in: ``/class assign`` (a level, a
topic, a question set) and its refusals, the post's button (taken once, stopped, resumed after a
restart, refused to a member without the role and after the due date), the background task that
closes the post, ``/class assignments`` and ``/class report assignment:`` with its CSV."""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.domain import DomainError
from bot.flows.classroom import ClassroomFlow
from bot.focus import LEVELS
from bot.play.question_sets import SetItem
from bot.ui.assignments import DoAssignment
from tests.classroom_helpers import Moment, classroom_clock
from tests.french import fr

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
DUE = "2026-12-08 18:00"
DUE_AT = datetime(2026, 12, 8, 18, 0, tzinfo=UTC)
SEED = 11
BUTTON = "Do the assignment"


@pytest.fixture
def moment(monkeypatch: pytest.MonkeyPatch) -> Moment:
    return classroom_clock(monkeypatch, NOW, SEED)


async def questions_of(bot: Any, standin: Any, name: str) -> list[dict[str, Any]]:
    found = await bot.db.assignments.get(standin.guild.id, name)
    assert found is not None
    return found.questions


async def stored_as(bot: Any, standin: Any, name: str, ready: Callable[[Any], bool]) -> Any:
    """The assignment as stored, once ``ready`` (what the bot writes after Discord answered)."""
    for _ in range(250):
        found = await bot.db.assignments.get(standin.guild.id, name)
        if found is not None and ready(found):
            return found
        await asyncio.sleep(0.02)
    raise AssertionError(f"the assignment {name!r} was not stored as expected")


async def play(standin: Any, member: Any, window: Any, answers: list[int], clock: Any,
               seconds: float = 2.0) -> None:
    for typed in answers:
        clock.now += seconds
        [button] = window.buttons()
        opened = await standin.click(member, window, button["custom_id"])
        await standin.submit_modal(member, opened, {"answer": str(typed)})


async def test_a_teacher_sets_an_assignment_of_a_level_and_a_student_takes_it(
        standin, start_bot, moment, clock):
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    posted = await standin.slash(roux, "class assign", name="Tables", due=DUE, level=4)
    post = posted.reply
    assert not post.ephemeral and post.pinged() == set()
    text = post.text()
    assert "Assignment: Tables" in text
    assert "**6 questions** · Level 4 · Tables to 10 and exact division" in text
    assert "For everyone" in text
    assert "Due **Tuesday 8 December 2026 at 18:00** (server time)." in text
    # The post's id is stored once Discord has answered.
    made = await stored_as(bot, standin, "tables", lambda a: a.message_id is not None)
    assert post.button(BUTTON)["custom_id"] == f"class.assignment:{made.assignment_id}:1"
    assert (made.channel_id, made.message_id) == (standin.channel.id, post.id)
    assert {q["level"] for q in made.questions} == {4} and len(made.questions) == 6

    ana = standin.add_member("Ana")
    window = (await standin.click(ana, post, label=BUTTON)).reply
    assert window.ephemeral_to == ana.id
    assert "Assignment · Tables · question 1/6" in window.text()
    await play(standin, ana, window, [q["answer"] for q in made.questions[:5]] + [0], clock)
    assert "Assignment · Tables: 5/6" in window.text()
    attempt = await bot.db.assignments.attempt(made.assignment_id, ana.id)
    assert (attempt.score, attempt.time_ms) == (5, 12000)
    stored = await bot.db.focus.recent(standin.guild.id, ana.id)
    assert len(stored) == 6 and {(a.source, a.round_key) for a in stored} == {
        ("assignment", f"assignment:{made.assignment_id}")}

    again = await standin.click(ana, post, label=BUTTON)
    assert again.reply.content == "You have already done this assignment: 5/6."
    assert again.reply.ephemeral


async def test_an_assignment_of_a_topic_and_one_of_a_question_set_in_french(
        standin, start_bot, moment):
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True, locale="fr")
    topic = (await standin.slash(roux, "classe devoir", nom="Priorités", options={
        "pour-le": "08/12/2026 18h00"}, thème="priority", nombre=5)).reply
    assert fr("**5 questions** · Thème : priorités de calcul") in topic.text()
    assert "À faire avant le **mardi 8 décembre 2026 à 18\u00a0h**" in topic.text()
    assert topic.button("Faire le devoir")
    drawn = await questions_of(bot, standin, "Priorités")
    assert {q["topic"] for q in drawn} == {"priority"}
    assert all("priority" in LEVELS[q["level"]].topics for q in drawn)

    await bot.db.question_sets.create(standin.guild.id, "Fractions", roux.id,
                                      [SetItem("1/2 de 10", 5), SetItem("1/4 de 8", 2),
                                       SetItem("3/4 de 12", 9)])
    choices = await standin.autocomplete(roux, "classe devoir", "set", série="frac")
    assert [c["value"] for c in choices] == ["Fractions"]
    made = (await standin.slash(roux, "classe devoir", nom="Fractions", options={
        "pour-le": "2026-12-08"}, série="fractions", nombre=4)).reply
    assert fr("**4 questions** · Série de questions « Fractions »") in made.text()
    assert "mardi 8 décembre 2026 à 23\u00a0h\u00a059" in made.text()
    questions = await questions_of(bot, standin, "Fractions")
    assert len(questions) == 4
    assert {q["text"] for q in questions} == {"1/2 de 10", "1/4 de 8", "3/4 de 12"}
    stored = await bot.db.assignments.get(standin.guild.id, "Fractions")
    assert (stored.set_name, stored.level, stored.topic) == ("Fractions", None, None)


async def test_what_a_teacher_gets_wrong_is_refused_with_the_reason(standin, start_bot, moment):
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    await standin.slash(roux, "class assign", name="Tables", due=DUE, level=4)
    cases = [
        ({"name": "Past", "due": "2026-11-30 08:00", "level": 2},
         "The due date Monday 30 November 2026 at 08:00 is already past: it is Monday 30 "
         "November 2026 at 09:00 on this server "
         "(time zone UTC)."),
        ({"name": "Bad", "due": "next friday", "level": 2},
         "I cannot read “next friday” as a date. Write it like 2026-12-08 18:00 or 08/12/2026 "
         "18h00 (day first), in the server's time zone; a date alone means 23:59 that day."),
        ({"name": "Set", "due": DUE, "set": "Nope"},
         "There is no question set named “Nope” on this server. /class questions list shows "
         "them."),
        ({"name": "TABLES", "due": DUE, "level": 3},
         "There is already an assignment named “TABLES” on this server. Choose another name."),
        ({"name": "Both", "due": DUE, "level": 3, "topic": "addition"},
         "Choose the questions with only one of the options level, topic or set, not several."),
        ({"name": "None", "due": DUE},
         "Choose the questions with one of the options level, topic, set or skill."),
    ]
    for options, sentence in cases:
        refused = await standin.slash(roux, "class assign", options=options)
        assert refused.reply.ephemeral and refused.reply.content == sentence, options
    assert [a.name for a in await bot.db.assignments.of_server(standin.guild.id)] == ["Tables"]
    assert len(standin.channel_messages()) == 1
    ana = standin.add_member("Ana")
    student = await standin.slash(ana, "class assign", name="Mine", due=DUE, level=1)
    assert "teacher" in student.reply.content.lower()


async def test_the_due_dates_autocomplete_says_the_days_in_the_members_language(
        standin, start_bot, moment):
    await start_bot()
    roux = standin.add_member("Roux", teacher=True, locale="fr")
    choices = await standin.autocomplete(roux, "classe devoir", "due",
                                         options={"pour-le": "9/12 17h"})
    assert choices[0] == {"name": "mercredi 9 décembre 2026 à 17\u00a0h",
                          "value": "2026-12-09 17:00"}
    assert choices[1] == {"name": "lundi 30 novembre 2026 à 23\u00a0h\u00a059",
                          "value": "2026-11-30 23:59"}
    assert len(choices) == 9


async def test_stopped_resumed_after_a_restart_and_only_for_the_role(
        standin, start_bot, restart_bot, moment, clock):
    bot = await start_bot()
    six_b = standin.add_role("6B")
    roux = standin.add_member("Roux", teacher=True)
    post = (await standin.slash(roux, "class assign", name="Sums", due=DUE, level=1, count=4,
                                role=six_b)).reply
    assert f"For the members of <@&{six_b.id}>" in post.text()
    assert post.pinged() == set()  # the role is named, nobody notified
    questions = await questions_of(bot, standin, "Sums")

    sam = standin.add_member("Sam")
    refused = await standin.click(sam, post, label=BUTTON)
    assert refused.reply.content == f"This assignment is only for the members of <@&{six_b.id}>."
    made = await bot.db.assignments.get(standin.guild.id, "Sums")
    assert await bot.db.assignments.attempt(made.assignment_id, sam.id) is None

    ana = standin.add_member("Ana", roles=[six_b])
    window = (await standin.click(ana, post, label=BUTTON)).reply
    await play(standin, ana, window, [q["answer"] for q in questions[:2]], clock)
    opened = await standin.click(ana, window, label="Answer")  # the modal stays open

    bot = await restart_bot(bot)
    late = await standin.submit_modal(ana, opened, {"answer": str(questions[2]["answer"])})
    assert late.reply.content.startswith("This window has expired")
    assert "Click “Do the assignment” on its post again" in late.reply.content
    resumed = (await standin.click(ana, post, label=BUTTON)).reply
    assert "question 3/4" in resumed.text() and f"{questions[2]['text']} = ?" in resumed.text()
    await play(standin, ana, resumed, [q["answer"] for q in questions[2:]], clock)
    assert "Assignment · Sums: 4/4" in resumed.text()
    stored = await bot.db.focus.recent(standin.guild.id, ana.id)
    assert sorted(a.question_no for a in stored) == [0, 1, 2, 3]


async def test_after_the_due_date_the_click_is_refused_and_the_task_closes_the_post(
        standin, start_bot, restart_bot, moment, monkeypatch, clock):
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    post = (await standin.slash(roux, "class assign", name="Sums", due=DUE, level=1)).reply
    ana = standin.add_member("Ana")
    moment.now = DUE_AT  # the last minute: still open
    window = (await standin.click(ana, post, label=BUTTON)).reply
    assert "question 1/6" in window.text()
    assert await bot.get_cog("Classroom").flow.close_due_assignments(DUE_AT) == []

    moment.now = DUE_AT + timedelta(minutes=1)
    # Begun in time, Ana's attempt may be finished after the due minute (but not resumed).
    questions = await questions_of(bot, standin, "Sums")
    await play(standin, ana, window, [q["answer"] for q in questions], clock)
    assert "Assignment · Sums: 6/6" in window.text()
    sam = standin.add_member("Sam")
    closed = await standin.click(sam, post, label=BUTTON)
    assert closed.reply.content == ("This assignment closed on Tuesday 8 December 2026 at "
                                    "18:00.")
    made = await bot.db.assignments.get(standin.guild.id, "Sums")
    assert await bot.db.assignments.attempt(made.assignment_id, sam.id) is None

    # The bot restarts after the due date: its background task finds the post still open.
    monkeypatch.setattr(ClassroomFlow, "assign_autoclose", True)
    bot = await restart_bot(bot)
    await standin.wait_until(lambda: post.edited and post.buttons()[0].get("disabled"))
    [button] = post.buttons()
    assert button["label"] == "Closed" and button["disabled"]
    assert "This assignment is closed: its due date has passed." in post.text()
    # The closing is stored once Discord has answered the edit.
    made = await stored_as(bot, standin, "Sums", lambda a: a.closed_at is not None)
    assert made.closed_at == moment.now
    assert await bot.get_cog("Classroom").flow.close_due_assignments(moment.now) == []


async def test_the_list_of_assignments_newest_first(standin, start_bot, moment, clock):
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    empty = await standin.slash(roux, "class assignments")
    assert "No assignment yet. Set one with /class assign." in empty.reply.text()
    six_b = standin.add_role("6B")
    await standin.slash(roux, "class assign", name="Old", due="2026-11-30 12:00", level=1,
                        count=1)
    moment.now = NOW + timedelta(minutes=1)
    await standin.slash(roux, "class assign", name="New", due=DUE, topic="addition",
                        role=six_b, count=1)
    ana = standin.add_member("Ana", roles=[six_b])
    questions = await questions_of(bot, standin, "Old")
    window = (await standin.click(ana, standin.channel_messages()[0], label=BUTTON)).reply
    await play(standin, ana, window, [questions[0]["answer"]], clock)
    moment.now = datetime(2026, 11, 30, 13, 0, tzinfo=UTC)
    listed = await standin.slash(roux, "class assignments")
    assert listed.reply.ephemeral
    text = listed.reply.text()
    assert "2 assignments" in text
    assert text.index("**New**") < text.index("**Old**")
    assert ("**New** · open until Tuesday 8 December 2026 at 18:00\nTopic: addition · For the "
            f"members of <@&{six_b.id}> · done by 0 students · in progress: 0") in text
    assert ("**Old** · closed since Monday 30 November 2026 at 12:00\nLevel 1 · Sums within 20"
            " · For everyone · done by 1 student · in progress: 0") in text


async def test_the_report_says_who_did_it_who_began_and_who_has_not_with_a_csv(
        standin, start_bot, moment, clock):
    bot = await start_bot()
    six_b = standin.add_role("6B")
    roux = standin.add_member("Roux", teacher=True, roles=[six_b])
    post = (await standin.slash(roux, "class assign", name="Sums", due=DUE, level=1, count=3,
                                role=six_b)).reply
    questions = await questions_of(bot, standin, "Sums")
    ana = standin.add_member("Ana *the best*", roles=[six_b])
    bea = standin.add_member("Béa", roles=[six_b])
    cy = standin.add_member("=Cy", roles=[six_b])  # a spreadsheet would read a formula
    dan = standin.add_member("Dan")  # not in 6B
    eve = standin.add_member("Eve", roles=[six_b])
    window = (await standin.click(ana, post, label=BUTTON)).reply
    await play(standin, ana, window, [questions[0]["answer"], 0, questions[2]["answer"]], clock,
               seconds=1.5)
    window = (await standin.click(bea, post, label=BUTTON)).reply
    await play(standin, bea, window, [questions[0]["answer"]], clock, seconds=4.0)
    # Known to Ardoise: each started a daily challenge (the teacher too, never "not begun").
    for member in (cy, dan, eve, roux):
        await standin.slash(member, "focus daily")
    del standin.guild.members[eve.id]  # Eve left the server: not listed as missing

    record = await standin.slash(roux, "class report", assignment="sums")
    reply = record.reply
    assert reply.ephemeral
    text = reply.text()
    assert "Assignment report: Sums" in text
    assert "Done: 1: Ana \\*the best\\*: **2/3** · 4.5 s" in text
    assert "Begun, not finished: 1: Béa: 1/3 answered" in text
    assert "Not begun: 1: =Cy" in text
    assert "Dan" not in text and "Eve" not in text and "Roux" not in text
    assert "Mean score: 2.0/3" in text
    assert "Ardoise sees no member list" in text
    sheet, picture, by_question = reply.attachments
    made = await bot.db.assignments.get(standin.guild.id, "Sums")
    assert sheet.filename == f"assignment-{made.assignment_id}.csv"
    assert picture.filename == f"assignment-{made.assignment_id}-questions.png"
    assert picture.data.startswith(b"\x89PNG")
    assert by_question.filename == f"assignment-{made.assignment_id}-questions.csv"
    lines = list(csv.reader(io.StringIO(by_question.data.decode("utf-8-sig"))))
    assert lines[0][:10] == ["Worst", "Number", "Question", "Skill", "Expected", "Answers",
                             "Students", "Right", "Right (%)", "Median time (s)"]
    # Question 2 went worst (Ana's 0, the only answer); then question 1 (two right of two,
    # more answers than question 3's one).
    assert [line[:10] for line in lines[1:]] == [
        ["1", "2", questions[1]["text"], "addition", str(questions[1]["answer"]), "1", "1",
         "0", "0.0", "1.5"],
        ["2", "1", questions[0]["text"], "addition", str(questions[0]["answer"]), "2", "2",
         "2", "100.0", "2.8"],
        ["3", "3", questions[2]["text"], "addition", str(questions[2]["answer"]), "1", "1",
         "1", "100.0", "1.5"]]
    assert lines[1][10:] == ["0 (1 student)", "", ""]
    assert sheet.data.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(sheet.data.decode("utf-8-sig"))))
    assert rows[0] == ["Student", "Status", "Score", "Question no.", "Question", "Expected",
                       "Given", "Right", "Time (s)"]
    assert len(rows) == 1 + 3 * 3
    q = questions
    assert rows[1:4] == [
        ["Ana *the best*", "done", "2", "1", q[0]["text"], str(q[0]["answer"]),
         str(q[0]["answer"]), "yes", "1.5"],
        ["Ana *the best*", "done", "2", "2", q[1]["text"], str(q[1]["answer"]), "0", "no", "1.5"],
        ["Ana *the best*", "done", "2", "3", q[2]["text"], str(q[2]["answer"]),
         str(q[2]["answer"]), "yes", "1.5"]]
    assert rows[4] == ["Béa", "begun", "", "1", q[0]["text"], str(q[0]["answer"]),
                       str(q[0]["answer"]), "yes", "4.0"]
    assert rows[5][:2] == ["Béa", "begun"] and rows[5][6:] == ["", "", ""]
    assert [r[:2] for r in rows[7:]] == [["'=Cy", "not begun"]] * 3

    choices = await standin.autocomplete(roux, "class report", "assignment", assignment="su")
    assert choices == [{"name": "Sums", "value": "Sums"}]


async def test_the_report_in_french_with_pseudonyms(standin, start_bot, moment, clock):
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True, locale="fr")
    post = (await standin.slash(roux, "classe devoir", nom="Calcul", options={
        "pour-le": "08/12/2026 18h"}, niveau=1, nombre=2)).reply
    questions = await questions_of(bot, standin, "Calcul")
    ana = standin.add_member("Ana", locale="fr")
    window = (await standin.click(ana, post, label="Faire le devoir")).reply
    await play(standin, ana, window, [q["answer"] for q in questions], clock, seconds=2.25)
    record = await standin.slash(roux, "classe bilan", devoir="Calcul", pseudonymes=True)
    text = record.reply.text()
    assert fr("Bilan du devoir : Calcul") in text
    # A field, "name: value".
    assert fr("Faits : 1") + ": " + fr("Élève 1 : **2/2** · 4,5 s") in text
    assert "Ana" not in text
    sheet, _, by_question = record.reply.attachments
    assert sheet.filename.startswith("devoir-")
    lines = list(csv.reader(io.StringIO(by_question.data.decode("utf-8-sig")), delimiter=";"))
    assert lines[0][:3] == ["Plus ratées", "Numéro", "Question"]
    assert [line[7:10] for line in lines[1:]] == [["1", "100,0", "2,2"]] * 2
    assert "Ana" not in by_question.data.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(sheet.data.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][0] == "Élève" and rows[0][-1] == "Temps (s)"
    assert rows[1] == ["Élève 1", "fait", "2", "1", questions[0]["text"],
                       str(questions[0]["answer"]), str(questions[0]["answer"]), "oui", "2,2"]
    unknown = await standin.slash(roux, "classe bilan", devoir="Rien")
    assert unknown.reply.content == (fr("Il n'y a pas de devoir « Rien » sur ce serveur. "
                                     "/classe devoirs les liste."))


async def test_a_long_list_of_assignments_fits_in_one_message(standin, start_bot, moment):
    await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    for n in range(30):
        moment.now = NOW + timedelta(minutes=n)
        await standin.slash(roux, "class assign", name=f"{n:02} " + "x" * 57, due=DUE,
                            level=1, count=1)
    listed = (await standin.slash(roux, "class assignments")).reply
    [embed] = listed.embeds
    assert embed["title"] == "30 assignments"
    assert len(embed["description"]) <= 4096
    shown = embed["description"].count(" · open until ")
    assert 10 < shown < 30
    assert embed["description"].endswith(f"… and {30 - shown} older")
    assert embed["description"].startswith("**29 xxx")  # the newest first
    assert standin.take_errors() == []



async def test_a_forged_button_of_an_assignment_changes_nothing(standin, start_bot, moment):
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    post = (await standin.slash(roux, "class assign", name="Sums", due=DUE, level=1)).reply
    ana = standin.add_member("Ana")
    # Ids the post does not show reach no button (as for every game's public buttons).
    for custom_id in ("class.assignment:999:1", "class.assignment:0x1:1", "class.assignment:1"):
        await standin.forge(ana, post, custom_id, wait=False)
    await standin.idle()
    made = await bot.db.assignments.get(standin.guild.id, "Sums")
    assert made.started == 0
    with pytest.raises(DomainError) as refused:
        DoAssignment("0x1", 1).check_ids()
    assert refused.value.code == "component.invalid"
