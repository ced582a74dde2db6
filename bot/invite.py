"""``python -m bot invite [--application-id ID]``: the URL that adds Ardoise to a server.

The URL asks for exactly the permissions in ``PERMISSIONS`` below, each with why the bot needs
it; ``docs/setup.md`` lists the same table (a test compares them). The application id is the one
given with ``--application-id``, else it is read from the token (``DISCORD_TOKEN`` in the
environment or ``.env``, as ``bot.settings.Config`` reads it): a bot token's first dot-separated
part is the base64 of the bot's user id, which is its application's id. Nothing is asked of
Discord, and the token is never printed: a token or id that cannot be read is one line on
standard error and exit status 2.

Intents: the bot connects with the ``guilds`` intent only (``bot/app.py``), which is not
privileged; it reads no message content, no members list and no presences.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import sys
from collections.abc import Sequence

import discord

from bot.settings import Config, ConfigError

#: The permissions the bot asks for when it is invited: discord.py's name, the name Discord's
#: screens show, and why. Answers to slash commands and clicks need none of them (they go
#: through the interaction); these are for the messages it posts itself in a channel.
PERMISSIONS: tuple[tuple[str, str, str], ...] = (
    ("view_channel", "View Channels",
     "see the channels it posts in: the daily challenge's, and those where a game was started"),
    ("send_messages", "Send Messages",
     "post the daily challenge, the Rithmomachia boards and The 20 Digits' battles"),
    ("send_messages_in_threads", "Send Messages in Threads",
     "the same when a game is started in a thread"),
    ("embed_links", "Embed Links",
     "its messages are embeds (the challenge, the boards, the results)"),
    ("attach_files", "Attach Files",
     "its pictures: boards, battles, leaderboards, progress charts"),
)
#: Scopes of the invite: the bot user, and its slash commands.
SCOPES = ("bot", "applications.commands")
AUTHORIZE = "https://discord.com/oauth2/authorize"


class InviteError(ValueError):
    """An application id or a token that cannot give an application id."""


def permissions() -> discord.Permissions:
    """The bot's permissions as discord.py's flags (an unknown name fails here, at import)."""
    return discord.Permissions(**{name: True for name, _, _ in PERMISSIONS})


PERMISSIONS_VALUE = permissions().value


def parse_application_id(text: str) -> int:
    """An application id: a Discord snowflake, digits only."""
    cleaned = text.strip()
    if not cleaned.isascii() or not cleaned.isdigit() or not 15 <= len(cleaned) <= 21:
        raise InviteError(f"an application id is 15 to 21 digits (Developer Portal → your "
                          f"application → General Information), not {cleaned[:30]!r}")
    return int(cleaned)


def application_id_from_token(token: str) -> int:
    """The application id a bot token starts with (its first part, base64 of the id)."""
    first = token.strip().split(".", 1)[0]
    try:
        decoded = base64.b64decode(first + "=" * (-len(first) % 4), altchars=b"-_",
                                   validate=True).decode("ascii")
        return parse_application_id(decoded)
    except (binascii.Error, UnicodeDecodeError, InviteError):
        # The message must not quote the token.
        raise InviteError("DISCORD_TOKEN does not look like a bot token (its first part is not "
                          "an application id); copy it again from the Developer Portal or give "
                          "--application-id") from None


def invite_url(application_id: int) -> str:
    """The invite URL with exactly the bot's permissions and scopes."""
    return (f"{AUTHORIZE}?client_id={application_id}&permissions={PERMISSIONS_VALUE}"
            f"&scope={'+'.join(SCOPES)}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot invite",
        description="Print the URL that adds Ardoise to a server, with exactly the permissions "
                    "it needs. The application id is read from DISCORD_TOKEN unless given.")
    parser.add_argument("--application-id", metavar="ID",
                        help="the application id (Developer Portal → General Information)")
    args = parser.parse_args(argv)
    try:
        if args.application_id is not None:
            application_id = parse_application_id(args.application_id)
        else:
            token = Config.from_env().token
            if token is None:
                raise InviteError("no DISCORD_TOKEN is set: put it in .env or the environment, "
                                  "or give --application-id")
            application_id = application_id_from_token(token)
    except (InviteError, ConfigError) as error:
        print(f"Ardoise: {error}", file=sys.stderr)
        return 2
    print(invite_url(application_id))
    return 0
