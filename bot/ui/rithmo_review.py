"""``/rithmo review``'s presentation: one turn of a finished game (what it took, each capture
with its arithmetic, as a game's messages say it), the board after it, the turning point, and
the step buttons.

Decisions
    - Private (ephemeral): a child's game is read by its players and teachers only
      (``bot.play.rithmo_review``), never posted in the channel.
    - The step buttons are persistent (``rithmo.review_step:<game>:<turn>:<button>``, the turn
      to show as the version, the button's name to keep the ids of one message apart): after a
      restart a click still shows its turn. Each button names the turn it leads to, so a click
      is the same whatever the message showed before.
    - The board after turn ``k`` is drawn from White's side, as a finished game's board is,
      with turn ``k`` highlighted.
"""

from __future__ import annotations

import io
from collections.abc import Mapping

import discord
from discord import ui

import images
from bot.i18n import image_words, number, t
from bot.play.rithmo_review import Reviewed, Step
from bot.rithmo.review import TurningPoint
from bot.services import services_of
from bot.ui import alt_text
from bot.ui.rithmo import (
    RITHMO_FLOWS,
    end_text,
    explained_turn,
    plain_name,
    player_name,
    side_name,
    taken_text,
)
from bot.ui.rithmo_explain import capture_text
from bot.views import GameButton
from db import ReviewableGame

REVIEW_FILE = "review.png"


class ReviewStep(GameButton, action="rithmo.review_step"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        flows = services_of(interaction).kept.get(RITHMO_FLOWS)
        await flows.step_review(interaction, int(self.game_id), self.version)


PERSISTENT_ITEMS = (ReviewStep,)


def game_label(game: ReviewableGame, user_id: int, lang: str) -> str:
    """The autocomplete's line: ``#12 · won against Ardoise · 48 turns``."""
    mine = ("white" if game.white_id == user_id else "black" if game.black_id == user_id
            else None)
    if game.result == "draw":
        outcome = t("rithmo_review.label.draw", lang)
    elif mine is None:
        outcome = t("rithmo_review.label.won_by", lang, side=side_name(game.result or "", lang)) \
            if game.result in ("white", "black") else t("rithmo_review.label.over", lang)
    else:
        outcome = t("rithmo_review.label.won" if game.result == mine
                    else "rithmo_review.label.lost", lang)
    against = (t("rithmo_review.label.computer", lang) if game.computer_side is not None
               else t("rithmo_review.label.member", lang))
    return t("rithmo_review.label.line", lang, game=game.game_id, outcome=outcome,
             against=against, count=game.turns)


def points_text(points: int, lang: str) -> str:
    return t("rithmo_review.points", lang, count=abs(points), points=number(abs(points), lang))


def turning_lines(reviewed: Reviewed, lang: str) -> list[str]:
    """The turn where the game turned, and the better turn the engine finds there."""
    turning: TurningPoint | None = reviewed.review.turning
    if turning is None:
        return [t("rithmo_review.turning.none", lang)]
    row = reviewed.row
    lines = [t("rithmo_review.turning.at", lang, turn=turning.ply,
               player=player_name(row, turning.side, lang), side=side_name(turning.side, lang),
               played=turning.played, points=points_text(turning.swing, lang))]
    if turning.better is None:
        lines.append(t("rithmo_review.turning.no_better", lang))
    else:
        lines.append(t("rithmo_review.turning.better", lang, better=turning.better))
    return lines


def step_lines(reviewed: Reviewed, shown: Step, lang: str) -> list[str]:
    """The header, turn ``shown.ply`` with what it took and the arithmetic, the game's end on
    its last turn, and the turning point."""
    row = reviewed.row
    total = len(reviewed.turns)
    lines = [t("rithmo_review.title", lang, game=row.game_id,
               white=player_name(row, "white", lang), black=player_name(row, "black", lang))]
    if shown.ply == 0:
        lines.append(t("rithmo_review.setup", lang, count=total))
    else:
        side = "white" if shown.ply % 2 == 1 else "black"
        who, colour = player_name(row, side, lang), side_name(side, lang)
        if shown.taken:
            lines.append(t("rithmo_review.turn_taking", lang, turn=shown.ply, total=total,
                           player=who, side=colour, played=shown.turn,
                           pieces=", ".join(map(taken_text, shown.taken))))
            lines += [f"• {capture_text(taken.why, lang)}" for taken in shown.taken]
        else:
            lines.append(t("rithmo_review.turn", lang, turn=shown.ply, total=total, player=who,
                           side=colour, played=shown.turn))
    if shown.ply == total:
        lines.append(end_text(row, lang))
    return lines + turning_lines(reviewed, lang)


def step_view(reviewed: Reviewed, ply: int, lang: str) -> ui.View:
    """First / previous / next / last, and the turning point (each names the turn it shows)."""
    game, last = reviewed.row.game_id, len(reviewed.turns)
    view = ui.View(timeout=None)
    for label, emoji, target, off in (
            ("first", "⏮️", 0, ply == 0), ("previous", "◀️", max(0, ply - 1), ply == 0),
            ("next", "▶️", min(last, ply + 1), ply == last),
            ("last", "⏭️", last, ply == last)):
        view.add_item(ReviewStep(game, target, label,
                                 label=t(f"rithmo_review.button.{label}", lang), emoji=emoji,
                                 disabled=off,
                                 style=discord.ButtonStyle.secondary))
    turning = reviewed.review.turning
    if turning is not None:
        view.add_item(ReviewStep(game, turning.ply, "turning",
                                 label=t("rithmo_review.button.turning", lang),
                                 emoji="⭐", disabled=ply == turning.ply))
    return view


def step_picture(reviewed: Reviewed, shown: Step, names: Mapping[int, str],
                 lang: str) -> discord.File:
    """The board after the turn shown (slow: the caller runs it in a thread)."""
    png = images.render_board(shown.position, image_words(lang),
                              explained_turn(shown.last_turn, lang), False)
    row = reviewed.row
    said = alt_text.board({side: plain_name(row, side, names, lang) for side in ("white",
                                                                                   "black")},
                          None, shown.last_turn, False, lang)
    return discord.File(io.BytesIO(png), filename=REVIEW_FILE, description=said)
