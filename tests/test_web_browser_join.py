"""The join pages in a real Chromium on a phone-sized screen (issue 30): the code, the
nickname, with the keyboard alone; a wrong code; a ``<script>`` nickname shown as text."""

from __future__ import annotations

from tests.browser import chromium, phone  # noqa: F401  (the fixture)
from tests.web_helpers import open_room, start_web_bot


async def test_a_student_joins_with_the_keyboard_alone(start_bot, standin, chromium) -> None:  # noqa: F811
    bot = await start_web_bot(start_bot)
    room = await open_room(bot, standin, name="5e B")
    page = await phone(chromium)
    await page.goto(bot.web.base_url + "/")
    await page.keyboard.press("Tab")  # the skip link
    await page.keyboard.press("Tab")
    await page.keyboard.press("Tab")  # past the language switch, to the code
    await page.keyboard.type(room.code)
    await page.keyboard.press("Enter")
    await page.wait_for_url("**/join/*")
    await page.get_by_label("Nickname").fill("Léa")
    await page.keyboard.press("Enter")
    await page.wait_for_url("**/room")
    assert "Léa" in await page.inner_text("header")
