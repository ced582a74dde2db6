"""A local stand-in for Discord: the tests drive the real bot through it, and local play does too.

``bot.local.server.StandIn`` is an aiohttp server that answers discord.py's REST calls and plays the
gateway websocket, with a Python API to act as members (slash commands, clicks, menus, modals) and
to read what the bot showed.

``bot.local.terminal`` is local play (``python -m bot`` without a token): the terminal as the
Discord client of the real bot, through the stand-in; ``bot.local.render`` draws messages as text.
See docs/local-play.md.
"""

from bot.local.server import (
    Attachment,
    Channel,
    Guild,
    InteractionRecord,
    Member,
    Message,
    NoAnswer,
    Role,
    StandIn,
    StandInError,
    User,
)

__all__ = [
    "Attachment",
    "Channel",
    "Guild",
    "InteractionRecord",
    "Member",
    "Message",
    "NoAnswer",
    "Role",
    "StandIn",
    "StandInError",
    "User",
]
