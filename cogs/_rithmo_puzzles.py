"""``/rithmo hint`` and ``/rithmo puzzle``: a mixin of the ``/rithmo`` group's cog
(``cogs/rithmo.py``'s ``Rithmo``, whose ``flow`` it calls). Their conducting is
``bot.flows.rithmo.RithmoFlow``'s (``hint``, ``puzzle``), the use cases
``bot.play.rithmo_puzzles``, the presentation ``bot.ui.rithmo_puzzles``."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.flows.rithmo import RithmoFlow
from bot.limits import limited
from cogs import ArdoiseCog


class RithmoPuzzles(ArdoiseCog):
    flow: RithmoFlow

    @app_commands.command(name="hint",
                          description="One capture open to you this turn, with its arithmetic")
    @limited("text")
    async def hint(self, interaction: discord.Interaction) -> None:
        await self.flow.hint(interaction)

    @app_commands.command(name="puzzle",
                          description="The puzzle of the day: find the best capture")
    @limited("text")
    @app_commands.describe(answer="Your turn, like xd7 c3-d7 (else the Answer button)",
                           practice="A past or new puzzle to practise on: it counts for nothing")
    @app_commands.guild_only()
    async def puzzle(self, interaction: discord.Interaction, answer: str | None = None,
                     practice: bool = False) -> None:
        await self.flow.puzzle(interaction, answer, practice)
