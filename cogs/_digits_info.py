"""``/digits card <digit>`` and ``/digits rules``: The 20 Digits' reference (the card is
``bot/ui/digits_card.py``, the rules' pages and their buttons ``bot/ui/digits_rules.py``),
conducted by ``bot.flows.digits``.

A mixin of the ``/digits`` group's cog (``cogs/digits.py``'s ``Digits``, which inherits these
commands and builds the flow): the game itself (challenges, shop, battles) is there. Its texts
keep their catalogue, ``cogs/locales/<lang>/digits_info.json``.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.flows.digits import DigitsFlow
from bot.limits import limited
from cogs import ArdoiseCog


class DigitsInfo(ArdoiseCog):
    """The reference commands of ``/digits``; ``Digits`` (``cogs/digits.py``) inherits them."""

    flow: DigitsFlow

    @app_commands.command(name="card", description="A digit's card: tier, cost, stats and ability")
    @limited("text")
    @app_commands.describe(digit="The digit's name, in English or French",
                           show="Show the card to the whole channel (else only to you)")
    async def card(self, interaction: discord.Interaction, digit: str, show: bool = False
                   ) -> None:
        await self.flow.card(interaction, digit, show)

    @card.autocomplete("digit")
    async def card_digit(self, interaction: discord.Interaction, current: str
                         ) -> list[app_commands.Choice[str]]:
        return await self.flow.card_choices(interaction, current)

    @app_commands.command(name="rules",
                          description="The rules of The 20 Digits, in a few pages")
    @limited("text")
    @app_commands.describe(show="Show the rules to the whole channel (else only to you)")
    async def rules(self, interaction: discord.Interaction, show: bool = False) -> None:
        await self.flow.rules(interaction, show)
