"""Forged components (issue 12): a modified client sends select values and custom ids the bot
never offered (Discord does not check them). Each one gets one clear localised refusal, no
apology (``errors.unexpected``) and no change to the game."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from test_cog_digits import act, duel, match_id_of, take_focus
from test_cog_rithmo import start_game

from bot.local import StandIn
from bot.ui.digits import DraftPick, TakeFocus
from bot.ui.focus import TakeDaily
from tests.french import fr

REFUSAL = {
    "en": "This button or menu sent something I never offered. Nothing was changed: use the "
          "buttons of the latest message.",
    "fr": fr("Ce bouton ou ce menu a envoyé une valeur que je n'ai jamais proposée. Rien n'a été "
          "modifié : utilise les boutons du dernier message."),
}
HUGE = "9" * 30


@pytest.fixture
def no_apology(caplog: pytest.LogCaptureFixture) -> Any:
    """Fails the test when the bot logged an unexpected error (what earns the apology)."""
    caplog.set_level(logging.ERROR, logger="bot.tree")
    yield
    bugs = [r.getMessage() for r in caplog.records if r.name == "bot.tree"
            and r.getMessage().startswith("unexpected error")]
    assert bugs == []


async def refused(record: Any, standin: StandIn, lang: str = "en") -> None:
    await standin.wait_until(lambda: any(m.text() == REFUSAL[lang] for m in record.messages))
    assert all(m.ephemeral for m in record.messages if m.text() == REFUSAL[lang])


async def stored(bot: Any, match_id: int) -> tuple[int, Any]:
    row = await bot.db.digits.require_match(match_id)
    return row.version, row.state


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_forged_shop_menu_values_are_refused_and_change_nothing(
        standin, start_bot, no_apology, lang):
    bot, ana, _sam, board = await duel(standin, start_bot,
                                       ana_locale="fr" if lang == "fr" else "en-US")
    match_id = match_id_of(board)
    shop = await take_focus(standin, bot, ana, board,
                            label="Faire mon Focus" if lang == "fr" else "Take my Focus")
    assert shop.component("digits:freeze") is not None
    before = await stored(bot, match_id)
    forged = [
        ("digits:freeze", ["1e9"]), ("digits:freeze", ["-1"]), ("digits:freeze", [HUGE]),
        ("digits:freeze", ["0"]), ("digits:freeze", ["6"]), ("digits:freeze", ["²"]),
        ("digits:freeze", [""]), ("digits:freeze", []), ("digits:freeze", ["1", "2"]),
        ("digits:freeze", [" 1"]), ("digits:freeze", ["01"]),
        ("digits:sell", ["9"]), ("digits:sell", ["x" * 5000]),
        ("digits:cells", ["1"]), ("digits:cells", ["1", "1"]), ("digits:cells", ["1", "9"]),
        ("digits:cells", ["1", "2", "3"]),
    ]
    for custom_id, values in forged:
        if shop.component(custom_id) is None:
            continue  # no slate yet: no sell menu
        record = await standin.forge(ana, shop, custom_id, values=values)
        await refused(record, standin, lang)
    assert await stored(bot, match_id) == before
    # The real menu still works.
    await act(standin, ana, shop, "digits:freeze", ["1"])
    assert (await stored(bot, match_id))[0] == before[0] + 1


async def test_forged_ids_of_persistent_buttons_change_nothing(standin, start_bot, no_apology):
    """discord.py looks a persistent button's custom id up in the clicked message and drops one
    that is not there: forged ids never reach a cog (which would refuse them anyway, see
    ``test_game_buttons_refuse_ids_the_bot_never_writes``)."""
    bot, ana, sam, board = await duel(standin, start_bot, draft=True)
    match_id = match_id_of(board)
    before = await stored(bot, match_id)
    guild = standin.guild.id
    _, rithmo_board = await start_game(standin, ana, sam)
    game_id = int(rithmo_board.buttons()[0]["custom_id"].split(":")[1])
    await standin.idle()
    game = await bot.db.rithmo.require_game(game_id)
    for message, custom_id in (
            (board, "digits.focus:abc:1"), (board, f"digits.focus:{HUGE}:1"),
            (board, f"digits.focus:{match_id}:{HUGE}"), (board, f"digits.shop:-{match_id}:1"),
            (board, f"digits.pick:{match_id}:1:1e9"), (board, f"digits.pick:{match_id}:1:-1"),
            (board, f"digits.focus:{match_id}:{'9' * 5000}"),
            (board, f"focus.daily:{guild}:1:2026-13-45"), (board, "focus.live_answer:abc:1"),
            (rithmo_board, "rithmo.play:0:1"), (rithmo_board, f"rithmo.play:{HUGE}:1"),
            (rithmo_board, f"rithmo.draw_accept:{game_id}:{HUGE}")):
        await standin.forge(ana, message, custom_id, wait=False)
    await standin.idle()
    assert await stored(bot, match_id) == before
    assert (await bot.db.rithmo.require_game(game_id)).version == game.version


@pytest.mark.parametrize(("button", "arg"), [
    (TakeFocus("abc", 1), None), (TakeFocus("-5", 1), None), (TakeFocus("0", 1), None),
    (TakeFocus(HUGE, 1), None), (TakeFocus(5, 10**30), None),
    (TakeDaily(7, 1, "2026-13-45"), None), (TakeDaily(7, 1, "x"), None),
    (DraftPick(5, 1, "1e9"), (1, 99)), (DraftPick(5, 1, "-1"), (1, 99)),
    (DraftPick(5, 1, "²"), (1, 99)), (DraftPick(5, 1, "100"), (1, 99)),
])
def test_game_buttons_refuse_ids_the_bot_never_writes(button: Any, arg: Any) -> None:
    from bot.domain import DomainError
    from bot.ui.focus import posted_day

    with pytest.raises(DomainError) as refusal:
        button.check_ids()
        if arg is not None:
            button.arg_int(*arg)
        if isinstance(button, TakeDaily):
            posted_day(button.arg)
    assert refusal.value.code == "component.invalid"


def test_the_ids_the_bot_writes_pass() -> None:
    from bot.ui.focus import posted_day

    TakeFocus(5, 3).check_ids()
    assert DraftPick(5, 1, "4").arg_int(1, 99) == 4
    assert str(posted_day("2026-12-01")) == "2026-12-01"


async def test_a_forged_piece_in_the_rithmo_turn_menu_is_refused(standin, start_bot,
                                                                 no_apology):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    _, board = await start_game(standin, ana, sam)
    menu = (await standin.click(ana, board, label="Play a turn")).reply
    assert menu.component("rithmo:actor") is not None
    before = menu.text()
    for values in (["sq:z9"], ["1e9"], [], ["x" * 3000]):
        await refused(await standin.forge(ana, menu, "rithmo:actor", values=values), standin)
    assert menu.text() == before
    game_id = int(board.buttons()[0]["custom_id"].split(":")[1])
    assert not (await bot.db.rithmo.require_game(game_id)).turns


async def test_a_forged_focus_window_number_says_the_window_expired(standin, start_bot,
                                                                    no_apology):
    await start_bot()
    ana = standin.add_member("Ana")
    window = (await standin.slash(ana, "focus practice")).reply
    [button] = window.buttons()
    _, kind, token, _index = button["custom_id"].split(":")
    for number in ("²", "1e9", HUGE, "-1"):
        record = await standin.forge_modal(ana, f"focus.runm:{kind}:{token}:{number}",
                                           {"answer": "5"}, message=window)
        assert record.reply.text().startswith("This practice round has expired")


async def test_a_forged_answer_modal_records_nothing(standin, start_bot, no_apology):
    bot = await start_bot()
    ana = standin.add_member("Ana", locale="fr")
    window = (await standin.slash(ana, "focus practice")).reply
    [button] = window.buttons()
    opened = await standin.click(ana, window, button["custom_id"])
    custom_id = opened.modal["custom_id"]
    for fields in ({"not_the_answer": "5"}, {"answer": "1" * 5000}, {"answer": "1e9"}):
        record = await standin.forge_modal(ana, custom_id, fields, message=window)
        assert "question 1/6" in record.reply.text()  # the same question, with the reason
    assert await bot.db.focus.recent(standin.guild.id, ana.id) == []
