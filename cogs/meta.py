"""``/help``: every command of the bot, in the member's language, built from the command tree.

Nothing here lists commands by hand: a cog's new command shows up in /help by being registered.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot import replies
from bot.i18n import lang_for
from bot.limits import limited
from bot.ui.help import help_embed
from cogs import ArdoiseCog


class Meta(ArdoiseCog):
    @app_commands.command(name="help", description="Ardoise's commands and what they do")
    @limited("text")
    async def help(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        await replies.respond(interaction, embed=help_embed(self.bot.tree, lang),
                              ephemeral=True)


async def setup(bot: Any) -> None:
    await bot.add_cog(Meta(bot))
