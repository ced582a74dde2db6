"""The ``/settings`` presentation: the embed of a server's settings, the commands' choices and
bounds (from the rules: ``cogs/settings.py`` declares them without importing ``bot.play`` or an
engine), and the words of the Rithmomachia refusals (``worded``: victories and thresholds named
in the member's language)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime

import discord
from discord.app_commands import Choice, locale_str

from bot.domain import DomainError
from bot.focus import MAX_LEVEL, MIN_LEVEL, ROUND_SIZE
from bot.i18n import number, t
from bot.play import retention as retention_rules
from bot.play import settings as rules
from bot.play.focus import clamp, daily_range, level_range
from bot.play.settings import CEILINGS, COMMON, LANGUAGE_CHOICES, NONE, current_victories
from bot.rithmo.victory import KINDS, PROPER, Victory
from bot.texts import date_text
from db import ServerSettings


def worded(refused: DomainError, lang: str) -> DomainError:
    """A ``/settings rithmo`` refusal of ``bot.play.settings.check_rithmo`` whose params name
    victory kinds and thresholds (data), with those names said in ``lang``; any other refusal
    as it is."""
    params = refused.params
    if refused.code not in ("settings.rithmo.threshold_unused",
                            "settings.rithmo.threshold_unreachable"):
        return refused
    said = dict(params)
    if "victory" in params:
        said["victory"] = t(f"settings.victories.{params['victory']}", lang)
    said["threshold"] = t(f"settings.thresholds.{params['threshold']}", lang)
    if "uses" in params:
        said["uses"] = ", ".join(t(f"settings.thresholds.{n}", lang) for n in params["uses"])
    return DomainError(refused.code, str(refused), **said)


# ---------------------------------------------------------------------------------------------
# Saying the settings


def victory_text(victory: Victory, lang: str) -> str:
    """A victory and what it takes, e.g. "Goods (250 in value taken)"."""
    name = t(f"settings.victories.{victory.kind}", lang)
    ceilings = CEILINGS.get(victory.kind, ())
    parts = [t(f"settings.show.{'fewer' if n in ceilings else 'taken'}.{n}", lang,
               count=getattr(victory, n), value=number(getattr(victory, n), lang))
             for n in KINDS[victory.kind]]
    return name if not parts else t("settings.show.victory_with", lang, victory=name,
                                    thresholds=", ".join(parts))


def _levels(low: int, high: int, lang: str) -> str:
    return (t("settings.show.level", lang, level=low) if low == high
            else t("settings.show.levels", lang, min=low, max=high))


def focus_text(settings: ServerSettings, lang: str) -> str:
    """The level students practise at, as it is played (``bot.play.focus``): a pinned level
    for everyone, else each student's own level moving within the server's range."""
    low, high = level_range(settings)
    if settings.focus_level_pinned is not None:
        text = t("settings.show.focus_pinned", lang,
                 level=clamp(settings.focus_level_pinned, settings))
    elif low == high:
        text = t("settings.show.focus_one", lang, level=low)
    else:
        text = t("settings.show.focus_range", lang, min=low, max=high)
    year = settings.focus_school_year
    if year is None:  # the eight levels, as always: nothing more to say
        return text
    return text + "\n" + t("settings.show.school_year", lang,
                           year=t(f"focus.school_years.{year}", lang))


def daily_text(settings: ServerSettings, lang: str) -> str:
    if settings.daily_channel_id is None:
        return t("settings.show.daily_off", lang)
    low, high = daily_range(settings)
    return t("settings.show.daily_value", lang, channel=f"<#{settings.daily_channel_id}>",
             hour=settings.daily_hour, timezone=settings.timezone, count=ROUND_SIZE,
             levels=_levels(low, high, lang))


def match_text(settings: ServerSettings, lang: str) -> str:
    parts = [t("settings.show.match_lives", lang, count=settings.match_lives),
             t("settings.show.match_gold", lang, count=settings.match_gold),
             t("settings.show.match_rounds", lang, count=settings.match_rounds)]
    draft = t("settings.show.match_draft" if settings.match_draft
              else "settings.show.match_no_draft", lang)
    return t("settings.show.match_value", lang, parts=", ".join(parts), draft=draft)


def retention_text(settings: ServerSettings, lang: str, now: datetime | None = None) -> str:
    """How long answers and finished games are kept, in plain words (``bot.play.retention``)."""
    if settings.retention_until is not None:
        day = date_text(settings.retention_until, lang)
        today = (now or datetime.now(UTC)).astimezone(settings.tz()).date()
        key = "retention_ended" if today > settings.retention_until else "retention_until"
        return t(f"settings.show.{key}", lang, day=day)
    if settings.retention_days is not None:
        return t("settings.show.retention_days", lang, count=settings.retention_days)
    return t("settings.show.retention_forever", lang)


def time_limit_text(settings: ServerSettings, lang: str) -> str:
    hours = settings.move_time_limit_s / 3600
    whole = hours.is_integer()
    return t("settings.show.time_limit_value", lang, count=int(hours) if whole else hours,
             hours=number(hours, lang, max_places=2))


def settings_embed(settings: ServerSettings, lang: str) -> discord.Embed:
    """Every setting in plain words, saying what it does (what students and games get)."""
    embed = discord.Embed(title=t("settings.show.title", lang), colour=discord.Colour.gold())
    language = settings.language or "auto"
    embed.add_field(name=t("settings.show.language", lang),
                    value=t(f"settings.show.language_{language}", lang), inline=False)
    embed.add_field(name=t("settings.show.daily", lang), value=daily_text(settings, lang),
                    inline=False)
    embed.add_field(name=t("settings.show.focus", lang), value=focus_text(settings, lang),
                    inline=False)
    embed.add_field(name=t("settings.show.match", lang), value=match_text(settings, lang),
                    inline=False)
    victories = t("settings.show.or", lang).join(
        victory_text(v, lang) for v in current_victories(settings))
    embed.add_field(name=t("settings.show.rithmo", lang),
                    value=t("settings.show.rithmo_value", lang, victories=victories),
                    inline=False)
    embed.add_field(name=t("settings.show.time_limit", lang),
                    value=time_limit_text(settings, lang), inline=False)
    embed.add_field(name=t("settings.show.retention", lang),
                    value=retention_text(settings, lang), inline=False)
    roles = sorted(settings.admin_role_ids)
    teachers = (t("settings.show.teachers_roles", lang,
                  roles=", ".join(f"<@&{role}>" for role in roles))
                if roles else t("settings.show.teachers_none", lang))
    embed.add_field(name=t("settings.show.teachers", lang), value=teachers, inline=False)
    return embed


def _choices(values: Iterable[str], key: str, english: Mapping[str, str]) -> list[Choice[str]]:
    return [Choice(name=locale_str(english[v], key=f"{key}.{v}"), value=v) for v in values]


LANGUAGE_NAMES = {"en": "English", "fr": "French",
                  "auto": "Each member's own Discord language"}
VICTORY_NAMES = {
    "body": "Body", "goods": "Goods", "proceeds": "Proceeds", "body_goods": "Body and goods",
    "body_proceeds": "Body and proceeds", "goods_proceeds": "Goods and proceeds",
    "body_goods_proceeds": "Body, goods and proceeds", "lawsuit": "Lawsuit", "honour": "Honour",
    "honour_lawsuit": "Honour and lawsuit", "mediocre": "Mediocre", "great": "Great",
    "excellent": "Excellent", NONE: "None",
}
SCHOOL_YEARS_EN = {
    "cycle2": "Cycle 2 (France: CP, CE1, CE2)", "cycle3": "Cycle 3 (France: CM1, CM2, 6e)",
    "cycle4": "Cycle 4 (France: 5e, 4e, 3e)",
    **{year: f"{name} (France)" for year, name in (
        ("cp", "CP"), ("ce1", "CE1"), ("ce2", "CE2"), ("cm1", "CM1"), ("cm2", "CM2"),
        ("6e", "6e"), ("5e", "5e"), ("4e", "4e"), ("3e", "3e"))},
    **{f"grade{n}": f"Grade {n} (US)" for n in range(1, 9)}}
#: The school years (``bot.focus.school``) in English; the French are the catalogue's
#: ``settings.choices.school_year.*`` (the names ``/settings show`` and ``/class student`` say
#: are ``focus.school_years.*``).
SCHOOL_YEAR_NAMES = {NONE: "None: the eight levels", **SCHOOL_YEARS_EN}
RETENTION_NAMES = {"days": "A number of days (the days option)",
                   "school_year": "Until the end of the school year (the until option)",
                   "forever": "For ever"}
PINNED_NAMES = {NONE: "None: each student's own level",
                **{str(level): str(level) for level in range(MIN_LEVEL, MAX_LEVEL + 1)}}


# The options' bounds and choices, the rules' own, for the cog's decorators (a cog imports no
# rule: tests/test_flows.py). MIN_LEVEL and MAX_LEVEL, imported above, are the levels'.
LIVES, GOLD, ROUNDS = rules.LIVES, rules.GOLD, rules.ROUNDS
TIME_LIMIT_HOURS = rules.TIME_LIMIT_HOURS
DAYS = retention_rules.DAYS
LANGUAGE_OPTIONS = _choices(LANGUAGE_CHOICES, "settings.choices", LANGUAGE_NAMES)
PINNED_OPTIONS = _choices(PINNED_NAMES, "settings.choices.pinned", PINNED_NAMES)
SCHOOL_YEAR_OPTIONS = _choices(SCHOOL_YEAR_NAMES, "settings.choices.school_year",
                               SCHOOL_YEAR_NAMES)
VICTORY_OPTIONS = _choices((*COMMON, NONE), "settings.victories", VICTORY_NAMES)
PROPER_OPTIONS = _choices((*PROPER, NONE), "settings.victories", VICTORY_NAMES)
RETENTION_OPTIONS = _choices(retention_rules.KINDS, "settings.choices.retention", RETENTION_NAMES)
