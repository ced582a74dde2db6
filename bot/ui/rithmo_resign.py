"""``/rithmo resign`` asks first: a private question with "Resign" and "Keep playing".

A child who types ``/rithmo resign`` to see what it does, or who took the turn menu's old
"Cancel" for it, must not lose the game at once. As ``/digits resign`` (``bot/ui/digits_leave.py``,
the model), the two buttons are persistent (``GameButton``) on an ephemeral message: the custom
id carries the game, the moment the question was asked (as the version: a question older than
``CONFIRM_S`` is refused as expired, one from the future as forged) and the member who asked
(anyone else is told it is not theirs). Nothing changes until "Resign" is pressed; pressed, the
game is read again as it is then (``bot.flows.rithmo``'s ``confirm_resign``): a game already over
(a double click, the other player's resignation, a victory meanwhile) says so and changes nothing.
"""

from __future__ import annotations

import time
from typing import Any

import discord
from discord import ui

from bot import replies
from bot.i18n import lang_for, t
from bot.play.rithmo import other
from bot.services import services_of
from bot.ui.rithmo import RITHMO_FLOWS, player_name
from bot.views import AskedButton
from db import RithmoGame

#: How long the question may be answered (Discord lets a bot edit an ephemeral answer 15 min).
CONFIRM_S = 15 * 60


def clock() -> float:
    """Unix seconds now (a test replaces it to age a question)."""
    return time.time()


class ResignQuestion(AskedButton):
    """A button of the question: game id, asked at (the version), the member who asked."""

    max_age_s = CONFIRM_S
    not_yours_code = "rithmo.resign_not_yours"
    expired_code = "rithmo.resign_expired"

    def now(self) -> float:
        return clock()


def _asked(row: RithmoGame, user_id: int) -> dict[str, Any]:
    return {"game_id": row.game_id, "version": int(clock()), "arg": str(user_id)}


def resign_question(row: RithmoGame, user_id: int, lang: str) -> tuple[str, ui.View]:
    """The private question about the member's game ``row`` (found by ``/rithmo resign``) and
    its two buttons."""
    side = row.side_of(user_id)
    assert side is not None  # the member's own game
    view = ui.View(timeout=None)
    view.add_item(ConfirmResign(**_asked(row, user_id), style=discord.ButtonStyle.danger,
                                label=t("rithmo.resign.confirm", lang, game=row.game_id)))
    view.add_item(KeepPlaying(**_asked(row, user_id), style=discord.ButtonStyle.secondary,
                              label=t("rithmo.resign.keep", lang)))
    key = "rithmo.resign.ask_solo" if row.computer_side is not None else "rithmo.resign.ask"
    return t(key, lang, game=row.game_id, opponent=player_name(row, other(side), lang),
             turn=len(row.turns) + 1), view


def resigned_text(row: RithmoGame, lang: str) -> str:
    return t("rithmo.resign.done", lang, game=row.game_id)


class ConfirmResign(ResignQuestion, action="rithmo.resign"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        self.check(interaction)
        # The game is read again and ended by the conductor (bot.flows.rithmo).
        await services_of(interaction).kept.get(RITHMO_FLOWS).confirm_resign(
            interaction, int(self.game_id))


class KeepPlaying(ResignQuestion, action="rithmo.keep"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        self.check(interaction)
        lang = await lang_for(interaction)
        await replies.update(interaction, view=None,
                             content=t("rithmo.resign.kept", lang, game=self.game_id))


#: The question's buttons (the cog registers them).
PERSISTENT_ITEMS = (ConfirmResign, KeepPlaying)
