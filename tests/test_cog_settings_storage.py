"""What the settings and progress cogs added to storage: the match's rounds and draft defaults
(migration 4) and the days a member finished the daily challenge."""

from __future__ import annotations

import sqlite3
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from bot.digits.shop import MatchSettings
from bot.domain import DomainError
from db import Database, ServerSettings

GUILD, OTHER = 1, 2
T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def test_the_match_defaults_are_the_engines():
    engine, server = MatchSettings(), ServerSettings(GUILD)
    assert (server.match_lives, server.match_gold, server.match_rounds, server.match_draft) == (
        engine.lives, engine.base_gold, engine.rounds, engine.draft)


async def test_match_rounds_and_draft_are_saved_and_read_back(db: Database):
    await db.servers.update(GUILD, match_rounds=8, match_draft=True)
    settings = await db.servers.get(GUILD)
    assert (settings.match_rounds, settings.match_draft) == (8, True)
    assert (await db.servers.get(OTHER)).match_rounds == 15


@pytest.mark.parametrize(("change", "setting"), [
    ({"match_rounds": 0}, "match_rounds"),
    ({"match_rounds": 100}, "match_rounds"),
    ({"match_draft": 1}, "match_draft"),
])
async def test_bad_match_rounds_or_draft_are_refused_and_change_nothing(db, change, setting):
    await db.servers.update(GUILD, match_rounds=9)
    with pytest.raises(DomainError) as refused:
        await db.servers.update(GUILD, match_lives=3, **change)
    assert refused.value.code == "settings.invalid"
    assert refused.value.params["setting"] == setting
    settings = await db.servers.get(GUILD)
    assert (settings.match_lives, settings.match_rounds, settings.match_draft) == (10, 9, False)


async def test_a_version_3_database_gets_the_match_defaults(tmp_path: Path):
    path = tmp_path / "old.sqlite3"
    old = await Database.open(path, target_version=3)
    await old.close()
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO servers (guild_id, match_lives, created_at, updated_at)"
                 " VALUES (1, 7, '2026-01-05 10:00:00.000', '2026-01-05 10:00:00.000')")
    conn.commit()
    conn.close()
    db = await Database.open(path)
    try:
        settings = await db.servers.get(1)
        assert (settings.match_lives, settings.match_rounds, settings.match_draft) == (7, 15, False)
    finally:
        await db.close()


async def test_days_played_are_the_finished_daily_challenges_oldest_first(db: Database):
    for day in (date(2026, 11, 28), date(2026, 11, 20), date(2026, 11, 29)):
        await db.daily.create(GUILD, day, [])
        await db.daily.start_attempt(GUILD, day, 10, now=T0)
        await db.daily.finish_attempt(GUILD, day, 10, score=4, time_ms=20000, now=T0)
    await db.daily.create(GUILD, date(2026, 11, 30), [])
    await db.daily.start_attempt(GUILD, date(2026, 11, 30), 10, now=T0)  # not finished
    await db.daily.start_attempt(GUILD, date(2026, 11, 29), 11, now=T0)
    await db.daily.finish_attempt(GUILD, date(2026, 11, 29), 11, score=6, time_ms=1, now=T0)

    assert await db.daily.days_played(GUILD, 10) == [
        date(2026, 11, 20), date(2026, 11, 28), date(2026, 11, 29)]
    assert await db.daily.days_played(GUILD, 10, since=date(2026, 11, 28)) == [
        date(2026, 11, 28), date(2026, 11, 29)]
    assert await db.daily.days_played(GUILD, 11) == [date(2026, 11, 29)]
    assert await db.daily.days_played(OTHER, 10) == []
