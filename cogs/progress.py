"""``/progress [member]`` and ``/leaderboard <game>``: how a student is doing, and the server's
rankings. The commands and their options only; ``bot.flows.server.ServerFlow`` conducts them.

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

import discord
from discord import app_commands

from bot.flows.server import ServerFlow
from bot.limits import limited
from bot.services import ServicedBot, Services
from bot.ui.progress import board_choices
from cogs import ArdoiseCog


class Progress(ArdoiseCog):
    def __init__(self, bot: ServicedBot, services: Services) -> None:
        super().__init__(bot, services)
        self.flow = ServerFlow(bot, services)

    @app_commands.command(name="progress",
                          description="Focus accuracy, daily streak, level and ratings")
    @limited("picture")
    @app_commands.describe(member="Whose progress: yours by default (someone else's: teachers)")
    @app_commands.guild_only()
    async def progress(self, interaction: discord.Interaction,
                       member: discord.Member | None = None) -> None:
        await self.flow.progress(interaction, member)

    @app_commands.command(name="leaderboard", description="The server's leaderboard of a game")
    @limited("picture")
    @app_commands.describe(game="Which ranking")
    @app_commands.choices(game=board_choices())
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        await self.flow.leaderboard(interaction, game)


async def setup(bot: ServicedBot) -> None:
    await bot.add_cog(Progress(bot, bot.services))
