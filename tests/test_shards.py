"""Several bot processes, each on its own shards, sharing one database (issue 18).

The stand-in for Discord sends a server's events only to the connection of its shard
(``(guild_id >> 22) % shard_count``), lists in READY only that shard's servers and recommends a
shard count at ``GET /gateway/bot``. Two bots run shard 0 and shard 1 of 2 on one database
(``shared_database``): in this test process (the background tasks called by the tests, with
their clocks), then as two real processes (``python -m tools.load --serve-bot`` with
``ARDOISE_SHARDS``), one of them restarted mid-game. Games on the servers of both shards go on,
and nothing is done twice: each daily challenge is posted once, each late player warned once,
by the process of their server."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.app import create_bot
from bot.local import StandIn
from bot.local.server import Guild, Member, Message
from bot.rithmo import Board
from bot.settings import Config, ConfigError
from bot.shards import owner_of, shard_of
from db import Database
from tests.focus_helpers import answer_round_right
from tests.test_cog_digits import match_id_of
from tools.load import STANDIN_URL_ENV, Driver

ROOT = Path(__file__).resolve().parent.parent
NINE = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def two_shards(standin: StandIn) -> tuple[Guild, Guild]:
    """The stand-in's first server and another one, on shards 0 and 1 of 2 (in that order)."""
    other = standin.add_guild("Second school")
    while standin.shard_of(other, 2) == standin.shard_of(standin.guild, 2):
        other = standin.add_guild(f"School {len(standin.guilds) + 1}")
    first = standin.guild
    return (first, other) if standin.shard_of(first, 2) == 0 else (other, first)


def test_a_servers_shard_is_discords_rule_and_a_process_owns_its_shards_servers():
    guild = (123 << 22) | 4567  # the low bits (worker, process, increment) never count
    assert shard_of(guild, 2) == 1 and shard_of(guild, 5) == 3 and shard_of(guild, 1) == 0
    assert owner_of([1], 2)(guild) and not owner_of([0], 2)(guild)
    assert owner_of(None, 2)(guild) and owner_of([0, 1], 2)(guild) and owner_of([0], 1)(guild)
    assert owner_of([0, 2], None)(guild)  # no count yet: not sharded
    with pytest.raises(ValueError):
        shard_of(guild, 0)


def settings_of(standin: StandIn, database: str, **environ: str) -> Config:
    """The bot's settings as a process reads them from its environment (``ARDOISE_DB`` a file,
    or a server's URL, read as ``python -m bot`` reads it)."""
    return Config.from_env({"DISCORD_TOKEN": standin.token, "ARDOISE_DB": database, **environ},
                           None)


def posted_days(standin: StandIn, channel: Any) -> list[str]:
    """The days of the daily posts in ``channel``, one a post (the day ends the button's id,
    ``focus.daily:<server>:1:<YYYY-MM-DD>``)."""
    return [button["custom_id"].rsplit(":", 1)[-1]
            for message in standin.channel_messages(channel) for button in message.buttons()
            if button.get("custom_id", "").startswith("focus.daily:")]


async def sharded_bot(bot_runner: Any, shard: int, database: str) -> Any:
    settings = settings_of(bot_runner.standin, database, ARDOISE_SHARDS=str(shard),
                           ARDOISE_SHARD_COUNT="2")
    bot = await bot_runner.start(settings=settings)
    focus = bot.get_cog("Focus").flow
    focus.autopost = False  # the test posts, at the hour it chooses
    focus.now = lambda: NINE
    bot.get_cog("Classroom").flow.assign_autoclose = False
    return bot


async def solo_turn(standin: StandIn, db: Database, member: Member, after: Message | None
                    ) -> Message:
    """``member`` plays the first legal turn of their game against Ardoise (their copy of the
    board rebuilt from the stored turns); the board posted after it, Ardoise's answer in it."""
    [game] = await db.rithmo.open_games(member.guild.id, member.id)
    board = Board.start()
    for turn in game.turns:
        board.push(turn.notation)
    notation = str(next(board.legal_turns()))
    record = await standin.slash(member, "rithmo move", turn=notation)
    assert record.reply.ephemeral, record.reply.text()
    shown = await standin.wait_for_message(
        lambda m: bool(m.attachments) and f"`{notation}`" in m.content
        and "Ardoise (Black) played" in m.content, after=after, timeout=20)
    assert f"{member.mention}, your move as White" in shown.content
    return shown


async def test_two_bots_on_two_shards_share_the_work_of_one_database(
        standin, bot_runner, shared_database):
    school_0, school_1 = two_shards(standin)
    assert standin.recommended_shards == 1  # as Discord, for a bot of few servers
    first = await sharded_bot(bot_runner, 0, shared_database)
    second = await sharded_bot(bot_runner, 1, shared_database)
    assert standin.connected_shards == {(0, 2), (1, 2)}
    # READY listed each connection's own servers only.
    assert [g.id for g in first.guilds] == [school_0.id]
    assert [g.id for g in second.guilds] == [school_1.id]
    assert first.owns(school_0.id) and not first.owns(school_1.id)
    assert second.owns(school_1.id) and not second.owns(school_0.id)

    daily = {}
    for school in (school_0, school_1):
        daily[school.id] = standin.add_channel("daily", guild=school)
        await first.db.servers.update(school.id, daily_channel_id=daily[school.id].id,
                                      daily_hour=8)
    ana = standin.add_member("Ana", guild=school_0)
    sam = standin.add_member("Sam", guild=school_1)
    members = Driver(standin)
    await asyncio.gather(members.focus_member(ana, 0, 1), members.focus_member(sam, 1, 1))
    assert members.failures == []
    started = {m.id: (await standin.slash(m, "rithmo solo")).reply for m in (ana, sam)}
    boards = {m.id: await solo_turn(standin, first.db, m, started[m.id]) for m in (ana, sam)}

    # Each process posts its own servers' challenges, once.
    assert await first.get_cog("Focus").flow.post_due_dailies(NINE) == [(school_0.id, NINE.date())]
    assert await second.get_cog("Focus").flow.post_due_dailies(NINE) == [(school_1.id, NINE.date())]
    assert await first.get_cog("Focus").flow.post_due_dailies(NINE + timedelta(hours=1)) == []

    # The second process restarts in the middle of Sam's game: the game goes on.
    second = await bot_runner.restart(second)
    second.get_cog("Focus").flow.now = lambda: NINE
    assert await second.get_cog("Focus").flow.post_due_dailies(NINE) == []
    boards[sam.id] = await solo_turn(standin, second.db, sam, boards[sam.id])
    boards[ana.id] = await solo_turn(standin, first.db, ana, boards[ana.id])
    for school in (school_0, school_1):
        # The restarted process runs on the real clock (its clock is set once it is ready): at
        # the real hour it may rightly post the real day's challenge. What must hold is one post
        # a day, and NINE's day posted once.
        days = posted_days(standin, daily[school.id])
        assert days.count(NINE.date().isoformat()) == 1, (school.name, days)
        assert len(days) == len(set(days)), (school.name, days)

    # The time limits: each process warns the late players of its own servers only.
    late = datetime.now(UTC) + timedelta(days=2)
    await first.get_cog("Rithmo").flow.check_deadlines(late)
    warned_ana = await standin.wait_for_message(lambda m: "⏰" in m.content, after=boards[ana.id])
    assert ana.mention in warned_ana.content
    await standin.idle()
    assert not any("⏰" in m.content for m in standin.channel_messages(school_1.channels[0]))
    await second.get_cog("Rithmo").flow.check_deadlines(late)
    warned_sam = await standin.wait_for_message(lambda m: "⏰" in m.content, after=boards[sam.id])
    assert sam.mention in warned_sam.content
    await first.get_cog("Rithmo").flow.check_deadlines(late + timedelta(minutes=1))
    await second.get_cog("Rithmo").flow.check_deadlines(late + timedelta(minutes=1))
    await standin.idle()
    for school in (school_0, school_1):
        warnings = [m for m in standin.channel_messages(school.channels[0]) if "⏰" in m.content]
        assert len(warnings) == 1, school.name


async def test_a_language_changed_by_another_process_is_seen_within_the_check(
        standin, bot_runner, shared_database):
    school_0, _ = two_shards(standin)
    first = await sharded_bot(bot_runner, 0, shared_database)
    ana = standin.add_member("Ana", guild=school_0)
    english = (await standin.slash(ana, "help")).reply.text()  # the language is now kept
    # Another process (here: another Database on the same database) switches the server to
    # French; the first process still answers from what it keeps, until its check.
    other = await Database.open(shared_database)
    try:
        await other.servers.update(school_0.id, language="fr")
    finally:
        await other.close()
    assert (await standin.slash(ana, "help")).reply.text() == english
    assert await first.check_settings() == [school_0.id]
    french = (await standin.slash(ana, "help")).reply.text()
    assert french != english
    assert await first.check_settings() == []  # read again: nothing changed since


async def test_each_process_keeps_the_clocks_and_timers_of_its_own_servers(
        standin, bot_runner, shared_database):
    school_0, school_1 = two_shards(standin)
    first = await sharded_bot(bot_runner, 0, shared_database)
    second = await sharded_bot(bot_runner, 1, shared_database)
    sam = standin.add_member("Sam", guild=school_1)
    teacher = standin.add_member("Mme Roux", teacher=True, guild=school_1)
    # A solo match of The 20 Digits on the second shard's server: its clock is the second's.
    started = (await standin.slash(sam, "digits solo")).reply
    deadline = (await first.db.digits.require_match(match_id_of(started))).deadline
    assert deadline is not None
    await first.get_cog("Digits").flow.check_clocks(deadline + timedelta(seconds=1))
    await standin.idle()
    assert not any(m.content.startswith("⌛") for m in standin.channel_messages(
        school_1.channels[0]))
    await second.get_cog("Digits").flow.check_clocks(deadline + timedelta(seconds=1))
    up = await standin.wait_for_message(lambda m: m.content.startswith("⌛"), after=started)
    assert sam.mention in up.content
    # A self-running live round there: only the second process arms its timer, after a
    # restart too.
    await standin.slash(teacher, "focus live", count=2, level=4)
    assert await first.get_cog("Focus").flow.arm_live_timers() == {}
    assert first.get_cog("Focus").flow.live_timers() == {}
    assert list(second.get_cog("Focus").flow.live_timers()) == [1]
    second = await bot_runner.restart(second)
    assert list(second.get_cog("Focus").flow.live_timers()) == [1]
    assert school_0.id not in {g.id for g in second.guilds}


# --- Two real processes ----------------------------------------------------------------------


@contextlib.asynccontextmanager
async def bot_process(standin: StandIn, database: str, shards: str, *, serving: bool = True,
                      handover: bool = False, log: list[str] | None = None
                      ) -> AsyncIterator[asyncio.subprocess.Process]:
    """A bot process on ``shards`` of 2 (the load bench's bot process, which reads
    ``ARDOISE_SHARDS`` like ``python -m bot``), connected to the stand-in (unless not
    ``serving``: it waits for another process's lease); stopped at the end, when the shards'
    connections are gone (unless ``handover``: another process takes them over at once). Its
    log lines go to ``log`` if given. A lease of 3 s: a killed process's shards wait no more."""
    env = {**os.environ, STANDIN_URL_ENV: standin.base_url, "DISCORD_TOKEN": standin.token,
           "ARDOISE_DB": database, "ARDOISE_SHARDS": shards, "ARDOISE_SHARD_COUNT": "2",
           "ARDOISE_SHARD_LEASE": "3"}
    env.pop("ARDOISE_TEST_GUILD", None)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tools.load", "--serve-bot", "--no-pin", env=env, cwd=ROOT,
        stderr=None if log is None else asyncio.subprocess.PIPE)
    reading = None if log is None else asyncio.create_task(_read_lines(process, log))
    wanted = {(int(s), 2) for s in shards.split(",")}
    failed = False
    try:
        if serving:
            await standin.wait_until(lambda: wanted <= standin.connected_shards, timeout=60)
        yield process
    except BaseException:
        failed = True  # what went wrong is the test's failure: the clean-up must not hide it
        raise
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), 30)
            except TimeoutError:
                process.kill()
                await process.wait()
        if reading is not None:
            await reading
        if not handover and not failed:
            await standin.wait_until(lambda: not wanted & standin.connected_shards, timeout=30)


async def _read_lines(process: asyncio.subprocess.Process, into: list[str]) -> None:
    assert process.stderr is not None
    async for line in process.stderr:
        into.append(line.decode("utf-8", "replace").rstrip("\n"))


async def logged(log: list[str], text: str, timeout: float = 60) -> str:
    """The first line of ``log`` that holds ``text``, once the process has written it."""
    async with asyncio.timeout(timeout):
        while True:
            found = [line for line in log if text in line]
            if found:
                return found[0]
            await asyncio.sleep(0.05)


async def test_two_real_processes_on_two_shards_one_restarted_mid_game(standin, shared_database):
    school_0, school_1 = two_shards(standin)
    setup = await Database.open(shared_database)  # the teachers' settings, before the start
    try:
        daily = {}
        for school in (school_0, school_1):
            daily[school.id] = standin.add_channel("daily", guild=school)
            # Hour 0: due at once, whatever the time this test runs.
            await setup.servers.update(school.id, daily_channel_id=daily[school.id].id,
                                       daily_hour=0)
        ana = standin.add_member("Ana", guild=school_0)
        sam = standin.add_member("Sam", guild=school_1)
        async with bot_process(standin, shared_database, "0"):
            async with bot_process(standin, shared_database, "1") as crashing:
                # Each process posts its own server's challenge as soon as it is ready.
                await standin.wait_until(lambda: all(
                    standin.channel_messages(daily[s.id]) for s in (school_0, school_1)),
                    timeout=30)
                members = Driver(standin)
                await asyncio.gather(members.focus_member(ana, 0, 1),
                                     members.focus_member(sam, 1, 1))
                assert members.failures == []
                started = {m.id: (await standin.slash(m, "rithmo solo")).reply
                           for m in (ana, sam)}
                boards = {m.id: await solo_turn(standin, setup, m, started[m.id])
                          for m in (ana, sam)}
                crashing.kill()  # no goodbye: what it had stored is all there is
                await crashing.wait()
            # Shard 1's process is gone: a new one takes over, in the middle of Sam's game.
            async with bot_process(standin, shared_database, "1"):
                boards[sam.id] = await solo_turn(standin, setup, sam, boards[sam.id])
                boards[ana.id] = await solo_turn(standin, setup, ana, boards[ana.id])
                await standin.idle(timeout=10)
                for school in (school_0, school_1):
                    posts = standin.channel_messages(daily[school.id])
                    assert len(posts) == 1, school.name  # the restart did not post it again
        for member in (ana, sam):
            [game] = await setup.rithmo.open_games(member.guild.id, member.id)
            assert len(game.turns) == 4  # two turns each side, none lost, none twice
    finally:
        await setup.close()


async def test_without_a_count_the_process_takes_discords_recommendation(
        standin, bot_runner, shared_database):
    school_0, school_1 = two_shards(standin)
    standin.recommended_shards = 2  # GET /gateway/bot says 2
    settings = settings_of(standin, shared_database, ARDOISE_SHARDS="1")
    bot = await bot_runner.start(settings=settings)
    assert (bot.shard_count, bot.shard_ids) == (2, [1])
    assert standin.connected_shards == {(1, 2)}
    assert [g.id for g in bot.guilds] == [school_1.id]
    assert bot.owns(school_1.id) and not bot.owns(school_0.id)
    await bot_runner.stop(bot)
    everything = await bot_runner.start(settings=settings_of(standin, shared_database,
                                                             ARDOISE_SHARDED="1"))
    assert standin.connected_shards == {(0, 2), (1, 2)}
    assert sorted(g.id for g in everything.guilds) == sorted([school_0.id, school_1.id])
    assert everything.owns(school_0.id) and everything.owns(school_1.id)


async def test_two_real_processes_on_one_shard_one_serves_the_other_waits_then_takes_over(
        standin, shared_database):
    school, _ = two_shards(standin)  # shard 0 of 2, which both processes are given
    ana = standin.add_member("Ana", guild=school)
    sam = standin.add_member("Sam", guild=school)
    roux = standin.add_member("Mme Roux", teacher=True, guild=school)
    log: list[str] = []
    setup = await Database.open(shared_database)
    try:
        async with (bot_process(standin, shared_database, "0", handover=True) as first,
                    bot_process(standin, shared_database, "0", serving=False, log=log)):
            waiting = await logged(log, "waiting")
            assert "shard 0 (of 2) is held by" in waiting, waiting
            assert standin.shard_connections == [(0, 2)]  # the first's connection alone
            # What two processes on one shard doubled or lost (issue 23).
            posted = await standin.slash(ana, "rithmo challenge", member=sam)
            accepted = await standin.click(sam, posted.reply, label="Accept")
            assert not accepted.reply.ephemeral, accepted.reply.text()
            await standin.slash(roux, "focus live", count=2, level=4)
            window = (await standin.slash(sam, "focus daily")).reply
            await answer_round_right(standin, sam, window)
            assert "6/6" in window.text(), window.text()
            members = Driver(standin)
            await members.focus_member(ana, 0, 1)
            assert members.failures == []
            assert standin.shard_connections == [(0, 2)]
            assert not [line for line in log if "taken over" in line]
            # The first stops cleanly: it gives its lease back, the second takes over.
            first.send_signal(signal.SIGTERM)
            await first.wait()
            taken = await logged(log, "taken over")
            assert "shard 0 of 2" in taken, taken
            await standin.wait_until(lambda: standin.shard_connections == [(0, 2)],
                                     timeout=60)
            await members.focus_member(sam, 1, 1)
            assert members.failures == []
            [game] = await setup.rithmo.open_games(school.id, ana.id)
            assert game.black_id == sam.id or game.white_id == sam.id
        count = setup.connection.all
        for table in ("focus_live_rounds", "rithmo_games"):
            assert [tuple(r) for r in await count(
                f"SELECT count(*) FROM {table} WHERE guild_id = ?", (school.id,))] == [(1,)]
        assert [tuple(r) for r in await count(
            "SELECT user_id, score FROM daily_attempts WHERE guild_id = ?", (school.id,))] == [
            (sam.id, 6)]
        answers = await count(
            "SELECT user_id, source, count(*), count(DISTINCT round_key || ':' || question_no)"
            " FROM focus_answers WHERE guild_id = ? GROUP BY user_id, source",
            (school.id,))
        assert sorted(tuple(r) for r in answers) == sorted([
            (ana.id, "practice", 6, 6), (sam.id, "daily", 6, 6), (sam.id, "practice", 6, 6)])
        assert await setup.leases.held(standin.app_id) == []  # both gave theirs back
    finally:
        await setup.close()


# --- One process per shard, in this process ----------------------------------------------------


async def lease_waiter(standin: StandIn, database: str, caplog: Any) -> tuple[Any, Any]:
    """A second bot for shard 0 of 2, started; once it has said in its log that it waits."""
    settings = settings_of(standin, database, ARDOISE_SHARDS="0", ARDOISE_SHARD_COUNT="2",
                           ARDOISE_SHARD_LEASE="3")
    bot = create_bot(settings, guild_ready_timeout=0.02)
    said = len([r for r in caplog.records if "waiting" in r.getMessage()])
    task = asyncio.create_task(bot.start(settings.token or ""))
    async with asyncio.timeout(30):
        while len([r for r in caplog.records if "waiting" in r.getMessage()]) == said:
            assert not task.done(), task
            await asyncio.sleep(0.02)
    return bot, task


async def test_a_second_bot_for_a_served_shard_waits_unconnected_until_it_is_given_back(
        standin, bot_runner, shared_database, caplog):
    caplog.set_level(logging.INFO, logger="bot.app")
    school, _ = two_shards(standin)
    first = await sharded_bot(bot_runner, 0, shared_database)
    [lease] = await first.db.leases.held(standin.app_id)
    assert (lease.shard_id, lease.shard_count, lease.holder) == (0, 2, first.worker_id)
    second, started = await lease_waiter(standin, shared_database, caplog)
    [waiting] = [r.getMessage() for r in caplog.records if "waiting" in r.getMessage()]
    assert f"shard 0 (of 2) is held by {first.worker_id} until " in waiting
    # Not connected, nothing loaded (no command, no button, no background task of its own).
    assert standin.shard_connections == [(0, 2)]
    assert second.cogs == {} and not second.is_ready()
    # A third one, stopped while it waits, stops at once and cleanly.
    third, stopped = await lease_waiter(standin, shared_database, caplog)
    await third.close()
    await stopped
    # The first stops: it gives its lease back, the second takes over and serves.
    await bot_runner.stop(first)
    try:
        async with asyncio.timeout(30):
            await second.wait_until_ready()
        assert standin.shard_connections == [(0, 2)]
        assert [lease.holder for lease in await second.db.leases.held(standin.app_id)] == [
            second.worker_id]
        assert any("taken over" in r.getMessage() for r in caplog.records)
        ana = standin.add_member("Ana", guild=school)
        assert (await standin.slash(ana, "help")).reply.text()
    finally:
        await standin.idle()
        await second.close()
        await started
    assert second.db is None  # closed, its lease given back first
    check = await Database.open(shared_database)
    try:
        assert await check.leases.held(standin.app_id) == []
    finally:
        await check.close()


async def test_a_bot_that_finds_its_lease_taken_stops_serving(
        standin, bot_runner, shared_database, caplog):
    bot = await sharded_bot(bot_runner, 0, shared_database)
    assert await bot.renew_shards() and not bot.lease_lost
    # As if it had been frozen past its lease's end and another process had taken the shard.
    await bot.db.connection.run("UPDATE shard_leases SET holder = ? WHERE shard_id = 0",
                                ("elsewhere:1:beef",))
    with caplog.at_level(logging.ERROR, logger="bot.app"):
        assert not await bot.renew_shards()
    assert bot.lease_lost and bot.is_closed() and bot.db is None
    assert "the lease on shard 0 of 2 went to elsewhere:1:beef" in caplog.text
    await standin.wait_until(lambda: standin.shard_connections == [])
    check = await Database.open(shared_database)
    try:  # the other's lease is left as it is
        assert [lease.holder for lease in await check.leases.held(standin.app_id)] == [
            "elsewhere:1:beef"]
    finally:
        await check.close()


def test_the_leases_length_is_a_setting():
    assert Config.from_env({}, None).shard_lease == 30
    assert Config.from_env({"ARDOISE_SHARD_LEASE": "4.5"}, None).shard_lease == 4.5
    for bad in ("0", "601", "nan", "soon"):
        with pytest.raises(ConfigError, match="ARDOISE_SHARD_LEASE must be a number of seconds"):
            Config.from_env({"ARDOISE_SHARD_LEASE": bad}, None)
