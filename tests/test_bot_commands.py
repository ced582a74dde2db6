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
from pathlib import Path
from typing import Any

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
