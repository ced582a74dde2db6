"""``python -m bot``: the start-up line, no token, a refused token, a bad setting, shards lost
to another process."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from bot.__main__ import TOKEN_REFUSED, run_on_discord, startup_line
from bot.settings import Config
from db import Database

SECRET = "MTIz.never-print-me"
ROOT = Path(__file__).resolve().parent.parent


def _run_module(tmp_path: Path, *args: str, stdin: str = "", **env: str
                ) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items()
            if k in ("PATH", "HOME", "LANG", "SYSTEMROOT", "PYTHONPATH")}
    # This checkout's bot, not whichever one the interpreter has installed.
    base["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), base.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=tmp_path,
                          env={**base, **env}, input=stdin, capture_output=True, text=True,
                          timeout=60)


def test_without_a_token_it_starts_local_play_and_says_how_to_reach_discord(tmp_path: Path):
    result = _run_module(tmp_path, stdin="quit\n")
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first.startswith("Ardoise: local play (no DISCORD_TOKEN is set)")
    assert "DISCORD_TOKEN=… in .env" in first
    assert (tmp_path / "data" / "ardoise.sqlite3").exists()  # the bot's default database
    assert "Traceback" not in result.stdout + result.stderr


def test_a_bad_setting_is_one_line_and_status_2(tmp_path: Path):
    result = _run_module(tmp_path, DISCORD_TOKEN=SECRET, ARDOISE_TEST_GUILD="my class")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "Ardoise: ARDOISE_TEST_GUILD must be a server id (digits only), not 'my class'"]
    assert SECRET not in result.stdout + result.stderr


def test_the_start_up_line_names_the_mode_and_never_the_token(tmp_path: Path):
    line = startup_line(Config(token=SECRET, db_path=tmp_path / "a.sqlite3", test_guild=7))
    assert line.startswith("Ardoise: Discord mode")
    assert "test server 7" in line and "local play" in line
    assert SECRET not in line
    assert "synced globally" in startup_line(Config(token=SECRET, sharded=True))


async def test_a_refused_token_is_one_clear_line_and_status_1(standin, tmp_path, capsys):
    settings = Config(token="not-the-token", db_path=tmp_path / "a.sqlite3")
    status = await run_on_discord(settings, guild_ready_timeout=0.02)
    assert status == 1
    captured = capsys.readouterr()
    assert captured.err == TOKEN_REFUSED + "\n"
    assert "Traceback" not in captured.out + captured.err
    assert ("GET", "/users/@me") in standin.requests


def test_bad_shards_are_one_line_and_status_2(tmp_path: Path):
    result = _run_module(tmp_path, DISCORD_TOKEN=SECRET, ARDOISE_SHARDS="1,3",
                         ARDOISE_SHARD_COUNT="2")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "Ardoise: ARDOISE_SHARDS names shard 3, but ARDOISE_SHARD_COUNT is 2: the shards are "
        "0 to 1"]


def test_the_start_up_line_says_which_shards_the_process_runs():
    line = startup_line(Config(token=SECRET, shard_ids=(0, 1), shard_count=4))
    assert ", sharded (shards 0,1 of 4);" in line
    assert ", sharded (all shards of Discord's recommended count);" in startup_line(
        Config(token=SECRET, sharded=True))


async def test_shards_beyond_discords_recommendation_are_one_line_and_status_2(
        standin, tmp_path, capsys):
    # The stand-in recommends 1 shard: shard 1 does not exist.
    settings = Config(token=standin.token, db_path=tmp_path / "a.sqlite3", shard_ids=(1,))
    status = await run_on_discord(settings, guild_ready_timeout=0.02)
    assert status == 2
    captured = capsys.readouterr()
    assert captured.err == ("Ardoise: ARDOISE_SHARDS names shard 1, but Discord's recommended "
                            "shard count is 1: the shards are 0 to 0\n")
    assert ("GET", "/gateway/bot") in standin.requests


async def test_a_process_whose_shards_went_to_another_stops_with_one_line_and_status_1(
        standin, tmp_path, capsys):
    settings = Config(token=standin.token, db_path=tmp_path / "a.sqlite3", shard_lease=1.0)
    running = asyncio.create_task(run_on_discord(settings, guild_ready_timeout=0.02))
    await standin.wait_connected(timeout=10)
    # Another process took shard 0 (this one was frozen past its lease's end, say).
    other = await Database.open(settings.db_path)
    try:
        await other.connection.run("UPDATE shard_leases SET holder = 'elsewhere:1:beef'")
    finally:
        await other.close()
    assert await asyncio.wait_for(running, 30) == 1
    assert capsys.readouterr().err == (
        "Ardoise: another process took this process's shards (their lease ran out before it "
        "was renewed); stopped so as not to serve them twice.\n")
    assert not standin.connected
