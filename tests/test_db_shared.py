"""Two processes on one database (issue 18): two ``Database`` objects opened on the same
database, as two bot processes would (``shared_database``: a SQLite file, or the server of
``ARDOISE_TEST_DATABASE_URL``), writing at the same moment. The ratings never lose a game, a
daily post is claimed by one of them only, and a change of settings is seen by the other."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta

import pytest_asyncio

from db import Database

GUILD = 1 << 22
APP = 900_000_000_000_000_001
T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest_asyncio.fixture
async def two(shared_database: str) -> AsyncIterator[tuple[Database, Database]]:
    first = await Database.open(shared_database)
    second = await Database.open(shared_database)
    try:
        yield first, second
    finally:
        await second.close()
        await first.close()


async def test_ratings_stay_right_when_two_processes_rate_games_at_once(
        two: tuple[Database, Database]) -> None:
    rng = random.Random(18)
    players = [10, 11, 12, 13]
    games = []
    for n in range(60):
        a, b = rng.sample(players, 2)
        games.append((two[n % 2], a, b, rng.choice((1.0, 0.5, 0.0))))

    async def rate(db: Database, a: int, b: int, score: float) -> None:
        await db.players.record_game(GUILD, "rithmo", a, b, score, now=T0)

    await asyncio.gather(*(rate(*game) for game in games))
    played = Counter(u for _, a, b, _ in games for u in (a, b))
    wins = Counter(a if s == 1.0 else b for _, a, b, s in games if s != 0.5)
    first, second = two
    for user in players:
        seen = await second.players.rating(GUILD, user, "rithmo")
        assert seen.games == played[user], user  # no game lost to a concurrent write
        assert seen.wins == wins[user]
        assert seen.wins + seen.losses + seen.draws == seen.games
    board = await first.players.leaderboard(GUILD, "rithmo")
    assert sorted(row.user_id for row in board) == players
    assert sum(row.games for row in board) == 2 * len(games)


async def test_a_daily_post_is_claimed_by_one_process_only(two: tuple[Database, Database]
                                                           ) -> None:
    first, second = two
    day = date(2026, 12, 1)
    await first.daily.create(GUILD, day, [{"q": 1}], now=T0)
    until = T0 + timedelta(minutes=10)
    claims = await asyncio.gather(*(
        db.daily.claim_post(GUILD, day, f"process-{n % 2}", until, T0)
        for n, db in enumerate([first, second] * 10)))
    winner = "process-0" if claims[0] else "process-1"
    assert {f"process-{n % 2}" for n, won in enumerate(claims) if won} == {winner}
    # The winner may claim again (its own loop, a minute later); the other not, until it lapses.
    loser = "process-1" if winner == "process-0" else "process-0"
    assert await second.daily.claim_post(GUILD, day, winner, until, T0 + timedelta(minutes=1))
    assert not await first.daily.claim_post(GUILD, day, loser, until, T0 + timedelta(minutes=1))
    later = until + timedelta(seconds=1)
    assert await first.daily.claim_post(GUILD, day, loser, later + timedelta(minutes=10), later)
    # Posted: nobody claims it any more.
    await second.daily.set_message(GUILD, day, 5, 6)
    assert not await first.daily.claim_post(GUILD, day, loser, later, later + timedelta(hours=1))


async def test_a_change_of_settings_moves_the_version_the_other_process_reads(
        two: tuple[Database, Database]) -> None:
    first, second = two
    other = GUILD + (1 << 22)
    assert await first.servers.versions([GUILD, other]) == {GUILD: 0, other: 0}
    changed = await second.servers.update(GUILD, language="fr", now=T0)
    assert changed.version == 1
    assert await first.servers.versions([GUILD, other]) == {GUILD: 1, other: 0}
    await second.servers.set_admin_roles(GUILD, [7])
    assert (await first.servers.get(GUILD)).version == 2
    assert await first.servers.versions([GUILD]) == {GUILD: 2}
    many = [GUILD + (n << 22) for n in range(1200)]  # more than one statement's batch
    assert (await first.servers.versions(many))[GUILD] == 2


async def test_a_late_player_is_warned_by_one_process_only(two: tuple[Database, Database]
                                                           ) -> None:
    first, second = two
    game = await first.rithmo.create_game(
        GUILD, white_id=10, black_id=11, victories={}, position={"p": 0}, status="active",
        deadline=T0, now=T0 - timedelta(hours=1))
    match = await first.digits.create_match(GUILD, [10, 11], {"gold": 5}, status="active",
                                            now=T0)
    for kind, key in (("rithmo", game.game_id), ("digits", match.match_id)):
        warned = await asyncio.gather(*(
            db.games.mark_warned(kind, key, grace_deadline=T0 + timedelta(hours=6), now=T0)
            for db in (first, second, first, second)))
        assert sorted(warned) == [False, False, False, True], kind
    assert (await second.rithmo.require_game(game.game_id)).deadline == T0 + timedelta(hours=6)


# --- One process per shard: the leases (issue 23) ----------------------------------------------


async def test_a_shards_lease_goes_to_one_process_until_it_runs_out_or_is_given_back(
        two: tuple[Database, Database]) -> None:
    first, second = two
    assert await first.leases.take(APP, [0], 2, "first", 30) == []
    [held] = await second.leases.take(APP, [0, 1], 2, "second", 30)  # all or nothing: not even 1
    assert (held.shard_id, held.holder) == (0, "first")
    assert [lease.shard_id for lease in await first.leases.held(APP)] == [0]
    assert await second.leases.take(APP, [1], 2, "second", 30) == []
    # A renewal moves the holder's own lease on; another holder's stays in the way.
    assert await first.leases.take(APP, [0], 2, "first", 30) == []
    assert [(lease.shard_id, lease.holder) for lease in await second.leases.held(APP)] == [
        (0, "first"), (1, "second")]
    # A process of another shard count overlaps every shard of this one.
    [in_the_way, _] = await first.leases.take(APP, [2], 3, "third", 30)
    assert in_the_way.holder == "first"
    # Given back at a clean stop: free at once for the next one.
    assert await first.leases.release("first") == 1
    assert await second.leases.take(APP, [0, 1], 2, "second", 30) == []
    # A lease that ran out (a process that died: nothing renews it) is free too.
    assert await second.leases.take(APP, [0, 1], 2, "second", 0) == []
    assert await second.leases.held(APP) == []
    assert await first.leases.take(APP, [0, 1, 2], 3, "third", 30) == []
    assert {lease.holder for lease in await first.leases.held(APP)} == {"third"}
    # Another bot (application) on the same database has shards of its own.
    assert await second.leases.take(APP + 1, [0], 1, "another bot", 30) == []
    assert [lease.holder for lease in await first.leases.held(APP + 1)] == ["another bot"]


async def test_of_two_processes_asking_for_one_shard_at_once_exactly_one_gets_it(
        two: tuple[Database, Database]) -> None:
    for attempt in range(10):
        holders = [f"a{attempt}", f"b{attempt}"]
        refused = await asyncio.gather(*(db.leases.take(APP, [0, 1], 2, holder, 30)
                                         for db, holder in zip(two, holders, strict=True)))
        assert sorted(len(r) for r in refused) == [0, 2], refused
        winner = holders[[len(r) for r in refused].index(0)]
        assert {lease.holder for lease in await two[0].leases.held(APP)} == {winner}
        await two[0].leases.release(winner)
