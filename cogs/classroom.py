"""``/class`` (``/classe``): the teacher's classroom — the class report and its export, one
student's settings, homework, question sets.

Only teachers may use it: Discord shows the group to members with Manage Server
(``default_permissions``), and ``interaction_check`` accepts them and the members of the server's
teacher roles (as ``/settings``), refusing anyone else with the same sentence as ``/settings``.

The group is one ``commands.GroupCog``; each part is a mixin in its own module
(``cogs/_class_*.py``) that the cog inherits, as ``/digits`` does with ``cogs/_digits_info.py``.
The use cases are in ``bot/play``, the presentation in ``bot/ui``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.teachers import NotATeacher, is_teacher
from cogs import ArdoiseCog


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class Classroom(ArdoiseCog, commands.GroupCog, group_name="class",
                group_description="Your class: report, students, homework, questions (teachers)"):
    """The ``/class`` group; every subcommand is for teachers (see ``interaction_check``)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if not await is_teacher(interaction):
            raise NotATeacher("settings.teachers_only",
                              "only teachers (Manage Server or a teacher role) may do this")
        return True


async def setup(bot: Any) -> None:
    await bot.add_cog(Classroom(bot))
