"""The commands Discord receives, and when it receives them.

``tests/golden/commands.json`` is the bulk sync body of every product cog as it was before the
groups were built the public way (issue 13: shared groups used to be assembled by rewriting
each cog's ``__cog_app_commands__``): names, French localisations, options, choices,
permissions. The payload must stay exactly that, ordering aside. After a deliberate change of the
commands, record it again with ``ARDOISE_REGOLD=1 .venv/bin/python -m pytest
tests/test_bot_commands.py``.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import bot.__main__ as bot_main
from bot.settings import Config, ConfigError

GOLDEN = Path(__file__).parent / "golden" / "commands.json"
SUBCOMMANDS = (1, 2)  # option types of a subcommand and a subcommand group


def normalised(commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``commands`` with the order of commands and subcommands made irrelevant (a command's
    parameters keep theirs: Discord shows them in that order)."""

    def one(command: dict[str, Any]) -> dict[str, Any]:
        command = dict(command)
        options = command.get("options")
        if options and all(o.get("type") in SUBCOMMANDS for o in options):
            command["options"] = sorted((one(o) for o in options), key=lambda o: o["name"])
        return command

    return sorted((one(c) for c in commands), key=lambda c: (c.get("type", 1), c["name"]))


async def test_the_commands_synced_are_exactly_the_recorded_ones(standin, start_bot):
    await start_bot()
    [(guild_id, body)] = standin.syncs
    assert guild_id == standin.guild.id
    got = normalised(body)
    if os.environ.get("ARDOISE_REGOLD"):
        GOLDEN.write_text(json.dumps(got, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                          encoding="utf-8")
    assert got == json.loads(GOLDEN.read_text(encoding="utf-8"))


# --- Synced only when they changed (Discord rate-limits command syncs) -----------------------


async def test_a_second_start_with_the_same_commands_does_not_sync_them(
        standin, start_bot, restart_bot):
    bot = await start_bot()
    assert len(standin.syncs) == 1
    again = await restart_bot(bot)
    assert len(standin.syncs) == 1
    sam = standin.add_member("Sam")  # the commands Discord kept still reach the new bot
    assert (await standin.slash(sam, "digits card", digit="Pi")).reply.embeds[0]["title"] == (
        "Pi — tier 4")
    assert await again.sync_commands() is False


async def test_changed_commands_are_synced_at_the_next_start(standin, start_bot, restart_bot):
    bot = await start_bot()
    again = await restart_bot(bot, extra_cogs=["bot_test_cog"])
    assert len(standin.syncs) == 2
    assert "test game" in standin.command_names()
    await restart_bot(again)  # the same again: no third sync
    assert len(standin.syncs) == 2


async def test_a_forced_sync_sends_the_same_commands_again(standin, start_bot, bot_runner):
    bot = await start_bot()
    await bot_runner.stop(bot)
    forced = await start_bot(settings=replace(bot.settings, force_sync=True))
    assert len(standin.syncs) == 2
    assert normalised(standin.syncs[1][1]) == normalised(standin.syncs[0][1])
    assert await forced.sync_commands(force=True) is True
    assert len(standin.syncs) == 3


async def test_the_global_scope_is_remembered_apart_from_the_test_server(
        standin, start_bot, bot_runner):
    bot = await start_bot()
    await bot_runner.stop(bot)
    settings = replace(bot.settings, test_guild=None)
    bot = await start_bot(settings=settings)
    assert [guild for guild, _ in standin.syncs] == [standin.guild.id, None]
    await bot_runner.stop(bot)
    await start_bot(settings=settings)
    assert len(standin.syncs) == 2


def test_sync_is_asked_by_the_environment_or_the_command_line(monkeypatch, tmp_path):
    assert Config.from_env({"ARDOISE_SYNC": "1"}, env_file=None).force_sync
    assert not Config.from_env({}, env_file=None).force_sync
    with pytest.raises(ConfigError, match="ARDOISE_SYNC must be one of"):
        Config.from_env({"ARDOISE_SYNC": "maybe"}, env_file=None)
    seen: list[Config] = []

    async def run(settings: Config, **options: object) -> int:
        seen.append(settings)
        return 0

    monkeypatch.setattr(bot_main, "run_on_discord", run)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.delenv("ARDOISE_SYNC", raising=False)
    assert bot_main.main(["--sync"]) == 0
    assert bot_main.main([]) == 0
    assert [s.force_sync for s in seen] == [True, False]
