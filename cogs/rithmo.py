"""``/rithmo``: Rithmomachia between two members, or against Ardoise.

Commands: ``challenge``, ``solo``, ``move`` (typed notation, autocompleted with the legal turns),
``board``, ``resign``, ``draw``, ``review`` (a finished game, turn by turn), ``rules``; ``hint``
and ``puzzle`` (``cogs/_rithmo_puzzles.py``).
This cog declares them (names, options, choices, limits); each calls one method of its
conductor, ``bot.flows.rithmo.RithmoFlow``, which conducts the rest around the use cases of
``bot.play.rithmo`` and says the results with ``bot.ui.rithmo``. How a game plays and the
decisions taken (one game per member and channel, the games' language, the move clock, Ardoise's
search) are in ``bot/flows/rithmo.py``'s docstring. The move clock's loop runs here, every
minute; its body is the flow's ``check_deadlines``.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.flows.rithmo import RithmoFlow
from bot.limits import limited
from bot.services import ServicedBot, Services
from bot.ui.rithmo import (
    COLOUR_CHOICES,
    PERSISTENT_ITEMS,
    PROPER_CHOICES,
    SIDE_CHOICES,
    VICTORY_CHOICES,
)
from bot.ui.rithmo_puzzles import PERSISTENT_ITEMS as PUZZLE_ITEMS
from bot.ui.rithmo_resign import PERSISTENT_ITEMS as RESIGN_ITEMS
from bot.ui.rithmo_review import PERSISTENT_ITEMS as REVIEW_ITEMS
from bot.ui.rithmo_rules import PERSISTENT_ITEMS as RULES_ITEMS
from bot.views import Route
from cogs import ArdoiseCog
from cogs._rithmo_puzzles import RithmoPuzzles

DEADLINE_CHECK_S = 60


class Rithmo(RithmoPuzzles, ArdoiseCog, commands.GroupCog, group_name="rithmo",
             group_description="Rithmomachia: the medieval battle of the numbers"):
    persistent_items = (*PERSISTENT_ITEMS, *RESIGN_ITEMS, *RULES_ITEMS, *PUZZLE_ITEMS,
                        *REVIEW_ITEMS)

    def __init__(self, bot: ServicedBot, services: Services) -> None:
        super().__init__(bot, services)
        self.flow = RithmoFlow(bot, services)

    async def cog_load(self) -> None:
        self.deadline_loop.start()

    async def cog_unload(self) -> None:
        self.deadline_loop.cancel()
        self.flow.close()

    def routes(self) -> Sequence[Route]:
        return self.flow.routes()

    # commands --------------------------------------------------------------------------

    @app_commands.command(name="challenge",
                          description="Challenge a member to a game of Rithmomachia")
    @limited("start")
    @app_commands.describe(
        member="Who you challenge",
        victory="The common victory (default: the server's)",
        pieces="Pieces to take for body victories",
        value="Value to take for goods, lawsuit and honour victories",
        digits="Digits for proceeds (at least) or lawsuit (fewer than)",
        proper="The proper victory, after taking the enemy pyramid",
        move_limit="Stop the game after this many turns in all (0: no limit)",
        colour="Your colour",
        hints="Allow /rithmo hint to both players (default: no)",
    )
    @app_commands.choices(victory=VICTORY_CHOICES, proper=PROPER_CHOICES, colour=COLOUR_CHOICES)
    async def challenge(
        self,
        interaction: discord.Interaction,
        member: discord.Member,
        victory: str | None = None,
        pieces: app_commands.Range[int, 1, 29] | None = None,
        value: app_commands.Range[int, 1, 3064] | None = None,
        digits: app_commands.Range[int, 1, 99] | None = None,
        proper: str | None = None,
        move_limit: app_commands.Range[int, 0, 1000] | None = None,
        colour: str | None = None,
        hints: bool = False,
    ) -> None:
        await self.flow.challenge(
            interaction, member, victory=victory, pieces=pieces, value=value, digits=digits,
            proper=proper, move_limit=move_limit, colour=colour, hints=hints)


    @app_commands.command(name="solo", description="Play Rithmomachia against Ardoise")
    @limited("start")
    @app_commands.describe(level="How strong Ardoise plays (1 beginner to 4 master)",
                           colour="Your colour")
    @app_commands.choices(colour=COLOUR_CHOICES)
    async def solo(self, interaction: discord.Interaction,
                   level: app_commands.Range[int, 1, 4] = 1, colour: str | None = None) -> None:
        await self.flow.solo(interaction, level, colour)

    @app_commands.command(name="move", description="Play your turn in your Rithmomachia game")
    @limited("turn")
    @app_commands.describe(turn="Your turn, like c4-b5, xd7 c3-d7 or drop T36 d1")
    async def move(self, interaction: discord.Interaction, turn: str) -> None:
        await self.flow.move(interaction, turn)

    @move.autocomplete("turn")
    async def move_turn(self, interaction: discord.Interaction, current: str
                        ) -> list[app_commands.Choice[str]]:
        return await self.flow.complete_turn(interaction, current)

    @app_commands.command(name="board", description="Show the board of a Rithmomachia game")
    @limited("picture")
    @app_commands.describe(side="See it from White's or Black's side (default: your own)",
                           game="The game's number (default: yours in this channel)")
    @app_commands.choices(side=SIDE_CHOICES)
    async def board(self, interaction: discord.Interaction, side: str | None = None,
                    game: app_commands.Range[int, 1] | None = None) -> None:
        await self.flow.board(interaction, side, game)

    @app_commands.command(name="resign", description="Resign your Rithmomachia game")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self.flow.resign(interaction)

    @app_commands.command(name="draw",
                          description="Offer a draw in your Rithmomachia game, or accept one")
    async def draw(self, interaction: discord.Interaction) -> None:
        await self.flow.draw(interaction)

    @app_commands.command(name="review", description="Look back on a finished game, turn by "
                                                     "turn, and where it turned")
    @limited("picture")
    @app_commands.describe(game="The finished game (yours; a teacher's: any of the server)")
    @app_commands.guild_only()
    async def review(self, interaction: discord.Interaction,
                     game: app_commands.Range[int, 1]) -> None:
        await self.flow.review(interaction, game)

    @review.autocomplete("game")
    async def review_game(self, interaction: discord.Interaction, current: str
                          ) -> list[app_commands.Choice[int]]:
        return await self.flow.complete_review(interaction, current)

    @app_commands.command(name="rules", description="The rules of Rithmomachia, in pages with "
                                                    "pictures")
    @limited("text")
    @app_commands.describe(show="Show the rules to the whole channel (else only to you)")
    async def rules(self, interaction: discord.Interaction, show: bool = False) -> None:
        await self.flow.rules(interaction, show)

    # the clock -------------------------------------------------------------------------

    @tasks.loop(seconds=DEADLINE_CHECK_S)
    async def deadline_loop(self) -> None:
        await self.flow.check_deadlines()

    @deadline_loop.before_loop
    async def _before_deadlines(self) -> None:
        await self.flow.wait_until_ready()


async def setup(bot: ServicedBot) -> None:
    await bot.add_cog(Rithmo(bot, bot.services))
