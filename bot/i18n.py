"""French and English on Discord: the catalogue, domain errors, the language of an interaction,
command translations.

Catalogues
    The texts themselves, plurals, numbers and dates are :mod:`bot.texts` (no Discord there, so
    the use cases may say texts too); this module gives them again under the same names, for the
    cogs and the presentation, and adds what needs Discord.

Domain errors
    ``DomainError("shop.not_enough_gold", …)`` is said with the key ``errors.shop.not_enough_gold``;
    a code without a sentence falls back to ``errors.refused`` (and a warning in the log).

Command translations
    ``Translator`` gives Discord the French name and description of every command, group,
    parameter and choice from the ``commands.`` keys: ``commands.<qualified name, dotted>.name`` and
    ``.description`` (``commands.digits.card.name``), parameters under ``….params.<param>.name``
    and ``.description``, choices under ``choices.<value>`` (or the key given in
    ``locale_str(…, key="…")``).

Language of an interaction
    The server's setting (``Languages``, filled by the settings cog) else the member's Discord
    locale: ``fr*`` → French, anything else → English.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any

import discord
from discord import app_commands

from bot.domain import DomainError, OpenGame, RoleRef, UserRef
from bot.replies import quoted
from bot.texts import (
    CHOICES_PREFIX,
    COMMANDS_PREFIX,
    DEFAULT_LANG,
    LANGS,
    PLURAL_CATEGORIES,
    CatalogueError,
    Catalogues,
    ImageWords,
    catalogues,
    date_text,
    decimal,
    default_root,
    has,
    image_words,
    lang_of,
    locale,
    moment_text,
    month_name,
    number,
    percent,
    placeholders,
    plural_categories,
    plural_form,
    plural_groups,
    reload,
    skill_name,
    t,
    typography,
    weekday_name,
)

log = logging.getLogger(__name__)

__all__ = [
    "CHOICES_PREFIX",
    "COMMANDS_PREFIX",
    "DEFAULT_LANG",
    "LANGS",
    "PLURAL_CATEGORIES",
    "CatalogueError",
    "Catalogues",
    "GuildLanguageLoader",
    "ImageWords",
    "Languages",
    "Translator",
    "catalogues",
    "choice_key",
    "command_key",
    "date_text",
    "decimal",
    "default_root",
    "error_key",
    "error_text",
    "has",
    "image_words",
    "lang_for",
    "lang_from_locale",
    "lang_of",
    "locale",
    "month_name",
    "number",
    "parameter_key",
    "percent",
    "placeholders",
    "plural_categories",
    "plural_form",
    "plural_groups",
    "reload",
    "skill_name",
    "t",
    "typography",
    "weekday_name",
]


def error_key(code: str) -> str:
    return f"errors.{code}"


def error_text(error: DomainError, lang: str) -> str:
    """A domain error said in ``lang``: its own sentence, else the generic refusal."""
    key = error_key(error.code)
    if has(key, lang) or has(key, DEFAULT_LANG) or has(f"{key}.other", DEFAULT_LANG):
        # A refusal may carry the refusal it explains further ("did you mean …?" after the
        # reason): said first, in the same language.
        params: dict[str, Any] = {k: _said(v, lang) for k, v in quoted(error.params).items()}
        return t(key, lang, **params)
    log.warning("no text for domain error %r (%s)", error.code, error)
    return t("errors.refused", lang)


def _said(value: Any, lang: str) -> Any:
    # A refusal carries data (ids, the open games, the refusal it explains); the words are
    # chosen here, in the language of the member who reads it.
    if isinstance(value, DomainError):
        return error_text(value, lang)
    if isinstance(value, UserRef):
        if value.id is not None:
            return f"<@{value.id}>"
        return t("rithmo.computer" if value.computer else "rithmo.someone", lang)
    if isinstance(value, datetime):
        return moment_text(value, lang)  # already in the zone the server reads times in
    if isinstance(value, RoleRef):
        return f"<@&{value.id}>"
    if isinstance(value, tuple) and value and all(isinstance(v, OpenGame) for v in value):
        return "; ".join(t(f"limits.item.{g.item}", lang, channel=channel_text(g.channel_id, lang),
                           **{g.id_name: g.id}, **dict(g.numbers)) for g in value)
    return value


def channel_text(channel_id: int | None, lang: str) -> str:
    """Where an open game is, as Discord shows a channel (a link the member can click)."""
    return f"<#{channel_id}>" if channel_id else t("limits.no_channel", lang)


def lang_from_locale(locale: discord.Locale | str | None) -> str:
    value = locale.value if isinstance(locale, discord.Locale) else (locale or "")
    return "fr" if value.lower().startswith("fr") else "en"


GuildLanguageLoader = Callable[[int], Awaitable[str | None]]


class Languages:
    """Each server's chosen language, cached; ``None`` means "follow each member's locale".

    The settings cog sets ``loader`` (read a server's choice from the database) and calls
    ``set()`` when a teacher changes it; until then every server follows the members' locales.

    With several processes on one database, another process (or the command line) may change a
    server's settings: each cached language keeps the settings version it was read at
    (``seen``), and ``check`` (the bot calls it every few seconds with the versions the database
    holds now) forgets those that moved on, to be read again at their next use.
    """

    def __init__(self, loader: GuildLanguageLoader | None = None) -> None:
        self.loader = loader
        self._cache: dict[int, str | None] = {}
        self._versions: dict[int, int] = {}

    def set(self, guild_id: int, lang: str | None, *, version: int | None = None) -> None:
        if lang is not None and lang not in LANGS:
            raise ValueError(f"unknown language {lang!r}")
        self._cache[guild_id] = lang
        if version is not None:
            self._versions[guild_id] = version

    def seen(self, guild_id: int, version: int) -> None:
        """The settings version the language being loaded for ``guild_id`` was read at."""
        self._versions[guild_id] = version

    def cached(self) -> list[int]:
        """The servers whose language is kept."""
        return list(self._cache)

    def check(self, versions: Mapping[int, int]) -> list[int]:
        """Forget the languages whose settings version is no longer the one in ``versions``
        (read from the database); the servers forgotten."""
        stale = [g for g in list(self._cache)
                 if g in versions and versions[g] != self._versions.get(g)]
        for guild_id in stale:
            self.forget(guild_id)
        return stale

    def forget(self, guild_id: int | None = None) -> None:
        if guild_id is None:
            self._cache.clear()
            self._versions.clear()
        else:
            self._cache.pop(guild_id, None)
            self._versions.pop(guild_id, None)

    async def of_guild(self, guild_id: int) -> str | None:
        if guild_id in self._cache:
            return self._cache[guild_id]
        lang = None
        if self.loader is not None:
            lang = await self.loader(guild_id)
            if lang not in LANGS:
                lang = None
        self._cache[guild_id] = lang
        return lang


async def lang_for(interaction: discord.Interaction) -> str:
    """The language to answer this interaction in (computed once, kept in ``extras``)."""
    cached = interaction.extras.get("lang")
    if cached is not None:
        return cached
    lang: str | None = None
    languages = getattr(interaction.client, "languages", None)
    if interaction.guild_id is not None and isinstance(languages, Languages):
        try:
            lang = await languages.of_guild(interaction.guild_id)
        except Exception:
            # A storage hiccup must not cost the answer: fall back to the member's locale.
            log.exception("cannot read the language of server %s", interaction.guild_id)
    lang = lang or lang_from_locale(interaction.locale)
    interaction.extras["lang"] = lang
    return lang


def command_key(qualified_name: str, part: str) -> str:
    """``commands.digits.card.name`` for ``("digits card", "name")``."""
    return f"{COMMANDS_PREFIX}{qualified_name.replace(' ', '.')}.{part}"


def parameter_key(qualified_name: str, parameter: str, part: str) -> str:
    return f"{COMMANDS_PREFIX}{qualified_name.replace(' ', '.')}.params.{parameter}.{part}"


def choice_key(value: str | int | float) -> str:
    return f"{CHOICES_PREFIX}{value}"


class Translator(app_commands.Translator):
    """French names and descriptions for Discord's command list, from the ``commands.`` keys."""

    def __init__(self, cats: Catalogues | None = None) -> None:
        self._cats = cats

    @property
    def cats(self) -> Catalogues:
        return self._cats if self._cats is not None else catalogues()

    @staticmethod
    def key_for(
        string: app_commands.locale_str, context: app_commands.TranslationContext
    ) -> str | None:
        explicit = string.extras.get("key")
        if explicit:
            return explicit
        where = app_commands.TranslationContextLocation
        data = context.data
        location = context.location
        if location in (where.command_name, where.group_name):
            return command_key(data.qualified_name, "name")
        if location in (where.command_description, where.group_description):
            return command_key(data.qualified_name, "description")
        if location is where.parameter_name:
            return parameter_key(data.command.qualified_name, data.name, "name")
        if location is where.parameter_description:
            return parameter_key(data.command.qualified_name, data.name, "description")
        if location is where.choice_name:
            return choice_key(data.value)
        return None

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        if locale is not discord.Locale.french:
            return None  # English is the code's own text; other locales see English.
        key = self.key_for(string, context)
        text = None if key is None else self.cats.get(key, "fr")
        if text is None or context.location in (
                app_commands.TranslationContextLocation.command_name,
                app_commands.TranslationContextLocation.group_name,
                app_commands.TranslationContextLocation.parameter_name):
            return text  # a name is one word, typed as it is
        return typography(text, "fr")
