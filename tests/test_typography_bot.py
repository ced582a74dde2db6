"""Every text the real bot sends a French class, read as Discord shows it (content, embeds,
buttons, menus, pictures' descriptions), passes the French checker; the same commands in English
pass the English one (issue 29). Through the stand-in for Discord, as a class uses the bot."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord_markup import parts
from tests.french_check import faults

#: Commands a student and a teacher try first, in each language (with the options they need).
COMMANDS: dict[str, list[tuple[str, Any]]] = {
    "fr": [("student", "aide"), ("student", "chiffres règles"), ("student", "chiffres solo"),
           ("student", "rithmomachie règles"), ("student", "rithmomachie énigme"),
           ("student", "progrès"), ("student", "focus entraînement"),
           ("student", "focus défi-du-jour"), ("student", "focus classement"),
           ("student", "focus devoirs"), ("student", "confidentialité"),
           ("student", ("classement", {"jeu": "focus-daily"})),
           ("student", ("classement", {"jeu": "rithmo"})), ("student", "réglages voir"),
           ("teacher", "aide"), ("teacher", "réglages voir"), ("teacher", "classe bilan"),
           ("teacher", "classe devoirs"), ("teacher", "classe questions liste"),
           ("student", "classe bilan")],
    "en": [("student", "help"), ("student", "digits rules"), ("student", "digits solo"),
           ("student", "rithmo rules"), ("student", "rithmo puzzle"), ("student", "progress"),
           ("student", "focus practice"), ("student", "focus daily"),
           ("student", "focus leaderboard"), ("student", "focus homework"),
           ("student", "privacy"), ("student", ("leaderboard", {"game": "focus-daily"})),
           ("student", ("leaderboard", {"game": "rithmo"})), ("student", "settings show"),
           ("teacher", "help"), ("teacher", "settings show"), ("teacher", "class report"),
           ("teacher", "class assignments"), ("teacher", "class questions list"),
           ("student", "class report")],
}


def texts_of(message: Any) -> list[str]:
    read, plain = parts(message)
    return read + plain


@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_what_a_class_reads_first_passes_the_check(lang, standin, start_bot):
    await start_bot()
    locale = "fr" if lang == "fr" else "en-US"
    members = {"student": standin.add_member("Zoé" if lang == "fr" else "Zoe", locale=locale),
               "teacher": standin.add_member("Mme Roux", teacher=True, locale=locale)}
    found: dict[str, list[str]] = {}
    for who, asked in COMMANDS[lang]:
        command, options = asked if isinstance(asked, tuple) else (asked, {})
        record = await standin.slash(members[who], command, options=options)
        messages = [m for m in (record.reply, *getattr(record, "messages", [])) if m is not None]
        for message in messages:
            for text in texts_of(message):
                wrong = faults(text, lang)
                if wrong:
                    found.setdefault(f"/{command}", []).extend(wrong)
    assert found == {}
