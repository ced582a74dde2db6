"""``/focus live``: a live class round for the whole channel (teachers).

A mixin of the ``/focus`` group's cog (``cogs/focus.py``'s ``Focus``, which inherits it): the
command and its options only. The round is conducted by ``bot.flows.focus_live.LiveFlow`` (the
base of the Focus flow): the questions posted one at a time, the answers through a modal, the
teacher's controls, the timers that close each question and post the next, the report.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.flows.focus import FocusFlow
from bot.ui.teachers import teachers_choices
from cogs import ArdoiseCog


class FocusLive(ArdoiseCog):
    """The live round's command; ``Focus`` inherits it (and builds ``flow``)."""

    flow: FocusFlow

    @app_commands.command(name="live",
                          description="Run a Focus for the whole channel, live (teachers)")
    @app_commands.describe(count="How many questions (1 to 20; 6 by default, or all of the set)",
                           level="The questions' level (1 to 8)",
                           seconds="Time to answer each question (5 to 300, 20 by default)",
                           set="One of your question sets instead of a level",
                           auto="Questions close and follow each other by themselves "
                                "(yes by default)",
                           skill="Only these skills of the school year (pick one, then type on "
                                 "for more)")
    async def live(self, interaction: discord.Interaction,
                   count: app_commands.Range[int, 1, 20] | None = None,
                   level: app_commands.Range[int, 1, 8] | None = None,
                   seconds: app_commands.Range[int, 5, 300] = 20,
                   set: str | None = None, auto: bool = True, skill: str | None = None) -> None:
        await self.flow.live(interaction, count, level, seconds, set, auto, skill)

    @live.autocomplete("set")
    @teachers_choices
    async def live_sets(self, interaction: discord.Interaction,
                        current: str) -> list[app_commands.Choice[str]]:
        return await self.flow.live_sets(interaction, current)

    @live.autocomplete("skill")
    @teachers_choices
    async def live_skills(self, interaction: discord.Interaction,
                          current: str) -> list[app_commands.Choice[str]]:
        return await self.flow.live_skills(interaction, current)
