"""``/class room open|close|list`` (``/classe salle ouvrir|fermer|liste``): class rooms on the
web, for the students too young for a Discord account (issue 30).

A mixin of the ``/class`` cog (``cogs/classroom.py``'s ``Classroom``, which inherits the subgroup
and its teacher check). The conductor is ``bot.flows.classroom.ClassroomFlow`` (which hands over
to ``bot.flows.web_rooms``), the rules ``bot.play.web_rooms``, the words ``bot.ui.web_rooms``.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.flows.classroom import ClassroomFlow
from bot.ui.teachers import teachers_choices
from bot.ui.web_rooms import DEFAULT_HOURS, MAX_HOURS
from cogs import ArdoiseCog


class ClassRoom(ArdoiseCog):
    """The ``/class room`` subgroup (an ``app_commands.Group`` class attribute: the group cog
    that inherits it makes it its subgroup)."""

    flow: ClassroomFlow

    room = app_commands.Group(name="room", description="Class rooms on the web, for students "
                                                       "without Discord (teachers)")

    @room.command(name="open", description="Open a class room: its code, link and QR code, for "
                                           "you only")
    @app_commands.describe(name="Its name, as students see it (e.g. 5th B)",
                           hours="How long it stays open (12 hours by default)")
    async def room_open(self, interaction: discord.Interaction,
                        name: app_commands.Range[str, 1, 60] | None = None,
                        hours: app_commands.Range[int, 1, MAX_HOURS] = DEFAULT_HOURS) -> None:
        await self.flow.room_open(interaction, name, hours)

    @room.command(name="close", description="Close a class room (the newest open one by "
                                            "default)")
    @app_commands.describe(room="Which room (the newest open one by default)",
                           erase="Also erase everything of its students and the room itself")
    async def room_close(self, interaction: discord.Interaction, room: str | None = None,
                         erase: bool = False) -> None:
        await self.flow.room_close(interaction, room, erase)

    @room.command(name="list", description="This server's class rooms: codes, students, when "
                                           "they close")
    async def room_list(self, interaction: discord.Interaction) -> None:
        await self.flow.room_list(interaction)

    @room_close.autocomplete("room")
    @teachers_choices
    async def room_choices(self, interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        return await self.flow.room_choices(interaction, current)
