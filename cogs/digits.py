"""``/digits challenge``, ``/digits solo`` and ``/digits odds``: The 20 Digits on Discord.

Thin: each command calls one method of the game's conductor, ``bot.flows.digits.DigitsFlow``
(which calls the use cases of ``bot.play.digits`` and says the answer with ``bot.ui.digits``,
where the buttons and the shop windows are). ``/digits card`` and ``/digits rules`` are in
``cogs/_digits_info.py``, ``/digits resign`` and the shop clock in ``cogs/_digits_leave.py``:
mixins of this cog, which builds the flow they call.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.flows.digits import DigitsFlow
from bot.limits import limited
from bot.services import ServicedBot, Services
from bot.ui import digits as digits_ui
from bot.ui import digits_end as end_ui
from bot.ui import digits_leave as leave_ui
from bot.ui import digits_levels as levels_ui
from bot.ui import digits_odds as odds_ui
from bot.ui import digits_rules as rules_ui
from bot.views import Route
from cogs import ArdoiseCog
from cogs._digits_info import DigitsInfo
from cogs._digits_leave import DigitsLeave


class Digits(DigitsLeave, DigitsInfo, ArdoiseCog, commands.GroupCog, group_name="digits",
             group_description="The 20 Digits: the auto-battler of numbers"):
    persistent_items = (*digits_ui.PERSISTENT_ITEMS, *rules_ui.PERSISTENT_ITEMS,
                        *leave_ui.PERSISTENT_ITEMS, *end_ui.PERSISTENT_ITEMS,
                        *odds_ui.PERSISTENT_ITEMS)

    def __init__(self, bot: ServicedBot, services: Services) -> None:
        super().__init__(bot, services)
        self.flow = DigitsFlow(bot, services)

    def routes(self) -> Sequence[Route]:
        return self.flow.routes()

    @app_commands.command(name="challenge", description="Challenge a member to a match")
    @limited("start")
    @app_commands.describe(member="The member you challenge",
                           draft="Pick in turn from one shared row instead of private shops")
    async def challenge(self, interaction: discord.Interaction, member: discord.Member,
                        draft: bool | None = None) -> None:
        await self.flow.challenge(interaction, member, draft)

    @app_commands.command(name="solo", description="Play a match against other players' ghosts")
    @limited("start")
    @app_commands.describe(level="How strong the shadow plays: gentle (default), fair, strong, "
                                 "or adapted to your results")
    @app_commands.choices(level=levels_ui.LEVEL_CHOICES)
    async def solo(self, interaction: discord.Interaction,
                   level: str = levels_ui.DEFAULT_LEVEL) -> None:
        await self.flow.solo(interaction, level)

    @app_commands.command(name="odds",
                          description="Your chances in this round's battle, with your slate as "
                                      "it stands")
    @limited("odds")
    async def odds(self, interaction: discord.Interaction) -> None:
        await self.flow.odds(interaction)


async def setup(bot: ServicedBot) -> None:
    await bot.add_cog(Digits(bot, bot.services))
