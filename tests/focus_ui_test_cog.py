"""A test-only cog that runs ``bot.ui.focus_run`` the way the 20 Digits cog does (a match round's
Focus): ``/uitest match``. Loaded by tests/test_cog_focus_ui.py with ``extra_cogs``."""

from __future__ import annotations

import random
from typing import Any

import discord
from discord import app_commands

from bot.focus import Answer, generate_questions
from bot.ui.focus_run import FocusRun, start_focus, summary_embed
from cogs import ArdoiseCog

SEED = 5


class FocusUiTest(ArdoiseCog):
    group = app_commands.Group(name="uitest", description="Test-only: _focus_ui as a match uses it")

    def __init__(self, bot: Any, services: Any) -> None:
        super().__init__(bot, services)
        self.seen: list[tuple[int, bool]] = []

    @group.command(name="match", description="A three-question Focus of a match round")
    async def match(self, interaction: discord.Interaction) -> None:
        questions = generate_questions(1, 3, random.Random(SEED))
        await start_focus(interaction, questions, "en", on_done=self.done, kind="match",
                          title="Round 3 · Focus", key=f"match:42:3:{interaction.user.id}",
                          record=False, on_answer=self.answered, data={"match": 42})

    async def answered(self, run: FocusRun, answer: Answer) -> None:
        self.seen.append((run.data["match"], answer.correct))

    async def done(self, interaction: discord.Interaction, run: FocusRun) -> None:
        await interaction.response.edit_message(
            content=f"Gold: {5 + run.round.score}",
            embed=summary_embed(run.round, run.lang, run.title), view=None)


async def setup(bot: Any) -> None:
    await bot.add_cog(FocusUiTest(bot, bot.services))
