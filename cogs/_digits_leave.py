"""``/digits resign`` and the shop clock's loop: leaving a match of The 20 Digits.

A mixin of the ``/digits`` group's cog (``cogs/digits.py``'s ``Digits`` inherits it, as
``cogs/_digits_info.py``). The flow (``bot.flows.digits``) conducts both: the question of
``/digits resign``, and each look at the shop clocks (warn the late players, end the turns and
the matches whose time is up). The use cases are ``bot.play.digits_leave``, what is said
``bot.ui.digits_leave``; texts in ``cogs/locales/<lang>/digits_leave.json``.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import tasks

from bot.flows.digits import CLOCK_CHECK_S, DigitsFlow
from bot.limits import limited
from cogs import ArdoiseCog


class DigitsLeave(ArdoiseCog):
    """``/digits resign`` and the clock; ``Digits`` (``cogs/digits.py``) inherits them."""

    flow: DigitsFlow

    async def cog_load(self) -> None:
        await super().cog_load()
        self.clock_loop.start()

    async def cog_unload(self) -> None:
        self.clock_loop.cancel()
        self.flow.close()
        await super().cog_unload()

    @app_commands.command(name="resign", description="Resign one of your matches: the other "
                                                     "side wins")
    @limited("text")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self.flow.resign(interaction)

    @tasks.loop(seconds=CLOCK_CHECK_S)
    async def clock_loop(self) -> None:
        await self.flow.check_clocks()

    @clock_loop.before_loop
    async def _before_clocks(self) -> None:
        await self.flow.wait_until_ready()
