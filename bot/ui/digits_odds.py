"""The odds (``/digits odds``, the shop window's "Odds" button): a forecast of the round's
battle, said first in a child's words (:func:`chance_line`: "You win about 6 times in 10 (draw 1
in 10)."), with two buttons (:func:`odds_view`): **Details** (:func:`odds_text`: what the chances
assume and how many battles were simulated) and **Show me a battle like that** (one simulated
battle the slate wins and one it loses, as replays). The buttons are ``GameButton``s with the
match, the round and the member in their custom id: they work after a restart, for that member
only, while the round's shop turn lasts.

Kept apart from :mod:`bot.ui.digits` (``bot.flows.digits``'s ``show_odds`` calls
:func:`odds_text`); the forecast itself is :func:`bot.digits.forecast.forecast_for_match`.
Against a challenger or the shadow the first line names the assumption ("If **Sam** buys as
players usually do at round 4: win 55 % · draw 10 % · loss 35 %"); against the server's ghosts
of the round, which the battle really draws from, nothing is assumed and the line says the
round's odds.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
from discord import ui

import images
from bot.digits.forecast import Example, Forecast
from bot.digits.odds import ghost_candidates
from bot.i18n import image_words, percent, t
from bot.play.digits import StoredMatch
from bot.ui.digits import flows
from bot.views import MAX_ID, GameButton


def tenths(chance: float) -> int:
    """A chance (0 to 1) as a whole number of times in 10."""
    return int(chance * 10 + 0.5)


def chance_line(forecast: Forecast, lang: str) -> str:
    """The odds as a child reads them: the wins in 10, then the draws in 10 when there are any."""
    wins = tenths(forecast.win)
    if wins == 0:
        win = t("digits_chance.win_rarely", lang)
    elif wins == 10 and forecast.win < 1:
        win = t("digits_chance.win_nearly_always", lang)
    else:
        win = t("digits_chance.win", lang, count=wins)
    draws = tenths(forecast.draw)
    draw = t("digits_chance.draw", lang, count=draws) if draws else ""
    return t("digits_chance.line", lang, win=win, draw=draw)


def odds_view(game: StoredMatch, player: str, lang: str) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(OddsDetails(game.id, game.match.round, player,
                              label=t("digits_chance.details", lang),
                              style=discord.ButtonStyle.secondary))
    view.add_item(OddsShow(game.id, game.match.round, player,
                           label=t("digits_chance.show", lang),
                           style=discord.ButtonStyle.primary))
    return view


class OddsDetails(GameButton, action="digits.odds_details"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await flows(interaction).odds_details(
            interaction, int(self.game_id), self.version, str(self.arg_int(1, MAX_ID, "member")))


class OddsShow(GameButton, action="digits.odds_show"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await flows(interaction).odds_show(
            interaction, int(self.game_id), self.version, str(self.arg_int(1, MAX_ID, "member")))


PERSISTENT_ITEMS = (OddsDetails, OddsShow)


def odds_text(game: StoredMatch, player: str, forecast: Forecast, pool: list[Any], name: str,
              lang: str) -> str:
    """The details of the odds (after the Details button): the chances with their assumption,
    and whom they are reckoned against. ``name``: the opponent's name as safe bold text
    (``shown_name`` escaped), the shadow's name in a solo match."""
    win, draw, loss = (percent(p / 100, lang) for p in forecast.rounded())
    match, raw = game.match, forecast.raw
    simulated = t("digits_odds.simulated", lang, battles=raw.battles,
                  distinct=t("digits.odds.distinct", lang, count=raw.distinct))
    if forecast.kind == "ghosts":
        ghosts = ghost_candidates(pool, match.round, player)
        whom = (t("digits.odds.against_builtin", lang, round=match.round) if ghosts[0].builtin
                else t("digits.odds.against_ghosts", lang, round=match.round,
                       ghosts=t("digits.odds.ghosts", lang, count=len(ghosts))))
        return "\n".join([
            t("digits.odds.title", lang, round=match.round, win=win, draw=draw, loss=loss),
            t("digits_odds.ghosts", lang, whom=whom, simulated=simulated)])
    title = t("digits_odds.if_buys", lang, name=name, round=forecast.round, win=win,
              draw=draw, loss=loss)
    if forecast.foes == forecast.copies:  # nothing fielded yet: every slate grows from nothing
        detail = t("digits_odds.first", lang, name=name, round=forecast.round,
                   slates=t("digits_odds.slates", lang, count=forecast.copies),
                   simulated=simulated)
    else:
        detail = t("digits_odds.grown", lang, name=name, last=forecast.round - 1,
                   ways=t("digits_odds.ways", lang, count=forecast.copies), simulated=simulated)
    return "\n".join([title, detail])


async def examples_message(examples: tuple[Example | None, Example | None], lang: str
                           ) -> dict[str, Any]:
    """The won and the lost battle as replays (GIFs drawn in a thread), each introduced by a
    sentence; a sentence alone for the one the slate never fights so."""
    names = (t("digits_chance.you", lang), t("digits_chance.them", lang))
    words = image_words(lang)
    lines: list[str] = []
    files: list[discord.File] = []
    for example, key, never, filename in ((examples[0], "won", "never_won", "won.gif"),
                                          (examples[1], "lost", "never_lost", "lost.gif")):
        if example is None:
            lines.append(t(f"digits_chance.{never}", lang))
            continue
        lines.append(t(f"digits_chance.{key}", lang))
        gif = await asyncio.to_thread(images.render_replay, example.result, words, names)
        files.append(discord.File(io.BytesIO(gif), filename=filename,
                                  description=t(f"digits_chance.{key}", lang)))
    return {"content": "\n".join(lines), "files": files}
