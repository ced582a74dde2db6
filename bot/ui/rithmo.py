"""``/rithmo``'s presentation: the options' choices, the persistent buttons, the "Play a turn"
view, the words of a game (its players, sides and victories, a turn and what it took, its state
and its end), the challenge embed and the board's picture with its description. It says what
``bot.play.rithmo`` did and calls back into the conductor (``bot.flows.rithmo``) through the
``Flows`` protocol kept under ``RITHMO_FLOWS``; it calls no use case (the turn view redraws
itself, nothing more) and runs no SQL.

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

import io
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

import discord
from discord import app_commands, ui
from discord.app_commands import locale_str

import images
from bot import replies
from bot.domain import DomainError
from bot.i18n import image_words, number, t
from bot.limits import hit
from bot.play.rithmo import SIDES, Played, other
from bot.play.rithmo_turns import Actor, Completion, StepChoice, Taken, actors, step_choices
from bot.play.settings import CEILINGS
from bot.replies import interaction_data
from bot.rithmo import END, START, Board, Settings, Victory
from bot.rithmo.squares import SHAPE_LETTERS
from bot.rithmo.victory import KINDS
from bot.services import Key, services_of
from bot.ui import alt_text
from bot.ui.rithmo_explain import capture_text
from bot.views import ArdoiseView, GameButton
from db import RatingChange, RithmoGame

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


def mention(user_id: int | None, lang: str, *, computer: bool = False) -> str:
    """A member as Discord pings them, else Ardoise (``computer``) or "someone" (data erased)."""
    if user_id is not None:
        return f"<@{user_id}>"
    return t("rithmo.computer" if computer else "rithmo.someone", lang)


def player_name(row: RithmoGame, side: str, lang: str) -> str:
    """The player of ``side`` in a game's messages (a mention, or Ardoise)."""
    return mention(row.player(side), lang, computer=row.computer_side == side)


def side_name(side: str, lang: str) -> str:
    return t(f"rithmo.side.{side}", lang)


def victory_text(victory: Victory, lang: str) -> str:
    """``Body: at least 8 pieces taken``, in ``lang``: each threshold is said as a count before
    its noun ("8 pièces prises", "with fewer than 5 digits"), as the settings say it."""
    ceilings = CEILINGS.get(victory.kind, ())
    said: dict[str, Any]  # text parameters (``t``'s count is one of its keywords)
    said = {name: t(f"settings.show.{'fewer' if name in ceilings else 'taken'}.{name}", lang,
                    count=getattr(victory, name), value=number(getattr(victory, name), lang))
            for name in KINDS[victory.kind]}
    return t(f"rithmo.victory.{victory.kind}", lang, **said)


def settings_text(settings: Settings, lang: str) -> str:
    """The victories of a game on one line each, then the move limit."""
    lines = [f"• {victory_text(v, lang)}" for v in settings.victories]
    if settings.move_limit is not None:
        lines.append("• " + t("rithmo.settings.move_limit", lang,
                                count=settings.move_limit))
    return "\n".join(lines)


def taken_text(taken: Taken) -> str:
    """``S16``, or ``36 (P190)`` for a pyramid's component: a piece taken, as the notation
    writes it (the same letters in French)."""
    piece = f"{SHAPE_LETTERS[taken.shape]}{taken.value}"
    return piece if taken.part is None else f"{taken.part} ({piece})"


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
                 pieces=", ".join(map(taken_text, played.taken)))
        return "\n".join([head, *(f"• {capture_text(w, lang)}" for w in played.whys)])
    if played.taken:
        return t("rithmo.board.played_taking", lang, player=who, side=side,
                 turn=played.turn, pieces=", ".join(map(taken_text, played.taken)))
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
    """What the buttons, the turn view, the resignation's question and the puzzle's form call:
    the Rithmomachia conductor (``bot.flows.rithmo.RithmoFlow``, which registers itself under
    ``RITHMO_FLOWS`` in the services)."""

    async def accept(self, interaction: discord.Interaction, game_id: int,
                     version: int) -> None: ...
    async def decline(self, interaction: discord.Interaction, game_id: int,
                      version: int) -> None: ...
    async def open_turn_view(self, interaction: discord.Interaction, game_id: int,
                             ply: int) -> None: ...
    async def answer_draw(self, interaction: discord.Interaction, game_id: int, ply: int,
                          accept: bool) -> None: ...
    async def confirm_turn(self, interaction: discord.Interaction, view: TurnView) -> None: ...
    async def confirm_resign(self, interaction: discord.Interaction, game_id: int) -> None: ...
    async def answer_puzzle(self, interaction: discord.Interaction, puzzle_id: int | None,
                            text: str) -> None: ...
    async def answer_practice(self, interaction: discord.Interaction, kind: str, ref: int,
                              text: str) -> None: ...
    async def step_review(self, interaction: discord.Interaction, game_id: int,
                          ply: int) -> None: ...


#: Where the services keep the Rithmomachia flows (put there by the conductor).
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


# ------------------------------------------------------------------------------ menus' words

#: Discord's longest choice name, option label or description.
TEXT_LIMIT = 100


def _cut(text: str) -> str:
    return text if len(text) <= TEXT_LIMIT else text[:TEXT_LIMIT - 1] + "…"


def completion_label(completion: Completion, lang: str) -> str:
    """``xg12 g5-g12 — S15 · takes T90``: a turn offered by ``/rithmo move``'s autocomplete."""
    parts = []
    if completion.mover:
        parts.append(completion.mover)
    if completion.taken:
        parts.append(t("rithmo.complete.takes", lang, pieces=", ".join(completion.taken)))
    return _cut(completion.text + (f" — {' · '.join(parts)}" if parts else ""))


@dataclass(frozen=True)
class Option:
    """One option of a select menu: its value (kept short) and what the member reads."""

    value: str
    label: str
    description: str | None = None


def actor_option(actor: Actor, lang: str) -> Option:
    if actor.square is None:
        return Option(actor.value, _cut(t("rithmo.menu.drop_piece", lang, piece=actor.piece)),
                      _cut(t("rithmo.menu.drop_squares", lang, count=actor.drops)))
    bits = []
    if actor.takes:
        bits.append(t("rithmo.menu.can_take", lang, squares=", ".join(actor.takes)))
    if actor.moves:
        bits.append(t("rithmo.menu.moves", lang, count=actor.moves))
    return Option(actor.value, _cut(f"{actor.square} — {actor.piece}"), _cut(" · ".join(bits)))


def actor_options(board: Board, lang: str) -> list[Option]:
    """The "Play a turn" view's first menu: the pieces that can start the turn."""
    return [actor_option(a, lang) for a in actors(board)]


def step_option(step: StepChoice, lang: str) -> Option:
    if step.kind == "take":
        by = (_cut(t("rithmo.menu.by", lang, squares=", ".join(step.by))) if step.by else None)
        return Option(step.value, _cut(t("rithmo.menu.take", lang, piece=step.piece,
                                         square=step.to)), by)
    if step.kind == "drop":
        return Option(step.value, _cut(t("rithmo.menu.drop_on", lang, piece=step.piece,
                                         square=step.to)))
    return Option(step.value, _cut(t(f"rithmo.menu.{step.kind}", lang, piece=step.piece,
                                     frm=step.frm, to=step.to)))


def step_options(board: Board, actor: str | None, lang: str) -> list[Option]:
    """The view's step menus: what the chosen piece (or, later in the turn, any) may do now."""
    return [step_option(s, lang) for s in step_choices(board, actor)]


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
                pieces = actor_options(self.board, lang)[:replies.SELECT_OPTIONS]
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


def board_picture(row: RithmoGame, position: dict[str, Any], last_turn: dict[str, Any] | None,
                  flipped: bool, names: Mapping[int, str], lang: str) -> discord.File:
    """The board as posted: drawn from ``flipped``'s side, the last turn highlighted with each
    capture's sentence, described for a screen reader with the players' ``names`` (slow: the
    caller runs it in a thread)."""
    png = images.render_board(position, image_words(lang), explained_turn(last_turn, lang),
                              flipped)
    active = row.status == "active"
    said = alt_text.board({side: plain_name(row, side, names, lang) for side in SIDES},
                          row.to_move if active else None, last_turn, flipped, lang)
    return discord.File(io.BytesIO(png), filename=BOARD_FILE, description=said)


def turns_lines(plays: list[Played], lang: str, random_note: bool) -> list[str]:
    """What one board says of the turns just played (a member's and Ardoise's answers): each
    turn, the note that Ardoise plays at random (``random_note``), then the game's state."""
    row = plays[-1].row
    lines = [played_line(row, p, lang) for p in plays]
    if random_note and any(p.side == row.computer_side for p in plays):
        lines.append(t("rithmo.solo.random_note", lang))
    return lines + state_lines(row, lang, plays[-1].ratings)


def overdue_text(row: RithmoGame, late_id: int | None, grace: datetime, lang: str) -> str:
    """The warning to a player past their time: the new deadline (the grace)."""
    return t("rithmo.clock.warning", lang, player=mention(late_id, lang), game=row.game_id,
             deadline=stamp(grace))
