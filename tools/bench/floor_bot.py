"""The floor of issue 24's ratios: a bot with nothing of Ardoise in it, only discord.py, that
answers the load benchmark's ``focus`` and ``card`` members with the same Discord exchanges as
Ardoise (``python -m tools.load focus card --floor``).

- ``/focus practice``: a private embed (a question, its level, how to answer) and an "Answer"
  button, a ``DynamicItem`` (``focus.run:practice:<token>:<index>``) as Ardoise's;
- the button: a modal with one text input labelled ``7 + 8 =``, with a timeout as Ardoise's;
- the modal submitted (taken by the client's one listener, as Ardoise's route takes it): the
  window edited in place, the next question under the last one's mark, or after six the
  summary (``4/6`` and the six lines);
- ``/digits card digit:``: an embed of a few fields; its autocomplete: up to 25 choices.

What it leaves out is everything Ardoise does besides: no database, no settings, no mastery, no
school year, no texts in two languages, no checks of who clicks. Its CPU an interaction is
discord.py's and aiohttp's own for these exchanges; Ardoise's, beside it in one run, is that and
Ardoise's work. Not the product: a measuring stick for ``tools.bench.focus_compare --floor``.
"""

from __future__ import annotations

import random
import re
import secrets
from dataclasses import dataclass, field
from typing import Any, Self

import discord
from discord import app_commands, ui

from bot.digits.catalogue import BY_KEY, DIGITS

QUESTIONS = 6

@dataclass
class Round:
    token: str
    questions: list[tuple[int, int]]
    index: int = 0
    right: int = 0
    lines: list[str] = field(default_factory=list)
    notice: str | None = None


ROUNDS: dict[str, Round] = {}


def question_embed(run: Round) -> discord.Embed:
    a, b = run.questions[run.index]
    embed = discord.Embed(title=f"Focus — question {run.index + 1}/{QUESTIONS}",
                          description=f"## {a} + {b} = ?", colour=0x3B82F6)
    if run.notice:
        embed.add_field(name="\u200b", value=run.notice, inline=False)
    embed.set_footer(text="Level 3 · Answer: click the button and type the number")
    return embed


def answer_view(run: Round) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(AnswerButton(run.token, run.index))
    return view


class AnswerButton(ui.DynamicItem[ui.Button[Any]],
                   template=r"focus\.run:practice:(?P<token>[^:]*):(?P<index>\d+)"):
    def __init__(self, token: str, index: int) -> None:
        super().__init__(ui.Button(label="Answer", style=discord.ButtonStyle.primary,
                                   custom_id=f"focus.run:practice:{token}:{index}"))
        self.token = token
        self.index = index

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: re.Match[str], /) -> Self:
        return cls(match["token"], int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        run = ROUNDS.get(self.token)
        if run is None or run.index != self.index:
            await interaction.response.send_message("This window has expired.", ephemeral=True)
            return
        await interaction.response.send_modal(AnswerModal(run))


class AnswerModal(ui.Modal):
    """The answer's form. As Ardoise's, it does nothing itself: the client's one listener takes
    every submission (``take_submission``), whether discord.py stored the form yet or not (a
    member quicker than the form's registering would otherwise get no answer)."""

    def __init__(self, run: Round) -> None:
        super().__init__(title=f"Question {run.index + 1}/{QUESTIONS}", timeout=900,
                         custom_id=f"{MODAL_PREFIX}{run.token}:{run.index}")
        a, b = run.questions[run.index]
        self.typed: ui.TextInput[AnswerModal] = ui.TextInput(
            label=f"{a} + {b} =", custom_id="answer", placeholder="A whole number",
            max_length=40)
        self.add_item(self.typed)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        self.stop()
        return False


MODAL_PREFIX = "focus.runm:practice:"


def typed(data: Any) -> str:
    for row in (data or {}).get("components", []):
        for component in [*row.get("components", []), row.get("component") or {}]:
            if component.get("custom_id") == "answer":
                return str(component.get("value", ""))
    return ""


async def take_submission(interaction: discord.Interaction) -> None:
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if not custom_id.startswith(MODAL_PREFIX):
        return
    token, _, index = custom_id[len(MODAL_PREFIX):].partition(":")
    run = ROUNDS.get(token)
    if run is None or str(run.index) != index:
        await interaction.response.send_message("This window has expired.", ephemeral=True)
        return
    await submit(run, typed(data), interaction)


async def submit(run: Round, text: str, interaction: discord.Interaction) -> None:
    a, b = run.questions[run.index]
    try:
        given: int | None = int(text.strip())
    except ValueError:
        given = None
    right = given == a + b
    run.right += right
    mark = "✅" if right else "❌"
    run.notice = f"{mark} {a} + {b} = {a + b}" + ("" if right else f" (you typed {given})")
    run.lines.append(f"{mark} {run.index + 1}. {a} + {b} = {a + b} · 2.0 s")
    run.index += 1
    if run.index < QUESTIONS:
        await interaction.response.edit_message(embed=question_embed(run),
                                                view=answer_view(run))
        return
    del ROUNDS[run.token]
    summary = discord.Embed(title=f"Focus — {run.right}/{QUESTIONS}",
                            description="\n".join(run.lines), colour=0x22C55E)
    summary.set_footer(text="12.0 s in all")
    await interaction.response.edit_message(embed=summary, view=None)


focus = app_commands.Group(name="focus", description="Focus")
digits = app_commands.Group(name="digits", description="The 20 Digits")


@focus.command(name="practice", description="A practice round")
async def practice(interaction: discord.Interaction) -> None:
    rng = random.Random(interaction.id)
    run = Round(secrets.token_hex(6),
                [(rng.randint(2, 30), rng.randint(2, 30)) for _ in range(QUESTIONS)])
    ROUNDS[run.token] = run
    await interaction.response.send_message(embed=question_embed(run), view=answer_view(run),
                                            ephemeral=True)


@digits.command(name="card", description="A digit's card")
async def card(interaction: discord.Interaction, digit: str, show: bool = False) -> None:
    name = BY_KEY.get(digit, DIGITS[0]).key
    embed = discord.Embed(title=f"{name}", colour=0x8B5CF6,
                          description=f"The digit {name}: what it does in battle and in the shop.")
    embed.add_field(name="Cost", value="3 gold")
    embed.add_field(name="Strength", value="4")
    embed.add_field(name="Ability", value="Doubles the digit to its right once a battle.",
                    inline=False)
    await interaction.response.send_message(embed=embed, ephemeral=not show)


@card.autocomplete("digit")
async def card_digit(interaction: discord.Interaction, current: str
                     ) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=d.key, value=d.key) for d in DIGITS
            if current.lower() in d.key.lower()][:25]


class FloorBot(discord.Client):
    def __init__(self, guild_id: int | None, **options: Any) -> None:
        super().__init__(intents=discord.Intents.default(), **options)
        self.tree = app_commands.CommandTree(self)
        self.guild_id = guild_id

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await take_submission(interaction)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(AnswerButton)
        guild = discord.Object(self.guild_id) if self.guild_id else None
        for group in (focus, digits):
            self.tree.add_command(group, guild=guild)
        await self.tree.sync(guild=guild)


def main(argv: list[str] | None = None) -> None:
    """``python -m tools.bench.floor_bot``: the load benchmark's ``focus`` and ``card`` against
    this bot (``python -m tools.load focus card --floor``), with its options."""
    import argparse
    import subprocess
    import sys

    parser = argparse.ArgumentParser(
        prog="python -m tools.bench.floor_bot",
        description="The load benchmark's focus and card scenarios against a bot of discord.py "
                    "alone (the same exchanges as Ardoise's): the floor under Ardoise's figures.")
    parser.add_argument("--members", type=int, default=200, help="members (default 200)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds a member (default 1)")
    args = parser.parse_args(argv)
    # The load benchmark as its own process: it starts this bot (tools.load imports this
    # module), so this module does not import it back.
    raise SystemExit(subprocess.run(
        [sys.executable, "-m", "tools.load", "focus", "card", "--floor",
         f"--members={args.members}", f"--rounds={args.rounds}"]).returncode)


if __name__ == "__main__":
    main()
