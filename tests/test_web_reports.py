"""Browser students in the teacher's reports (issue 30): named by their nickname marked
"(web)" in ``/class report`` (its picture's rows and its CSV), an assignment's report and CSV, a
live round's report and CSV, the weekly digest, the placement results, the end of the year's
archive (then erased); "Student N" in pseudonym mode; never a mention, never a member Discord is
asked for."""

from __future__ import annotations

import csv
import io
import json
import random
import zipfile
from datetime import UTC, datetime
from typing import Any

import pytest
from test_cog_focus_live import SEED, FakeWall, answer, prepare
from test_cog_retention import finished

from bot.focus import generate_questions
from bot.play import assignments as homework
from bot.play import web_rooms
from bot.ui import class_report as report_ui
from tests.classroom_helpers import Moment, classroom_clock
from tests.web_answers import store_answers
from tests.web_helpers import open_room, start_web_bot

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.fixture
def moment(monkeypatch: pytest.MonkeyPatch) -> Moment:
    return classroom_clock(monkeypatch, NOW, 11)


async def seat(bot: Any, standin: Any, nickname: str, room: Any = None) -> int:
    """A browser student seated in a room of the server (as the join page seats them)."""
    room = room or await open_room(bot, standin)
    joined, _ = await web_rooms.join(bot.services.db, room, nickname, "en",
                                     bot.services.clocks.now())
    return joined.user_id


def rows_of(data: bytes) -> list[list[str]]:
    text = data.decode("utf-8-sig")
    delimiter = ";" if text.split("\n", 1)[0].count(";") else ","
    return list(csv.reader(io.StringIO(text), delimiter=delimiter))


def csv_of(message: Any) -> list[list[str]]:
    sheet = next(a for a in message.attachments if a.filename.endswith(".csv"))
    return rows_of(sheet.data)


def no_web_fetch(standin: Any) -> None:
    asked = [path for _, path in standin.requests if "/members/-" in path]
    assert asked == [], asked


async def test_the_class_report_names_a_web_student_and_its_pseudonyms_hide_them(
        start_bot, standin, monkeypatch):
    bot = await start_web_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    ana = standin.add_member("Ana")
    léa = await seat(bot, standin, "Léa")
    now = bot.services.clocks.now()
    await store_answers(bot.services.db, standin.guild.id, ana.id, now)
    await store_answers(bot.services.db, standin.guild.id, léa, now, right=1, wrong=2)
    drawn: list[dict[str, Any]] = []
    real = report_ui.images.render_class_report
    monkeypatch.setattr(report_ui.images, "render_class_report",
                        lambda data, words: drawn.append(data) or real(data, words))
    reply = (await standin.slash(teacher, "class report")).reply
    assert "<@-" not in reply.text()
    names = {row[0] for row in csv_of(reply)[1:]}
    assert {"Ana", "Léa (web)"} <= names
    assert [r["name"] for r in drawn[-1]["rows"]] == ["Ana", "Léa (web)"]
    # The @everyone role holds them too; another role does not.
    shown = (await standin.slash(teacher, "class report", role=standin.guild.everyone)).reply
    assert "Léa (web)" in {row[0] for row in csv_of(shown)}
    group = standin.add_role("Groupe A")
    bob = standin.add_member("Bob", roles=[group])
    await store_answers(bot.services.db, standin.guild.id, bob.id, now)
    shown = (await standin.slash(teacher, "class report", role=group)).reply
    names = {row[0] for row in csv_of(shown)[1:]}
    assert "Bob" in names and "Léa (web)" not in names
    hidden = (await standin.slash(teacher, "class report", pseudonym=True)).reply
    text = hidden.text() + "".join(a.data.decode("utf-8-sig", "replace")
                                   for a in hidden.attachments if a.filename.endswith(".csv"))
    assert "Léa" not in text and "Ana" not in text
    assert {row[0] for row in csv_of(hidden)[1:]} >= {"Student 1", "Student 2"}
    no_web_fetch(standin)


async def test_a_teacher_picks_a_web_student_for_their_page_and_a_forged_pick_is_refused(
        start_bot, standin):
    bot = await start_web_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    ana = standin.add_member("Ana")
    room = await open_room(bot, standin, name="5e B")
    léa = await seat(bot, standin, "Léa", room)
    await seat(bot, standin, "Tom", room)
    db, now = bot.services.db, bot.services.clocks.now()
    await store_answers(db, standin.guild.id, léa, now, right=1, wrong=2)
    # The choices: the server's browser students, what is typed in their nickname, the value
    # their player id; another server's are never offered.
    other = standin.add_guild("Other school")
    elsewhere = await web_rooms.open_room(db, other.id, None, teacher.id, None, "en", now,
                                          teaches=True)
    await web_rooms.join(db, elsewhere, "Léon", "en", now)
    choices = await standin.autocomplete(teacher, "class report", "web_student",
                                         web_student="lé")
    assert choices == [{"name": "Léa (web) · 5e B", "value": str(léa)}]
    offered = await standin.autocomplete(teacher, "class report", "web_student",
                                         web_student="")
    assert [c["name"] for c in offered] == ["Tom (web) · 5e B", "Léa (web) · 5e B"]
    assert await standin.autocomplete(ana, "class report", "web_student",
                                      web_student="") == []
    # Her page, as a member's: a picture and a CSV with her three answers, named "Léa (web)".
    reply = (await standin.slash(teacher, "class report", period="all",
                                 web_student=str(léa))).reply
    assert reply.ephemeral and reply.text().startswith("One student’s page: Léa (web).")
    files = {a.filename: a.data for a in reply.attachments}
    assert files["student.png"].startswith(b"\x89PNG")
    [sheet] = [rows_of(data) for name, data in files.items() if name.endswith(".csv")]
    assert sum(int(line[2]) for line in sheet if line[0] == "Week (Monday)") == 3
    hidden = (await standin.slash(teacher, "class report", web_student=str(léa),
                                  pseudonym=True)).reply
    assert "Léa" not in hidden.text() and "Student 1" in hidden.text()
    # Forged or stale values, a 6,000-character one, a member's id, another server's student,
    # both kinds of student at once: one clear refusal each, nothing sent but it.
    leon = (await web_rooms.students(db, other.id))[0][0]
    for forged in ("-1", "abc", "9" * 6000, str(ana.id), str(leon)):
        refused = (await standin.slash(teacher, "class report", web_student=forged)).reply
        assert refused.ephemeral and not refused.attachments
        assert refused.text() == ("This server has no such student on the web (erased, or "
                                  "never seated in a class room). Choose one in the list.")
    both = (await standin.slash(teacher, "class report", student=ana,
                                web_student=str(léa))).reply
    assert both.text().startswith("Choose one student:") and not both.attachments
    no_web_fetch(standin)


async def test_an_assignment_report_names_web_students_begun_and_not_begun(
        start_bot, standin, moment):
    bot = await start_web_bot(start_bot)
    roux = standin.add_member("Roux", teacher=True)
    room = await open_room(bot, standin)
    léa, tom = await seat(bot, standin, "Léa", room), await seat(bot, standin, "Tom", room)
    await standin.slash(roux, "class assign", name="Sums", due="2026-12-08 18:00", level=1,
                        count=2)
    db = bot.services.db
    [assignment] = await homework.server_assignments(db, standin.guild.id)
    await homework.take(db, assignment.assignment_id, standin.guild.id, léa, [], NOW,
                        str, lambda _: None)
    reply = (await standin.slash(roux, "class report", assignment="Sums")).reply
    text = reply.text()
    assert "Léa (web)" in text and "Tom (web)" in text and "<@-" not in text
    sheet = "\n".join(",".join(row) for row in csv_of(reply))
    assert "Léa (web)" in sheet and "Tom (web)" in sheet
    hidden = (await standin.slash(roux, "class report", assignment="Sums",
                                  pseudonym=True)).reply
    assert "Léa" not in hidden.text() and "Tom" not in hidden.text()
    assert tom  # not begun: listed, never mentioned
    no_web_fetch(standin)


async def test_the_live_report_names_a_web_student_who_answered(start_bot, standin):
    bot = await start_web_bot(start_bot)
    wall = FakeWall()
    prepare(bot, wall)
    teacher = standin.add_member("Mme Roux", teacher=True)
    ana = standin.add_member("Ana")
    léa = await seat(bot, standin, "Léa")
    questions = generate_questions(4, 2, random.Random(SEED))
    first = (await standin.slash(teacher, "focus live", count=1, level=4, auto=False)).reply
    live_id = int(next(b["custom_id"] for b in first.buttons()
                       if b.get("custom_id", "").count(":") >= 2).split(":")[1])
    rounds = bot.get_cog("Focus").flow.live_rounds
    wall.now += 2.0
    await answer(standin, ana, first, str(questions[0].answer))
    await rounds.answerable(live_id, 1, léa, "Léa")
    wall.now += 1.0
    await rounds.answer(live_id, 1, léa, "Léa", str(questions[0].answer + 1), wall.now)
    await standin.click(teacher, first, label="Show the results")
    final = await standin.wait_for_message(lambda m: "final ranking" in m.text(), after=first)
    report = await standin.click(teacher, final, label="Report (teacher)")
    [message] = [m for m in report.messages if m.attachments]
    names = {row[0] for row in csv_of(message)[1:]}
    assert {"Ana", "Léa (web)"} <= names
    no_web_fetch(standin)


async def test_the_digest_names_a_web_student(start_bot, standin, moment):
    bot = await start_web_bot(start_bot)
    roux = standin.add_member("Roux", teacher=True)
    léa = await seat(bot, standin, "Léa")
    await seat(bot, standin, "Tom")
    await store_answers(bot.services.db, standin.guild.id, léa, NOW)
    reply = (await standin.slash(roux, "class digest")).reply
    text = reply.text()
    assert "Léa (web)" in text and "Tom (web)" in text and "<@-" not in text
    no_web_fetch(standin)


async def test_the_placement_results_name_a_web_student(start_bot, standin):
    bot = await start_web_bot(start_bot)
    roux = standin.add_member("Roux", teacher=True)
    léa = await seat(bot, standin, "Léa")
    await store_answers(bot.services.db, standin.guild.id, léa, bot.services.clocks.now())
    results = (await standin.slash(roux, "class placement", results=True)).reply
    assert "Léa (web)" in results.text() and "<@-" not in results.text()
    no_web_fetch(standin)


async def test_the_end_of_the_year_exports_and_erases_web_students_too(start_bot, standin):
    bot = await start_web_bot(start_bot)
    roux = standin.add_member("Roux", teacher=True)
    léa = await seat(bot, standin, "Léa")
    await store_answers(bot.services.db, standin.guild.id, léa, bot.services.clocks.now())
    question = (await standin.slash(roux, "class end-of-year")).reply
    done = await standin.click(roux, question, label="Export and erase")
    await finished(standin, done, "Done: I erased")
    [sent] = [m for m in done.messages if m.attachments]
    with zipfile.ZipFile(io.BytesIO(sent.attachments[0].data)) as bundle:
        files = {name: bundle.read(name) for name in bundle.namelist()}
    exported = json.loads(files[f"students/{léa}.json"])
    assert exported["web_seat"]["nickname"] == "Léa"
    [report] = [name for name in files if name.startswith("class-report-")]
    assert "Léa (web)" in {row[0] for row in rows_of(files[report])[1:]}
    assert await web_rooms.nicknames(bot.services.db, standin.guild.id) == {}
    no_web_fetch(standin)
