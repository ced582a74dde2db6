"""``/help``: the commands the member may use, in their language, built from the command tree
(``bot.flows.server``, ``bot.ui.help``): a teacher also sees the teachers' commands.

Nothing here lists commands by hand: a cog's new command shows up in /help by being registered.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.flows.server import ServerFlow
from bot.limits import limited
from bot.services import ServicedBot, Services
from cogs import ArdoiseCog


class Meta(ArdoiseCog):
    def __init__(self, bot: ServicedBot, services: Services) -> None:
        super().__init__(bot, services)
        self.flow = ServerFlow(bot, services)

    @app_commands.command(name="help", description="Ardoise's commands and what they do")
    @limited("text")
    async def help(self, interaction: discord.Interaction) -> None:
        await self.flow.help(interaction)


async def setup(bot: ServicedBot) -> None:
    await bot.add_cog(Meta(bot, bot.services))
