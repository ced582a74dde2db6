"""The pages every member reads, private and in the member's language: ``/help`` (the commands
the member may use, built from the command tree: ``bot.ui.help``) and ``/privacy`` (what Ardoise
keeps, who sees it, how long this server keeps it: ``bot.ui.privacy``)."""

from __future__ import annotations

import discord

from bot import replies
from bot.flows import Flow
from bot.i18n import lang_for
from bot.play.privacy import server_retention
from bot.ui.help import help_embed
from bot.ui.privacy import privacy_embed
from bot.ui.teachers import is_teacher


class ServerFlow(Flow):
    async def help(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        embed = help_embed(self.bot.tree, lang, teacher=await is_teacher(interaction),
                           in_server=interaction.guild_id is not None)
        await replies.respond(interaction, embed=embed, ephemeral=True)

    async def privacy(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None  # the command is guild_only
        retention = await server_retention(self.services.db, interaction.guild_id)
        embed = privacy_embed(retention, lang, self.services.settings.privacy_url)
        await replies.respond(interaction, embed=embed, ephemeral=True)
