"""``python -m bot``: run Ardoise on Discord when a token is set; otherwise local play.

Without ``DISCORD_TOKEN`` (or with ``--local``) the real bot runs against the stand-in for Discord
on this machine, with the terminal as the client (``bot.local.terminal``); ``--script FILE`` plays
a file of terminal lines. ``python -m bot invite`` prints the URL that adds the bot to a server
(``bot.invite``). The start-up line says which mode it is in and how to switch.

Every way it can fail for a reason the user can fix (a refused token, no network, a bad setting)
ends with one clear line on standard error and a non-zero status, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import sys

import aiohttp
import discord

from bot import invite
from bot.app import create_bot
from bot.local import terminal
from bot.settings import Config, ConfigError
from db import shown_location

TOKEN_REFUSED = (
    "Ardoise: Discord refused the token in DISCORD_TOKEN. Copy it again from the Developer Portal "
    "(your application → Bot → Reset Token) into .env or the environment, then retry."
)


def _configure_logging(settings: Config) -> None:
    logging.basicConfig(
        level=settings.log_level_number,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        datefmt="%H:%M:%S",
    )
    # discord.py's own INFO lines are gateway chatter; keep them one level quieter.
    logging.getLogger("discord").setLevel(max(settings.log_level_number, logging.WARNING))


def startup_line(settings: Config) -> str:
    where = (f"commands synced to the test server {settings.test_guild}"
             if settings.test_guild is not None else "commands synced globally")
    where += " (always)" if settings.force_sync else " when they changed"
    sharding = ""
    if settings.runs_shards:
        shards = ("all shards" if settings.shard_ids is None
                  else "shard" + ("s " if len(settings.shard_ids) > 1 else " ")
                  + ",".join(map(str, settings.shard_ids)))
        count = ("Discord's recommended count" if settings.shard_count is None
                 else f"{settings.shard_count}")
        sharding = f", sharded ({shards} of {count})"
    database = shown_location(settings.db_path)
    return (f"Ardoise: Discord mode (DISCORD_TOKEN is set){sharding}; database {database}; "
            f"{where}. Unset DISCORD_TOKEN (or pass --local) for local play.")


async def run_on_discord(settings: Config, **options: object) -> int:
    """Run the bot until it stops; the exit status, with one line on stderr on a known failure."""
    assert settings.token is not None
    bot = create_bot(settings, **options)  # type: ignore[arg-type]
    try:
        async with bot:
            await bot.start(settings.token)
    except ConfigError as error:  # shards beyond Discord's recommended count
        print(f"Ardoise: {error}", file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print(TOKEN_REFUSED, file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("Ardoise: Discord refused an intent the bot asked for; enable it in the Developer "
              "Portal (Bot → Privileged Gateway Intents) or remove it.", file=sys.stderr)
        return 1
    except (aiohttp.ClientConnectionError, discord.GatewayNotFound, OSError) as error:
        print(f"Ardoise: cannot reach Discord ({error}). Check the network, then retry.",
              file=sys.stderr)
        return 1
    if bot.lease_lost:
        # Not a clean stop: a service manager starts it again, and the new process waits for
        # the shards behind the one that holds them now.
        print("Ardoise: another process took this process's shards (their lease ran out "
              "before it was renewed); stopped so as not to serve them twice.", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] == ["invite"]:
        return invite.main(arguments[1:])
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Ardoise: on Discord when DISCORD_TOKEN is set, else local play.",
        epilog="python -m bot invite [--application-id ID] prints the URL that adds the bot "
               "to a server.")
    parser.add_argument("--sync", action="store_true",
                        help="sync the slash commands at start even if they did not change "
                             "since the last sync (as ARDOISE_SYNC=1)")
    terminal.add_arguments(parser)
    args = parser.parse_args(arguments)
    try:
        settings = Config.from_env()
    except ConfigError as error:
        print(f"Ardoise: {error}", file=sys.stderr)
        return 2
    if args.sync:
        settings = dataclasses.replace(settings, force_sync=True)
    if settings.token is None or args.local or args.script is not None:
        return terminal.run(settings, args)
    _configure_logging(settings)
    print(startup_line(settings), flush=True)
    try:
        return asyncio.run(run_on_discord(settings))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
