"""``/class report`` without an assignment: the class's picture (a page of at most 30 students)
and its CSV export, privately to the teacher.

A mixin of the ``/class`` group's cog (``cogs/classroom.py``'s ``Classroom``, which declares the
command and its teachers-only check). The figures are ``bot.play.class_report``'s; the names and
roles are fetched from Discord for the students in the report (the bot has no member list); the
presentation and the page buttons are ``bot.ui.class_report``'s. Texts:
``cogs/locales/<lang>/class_report.json``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import discord
from discord import app_commands, ui

from bot.i18n import lang_for
from bot.play import class_report as service
from bot.replies import fit_choices
from bot.ui.class_report import ReportPage, fetch_students, filter_lines, send_report
from cogs import ArdoiseCog


class ClassReport(ArdoiseCog):
    """``class_report`` and ``topic_choices`` of ``Classroom`` (see cogs/classroom.py)."""

    #: The report's page buttons (Classroom's persistent items include them).
    report_items: ClassVar[tuple[type[ui.DynamicItem[Any]], ...]] = (ReportPage,)

    async def class_report(self, interaction: discord.Interaction, period: str,
                           topic: str | None, role: discord.Role | None, *,
                           pseudonym: bool) -> None:
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None  # the group is guild-only
        service.check_period(period)  # before the deferral: refused privately, nothing done
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await service.answered(self.services.db, guild_id, period, topic,
                                      pseudonym=pseudonym)
        students = await fetch_students(interaction.guild, data.user_ids)
        keep = None if role is None else {
            uid for uid, student in students.items() if role.id in student.role_ids}
        report = service.build(data, {uid: s.name for uid, s in students.items()}, lang,
                               keep=keep, pseudonym=pseudonym)
        await send_report(interaction, report, lang, filter_lines(topic, role, lang))

    async def topic_choices(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        lang = await lang_for(interaction)
        found = await service.topic_choices(self.services.db, interaction.guild_id, current, lang)
        return fit_choices(app_commands.Choice(name=name, value=value) for name, value in found)
