"""``/class`` (``/classe``): the teacher's classroom — the class report and its export, one
student's settings, homework, question sets, the end of the school year.

Only teachers may use it: Discord shows the group to members with Manage Server
(``default_permissions``), and ``interaction_check`` (``ClassroomFlow.check``) accepts them and
the members of the server's teacher roles (as ``/settings``), refusing anyone else with a
sentence that names what was asked ("Only teachers can see the class report",
``errors.class.teachers_only.<subcommand>``).

The group is one ``commands.GroupCog``; each part is a mixin in its own module
(``cogs/_class_*.py``) that the cog inherits, as ``/digits`` does with ``cogs/_digits_info.py``;
``/class report`` is here (one command for the class's report, a picture of a page of at most
30 students and its CSV, and for an assignment's).
Every command calls one method of the conductor, ``bot.flows.classroom.ClassroomFlow``, which
also runs the closing of past-due assignments and answers the buttons the commands post.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.flows.classroom import ClassroomFlow
from bot.services import ServicedBot, Services
from bot.ui.assignments import DoAssignment
from bot.ui.class_report import ReportPage
from bot.ui.classroom import PERIOD_OPTIONS
from bot.ui.digest import DigestReportButton
from bot.ui.focus_run import RoundButton
from bot.ui.question_sets import QuestionsButton
from bot.ui.retention import PERSISTENT_ITEMS as END_OF_YEAR_ITEMS
from bot.ui.teachers import teachers_choices
from bot.views import Route
from cogs import ArdoiseCog
from cogs._class_assign import ClassAssign
from cogs._class_questions import ClassQuestions
from cogs._class_room import ClassRoom
from cogs._class_students import ClassStudents


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class Classroom(ClassRoom, ClassQuestions, ClassAssign, ClassStudents, ArdoiseCog,
                commands.GroupCog, group_name="class",
                group_description="Your class: report, students, homework, questions (teachers)"):
    """The ``/class`` group; every subcommand is for teachers (see ``interaction_check``)."""

    # The buttons of every part: the report's pages, the question sets', homework's (the post's
    # and its round's), the end of the year's question.
    persistent_items = (ReportPage, QuestionsButton, DoAssignment, RoundButton,
                        DigestReportButton, *END_OF_YEAR_ITEMS)

    flow: ClassroomFlow

    def __init__(self, bot: ServicedBot, services: Services) -> None:
        super().__init__(bot, services)
        self.flow = ClassroomFlow(bot, services)

    async def cog_load(self) -> None:
        self.flow.start()  # closing the assignments past their due date

    async def cog_unload(self) -> None:
        self.flow.stop()

    def routes(self) -> tuple[Route, ...]:
        return tuple(self.flow.routes())

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await self.flow.check(interaction)

    # --- /class report: the class, or one assignment -----------------------------------------
    # One command, as teachers look for it; the flow sends the class's or the assignment's.

    @app_commands.command(name="report", description="How the class is doing, as a picture and "
                                                     "a spreadsheet (CSV)")
    @app_commands.describe(period="Which answers: the last 7 days by default",
                           topic="Only this topic",
                           role="Only the students with this role",
                           pseudonym="Students as \"Student 1…N\" instead of their names",
                           assignment="An assignment's report instead: who did it, the scores",
                           student="One student's page instead: weeks, skills, mistakes, "
                                   "assignments",
                           web_student="The page of a student of a class room on the web "
                                       "instead")
    @app_commands.choices(period=PERIOD_OPTIONS)
    async def report(self, interaction: discord.Interaction, period: str = "week",
                     topic: str | None = None, role: discord.Role | None = None,
                     pseudonym: bool = False, assignment: str | None = None,
                     student: discord.Member | None = None,
                     web_student: str | None = None) -> None:
        await self.flow.report(interaction, period, topic, role, pseudonym, assignment,
                               student, web_student)

    @report.autocomplete("web_student")
    @teachers_choices
    async def report_web_students(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        return await self.flow.web_student_choices(interaction, current)

    @report.autocomplete("topic")
    @teachers_choices
    async def report_topics(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        return await self.flow.topic_choices(interaction, current)

    @report.autocomplete("assignment")
    @teachers_choices
    async def report_assignments(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        return await self.flow.assignment_choices(interaction, current)

    @app_commands.command(name="placement", description="Find each student's starting Focus "
                                                        "level: post the placement, or see the "
                                                        "levels it chose")
    @app_commands.describe(results="Show me the levels chosen instead, privately",
                           pseudonym="Students as \"Student 1…N\" instead of their names")
    async def placement(self, interaction: discord.Interaction, results: bool = False,
                        pseudonym: bool = False) -> None:
        await self.flow.placement(interaction, results, pseudonym)

    @app_commands.command(name="digest", description="This week's digest now: who practised, "
                                                     "skills, assignments, mistakes")
    async def digest(self, interaction: discord.Interaction) -> None:
        await self.flow.digest(interaction)

    @app_commands.command(name="end-of-year", description="Export the class to you (one zip "
                                                          "file), then erase the students' data")
    async def end_of_year(self, interaction: discord.Interaction) -> None:
        await self.flow.ask_end_of_year(interaction)  # asked first, privately


async def setup(bot: ServicedBot) -> None:
    await bot.add_cog(Classroom(bot, bot.services))
