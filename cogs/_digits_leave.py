"""``/digits resign`` and the shop clock's loop: leaving a match of The 20 Digits.

A mixin of the ``/digits`` group's cog (``cogs/digits.py``'s ``Digits`` inherits it, as
``cogs/_digits_info.py``). ``solo_open_asked`` is what ``/digits solo`` calls first: with a solo
match open, the member is asked whether to go on with it or resign it and start anew. The use
cases are ``bot.play.digits_leave``, what is said ``bot.ui.digits_leave``; texts in
``cogs/locales/<lang>/digits_leave.json``.
"""

from __future__ import annotations

import logging
from datetime import datetime

import discord
from discord import app_commands
from discord.ext import tasks

from bot.limits import limited
from bot.play import digits_leave as leave
from bot.ui import digits_leave as leave_ui
from cogs import ArdoiseCog

log = logging.getLogger(__name__)

#: Seconds between two looks at the shop clocks.
CLOCK_CHECK_S = 60


class DigitsLeave(ArdoiseCog):
    """``/digits resign`` and the clock; ``Digits`` (``cogs/digits.py``) inherits them."""


    async def cog_load(self) -> None:
        await super().cog_load()
        self.clock_loop.start()

    async def cog_unload(self) -> None:
        self.clock_loop.cancel()
        await super().cog_unload()

    @app_commands.command(name="resign", description="Resign one of your matches: the other "
                                                     "side wins")
    @limited("text")
    async def resign(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        games = await leave.open_matches(self.services.db, interaction.guild_id,
                                         interaction.user.id)
        await leave_ui.ask_resign(interaction, games)

    async def solo_open_asked(self, interaction: discord.Interaction, level: str) -> bool:
        """``/digits solo``'s first step: True when a solo match is open and the member was
        asked what to do with it (the command then does nothing more); a new match started
        from the question is at ``level``, the one the command asked for."""
        return await leave_ui.ask_open_solo(interaction, level)

    # the clock -------------------------------------------------------------------------

    @tasks.loop(seconds=CLOCK_CHECK_S)
    async def clock_loop(self) -> None:
        await self.check_clocks()

    @clock_loop.before_loop
    async def _before_clocks(self) -> None:
        await self.bot.wait_until_ready()

    async def check_clocks(self, now: datetime | None = None) -> None:
        """Warn the late players, end the turns and the matches whose time is up (the first run
        after a start finds what fell due while the bot was away)."""
        if self.services.db is None:
            return
        for event in await leave.tick(self.services.db, now, self.services.owns):
            try:
                await leave_ui.tell(self.bot, event)
            except Exception:
                log.exception("clock of match %s", event.game.id)
