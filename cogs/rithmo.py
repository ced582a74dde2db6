"""``/rithmo``: Rithmomachia between two members, or against Ardoise.

Commands: ``challenge``, ``solo``, ``move`` (typed notation, autocompleted with the legal turns),
``board``, ``resign``, ``draw``, ``rules``; ``hint`` and ``puzzle`` (``cogs/_rithmo_puzzles.py``).
Each reads the interaction, calls one use case of ``bot.play.rithmo`` (the games, the engine, the
clock, the ratings) and says the result with ``bot.ui.rithmo`` (texts, buttons, the "Play a
turn" view, board messages).

How it plays
    A challenge is a public message with Accept / Decline buttons (only the challenged member
    accepts; the challenger may withdraw). Accepted, the board is posted and the player to move
    pinged. A turn comes either typed (``/rithmo move xd7 c3-d7``) or picked from menus: the
    board message's persistent "Play a turn" button opens a private view (piece → what it does →
    captures after → Confirm), which walks the engine's turn steps.

Decisions
    - A member has at most one open game (challenge or game) per channel, so ``/rithmo move``,
      ``resign`` and ``draw`` always know which game is meant.
    - Public messages of a game are in the server's language, else in the language of the member
      who started it (kept with the game); private answers are in each member's own language.
    - The move clock: a player past the server's move time limit is warned once (pinged) and
      given a grace of a quarter of that limit (at least a minute); past the grace, the game is
      lost on time.
    - Against Ardoise, ``bot.rithmo.opponents.choose_turn`` chooses its turn (seeded by the game's
      stored seed and the turn, so a replay is the same; the searching levels in worker
      processes, ``bot.play.rithmo_search``); ``self.service.choose_turn`` is where a test puts
      a fake search.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot import replies
from bot.domain import DomainError, UserRef
from bot.i18n import lang_for, t
from bot.limits import hit, limited
from bot.play.rithmo import (
    Ended,
    Played,
    RithmoService,
    challenged_id,
    other,
    player_name,
    require_active,
)
from bot.play.rithmo_turns import completions, mention, settings_text, side_name
from bot.replies import pings
from bot.rithmo.opponents import STRATEGY
from bot.services import ServicedBot, Services
from bot.ui.pages import say_forged
from bot.ui.rithmo import (
    COLOUR_CHOICES,
    PERSISTENT_ITEMS,
    PROPER_CHOICES,
    RITHMO_FLOWS,
    SIDE_CHOICES,
    VICTORY_CHOICES,
    Boards,
    TurnView,
    challenge_embed,
    challenge_view,
    draw_view,
    played_line,
    state_lines,
)
from bot.ui.rithmo_puzzles import PERSISTENT_ITEMS as PUZZLE_ITEMS
from bot.ui.rithmo_resign import PERSISTENT_ITEMS as RESIGN_ITEMS
from bot.ui.rithmo_resign import ask_resign
from bot.ui.rithmo_rules import PERSISTENT_ITEMS as RULES_ITEMS
from bot.ui.rithmo_rules import PREFIX as RULES_PREFIX
from bot.ui.rithmo_rules import send_rules
from bot.views import Route, ensure_player, ensure_version
from cogs import ArdoiseCog
from cogs._rithmo_puzzles import RithmoPuzzles
from db import RithmoGame

log = logging.getLogger(__name__)

DEADLINE_CHECK_S = 60


class Rithmo(RithmoPuzzles, ArdoiseCog, commands.GroupCog, group_name="rithmo",
             group_description="Rithmomachia: the medieval battle of the numbers"):
    persistent_items = (*PERSISTENT_ITEMS, *RESIGN_ITEMS, *RULES_ITEMS, *PUZZLE_ITEMS)

    def __init__(self, bot: ServicedBot, services: Services) -> None:
        super().__init__(bot, services)
        self._service: RithmoService | None = None
        self._boards: Boards | None = None
        services.kept.put(RITHMO_FLOWS, self)

    async def cog_load(self) -> None:
        self.deadline_loop.start()

    async def cog_unload(self) -> None:
        self.deadline_loop.cancel()
        if self._service is not None:
            self._service.close()  # the search workers go with the bot

    @property
    def service(self) -> RithmoService:
        # Built on first use: a test gives its own (a fixed choice of Ardoise's turns) first.
        if self._service is None:
            self._service = RithmoService(self.services.db, self.services.languages,
                                          self.services.searches, pool=self.services.pool)
        return self._service

    @property
    def boards(self) -> Boards:
        if self._boards is None:
            self._boards = Boards(self.bot, self.service)
        return self._boards

    def routes(self) -> Sequence[Route]:
        # A rules page button its message does not show (a modified client): refused.
        return (Route("click", RULES_PREFIX, say_forged),)

    async def current_game(self, interaction: discord.Interaction,
                           statuses: tuple[str, ...] = ("active",)) -> RithmoGame:
        assert interaction.guild_id is not None
        return await self.service.current_game(interaction.guild_id, interaction.user.id,
                                               interaction.channel_id, statuses)

    async def _catch_up(self, row: RithmoGame) -> RithmoGame:
        """Ardoise plays a turn it owes (a restart between a member's turn and its answer)."""
        played = await self.service.owed_turn(row)
        if played is not None:
            await self.boards.turns([played])
            raise DomainError("rithmo.computer_caught_up",
                              "Ardoise had not played yet: it has now")
        return row

    async def after_member_turn(self, played: Played) -> None:
        """Ardoise answers if it plays the next turn; then the board is posted once for all."""
        await self.boards.turns(await self.service.answers(played))

    async def confirm_turn(self, interaction: discord.Interaction, view: TurnView) -> None:
        """The turn view's Confirm: played like ``/rithmo move`` would."""
        if not view.can_confirm():
            raise DomainError("rithmo.empty_turn", "the turn is not finished")
        row = await self.service.get(view.game_id)
        require_active(row)
        ensure_version(view.ply, len(row.turns))
        # Saving a turn is a few milliseconds: the answer follows it, then the board is drawn.
        played = await self.service.apply_turn(row, view.user_id, view.turn_text())
        view.stop()
        await replies.update(interaction, content=t("rithmo.menu.played", view.lang,
                                                    turn=played.turn), view=None)
        await self.after_member_turn(played)

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
        lang = await lang_for(interaction)
        me = interaction.user
        assert interaction.guild_id is not None
        await self.service.check_challenge(
            interaction.guild_id, me.id, member.id, challenged_bot=member.bot,
            most=self.services.limits.open_games["rithmo_challenges"])
        started = await self.service.challenge(
            interaction.guild_id, interaction.channel_id, me.id, member.id, lang, colour=colour,
            hints=hints, victory=victory, pieces=pieces, value=value, digits=digits, proper=proper,
            move_limit=move_limit)
        await replies.respond(
            interaction,
            t("rithmo.challenge.posted", lang, challenged=member.mention,
              challenger=me.mention),
            embed=challenge_embed(started.row, started.settings, started.limit_s, lang),
            view=challenge_view(started.row, lang), allowed_mentions=pings(member.id))

    async def accept(self, interaction: discord.Interaction, game_id: int, version: int) -> None:
        row = await self.service.get(game_id)
        challenger, challenged = row.challenger_id, challenged_id(row)
        if interaction.user.id == challenger and row.status == "pending":
            raise DomainError("rithmo.only_challenged", "only the challenged member accepts",
                              player=UserRef(challenged))
        ensure_player(interaction, [u for u in (challenged,) if u is not None])
        if row.status == "pending":
            ensure_version(version, row.version)
            # Answered at once: under load the writes below queue behind other games' turns.
            await interaction.response.defer()
        row = await self.service.accept(row, version)
        lang = await self.service.game_lang(row)
        await replies.edit_original(
            interaction,
            content=t("rithmo.challenge.accepted", lang, challenged=mention(challenged, lang),
                      challenger=mention(challenger, lang), game=game_id),
            view=None, allowed_mentions=pings())
        lines = [t("rithmo.board.start", lang, game=game_id,
                   white=player_name(row, "white", lang), black=player_name(row, "black", lang))]
        await self.boards.post(row, lines + state_lines(row, lang), lang,
                               ping=row.player(row.to_move))

    async def decline(self, interaction: discord.Interaction, game_id: int, version: int) -> None:
        row = await self.service.get(game_id)
        challenger, challenged = row.challenger_id, challenged_id(row)
        ensure_player(interaction, [u for u in (challenger, challenged) if u is not None])
        await self.service.decline(row, version)
        lang = await self.service.game_lang(row)
        key = ("rithmo.challenge.withdrawn" if interaction.user.id == challenger
               else "rithmo.challenge.declined")
        await replies.update(
            interaction,
            content=t(key, lang, challenged=mention(challenged, lang),
                      challenger=mention(challenger, lang)),
            view=None, allowed_mentions=pings())

    @app_commands.command(name="solo", description="Play Rithmomachia against Ardoise")
    @limited("start")
    @app_commands.describe(level="How strong Ardoise plays (1 beginner to 4 master)",
                           colour="Your colour")
    @app_commands.choices(colour=COLOUR_CHOICES)
    async def solo(self, interaction: discord.Interaction,
                   level: app_commands.Range[int, 1, 4] = 1, colour: str | None = None) -> None:
        lang = await lang_for(interaction)
        me = interaction.user.id
        guild_id = interaction.guild_id
        assert guild_id is not None
        if await self.service.check_solo(guild_id, interaction.channel_id, me, level,
                                         most=self.services.limits.open_games["rithmo_computer"]):
            hit(interaction, "strong")
        await interaction.response.defer(thinking=True)
        started = await self.service.solo(guild_id, interaction.channel_id, me, level, colour,
                                          lang)
        row = started.row
        computer = row.computer_side or "black"
        lines = [t("rithmo.solo.start", lang, game=row.game_id, player=mention(me, lang),
                   side=side_name(other(computer), lang), bot_side=side_name(computer, lang),
                   level=t(f"rithmo.level.{level}", lang))]
        if STRATEGY == "random":
            lines.append(t("rithmo.solo.random_note", lang))
        lines += [settings_text(started.settings, lang), t("rithmo_puzzles.hint.offer", lang)]
        opening = started.opening
        if opening is not None:
            lines.append(played_line(row, opening, lang))
        await self.boards.post(row, lines + state_lines(row, lang), lang,
                               position=opening.position if opening else None,
                               last_turn=opening.last_turn if opening else None,
                               interaction=interaction)

    @app_commands.command(name="move", description="Play your turn in your Rithmomachia game")
    @limited("turn")
    @app_commands.describe(turn="Your turn, like c4-b5, xd7 c3-d7 or drop T36 d1")
    async def move(self, interaction: discord.Interaction, turn: str) -> None:
        lang = await lang_for(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await self._catch_up(await self.current_game(interaction))
        played = await self.service.apply_turn(row, interaction.user.id, turn)
        await replies.followup(interaction, t("rithmo.move.played", lang, turn=played.turn),
                               ephemeral=True)
        await self.after_member_turn(played)

    @move.autocomplete("turn")
    async def move_turn(self, interaction: discord.Interaction, current: str
                        ) -> list[app_commands.Choice[str]]:
        lang = await lang_for(interaction)
        try:
            row = await self.current_game(interaction)
        except DomainError:
            return []
        if row.player(row.to_move) != interaction.user.id:
            return []
        with self.service.engine(row) as game:
            offered = completions(game.board, current, replies.CHOICES)
        return replies.fit_choices(app_commands.Choice(name=c.label(lang), value=c.text)
                                   for c in offered if len(c.text) <= 100)

    async def open_turn_view(self, interaction: discord.Interaction, game_id: int,
                             ply: int) -> None:
        row = await self.service.get(game_id)
        ensure_player(interaction, [u for u in (row.white_id, row.black_id) if u is not None])
        require_active(row)
        ensure_version(ply, len(row.turns))
        lang = await lang_for(interaction)
        row = await self._catch_up(row)
        if row.player(row.to_move) != interaction.user.id:
            raise DomainError("rithmo.not_your_turn", "it is not your turn",
                              player=player_name(row, row.to_move, lang))
        view = TurnView(self, row, self.service.board_copy(row), lang, interaction.user.id)
        await replies.respond(interaction, view.content(), view=view, ephemeral=True)

    @app_commands.command(name="board", description="Show the board of a Rithmomachia game")
    @limited("picture")
    @app_commands.describe(side="See it from White's or Black's side (default: your own)",
                           game="The game's number (default: yours in this channel)")
    @app_commands.choices(side=SIDE_CHOICES)
    async def board(self, interaction: discord.Interaction, side: str | None = None,
                    game: app_commands.Range[int, 1] | None = None) -> None:
        lang = await lang_for(interaction)
        if game is None:
            row = await self.current_game(interaction, ("active", "pending"))
        else:
            row = await self.service.find(game, interaction.guild_id)
        await interaction.response.defer(thinking=True)
        viewer = side or row.side_of(interaction.user.id) or "white"
        lines = [t("rithmo.board.header", lang, game=row.game_id,
                   white=player_name(row, "white", lang), black=player_name(row, "black", lang),
                   side=side_name(viewer, lang))]
        if row.status == "pending":
            lines.append(t("rithmo.board.pending", lang))
        else:
            lines += state_lines(row, lang)
        await self.boards.post(row, lines, lang, last_turn=self.service.last_turn(row),
                               flipped=viewer == "black", interaction=interaction, track=False)

    @app_commands.command(name="resign", description="Resign your Rithmomachia game")
    async def resign(self, interaction: discord.Interaction) -> None:
        # Asked first, privately: the game ends when "Resign" is pressed (bot.ui.rithmo_resign).
        await ask_resign(interaction, await self.current_game(interaction))

    @app_commands.command(name="draw",
                          description="Offer a draw in your Rithmomachia game, or accept one")
    async def draw(self, interaction: discord.Interaction) -> None:
        row = await self.current_game(interaction)
        side = row.side_of(interaction.user.id)
        if side is not None and row.computer_side is None and row.draw_offer == other(side):
            await interaction.response.defer(thinking=True)
        done = await self.service.draw(row, interaction.user.id)
        if isinstance(done, Ended):
            await self.boards.end(done.row, done.ratings, interaction=interaction)
            return
        game_lang = await self.service.game_lang(row)
        opponent = row.player(other(done))
        await replies.respond(
            interaction,
            t("rithmo.draw.offered", game_lang, offerer=mention(interaction.user.id, game_lang),
              opponent=mention(opponent, game_lang), game=row.game_id),
            view=draw_view(row, game_lang), allowed_mentions=pings(opponent))

    async def answer_draw(self, interaction: discord.Interaction, game_id: int, ply: int,
                          accept: bool) -> None:
        row = await self.service.get(game_id)
        ensure_player(interaction, [u for u in (row.white_id, row.black_id) if u is not None])
        offerer_side = self.service.check_draw_answer(row, ply)
        offerer = row.player(offerer_side)
        lang = await self.service.game_lang(row)
        if accept:
            # Only the other player accepts; the one who offered may withdraw.
            ensure_player(interaction, [u for u in (row.player(other(offerer_side)),) if u])
        ended = await self.service.answer_draw(row, ply, accept)
        if ended is not None:
            await replies.update(interaction, content=t("rithmo.draw.agreed", lang, game=game_id),
                                 view=None, allowed_mentions=pings())
            await self.boards.end(ended.row, ended.ratings)
            return
        key = ("rithmo.draw.withdrawn" if interaction.user.id == offerer
               else "rithmo.draw.declined")
        await replies.update(
            interaction,
            content=t(key, lang, offerer=mention(offerer, lang),
                      opponent=mention(row.player(other(offerer_side)), lang), game=game_id),
            view=None, allowed_mentions=pings())

    @app_commands.command(name="rules", description="The rules of Rithmomachia, in pages with "
                                                    "pictures")
    @limited("text")
    @app_commands.describe(show="Show the rules to the whole channel (else only to you)")
    async def rules(self, interaction: discord.Interaction, show: bool = False) -> None:
        await send_rules(interaction, show)  # bot.ui.rithmo_rules: the pages and their buttons

    # the clock -------------------------------------------------------------------------

    @tasks.loop(seconds=DEADLINE_CHECK_S)
    async def deadline_loop(self) -> None:
        await self.check_deadlines()

    @deadline_loop.before_loop
    async def _before_deadlines(self) -> None:
        await self.bot.wait_until_ready()

    async def check_deadlines(self, now: datetime | None = None) -> None:
        """Warn each player past their time (once), and forfeit the games whose grace is over."""
        for event in await self.service.overdue(now, self.services.owns):
            try:
                await self.boards.tell_overdue(event)
            except Exception:
                log.exception("deadline of Rithmomachia game %s", event.row.game_id)

async def setup(bot: ServicedBot) -> None:
    await bot.add_cog(Rithmo(bot, bot.services))
