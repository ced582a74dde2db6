"""A test-only cog (``/test …``) that exercises the bot's machinery end to end.

It is loaded by the e2e tests next to the product's cogs (extension name ``bot_test_cog``; pytest
puts ``tests/`` on ``sys.path``). Its little "tally" game keeps its state in a JSON file beside
the database, so that it survives a restart of the bot like a real game.
"""

from __future__ import annotations

import asyncio
import io
import json
import tempfile
from pathlib import Path
from typing import Any

import discord
from discord import app_commands, ui

from bot.domain import DomainError
from bot.i18n import lang_for
from bot.views import ArdoiseModal, ArdoiseView, GameButton, ensure_player, ensure_version
from cogs import ArdoiseCog

PNG_1x1 = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360f8cf00000301010018dd8db00000000049454e44ae426082"
)


#: The test games of PostgreSQL runs.
TALLIES = Path(tempfile.gettempdir()) / "ardoise-test-tallies"


def _store(bot: Any) -> Path:
    """Beside the database file; for a PostgreSQL database (reused by the next test), in
    ``TALLIES`` under the database's name (tests/conftest.py removes it when the database is
    emptied for the next test) and the test server's id (kept across a restart)."""
    if isinstance(bot.settings.db_path, Path):
        return bot.settings.db_path.with_suffix(".tally.json")
    TALLIES.mkdir(exist_ok=True)
    name = str(bot.settings.db_path).rsplit("/", 1)[-1]
    return TALLIES / f"{name}-{bot.settings.test_guild}.tally.json"


def load_games(bot: Any) -> dict[str, Any]:
    path = _store(bot)
    return json.loads(path.read_text()) if path.exists() else {}


def save_games(bot: Any, games: dict[str, Any]) -> None:
    _store(bot).write_text(json.dumps(games))


def tally_view(game_id: str, game: dict[str, Any]) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(TallyButton(game_id, game["version"], label="Add one"))
    view.add_item(TallyButton(game_id, game["version"], "10", label="Add ten",
                              style=discord.ButtonStyle.secondary))
    return view


class TallyButton(GameButton, action="test.tally"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        bot: Any = interaction.client
        games = load_games(bot)
        game = games.get(self.game_id)
        if game is None:
            raise DomainError("game.not_found", "no such game")
        ensure_player(interaction, game["players"])
        ensure_version(self.version, game["version"])
        game["count"] += int(self.arg or 1)
        game["version"] += 1
        save_games(bot, games)
        await interaction.response.edit_message(content=f"Tally {game['count']}",
                                                view=tally_view(self.game_id, game))


class AnswerModal(ArdoiseModal, title="Your answer"):
    answer: ui.TextInput[Any] = ui.TextInput(label="Answer", max_length=10)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        if not self.answer.value.strip().lstrip("-").isdigit():
            raise DomainError("game.not_found", "not a number")
        await interaction.response.send_message(f"You typed {self.answer.value}", ephemeral=True)


class VoteView(ArdoiseView):
    @ui.button(label="Vote", custom_id="test:vote")
    async def vote(self, interaction: discord.Interaction, button: ui.Button[Any]) -> None:
        await interaction.response.send_message("Vote counted", ephemeral=True)

    @ui.button(label="Answer", custom_id="test:answer")
    async def answer(self, interaction: discord.Interaction, button: ui.Button[Any]) -> None:
        await interaction.response.send_modal(AnswerModal())

    @ui.select(custom_id="test:pick", options=[discord.SelectOption(label="Two", value="2"),
                                               discord.SelectOption(label="Three", value="3")])
    async def pick(self, interaction: discord.Interaction, select: ui.Select[Any]) -> None:
        await interaction.response.send_message(f"Picked {select.values[0]}", ephemeral=True)


class TestCog(ArdoiseCog):
    persistent_items = (TallyButton,)
    group = app_commands.Group(name="test", description="Test-only commands")

    async def cog_load(self) -> None:
        # No super() call: the persistent buttons must be registered all the same.
        self.loaded = True

    @group.command(name="boom", description="Fails with an unexpected error")
    async def boom(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom: secret internals")

    @group.command(name="boom_deferred", description="Defers, then fails unexpectedly")
    async def boom_deferred(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        raise RuntimeError("kaboom after a deferral")

    @group.command(name="answered_boom", description="Answers, then fails unexpectedly")
    async def answered_boom(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Here is your board")
        raise RuntimeError("kaboom after the answer")

    @group.command(name="refuse", description="Raises a domain error with the given code")
    async def refuse(self, interaction: discord.Interaction, code: str) -> None:
        raise DomainError(code, f"refused with {code}")

    @group.command(name="slow", description="Answers after a delay")
    async def slow(self, interaction: discord.Interaction, seconds: float) -> None:
        await asyncio.sleep(seconds)
        await interaction.response.send_message("done at last")

    @group.command(name="deferred", description="Defers, works, then answers")
    async def deferred(self, interaction: discord.Interaction, ephemeral: bool = False) -> None:
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
        await asyncio.sleep(0)
        await interaction.followup.send("worked hard")

    @group.command(name="silent", description="Never answers (a bug the stand-in must catch)")
    async def silent(self, interaction: discord.Interaction) -> None:
        return

    @group.command(name="twice", description="Answers twice (a bug the stand-in must catch)")
    async def twice(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        interaction.response._response_type = None  # pretend to forget, as a buggy cog would
        await interaction.response.send_message("two")

    @group.command(name="long", description="Sends a message over Discord's limits")
    async def long(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("x" * 2001)

    @group.command(name="image", description="Uploads images every way a cog can")
    async def image(self, interaction: discord.Interaction) -> None:
        def png(name: str) -> discord.File:
            return discord.File(io.BytesIO(PNG_1x1), filename=name)

        await interaction.response.send_message("Here is the board", file=png("old.png"))
        await interaction.edit_original_response(attachments=[png("board.png")])
        await interaction.followup.send("zoomed in", file=png("zoom.png"), ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send("and a copy", file=png("copy.png"))

    @group.command(name="teach", description="Teachers only")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def teach(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Welcome, teacher", ephemeral=True)

    @group.command(name="game", description="Starts a tally game with an opponent")
    async def game(self, interaction: discord.Interaction, opponent: discord.Member) -> None:
        games = load_games(self.bot)
        game_id = str(len(games) + 1)
        games[game_id] = {"players": [interaction.user.id, opponent.id], "count": 0,
                          "version": 1}
        save_games(self.bot, games)
        await interaction.response.send_message("Tally 0", view=tally_view(game_id, games[game_id]))

    @group.command(name="repost", description="Posts a tally game's current message again")
    async def repost(self, interaction: discord.Interaction, game: str) -> None:
        state = load_games(self.bot)[game]
        await interaction.response.send_message(f"Tally {state['count']}",
                                                view=tally_view(game, state))

    @group.command(name="vote", description="A short-lived view for the invoker only")
    async def vote(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Vote here", view=VoteView(
            players=[interaction.user.id]))

    @group.command(name="roles", description="Names a role and the invoker's roles")
    async def roles(self, interaction: discord.Interaction, role: discord.Role,
                    channel: discord.TextChannel) -> None:
        assert isinstance(interaction.user, discord.Member)
        mine = sorted(r.name for r in interaction.user.roles if not r.is_default())
        await interaction.response.send_message(
            f"{role.name} in {channel.name}; you: {', '.join(mine)}", ephemeral=True)

    @group.command(name="lang", description="Says which language the bot answers in")
    async def lang(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(await lang_for(interaction), ephemeral=True)


async def setup(bot: Any) -> None:
    await bot.add_cog(TestCog(bot, bot.services))
