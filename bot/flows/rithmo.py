"""The Rithmomachia conductor: the Discord side of ``/rithmo`` (``cogs/rithmo.py`` and its mixin
``cogs/_rithmo_puzzles.py`` declare the commands and call one method here each).

Around the use cases of ``bot.play.rithmo`` (the games, the engine, the clock, the ratings) and
``bot.play.rithmo_puzzles`` (hints, the daily puzzle), it reads the member's language, defers
before slow work, posts what happened as ``bot.ui.rithmo`` words it and keeps the board messages
(:class:`Boards`). The buttons, the "Play a turn" view, the resignation's question and the
puzzle's form call back into it through ``bot.ui.rithmo.Flows``, under ``RITHMO_FLOWS`` in the
services (put there when the flow is built: the presentation never imports this module).

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
    - The move clock (:meth:`RithmoFlow.check_deadlines`, run every minute by the cog's loop): a
      player past the server's move time limit is warned once (pinged) and given a grace of a
      quarter of that limit (at least a minute); past the grace, the game is lost on time.
    - Against Ardoise, ``bot.rithmo.opponents.choose_turn`` chooses its turn (seeded by the game's
      stored seed and the turn, so a replay is the same; the searching levels in worker
      processes, ``bot.play.rithmo_search``); ``flow.service.choose_turn`` is where a test puts
      a fake search.
    - One board drawn at a time (:class:`Boards`): drawing holds the interpreter, and the event
      loop must answer every interaction within 3 s (docs/benchmarks.md, "Rithmomachia on
      Discord"). Boards queue; answers do not.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import discord
from discord import app_commands

from bot import replies
from bot.domain import DomainError
from bot.flows import Flow
from bot.flows.digits import defer_update
from bot.i18n import lang_for, t
from bot.limits import hit
from bot.play import rithmo_puzzles as puzzles
from bot.play import rithmo_review as review
from bot.play.rithmo import (
    SIDES,
    Ended,
    Played,
    RithmoService,
    Warned,
    accepts_draw,
    challenge_parties,
    challenged_id,
    check_accept,
    draw_answerers,
    other,
    player_ref,
    players,
    require_active,
)
from bot.play.rithmo_review import Reviewed
from bot.play.rithmo_turns import completions
from bot.replies import pings
from bot.rithmo.opponents import STRATEGY
from bot.services import ServicedBot, Services
from bot.ui.members import KnownNames
from bot.ui.pages import say_forged
from bot.ui.rithmo import (
    RITHMO_FLOWS,
    TurnView,
    board_picture,
    board_view,
    challenge_embed,
    challenge_view,
    completion_label,
    draw_view,
    mention,
    overdue_text,
    played_line,
    player_name,
    settings_text,
    side_name,
    state_lines,
    turns_lines,
)
from bot.ui.rithmo_puzzles import (
    hint_text,
    practice_message,
    practice_verdict_text,
    puzzle_message,
    puzzle_picture,
    verdict_text,
)
from bot.ui.rithmo_resign import resign_question, resigned_text
from bot.ui.rithmo_review import game_label, step_lines, step_picture, step_view
from bot.ui.rithmo_rules import PREFIX as RULES_PREFIX
from bot.ui.rithmo_rules import send_rules
from bot.ui.teachers import is_teacher
from bot.views import Route, ensure_player, ensure_version
from db import RatingChange, RithmoGame

log = logging.getLogger(__name__)


class Boards:
    """Posts a game's board messages: draws the board (one at a time), posts it with its text,
    makes it the game's message and takes the buttons off the previous one."""

    def __init__(self, bot: ServicedBot, service: RithmoService) -> None:
        self.bot = bot
        self.service = service
        self.drawing = asyncio.Semaphore(1)  # see the module's docstring
        # The players' names the board's description says, fetched once per process at most
        # (the bot has no member cache: docs/bot.md).
        self.names = KnownNames()

    def channel(self, row: RithmoGame) -> discord.PartialMessageable:
        assert row.channel_id is not None
        return self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)

    async def post(
        self,
        row: RithmoGame,
        lines: list[str],
        lang: str,
        *,
        position: dict[str, Any] | None = None,
        last_turn: dict[str, Any] | None = None,
        ping: int | None = None,
        flipped: bool | None = None,
        interaction: discord.Interaction | None = None,
        track: bool = True,
    ) -> discord.Message:
        """Post the board with ``lines`` (in the game's channel, or as the answer to a deferred
        ``interaction``); the new message becomes the game's message (``track``), and the
        previous one loses its buttons."""
        active = row.status == "active"
        if position is None:
            position = self.service.position_json(row)
        if flipped is None:
            flipped = active and row.to_move == "black"
        if interaction is not None:
            self.names.learn(row.guild_id, interaction.user)
        players = [uid for uid in (row.player(side) for side in SIDES) if uid is not None]
        names = await self.names.names(self.bot.get_guild(row.guild_id), players)
        async with self.drawing:
            file = await asyncio.to_thread(board_picture, row, position, last_turn, flipped,
                                           names, lang)
        content = "\n".join(lines)
        view = board_view(row, lang) if active else None
        if track and row.message_id is not None and row.channel_id:
            # The previous board is out of date as soon as this one shows: no button left on it.
            await self._drop_buttons(row, row.message_id)
        if interaction is not None:
            message: discord.Message = await replies.followup(
                interaction,
                content, file=file, view=view or discord.utils.MISSING,
                allowed_mentions=pings(ping), wait=True)
        else:
            message = await replies.post(self.channel(row), content, file=file, view=view,
                                         allowed_mentions=pings(ping))
        if track and not await self.service.set_message_id(row, message.id):
            # A turn was played meanwhile: this message is out of date already.
            await self._drop_buttons(row, message.id)
        return message

    async def _drop_buttons(self, row: RithmoGame, message_id: int) -> None:
        try:
            await replies.edit(self.channel(row).get_partial_message(message_id), view=None)
        except discord.HTTPException as error:
            log.info("game %s: could not take the buttons off message %s: %s", row.game_id,
                     message_id, error)

    async def turns(self, plays: list[Played]) -> None:
        """One board for the turns just played (a member's and Ardoise's answers)."""
        row = plays[-1].row
        lang = await self.service.game_lang(row)
        last = plays[-1]
        ping = row.player(row.to_move) if row.status == "active" else None
        await self.post(row, turns_lines(plays, lang, STRATEGY == "random"), lang,
                        position=last.position, last_turn=last.last_turn, ping=ping)

    async def tell_overdue(self, event: Warned | Ended) -> None:
        """A player past their time is warned in the game's channel (once); a game whose grace
        is over is ended on its board."""
        if isinstance(event, Ended):
            await self.end(event.row, event.ratings)
            return
        lang = await self.service.game_lang(event.row)
        await replies.post(self.channel(event.row),
                           overdue_text(event.row, event.late_id, event.grace, lang),
                           allowed_mentions=pings(event.late_id))

    async def end(self, row: RithmoGame, ratings: dict[int, RatingChange],
                  interaction: discord.Interaction | None = None) -> None:
        lang = await self.service.game_lang(row)
        await self.post(row, state_lines(row, lang, ratings), lang, interaction=interaction)


class RithmoFlow(Flow):
    """``/rithmo``'s conductor (see the module's docstring); the ``bot.ui.rithmo.Flows`` that
    the persistent buttons, the turn view and the forms call."""

    def __init__(self, bot: ServicedBot, services: Services) -> None:
        super().__init__(bot, services)
        self._service: RithmoService | None = None
        self._boards: Boards | None = None
        #: Works out a game's review; None: in the search processes (a test puts its own).
        self.reviewer: review.Reviewer | None = None
        services.kept.put(RITHMO_FLOWS, self)

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

    def close(self) -> None:
        """The cog is unloaded: the search workers go with it, and the buttons no longer reach
        this flow."""
        if self._service is not None:
            self._service.close()
        self.services.kept.drop(RITHMO_FLOWS, self)

    def routes(self) -> Sequence[Route]:
        # A rules page button its message does not show (a modified client): refused.
        return (Route("click", RULES_PREFIX, say_forged),)

    # finding the game ------------------------------------------------------------------

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

    # starting a game -------------------------------------------------------------------

    async def challenge(self, interaction: discord.Interaction, member: discord.Member, *,
                        victory: str | None, pieces: int | None, value: int | None,
                        digits: int | None, proper: str | None, move_limit: int | None,
                        colour: str | None, hints: bool) -> None:
        """``/rithmo challenge``: the public challenge with its terms (the server's victories
        changed by the options: ``bot.play.settings.build_settings``) and its two
        buttons."""
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
        check_accept(row, interaction.user.id)  # the challenger is told who accepts
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
        ensure_player(interaction, challenge_parties(row))
        await self.service.decline(row, version)
        lang = await self.service.game_lang(row)
        key = ("rithmo.challenge.withdrawn" if interaction.user.id == challenger
               else "rithmo.challenge.declined")
        await replies.update(
            interaction,
            content=t(key, lang, challenged=mention(challenged, lang),
                      challenger=mention(challenger, lang)),
            view=None, allowed_mentions=pings())

    async def solo(self, interaction: discord.Interaction, level: int,
                   colour: str | None) -> None:
        """``/rithmo solo``: a game against Ardoise, its first board (with Ardoise's opening
        turn when it plays White)."""
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

    # turns -----------------------------------------------------------------------------

    async def move(self, interaction: discord.Interaction, turn: str) -> None:
        """``/rithmo move``: the typed turn, told privately, then the board (and Ardoise's
        answer) in the channel."""
        lang = await lang_for(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await self._catch_up(await self.current_game(interaction))
        played = await self.service.apply_turn(row, interaction.user.id, turn)
        await replies.followup(interaction, t("rithmo.move.played", lang, turn=played.turn),
                               ephemeral=True)
        await self.after_member_turn(played)

    async def complete_turn(self, interaction: discord.Interaction, current: str
                            ) -> list[app_commands.Choice[str]]:
        """``/rithmo move``'s autocomplete: the legal turns that begin as typed, on one's own
        turn only (nothing otherwise: an autocomplete cannot refuse)."""
        lang = await lang_for(interaction)
        try:
            row = await self.current_game(interaction)
        except DomainError:
            return []
        if row.player(row.to_move) != interaction.user.id:
            return []
        with self.service.engine(row) as game:
            offered = completions(game.board, current, replies.CHOICES)
        return replies.fit_choices(app_commands.Choice(name=completion_label(c, lang), value=c.text)
                                   for c in offered if len(c.text) <= 100)

    async def open_turn_view(self, interaction: discord.Interaction, game_id: int,
                             ply: int) -> None:
        row = await self.service.get(game_id)
        ensure_player(interaction, players(row))
        require_active(row)
        ensure_version(ply, len(row.turns))
        lang = await lang_for(interaction)
        row = await self._catch_up(row)
        if row.player(row.to_move) != interaction.user.id:
            raise DomainError("rithmo.not_your_turn", "it is not your turn",
                              player=player_ref(row, row.to_move))
        view = TurnView(self, row, self.service.board_copy(row), lang, interaction.user.id)
        await replies.respond(interaction, view.content(), view=view, ephemeral=True)

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

    async def board(self, interaction: discord.Interaction, side: str | None,
                    game: int | None) -> None:
        """``/rithmo board``: a game's board (the member's here, or game ``game`` of this
        server) from ``side``'s side (default: the member's own, else White's)."""
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

    # ending a game ---------------------------------------------------------------------

    async def resign(self, interaction: discord.Interaction) -> None:
        """``/rithmo resign`` asks first, privately: the game ends when "Resign" is pressed
        (:meth:`confirm_resign`)."""
        row = await self.current_game(interaction)
        lang = await lang_for(interaction)
        text, view = resign_question(row, interaction.user.id, lang)
        await replies.respond(interaction, text, view=view, ephemeral=True)

    async def confirm_resign(self, interaction: discord.Interaction, game_id: int) -> None:
        """"Resign" pressed (the question's button checked who and when): the game is read
        again as it is now, ended, and its final board posted in the channel."""
        row = await self.service.get(game_id)
        if row.status != "active" or row.side_of(interaction.user.id) is None:
            raise DomainError("rithmo.resign_over", "the game is over already",
                              game=row.game_id)
        ended = await self.service.resign(row, interaction.user.id)
        lang = await lang_for(interaction)
        await replies.update(interaction, view=None, content=resigned_text(row, lang))
        await self.boards.end(ended.row, ended.ratings)

    async def draw(self, interaction: discord.Interaction) -> None:
        """``/rithmo draw``: accept the opponent's offer (the final board), else offer one (a
        public message with Accept / Decline for the opponent)."""
        row = await self.current_game(interaction)
        if accepts_draw(row, interaction.user.id):
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
        ensure_player(interaction, players(row))
        offerer_side = self.service.check_draw_answer(row, ply)
        offerer = row.player(offerer_side)
        lang = await self.service.game_lang(row)
        ensure_player(interaction, draw_answerers(row, offerer_side, accept))
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

    # the rules, hints and the daily puzzle ---------------------------------------------

    async def rules(self, interaction: discord.Interaction, show: bool) -> None:
        await send_rules(interaction, show)  # bot.ui.rithmo_rules: the pages and their buttons

    async def hint(self, interaction: discord.Interaction) -> None:
        """``/rithmo hint``: one capture open to the member this turn, privately."""
        lang = await lang_for(interaction)
        given = await puzzles.give_hint(self.service, await self.current_game(interaction),
                                        interaction.user.id)
        await replies.respond(interaction, hint_text(given, lang), ephemeral=True)

    async def puzzle(self, interaction: discord.Interaction, answer: str | None,
                     practice: bool = False) -> None:
        """``/rithmo puzzle``: the day's puzzle, or (``answer``) a turn typed for it; with
        ``practice``, a puzzle that counts for nothing (an ``answer`` given with it is refused:
        a practice puzzle is not known before it is shown)."""
        if practice:
            if answer is not None:
                raise DomainError("rithmo.practice_answer_typed",
                                  "a practice puzzle is answered with its button")
            await self.show_practice(interaction)
        elif answer is None:
            await self.show_puzzle(interaction)
        else:
            await self.answer_puzzle(interaction, None, answer)

    async def show_puzzle(self, interaction: discord.Interaction) -> None:
        """The server's puzzle of the day, privately (the position drawn in a thread)."""
        hit(interaction, "picture")  # the position's picture (an answer counts as a turn)
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        today = await puzzles.daily(self.services.db, interaction.guild_id, interaction.user.id)
        file = await asyncio.to_thread(puzzle_picture, today.puzzle, lang)
        text, view = puzzle_message(today, lang)
        await replies.followup(interaction, text, file=file,
                               view=view or discord.utils.MISSING, ephemeral=True)

    async def answer_puzzle(self, interaction: discord.Interaction, puzzle_id: int | None,
                            text: str) -> None:
        """A turn given to the puzzle ``puzzle_id`` (None: today's), from the form or typed with
        ``/rithmo puzzle answer:``; right or wrong said privately."""
        hit(interaction, "turn")
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        answered = await puzzles.answer(self.services.db, interaction.guild_id,
                                        interaction.user.id, puzzle_id, text)
        await replies.followup(interaction, verdict_text(answered, lang), ephemeral=True)

    async def show_practice(self, interaction: discord.Interaction) -> None:
        """A practice puzzle, privately: a past daily puzzle or a generated one (drawn in a
        thread), counted nowhere."""
        hit(interaction, "picture")
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        drawn = await puzzles.practice(self.services.db, interaction.guild_id)
        file = await asyncio.to_thread(puzzle_picture, drawn.puzzle, lang)
        text, view = practice_message(drawn, lang)
        await replies.followup(interaction, text, file=file, view=view, ephemeral=True)

    async def answer_practice(self, interaction: discord.Interaction, kind: str, ref: int,
                              text: str) -> None:
        """A turn given to a practice puzzle (its form): right or wrong, nothing stored."""
        hit(interaction, "turn")
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        answered = await puzzles.answer_practice(self.services.db, interaction.guild_id, kind,
                                                 ref, text)
        await replies.followup(interaction, practice_verdict_text(answered, lang),
                               ephemeral=True)

    # looking back on a finished game ---------------------------------------------------

    async def _reviewer(self, guild_id: int | None, settings: Any,
                        turns: list[str]) -> dict[str, Any]:
        """The review worked out in a search process, behind the strong searches' gate (it is
        one, of 2 to 3 seconds); ``flow.reviewer`` is where a test puts its own."""
        async with self.service.searches.slot(guild_id):
            return await self.service.pool.review(settings, turns)

    async def _reviewed(self, interaction: discord.Interaction, game_id: int) -> Reviewed:
        teacher = await is_teacher(interaction)
        guild_id = interaction.guild_id

        async def work(settings: Any, turns: list[str]) -> dict[str, Any]:
            if self.reviewer is not None:
                return await self.reviewer(settings, turns)
            return await self._reviewer(guild_id, settings, turns)

        return await review.load(self.services.db, work, guild_id, game_id,
                                 interaction.user.id, teacher)

    async def review(self, interaction: discord.Interaction, game: int) -> None:
        """``/rithmo review``: a finished game's last turn, its board and the turning point,
        privately, with the buttons that step through its turns."""
        lang = await lang_for(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        reviewed = await self._reviewed(interaction, game)
        text, file, view = await self._review_page(interaction, reviewed,
                                                   len(reviewed.turns), lang)
        await replies.followup(interaction, text, file=file, view=view, ephemeral=True,
                               allowed_mentions=pings())

    async def step_review(self, interaction: discord.Interaction, game_id: int,
                          ply: int) -> None:
        """A step button: the review's message shows turn ``ply`` (the access checked again:
        a button's id can be forged)."""
        hit(interaction, "review_step")
        lang = await lang_for(interaction)
        await defer_update(interaction)
        reviewed = await self._reviewed(interaction, game_id)
        text, file, view = await self._review_page(interaction, reviewed,
                                                   review.check_ply(reviewed, ply), lang)
        await replies.edit_original(interaction, content=text, attachments=[file], view=view,
                                    allowed_mentions=pings())

    async def _review_page(self, interaction: discord.Interaction, reviewed: Reviewed,
                           ply: int, lang: str) -> tuple[str, discord.File, discord.ui.View]:
        row = reviewed.row
        self.boards.names.learn(row.guild_id, interaction.user)
        players = [uid for uid in (row.player(side) for side in SIDES) if uid is not None]
        names = await self.boards.names.names(self.bot.get_guild(row.guild_id), players)
        shown = await asyncio.to_thread(review.step, reviewed, ply)
        async with self.boards.drawing:
            file = await asyncio.to_thread(step_picture, reviewed, shown, names, lang)
        return "\n".join(step_lines(reviewed, shown, lang)), file, step_view(reviewed, ply, lang)

    async def complete_review(self, interaction: discord.Interaction, current: str
                              ) -> list[app_commands.Choice[int]]:
        """``/rithmo review``'s autocomplete: the member's finished games (a teacher's: the
        server's), the newest first, those whose number or line holds what is typed."""
        if interaction.guild_id is None:
            return []
        lang = await lang_for(interaction)
        games = await review.reviewable(self.services.db, interaction.guild_id,
                                        interaction.user.id, await is_teacher(interaction))
        typed = current.strip().lstrip("#").casefold()
        labels = ((g.game_id, game_label(g, interaction.user.id, lang)) for g in games)
        return replies.fit_choices(app_commands.Choice(name=label, value=game_id)
                                   for game_id, label in labels
                                   if typed in str(game_id) or typed in label.casefold())

    # the clock -------------------------------------------------------------------------

    async def wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def check_deadlines(self, now: datetime | None = None) -> None:
        """Warn each player past their time (once), and forfeit the games whose grace is over
        (those of the servers this process owns)."""
        for event in await self.service.overdue(now, self.services.owns):
            try:
                await self.boards.tell_overdue(event)
            except Exception:
                log.exception("deadline of Rithmomachia game %s", event.row.game_id)
