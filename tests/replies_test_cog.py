"""A test-only cog: ``/echo`` answers with what it is given, as long as it is, through
``bot.replies`` (so that ``fit`` is what stands between it and Discord's refusal)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot import replies
from cogs import ArdoiseCog


class Echo(ArdoiseCog):
    @app_commands.command(name="echo", description="Say it back, however long")
    async def echo(self, interaction: discord.Interaction, text: str, title: str) -> None:
        await replies.respond(interaction, text, embed=discord.Embed(title=title),
                              ephemeral=True)


async def setup(bot: Any) -> None:
    await bot.add_cog(Echo(bot, bot.services))
