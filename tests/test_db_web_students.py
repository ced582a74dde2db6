"""A browser student's data (issue 30): ``python -m db export-player`` gives their seat (nickname,
room, dates; never the hash of their session cookie nor their form token), ``delete-player``
takes a negative id on the command line and leaves nothing of them in any table; a teacher who
only opened rooms is exported and forgotten; the retention erases a student not seen for its
length and the closed rooms left empty."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.play import web_rooms
from db import Database
from db.__main__ import main as cli
from tests.test_cog_class_room import traces
from tests.web_answers import store_answers

G = 5
TEACHER = 1234567890123456789
NOW = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)


async def run_cli(*args: str) -> int:
    return await asyncio.to_thread(cli, list(args))


async def seated(db: Database, nickname: str, now: datetime = NOW, *, name: str = "5e B"
                 ) -> tuple[web_rooms.Seat, str]:
    room = await web_rooms.open_room(db, G, 6, TEACHER, name, "fr", now, teaches=True)
    return await web_rooms.join(db, room, nickname, "fr", now)


async def test_export_then_delete_a_web_student_by_their_negative_id(db_location, tmp_path):
    db = await Database.open(db_location)
    try:
        seat, token = await seated(db, "Zéphyrine Q")
        other, _ = await web_rooms.join(db, seat.room, "Tom", "fr", NOW)
        uid = seat.user_id
        await store_answers(db, G, uid, NOW)
        await store_answers(db, G, other.user_id, NOW)
    finally:
        await db.close()
    out = tmp_path / "web.json"
    assert await run_cli("export-player", str(G), str(uid), "--db", str(db_location),
                         "--out", str(out)) == 0
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert exported["user_id"] == uid < 0
    assert exported["web_seat"]["nickname"] == "Zéphyrine Q"
    assert (exported["web_seat"]["room_code"], exported["web_seat"]["room_name"]) == (
        seat.room.code, "5e B")
    assert exported["web_seat"]["joined_at"] and exported["web_seat"]["seen_at"]
    text = out.read_text(encoding="utf-8")
    assert web_rooms.token_hash(token) not in text and seat.seat.csrf not in text
    assert "token_hash" not in text and "csrf" not in text
    assert len(exported["focus_answers"]) == 4
    assert await run_cli("delete-player", str(G), str(uid), "--db", str(db_location)) == 0
    if not str(db_location).startswith("postgresql"):
        assert traces(Path(db_location), uid, "Zéphyrine Q") == []
        assert traces(Path(db_location), other.user_id, "Tom")
    db = await Database.open(db_location)
    try:
        assert await web_rooms.nicknames(db, G) == {other.user_id: "Tom"}
        assert await web_rooms.seat_of(db, token) is None  # the cookie opens nothing any more
    finally:
        await db.close()
    assert await run_cli("delete-player", str(G), str(uid), "--db", str(db_location)) == 1


async def test_a_teacher_who_only_opened_rooms_is_exported_and_forgotten(db):
    room = await web_rooms.open_room(db, G, 6, TEACHER, "Atelier", "en", NOW, teaches=True)
    exported = await db.export_player(G, TEACHER)
    assert exported["player"] is None and exported["web_seat"] is None
    assert [r["code"] for r in exported["web_rooms_opened"]] == [room.code]
    counts = await db.delete_player(G, TEACHER)
    assert counts["web_rooms_anonymised"] == 1
    [kept] = await web_rooms.rooms_of(db, G)
    assert kept.teacher_id is None and kept.code == room.code


async def test_the_retention_erases_web_students_not_seen_and_empty_closed_rooms(db):
    old = NOW - timedelta(days=400)
    gone, _ = await seated(db, "Ancien", old, name="Old")
    await store_answers(db, G, gone.user_id, old + timedelta(minutes=5))
    await web_rooms.close_room(db, G, gone.room.code, old + timedelta(hours=1), teaches=True,
                               erase=False)
    kept, _ = await seated(db, "Récent", NOW - timedelta(days=3), name="New")
    await store_answers(db, G, kept.user_id, NOW - timedelta(days=3))
    # A student who joined long ago but came back lately stays.
    back, _ = await web_rooms.join(db, kept.room, "Revenu", "fr", NOW - timedelta(days=3))
    await web_rooms.seen(db, back, NOW - timedelta(days=1))
    counts = await db.retention.purge(G, NOW - timedelta(days=365))
    assert counts["web_students"] == 1 and counts["web_rooms"] == 1
    assert await db.players.get(G, gone.user_id) is None
    assert set(await web_rooms.nicknames(db, G)) == {kept.user_id, back.user_id}
    assert [r.name for r in await web_rooms.rooms_of(db, G)] == ["New"]
    again = await db.retention.purge(G, NOW - timedelta(days=365))
    assert (again["web_students"], again["web_rooms"]) == (0, 0)
