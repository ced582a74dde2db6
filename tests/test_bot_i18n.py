"""bot.i18n: complete and consistent catalogues, texts, fallbacks, languages, command keys."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.domain import DomainError
from bot.i18n import (
    COMMANDS_PREFIX,
    PLURAL_CATEGORIES,
    CatalogueError,
    Catalogues,
    Languages,
    Translator,
    catalogues,
    error_text,
    lang_from_locale,
    placeholders,
    plural_groups,
    t,
)


def _write(root: Path, lang: str, name: str, data: Any) -> None:
    folder = root / lang
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def _said(key: str) -> str:
    """A key with its plural form taken off (``digits.lives.many`` → ``digits.lives``): each
    language has the plural forms CLDR gives it (see test_texts), the rest is the same."""
    head, _, form = key.rpartition(".")
    return head if form in PLURAL_CATEGORIES and plural_groups() >= {head} else key


def test_english_and_french_have_exactly_the_same_message_keys():
    texts = catalogues().texts
    english = {_said(k) for k in texts["en"]}
    french = {_said(k) for k in texts["fr"] if not k.startswith(COMMANDS_PREFIX)}
    assert english - french == set(), "keys missing in French"
    assert french - english == set(), "keys missing in English"


def test_english_and_french_texts_have_the_same_placeholders():
    texts = catalogues().texts
    # A French form English lacks (``many``) has the placeholders of English ``other``.
    different = {key: (placeholders(texts["en"].get(key, texts["en"].get(_said(key) + ".other",
                                                                         ""))),
                       placeholders(text))
                 for key, text in texts["fr"].items() if not key.startswith(COMMANDS_PREFIX)
                 if placeholders(text) != placeholders(
                     texts["en"].get(key, texts["en"].get(_said(key) + ".other", "")))}
    assert different == {}


def test_command_names_and_descriptions_are_french_only():
    # English ones are the code's own; see test_bot_e2e for the check against the real commands.
    assert not [k for k in catalogues().texts["en"] if k.startswith(COMMANDS_PREFIX)]


def test_no_catalogue_text_is_empty():
    for lang, texts in catalogues().texts.items():
        assert [k for k, v in texts.items() if not v.strip()] == [], lang


def test_t_fills_placeholders_in_the_asked_language():
    assert t("digits_info.card.cost_value", "fr", gold=3) == "3 or"
    assert t("digits_info.card.cost_value", "en", gold=3) == "3 gold"


def test_t_with_an_unknown_language_speaks_english():
    assert t("digits_info.card.cost_value", "de", gold=3) == "3 gold"


def test_a_missing_placeholder_value_stays_visible_instead_of_failing():
    assert t("digits_info.card.cost_value", "en") == "{gold} gold"


def test_fallbacks_french_to_english_then_to_the_key(tmp_path: Path):
    _write(tmp_path, "en", "x.json", {"only": {"english": "Hello {name}"}})
    _write(tmp_path, "fr", "x.json", {})
    cats = Catalogues.load(tmp_path)
    assert cats.format("only.english", "fr", {"name": "Ana"}) == "Hello Ana"
    assert cats.format("nowhere", "fr", {}) == "nowhere"


def test_nested_and_dotted_keys_read_the_same(tmp_path: Path):
    _write(tmp_path, "en", "a.json", {"card": {"title": "A"}, "card.footer": "B"})
    cats = Catalogues.load(tmp_path)
    assert cats.get("card.title", "en") == "A" and cats.get("card.footer", "en") == "B"


def test_a_key_defined_in_two_files_is_refused_naming_both(tmp_path: Path):
    _write(tmp_path, "en", "one.json", {"errors": {"x": "One"}})
    _write(tmp_path, "en", "two.json", {"errors.x": "Two"})
    with pytest.raises(CatalogueError, match=r"two\.json.*one\.json"):
        Catalogues.load(tmp_path)


def test_a_value_that_is_not_text_is_refused(tmp_path: Path):
    _write(tmp_path, "en", "bad.json", {"count": 3})
    with pytest.raises(CatalogueError, match="count"):
        Catalogues.load(tmp_path)


def test_placeholders_ignore_doubled_braces():
    assert placeholders("{name} has {{braces}} and {n}") == {"name", "n"}


def test_a_domain_error_is_said_with_its_code_and_params():
    error = DomainError("digits_info.unknown_digit", "no digit", name="Onze", suggestion="Odd")
    assert error_text(error, "en") == "No digit is called “Onze”. Did you mean Odd?"


def test_a_domain_error_without_a_sentence_falls_back_to_a_generic_refusal():
    error = DomainError("shop.no_such_code_yet", "refused")
    assert error_text(error, "fr") == "Ce n'est pas possible pour le moment."


@pytest.mark.parametrize(("locale", "lang"), [
    (discord.Locale.french, "fr"), ("fr-CA", "fr"), ("FR", "fr"),
    (discord.Locale.american_english, "en"), (discord.Locale.spain_spanish, "en"), (None, "en"),
])
def test_language_from_a_discord_locale(locale: Any, lang: str):
    assert lang_from_locale(locale) == lang


async def test_a_servers_language_is_read_once_then_cached():
    calls: list[int] = []

    async def loader(guild_id: int) -> str | None:
        calls.append(guild_id)
        return {1: "fr", 2: None, 3: "klingon"}[guild_id]

    languages = Languages(loader)
    assert [await languages.of_guild(g) for g in (1, 2, 3, 1, 2, 3)] == [
        "fr", None, None, "fr", None, None]
    assert calls == [1, 2, 3]
    languages.set(2, "en")
    assert await languages.of_guild(2) == "en"
    with pytest.raises(ValueError):
        languages.set(2, "de")


async def test_a_choice_is_translated_by_its_value():
    translator = Translator(Catalogues({"fr": {"choices.gloria": "de gloire"}}, {}))
    choice = app_commands.Choice(name="glory", value="gloria")
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.choice_name,
                                              choice)
    assert await translator.translate(app_commands.locale_str("glory"), discord.Locale.french,
                                      context) == "de gloire"


async def test_the_translator_speaks_french_only_and_honours_an_explicit_key():
    translator = Translator()

    @app_commands.command(name="help", description="Help")
    async def help_command(interaction: discord.Interaction) -> None: ...

    name = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_name,
                                           help_command)
    assert await translator.translate(app_commands.locale_str("help"), discord.Locale.french,
                                      name) == "aide"
    assert await translator.translate(app_commands.locale_str("help"),
                                      discord.Locale.american_english, name) is None
    explicit = app_commands.locale_str("help", key="commands.digits.name")
    assert await translator.translate(explicit, discord.Locale.french, name) == "chiffres"


async def test_the_translator_typesets_descriptions_and_choices_not_names():
    # Discord's command list shows French as the bot's messages do (issue 29).
    cats = Catalogues({"fr": {"commands.help.name": "aide",
                              "commands.help.description": "L'aide : tout ce que je sais !",
                              "choices.gloria": "Gloire ?"}}, {})
    translator = Translator(cats)

    @app_commands.command(name="help", description="Help")
    async def help_command(interaction: discord.Interaction) -> None: ...

    where = app_commands.TranslationContextLocation
    said = app_commands.TranslationContext(where.command_description, help_command)
    assert await translator.translate(app_commands.locale_str("Help"), discord.Locale.french,
                                      said) == "L'aide\u00a0: tout ce que je sais\u202f!"
    named = app_commands.TranslationContext(where.command_name, help_command)
    assert await translator.translate(app_commands.locale_str("help"), discord.Locale.french,
                                      named) == "aide"
    choice = app_commands.Choice(name="glory", value="gloria")
    chosen = app_commands.TranslationContext(where.choice_name, choice)
    assert await translator.translate(app_commands.locale_str("glory"), discord.Locale.french,
                                      chosen) == "Gloire\u202f?"
