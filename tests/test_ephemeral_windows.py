"""Ephemeral windows that say "expired" themselves (issue 13): their controls are DynamicItems,
so discord.py stores nothing per window and every click reaches the item, which finds its live
window (``bot.views.Windows``, ``bot.ui.focus_run``'s registry) or says it is gone."""

from __future__ import annotations

from typing import Any

from test_cog_digits import act, duel, take_focus

from bot.ui import digits as digits_ui
from bot.ui.digits import EPHEMERAL_TIMEOUT
from bot.ui.focus_run import RoundButton
from bot.views import Windows


def shop_windows(bot: Any) -> Windows[Any]:
    # The module the bot loaded as its extension (load_extension imports it anew).
    return digits_ui.shop_windows(bot)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_window_lives_its_timeout_after_it_was_last_shown_or_used() -> None:
    clock = Clock()
    windows: Windows[str] = Windows(10.0, clock)
    windows.show(1, "shop")
    clock.now += 9.0
    assert windows.get(1) == "shop"  # used: ten seconds more
    clock.now += 9.0
    assert windows.get(1) == "shop"
    windows.show(1, "newer")  # the message shows another window now
    assert windows.get(1) == "newer"
    clock.now += 10.5
    assert windows.get(1) is None and len(windows) == 0
    windows.show(2, "a")
    windows.forget(2)
    assert windows.get(2) is None and windows.get(None) is None


def test_old_windows_are_forgotten_as_new_ones_are_shown() -> None:
    clock = Clock()
    windows: Windows[int] = Windows(10.0, clock)
    for message_id in range(100):
        windows.show(message_id, message_id)
        clock.now += 1.0
    assert len(windows) == 11  # those shown within the last ten seconds


async def test_a_shop_window_is_a_window_of_dynamic_items_only(standin, start_bot):
    bot, ana, _sam, board = await duel(standin, start_bot)
    shop = await take_focus(standin, bot, ana, board)
    window = shop_windows(bot).get(shop.id)
    assert window is not None and window.children
    control = digits_ui.ShopControl
    assert all(isinstance(item, control) for item in window.children)
    store: Any = bot._connection._view_store  # test-only look at discord.py's store
    assert shop.id not in store._views and not store.is_message_tracked(shop.id)


async def test_a_shop_window_idle_fifteen_minutes_says_it_expired(standin, start_bot):
    bot, ana, _sam, board = await duel(standin, start_bot)
    shop = await take_focus(standin, bot, ana, board)
    clock = Clock()
    shop_windows(bot).clock = clock
    shop_windows(bot).show(shop.id, shop_windows(bot).get(shop.id))  # on the test's clock
    clock.now += EPHEMERAL_TIMEOUT - 1
    await act(standin, ana, shop, "digits:buy:1")
    assert "9 gold" in shop.text()
    clock.now += EPHEMERAL_TIMEOUT + 1
    expired = await standin.click(ana, shop, "digits:buy:2")
    assert expired.reply.content.startswith("This shop window has expired")
    assert expired.ephemeral and "9 gold" in shop.text()
    state = (await bot.db.digits.require_match(
        int(board.buttons()[0]["custom_id"].split(":")[1]))).state
    assert state["engine"]["shops"][str(ana.id)]["gold"] == 9


async def test_a_forged_control_of_a_live_shop_window_is_refused(standin, start_bot):
    bot, ana, _sam, board = await duel(standin, start_bot)
    shop = await take_focus(standin, bot, ana, board)
    before = shop.text()
    # A custom id its message does not show: discord.py hands it to no DynamicItem.
    forged = await standin.forge(ana, shop, "digits:launch")
    assert forged.reply.content.startswith("This shop window has expired")
    assert forged.reply.ephemeral and shop.text() == before
    window = (await standin.slash(ana, "focus practice")).reply
    forged = await standin.forge(ana, window, "focus.run:daily:abc:0")
    assert forged.reply.content.startswith("This window has expired (it waited more than 10")
    assert "Take today's challenge" in forged.reply.content and forged.reply.ephemeral


async def test_the_window_controls_are_registered_by_each_cog_that_uses_them(
        standin, start_bot):
    bot = await start_bot()
    items = bot.get_cog("Digits").persistent_items
    assert digits_ui.ShopControl in items and RoundButton in items
    assert RoundButton in bot.get_cog("Focus").persistent_items
    # Unloading one cog leaves the other's rounds working.
    await bot.unload_extension("cogs.digits")
    ana = standin.add_member("Ana")
    window = (await standin.slash(ana, "focus practice")).reply
    opened = await standin.click(ana, window, label="Answer")
    assert opened.modal is not None and opened.modal["title"] == "Question 1/6"
