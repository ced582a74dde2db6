"""``/rithmo hint`` and ``/rithmo puzzle``: a capture open this turn, and the daily puzzle.

A mixin of the ``/rithmo`` group's cog (``cogs/rithmo.py``'s ``Rithmo``, which inherits these
commands and gives ``service`` and ``current_game``). The use cases are
``bot.play.rithmo_puzzles``, the presentation ``bot.ui.rithmo_puzzles``; the texts keep their
catalogue, ``cogs/locales/<lang>/rithmo_puzzles.json``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot import replies
from bot.i18n import lang_for
from bot.limits import hit, limited
from bot.play import rithmo_puzzles as puzzles
from bot.play.rithmo import RithmoService
from bot.ui.rithmo_puzzles import hint_text, send_puzzle, verdict_text
from db import RithmoGame


class RithmoPuzzles:
    """The hint and puzzle commands of ``/rithmo``; ``Rithmo`` inherits them."""

    service: RithmoService
    current_game: Callable[..., Awaitable[RithmoGame]]
    bot: Any

    @app_commands.command(name="hint",
                          description="One capture open to you this turn, with its arithmetic")
    @limited("text")
    async def hint(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        row = await self.current_game(interaction)
        given = await puzzles.give_hint(self.service, row, interaction.user.id, lang)
        await replies.respond(interaction, hint_text(given, lang), ephemeral=True)

    @app_commands.command(name="puzzle",
                          description="The puzzle of the day: find the best capture")
    @limited("text")
    @app_commands.describe(answer="Your turn, like xd7 c3-d7 (else the Answer button)")
    @app_commands.guild_only()
    async def puzzle(self, interaction: discord.Interaction, answer: str | None = None) -> None:
        if answer is not None:
            await self.answer_puzzle(interaction, None, answer)
            return
        hit(interaction, "picture")  # the position's picture; an answer counts as a turn
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        today = await puzzles.daily(self.bot.db, interaction.guild_id, interaction.user.id)
        await send_puzzle(interaction, today, lang)

    async def answer_puzzle(self, interaction: discord.Interaction, puzzle_id: int | None,
                            text: str) -> None:
        """A turn given to the puzzle ``puzzle_id`` (None: today's), from the form or typed."""
        hit(interaction, "turn")
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        answered = await puzzles.answer(self.bot.db, interaction.guild_id, interaction.user.id,
                                        puzzle_id, text)
        await replies.followup(interaction, verdict_text(answered, lang), ephemeral=True)
