"""A test-only cog that runs ``bot.ui.focus_run`` rounds through the owner protocol
(``RoundOwner``) and the Focus conductor's student side of an assignment
(``bot.flows.focus.take_assignment``): ``/ownertest round``, ``/ownertest assignment``. Loaded by
tests/test_focus_round_owner.py with ``extra_cogs``."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands

from bot.domain import DomainError
from bot.flows.focus import take_assignment
from bot.focus import Answer, generate_questions
from bot.ui.focus_run import FocusRun, start_focus
from cogs import ArdoiseCog

SEED = 5
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


class RecordingOwner:
    """A round's owner that writes down what the window tells it, and refuses on demand."""

    def __init__(self, cog: OwnerTest) -> None:
        self.cog = cog

    async def answered(self, run: FocusRun, answer: Answer) -> None:
        if self.cog.refuse:
            raise DomainError("focus.erased", "the member's data was erased")
        self.cog.seen.append(("answered", len(run.round.answers), answer.correct))

    async def finished(self, interaction: discord.Interaction, run: FocusRun) -> None:
        self.cog.seen.append(("finished", len(run.round.answers), run.round.score))
        await interaction.response.edit_message(content=f"Done: {run.round.score}", view=None)


class OwnerTest(ArdoiseCog):
    group = app_commands.Group(name="ownertest", description="Test-only: round owners")

    def __init__(self, bot: Any, services: Any) -> None:
        super().__init__(bot, services)
        self.seen: list[tuple[str, int, object]] = []
        self.refuse = False
        self.now = NOW

    @group.command(name="round", description="A three-question round owned by this cog")
    async def round(self, interaction: discord.Interaction) -> None:
        questions = generate_questions(1, 3, random.Random(SEED))
        await start_focus(interaction, questions, "en", owner=RecordingOwner(self),
                          kind="practice", title="Owned")

    @group.command(name="assignment", description="Take an assignment through the Focus flow")
    async def assignment(self, interaction: discord.Interaction, assignment_id: int) -> None:
        await take_assignment(self.services, interaction, assignment_id, lambda: self.now)


async def setup(bot: Any) -> None:
    await bot.add_cog(OwnerTest(bot, bot.services))
