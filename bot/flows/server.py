"""The pages every member reads, in the member's language: ``/help`` (the commands the member may
use, built from the command tree: ``bot.ui.help``), ``/privacy`` (what Ardoise keeps, who sees it,
how long this server keeps it: ``bot.ui.privacy``), ``/progress`` (a student's Focus accuracy,
daily streak, mastery, level and ratings, privately: ``bot.play.progress``, ``bot.ui.progress``)
and ``/leaderboard`` (a server's ranking of a game, publicly)."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence

import discord

import images
from bot import replies
from bot.domain import DomainError
from bot.flows import Flow
from bot.i18n import image_words, lang_for, t
from bot.play import progress as progress_play
from bot.play.privacy import server_retention
from bot.ui.help import help_embed
from bot.ui.members import display_names, web_names
from bot.ui.privacy import privacy_embed
from bot.ui.progress import (
    board_options,
    private_rank,
    progress_embeds,
    progress_files,
    progress_pictures,
)
from bot.ui.teachers import is_teacher

#: The rows of a public leaderboard (the member who asks is added below when further down).
TOP = 10


class ServerFlow(Flow):
    async def help(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        embed = help_embed(self.bot.tree, lang, teacher=await is_teacher(interaction),
                           in_server=interaction.guild_id is not None)
        await replies.respond(interaction, embed=embed, ephemeral=True)

    async def privacy(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None  # the command is guild_only
        retention = await server_retention(self.services.db, interaction.guild_id)
        embed = privacy_embed(retention, lang, self.services.settings.privacy_url)
        await replies.respond(interaction, embed=embed, ephemeral=True)

    async def progress(self, interaction: discord.Interaction,
                       member: discord.Member | None) -> None:
        """A student's own progress, or (teachers only) another member's: privately, the
        pictures drawn off the event loop."""
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None  # the command is guild_only
        target = member or interaction.user
        if target.id != interaction.user.id and not await is_teacher(interaction):
            raise DomainError("progress.teachers_only",
                              "only teachers may see another member's progress")
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await progress_play.student_progress(self.services.db, guild_id, target.id,
                                                    target.display_name)
        pictures = await asyncio.to_thread(progress_pictures, data, lang)
        await replies.followup(interaction, embeds=progress_embeds(data, lang),
                               files=progress_files(pictures, data, lang), ephemeral=True)

    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        """The server's ranking of ``game``, for the channel; a student anonymous or hidden in
        rankings reads their own place privately."""
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None  # the command is guild_only
        progress_play.check_board(game)  # before the deferral: the member reads it privately
        await interaction.response.defer(thinking=True)
        ranking = await progress_play.board(self.services.db, guild_id, game)
        rows, options = ranking.rows, board_options(ranking, lang)
        me = interaction.user.id
        # A student anonymous or hidden in rankings is never framed nor added below the top:
        # the message is public and says who asked.
        shown = rows[:TOP] + [r for r in rows[TOP:] if r["user_id"] == me and me not in
                              ranking.private]
        names = await self._names(interaction, [r["user_id"] for r in shown
                                                if not r["anonymous"]], lang)
        for row in shown:
            row["name"] = (t("class_students.a_student", lang) if row["anonymous"]
                           else names[row["user_id"]])
        mine = next((r["name"] for r in shown if r["user_id"] == me and not r["anonymous"]),
                    None)
        title = t(f"progress.board.title.{game}", lang)
        picture = await asyncio.to_thread(images.render_leaderboard, shown, image_words(lang),
                                          title=title, highlight=mine, limit=TOP, **options)
        await replies.followup(
            interaction,
            title, file=discord.File(io.BytesIO(picture), "leaderboard.png", description=title))
        if me in ranking.private:  # their own place, for them alone
            await replies.followup(interaction, private_rank(ranking, me, lang), ephemeral=True)

    async def _names(self, interaction: discord.Interaction, user_ids: Sequence[int],
                     lang: str) -> dict[int, str]:
        """Display names of these members (the member cache is empty: fetched, together)."""
        gone = t("progress.board.former_member", lang)
        guild = interaction.guild
        names = {interaction.user.id: interaction.user.display_name}
        wanted = [uid for uid in dict.fromkeys(user_ids) if uid not in names]
        names.update(await display_names(guild, wanted, absent=gone))
        # A web student of a class room: "Léa (web)" (never asked of Discord).
        names.update(await web_names(self.services.db, interaction.guild_id, wanted, lang))
        return names
