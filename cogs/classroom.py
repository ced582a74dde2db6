"""``/class`` (``/classe``): the teacher's classroom — the class report and its export, one
student's settings, homework, question sets, the end of the school year.

Only teachers may use it: Discord shows the group to members with Manage Server
(``default_permissions``), and ``interaction_check`` accepts them and the members of the server's
teacher roles (as ``/settings``), refusing anyone else with a sentence that names what was asked
("Only teachers can see the class report", ``errors.class.teachers_only.<subcommand>``).

The group is one ``commands.GroupCog``; each part is a mixin in its own module
(``cogs/_class_*.py``) that the cog inherits, as ``/digits`` does with ``cogs/_digits_info.py``.
The use cases are in ``bot/play``, the presentation in ``bot/ui``.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.services import ServicedBot, Services
from bot.ui.assignments import ASSIGNMENT_FLOWS
from bot.ui.retention import PERSISTENT_ITEMS as END_OF_YEAR_ITEMS
from bot.ui.retention import ask_end_of_year
from bot.ui.teachers import NotATeacher, is_teacher, teachers_choices, teachers_only
from cogs import ArdoiseCog
from cogs._class_assign import ClassAssign
from cogs._class_questions import ClassQuestions
from cogs._class_report import ClassReport
from cogs._class_students import ClassStudents

#: The report's periods, by their choice value, with their English names.
PERIODS = {"today": "Today", "week": "The last 7 days", "month": "The last 30 days",
           "term": "The last 90 days", "all": "Since the start"}


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class Classroom(ClassReport, ClassQuestions, ClassAssign, ClassStudents, ArdoiseCog,
                commands.GroupCog, group_name="class",
                group_description="Your class: report, students, homework, questions (teachers)"):
    """The ``/class`` group; every subcommand is for teachers (see ``interaction_check``)."""

    # Each part's buttons (one mixin's attribute would hide another's).
    persistent_items = (*ClassReport.report_items, *ClassQuestions.question_items,
                        *ClassAssign.ASSIGN_ITEMS, *END_OF_YEAR_ITEMS)

    def __init__(self, bot: ServicedBot, services: Services) -> None:
        super().__init__(bot, services)
        services.kept.put(ASSIGNMENT_FLOWS, self)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if not await is_teacher(interaction):
            raise NotATeacher(teachers_only(interaction),
                              "only teachers (Manage Server or a teacher role) may do this")
        return True

    # --- /class report: the class, or one assignment -----------------------------------------
    # The two reports are the mixins' (``class_report`` in cogs/_class_report.py,
    # ``assignment_report`` in cogs/_class_assign.py); one command, as teachers look for it.

    @app_commands.command(name="report", description="How the class is doing, as a picture and "
                                                     "a spreadsheet (CSV)")
    @app_commands.describe(period="Which answers: the last 7 days by default",
                           topic="Only this topic",
                           role="Only the students with this role",
                           pseudonym="Students as \"Student 1…N\" instead of their names",
                           assignment="An assignment's report instead: who did it, the scores")
    @app_commands.choices(period=[
        app_commands.Choice(name=app_commands.locale_str(name, key=f"class.periods.{value}"),
                            value=value) for value, name in PERIODS.items()])
    async def report(self, interaction: discord.Interaction, period: str = "week",
                     topic: str | None = None, role: discord.Role | None = None,
                     pseudonym: bool = False, assignment: str | None = None) -> None:
        if assignment is not None:
            await self.assignment_report(interaction, assignment, pseudonym=pseudonym)
        else:
            await self.class_report(interaction, period, topic, role, pseudonym=pseudonym)

    @report.autocomplete("topic")
    @teachers_choices
    async def report_topics(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        return await self.topic_choices(interaction, current)

    @report.autocomplete("assignment")
    @teachers_choices
    async def report_assignments(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        return await self.assignment_choices(interaction, current)

    @app_commands.command(name="end-of-year", description="Export the class to you (one zip "
                                                          "file), then erase the students' data")
    async def end_of_year(self, interaction: discord.Interaction) -> None:
        await ask_end_of_year(interaction)  # asked first, privately (bot.ui.retention)


async def setup(bot: ServicedBot) -> None:
    await bot.add_cog(Classroom(bot, bot.services))
