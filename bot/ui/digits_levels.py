"""The levels of a solo match of The 20 Digits, said on Discord: the choices of ``/digits solo``,
the line that says which level a match was started at (and, for "adapt", why), and the level in
the match message. The levels themselves are ``bot.digits.levels``'s; the texts are in
``cogs/locales/<lang>/digits_levels.json``.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.digits.levels import CHOICES
from bot.digits.levels import DEFAULT_LEVEL as DEFAULT_LEVEL  # /digits solo's, for the cog
from bot.i18n import t
from bot.play.digits import StoredMatch

#: The ``level`` choices of ``/digits solo``, in English; their French names come from the
#: catalogue (``digits_levels.choice.<level>``).
LEVEL_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(t(f"digits_levels.choice.{level}", "en"),
                                                     key=f"digits_levels.choice.{level}"),
                        value=level)
    for level in CHOICES
]


def level_name(level: str, lang: str) -> str:
    return t(f"digits_levels.name.{level}", lang)


def started_text(game: StoredMatch, lang: str) -> str:
    """The match's level, and how "adapt" chose it, for the reply that starts a solo match."""
    level = game.match.level
    if level is None:
        return ""
    adapted = game.adapted
    if adapted is not None:
        return t(f"digits_levels.adapt.{adapted.reason}", lang, level=level_name(level, lang),
                 last=level_name(adapted.last, lang) if adapted.last else "")
    return t("digits_levels.started", lang, level=level_name(level, lang),
             about=t(f"digits_levels.about.{level}", lang))


def add_level_field(embed: discord.Embed, game: StoredMatch, lang: str) -> None:
    """The match message shows the level of a solo match (nothing for a match without one)."""
    level = game.match.level
    if level is not None:
        embed.add_field(name=t("digits_levels.field", lang),
                        value=t("digits_levels.field_value", lang,
                                level=level_name(level, lang),
                                about=t(f"digits_levels.about.{level}", lang)),
                        inline=False)
