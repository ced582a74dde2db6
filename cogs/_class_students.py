"""``/class student <member> …`` (``/classe élève``): one student's own settings (Focus levels,
extra time, rankings, school year), shown, and changed by a teacher
(``Classroom.interaction_check``). The conductor is ``bot.flows.classroom.ClassroomFlow.student``,
the rules they change ``bot.play.students``', the words ``bot.ui.students``'."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.flows.classroom import ClassroomFlow
from bot.ui.students import level_choices, rankings_choices, school_year_choices, time_choices
from cogs import ArdoiseCog


class ClassStudents(ArdoiseCog):
    """The mixin of ``/class student`` (``cogs.classroom.Classroom`` inherits it)."""

    flow: ClassroomFlow

    @app_commands.command(name="student", description="One student's own settings: Focus "
                                                      "levels, extra time, rankings")
    @app_commands.describe(
        member="The student",
        level="Pin their Focus level (or back to the server's)",
        min_level="The lowest level their Focus may go down to",
        max_level="The highest level their Focus may go up to",
        extra_time="More time for their Focus",
        rankings="How public rankings show them",
        school_year="The school year whose skills their practice draws from",
        reset="Everything back to the server's settings (before the other options)")
    @app_commands.choices(level=level_choices(), min_level=level_choices(),
                          max_level=level_choices(), extra_time=time_choices(),
                          rankings=rankings_choices(), school_year=school_year_choices())
    async def student(self, interaction: discord.Interaction, member: discord.Member,
                      level: str | None = None, min_level: str | None = None,
                      max_level: str | None = None, extra_time: str | None = None,
                      rankings: str | None = None, school_year: str | None = None,
                      reset: bool = False) -> None:
        await self.flow.student(interaction, member, level, min_level, max_level, extra_time,
                                rankings, school_year, reset)
