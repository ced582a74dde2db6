"""``/rithmo``'s presentation: the options' choices, the persistent buttons, the "Play a turn"
view, the texts of a game's state and end, the challenge embed, and the board messages (drawn by
``images`` in a thread). It says what ``bot.play.rithmo`` did; it runs no SQL.

Decisions
    - The board is drawn from the side of the player to move (the player just pinged sees their
      own edge nearest); a finished game is drawn from White's side.
    - In-game buttons carry the number of turns played as their version: a board message stays
      valid until the next turn, whatever else changes (a draw offer, the stored message id);
      challenge buttons carry the database version.
    - Each turn posts a new board message, with the last turn highlighted, and retires the
      buttons of the previous one.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol

import discord
from discord import app_commands, ui
from discord.app_commands import locale_str

import images
from bot import replies
from bot.domain import DomainError
from bot.i18n import image_words, t
from bot.limits import hit
from bot.play.rithmo import SIDES, Ended, Played, RithmoService, Warned, other, player_name
from bot.play.rithmo_explain import capture_text
from bot.play.rithmo_turns import (
    Option,
    actors,
    mention,
    settings_text,
    side_name,
    step_options,
)
from bot.replies import interaction_data, pings
from bot.rithmo import END, START, Board, Settings
from bot.rithmo.opponents import STRATEGY
from bot.services import Key, services_of
from bot.ui import alt_text
from bot.ui.members import KnownNames
from bot.views import ArdoiseView, GameButton
from db import RatingChange, RithmoGame

log = logging.getLogger(__name__)

EMBED_COLOUR = 0xC8A165
BOARD_FILE = "rithmomachia.png"


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


# ------------------------------------------------------------------------------ texts


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


def state_lines(row: RithmoGame, lang: str,
                ratings: dict[int, RatingChange] | None = None) -> list[str]:
    """Who is to move (or how the game ended, with the rating changes)."""
    if row.status == "active":
        who = player_name(row, row.to_move, lang)
        key = "rithmo.board.your_move" if row.deadline else "rithmo.board.your_move_no_clock"
        return [t(key, lang, player=who, side=side_name(row.to_move, lang),
                  turn=len(row.turns) + 1, deadline=stamp(row.deadline) if row.deadline else "")]
    lines = [end_text(row, lang)]
    if row.hints_white or row.hints_black:
        lines.append(hints_line(row, lang))
    if ratings:
        changes = " · ".join(
            t("rithmo.end.rating_change", lang, player=mention(user, lang),
              before=round(c.before.rating), after=round(c.after.rating),
              delta=f"{round(c.after.rating) - round(c.before.rating):+d}")
            for user, c in ratings.items())
        lines.append(t("rithmo.end.ratings", lang, changes=changes))
    return lines


def hints_line(row: RithmoGame, lang: str) -> str:
    """The hints each player used (``/rithmo hint``), for the game's end."""
    return t("rithmo_puzzles.hints.summary", lang, white=player_name(row, "white", lang),
             black=player_name(row, "black", lang), white_count=row.hints_white,
             black_count=row.hints_black)


def end_text(row: RithmoGame, lang: str) -> str:
    result, reason = row.result, row.reason or ""
    game = row.game_id
    if result == "draw":
        key = {"agreed": "rithmo.end.agreed", "move_limit": "rithmo.end.move_limit_draw"}
        return t(key.get(reason, "rithmo.end.draw"), lang, game=game,
                 white=player_name(row, "white", lang), black=player_name(row, "black", lang),
                 count=len(row.turns))
    if result not in SIDES:
        return t("rithmo.end.abandoned", lang, game=game)
    winner, loser = player_name(row, result, lang), player_name(row, other(result), lang)
    params: dict[str, Any] = {"game": game, "winner": winner, "loser": loser,
                              "side": side_name(result, lang)}
    if reason.startswith("victory:"):
        kind = reason.split(":", 1)[1]
        return t("rithmo.end.victory", lang, victory=t(f"rithmo.kind.{kind}", lang), **params)
    key = {"no_turn": "rithmo.end.no_turn", "move_limit": "rithmo.end.move_limit",
           "resignation": "rithmo.end.resignation", "timeout": "rithmo.end.timeout"}
    return t(key.get(reason, "rithmo.end.win"), lang, **params)


def played_line(row: RithmoGame, played: Played, lang: str) -> str:
    who = player_name(row, played.side, lang)
    side = side_name(played.side, lang)
    if played.whys:
        # Each capture with its arithmetic: the reason a class plays this game.
        head = t("rithmo_why.played", lang, player=who, side=side, turn=played.turn,
                 pieces=", ".join(played.taken))
        return "\n".join([head, *(f"• {capture_text(w, lang)}" for w in played.whys)])
    if played.taken:
        return t("rithmo.board.played_taking", lang, player=who, side=side,
                 turn=played.turn, pieces=", ".join(played.taken))
    return t("rithmo.board.played", lang, player=who, side=side, turn=played.turn)


def explained_turn(last_turn: dict[str, Any] | None, lang: str) -> dict[str, Any] | None:
    """The last turn for the picture, with each capture's sentence (``"explained"``) in
    ``lang``: the picture writes what it is handed, in the member's language."""
    if not last_turn or not last_turn.get("why"):
        return last_turn
    return {**last_turn, "explained": [capture_text(w, lang) for w in last_turn["why"]]}


def challenge_embed(row: RithmoGame, settings: Settings, limit_s: int,
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
    if row.hints_allowed:
        embed.add_field(name=t("rithmo_puzzles.hints.allowed", lang),
                        value=t("rithmo_puzzles.hints.allowed_value", lang), inline=False)
    embed.set_footer(text=t("rithmo.challenge.footer", lang))
    return embed


# ------------------------------------------------------------------------------ buttons


class Flows(Protocol):
    """What the buttons and the turn view call: the cog's flows (``cogs.rithmo.Rithmo``, which
    registers itself under ``RITHMO_FLOWS`` in the services)."""

    @property
    def service(self) -> RithmoService: ...
    @property
    def boards(self) -> Boards: ...

    async def current_game(self, interaction: discord.Interaction,
                           statuses: tuple[str, ...] = ("active",)) -> RithmoGame: ...

    async def accept(self, interaction: discord.Interaction, game_id: int,
                     version: int) -> None: ...
    async def decline(self, interaction: discord.Interaction, game_id: int,
                      version: int) -> None: ...
    async def open_turn_view(self, interaction: discord.Interaction, game_id: int,
                             ply: int) -> None: ...
    async def answer_draw(self, interaction: discord.Interaction, game_id: int, ply: int,
                          accept: bool) -> None: ...
    async def confirm_turn(self, interaction: discord.Interaction, view: TurnView) -> None: ...


#: Where the services keep the Rithmomachia flows (put there by the cog).
RITHMO_FLOWS: Key[Flows] = Key("rithmo.flows")


def _flows(interaction: discord.Interaction) -> Flows:
    return services_of(interaction).kept.get(RITHMO_FLOWS)


class AcceptChallenge(GameButton, action="rithmo.accept"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await _flows(interaction).accept(interaction, int(self.game_id), self.version)


class DeclineChallenge(GameButton, action="rithmo.decline"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await _flows(interaction).decline(interaction, int(self.game_id), self.version)


class PlayTurn(GameButton, action="rithmo.play"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        hit(interaction, "turn")
        await _flows(interaction).open_turn_view(interaction, int(self.game_id), self.version)


class AcceptDraw(GameButton, action="rithmo.draw_accept"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await _flows(interaction).answer_draw(interaction, int(self.game_id), self.version, True)


class DeclineDraw(GameButton, action="rithmo.draw_decline"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await _flows(interaction).answer_draw(interaction, int(self.game_id), self.version,
                                              False)


PERSISTENT_ITEMS = (AcceptChallenge, DeclineChallenge, PlayTurn, AcceptDraw, DeclineDraw)


def board_view(row: RithmoGame, lang: str) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(PlayTurn(row.game_id, len(row.turns), label=t("rithmo.board.play_button", lang),
                           emoji="♟️"))
    return view


def challenge_view(row: RithmoGame, lang: str) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(AcceptChallenge(row.game_id, row.version,
                                  label=t("rithmo.challenge.accept", lang),
                                  style=discord.ButtonStyle.success))
    view.add_item(DeclineChallenge(row.game_id, row.version,
                                   label=t("rithmo.challenge.decline", lang),
                                   style=discord.ButtonStyle.secondary))
    return view


def draw_view(row: RithmoGame, lang: str) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(AcceptDraw(row.game_id, len(row.turns), label=t("rithmo.draw.accept", lang),
                             style=discord.ButtonStyle.success))
    view.add_item(DeclineDraw(row.game_id, len(row.turns), label=t("rithmo.draw.decline", lang),
                              style=discord.ButtonStyle.secondary))
    return view


# ------------------------------------------------------------------------------ the turn view


class TurnView(ArdoiseView):
    """A private view that builds one turn step by step on a copy of the board: a piece, what
    it does, then captures; Confirm plays it like ``/rithmo move`` would."""

    def __init__(self, flows: Flows, row: RithmoGame, board: Board, lang: str,
                 user_id: int) -> None:
        super().__init__(players=[user_id], timeout=600)
        self.flows = flows
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
                pieces = actors(self.board, lang)[:replies.SELECT_OPTIONS]
                select = self._select("rithmo:actor", t("rithmo.menu.piece_placeholder", lang),
                                      pieces, 0, self.actor)
                select.callback = self._on_actor  # type: ignore[method-assign]
                self.add_item(select)
            if self.board.phase != START or self.actor is not None:
                steps = step_options(self.board, self.actor, lang)
                placeholder = t("rithmo.menu.step_placeholder" if self.board.phase == START
                                else "rithmo.menu.next_placeholder", lang)
                most = replies.SELECT_OPTIONS
                for i in range(0, min(len(steps), 3 * most), most):
                    chunk = steps[i:i + most]
                    select = self._select(f"rithmo:step:{i // most}", placeholder, chunk,
                                          1 + i // most)
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
        values = interaction_data(interaction).get("values") or []
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
        await self.flows.confirm_turn(interaction, self)


# ------------------------------------------------------------------------------ board messages


def plain_name(row: RithmoGame, side: str, names: Mapping[int, str], lang: str) -> str:
    """A side's player as a picture's description says it: a display name, not a mention (a
    screen reader would read the number); "a former player" when Discord no longer gives it."""
    if row.computer_side == side:
        return t("rithmo.computer", lang)
    user_id = row.player(side)
    known = names.get(user_id) if user_id is not None else None
    return known if known is not None else t("rithmo.someone", lang)


class Boards:
    """Posts a game's board messages: draws the board (one at a time), posts it with its text,
    makes it the game's message and takes the buttons off the previous one."""

    def __init__(self, bot: discord.Client, service: RithmoService) -> None:
        self.bot = bot
        self.service = service
        # One board drawn at a time: drawing is Python code holding the GIL, and every extra
        # drawing thread takes a share of the interpreter from the event loop, which must
        # answer every interaction within 3 s (see docs/benchmarks.md, "Rithmomachia on
        # Discord"). Boards queue; answers do not.
        self._drawing = asyncio.Semaphore(1)
        # The players' names the board's description says, fetched once per process at most.
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
        async with self._drawing:
            png = await asyncio.to_thread(images.render_board, position, image_words(lang),
                                          explained_turn(last_turn, lang), flipped)
        if interaction is not None:
            self.names.learn(row.guild_id, interaction.user)
        players = [uid for uid in (row.player(side) for side in SIDES) if uid is not None]
        names = await self.names.names(self.bot.get_guild(row.guild_id), players)
        said = alt_text.board({side: plain_name(row, side, names, lang) for side in SIDES},
                              row.to_move if active else None, last_turn, flipped, lang)
        file = discord.File(io.BytesIO(png), filename=BOARD_FILE, description=said)
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
        lines = [played_line(row, p, lang) for p in plays]
        if any(p.side == row.computer_side for p in plays) and STRATEGY == "random":
            lines.append(t("rithmo.solo.random_note", lang))
        last = plays[-1]
        lines += state_lines(row, lang, last.ratings)
        ping = row.player(row.to_move) if row.status == "active" else None
        await self.post(row, lines, lang, position=last.position, last_turn=last.last_turn,
                        ping=ping)

    async def tell_overdue(self, event: Warned | Ended) -> None:
        """A player past their time is warned in the game's channel (once); a game whose grace
        is over is ended on its board."""
        if isinstance(event, Ended):
            await self.end(event.row, event.ratings)
            return
        lang = await self.service.game_lang(event.row)
        await replies.post(
            self.channel(event.row),
            t("rithmo.clock.warning", lang, player=mention(event.late_id, lang),
              game=event.row.game_id, deadline=stamp(event.grace)),
            allowed_mentions=pings(event.late_id))

    async def end(self, row: RithmoGame, ratings: dict[int, RatingChange],
                  interaction: discord.Interaction | None = None) -> None:
        lang = await self.service.game_lang(row)
        await self.post(row, state_lines(row, lang, ratings), lang, interaction=interaction)

