"""The conductor of ``/class room open|close|list`` (``/classe salle ouvrir|fermer|liste``): the
teacher's side of the class rooms on the web (issue 30). ``ClassroomFlow`` hands each command
over here (the cog calls one method of its flow); the rules are ``bot.play.web_rooms``', the
words and the pictures ``bot.ui.web_rooms``' and ``images.qr``'.

A room needs the bot's web server (``ARDOISE_WEB``): without one, the teacher is told why, and
nothing is opened (a code nobody can use would only mislead the class).
"""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands

from bot import replies
from bot.domain import DomainError
from bot.i18n import lang_for
from bot.play import web_rooms as rooms
from bot.services import Services
from bot.ui.teachers import is_teacher
from bot.ui.web_rooms import (
    closed_text,
    list_embed,
    opened_reply,
    room_choice_name,
    student_choice_name,
)
from bot.web.app import WEB_SERVER
from images import qr


def base_url(services: Services) -> str:
    """The web server's public address, or the refusal that says the operator has none."""
    try:
        server = services.kept.get(WEB_SERVER)
    except RuntimeError:
        server = None
    if server is None or not server.base_url:
        raise DomainError("web_rooms.no_server", "the bot runs no web server (ARDOISE_WEB)")
    return server.base_url


async def open_room(services: Services, interaction: discord.Interaction, name: str | None,
                    hours: int) -> None:
    lang = await lang_for(interaction)
    assert interaction.guild_id is not None  # the group is guild-only
    base = base_url(services)  # refused before anything is opened
    room = await rooms.open_room(services.db, interaction.guild_id, interaction.channel_id,
                                 interaction.user.id, name, lang, services.clocks.now(),
                                 teaches=await is_teacher(interaction), hours=hours)
    picture = await asyncio.to_thread(qr.png, rooms.room_link(base, room))
    await replies.respond(interaction, ephemeral=True,
                          **opened_reply(room, base, picture, lang))


async def close_room(services: Services, interaction: discord.Interaction, room: str | None,
                     erase: bool) -> None:
    lang = await lang_for(interaction)
    assert interaction.guild_id is not None
    teaches = await is_teacher(interaction)
    if erase:  # a class's erasure may take a moment: Discord waits for no more than 3 s
        await interaction.response.defer(ephemeral=True, thinking=True)
    closed = await rooms.close_room(services.db, interaction.guild_id, room,
                                    services.clocks.now(), teaches=teaches, erase=erase)
    if erase:
        await replies.followup(interaction, closed_text(closed, lang), ephemeral=True)
    else:
        await replies.respond(interaction, closed_text(closed, lang), ephemeral=True)


async def list_rooms(services: Services, interaction: discord.Interaction) -> None:
    lang = await lang_for(interaction)
    assert interaction.guild_id is not None
    now = services.clocks.now()
    found = await rooms.room_list(services.db, interaction.guild_id, now)
    await replies.respond(interaction, embed=list_embed(found, now, lang), ephemeral=True)


async def room_choices(services: Services, interaction: discord.Interaction, current: str
                       ) -> list[app_commands.Choice[str]]:
    """The server's open rooms whose name or code holds what is typed; the value is the code
    (the command reads it again: a forged value names no room of this server)."""
    if interaction.guild_id is None:
        return []
    lang = await lang_for(interaction)
    found = await rooms.open_rooms(services.db, interaction.guild_id, services.clocks.now(),
                                   current)
    return replies.fit_choices(app_commands.Choice(name=room_choice_name(r, lang), value=r.code)
                               for r in found)


async def student_choices(services: Services, guild_id: int, current: str, lang: str
                          ) -> list[app_commands.Choice[str]]:
    """The server's browser students whose nickname (or room's name) holds what is typed, the
    latest seated first; the value is their player id (the command reads it again: a forged
    value names no student of this server)."""
    folded = current.casefold().strip()
    return replies.fit_choices(
        app_commands.Choice(name=student_choice_name(nickname, room, lang), value=str(user_id))
        for user_id, nickname, room in await rooms.students(services.db, guild_id)
        if folded in nickname.casefold() or folded in (room or "").casefold())
