"""Issue 16, coordinates and notation, through the real bot against the stand-in: turns typed as
children type them, "did you mean …?", ``/rithmo resign`` asked first (confirmed, kept, expired,
clicked twice, not the asker's), the turn menu's "Clear this turn", and ``/rithmo rules`` in
pages."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from test_cog_rithmo import play, start_game

from bot.domain import DomainError
from bot.i18n import t
from bot.local import StandInError
from bot.ui import rithmo_resign, rithmo_rules
from tests.french import fr


async def test_a_move_typed_with_a_space_no_dash_or_capitals_is_played(standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam", locale="fr")
    _, board = await start_game(standin, ana, sam)
    played = await standin.slash(ana, "rithmo move", turn="C4 D5")
    assert played.reply.content == "You played `c4-d5`."
    board = await standin.wait_for_message(lambda m: "played `c4-d5`" in m.content, after=board)
    played = await standin.slash(sam, "rithmomachie jouer", tour="f13e12")
    assert played.reply.content == "Tu as joué `f13-e12`."
    board = await standin.wait_for_message(lambda m: "`f13-e12`" in m.content, after=board)
    await play(standin, ana, "d5–c6", board)  # an en dash, as a phone types it
    game = await bot.db.rithmo.require_game(1)
    assert [t.notation for t in game.turns] == ["c4-d5", "f13-e12", "d5-c6"]


async def test_a_close_turn_is_refused_with_the_nearest_legal_turns(standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam", locale="fr")
    _, board = await start_game(standin, ana, sam)
    refused = await standin.slash(ana, "rithmo move", turn="c4 c5")
    assert refused.reply.ephemeral
    assert refused.reply.content == (
        "c4-c5: the round R8 on c4 moves one square diagonally, onto an empty square.\n"
        "Did you mean one of these turns: `c4-d5`, `c4-b5`, `d4-c5`?")
    refused = await standin.slash(ana, "rithmo move", turn="hello")
    assert "Did you mean" not in refused.reply.content  # nothing is close to it
    await play(standin, ana, "c4-b5", board)
    refused = await standin.slash(sam, "rithmomachie jouer", tour="f13-f12")
    assert refused.reply.content.startswith(fr("f13-f12 : le rond R9 en f13 avance"))
    suggestions = refused.reply.content.split("\n")[1]
    assert suggestions == fr(
            "Voulais-tu dire l'un de ces tours : `f13-g12`, `f13-e12`, `e13-f12` ?")
    game = await bot.db.rithmo.require_game(1)
    assert [t.notation for t in game.turns] == ["c4-b5"]  # refusals play nothing


async def test_autocomplete_reads_a_move_typed_without_a_dash(standin, start_bot):
    await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    await start_game(standin, ana, sam)
    choices = await standin.autocomplete(ana, "rithmo move", "turn", turn="C4D")
    assert [c["value"] for c in choices] == ["c4-d5"]
    choices = await standin.autocomplete(ana, "rithmo move", "turn", turn="c4 b")
    assert [c["value"] for c in choices] == ["c4-b5"]
    # Nothing legal begins with it: the nearest legal turns are offered instead.
    choices = await standin.autocomplete(ana, "rithmo move", "turn", turn="c4-c5")
    assert [c["value"] for c in choices] == ["c4-d5", "c4-b5", "d4-c5"]
    assert choices[0]["name"] == "c4-d5 — R8"


# --------------------------------------------------------------------------------------------
# /rithmo resign, asked first


async def test_resign_asks_privately_and_keep_playing_changes_nothing(standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    _, board = await start_game(standin, ana, sam)
    asked = (await standin.slash(sam, "rithmo resign")).reply
    assert asked.ephemeral and asked.ephemeral_to == sam.id
    assert asked.content == (
        f"Resign game #1 against {ana.mention} (turn 1)? {ana.mention} wins it, and it counts "
        "as a loss. Nothing changes until you press “Resign game #1”.")
    assert [b["label"] for b in asked.buttons()] == ["Resign game #1", "Keep playing"]
    assert (await bot.db.rithmo.require_game(1)).status == "active"  # only asked
    # The question is Sam's alone: nobody else sees it (as on Discord).
    with pytest.raises(StandInError, match="cannot see that message"):
        await standin.click(ana, asked, label="Resign game #1")
    kept = await standin.click(sam, asked, label="Keep playing")
    assert kept.reply.text() == "Game #1 goes on. Good luck!" and asked.buttons() == []
    assert (await bot.db.rithmo.require_game(1)).status == "active"
    await play(standin, ana, "c4-b5", board)  # the game goes on


async def test_the_question_is_answered_after_a_restart(standin, start_bot, restart_bot):
    """The buttons are persistent: a question asked before a restart still resigns after it."""
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    _, board = await start_game(standin, ana, sam)
    asked = (await standin.slash(sam, "rithmo resign")).reply
    bot = await restart_bot(bot)
    await standin.click(sam, asked, label="Resign game #1")
    assert asked.text() == "You resigned game #1."
    await standin.wait_for_message(lambda m: "🏳️" in m.content, after=board)
    assert (await bot.db.rithmo.require_game(1)).reason == "resignation"


async def test_an_expired_or_forged_question_changes_nothing(standin, start_bot, monkeypatch):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    await start_game(standin, ana, sam)
    asked = (await standin.slash(sam, "rithmo resign")).reply
    later = rithmo_resign.clock() + rithmo_resign.CONFIRM_S + 1
    monkeypatch.setattr(rithmo_resign, "clock", lambda: later)
    expired = await standin.click(sam, asked, label="Resign game #1")
    assert expired.reply.text() == (
        "This question has expired (after 15 minutes): type /rithmo resign again. Nothing was "
        "changed.")
    assert (await bot.db.rithmo.require_game(1)).status == "active"


def test_a_question_is_answered_only_by_who_asked_it_and_not_from_the_future() -> None:
    """Discord shows the private question to its asker only; the button checks it again (a
    modified client may send any custom id it saw), and a moment from the future is forged."""
    now = int(rithmo_resign.clock())
    button = rithmo_resign.ConfirmResign(1, now, "42", label="Resign game #1")
    someone = SimpleNamespace(user=SimpleNamespace(id=7))
    with pytest.raises(DomainError) as refused:
        button.check(someone)  # type: ignore[arg-type]
    assert refused.value.code == "rithmo.resign_not_yours"
    assert t("errors.rithmo.resign_not_yours", "fr") == (
        fr("Cette question a été posée à quelqu'un d'autre : rien n'a changé."))
    button.check(SimpleNamespace(user=SimpleNamespace(id=42)))  # type: ignore[arg-type]
    future = rithmo_resign.ConfirmResign(1, now + 3600, "42", label="Resign game #1")
    with pytest.raises(DomainError) as refused:
        future.check(SimpleNamespace(user=SimpleNamespace(id=42)))  # type: ignore[arg-type]
    assert refused.value.code == "component.invalid"


async def test_a_double_click_resigns_once(standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    await start_game(standin, ana, sam)
    asked = (await standin.slash(sam, "rithmo resign")).reply
    resign = asked.button("Resign game #1")["custom_id"]
    first = await standin.click(sam, asked, resign, wait=False)
    second = await standin.click(sam, asked, resign, wait=False)
    await standin.wait_until(lambda: first.answered and second.answered and any(
        "🏳️" in m.content for m in standin.channel_messages()))
    await standin.idle()
    texts = sorted({m.text() for r in (first, second) for m in r.messages})
    assert "You resigned game #1." in texts and len(texts) == 2, texts
    other = next(x for x in texts if x != "You resigned game #1.")
    assert other in ("Game #1 is already over: nothing was changed.",
                     "Someone acted on this game just before you. Look at its latest state and "
                     "try again."), other
    assert len([m for m in standin.channel_messages() if "🏳️" in m.content]) == 1
    game = await bot.db.rithmo.require_game(1)
    assert (game.status, game.result, game.reason) == ("finished", "white", "resignation")
    assert (await bot.db.players.rating(standin.guild.id, sam.id, "rithmo")).losses == 1


async def test_resigning_a_game_against_ardoise_in_french(standin, start_bot):
    bot = await start_bot()
    léa = standin.add_member("Léa", locale="fr")
    await standin.slash(léa, "rithmomachie solo")
    asked = (await standin.slash(léa, "rithmomachie abandonner")).reply
    assert asked.text().startswith(fr("Abandonner la partie n° 1 contre Ardoise (tour 1) ?"))
    assert [b["label"] for b in asked.buttons()] == [fr("Abandonner la partie n° 1"),
                                                     "Continuer à jouer"]
    await standin.click(léa, asked, label=fr("Abandonner la partie n° 1"))
    assert asked.text() == fr("Tu as abandonné la partie n° 1.")
    end = await standin.wait_for_message(lambda m: "🏳️" in m.content)
    assert end.content.startswith(fr(f"🏳️ {léa.mention} abandonne la partie n° 1"))
    assert (await bot.db.rithmo.require_game(1)).reason == "resignation"


async def test_the_turn_menus_clear_button_is_not_taken_for_resigning(standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam", locale="fr")
    _, board = await start_game(standin, ana, sam)
    view = (await standin.click(ana, board, label="Play a turn")).reply
    clear = view.component("rithmo:cancel")
    assert clear is not None and clear["label"] == "Clear this turn"
    await standin.select(ana, view, "rithmo:actor", ["sq:c4"])
    await standin.select(ana, view, "rithmo:step:0", ["c4-b5"])
    await standin.click(ana, view, "rithmo:cancel")
    assert view.content == ("Turn cleared: nothing was played. The game goes on: press “Play a "
                            "turn” to start again.")
    game = await bot.db.rithmo.require_game(1)
    assert game.status == "active" and game.turns == ()
    board = await play(standin, ana, "c4-b5", board)
    view = (await standin.click(sam, board, label="Play a turn")).reply  # the game's language
    assert view.component("rithmo:cancel")["label"] == "Effacer ce tour"


# --------------------------------------------------------------------------------------------
# /rithmo rules, in pages


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_the_rules_pages_turn_with_a_picture_of_each_move_and_capture(standin, start_bot):
    await start_bot()
    ana = standin.add_member("Ana")
    page = (await standin.slash(ana, "rithmo rules")).reply
    assert page.ephemeral
    embed = page.embeds[0]
    assert embed["title"] == "Rithmomachia · the board and its squares"
    assert embed["footer"]["text"].startswith("Page 1 of 13")
    assert "**c4** is where the letter c meets the number 4" in embed["description"]
    assert "repository" not in page.text()  # no more pointer to a file
    assert page.button("◀ Previous")["disabled"]
    (picture,) = page.attachments
    assert picture.filename == "rithmo-rules.png" and picture.data.startswith(b"\x89PNG")
    titles, pictures = [embed["title"]], {picture.data}
    for number in range(2, 14):
        turned = await standin.click(ana, page, label="Next ▶")
        assert turned.reply is page
        embed = page.embeds[0]
        assert embed["footer"]["text"].startswith(f"Page {number} of 13")
        titles.append(embed["title"])
        if page.attachments:
            assert page.attachments[0].description  # every picture is described
            pictures.add(page.attachments[0].data)
    assert titles[5:11] == [f"Capture {n} of 6 · the {name}" for n, name in enumerate(
        ["encounter", "ambush", "assault", "power", "progression", "emprisonment"], start=1)]
    assert titles[-1] == "Victories" and page.button("Next ▶")["disabled"]
    assert len(pictures) == 12  # the turn's page is text; every other has its own picture
    await standin.click(ana, page, label="◀ Previous")
    assert page.embeds[0]["title"] == "A turn, and how to type it" and not page.attachments
    assert "`c4 b5` and `C4B5` work too" in page.embeds[0]["description"]
    await standin.click(ana, page, label="◀ Previous")
    assert page.embeds[0]["title"] == "Capture 6 of 6 · the emprisonment"
    assert page.attachments  # the picture is back


async def test_the_rules_in_french_and_only_the_asker_turns_them_until_they_expire(
        standin, start_bot):
    bot = await start_bot()
    lea, sam = standin.add_member("Léa", locale="fr"), standin.add_member("Sam")
    page = (await standin.slash(lea, "rithmomachie règles", montrer=True)).reply
    assert not page.ephemeral
    assert page.embeds[0]["title"] == "Rithmomachie · le plateau et ses cases"
    assert page.embeds[0]["footer"]["text"].startswith("Page 1 sur 13")
    await standin.click(lea, page, label="Suivante ▶")
    assert page.embeds[0]["title"] == "Déplacements · le rond"
    assert "peut aller en **d5, f5, d7**" in page.embeds[0]["description"]
    refused = await standin.click(sam, page, label="Suivante ▶")  # the asker's language
    assert refused.ephemeral and refused.reply.content == (
        "These rules pages are Léa's: type /rithmo rules to get your own.")
    assert page.embeds[0]["footer"]["text"].startswith("Page 2 sur 13")

    clock = Clock()
    windows = rithmo_rules.rules_windows(bot)
    windows.clock = clock
    windows.show(page.id, windows.get(page.id))
    clock.now += rithmo_rules.EXPIRY + 1
    expired = await standin.click(lea, page, label="Suivante ▶")
    assert expired.ephemeral and expired.reply.content == (
        fr("Ces pages de règles se sont fermées (après 15 minutes) : tape de nouveau "
        "/rithmomachie règles."))
    assert page.embeds[0]["footer"]["text"].startswith("Page 2 sur 13")


async def test_a_forged_rules_page_is_refused_and_the_page_stays(standin, start_bot):
    await start_bot()
    ana = standin.add_member("Ana")
    page = (await standin.slash(ana, "rithmo rules")).reply
    for forged in ("rithmo.rules:13", "rithmo.rules:-1", "rithmo.rules:01", "rithmo.rules:x"):
        refused = await standin.forge(ana, page, forged)
        assert refused.reply.ephemeral
        assert refused.reply.content.startswith("This button or menu sent something I never")
    assert page.embeds[0]["footer"]["text"].startswith("Page 1 of 13")
