"""``python -m db copy SRC DST`` (db/copy.py): a SQLite file filled through the repositories is
copied to the test's database (a new SQLite file, or on the ``[postgresql]`` run a PostgreSQL
database), and from there back to a new SQLite file, which holds every row of the first one.
The copies work: games load and go on, new rows get new ids, the class report's rollups are the
source's (rebuilt by the destination's triggers). A destination that is not empty, or at another
version, is refused and left as it was.
"""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from db import Database, FocusAnswer
from db import copy as copy_module
from db.__main__ import main as cli
from db.copy import CopyError, copy
from db.question_sets import SetItem

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
GUILD, OTHER = 1, 2
BIG = 1234567890123456789  # a Discord id: 64 bits


async def run_cli(args: list[str]) -> int:
    # The command line runs its own event loop: in a thread, beside the test's.
    return await asyncio.to_thread(cli, args)


async def fill(db: Database) -> dict[str, int]:
    """Rows in most tables, written as the bot writes them; the ids to look for."""
    await db.servers.update(GUILD, language="fr", daily_channel_id=BIG, timezone="Europe/Paris")
    answers = [FocusAnswer(GUILD if u % 3 else OTHER, BIG + u, ("addition", "tables")[u % 2],
                           1 + u % 4, f"{u} + 1", u + 1, u + 1 if u % 5 else None,
                           400 * u, answered_at=T0 + timedelta(minutes=7 * u))
               for u in range(60)]
    await db.focus.record_many(answers)
    match = await db.digits.create_match(GUILD, [BIG, BIG + 1], {"round": 1, "who": BIG},
                                         status="active")
    await db.digits.record_ghost(match.match_id, BIG, 1, {"1": "Odd"})
    await db.digits.finish_match(match.match_id, {"round": 2}, match.version,
                                 {BIG: 1.0, BIG + 1: 0.0})
    open_match = await db.digits.create_match(GUILD, [BIG + 2, BIG + 3], {"round": 1},
                                              status="active")
    game = await db.rithmo.create_game(GUILD, white_id=BIG, black_id=BIG + 1,
                                       victories={"body": 5}, position={"to_move": "white"},
                                       challenger_id=BIG, status="active")
    await db.rithmo.play_turn(game.game_id, game.version, "c3-d4", {"to_move": "black"},
                              to_move="black", deadline=T0 + timedelta(days=1))
    await db.daily.create(GUILD, date(2026, 11, 30), [{"text": "1 + 1", "answer": 2}])
    await db.question_sets.create(GUILD, "Doubles", BIG, [SetItem("2 × 2", 4), SetItem("3 × 2", 6)])
    return {"match": match.match_id, "open_match": open_match.match_id, "game": game.game_id}


def rows_of(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'schema_migrations'"
            " AND name NOT LIKE 'sqlite%'")]
        return {t: sorted(conn.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr)
                for t in tables}
    finally:
        conn.close()


async def test_a_copy_holds_the_schools_rows_and_works(
        tmp_path: Path, db_location: Path | str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(copy_module, "BATCH", 7)  # several batches per table
    source = tmp_path / "school.sqlite3"
    db = await Database.open(source)
    try:
        ids = await fill(db)
    finally:
        await db.close()

    assert await run_cli(["copy", str(source), str(db_location)]) == 0
    said = capsys.readouterr().out
    assert "copied focus_answers: 60 rows" in said
    assert "rebuilt focus_rollup from the answers" in said and "equal to the source's" in said
    assert "checked: the rows of all" in said
    copied = await Database.open(db_location)
    try:
        match = await copied.digits.require_match(ids["match"])
        assert (match.status, match.state, match.players) == ("finished", {"round": 2},
                                                              (BIG, BIG + 1))
        game = await copied.rithmo.require_game(ids["game"])
        assert [t.notation for t in game.turns] == ["c3-d4"]
        assert (await copied.servers.get(GUILD)).daily_channel_id == BIG
        assert (await copied.question_sets.get(GUILD, "doubles")) is not None  # any case
        # Games go on, and new rows get ids of their own (PostgreSQL's identities moved on).
        still = await copied.digits.require_match(ids["open_match"])
        assert await copied.digits.save_match(still.match_id, {"round": 2}, still.version) == 2
        new = await copied.digits.create_match(GUILD, [BIG, BIG + 4], {"round": 1})
        assert new.match_id > max(ids["match"], ids["open_match"])
        assert await copied.focus.record(FocusAnswer(GUILD, BIG, "addition", 1, "1 + 1", 2, 2,
                                                     900, answered_at=T0))
    finally:
        await copied.close()


async def test_the_same_rows_come_back_unchanged(tmp_path: Path, db_location: Path | str
                                                 ) -> None:
    source = tmp_path / "school.sqlite3"
    db = await Database.open(source)
    try:
        await fill(db)
    finally:
        await db.close()
    assert await run_cli(["copy", str(source), str(db_location)]) == 0
    back = tmp_path / "back.sqlite3"
    assert await run_cli(["copy", str(db_location), str(back)]) == 0
    # There and back (through PostgreSQL on its run): every row as it was.
    assert rows_of(back) == rows_of(source)


async def test_a_destination_with_rows_or_another_version_is_refused_and_left_alone(
        tmp_path: Path, db_location: Path | str, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "school.sqlite3"
    db = await Database.open(source)
    try:
        await fill(db)
    finally:
        await db.close()
    dest = await Database.open(db_location)
    try:
        await dest.players.add_gold(9, 99, 3)
        src = await Database.open(source)
        try:
            with pytest.raises(CopyError, match="not empty"):
                await copy(src.connection, dest.connection)
            assert (await dest.players.require(9, 99)).gold == 3
            assert await dest.focus.recent(GUILD, BIG + 1) == []
        finally:
            await src.close()
    finally:
        await dest.close()
    assert await run_cli(["copy", str(source), str(db_location)]) == 1
    # A file is refused as soon as it exists; a PostgreSQL database once it holds a row.
    assert ("exists: copy into a new file" if isinstance(db_location, Path)
            else "the destination is not empty") in capsys.readouterr().err
    old = tmp_path / "old.sqlite3"
    await (await Database.open(old, target_version=5)).close()
    assert await run_cli(["copy", str(old), str(tmp_path / "new.sqlite3")]) == 1
    assert "schema version 5" in capsys.readouterr().err
    assert await run_cli(["copy", str(source), str(source)]) == 1
    assert "exists: copy into a new file" in capsys.readouterr().err


def test_a_postgresql_database_that_does_not_exist_is_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    from conftest import POSTGRES_URL, _server_url

    if not POSTGRES_URL:
        pytest.skip("needs ARDOISE_TEST_DATABASE_URL")
    assert cli(["migrate", "--db", _server_url("ardoise_no_such_database")]) == 1
    said = capsys.readouterr().err
    assert said.startswith("python -m db migrate: PostgreSQL says:")
    assert "does not exist" in said and said.count("\n") == 1
