"""What discord.py routes to no item (a modal's submission, a click on a control its message
does not show) reaches the cog that takes it through ONE listener of the bot (bot.views.Route),
not one listener per cog run for every interaction."""

from __future__ import annotations

from bot.ui import digits as digits_ui
from bot.ui import focus_live, focus_run
from bot.views import Route, Routes


async def _nothing(interaction: object) -> None:
    return None


async def test_one_listener_takes_what_discord_py_routes_nowhere(standin, start_bot):
    bot = await start_bot()
    # No cog listens to every interaction any more; the bot's own method is the one listener.
    assert bot.extra_events.get("on_interaction", []) == []
    prefixes = {(r.kind, r.prefix) for cog in bot.cogs.values() if hasattr(cog, "routes")
                for r in cog.routes()}
    assert {("modal", focus_run.MODAL_PREFIX), ("modal", focus_live.LIVE_MODAL_PREFIX),
            ("click", focus_run.BUTTON_PREFIX), ("click", digits_ui.SHOP_PREFIX)} <= prefixes
    # Unloading the 20 Digits leaves the Focus rounds' modals taken (the Focus cog gives the
    # same route), and the shop's forged clicks are no longer anybody's.
    await bot.unload_extension("cogs.digits")
    ana = standin.add_member("Ana")
    window = (await standin.slash(ana, "focus practice")).reply
    opened = await standin.click(ana, window, label="Answer")
    assert opened.modal is not None


def test_the_routes_are_one_per_kind_and_prefix_the_longest_first() -> None:
    first = Route("modal", "focus.runm:", _nothing)
    again = Route("modal", "focus.runm:", _nothing)
    longer = Route("modal", "focus.runm:x", _nothing)
    routes = Routes([first, again, longer, Route("click", "digits:", _nothing)])
    assert routes._modals == [longer, first]
    assert [r.prefix for r in routes._clicks] == ["digits:"]
