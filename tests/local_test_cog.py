"""A test-only cog for local play's terminal (extension ``local_test_cog``): a form of two
fields, a member menu and a direct message, the shapes the product's cogs do not use yet."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands, ui

from bot.views import ArdoiseModal, ArdoiseView
from cogs import ArdoiseCog


class TwoFields(ArdoiseModal, title="Your team"):
    team: ui.TextInput[Any] = ui.TextInput(label="Team name", max_length=20)
    motto: ui.TextInput[Any] = ui.TextInput(label="Motto", required=False, max_length=40)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"Team {self.team.value} ({self.motto.value or 'no motto'})", ephemeral=True)


class FormView(ArdoiseView):
    @ui.button(label="Fill in", custom_id="local:form")
    async def fill(self, interaction: discord.Interaction, button: ui.Button[Any]) -> None:
        await interaction.response.send_modal(TwoFields())

    @ui.select(cls=ui.UserSelect, custom_id="local:members", max_values=2,
               placeholder="Team mates")
    async def mates(self, interaction: discord.Interaction, select: ui.UserSelect[Any]) -> None:
        names = sorted(member.display_name for member in select.values)
        await interaction.response.send_message("Mates: " + ", ".join(names), ephemeral=True)


class LocalTestCog(ArdoiseCog):
    group = app_commands.Group(name="local", description="Test-only commands of local play")

    @group.command(name="form", description="A form of two fields and a member menu")
    async def form(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "Make a team", view=FormView(players=[interaction.user.id]), ephemeral=True)

    @group.command(name="dm", description="Sends you a direct message")
    async def dm(self, interaction: discord.Interaction) -> None:
        await interaction.user.send("A word in private")
        await interaction.response.send_message("Sent", ephemeral=True)


async def setup(bot: Any) -> None:
    await bot.add_cog(LocalTestCog(bot, bot.services))
