"""``/focus practice``, ``/focus daily``, ``/focus live``, ``/focus leaderboard``: the commands
and their options only. The Focus conductor (``bot.flows.focus.FocusFlow``) conducts them:

- Practice: six questions at the member's level (the adaptive level of ``bot.focus.next_level``,
  or the teacher's pinned level, within the server's range), or from a teacher's set, one at a
  time in an ephemeral window (``bot.ui.focus_run``); at the end the corrections and the level of
  the next round.
- The daily challenge: the same six questions for every member of a server on a date, one
  attempt each, resumable; the streak and the rank at the end; and its daily post, with a
  persistent "Take today's challenge" button, by a background task of the flow.
- Live class rounds (``cogs/_focus_live.py``, a mixin; ``bot.flows.focus_live``): a teacher posts
  questions one at a time in the channel; everyone answers through a modal; the round runs itself.
- The leaderboard: today's ranking as an image, and the member's streak.
- Homework (``/focus homework``): the member's open assignments, each with a button that opens
  it where they left it (the classroom's flow conducts it: ``bot.flows.classroom``).

Tests reach the flow as ``bot.get_cog("Focus").flow`` (its clocks ``now``, ``wall``, ``seed``,
``post_due_dailies``, ``autopost``, the live timers).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.flows.focus import FocusFlow
from bot.limits import limited
from bot.services import ServicedBot, Services
from bot.ui.assignments import HomeworkButton
from bot.ui.focus import TakeDaily
from bot.ui.focus_live import (
    LiveAnswerButton,
    LiveEndButton,
    LiveNextButton,
    LivePauseButton,
    LiveReportButton,
    LiveSkipButton,
)
from bot.ui.focus_run import RoundButton
from bot.ui.placement import PERSISTENT_ITEMS as PLACEMENT_ITEMS
from bot.views import Route
from cogs import ArdoiseCog
from cogs._focus_live import FocusLive


class Focus(FocusLive, ArdoiseCog, commands.GroupCog, group_name="focus",
            group_description="Focus: quick arithmetic rounds and the daily challenge"):
    persistent_items = (TakeDaily, LiveAnswerButton, LiveNextButton, LivePauseButton,
                        LiveSkipButton, LiveEndButton, LiveReportButton, RoundButton,
                        HomeworkButton, *PLACEMENT_ITEMS)

    def __init__(self, bot: ServicedBot, services: Services) -> None:
        super().__init__(bot, services)
        self.flow = FocusFlow(bot, services)

    async def cog_load(self) -> None:
        await self.flow.load()

    async def cog_unload(self) -> None:
        self.flow.unload()

    def routes(self) -> Sequence[Route]:
        return self.flow.routes()

    @app_commands.command(name="practice", description="A round of six questions at your level")
    @limited("round")
    @app_commands.describe(level="The level to practise (1 to 8); by default, yours",
                           set="Your teacher's questions instead (a set has no level)")
    async def practice(self, interaction: discord.Interaction,
                       level: app_commands.Range[int, 1, 8] | None = None,
                       set: str | None = None) -> None:
        await self.flow.practice(interaction, level, set)

    @practice.autocomplete("set")
    async def practice_sets(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        return await self.flow.practice_sets(interaction, current)

    @app_commands.command(name="placement",
                          description="Find your level: 12 questions at most, harder after a "
                                      "right answer, easier after a wrong one")
    @limited("round")
    async def placement(self, interaction: discord.Interaction) -> None:
        await self.flow.placement(interaction)

    @app_commands.command(name="daily", description="Today's challenge: the same six questions "
                                                    "for everyone, one attempt a day")
    @limited("round")
    async def daily(self, interaction: discord.Interaction) -> None:
        await self.flow.daily(interaction)

    @app_commands.command(name="homework", description="Your open assignments on this server: "
                                                       "due dates, where you are, a button each")
    async def homework(self, interaction: discord.Interaction) -> None:
        await self.flow.homework(interaction)

    @app_commands.command(name="leaderboard",
                          description="Today's daily challenge ranking, and your streak")
    @limited("picture")
    @app_commands.describe(show="Show the ranking to the whole channel")
    async def leaderboard(self, interaction: discord.Interaction, show: bool = False) -> None:
        await self.flow.leaderboard(interaction, show)


async def setup(bot: ServicedBot) -> None:
    await bot.add_cog(Focus(bot, bot.services))
