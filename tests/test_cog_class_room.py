"""``/class room open|close|list`` through the stand-in with the real bot and its web server
(issue 30): the teacher's private reply (the code, the link, the QR code picture), a browser
student joining with that code, the list, closing, and ``erase: yes`` leaving nothing of the
room's students in any table; a student refused; a bot without a web server says why."""

from __future__ import annotations

import re
import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

from bot.play import web_rooms
from images import qr
from tests.french import fr
from tests.web_answers import store_answers
from tests.web_helpers import Student, start_web_bot

CODE = re.compile(r"# Code: `([A-Z0-9]{6})`")


async def open_with_command(standin: Any, teacher: Any, **options: Any) -> tuple[Any, str]:
    record = await standin.slash(teacher, "class room open", **options)
    found = CODE.search(record.reply.content)
    assert found, record.reply.content
    return record, found.group(1)


def every_value(path: Path) -> list[tuple[str, str, Any]]:
    """(table, column, value) of every stored value (the scan sees tables added later too)."""
    conn = sqlite3.connect(path)
    try:
        found = []
        for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            cursor = conn.execute(f'SELECT * FROM "{table}"')
            columns = [c[0] for c in cursor.description]
            found += [(table, c, v) for row in cursor for c, v in zip(columns, row, strict=True)]
        return found
    finally:
        conn.close()


def traces(path: Path, user_id: int, nickname: str) -> list[tuple[str, str, Any]]:
    return [(t, c, v) for t, c, v in every_value(path)
            if v == user_id or (isinstance(v, str | bytes) and (
                str(user_id) in str(v) or nickname in str(v)))]


async def test_open_replies_privately_with_the_code_the_link_and_the_qr_code(start_bot, standin):
    bot = await start_web_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    record, code = await open_with_command(standin, teacher, name="5e B", hours=2)
    reply = record.reply
    assert reply.ephemeral_to == teacher.id
    link = f"{bot.web.base_url}/join/{code}"
    assert link in reply.content and "**5e B**" in reply.content
    assert "<t:" in reply.content  # when it closes, in the reader's own time
    assert "choose a nickname" in reply.content and "no Discord account" in reply.content
    [picture] = reply.attachments
    assert picture.data == qr.png(link)  # the link's own QR code
    assert picture.filename == f"room-{code.lower()}.png"
    assert picture.description == f"QR code of the link {link}"
    [room] = await web_rooms.rooms_of(bot.services.db, standin.guild.id)
    assert (room.code, room.name, room.teacher_id) == (code, "5e B", teacher.id)
    assert room.expires_at - room.opened_at == timedelta(hours=2)
    # The code opens the room from a browser.
    async with Student(bot.web.base_url) as student:
        page = await student.join(code, "Léa")
        assert page.status == 200 and page.url.endswith("/room")


async def test_list_then_close_keeps_the_students_in_the_reports(start_bot, standin):
    bot = await start_web_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    _, first = await open_with_command(standin, teacher, name="5e A")
    _, second = await open_with_command(standin, teacher)
    async with Student(bot.web.base_url) as student:
        assert (await student.join(first, "Léa")).status == 200
    listed = (await standin.slash(teacher, "class room list")).reply
    assert listed.ephemeral_to == teacher.id
    text = listed.text()
    assert "**5e A** · `" + first + "` · 1 student" in text
    assert f"**{second}** · `{second}` · 0 students" in text
    # The choices: the open rooms by name or code; the newest closes by default.
    choices = await standin.autocomplete(teacher, "class room close", "room", room="5e")
    assert [c["value"] for c in choices] == [first]
    closed = (await standin.slash(teacher, "class room close")).reply
    assert closed.ephemeral_to == teacher.id
    assert f"(`{second}`) is closed" in closed.content
    closed = (await standin.slash(teacher, "class room close", room=first)).reply
    assert f"**5e A** (`{first}`) is closed" in closed.content
    again = (await standin.slash(teacher, "class room close", room=first)).reply
    assert "already closed" in again.content
    nothing = (await standin.slash(teacher, "class room close")).reply
    assert "No class room is open" in nothing.content
    # Closed, the student stays (the reports name them), and the page says it is closed.
    assert await web_rooms.nicknames(bot.services.db, standin.guild.id) != {}
    text = (await standin.slash(teacher, "class room list")).reply.text()
    assert "Closed" in text and "· closed" in text


async def test_a_forged_room_is_refused_and_changes_nothing(start_bot, standin):
    bot = await start_web_bot(start_bot)
    teacher = standin.add_member("Mme Roux", teacher=True)
    await open_with_command(standin, teacher)
    # Another server's room: its code names no room of this one.
    other = standin.add_guild("Other school")
    elsewhere = await web_rooms.open_room(bot.services.db, other.id, None, 1, "Theirs", "en",
                                          bot.services.clocks.now(), teaches=True)
    for forged in (elsewhere.code, "<@1> *x*", "KKKKKK"):
        reply = (await standin.slash(teacher, "class room close", room=forged,
                                     erase=True)).reply
        assert "This server has no class room" in reply.text(), reply.text()
        assert "<@1>" not in reply.text()
    assert all(r.closed_at is None for r in [
        *await web_rooms.rooms_of(bot.services.db, standin.guild.id),
        *await web_rooms.rooms_of(bot.services.db, other.id)])


async def test_close_erase_leaves_nothing_of_its_students(start_bot, standin):
    bot = await start_web_bot(start_bot)
    path = bot.settings.db_path
    teacher = standin.add_member("Mme Roux", teacher=True)
    _, code = await open_with_command(standin, teacher, name="Atelier")
    _, kept_code = await open_with_command(standin, teacher, name="Other")
    async with Student(bot.web.base_url) as student:
        assert (await student.join(code, "Zéphyrine Q")).status == 200
    async with Student(bot.web.base_url) as student:
        assert (await student.join(kept_code, "Tom")).status == 200
    db = bot.services.db
    ids = {n: uid for uid, n in (await web_rooms.nicknames(db, standin.guild.id)).items()}
    zed = ids["Zéphyrine Q"]
    # They answered: practice, with mastery and the report's rollups.
    await store_answers(db, standin.guild.id, zed, bot.services.clocks.now())
    record = await standin.slash(teacher, "class room close", room=code, erase=True)
    assert "is closed and erased, with everything of its 1 student" in record.reply.text()
    assert await db.players.get(standin.guild.id, zed) is None
    assert await web_rooms.room_by_code(db, code) is None
    assert await web_rooms.nicknames(db, standin.guild.id) == {ids["Tom"]: "Tom"}
    if not str(path).startswith("postgresql"):  # the scan reads SQLite; PostgreSQL the rest
        left = traces(Path(path), zed, "Zéphyrine Q")
        assert left == [], left
        assert traces(Path(path), ids["Tom"], "Tom")


async def test_a_student_is_refused(start_bot, standin):
    bot = await start_web_bot(start_bot)
    ana = standin.add_member("Ana")
    reply = (await standin.slash(ana, "class room open")).reply
    assert reply.ephemeral_to == ana.id
    assert "Only teachers can open a class room" in reply.text()
    assert await web_rooms.rooms_of(bot.services.db, standin.guild.id) == []
    assert await standin.autocomplete(ana, "class room close", "room", room="") == []


async def test_without_a_web_server_the_teacher_is_told_why(start_bot, standin):
    bot = await start_bot()
    prof = standin.add_member("M. Petit", teacher=True, locale="fr")
    reply = (await standin.slash(prof, "classe salle ouvrir", nom="5e B")).reply
    assert reply.ephemeral_to == prof.id
    assert "ARDOISE_WEB" in reply.content and "docs/deploy.md" in reply.content
    assert fr("Les salles ont besoin du serveur web d'Ardoise") in reply.content
    assert await web_rooms.rooms_of(bot.services.db, standin.guild.id) == []


async def test_in_french(start_bot, standin):
    bot = await start_web_bot(start_bot)
    prof = standin.add_member("M. Petit", teacher=True, locale="fr")
    record = await standin.slash(prof, "classe salle ouvrir", nom="5e B", heures=3)
    assert "# Code" in record.reply.content and "choisissent un pseudo" in record.reply.content
    [room] = await web_rooms.rooms_of(bot.services.db, standin.guild.id)
    text = (await standin.slash(prof, "classe salle liste")).reply.text()
    assert f"`{room.code}` · 0 élève" in text
    closed = (await standin.slash(prof, "classe salle fermer", salle=room.code,
                                  effacer=True)).reply
    assert fr("est fermée et effacée : 0 élève effacé") in closed.text()
