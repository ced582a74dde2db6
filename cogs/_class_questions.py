"""``/class questions upload|list|show|delete``: a teacher's own questions, by named set.

A mixin of the ``/class`` cog (``cogs/classroom.py``'s ``Classroom``, which inherits the
subgroup and its teacher check). The conductor is ``bot.flows.classroom.ClassroomFlow``, the
reading and the storage ``bot.play.question_sets``, the presentation ``bot.ui.question_sets``; a
set is practised with ``/focus practice set:`` and used by live rounds and assignments.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.flows.classroom import ClassroomFlow
from bot.ui.teachers import teachers_choices
from cogs import ArdoiseCog


class ClassQuestions(ArdoiseCog):
    """The ``/class questions`` subgroup (an ``app_commands.Group`` class attribute: the group
    cog that inherits it makes it its subgroup)."""

    flow: ClassroomFlow

    questions = app_commands.Group(name="questions",
                                   description="Your own questions, by set (teachers)")

    @questions.command(name="upload", description="Add a set of questions from a CSV or JSON "
                                                  "file: question, answer, topic")
    @app_commands.describe(file="A .csv (question,answer,topic) or .json file",
                           name="The set's name (by default, the file's name)")
    async def questions_upload(self, interaction: discord.Interaction,
                               file: discord.Attachment, name: str | None = None) -> None:
        await self.flow.upload_questions(interaction, file, name)

    @questions.command(name="list", description="The server's question sets")
    async def questions_list(self, interaction: discord.Interaction) -> None:
        await self.flow.list_questions(interaction)

    @questions.command(name="show", description="A set's questions and answers, and the set as "
                                                "a CSV file to edit")
    @app_commands.describe(name="The set")
    async def questions_show(self, interaction: discord.Interaction, name: str) -> None:
        await self.flow.show_questions(interaction, name)

    @questions.command(name="delete", description="Delete a set (after a confirmation)")
    @app_commands.describe(name="The set")
    async def questions_delete(self, interaction: discord.Interaction, name: str) -> None:
        await self.flow.delete_questions(interaction, name)

    @questions_show.autocomplete("name")
    @questions_delete.autocomplete("name")
    @teachers_choices
    async def question_set_choices(self, interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
        return await self.flow.question_set_choices(interaction, current)
