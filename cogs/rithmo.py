"""``/rithmo``: Rithmomachia between two members, or against Ardoise.

Commands: ``challenge``, ``solo``, ``move`` (typed notation, autocompleted with the legal turns),
``board``, ``resign``, ``draw``, ``rules``. The engine (``bot.rithmo``) plays the rules, ``db``
keeps each game (its settings, its turns, the position string, the clock) and ``images`` draws
the board; this cog only carries a member's action from one to the other.

How it plays
    A challenge is a public message with Accept / Decline buttons (only the challenged member
    accepts; the challenger may withdraw). Accepted, the board is posted and the player to move
    pinged. A turn comes either typed (``/rithmo move xd7 c3-d7``) or picked from menus: the
    board message's persistent "Play a turn" button opens a private view (piece → what it does →
    captures after → Confirm), which walks the engine's turn steps. Each turn posts a new board
    message, with the last turn highlighted, and retires the buttons of the previous one.

Decisions
    - The board is drawn from the side of the player to move (the player just pinged sees their
      own edge nearest); a finished game is drawn from White's side. ``/rithmo board`` lets
      anyone choose the side.
    - In-game buttons carry the number of turns played as their version: a board message stays
      valid until the next turn, whatever else changes (a draw offer, the stored message id);
      the database's own version still guards every write (a lost race is "try again").
      Challenge buttons carry the database version.
    - A member has at most one open game (challenge or game) per channel, so ``/rithmo move``,
      ``resign`` and ``draw`` always know which game is meant.
    - Public messages of a game are in the server's language, else in the language of the member
      who started it (kept with the game); private answers are in each member's own language.
    - The move clock: a player past the server's move time limit is warned once (pinged) and
      given a grace of a quarter of that limit (at least a minute); past the grace, the game is
      lost on time.
    - Against Ardoise, ``bot.rithmo.opponents.choose_turn`` chooses its turn (in a thread, seeded by
      game and turn, so a replay is the same); for now it plays random legal turns, and says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import random
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord import app_commands, ui
from discord.app_commands import locale_str
from discord.ext import commands, tasks

import images
from bot import replies
from bot.domain import DomainError
from bot.formats import FORMAT_KEY, upgrade
from bot.i18n import image_words, lang_for, t
from bot.limits import channel_text, hit, limited, over_cap
from bot.replies import pings
from bot.rithmo import END, START, Board, Game, Outcome, Settings
from bot.rithmo.opponents import LEVELS, STRATEGY, choose_turn
from bot.views import ArdoiseView, GameButton, ensure_player, ensure_version
from cogs import ArdoiseCog
from cogs._rithmo_play import (
    CHOICES_LIMIT,
    Option,
    actors,
    build_settings,
    completions,
    engine_game,
    last_turn_json,
    server_settings,
    settings_text,
    step_options,
    taken_texts,
)
from db import Database, RatingChange, RithmoGame, StaleVersion

log = logging.getLogger(__name__)

SIDES = ("white", "black")
CACHE_SIZE = 256
DEADLINE_CHECK_S = 60
MIN_GRACE_S = 60
EMBED_COLOUR = 0xC8A165
BOARD_FILE = "rithmomachia.png"


def utcnow() -> datetime:
    return datetime.now(UTC)


def other(side: str) -> str:
    return "black" if side == "white" else "white"


#: The version of the ``position`` column's layout: ``{"format", "string", "lang", "level"}`` (the
#: position string after the last turn, the language of a game's first messages, the level of
#: Ardoise in a solo game). 1: the layout of 2026-12 with the field; 0 (no field): the same,
#: written before versions (``bot.formats``).
POSITION_FORMAT = 1


def stored_position(row: RithmoGame) -> dict[str, Any]:
    """The game's ``position`` column in today's layout; a newer one is refused
    (``state.too_new``)."""
    return upgrade(row.position if isinstance(row.position, dict) else {}, "position",
                   POSITION_FORMAT)


def _choice(label: str, key: str, value: str) -> app_commands.Choice[str]:
    return app_commands.Choice(name=locale_str(label, key=f"rithmo.choice.{key}"), value=value)


VICTORY_CHOICES = [
    _choice("Body (pieces taken)", "victory.body", "body"),
    _choice("Goods (value taken)", "victory.goods", "goods"),
    _choice("Proceeds (digits taken)", "victory.proceeds", "proceeds"),
    _choice("Body and goods", "victory.body_goods", "body_goods"),
    _choice("Body and proceeds", "victory.body_proceeds", "body_proceeds"),
    _choice("Goods and proceeds", "victory.goods_proceeds", "goods_proceeds"),
    _choice("Body, goods and proceeds", "victory.body_goods_proceeds", "body_goods_proceeds"),
    _choice("Lawsuit (value in few digits)", "victory.lawsuit", "lawsuit"),
    _choice("Honour (value in few pieces)", "victory.honour", "honour"),
    _choice("Honour and lawsuit", "victory.honour_lawsuit", "honour_lawsuit"),
    _choice("None (proper victory or move limit only)", "victory.none", "none"),
]
PROPER_CHOICES = [
    _choice("Off", "proper.off", "off"),
    _choice("Mediocre (one progression)", "proper.mediocre", "mediocre"),
    _choice("Great (two kinds of progression)", "proper.great", "great"),
    _choice("Excellent (all three kinds)", "proper.excellent", "excellent"),
]
COLOUR_CHOICES = [
    _choice("White (moves first)", "colour.white", "white"),
    _choice("Black", "colour.black", "black"),
    _choice("Random", "colour.random", "random"),
]
SIDE_CHOICES = [
    _choice("White's side", "side.white", "white"),
    _choice("Black's side", "side.black", "black"),
]


def mention(user_id: int | None, lang: str, *, computer: bool = False) -> str:
    if user_id is not None:
        return f"<@{user_id}>"
    return t("rithmo.computer" if computer else "rithmo.someone", lang)


def player_name(row: RithmoGame, side: str, lang: str) -> str:
    return mention(row.player(side), lang, computer=row.computer_side == side)


def side_name(side: str, lang: str) -> str:
    return t(f"rithmo.side.{side}", lang)


def stamp(moment: datetime) -> str:
    """A time every member reads in their own clock and language (Discord formats it)."""
    ts = int(moment.timestamp())
    return f"<t:{ts}:f> (<t:{ts}:R>)"


def duration_text(seconds: int, lang: str) -> str:
    if seconds % 86400 == 0:
        return t("rithmo.duration.days", lang, days=seconds // 86400)
    if seconds % 3600 == 0:
        return t("rithmo.duration.hours", lang, hours=seconds // 3600)
    return t("rithmo.duration.minutes", lang, minutes=max(1, round(seconds / 60)))


def grace_seconds(limit_s: int) -> int:
    return max(MIN_GRACE_S, limit_s // 4)


@dataclass
class Played:
    """A turn saved: the game after it, and what to tell about it."""

    row: RithmoGame
    turn: str
    side: str
    outcome: Outcome | None
    ratings: dict[int, RatingChange]
    position: dict[str, Any]
    last_turn: dict[str, Any]
    taken: list[str]


# ------------------------------------------------------------------------------ buttons


def _cog(interaction: discord.Interaction) -> Rithmo:
    cog = interaction.client.get_cog("Rithmo")  # type: ignore[attr-defined]
    assert isinstance(cog, Rithmo)
    return cog


class AcceptChallenge(GameButton, action="rithmo.accept"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).accept(interaction, int(self.game_id), self.version)


class DeclineChallenge(GameButton, action="rithmo.decline"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).decline(interaction, int(self.game_id), self.version)


class PlayTurn(GameButton, action="rithmo.play"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        hit(interaction, "turn")
        await _cog(interaction).open_turn_view(interaction, int(self.game_id), self.version)


class AcceptDraw(GameButton, action="rithmo.draw_accept"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).answer_draw(interaction, int(self.game_id), self.version, True)


class DeclineDraw(GameButton, action="rithmo.draw_decline"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).answer_draw(interaction, int(self.game_id), self.version, False)


def board_view(row: RithmoGame, lang: str) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(PlayTurn(row.game_id, len(row.turns), label=t("rithmo.board.play_button", lang),
                           emoji="♟️"))
    return view


# ------------------------------------------------------------------------------ the turn view


class TurnView(ArdoiseView):
    """A private view that builds one turn step by step on a copy of the board: a piece, what
    it does, then captures; Confirm plays it like ``/rithmo move`` would."""

    def __init__(self, cog: Rithmo, row: RithmoGame, board: Board, lang: str,
                 user_id: int) -> None:
        super().__init__(players=[user_id], timeout=600)
        self.cog = cog
        self.game_id = row.game_id
        self.ply = len(row.turns)
        self.side = row.to_move
        self.board = board
        self.lang = lang
        self.user_id = user_id
        self.actor: str | None = None
        self.rebuild()

    # state ------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return bool(self.board.history)  # an irregular move ended the turn on the copy

    def turn_text(self) -> str:
        steps = self.board.history[-1].steps() if self.finished else self.board.turn_in_progress
        return " ".join(str(s) for s in steps)

    def can_confirm(self) -> bool:
        if self.finished:
            return True
        return self.board.phase != START and END in self.board.legal_steps()

    def content(self) -> str:
        lang = self.lang
        lines = [t("rithmo.menu.header", lang, game=self.game_id, side=side_name(self.side, lang))]
        so_far = self.turn_text()
        if so_far:
            lines.append(t("rithmo.menu.so_far", lang, turn=so_far))
        if self.finished:
            hint = "rithmo.menu.hint_done"
        elif self.board.phase == START:
            hint = "rithmo.menu.hint_step" if self.actor else "rithmo.menu.hint_piece"
        elif self.board.vacated and self.board.phase != START and not self.can_confirm():
            hint = "rithmo.menu.hint_step_onto"
        else:
            hint = "rithmo.menu.hint_more"
        lines.append(t(hint, lang))
        return "\n".join(lines)

    # components -------------------------------------------------------------------------

    def _select(self, custom_id: str, placeholder: str, options: list[Option], row: int,
                chosen: str | None = None) -> ui.Select[TurnView]:
        select: ui.Select[TurnView] = ui.Select(
            custom_id=custom_id, placeholder=placeholder, row=row,
            options=[discord.SelectOption(label=o.label, value=o.value, description=o.description,
                                          default=o.value == chosen) for o in options])
        return select

    def rebuild(self) -> None:
        self.clear_items()
        lang = self.lang
        if not self.finished:
            if self.board.phase == START:
                pieces = actors(self.board, lang)[:CHOICES_LIMIT]
                select = self._select("rithmo:actor", t("rithmo.menu.piece_placeholder", lang),
                                      pieces, 0, self.actor)
                select.callback = self._on_actor  # type: ignore[method-assign]
                self.add_item(select)
            if self.board.phase != START or self.actor is not None:
                steps = step_options(self.board, self.actor, lang)
                placeholder = t("rithmo.menu.step_placeholder" if self.board.phase == START
                                else "rithmo.menu.next_placeholder", lang)
                for i in range(0, min(len(steps), 3 * CHOICES_LIMIT), CHOICES_LIMIT):
                    chunk = steps[i:i + CHOICES_LIMIT]
                    select = self._select(f"rithmo:step:{i // CHOICES_LIMIT}", placeholder,
                                          chunk, 1 + i // CHOICES_LIMIT)
                    select.callback = self._make_step_callback(select)  # type: ignore
                    self.add_item(select)
        confirm: ui.Button[TurnView] = ui.Button(
            label=t("rithmo.menu.confirm", lang), style=discord.ButtonStyle.success,
            custom_id="rithmo:confirm", disabled=not self.can_confirm(), row=4)
        confirm.callback = self._on_confirm  # type: ignore[method-assign]
        undo: ui.Button[TurnView] = ui.Button(
            label=t("rithmo.menu.undo", lang), style=discord.ButtonStyle.secondary,
            custom_id="rithmo:undo", disabled=not self.turn_text(), row=4)
        undo.callback = self._on_undo  # type: ignore[method-assign]
        cancel: ui.Button[TurnView] = ui.Button(
            label=t("rithmo.menu.cancel", lang), style=discord.ButtonStyle.danger,
            custom_id="rithmo:cancel", row=4)
        cancel.callback = self._on_cancel  # type: ignore[method-assign]
        for button in (confirm, undo, cancel):
            self.add_item(button)

    async def _redraw(self, interaction: discord.Interaction) -> None:
        # Not "_refresh": that is discord.py's View._refresh(components), which this would replace.
        self.rebuild()
        await replies.update(interaction, content=self.content(), view=self)

    async def _on_actor(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        self.actor = str(values[0]) if values else None
        await self._redraw(interaction)

    def _make_step_callback(self, select: ui.Select[TurnView]) -> Any:
        async def on_step(interaction: discord.Interaction) -> None:
            if self.finished:
                raise DomainError("rithmo.after_leap", "the turn is over",
                                  move=self.turn_text())
            self.board.play(select.values[0])  # checked: refuses a stale or forged option
            await self._redraw(interaction)
        return on_step

    async def _on_undo(self, interaction: discord.Interaction) -> None:
        if self.turn_text():
            self.board.pop_step()
        await self._redraw(interaction)

    async def _on_cancel(self, interaction: discord.Interaction) -> None:
        self.stop()
        await replies.update(interaction, content=t("rithmo.menu.cancelled", self.lang),
                             view=None)

    async def _on_confirm(self, interaction: discord.Interaction) -> None:
        if not self.can_confirm():
            raise DomainError("rithmo.empty_turn", "the turn is not finished")
        text = self.turn_text()
        cog = self.cog
        row = await cog.db.rithmo.require_game(self.game_id)
        if row.status != "active":
            raise DomainError("rithmo.not_active", "this game is not being played",
                              status=row.status)
        ensure_version(self.ply, len(row.turns))
        # Saving a turn is a few milliseconds: the answer follows it, then the board is drawn.
        played = await cog.apply_turn(row, self.user_id, text)
        self.stop()
        await replies.update(
            interaction,
            content=t("rithmo.menu.played", self.lang, turn=played.turn), view=None)
        await cog.after_member_turn(played)


# ------------------------------------------------------------------------------ the cog


class Rithmo(ArdoiseCog, commands.GroupCog, group_name="rithmo",
             group_description="Rithmomachia: the medieval battle of the numbers"):
    persistent_items = (AcceptChallenge, DeclineChallenge, PlayTurn, AcceptDraw, DeclineDraw)

    def __init__(self, bot: Any) -> None:
        super().__init__(bot)
        # Engine games rebuilt from the database, by (game id, turns played): turns are only
        # ever appended, so that pair names one position. Used without awaiting in between.
        self._games: OrderedDict[tuple[int, int], Game] = OrderedDict()
        # One board drawn at a time: drawing is Python code holding the GIL, and every extra
        # drawing thread takes a share of the interpreter from the event loop, which must
        # answer every interaction within 3 s (see docs/benchmarks.md, "Rithmomachia on
        # Discord"). Boards queue; answers do not.
        self._drawing = asyncio.Semaphore(1)
        # Ardoise's choice of a turn, run in a thread; a test may put a fake search here.
        self.choose_turn = choose_turn

    async def cog_load(self) -> None:
        self.deadline_loop.start()

    async def cog_unload(self) -> None:
        self.deadline_loop.cancel()

    @property
    def db(self) -> Database:
        assert self.bot.db is not None
        return self.bot.db

    # games -----------------------------------------------------------------------------

    def engine_game(self, row: RithmoGame) -> Game:
        key = (row.game_id, len(row.turns))
        game = self._games.get(key)
        if game is None:
            game = engine_game(row.victories, [turn.notation for turn in row.turns])
            stored = stored_position(row).get("string")
            if row.turns and stored and stored != game.board.position_string():
                log.warning("game %s: the replayed position differs from the stored one",
                            row.game_id)
            self._games[key] = game
            while len(self._games) > CACHE_SIZE:
                self._games.popitem(last=False)
        else:
            self._games.move_to_end(key)
        return game

    async def game_lang(self, row: RithmoGame) -> str:
        lang = await self.bot.languages.of_guild(row.guild_id)
        if lang:
            return lang
        stored = stored_position(row).get("lang")
        return stored if stored in ("en", "fr") else "en"

    async def current_game(self, interaction: discord.Interaction,
                           statuses: tuple[str, ...] = ("active",)) -> RithmoGame:
        """The member's game in this channel (the one where it is their turn first)."""
        assert interaction.guild_id is not None
        user = interaction.user.id
        games = [g for g in await self.db.rithmo.open_games(interaction.guild_id, user,
                                                            interaction.channel_id)
                 if g.status in statuses]
        if not games:
            raise DomainError("rithmo.no_game", "you have no Rithmomachia game in this channel")
        mine = [g for g in games if g.player(g.to_move) == user]
        return (mine or games)[0]

    async def _ensure_free(self, guild_id: int, channel_id: int | None, users: list[int],
                           lang: str) -> None:
        for user in users:
            if await self.db.rithmo.open_games(guild_id, user, channel_id):
                raise DomainError("rithmo.already_playing",
                                  "one game at a time per member in a channel",
                                  player=mention(user, lang))

    async def _limit(self, guild_id: int) -> int:
        return (await self.db.servers.get(guild_id)).move_time_limit_s

    # posting ---------------------------------------------------------------------------

    def _channel(self, row: RithmoGame) -> discord.PartialMessageable:
        assert row.channel_id is not None
        return self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)

    def _state_lines(self, row: RithmoGame, lang: str,
                     ratings: dict[int, RatingChange] | None = None) -> list[str]:
        """Who is to move (or how the game ended, with the rating changes)."""
        if row.status == "active":
            who = player_name(row, row.to_move, lang)
            key = "rithmo.board.your_move" if row.deadline else "rithmo.board.your_move_no_clock"
            return [t(key, lang, player=who, side=side_name(row.to_move, lang),
                      turn=len(row.turns) + 1,
                      deadline=stamp(row.deadline) if row.deadline else "")]
        lines = [self.end_text(row, lang)]
        if ratings:
            changes = " · ".join(
                t("rithmo.end.rating_change", lang, player=mention(user, lang),
                  before=round(c.before.rating), after=round(c.after.rating),
                  delta=f"{round(c.after.rating) - round(c.before.rating):+d}")
                for user, c in ratings.items())
            lines.append(t("rithmo.end.ratings", lang, changes=changes))
        return lines

    def end_text(self, row: RithmoGame, lang: str) -> str:
        result, reason = row.result, row.reason or ""
        game = row.game_id
        if result == "draw":
            key = {"agreed": "rithmo.end.agreed", "move_limit": "rithmo.end.move_limit_draw"}
            return t(key.get(reason, "rithmo.end.draw"), lang, game=game,
                     white=player_name(row, "white", lang), black=player_name(row, "black", lang),
                     limit=len(row.turns))
        if result not in SIDES:
            return t("rithmo.end.abandoned", lang, game=game)
        winner, loser = player_name(row, result, lang), player_name(row, other(result), lang)
        params = {"game": game, "winner": winner, "loser": loser, "side": side_name(result, lang)}
        if reason.startswith("victory:"):
            kind = reason.split(":", 1)[1]
            return t("rithmo.end.victory", lang, victory=t(f"rithmo.kind.{kind}", lang), **params)
        key = {"no_turn": "rithmo.end.no_turn", "move_limit": "rithmo.end.move_limit",
               "resignation": "rithmo.end.resignation", "timeout": "rithmo.end.timeout"}
        return t(key.get(reason, "rithmo.end.win"), lang, **params)

    async def post_board(
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
            position = self.engine_game(row).board.to_json()
        if flipped is None:
            flipped = active and row.to_move == "black"
        async with self._drawing:
            png = await asyncio.to_thread(images.render_board, position, image_words(lang),
                                          last_turn, flipped)
        file = discord.File(io.BytesIO(png), filename=BOARD_FILE)
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
            message = await replies.post(self._channel(row), content, file=file, view=view,
                                         allowed_mentions=pings(ping))
        if track:
            await self._retire(row, message.id)
        return message

    async def _retire(self, row: RithmoGame, message_id: int) -> None:
        """Make ``message_id`` the game's message (bookkeeping: the version stays)."""
        if not await self.db.rithmo.set_message_id(row.game_id, message_id,
                                                   if_version=row.version):
            # A turn was played meanwhile: this message is out of date already.
            await self._drop_buttons(row, message_id)

    async def _drop_buttons(self, row: RithmoGame, message_id: int) -> None:
        try:
            await replies.edit(self._channel(row).get_partial_message(message_id), view=None)
        except discord.HTTPException as error:
            log.info("game %s: could not take the buttons off message %s: %s", row.game_id,
                     message_id, error)

    # turns -----------------------------------------------------------------------------

    async def apply_turn(self, row: RithmoGame, user_id: int | None, text: str) -> Played:
        """Play ``text`` for ``user_id`` (None: Ardoise) in the stored game ``row``, checked by
        the engine, and save it (with the result and ratings if it ends the game)."""
        if row.status != "active":
            raise DomainError("rithmo.not_active", "this game is not being played",
                              status=row.status)
        side = row.to_move
        lang = await self.game_lang(row)
        if user_id is None:
            if row.computer_side != side:
                raise DomainError("rithmo.not_your_turn", "not Ardoise's turn",
                                  player=player_name(row, side, lang))
        elif row.player(side) != user_id:
            raise DomainError("rithmo.not_your_turn", "it is not your turn",
                              player=player_name(row, side, lang))
        game = self.engine_game(row)
        board = game.board
        turn = game.push(text)  # a refusal names its reason: the catalogues say it as it is
        try:  # read everything now: the cached game goes back as it was before any await
            notation = str(turn)
            outcome = game.outcome()
            position = board.to_json()
            string = board.position_string()
        finally:
            game.pop()
        last_turn = last_turn_json(turn)
        taken = taken_texts(board, turn)

        next_side = other(side)
        now = utcnow()
        human_next = row.player(next_side) is not None and row.computer_side != next_side
        deadline = None
        if outcome is None and human_next:
            deadline = now + timedelta(seconds=await self._limit(row.guild_id))
        blob = {**stored_position(row), "string": string}

        async def save(version: int) -> dict[int, RatingChange]:
            if outcome is None:
                await self.db.rithmo.play_turn(row.game_id, version, notation, blob,
                                               to_move=next_side, deadline=deadline, now=now)
                return {}
            result = "draw" if outcome.winner is None else SIDES[outcome.winner]
            reason = (f"victory:{outcome.victory}" if outcome.reason == "victory"
                      else outcome.reason)
            async with self.db.transaction():  # the last turn and the result, all or nothing
                version = await self.db.rithmo.play_turn(
                    row.game_id, version, notation, blob, to_move=next_side, deadline=None,
                    now=now)
                return await self.db.rithmo.finish_game(row.game_id, version, result, reason,
                                                        now=now)

        ratings = await save(row.version)
        # The cached game moves on with the stored one (no await since the lookup below).
        cached = self._games.pop((row.game_id, len(row.turns)), None)
        if cached is game:
            game.push(notation)
            self._games[(row.game_id, len(row.turns) + 1)] = game
        after = await self.db.rithmo.require_game(row.game_id)
        return Played(after, notation, side, outcome, ratings, position, last_turn, taken)

    async def computer_turn(self, row: RithmoGame) -> Played:
        game = self.engine_game(row)
        own = Game.from_json(game.to_json())  # the thread gets a game of its own
        level = int(stored_position(row).get("level", 1))
        rng = random.Random(f"rithmo:{row.game_id}:{len(row.turns)}")
        # The strong level's searches wait for a free one (bot.limits.SearchGate): the member's
        # turn is saved already, Ardoise answers as soon as its search gets its turn.
        strong = LEVELS.get(level) == "strong"
        gate = self.bot.limits.searches
        async with gate.slot(row.guild_id) if strong else contextlib.nullcontext():
            turn = await asyncio.to_thread(self.choose_turn, own, level, rng)
        return await self.apply_turn(row, None, str(turn))

    def _played_line(self, row: RithmoGame, played: Played, lang: str) -> str:
        who = player_name(row, played.side, lang)
        side = side_name(played.side, lang)
        if played.taken:
            return t("rithmo.board.played_taking", lang, player=who, side=side,
                     turn=played.turn, pieces=", ".join(played.taken))
        return t("rithmo.board.played", lang, player=who, side=side, turn=played.turn)

    async def after_member_turn(self, played: Played) -> None:
        """Ardoise answers if it plays the next turn; then the board is posted once for all."""
        plays = [played]
        row = played.row
        while row.status == "active" and row.computer_side == row.to_move:
            reply = await self.computer_turn(row)
            plays.append(reply)
            row = reply.row
        await self.post_turns(row, plays)

    async def post_turns(self, row: RithmoGame, plays: list[Played]) -> None:
        lang = await self.game_lang(row)
        lines = [self._played_line(row, p, lang) for p in plays]
        if any(p.side == row.computer_side for p in plays) and STRATEGY == "random":
            lines.append(t("rithmo.solo.random_note", lang))
        last = plays[-1]
        lines += self._state_lines(row, lang, last.ratings)
        ping = row.player(row.to_move) if row.status == "active" else None
        await self.post_board(row, lines, lang, position=last.position,
                              last_turn=last.last_turn, ping=ping)

    async def _catch_up(self, row: RithmoGame) -> RithmoGame:
        """Ardoise plays a turn it owes (a restart between a member's turn and its answer)."""
        if row.status == "active" and row.computer_side == row.to_move:
            played = await self.computer_turn(row)
            await self.post_turns(played.row, [played])
            raise DomainError("rithmo.computer_caught_up",
                              "Ardoise had not played yet: it has now")
        return row

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
    ) -> None:
        lang = await lang_for(interaction)
        me = interaction.user
        assert interaction.guild_id is not None
        if member.id == me.id:
            raise DomainError("rithmo.self_challenge", "you cannot challenge yourself")
        if member.bot:
            raise DomainError("rithmo.challenge_bot", "challenge a member, or play /rithmo solo")
        waiting = [g for g in await self.db.rithmo.open_games(interaction.guild_id, me.id)
                   if g.status == "pending" and g.challenger_id == me.id]
        if len(waiting) >= self.bot.limits.open_games["rithmo_challenges"]:
            raise over_cap("rithmo_challenges", [
                t("limits.item.rithmo_challenge", lang, game=g.game_id,
                  channel=channel_text(g.channel_id, lang)) for g in reversed(waiting)])
        server = await self.db.servers.get(interaction.guild_id)
        settings = build_settings(server_settings(server.rithmo_victories), victory=victory,
                                  pieces=pieces, value=value, digits=digits, proper=proper,
                                  move_limit=move_limit)
        await self._ensure_free(interaction.guild_id, interaction.channel_id, [me.id, member.id],
                                lang)
        colour = colour or "random"
        if colour == "random":
            colour = random.choice(SIDES)
        white, black = (me.id, member.id) if colour == "white" else (member.id, me.id)
        row = await self.db.rithmo.create_game(
            interaction.guild_id, white_id=white, black_id=black, challenger_id=me.id,
            victories=settings.to_json(),
            position={FORMAT_KEY: POSITION_FORMAT, "string": Board.start().position_string(),
                      "lang": lang},
            channel_id=interaction.channel_id)
        embed = self._challenge_embed(row, settings, server.move_time_limit_s, lang)
        view = ui.View(timeout=None)
        view.add_item(AcceptChallenge(row.game_id, row.version,
                                      label=t("rithmo.challenge.accept", lang),
                                      style=discord.ButtonStyle.success))
        view.add_item(DeclineChallenge(row.game_id, row.version,
                                       label=t("rithmo.challenge.decline", lang),
                                       style=discord.ButtonStyle.secondary))
        await replies.respond(
            interaction,
            t("rithmo.challenge.posted", lang, challenged=member.mention,
              challenger=me.mention),
            embed=embed, view=view, allowed_mentions=pings(member.id))

    def _challenge_embed(self, row: RithmoGame, settings: Settings, limit_s: int,
                         lang: str) -> discord.Embed:
        embed = discord.Embed(title=t("rithmo.challenge.title", lang, game=row.game_id),
                              colour=EMBED_COLOUR)
        embed.add_field(name=t("rithmo.challenge.victories", lang),
                        value=settings_text(settings, lang), inline=False)
        embed.add_field(name=t("rithmo.challenge.colours", lang),
                        value=t("rithmo.challenge.colours_value", lang,
                                white=player_name(row, "white", lang),
                                black=player_name(row, "black", lang)), inline=True)
        embed.add_field(name=t("rithmo.challenge.clock", lang),
                        value=duration_text(limit_s, lang), inline=True)
        embed.set_footer(text=t("rithmo.challenge.footer", lang))
        return embed

    async def accept(self, interaction: discord.Interaction, game_id: int, version: int) -> None:
        row = await self.db.rithmo.require_game(game_id)
        challenger = row.challenger_id
        challenged = row.black_id if challenger == row.white_id else row.white_id
        if interaction.user.id == challenger and row.status == "pending":
            raise DomainError("rithmo.only_challenged", "only the challenged member accepts",
                              player=mention(challenged, await lang_for(interaction)))
        ensure_player(interaction, [u for u in (challenged,) if u is not None])
        if row.status != "pending":
            raise DomainError("rithmo.not_pending", "this challenge was already answered",
                              status=row.status)
        ensure_version(version, row.version)
        # Answered at once: under load the writes below queue behind other games' turns.
        await interaction.response.defer()
        deadline = utcnow() + timedelta(seconds=await self._limit(row.guild_id))
        await self.db.rithmo.update_game(game_id, row.version, status="active", deadline=deadline)
        row = await self.db.rithmo.require_game(game_id)
        lang = await self.game_lang(row)
        await replies.edit_original(
            interaction,
            content=t("rithmo.challenge.accepted", lang, challenged=mention(challenged, lang),
                      challenger=mention(challenger, lang), game=game_id),
            view=None, allowed_mentions=pings())
        lines = [t("rithmo.board.start", lang, game=game_id,
                   white=player_name(row, "white", lang), black=player_name(row, "black", lang))]
        lines += self._state_lines(row, lang)
        await self.post_board(row, lines, lang, ping=row.player(row.to_move))

    async def decline(self, interaction: discord.Interaction, game_id: int, version: int) -> None:
        row = await self.db.rithmo.require_game(game_id)
        challenger = row.challenger_id
        challenged = row.black_id if challenger == row.white_id else row.white_id
        ensure_player(interaction, [u for u in (challenger, challenged) if u is not None])
        if row.status != "pending":
            raise DomainError("rithmo.not_pending", "this challenge was already answered",
                              status=row.status)
        ensure_version(version, row.version)
        await self.db.rithmo.update_game(game_id, row.version, status="declined")
        lang = await self.game_lang(row)
        key = ("rithmo.challenge.withdrawn" if interaction.user.id == challenger
               else "rithmo.challenge.declined")
        await replies.update(
            interaction,
            content=t(key, lang, challenged=mention(challenged, lang),
                      challenger=mention(challenger, lang)),
            view=None, allowed_mentions=pings())

    @app_commands.command(name="solo", description="Play Rithmomachia against Ardoise")
    @limited("start")
    @app_commands.describe(level="How strong Ardoise plays (1 beginner to 3 strong)",
                           colour="Your colour")
    @app_commands.choices(colour=COLOUR_CHOICES)
    async def solo(self, interaction: discord.Interaction,
                   level: app_commands.Range[int, 1, 3] = 1, colour: str | None = None) -> None:
        lang = await lang_for(interaction)
        me = interaction.user.id
        assert interaction.guild_id is not None
        if level not in LEVELS:
            raise DomainError("rithmo.bad_level", "unknown level", level=level)
        await self._ensure_free(interaction.guild_id, interaction.channel_id, [me], lang)
        playing = [g for g in await self.db.rithmo.open_games(interaction.guild_id, me)
                   if g.computer_side is not None]
        if len(playing) >= self.bot.limits.open_games["rithmo_computer"]:
            raise over_cap("rithmo_computer", [
                t("limits.item.rithmo", lang, game=g.game_id, turn=len(g.turns) + 1,
                  channel=channel_text(g.channel_id, lang)) for g in reversed(playing)])
        if LEVELS[level] == "strong":
            searches = self.bot.limits.searches
            # Before the bucket: trying again when told must work.
            if searches.saturated(interaction.guild_id):
                raise DomainError("limits.strong_busy", "the strong level is saturated",
                                  seconds=searches.wait_estimate())
            hit(interaction, "strong")
        await interaction.response.defer(thinking=True)
        server = await self.db.servers.get(interaction.guild_id)
        settings = server_settings(server.rithmo_victories)
        side = colour if colour in SIDES else random.choice(SIDES) if colour else "white"
        computer = other(side)
        deadline = None
        if side == "white":
            deadline = utcnow() + timedelta(seconds=server.move_time_limit_s)
        row = await self.db.rithmo.create_game(
            interaction.guild_id, white_id=me if side == "white" else None,
            black_id=me if side == "black" else None, computer_side=computer, challenger_id=me,
            victories=settings.to_json(), status="active", channel_id=interaction.channel_id,
            position={FORMAT_KEY: POSITION_FORMAT, "string": Board.start().position_string(),
                      "lang": lang, "level": level},
            deadline=deadline)
        lines = [t("rithmo.solo.start", lang, game=row.game_id, player=mention(me, lang),
                   side=side_name(side, lang), bot_side=side_name(computer, lang),
                   level=t(f"rithmo.level.{level}", lang))]
        if STRATEGY == "random":
            lines.append(t("rithmo.solo.random_note", lang))
        lines.append(settings_text(settings, lang))
        position, last_turn = None, None
        if computer == "white":
            played = await self.computer_turn(row)
            row = played.row
            lines.append(self._played_line(row, played, lang))
            position, last_turn = played.position, played.last_turn
        lines += self._state_lines(row, lang)
        await self.post_board(row, lines, lang, position=position, last_turn=last_turn,
                              interaction=interaction)

    @app_commands.command(name="move", description="Play your turn in your Rithmomachia game")
    @limited("turn")
    @app_commands.describe(turn="Your turn, like c4-b5, xd7 c3-d7 or drop T36 d1")
    async def move(self, interaction: discord.Interaction, turn: str) -> None:
        lang = await lang_for(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await self._catch_up(await self.current_game(interaction))
        played = await self.apply_turn(row, interaction.user.id, turn)
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
        game = self.engine_game(row)
        return replies.fit_choices(app_commands.Choice(name=c.label(lang), value=c.text)
                                   for c in completions(game.board, current) if len(c.text) <= 100)

    async def open_turn_view(self, interaction: discord.Interaction, game_id: int,
                             ply: int) -> None:
        row = await self.db.rithmo.require_game(game_id)
        ensure_player(interaction, [u for u in (row.white_id, row.black_id) if u is not None])
        if row.status != "active":
            raise DomainError("rithmo.not_active", "this game is not being played",
                              status=row.status)
        ensure_version(ply, len(row.turns))
        lang = await lang_for(interaction)
        row = await self._catch_up(row)
        if row.player(row.to_move) != interaction.user.id:
            raise DomainError("rithmo.not_your_turn", "it is not your turn",
                              player=player_name(row, row.to_move, lang))
        view = TurnView(self, row, self.engine_game(row).board.copy(), lang,
                        interaction.user.id)
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
            found = await self.db.rithmo.get_game(game)
            if found is None or found.guild_id != interaction.guild_id:
                raise DomainError("rithmo.no_such_game", "no such game here", game=game)
            row = found
        await interaction.response.defer(thinking=True)
        viewer = side or row.side_of(interaction.user.id) or "white"
        lines = [t("rithmo.board.header", lang, game=row.game_id,
                   white=player_name(row, "white", lang), black=player_name(row, "black", lang),
                   side=side_name(viewer, lang))]
        if row.status == "pending":
            lines.append(t("rithmo.board.pending", lang))
        else:
            lines += self._state_lines(row, lang)
        last = last_turn_json(self.engine_game(row).turns[-1]) if row.turns else None
        await self.post_board(row, lines, lang, last_turn=last, flipped=viewer == "black",
                              interaction=interaction, track=False)

    @app_commands.command(name="resign", description="Resign your Rithmomachia game")
    async def resign(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        row = await self.current_game(interaction)
        side = row.side_of(interaction.user.id)
        assert side is not None
        ratings = await self.db.rithmo.finish_game(row.game_id, row.version, other(side),
                                                   "resignation")
        await self._post_end(row.game_id, ratings, interaction=interaction)

    async def _post_end(self, game_id: int, ratings: dict[int, RatingChange],
                        interaction: discord.Interaction | None = None) -> None:
        row = await self.db.rithmo.require_game(game_id)
        lang = await self.game_lang(row)
        await self.post_board(row, self._state_lines(row, lang, ratings), lang,
                              interaction=interaction)

    @app_commands.command(name="draw",
                          description="Offer a draw in your Rithmomachia game, or accept one")
    async def draw(self, interaction: discord.Interaction) -> None:
        row = await self.current_game(interaction)
        side = row.side_of(interaction.user.id)
        assert side is not None
        if row.computer_side is not None:
            raise DomainError("rithmo.computer_declines_draw", "Ardoise plays on")
        if row.draw_offer == other(side):
            await interaction.response.defer(thinking=True)
            ratings = await self.db.rithmo.finish_game(row.game_id, row.version, "draw",
                                                       "agreed")
            await self._post_end(row.game_id, ratings, interaction=interaction)
            return
        if row.draw_offer == side:
            raise DomainError("rithmo.draw_already_offered", "you already offered a draw")
        await self.db.rithmo.update_game(row.game_id, row.version, draw_offer=side)
        game_lang = await self.game_lang(row)
        opponent = row.player(other(side))
        view = ui.View(timeout=None)
        view.add_item(AcceptDraw(row.game_id, len(row.turns),
                                 label=t("rithmo.draw.accept", game_lang),
                                 style=discord.ButtonStyle.success))
        view.add_item(DeclineDraw(row.game_id, len(row.turns),
                                  label=t("rithmo.draw.decline", game_lang),
                                  style=discord.ButtonStyle.secondary))
        await replies.respond(
            interaction,
            t("rithmo.draw.offered", game_lang, offerer=mention(interaction.user.id, game_lang),
              opponent=mention(opponent, game_lang), game=row.game_id),
            view=view, allowed_mentions=pings(opponent))

    async def answer_draw(self, interaction: discord.Interaction, game_id: int, ply: int,
                          accept: bool) -> None:
        row = await self.db.rithmo.require_game(game_id)
        offerer_side = row.draw_offer
        players = [u for u in (row.white_id, row.black_id) if u is not None]
        ensure_player(interaction, players)
        if row.status != "active":
            raise DomainError("rithmo.not_active", "this game is not being played",
                              status=row.status)
        ensure_version(ply, len(row.turns))
        if offerer_side is None:
            raise DomainError("rithmo.no_draw_offer", "no draw is on offer")
        offerer = row.player(offerer_side)
        lang = await self.game_lang(row)
        if accept:
            # Only the other player accepts; the one who offered may withdraw.
            ensure_player(interaction, [u for u in (row.player(other(offerer_side)),) if u])
            ratings = await self.db.rithmo.finish_game(game_id, row.version, "draw", "agreed")
            await replies.update(
                interaction,
                content=t("rithmo.draw.agreed", lang, game=game_id), view=None,
                allowed_mentions=pings())
            await self._post_end(game_id, ratings)
            return
        await self.db.rithmo.update_game(game_id, row.version, draw_offer=None)
        key = ("rithmo.draw.withdrawn" if interaction.user.id == offerer
               else "rithmo.draw.declined")
        await replies.update(
            interaction,
            content=t(key, lang, offerer=mention(offerer, lang),
                      opponent=mention(row.player(other(offerer_side)), lang), game=game_id),
            view=None, allowed_mentions=pings())

    @app_commands.command(name="rules", description="The rules of Rithmomachia in short")
    @limited("text")
    @app_commands.describe(show="Show the rules to the whole channel (else only to you)")
    async def rules(self, interaction: discord.Interaction, show: bool = False) -> None:
        lang = await lang_for(interaction)
        await replies.respond(interaction, embed=rules_embed(lang), ephemeral=not show)

    # the clock -------------------------------------------------------------------------

    @tasks.loop(seconds=DEADLINE_CHECK_S)
    async def deadline_loop(self) -> None:
        await self.check_deadlines()

    @deadline_loop.before_loop
    async def _before_deadlines(self) -> None:
        await self.bot.wait_until_ready()

    async def check_deadlines(self, now: datetime | None = None) -> None:
        """Warn each player past their time (once), and forfeit the games whose grace is over."""
        if self.bot.db is None:
            return
        now = now or utcnow()
        for late in await self.db.games.overdue(now):
            if late.game != "rithmo":
                continue
            try:
                await self._overdue(late.game_id, late.warned_at, now)
            except StaleVersion:
                continue  # the player moved meanwhile
            except Exception:
                log.exception("deadline of Rithmomachia game %s", late.game_id)

    async def _overdue(self, game_id: int, warned_at: datetime | None, now: datetime) -> None:
        row = await self.db.rithmo.require_game(game_id)
        if row.status != "active" or row.deadline is None or row.deadline > now:
            return  # played (or finished) since the list was read
        lang = await self.game_lang(row)
        late_side = row.to_move
        late = row.player(late_side)
        if warned_at is None:
            grace = now + timedelta(seconds=grace_seconds(await self._limit(row.guild_id)))
            await self.db.games.mark_warned("rithmo", game_id, grace_deadline=grace, now=now)
            await replies.post(
                self._channel(row),
                t("rithmo.clock.warning", lang, player=mention(late, lang), game=game_id,
                  deadline=stamp(grace)),
                allowed_mentions=pings(late))
            return
        ratings = await self.db.rithmo.finish_game(game_id, row.version, other(late_side),
                                                   "timeout", now=now)
        await self._post_end(game_id, ratings)


def rules_embed(lang: str) -> discord.Embed:
    embed = discord.Embed(title=t("rithmo.rules.title", lang),
                          description=t("rithmo.rules.intro", lang), colour=EMBED_COLOUR)
    for section in ("board", "moves", "captures", "turn", "victories", "typing"):
        embed.add_field(name=t(f"rithmo.rules.{section}_name", lang),
                        value=t(f"rithmo.rules.{section}", lang), inline=False)
    embed.set_footer(text=t("rithmo.rules.footer", lang))
    return embed


async def setup(bot: Any) -> None:
    await bot.add_cog(Rithmo(bot))
