"""``/privacy``: what Ardoise keeps of a member, who sees it, how long this server keeps it and
how to get it or be forgotten; private, in the member's language (``bot.ui.privacy``). The whole
page is docs/privacy.md (docs/privacy.fr.md in French).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot import replies
from bot.i18n import lang_for
from bot.limits import limited
from bot.play.privacy import server_retention
from bot.services import ServicedBot
from bot.ui.privacy import privacy_embed
from cogs import ArdoiseCog


class Privacy(ArdoiseCog):
    @app_commands.command(name="privacy",
                          description="What Ardoise keeps about you, who sees it, for how long")
    @limited("text")
    @app_commands.guild_only()
    async def privacy(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        retention = await server_retention(self.services.db, interaction.guild_id)
        embed = privacy_embed(retention, lang, self.services.settings.privacy_url)
        await replies.respond(interaction, embed=embed, ephemeral=True)


async def setup(bot: ServicedBot) -> None:
    await bot.add_cog(Privacy(bot, bot.services))
