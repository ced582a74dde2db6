"""``/digits card``'s card and its autocomplete: a digit's tier, cost, stats and ability as an
embed, the digits whose name contains what was typed, and the refusal of a name no digit has
(with the closest name). The command is ``cogs/_digits_info.py``, conducted by
``bot.flows.digits``; texts in ``cogs/locales/<lang>/digits_info.json``.
"""

from __future__ import annotations

import difflib
import unicodedata
from typing import Any

import discord
from discord import app_commands

from bot.digits.catalogue import DIGITS, DigitKind, UnknownDigit, find
from bot.digits.effects import effect, numbers
from bot.domain import DomainError
from bot.i18n import t

TIER_COLOURS = {1: 0x8D99AE, 2: 0x2A9D8F, 3: 0x6A4C93, 4: 0xE76F51}


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def card_embed(kind: DigitKind, lang: str) -> discord.Embed:
    embed = discord.Embed(
        title=t("digits_info.card.title", lang, name=kind.name(lang), tier=kind.tier),
        description=kind.ability(lang),
        colour=TIER_COLOURS.get(kind.tier, 0x888888),
    )
    embed.add_field(name=t("digits_info.card.cost", lang),
                    value=t("digits_info.card.cost_value", lang, gold=kind.cost))
    embed.add_field(name=t("digits_info.card.opens", lang),
                    value=t("digits_info.card.opens_value", lang, round=kind.opens_at_round))
    embed.add_field(name=t("digits_info.card.role", lang),
                    value=t(f"digits_info.role.{kind.role.value}", lang), inline=False)
    stats: dict[str, Any] = {f"n{level}": f"{kind.atk(level)}/{kind.hp(level)}"
                             for level in (1, 2, 3)}
    embed.add_field(name=t("digits_info.card.stats", lang),
                    value=t("digits_info.card.stats_value", lang, **stats), inline=False)
    if numbers(kind.key, 1):  # the formula above, worked out at each level (bot.digits.effects)
        embed.add_field(name=t("digits.cards.levels", lang), inline=False, value="\n".join(
            f"**N{n}** · {effect(kind.key, n, lang)}" for n in (1, 2, 3)))
    embed.set_footer(text=t("digits_info.card.names", lang, en=kind.name_en, fr=kind.name_fr))
    return embed


def lookup(name: str, lang: str) -> DigitKind:
    """The digit called ``name``; a refusal that suggests the closest name otherwise."""
    try:
        return find(name)
    except UnknownDigit:
        names = {_fold(d.name(lang)): d.name(lang) for d in DIGITS}
        close = difflib.get_close_matches(_fold(name), list(names), n=1, cutoff=0.0)
        suggestion = names[close[0]] if close else DIGITS[0].name(lang)
        raise DomainError("digits_info.unknown_digit", f"no digit is called {name!r}",
                          name=name, suggestion=suggestion) from None


def choices_for(current: str, lang: str) -> list[app_commands.Choice[str]]:
    """The digits whose English or French name contains what was typed, names first match."""
    typed = _fold(current)
    ranked = []
    for index, kind in enumerate(DIGITS):
        names = (_fold(kind.name(lang)), _fold(kind.name_en), _fold(kind.name_fr))
        if typed and not any(typed in n for n in names):
            continue
        starts = any(n.startswith(typed) for n in names)
        ranked.append((not starts, index, kind))
    return [
        app_commands.Choice(
            name=t("digits_info.choice", lang, name=kind.name(lang), tier=kind.tier,
                   gold=kind.cost),
            value=kind.key)
        for _, _, kind in sorted(ranked)[:25]
    ]
