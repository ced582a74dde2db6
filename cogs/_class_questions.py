"""``/class questions upload|list|show|delete``: a teacher's own questions, by named set.

A mixin of the ``/class`` cog (``cogs/classroom.py``'s ``Classroom``, which inherits the
subgroup and its teacher check). The reading and the storage are ``bot.play.question_sets``, the
presentation ``bot.ui.question_sets``; a set is practised with ``/focus practice set:`` and used
by live rounds and assignments.
"""

from __future__ import annotations

import aiohttp
import discord
from discord import app_commands

from bot import replies
from bot.domain import DomainError
from bot.i18n import lang_for
from bot.play import question_sets as play
from bot.ui.members import display_names
from bot.ui.question_sets import (
    QuestionsButton,
    delete_reply,
    list_embed,
    pending_uploads,
    set_choices,
    show_reply,
    stored_embed,
    upload_reply,
)
from bot.ui.teachers import teachers_choices
from cogs import ArdoiseCog


class ClassQuestions(ArdoiseCog):
    """The ``/class questions`` subgroup (an ``app_commands.Group`` class attribute: the group
    cog that inherits it makes it its subgroup)."""

    #: For the ``/class`` cog's ``persistent_items``.
    question_items = (QuestionsButton,)

    questions = app_commands.Group(name="questions",
                                   description="Your own questions, by set (teachers)")

    @questions.command(name="upload", description="Add a set of questions from a CSV or JSON "
                                                  "file: question, answer, topic")
    @app_commands.describe(file="A .csv (question,answer,topic) or .json file",
                           name="The set's name (by default, the file's name)")
    async def questions_upload(self, interaction: discord.Interaction,
                               file: discord.Attachment, name: str | None = None) -> None:
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None
        play.file_kind(file.filename)
        play.check_size(file.size)  # refused before it is downloaded
        chosen = await play.free_name(self.services.db, guild_id,
                                      name or play.default_name(file.filename))
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            data = await file.read()
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError):
            # Discord's CDN failed, not the bot: the teacher only has to send the file again.
            raise DomainError("class.questions.download_failed",
                              "the file could not be downloaded") from None
        read = play.read_file(file.filename, data)
        if not read.refused:
            stored = await play.store_set(self.services.db, guild_id, chosen, interaction.user.id,
                                          read.items)
            await replies.followup(interaction, embed=stored_embed(stored, lang), ephemeral=True)
            return
        token = None
        if read.items:
            token = pending_uploads(interaction.client).put(guild_id, interaction.user.id,
                                                            chosen, read.items)
        await replies.followup(interaction, ephemeral=True,
                               **upload_reply(read, chosen, lang, token, interaction))

    @questions.command(name="list", description="The server's question sets")
    async def questions_list(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        assert interaction.guild is not None
        sets = await play.server_sets(self.services.db, interaction.guild.id)
        # A teacher gone from the server is absent: "a former teacher".
        authors = await display_names(interaction.guild, [s.set.author_id for s in sets
                                                          if s.set.author_id is not None])
        await replies.respond(interaction, embed=list_embed(sets, authors, lang), ephemeral=True)

    @questions.command(name="show", description="A set's questions and answers, and the set as "
                                                "a CSV file to edit")
    @app_commands.describe(name="The set")
    async def questions_show(self, interaction: discord.Interaction, name: str) -> None:
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        found, items = await play.set_with_items(self.services.db, interaction.guild_id, name)
        await replies.respond(interaction, ephemeral=True, **show_reply(found, items, lang))

    @questions.command(name="delete", description="Delete a set (after a confirmation)")
    @app_commands.describe(name="The set")
    async def questions_delete(self, interaction: discord.Interaction, name: str) -> None:
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        found = await play.find_set(self.services.db, interaction.guild_id, name)
        await replies.respond(interaction, ephemeral=True, **delete_reply(found, lang))

    @questions_show.autocomplete("name")
    @questions_delete.autocomplete("name")
    @teachers_choices
    async def question_set_choices(self, interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
        return await set_choices(interaction, current)
