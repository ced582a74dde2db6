"""``python -m bot``: run Ardoise on Discord when a token is set; otherwise say how to set one.

Every way it can fail for a reason the user can fix (a refused token, no network, a bad setting)
ends with one clear line on standard error and a non-zero status, never a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import sys

import aiohttp
import discord

from bot.app import create_bot
from bot.settings import Settings, SettingsError

NO_TOKEN = (
    "Ardoise: no DISCORD_TOKEN is set, so there is nothing to connect to yet.\n"
    "  To run on Discord: create an application at https://discord.com/developers/applications,\n"
    "  copy its bot token and put it in a .env file next to this README:\n"
    "      DISCORD_TOKEN=your-token-here\n"
    "  (or export DISCORD_TOKEN in the environment), then run ./ardoise bot again.\n"
    "  Local play without a token is coming (issue 8)."
)
TOKEN_REFUSED = (
    "Ardoise: Discord refused the token in DISCORD_TOKEN. Copy it again from the Developer Portal "
    "(your application → Bot → Reset Token) into .env or the environment, then retry."
)


def _configure_logging(settings: Settings) -> None:
    logging.basicConfig(
        level=settings.log_level_number,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        datefmt="%H:%M:%S",
    )
    # discord.py's own INFO lines are gateway chatter; keep them one level quieter.
    logging.getLogger("discord").setLevel(max(settings.log_level_number, logging.WARNING))


def startup_line(settings: Settings) -> str:
    where = (f"commands synced to the test server {settings.test_guild}"
             if settings.test_guild is not None else "commands synced globally")
    sharding = ", sharded" if settings.sharded else ""
    return (f"Ardoise: Discord mode (DISCORD_TOKEN is set){sharding}; database {settings.db_path}; "
            f"{where}. Unset DISCORD_TOKEN for local play.")


async def run_on_discord(settings: Settings, **options: object) -> int:
    """Run the bot until it stops; the exit status, with one line on stderr on a known failure."""
    assert settings.token is not None
    bot = create_bot(settings, **options)  # type: ignore[arg-type]
    try:
        async with bot:
            await bot.start(settings.token)
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
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(f"Ardoise: {error}", file=sys.stderr)
        return 2
    if settings.token is None:
        print(NO_TOKEN)
        return 0
    _configure_logging(settings)
    print(startup_line(settings), flush=True)
    try:
        return asyncio.run(run_on_discord(settings))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
