"""How long a server keeps its answers (issue 23), without Discord: the rules of
``bot.play.retention`` (the choices a teacher makes, the moment before which data goes), and the
erasure by age of ``db.retention`` on both databases, in small batches: what is older goes, what
is newer and the other servers' stay, the class report's rollups and the mastery match the
answers left; ``python -m db purge`` does the same by hand."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.domain import DomainError
from bot.focus.mastery import Mastery
from bot.play import retention
from db import Database, FocusAnswer, ServerSettings
from db.__main__ import main as cli
from db.class_report import span_of
from db.connection import from_db_time
from db.mastery import _Stored, evidence

G, OTHER = 10, 20
ANA, BOB = 101, 102
NOW = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)
PARIS = ZoneInfo("Europe/Paris")


# --- The rules ---------------------------------------------------------------------------------


def test_the_choices_are_checked_before_anything_is_saved() -> None:
    today = date(2026, 12, 1)
    assert retention.check_retention("days", 30, None, today) == {
        "retention_days": 30, "retention_until": None}
    assert retention.check_retention("forever", None, None, today) == {
        "retention_days": None, "retention_until": None}
    assert retention.check_retention("school_year", None, "2027-07-04", today) == {
        "retention_days": None, "retention_until": date(2027, 7, 4)}
    assert retention.check_retention("school_year", None, " 04/07/2027 ", today)[
        "retention_until"] == date(2027, 7, 4)
    refused = {
        ("days", None, None): "settings.retention.days_missing",
        ("days", 6, None): "settings.retention.days_out_of_range",
        ("days", 3651, None): "settings.retention.days_out_of_range",
        ("forever", 30, None): "settings.retention.days_unused",
        ("school_year", 30, "2027-07-04"): "settings.retention.days_unused",
        ("school_year", None, None): "settings.retention.until_missing",
        ("school_year", None, "2026-12-01"): "settings.retention.until_out_of_range",
        ("school_year", None, "2030-07-04"): "settings.retention.until_out_of_range",
        ("school_year", None, "2027-02-30"): "settings.retention.bad_date",
        ("school_year", None, "next july"): "settings.retention.bad_date",
        ("days", 30, "2027-07-04"): "settings.retention.until_unused",
        ("weeks", None, None): "settings.retention.unknown",
    }
    for (kind, days, until), code in refused.items():
        with pytest.raises(DomainError) as caught:
            retention.check_retention(kind, days, until, today)
        assert caught.value.code == code, (kind, days, until)


def test_the_moment_before_which_data_goes() -> None:
    days = ServerSettings(G, retention_days=30)
    assert retention.cutoff(days, NOW) == NOW - timedelta(days=30)
    assert retention.cutoff(ServerSettings(G, retention_days=None), NOW) is None
    # The school year ends on 4 July in Paris: kept through that day, all of it goes after.
    year = ServerSettings(G, retention_days=None, retention_until=date(2027, 7, 4),
                          timezone="Europe/Paris")
    last_evening = datetime(2027, 7, 4, 23, 30, tzinfo=PARIS)
    assert retention.cutoff(year, last_evening) is None
    after = retention.cutoff(year, datetime(2027, 7, 5, 0, 10, tzinfo=PARIS))
    assert after == datetime(2027, 7, 5, 0, 0, tzinfo=PARIS)
    # And it stays that moment: what came after the school year is kept.
    assert retention.cutoff(year, datetime(2027, 9, 3, tzinfo=UTC)) == after
    # A new server keeps a year; the servers already there were left at for ever (migration 17).
    assert ServerSettings(G).retention_days == 365


# --- The erasure -------------------------------------------------------------------------------


def answer(user: int, n: int, at: datetime, guild: int = G) -> FocusAnswer:
    """The n-th answer of a varied set: every kind of round, topics, right and wrong, times."""
    kinds = [("practice", f"practice:t{n // 3}"), ("daily", "daily:2026-10-01"),
             ("live", "live:4"), ("match", "match:9:1"), ("assignment", "assignment:3")]
    source, key = kinds[n % len(kinds)]
    a, b = 2 + n % 7, 3 + n % 5
    topic = ("multiplication", "addition")[n % 2]
    question, expected = (f"{a} × {b}", a * b) if n % 2 == 0 else (f"{a} + {b}", a + b)
    return FocusAnswer(guild, user, topic, 1 + n % 3, question, expected,
                       expected if n % 4 else expected + 1, 700 + 1300 * (n % 9),
                       source=source, answered_at=at, round_key=f"{key}:{user}:{n}",
                       question_no=0)


async def fill(db: Database) -> tuple[datetime, list[FocusAnswer]]:
    """Answers over 80 days before NOW; the moment 30 days before NOW, and those after it."""
    for guild in (G, OTHER):
        for user in (ANA, BOB):
            await db.players.ensure(guild, user)
    await db.servers.update(G, retention_days=30)
    made = []
    for n in range(80):
        at = NOW - timedelta(days=80 - n, minutes=7 * n)
        for user in (ANA, BOB) if n % 3 else (ANA,):
            made.append(answer(user, n, at))
        made.append(answer(BOB, n, at, OTHER))
    for one in made:
        await db.focus.record(one)
    before = NOW - timedelta(days=30)
    return before, [a for a in made if a.guild_id == G and a.answered_at >= before]  # type: ignore[operator]


async def remaining(db: Database, guild: int) -> list[dict]:
    rows = await db.connection.all(
        "SELECT * FROM focus_answers WHERE guild_id = ? ORDER BY answered_at, answer_id",
        (guild,))
    return [dict(zip(row.keys(), tuple(row), strict=True)) for row in rows]


async def assert_rollups_match_the_answers(db: Database, guild: int) -> None:
    """The class report's figures, all time and per period, recomputed from the answers left."""
    rows = await remaining(db, guild)
    expected: dict[tuple[int, str], list[int]] = {}
    for row in rows:
        tally = expected.setdefault((row["user_id"], row["topic"]), [0, 0, *[0] * 16])
        tally[0] += 1
        tally[1] += row["correct"]
        tally[2 + span_of(row["time_ms"])] += 1
    stored = {(r.user_id, r.topic): [r.tally.answers, r.tally.correct, *r.tally.spans]
              for r in await db.class_report.tallies(guild)}
    assert stored == expected
    since = NOW - timedelta(days=7)
    week = {(r.user_id, r.topic): [r.tally.answers, r.tally.correct]
            for r in await db.class_report.tallies(guild, since=since)}
    recent: dict[tuple[int, str], list[int]] = {}
    for row in rows:
        if from_db_time(row["answered_at"]) >= since:  # type: ignore[operator]
            tally = recent.setdefault((row["user_id"], row["topic"]), [0, 0])
            tally[0] += 1
            tally[1] += row["correct"]
    assert week == recent
    # The pseudonyms' order is the first answer left, not one erased.
    firsts = {}
    for row in rows:
        slot = int(from_db_time(row["answered_at"]).timestamp()) // 900  # type: ignore[union-attr]
        firsts.setdefault(row["user_id"], slot)
    assert await db.class_report.first_answers(guild) == sorted(firsts, key=lambda u: (
        firsts[u], u))
    stored_firsts = await db.connection.all(
        "SELECT user_id, topic, first_slot FROM focus_rollup_total WHERE guild_id = ?", (guild,))
    for row in stored_firsts:
        assert row["first_slot"] == min(
            int(from_db_time(r["answered_at"]).timestamp()) // 900  # type: ignore[union-attr]
            for r in rows if (r["user_id"], r["topic"]) == (row["user_id"], row["topic"]))


async def test_what_is_older_goes_in_batches_and_the_figures_follow(db: Database) -> None:
    before, kept = await fill(db)
    ana_before = await db.mastery.load(G, ANA, NOW)
    old = [r for r in await remaining(db, G) if from_db_time(r["answered_at"]) < before]  # type: ignore[operator]
    other_before = await remaining(db, OTHER)

    counts = await db.retention.purge(G, before, batch=7)

    assert counts["focus_answers"] == len(old) > 7 * 3  # several batches
    left = await remaining(db, G)
    assert [(r["user_id"], r["round_key"]) for r in left] == [
        (a.user_id, a.round_key) for a in sorted(kept, key=lambda a: (a.answered_at, a.user_id))]
    assert all(from_db_time(r["answered_at"]) >= before for r in left)  # type: ignore[operator]
    assert await remaining(db, OTHER) == other_before  # another server keeps its own
    await assert_rollups_match_the_answers(db, G)
    await assert_rollups_match_the_answers(db, OTHER)

    # The mastery is made again from the answers left, not kept from the erased ones.
    ana = await db.mastery.load(G, ANA, NOW)
    replay = Mastery()
    for row in await db.connection.all(
            "SELECT * FROM focus_answers WHERE guild_id = ? AND user_id = ?"
            " ORDER BY answered_at, answer_id", (G, ANA)):
        replay.record(evidence(_Stored(row), NOW))
    assert ana.items == replay.items
    assert ana.items != ana_before.items
    # A second run finds nothing more.
    again = await db.retention.purge(G, before, batch=7)
    assert set(again.values()) == {0}


async def test_the_daily_task_erases_only_the_servers_with_a_retention_it_owns(
        db: Database) -> None:
    before, kept = await fill(db)
    await db.servers.update(OTHER, retention_days=None)  # for ever
    other_before = await remaining(db, OTHER)
    done = await retention.purge_due(db, NOW, owns=lambda guild: guild != G)
    assert done == [] and len(await remaining(db, G)) > len(kept)  # not this process's server
    [purged] = await retention.purge_due(db, NOW)
    assert (purged.guild_id, purged.before, purged.told) == (G, before, None)
    assert len(await remaining(db, G)) == len(kept)
    assert await remaining(db, OTHER) == other_before


async def test_the_end_of_the_school_year_is_told_once(db: Database) -> None:
    await db.players.ensure(G, ANA)
    await db.servers.update(G, retention_days=None, retention_until=date(2026, 11, 20))
    [first] = await retention.purge_due(db, NOW)
    assert first.told == date(2026, 11, 20)
    [second] = await retention.purge_due(db, NOW + timedelta(days=1))
    assert second.told is None
    assert second.before == datetime(2026, 11, 21, tzinfo=UTC)


async def run_cli(*args: str) -> int:
    # The command line runs its own event loop: in a thread.
    return await asyncio.to_thread(cli, list(args))


async def test_purge_by_hand(db_location: Path | str, capsys: pytest.CaptureFixture[str]
                             ) -> None:
    async with await Database.open(db_location) as db:
        before, _ = await fill(db)
        await db.servers.update(G, timezone="Europe/Paris", retention_days=None)
        day = before.astimezone(PARIS).date()
        midnight = datetime.combine(day, time(), PARIS)
        old = [r for r in await remaining(db, G)
               if from_db_time(r["answered_at"]) < midnight]  # type: ignore[operator]
    code = await run_cli("purge", "--server", str(G), "--before", day.isoformat(),
                         "--db", str(db_location))
    assert code == 0
    out = capsys.readouterr().out
    assert f"erased in server {G} before {midnight.isoformat()}:" in out
    assert f"focus_answers {len(old)}," in out and "digits_matches 0" in out
    async with await Database.open(db_location) as db:
        left = await remaining(db, G)
        assert left and all(from_db_time(r["answered_at"]) >= midnight  # type: ignore[operator]
                            for r in left)
        await assert_rollups_match_the_answers(db, G)
    with pytest.raises(SystemExit):  # argparse's refusal of a date it cannot read
        cli(["purge", "--server", str(G), "--before", "next monday", "--db", str(db_location)])


async def test_an_upgrade_keeps_the_servers_already_there_for_ever(
        empty_db_location: Path | str) -> None:
    # A server using Ardoise before the retention existed loses nothing by the upgrade; a server
    # that comes after keeps a year.
    async with await Database.open(empty_db_location, target_version=16) as old:
        await old.servers.ensure(G)
        await old.players.ensure(G, ANA)
    async with await Database.open(empty_db_location) as db:
        assert (await db.servers.get(G)).retention_days is None
        assert await db.servers.with_retention() == []
        await db.servers.ensure(OTHER)
        assert (await db.servers.get(OTHER)).retention_days == 365
        assert [s.guild_id for s in await db.servers.with_retention()] == [OTHER]


async def test_the_students_exports_and_erasure_skip_one_erased_meanwhile(db: Database) -> None:
    await fill(db)
    await db.delete_player(G, BOB)
    exported = await retention.exports(db, G, [ANA, BOB])
    assert [uid for uid, _ in exported] == [ANA]
    assert exported[0][1]["focus_answers"]
    counts = await retention.erase(db, G, [ANA, BOB])
    assert counts["players"] == 1 and counts["focus_answers"] > 0
    assert await db.retention.members(G) == []
    assert await db.retention.members(OTHER) == [ANA, BOB]  # another server keeps its own
