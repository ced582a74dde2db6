"""``/class assign`` and ``/class assignments``: homework (``/class report assignment:<name>``
is the report command's, in ``cogs/classroom.py``).

A mixin of the ``/class`` group's cog (``cogs/classroom.py``). A teacher sets a Focus set (a
level, a topic or one of their question sets; on a server with a school year, the year's
questions, and ``skill:`` for some of its skills) due at a moment in the server's time zone, for
everyone or a role; the post carries a persistent "Do the assignment" button
(``bot.ui.assignments.DoAssignment``); each student takes it once, one question at a time, each
answer stored as it is given, so that an attempt interrupted (window closed, bot restarted) goes
on where it stopped. A background task closes the posts' buttons after their due date. All of it
is conducted by ``bot.flows.classroom.ClassroomFlow`` (its clocks, ``assign_now`` and
``assign_seed``, are what tests replace); the use cases are ``bot.play.assignments``.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.flows.classroom import ClassroomFlow
from bot.ui.assignments import DEFAULT_REMINDER, REMINDER_OPTIONS
from bot.ui.classroom import DEFAULT_COUNT, MAX_COUNT, NAME_LENGTH
from bot.ui.teachers import teachers_choices
from cogs import ArdoiseCog

#: The ``set`` option's texts (its Python name is ``question_set``: ``set`` is a builtin).
_SET_KEY = "commands.class.assign.params.set"


class ClassAssign(ArdoiseCog):
    """The homework commands; ``Classroom`` inherits them."""

    flow: ClassroomFlow

    @app_commands.command(name="assign", description="Set homework: Focus questions due at a "
                                                     "date, for everyone or a role")
    @app_commands.describe(
        name="Its name, unique on this server", due="Due date and time (server's time zone), "
        "e.g. 2026-12-08 18:00 or 08/12/2026 18h00; a date alone is 23:59",
        level="Questions of this level (1 to 8)", topic="Questions of this topic",
        question_set=app_commands.locale_str("Questions of one of your question sets",
                                             key=f"{_SET_KEY}.description"),
        count="How many questions (1 to 20, 6 by default)", role="Only for this role",
        skill="Only these skills of the school year (pick one, then type on for more)",
        reminder="When to remind, in its channel, those not done (24 hours before by default)",
        goal="Until a goal instead of a count: right:10 (10 right answers) or 80%:10 (80 % of "
             "the last 10)")
    @app_commands.rename(question_set=app_commands.locale_str("set", key=f"{_SET_KEY}.name"))
    @app_commands.choices(reminder=REMINDER_OPTIONS)
    async def assign(self, interaction: discord.Interaction,
                     name: app_commands.Range[str, 1, NAME_LENGTH], due: str,
                     level: app_commands.Range[int, 1, 8] | None = None,
                     topic: str | None = None, question_set: str | None = None,
                     count: app_commands.Range[int, 1, MAX_COUNT] = DEFAULT_COUNT,
                     role: discord.Role | None = None, skill: str | None = None,
                     reminder: int = DEFAULT_REMINDER, goal: str | None = None) -> None:
        await self.flow.assign(interaction, name, due, level, topic, question_set, count, role,
                               skill, reminder=reminder, goal=goal)

    @assign.autocomplete("topic")
    @teachers_choices
    async def assign_topic(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        return await self.flow.assign_topic_choices(interaction, current)

    @assign.autocomplete("skill")
    @teachers_choices
    async def assign_skill(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        return await self.flow.assign_skill_choices(interaction, current)

    @assign.autocomplete("due")
    @teachers_choices
    async def assign_due(self, interaction: discord.Interaction, current: str
                         ) -> list[app_commands.Choice[str]]:
        return await self.flow.due_choices(interaction, current)

    @assign.autocomplete("question_set")
    @teachers_choices
    async def assign_set(self, interaction: discord.Interaction, current: str
                         ) -> list[app_commands.Choice[str]]:
        return await self.flow.assign_set_choices(interaction, current)

    @app_commands.command(name="assignments", description="This server's assignments: due "
                                                          "dates, who has done them")
    async def assignments(self, interaction: discord.Interaction) -> None:
        await self.flow.assignments(interaction)
