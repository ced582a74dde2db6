"""``/class student <member> …`` (``/classe élève``): one student's own settings (Focus levels,
extra time, rankings, school year), shown, and
changed by a teacher (``Classroom.interaction_check``). The rules they change are
``bot.play.students``'; the words ``bot.ui.students``'."""

from __future__ import annotations

import discord
from discord import app_commands

from bot import replies
from bot.domain import DomainError
from bot.i18n import lang_for, t
from bot.play import students as play
from bot.replies import shown_name
from bot.ui.students import (
    level_choices,
    rankings_choices,
    school_year_choices,
    student_embed,
    time_choices,
)
from cogs import ArdoiseCog


class ClassStudents(ArdoiseCog):
    """The mixin of ``/class student`` (``cogs.classroom.Classroom`` inherits it)."""

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
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None
        if not isinstance(member, discord.Member) or member.guild.id != guild_id:
            raise DomainError("class.student.not_member", "not a member of this server")
        if member.bot:
            raise DomainError("class.student.bot", "a bot is no student",
                              name=shown_name(member.display_name))
        view = await play.change_student(
            self.services.db, guild_id, member.id, level=level, min_level=min_level,
            max_level=max_level, extra_time=extra_time, rankings=rankings,
            school_year=school_year, reset=reset)
        content = (t("class_students.saved", lang, name=shown_name(member.display_name))
                   if view.changed else None)
        await replies.respond(interaction, content,
                              embed=student_embed(view, member.display_name, lang),
                              ephemeral=True)
