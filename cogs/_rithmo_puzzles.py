"""``/rithmo hint`` and ``/rithmo puzzle``: a mixin of the ``/rithmo`` group's cog
(``cogs/rithmo.py``'s ``Rithmo``, whose ``service`` and ``current_game`` it reaches as the
Rithmomachia flows kept in the services). The use cases are
``bot.play.rithmo_puzzles``; the presentation and the puzzle's flows ``bot.ui.rithmo_puzzles``."""

from __future__ import annotations

import discord
from discord import app_commands

from bot import replies
from bot.i18n import lang_for
from bot.limits import limited
from bot.play.rithmo_puzzles import give_hint
from bot.ui.rithmo import RITHMO_FLOWS
from bot.ui.rithmo_puzzles import answer_puzzle, hint_text, show_puzzle
from cogs import ArdoiseCog


class RithmoPuzzles(ArdoiseCog):

    @app_commands.command(name="hint",
                          description="One capture open to you this turn, with its arithmetic")
    @limited("text")
    async def hint(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        flows = self.services.kept.get(RITHMO_FLOWS)  # the Rithmo cog's
        given = await give_hint(flows.service, await flows.current_game(interaction),
                                interaction.user.id, lang)
        await replies.respond(interaction, hint_text(given, lang), ephemeral=True)

    @app_commands.command(name="puzzle",
                          description="The puzzle of the day: find the best capture")
    @limited("text")
    @app_commands.describe(answer="Your turn, like xd7 c3-d7 (else the Answer button)")
    @app_commands.guild_only()
    async def puzzle(self, interaction: discord.Interaction, answer: str | None = None) -> None:
        if answer is None:
            await show_puzzle(interaction)
        else:
            await answer_puzzle(interaction, None, answer)
