"""The end of a match of The 20 Digits, said on Discord: the summary each member reads under the
last battle (:func:`bot.digits.summary.summarise`), and its buttons, **Rematch** (the same level
alone; between members, a new challenge to the same opponent) and, after two wins in a row at a
solo level below the strongest, **Try the next level**.

The buttons are ``GameButton``s (``digits.rematch:<match>:0``, ``digits.next:<match>:0``): they
work on the match's last message after a restart; only the match's members may use them (anyone
else gets the usual refusal of a non-player). The texts are in
``cogs/locales/<lang>/digits_end.json``.
"""

from __future__ import annotations

import discord
from discord import ui

from bot.digits.levels import LEVELS
from bot.digits.match import GHOST
from bot.digits.summary import summarise
from bot.i18n import t
from bot.play.digits import StoredMatch
from bot.ui import digits as digits_ui
from bot.ui.digits import flows
from bot.ui.digits_levels import level_name
from bot.views import GameButton


def next_level(level: str | None) -> str | None:
    """The level after ``level``, or None at the strongest (or for a match without a level)."""
    if level not in LEVELS or level == LEVELS[-1]:
        return None
    return LEVELS[LEVELS.index(level) + 1]


def summary_text(game: StoredMatch, lang: str, *, won_two: bool = False) -> str:
    """The summary of each member of the finished match, one block each; ``won_two``: the
    member of a solo match has just won two in a row at its level (the next level is offered)."""
    match = game.match
    blocks: list[str] = []
    for player in match.players:
        if player == GHOST:
            continue
        s = summarise(match, player)
        name = digits_ui.bold(digits_ui.shown(game, player, lang))
        lines = [t("digits_end.title", lang, name=name),
                 t("digits_end.rounds", lang, won=s.won, lost=s.lost, drawn=s.drawn)]
        lines.append(t("digits_end.best", lang, round=s.best.round,
                       lives=t("digits.lives", lang, count=s.best.lives_taken))
                     if s.best is not None else t("digits_end.no_best", lang))
        lines.append(t("digits_end.top_digit", lang,
                       digit=digits_ui.digit_name(s.top_digit, lang), damage=s.top_damage)
                     if s.top_digit is not None else t("digits_end.no_digit", lang))
        lines.append(t("digits_end.focus_gold", lang, gold=s.focus_gold))
        blocks.append("\n".join(lines))
    following = next_level(match.level)
    if won_two and match.solo and following is not None and match.level is not None:
        blocks.append(t("digits_end.next_why", lang, level=level_name(match.level, lang),
                        next=level_name(following, lang)))
    return "\n\n".join(blocks)


def end_view(game: StoredMatch, lang: str, *, won_two: bool = False) -> ui.View:
    """Rematch, and Try the next level after two wins in a row (a solo match below strong)."""
    view = ui.View(timeout=None)
    view.add_item(Rematch(game.id, 0, label=t("digits_end.rematch", lang),
                          style=discord.ButtonStyle.primary))
    if won_two and game.match.solo and next_level(game.match.level) is not None:
        view.add_item(NextLevel(game.id, 0, label=t("digits_end.next", lang),
                                style=discord.ButtonStyle.success))
    return view


class Rematch(GameButton, action="digits.rematch"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await flows(interaction).rematch(interaction, int(self.game_id))


class NextLevel(GameButton, action="digits.next"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await flows(interaction).next_level(interaction, int(self.game_id))


PERSISTENT_ITEMS = (Rematch, NextLevel)
