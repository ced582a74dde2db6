"""``/help``: the commands the member may use, in their language, built from the command tree
(``bot.ui.help``): a teacher also sees the teachers' commands.

Nothing here lists commands by hand: a cog's new command shows up in /help by being registered.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot import replies
from bot.i18n import lang_for
from bot.limits import limited
from bot.services import ServicedBot
from bot.ui.help import help_embed
from bot.ui.teachers import is_teacher
from cogs import ArdoiseCog


class Meta(ArdoiseCog):
    @app_commands.command(name="help", description="Ardoise's commands and what they do")
    @limited("text")
    async def help(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        embed = help_embed(self.bot.tree, lang, teacher=await is_teacher(interaction),
                           in_server=interaction.guild_id is not None)
        await replies.respond(interaction, embed=embed, ephemeral=True)


async def setup(bot: ServicedBot) -> None:
    await bot.add_cog(Meta(bot, bot.services))
