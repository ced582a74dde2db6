"""``/privacy``: what Ardoise keeps of a member, who sees it, how long this server keeps it and
how to get it or be forgotten; private, in the member's language (``bot.flows.server``). The whole
page is docs/privacy.md (docs/privacy.fr.md in French).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.flows.server import ServerFlow
from bot.limits import limited
from bot.services import ServicedBot, Services
from cogs import ArdoiseCog


class Privacy(ArdoiseCog):
    def __init__(self, bot: ServicedBot, services: Services) -> None:
        super().__init__(bot, services)
        self.flow = ServerFlow(bot, services)

    @app_commands.command(name="privacy",
                          description="What Ardoise keeps about you, who sees it, for how long")
    @limited("text")
    @app_commands.guild_only()
    async def privacy(self, interaction: discord.Interaction) -> None:
        await self.flow.privacy(interaction)


async def setup(bot: ServicedBot) -> None:
    await bot.add_cog(Privacy(bot, bot.services))
