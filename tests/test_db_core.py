"""db: opening, migrations, transactions, optimistic concurrency, backup and the command line.

Every test works on a real SQLite file in pytest's temporary folder, and those of a database
(``db``, ``db_location``, ``empty_db_location``) again on PostgreSQL when
``ARDOISE_TEST_DATABASE_URL`` is set (tests/conftest.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sqlite3
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from bot.domain import DomainError
from db import LATEST_VERSION, Database, DatabaseVersionError, FocusAnswer, StaleVersion
from db.__main__ import main as cli
from db.core import default_path
from db.migrate import Migration, load_migrations

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
GUILD = 1


async def run_script(location: Path | str, sql: str) -> None:
    """Statements written straight to the database, under the repositories (old rows to upgrade,
    a newer version's mark)."""
    if isinstance(location, Path):
        conn = sqlite3.connect(location)
        try:
            conn.executescript(sql)
        finally:
            conn.close()
        return
    import asyncpg

    pg = await asyncpg.connect(location)
    try:
        await pg.execute(sql)
    finally:
        await pg.close()


async def table_exists(db: Database, name: str) -> bool:
    if db.engine == "sqlite":
        found = await db.connection.one("SELECT 1 FROM sqlite_master WHERE name = ?", (name,))
    else:
        found = await db.connection.one("SELECT 1 WHERE to_regclass(?) IS NOT NULL", (name,))
    return found is not None


async def database_checks_out(db: Database) -> None:
    """SQLite's own checks of its file; PostgreSQL checks every constraint as it writes."""
    if db.engine == "sqlite":
        assert (await db.connection.one("PRAGMA integrity_check"))[0] == "ok"  # type: ignore[index]
        assert await db.connection.all("PRAGMA foreign_key_check") == []


def answer(user: int, given: int = 4, at: datetime = T0) -> FocusAnswer:
    return FocusAnswer(GUILD, user, "addition", 1, "2 + 2", 4, given, 1500, answered_at=at)


def table_rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table of the file, in a stable order."""
    conn = sqlite3.connect(path)
    try:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in tables}
    finally:
        conn.close()


# --- Opening ------------------------------------------------------------------------------


async def test_open_creates_the_folder_and_sets_wal_foreign_keys_and_busy_timeout(
    tmp_path: Path,
) -> None:
    path = tmp_path / "new" / "folder" / "ardoise.sqlite3"
    db = await Database.open(path)
    try:
        assert path.exists()
        assert db.version == LATEST_VERSION
        # Outside a transaction a read goes to the reader, inside to the writer: both set.
        for inside in (False, True):
            async with db.transaction() if inside else contextlib.nullcontext():
                one = db.connection.one
                assert (await one("PRAGMA journal_mode"))[0] == "wal"  # type: ignore[index]
                assert (await one("PRAGMA foreign_keys"))[0] == 1  # type: ignore[index]
                assert (await one("PRAGMA busy_timeout"))[0] == 5000  # type: ignore[index]
                assert (await one("PRAGMA secure_delete"))[0] == 1  # type: ignore[index]
    finally:
        await db.close()


def test_default_path_is_data_folder_unless_ardoise_db_is_set(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("ARDOISE_DB", raising=False)
    assert default_path() == Path("data") / "ardoise.sqlite3"
    monkeypatch.setenv("ARDOISE_DB", str(tmp_path / "elsewhere.db"))
    assert default_path() == tmp_path / "elsewhere.db"


async def test_fresh_machine_gets_a_working_default_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("ARDOISE_DB", raising=False)
    monkeypatch.chdir(tmp_path)
    db = await Database.open()
    try:
        await db.players.add_gold(GUILD, 10, 3)
    finally:
        await db.close()
    assert (tmp_path / "data" / "ardoise.sqlite3").is_file()


async def test_memory_database_is_refused() -> None:
    with pytest.raises(ValueError, match="file"):
        await Database.open(":memory:")


# --- Migrations ---------------------------------------------------------------------------


def test_migrations_are_numbered_without_gaps_and_leave_transactions_to_the_runner() -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, LATEST_VERSION + 1))
    assert LATEST_VERSION >= 3
    # The runner owns the transaction; a file with its own would break atomicity.
    # (A trigger's BEGIN … END is fine: only transaction statements and pragmas are not.)
    control = re.compile(
        r"^\s*(COMMIT|ROLLBACK|END\s+TRANSACTION|PRAGMA"
        r"|BEGIN\s*(TRANSACTION|IMMEDIATE|EXCLUSIVE|DEFERRED)?\s*;)",
        re.IGNORECASE | re.MULTILINE,
    )
    assert control.search("BEGIN IMMEDIATE;") and control.search("  commit;")
    assert not control.search("CREATE TRIGGER t AFTER INSERT ON a\nBEGIN\n  SELECT 1;\nEND;")
    for migration in migrations:
        assert control.search(migration.sql) is None, migration.name
        if migration.postgresql is not None:
            assert control.search(migration.postgresql) is None, migration.name


def test_a_gap_in_the_migration_numbers_is_refused(tmp_path: Path) -> None:
    (tmp_path / "0001_first.sql").write_text("CREATE TABLE a (x);")
    (tmp_path / "0003_third.sql").write_text("CREATE TABLE c (x);")
    with pytest.raises(RuntimeError, match="without gaps"):
        load_migrations(tmp_path)


async def test_migrations_from_empty_record_every_version(db: Database) -> None:
    rows = await db.connection.all("SELECT version, name FROM schema_migrations ORDER BY version")
    assert [tuple(r) for r in rows] == [(m.version, m.name) for m in load_migrations()]
    await database_checks_out(db)


TS = "2026-01-05 10:00:00.000"
SEED_V1 = f"""
INSERT INTO servers (guild_id, language, match_lives, created_at, updated_at)
    VALUES (1, 'fr', 7, '{TS}', '{TS}');
INSERT INTO players (guild_id, user_id, gold, focus_level, created_at)
    VALUES (1, 10, 4, 3, '{TS}'), (1, 11, 0, 1, '{TS}');
INSERT INTO ratings (guild_id, user_id, game, rating, rd, volatility, games, wins, losses, draws,
    streak, best_streak, updated_at)
    VALUES (1, 10, 'digits', 1600, 80, 0.06, 5, 3, 2, 0, 1, 2, '{TS}');
INSERT INTO digits_matches (match_id, guild_id, kind, status, round, state, version, deadline,
    created_at, updated_at) VALUES (5, 1, 'duel', 'active', 3, '{{"gold": 7}}', 4,
    '2026-01-06 10:00:00.000', '{TS}', '{TS}');
INSERT INTO digits_seats (match_id, seat, user_id, to_act) VALUES (5, 0, 10, 1), (5, 1, 11, 0);
INSERT INTO digits_ghosts (match_id, user_id, round, guild_id, slate, created_at)
    VALUES (5, 10, 3, 1, '{{"1": "Odd"}}', '{TS}');
INSERT INTO rithmo_games (game_id, guild_id, white_id, black_id, challenger_id, victories, position,
    to_move, status, version, created_at, updated_at)
    VALUES (8, 1, 10, 11, 10, '{{"body": 5}}', '{{"to_move": "black"}}', 'black', 'active', 2,
    '{TS}', '{TS}');
INSERT INTO rithmo_turns (game_id, ply, side, notation, played_at)
    VALUES (8, 1, 'white', 'c3-d4', '{TS}');
INSERT INTO focus_answers (guild_id, user_id, answered_at, source, topic, level, question, expected,
    given, correct, time_ms)
    VALUES (1, 10, '{TS}', 'practice', 'addition', 1, '2 + 3', 5, 5, 1, 900);
"""
SEED_V2 = f"""
UPDATE servers SET daily_channel_id = 77, daily_hour = 7, timezone = 'Europe/Paris';
UPDATE players SET daily_streak = 2, best_daily_streak = 4, last_daily_day = '2026-01-05'
    WHERE user_id = 10;
INSERT INTO daily_challenges (guild_id, day, questions, created_at)
    VALUES (1, '2026-01-05', '[{{"text": "1 + 1"}}]', '{TS}');
INSERT INTO daily_attempts (guild_id, day, user_id, score, time_ms, started_at, finished_at)
    VALUES (1, '2026-01-05', 10, 6, 30000, '{TS}', '{TS}');
"""


@pytest.mark.parametrize("start", range(LATEST_VERSION))
async def test_upgrade_from_each_earlier_version_keeps_the_rows(
    empty_db_location: Path | str, start: int
) -> None:
    path = empty_db_location
    old = await Database.open(path, target_version=start)
    assert old.version == start
    await old.close()
    if start >= 1:
        await run_script(path, SEED_V1)
    if start >= 2:
        await run_script(path, SEED_V2)

    db = await Database.open(path)
    try:
        assert db.version == LATEST_VERSION
        await database_checks_out(db)
        if start == 0:
            return
        settings = await db.servers.get(1)
        assert (settings.language, settings.match_lives) == ("fr", 7)
        player = await db.players.require(1, 10)
        assert (player.gold, player.focus_level) == (4, 3)
        rating = await db.players.rating(1, 10, "digits")
        assert (rating.rating.rating, rating.wins, rating.best_streak) == (1600, 3, 2)
        match = await db.digits.require_match(5)
        assert (match.state, match.version, match.round) == ({"gold": 7}, 4, 3)
        assert match.waiting_on == (10,)
        assert [g.slate for g in await db.digits.ghost_pool(1, 3, exclude_user_id=11)] == [
            {"1": "Odd"}
        ]
        game = await db.rithmo.require_game(8)
        assert [t.notation for t in game.turns] == ["c3-d4"]
        assert game.position == {"to_move": "black"}
        progress = await db.focus.progress(1, 10, by="all")
        assert [(p.topic, p.answers, p.correct) for p in progress] == [("addition", 1, 1)]
        if start == 1:
            # Columns added by version 2 take their defaults on old rows.
            assert (settings.daily_channel_id, settings.daily_hour, settings.timezone) == (
                None,
                8,
                "UTC",
            )
            assert (player.daily_streak, player.last_daily_day) == (0, None)
        else:
            assert (settings.daily_channel_id, settings.daily_hour) == (77, 7)
            assert settings.timezone == "Europe/Paris"
            assert (player.daily_streak, player.best_daily_streak) == (2, 4)
            board = await db.daily.leaderboard(1, date(2026, 1, 5))
            assert [(r.rank, r.user_id, r.score) for r in board] == [(1, 10, 6)]
        # The upgraded database works for new writes too.
        version = await db.digits.save_match(5, {"gold": 2}, expected_version=4)
        assert version == 5
    finally:
        await db.close()


async def test_a_newer_database_is_refused_with_a_clear_message(
    empty_db_location: Path | str,
) -> None:
    path = empty_db_location
    await (await Database.open(path)).close()
    await run_script(path, "INSERT INTO schema_migrations (version, name, applied_at)"
                           f" VALUES ({LATEST_VERSION + 1}, 'future', 'x')")
    with pytest.raises(DatabaseVersionError) as refused:
        await Database.open(path)
    assert str(refused.value) == (
        f"database version {LATEST_VERSION + 1} is newer than this Ardoise ({LATEST_VERSION});"
        " upgrade Ardoise"
    )


async def test_a_failing_migration_leaves_the_previous_version_intact(
    empty_db_location: Path | str,
) -> None:
    path = empty_db_location
    broken = Migration(
        LATEST_VERSION + 1,
        "broken",
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);",
    )
    # sqlite3.OperationalError, or asyncpg's UndefinedTableError: the driver's own refusal.
    with pytest.raises(Exception, match="no_such_table"):
        await Database.open(path, migrations=[*load_migrations(), broken])
    db = await Database.open(path)
    try:
        assert db.version == LATEST_VERSION
        assert not await table_exists(db, "half_done")
        assert await table_exists(db, "focus_answers")
    finally:
        await db.close()


# --- Transactions -------------------------------------------------------------------------


async def test_an_exception_half_way_through_a_transaction_leaves_nothing_written(
    db: Database,
) -> None:
    await db.players.add_gold(GUILD, 10, 5)
    match = await db.digits.create_match(GUILD, [10, 11], {"gold": 5}, status="active")
    with pytest.raises(RuntimeError, match="half-way"):
        async with db.transaction():
            await db.players.add_gold(GUILD, 10, -3)
            await db.focus.record(answer(10))
            await db.digits.save_match(match.match_id, {"gold": 2}, match.version)
            await db.players.ensure(GUILD, 99)
            raise RuntimeError("half-way")
    assert (await db.players.require(GUILD, 10)).gold == 5
    assert await db.focus.recent(GUILD, 10) == []
    after = await db.digits.require_match(match.match_id)
    assert (after.state, after.version) == ({"gold": 5}, match.version)
    assert await db.players.get(GUILD, 99) is None


async def test_a_cancelled_transaction_rolls_back_and_frees_the_writer(db: Database) -> None:
    entered = asyncio.Event()

    async def interrupted() -> None:
        async with db.transaction():
            await db.players.add_gold(GUILD, 10, 7)
            entered.set()
            await asyncio.Event().wait()  # cancelled here

    task = asyncio.create_task(interrupted())
    await entered.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await db.players.get(GUILD, 10) is None
    assert await db.players.add_gold(GUILD, 10, 1) == 1


async def test_readers_never_see_an_uncommitted_change(db: Database) -> None:
    await db.players.add_gold(GUILD, 10, 5)
    written, release = asyncio.Event(), asyncio.Event()

    async def writer() -> None:
        async with db.transaction():
            await db.players.add_gold(GUILD, 10, 10)
            # Inside, the transaction reads its own change.
            assert (await db.players.require(GUILD, 10)).gold == 15
            written.set()
            await release.wait()

    task = asyncio.create_task(writer())
    await written.wait()
    assert (await db.players.require(GUILD, 10)).gold == 5
    release.set()
    await task
    assert (await db.players.require(GUILD, 10)).gold == 15


async def test_a_single_write_never_joins_another_tasks_open_transaction(db: Database) -> None:
    await db.players.ensure(GUILD, 11)
    opened = asyncio.Event()

    async def failing_transaction() -> None:
        async with db.transaction():
            await db.players.add_gold(GUILD, 10, 5)
            opened.set()
            for _ in range(20):  # let the other task issue its write meanwhile
                await asyncio.sleep(0)
            raise RuntimeError("rolled back")

    task = asyncio.create_task(failing_transaction())
    await opened.wait()
    # One statement outside any transaction: it waits for the writer, then commits on its own.
    single = asyncio.create_task(db.players.add_gold(GUILD, 11, 3))
    with pytest.raises(RuntimeError):
        await task
    assert await single == 3
    assert await db.players.get(GUILD, 10) is None
    assert (await db.players.require(GUILD, 11)).gold == 3


async def test_a_nested_transaction_that_fails_undoes_only_its_own_part(db: Database) -> None:
    async with db.transaction():
        await db.players.add_gold(GUILD, 10, 5)
        with pytest.raises(DomainError):
            async with db.transaction():
                await db.players.add_gold(GUILD, 11, 5)
                await db.players.add_gold(GUILD, 10, -50)  # refused: not enough gold
        assert db.in_transaction
    assert (await db.players.require(GUILD, 10)).gold == 5
    assert await db.players.get(GUILD, 11) is None


async def test_transactions_of_concurrent_tasks_do_not_mix(db: Database) -> None:
    async def round_of_answers(user: int) -> None:
        async with db.transaction():
            for i in range(5):
                await db.focus.record(answer(user, given=i))
                await asyncio.sleep(0)
            if user % 2:
                raise RuntimeError("odd users' rounds fail")

    results = await asyncio.gather(
        *(round_of_answers(u) for u in range(10)), return_exceptions=True
    )
    assert [isinstance(r, RuntimeError) for r in results] == [u % 2 == 1 for u in range(10)]
    for user in range(10):
        assert len(await db.focus.recent(GUILD, user)) == (0 if user % 2 else 5)


# --- Optimistic concurrency ---------------------------------------------------------------


async def test_100_concurrent_saves_exactly_the_fresh_ones_win(db: Database) -> None:
    match = await db.digits.create_match(GUILD, [10, 11], {"saves": 0}, status="active")
    await db.digits.save_match(match.match_id, {"saves": 0}, match.version)  # version 2
    stale_version = match.version  # 1: moved past already

    async def stale(i: int) -> bool:
        try:
            await db.digits.save_match(match.match_id, {"saves": -1, "by": i}, stale_version)
        except StaleVersion:
            return False
        return True

    async def fresh(i: int) -> bool:
        while True:  # read, then save from what was read; on a refusal read again
            current = await db.digits.require_match(match.match_id)
            state = {"saves": current.state["saves"] + 1, "by": i}
            try:
                await db.digits.save_match(match.match_id, state, current.version)
            except StaleVersion:
                continue
            return True

    tasks = [stale(i) if i % 2 else fresh(i) for i in range(100)]
    results = await asyncio.gather(*tasks)
    assert [won for i, won in enumerate(results) if i % 2] == [False] * 50
    assert [won for i, won in enumerate(results) if not i % 2] == [True] * 50
    final = await db.digits.require_match(match.match_id)
    # No lost update: every fresh save counted, none was overwritten.
    assert final.state["saves"] == 50
    assert final.version == 2 + 50


async def test_100_tasks_reading_then_saving_once_count_successes_equal_to_versions(
    db: Database,
) -> None:
    match = await db.digits.create_match(GUILD, [10, 11], {"saves": 0}, status="active")

    async def read_then_save(i: int) -> int | None:
        current = await db.digits.require_match(match.match_id)
        await asyncio.sleep(0)  # let the others read too: most will then be stale
        try:
            return await db.digits.save_match(
                match.match_id, {"saves": current.state["saves"] + 1}, current.version
            )
        except StaleVersion as refused:
            assert refused.code == "db.stale"
            assert refused.params["actual"] > refused.params["expected"]
            return None

    versions = await asyncio.gather(*(read_then_save(i) for i in range(100)))
    won = sorted(v for v in versions if v is not None)
    final = await db.digits.require_match(match.match_id)
    assert len(won) >= 1
    assert won == list(range(2, final.version + 1))  # each version won by exactly one task
    assert final.state["saves"] == len(won) == final.version - 1


async def test_two_clicks_cannot_spend_the_same_gold_twice(db: Database) -> None:
    match = await db.digits.create_match(GUILD, [10, 11], {"gold": 5}, status="active")

    async def buy(cost: int) -> bool:
        current = await db.digits.require_match(match.match_id)
        await asyncio.sleep(0)
        if current.state["gold"] < cost:
            return False
        try:
            await db.digits.save_match(
                match.match_id, {"gold": current.state["gold"] - cost}, current.version
            )
        except StaleVersion:
            return False
        return True

    assert sorted(await asyncio.gather(buy(3), buy(3))) == [False, True]
    assert (await db.digits.require_match(match.match_id)).state == {"gold": 2}

    # Gold kept on the player is checked and spent in one statement.
    await db.players.add_gold(GUILD, 10, 5)
    spends = await asyncio.gather(
        *(db.players.add_gold(GUILD, 10, -3) for _ in range(10)), return_exceptions=True
    )
    assert sum(isinstance(s, int) for s in spends) == 1
    assert {s.code for s in spends if isinstance(s, DomainError)} == {"player.not_enough_gold"}
    assert (await db.players.require(GUILD, 10)).gold == 2


async def test_saving_a_missing_match_says_not_found(db: Database) -> None:
    with pytest.raises(DomainError) as missing:
        await db.digits.save_match(404, {}, 1)
    assert missing.value.code == "db.not_found"
    assert not isinstance(missing.value, StaleVersion)


# --- Backup -------------------------------------------------------------------------------


async def _seed_some_rows(db: Database) -> None:
    await db.servers.update(GUILD, language="fr", daily_channel_id=5)
    await db.focus.record_many(
        [answer(u, given=u % 5, at=T0 + timedelta(minutes=u)) for u in range(20)]
    )
    match = await db.digits.create_match(GUILD, [10, 11], {"round": 1}, status="active")
    await db.digits.record_ghost(match.match_id, 10, 1, {"1": "Odd"})
    await db.digits.finish_match(match.match_id, {"round": 2}, match.version, {10: 1.0, 11: 0.0})
    await db.daily.create(GUILD, date(2026, 11, 30), [{"text": "1 + 1", "answer": 2}])


@pytest.mark.sqlite_only
async def test_backup_opens_and_holds_the_same_rows(db: Database, tmp_path: Path) -> None:
    await _seed_some_rows(db)
    dest = await db.backup(tmp_path / "backups" / "copy.sqlite3")
    assert dest.is_file()
    assert not dest.with_name("copy.sqlite3.partial").exists()
    assert table_rows(dest) == table_rows(db.path)
    copy = await Database.open(dest)
    try:
        assert copy.version == LATEST_VERSION
        assert (await copy.servers.get(GUILD)).language == "fr"
        assert len(await copy.focus.recent(GUILD, 3)) == 1
    finally:
        await copy.close()


@pytest.mark.sqlite_only
async def test_backup_during_writes_is_a_consistent_snapshot(db: Database, tmp_path: Path) -> None:
    await _seed_some_rows(db)

    async def keep_writing() -> None:
        for i in range(200):
            async with db.transaction():
                # Each transaction adds two answers: a snapshot holds an even number.
                await db.focus.record(answer(500, at=T0 + timedelta(seconds=i)))
                await db.focus.record(answer(500, at=T0 + timedelta(seconds=i, milliseconds=1)))

    writer = asyncio.create_task(keep_writing())
    await asyncio.sleep(0)
    dest = await db.backup(tmp_path / "live.sqlite3")
    await writer
    conn = sqlite3.connect(dest)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        count = conn.execute("SELECT count(*) FROM focus_answers WHERE user_id = 500").fetchone()[0]
    finally:
        conn.close()
    assert count % 2 == 0


@pytest.mark.sqlite_only
async def test_backup_refuses_to_overwrite_its_own_database(db: Database) -> None:
    with pytest.raises(ValueError, match="overwrite"):
        await db.backup(db.path)


async def test_a_postgresql_backup_is_pg_dumps_and_restores(
    db: Database, tmp_path: Path, postgres_databases: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    if db.engine == "sqlite":
        pytest.skip("pg_dump backs up PostgreSQL (SQLite's backup is tested above)")
    await _seed_some_rows(db)
    dest = await db.backup(tmp_path / "backups" / "ardoise.dump")
    assert dest.is_file() and not dest.with_name("ardoise.dump.partial").exists()
    restored = await postgres_databases.new(empty=True)  # type: ignore[attr-defined]
    try:
        process = await asyncio.create_subprocess_exec(
            "pg_restore", "--no-owner", f"--dbname={restored}", str(dest),
            stderr=asyncio.subprocess.PIPE)
        _, errors = await process.communicate()
        assert process.returncode == 0, errors.decode()
        copy = await Database.open(restored)
        try:
            assert copy.version == LATEST_VERSION
            assert (await copy.servers.get(GUILD)).language == "fr"
            for table in ("focus_answers", "digits_matches", "focus_rollup", "daily_challenges"):
                count = f"SELECT count(*) FROM {table}"
                assert (await copy.connection.one(count)) == (await db.connection.one(count))
        finally:
            await copy.close()
    finally:
        await postgres_databases.drop(restored)  # type: ignore[attr-defined]
    # Without pg_dump: the command to run, its password hidden.
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(OSError, match="pg_dump is not installed") as missing:
        await db.backup(tmp_path / "again.dump")
    assert "then run: pg_dump --format=custom --no-owner --file" in str(missing.value)
    assert not (tmp_path / "again.dump").exists()


# --- Command line -------------------------------------------------------------------------


def test_cli_backup_export_and_delete(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ardoise.sqlite3"

    async def seed() -> None:
        db = await Database.open(path)
        try:
            await _seed_some_rows(db)
        finally:
            await db.close()

    asyncio.run(seed())
    assert cli(["backup", str(tmp_path / "b.sqlite3"), "--db", str(path)]) == 0
    assert "backed up" in capsys.readouterr().out
    assert table_rows(tmp_path / "b.sqlite3") == table_rows(path)

    assert cli(["export-player", str(GUILD), "10", "--db", str(path)]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert (exported["guild_id"], exported["user_id"]) == (GUILD, 10)
    assert len(exported["focus_answers"]) == 1

    out = tmp_path / "player.json"
    assert cli(["export-player", str(GUILD), "10", "--db", str(path), "--out", str(out)]) == 0
    assert json.loads(out.read_text())["digits_ghosts"][0]["slate"] == {"1": "Odd"}
    capsys.readouterr()

    assert cli(["delete-player", str(GUILD), "10", "--db", str(path)]) == 0
    assert "focus_answers 1" in capsys.readouterr().out
    assert cli(["export-player", str(GUILD), "10", "--db", str(path)]) == 1
    assert "no player" in capsys.readouterr().err


def test_cli_reports_a_newer_database_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ardoise.sqlite3"
    assert cli(["migrate", "--db", str(path)]) == 0
    assert f"schema version {LATEST_VERSION}" in capsys.readouterr().out
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO schema_migrations VALUES (999, 'future', 'x')")
    conn.commit()
    conn.close()
    assert cli(["backup", str(tmp_path / "b.sqlite3"), "--db", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "database version 999 is newer than this Ardoise" in err
