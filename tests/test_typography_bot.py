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
    read = 0
    for who, asked in COMMANDS[lang]:
        command, options = asked if isinstance(asked, tuple) else (asked, {})
        record = await standin.slash(members[who], command, options=options)
        messages = [m for m in (record.reply, *getattr(record, "messages", [])) if m is not None]
        for message in messages:
            for text in texts_of(message):
                read += 1
                wrong = faults(text, lang)
                if wrong:
                    found.setdefault(f"/{command}", []).extend(wrong)
    assert read > 3 * len(COMMANDS[lang])
    assert found == {}


@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_a_practice_round_answered_wrong_then_right_passes_the_check(lang, standin,
                                                                        start_bot, clock):
    # The window, the modal, each mark and worked correction, and the summary (issue 29).
    await start_bot()
    locale, fr = ("fr", True) if lang == "fr" else ("en-US", False)
    head = standin.add_member("Mme Roux", teacher=True, locale=locale)
    léa = standin.add_member("Léa", locale=locale)
    await standin.slash(head, "class student", member=léa, school_year="6e", level="4")
    window = (await standin.slash(léa, "focus entraînement" if fr else "focus practice")).reply
    found: list[str] = []
    for n in range(6):
        clock.now += 1.0
        opened = await standin.click(léa, window, label="Répondre" if fr else "Answer")
        assert opened.modal is not None
        found += faults(opened.modal.get("title", ""), lang)
        for row in opened.modal["components"]:
            for field in row["components"]:
                for key in ("label", "placeholder"):
                    found += faults(field.get(key) or "", lang)
        await standin.submit_modal(léa, opened, {"answer": "0" if n % 2 else "1,5"})
        texts = texts_of(window)
        assert texts
        for text in texts:
            found += faults(text, lang)
    assert found == []


@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_a_solo_round_of_the_20_digits_passes_the_check(lang, standin, start_bot):
    # The match's message, the Focus, the shop, a purchase, the battle and its replay's words.
    from tests.test_cog_digits import act, take_focus

    bot = await start_bot()
    fr = lang == "fr"
    zoé = standin.add_member("Zoé", locale="fr" if fr else "en-US")
    board = (await standin.slash(zoé, "chiffres solo" if fr else "digits solo")).reply
    shop = await take_focus(standin, bot, zoé, board,
                            label="Faire mon Focus" if fr else "Take my Focus")
    seen = [board, shop]
    await act(standin, zoé, shop, "digits:buy:1")
    await act(standin, zoé, shop, "digits:ready")
    seen += [shop, *standin.channel_messages()]
    read = [text for message in seen for text in texts_of(message)]
    assert any(("manche" if fr else "round") in text.lower() for text in read)
    found = [wrong for text in read for wrong in faults(text, lang)]
    assert found == []


@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_a_rithmomachia_game_against_ardoise_passes_the_check(lang, standin, start_bot):
    # The board, a turn played and Ardoise's answer, a refused turn, the draw refused.
    await start_bot()
    fr = lang == "fr"
    zoé = standin.add_member("Zoé", locale="fr" if fr else "en-US")
    board = (await standin.slash(zoé, "rithmomachie solo" if fr else "rithmo solo")).reply
    turn = {"tour": "c4-b5"} if fr else {"turn": "c4-b5"}
    played = await standin.slash(zoé, "rithmomachie jouer" if fr else "rithmo move",
                                 options=turn)
    answered = await standin.wait_for_message(lambda m: bool(m.attachments), after=board)
    refused = await standin.slash(zoé, "rithmomachie jouer" if fr else "rithmo move",
                                  options={next(iter(turn)): "h16-h13"})
    draw = await standin.slash(zoé, "rithmomachie nulle" if fr else "rithmo draw")
    read = [text for message in (board, played.reply, answered, refused.reply, draw.reply)
            for text in texts_of(message)]
    assert any("Ardoise" in text for text in read) and len(read) > 5
    found = [wrong for text in read for wrong in faults(text, lang)]
    assert found == []
