"""Issue 24: what a round needs read in one hop (``FocusRepository.for_round``), and the answers
of many members given at the same moment committed together (``Connection.grouped``): the same
rows as one at a time, fewer hops to SQLite's thread, and a refusal that spoils only its own."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import aiosqlite
import pytest

from bot.focus.mastery import Mastery
from db import Database, FocusAnswer
from db.connection import Connection

G = 10
NOW = datetime(2026, 12, 1, 9, tzinfo=UTC)
MEMBERS = list(range(100, 130))


def answer(user: int, no: int, given: int, key: str = "practice:r1") -> FocusAnswer:
    a, b = 3 + no, 7
    return FocusAnswer(guild_id=G, user_id=user, topic="multiplication", level=4,
                       question=f"{a} × {b}", expected=a * b, given=given, time_ms=1500 + no,
                       answered_at=NOW + timedelta(seconds=5 * no), round_key=key,
                       question_no=no)


class Hops:
    """The functions queued to aiosqlite's threads (a statement, or a job of several)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        original = aiosqlite.Connection._execute

        async def counted(connection: aiosqlite.Connection, fn: Any, *args: Any,
                          **kwargs: Any) -> Any:
            self.count += 1
            return await original(connection, fn, *args, **kwargs)

        monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)


@pytest.fixture
def hops(monkeypatch: pytest.MonkeyPatch) -> Iterator[Hops]:
    yield Hops(monkeypatch)


async def _models(db: Database) -> dict[int, Mastery]:
    await db.players.ensure_many([(G, user) for user in MEMBERS])
    return {user: await db.mastery.load(G, user) for user in MEMBERS}


async def test_answers_given_at_once_are_stored_as_one_at_a_time(db: Database) -> None:
    known = await _models(db)
    together = await asyncio.gather(*(
        db.focus.record(answer(user, 0, 21 + user % 2), known=known[user]) for user in MEMBERS))
    assert together == [True] * len(MEMBERS)
    # The same answers again, one at a time, for members of another round: the same mastery.
    for user in MEMBERS:
        assert await db.focus.record(answer(user, 1, 24), known=known[user])
    for user in MEMBERS:
        stored = await db.mastery.load(G, user)
        assert stored == known[user]
        assert stored.fact("3*7").answers == 1 and stored.fact("4*7").answers == 1
        assert [a.question_no for a in await db.focus.round_answers(G, user, "practice:r1")] \
            == [0, 1]
        assert (await db.focus.round_answers(G, user, "practice:r1"))[0].correct \
            == (user % 2 == 0)


@pytest.mark.sqlite_only  # the hops to aiosqlite's thread
async def test_answers_given_at_once_take_one_hop(db: Database, hops: Hops) -> None:
    known = await _models(db)
    hops.count = 0
    await asyncio.gather(*(db.focus.record(answer(user, 0, 21), known=known[user])
                           for user in MEMBERS))
    # The first finds the writer free and goes at once; the 29 others wait for it together.
    assert hops.count == 2, "30 answers, two jobs in the writer's thread"
    hops.count = 0
    assert await db.focus.record(answer(MEMBERS[0], 1, 24), known=known[MEMBERS[0]])
    assert hops.count == 1, "alone, one statement as before"


async def test_a_refusal_in_a_group_spoils_only_its_own_answer(db: Database) -> None:
    known = await _models(db)
    ana, bob, cat = MEMBERS[:3]
    assert await db.focus.record(answer(ana, 0, 21), known=known[ana])
    # Bob's model goes stale: another round of his (a match's) moves the same fact meanwhile.
    assert await db.focus.record(answer(bob, 0, 21, key="match:1:1"))
    results = await asyncio.gather(
        db.focus.record(answer(ana, 0, 21), known=known[ana]),  # stored already: refused
        db.focus.record(answer(bob, 0, 20), known=known[bob]),  # stale: the long way
        db.focus.record(answer(cat, 0, 21), known=known[cat]),
    )
    assert results == [False, True, True]
    assert (await db.mastery.load(G, ana)).fact("3*7").answers == 1
    bobs = await db.mastery.load(G, bob)
    assert bobs.fact("3*7").answers == 2 and known[bob].fact("3*7") == bobs.fact("3*7")
    assert (await db.mastery.load(G, cat)).fact("3*7").answers == 1


async def test_a_round_reads_what_it_needs_at_once_and_makes_a_newcomer(db: Database) -> None:
    await db.servers.update(G, focus_level_min=2, now=NOW)
    newcomer = await db.focus.for_round(G, 7, NOW, recent=100, make_player=True)
    assert newcomer.player is None and newcomer.recent == []
    assert newcomer.settings.focus_level_min == 2
    assert newcomer.student == await db.students.get(G, 7)
    assert await db.players.get(G, 7) is not None  # made
    assert await db.focus.record(answer(7, 0, 21), known=newcomer.mastery)
    again = await db.focus.for_round(G, 7, NOW, recent=100)
    assert again.player == await db.players.get(G, 7)
    assert again.mastery == await db.mastery.load(G, 7)
    assert again.recent == await db.focus.recent(G, 7, limit=100)
    assert again.student == await db.students.get(G, 7)


async def test_a_servers_settings_are_kept_and_forgotten_at_a_change(db: Database) -> None:
    first = await db.servers.get(G)
    assert db.servers.kept(G) == first
    changed = await db.servers.update(G, focus_level_max=5, now=NOW)
    assert db.servers.kept(G) is None
    assert await db.servers.get(G) == changed and changed.focus_level_max == 5
    await db.servers.set_admin_roles(G, [3])
    assert (await db.servers.get(G)).admin_role_ids == frozenset({3})


async def test_another_processs_change_is_seen_by_the_versions_watch(db_location: Any) -> None:
    first, second = await Database.open(db_location), await Database.open(db_location)
    try:
        kept = await first.servers.get(G)
        assert kept.focus_level_max != 4
        await second.servers.update(G, focus_level_max=4, now=NOW)
        assert await first.servers.get(G) == kept  # kept: another process's change not seen yet
        await first.servers.versions([G])  # the bot's watch, every 5 s
        assert (await first.servers.get(G)).focus_level_max == 4
    finally:
        await first.close()
        await second.close()


@pytest.mark.sqlite_only  # the hops to aiosqlite's thread
async def test_newcomers_starting_at_once_get_their_rows_together(
        db: Database, hops: Hops, monkeypatch: pytest.MonkeyPatch) -> None:
    # The writer busy (another task's transaction) until the 30 newcomers have read: each then
    # finds it busy and waits, as a class starting at once does on a loaded bot. (With the
    # writer free, how many wait together depends on the threads' scheduling.)
    done: list[int] = []
    all_read = asyncio.Event()
    reads_of = Connection.reads

    async def reads(conn: Connection, statements: Any) -> Any:
        rows = await reads_of(conn, statements)
        done.append(1)
        if len(done) == len(MEMBERS):
            all_read.set()
        return rows

    monkeypatch.setattr(Connection, "reads", reads)

    async def busy_writer() -> None:
        async with db.transaction():
            await all_read.wait()

    hops.count = 0
    busy = asyncio.create_task(busy_writer())
    reads = await asyncio.gather(*(db.focus.for_round(G, user, NOW, make_player=True)
                                   for user in MEMBERS))
    await busy
    # A hop each for the reads, two for the busy transaction (BEGIN, COMMIT), and the 30
    # members' rows all in one.
    assert hops.count == len(MEMBERS) + 2 + 1
    assert all(read.player is None for read in reads)
    assert None not in [await db.players.get(G, user) for user in MEMBERS]
