"""The text of the odds (``/digits odds``, the shop window's "Odds" button): a forecast of the
round's battle that says what it assumes.

Kept apart from :mod:`bot.ui.digits` (``bot.flows.digits``'s ``show_odds`` calls
:func:`odds_text`); the forecast itself is :func:`bot.digits.forecast.forecast_for_match`.
Against a challenger or the shadow the first line names the assumption ("If **Sam** buys as
players usually do at round 4: win 55 % · draw 10 % · loss 35 %"); against the server's ghosts
of the round, which the battle really draws from, nothing is assumed and the line says the
round's odds.
"""

from __future__ import annotations

from typing import Any

from bot.digits.forecast import Forecast
from bot.digits.odds import ghost_candidates
from bot.i18n import percent, t
from bot.play.digits import StoredMatch


def odds_text(game: StoredMatch, player: str, forecast: Forecast, pool: list[Any], name: str,
              lang: str) -> str:
    """The two lines of the odds: the chances with their assumption, and whom they are reckoned
    against. ``name``: the opponent's name as safe bold text (``shown_name`` escaped), the
    shadow's name in a solo match."""
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
