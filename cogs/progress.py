"""``/progress [member]`` and ``/leaderboard <game>``: how a student is doing, and the server's
rankings.

``/progress`` is private (ephemeral): the student's Focus accuracy per topic over the last weeks
(``images.render_progress`` from ``db.focus.progress``), the calendar of their daily challenges
(``images.render_streak`` from ``db.daily.days_played``), their mastery map (the tables'
facts and the skills, ``images.render_mastery`` from ``db.mastery``), their Focus level as they
play it (the pinned level when the teacher set one) and their rating in each game. A student
sees their own; another member's is for teachers (Manage Server or a teachers' role,
``bot.ui.teachers``), who follow each student that way.

``/leaderboard`` is public: the server's ranking by rating (The 20 Digits, Rithmomachia, from
``db.players.leaderboard``), today's daily challenge (``db.daily.leaderboard``) or the current
daily streaks (``db.players.streaks``), drawn by ``images.render_leaderboard``; the member who
asks is framed, and shown below the top ten when further down. A student a teacher made
anonymous (``/class student``) is "a student" there, a hidden one is left out; asking, they are
neither framed nor added, and read their own place privately.

Days are the server's local days (its time zone, ``/settings daily``).
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence

import discord
from discord import app_commands

import images
from bot import replies
from bot.domain import DomainError
from bot.i18n import image_words, lang_for, t
from bot.limits import limited
from bot.play import progress as service
from bot.services import ServicedBot
from bot.ui.members import fetch_members
from bot.ui.progress import (
    board_choices,
    board_options,
    private_rank,
    progress_embeds,
    progress_pictures,
)
from bot.ui.teachers import is_teacher
from cogs import ArdoiseCog

TOP = 10


class Progress(ArdoiseCog):
    @app_commands.command(name="progress",
                          description="Focus accuracy, daily streak, level and ratings")
    @limited("picture")
    @app_commands.describe(member="Whose progress: yours by default (someone else's: teachers)")
    @app_commands.guild_only()
    async def progress(self, interaction: discord.Interaction,
                       member: discord.Member | None = None) -> None:
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None
        target = member or interaction.user
        if target.id != interaction.user.id and not await is_teacher(interaction):
            raise DomainError("progress.teachers_only",
                              "only teachers may see another member's progress")
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await service.student_progress(self.services.db, guild_id, target.id,
                                              target.display_name)
        chart, calendar, mastery = await asyncio.to_thread(progress_pictures, data, lang)
        files = [
            discord.File(io.BytesIO(chart), "progress.png",
                         description=t("progress.chart_title", lang, name=data.name)),
            discord.File(io.BytesIO(calendar), "streak.png",
                         description=t("progress.streak_title", lang, name=data.name)),
            discord.File(io.BytesIO(mastery), "mastery.png",
                         description=t("mastery.map_title", lang, name=data.name)),
        ]
        await replies.followup(interaction, embeds=progress_embeds(data, lang), files=files,
                               ephemeral=True)

    @app_commands.command(name="leaderboard", description="The server's leaderboard of a game")
    @limited("picture")
    @app_commands.describe(game="Which ranking")
    @app_commands.choices(game=board_choices())
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None
        service.check_board(game)  # before the deferral: the member reads it privately
        await interaction.response.defer(thinking=True)
        ranking = await service.board(self.services.db, guild_id, game)
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

        found = await fetch_members(guild, wanted) if guild is not None else {}
        for uid in wanted:
            member = found.get(uid)
            names[uid] = member.display_name if member is not None else gone
        return names


async def setup(bot: ServicedBot) -> None:
    await bot.add_cog(Progress(bot, bot.services))
