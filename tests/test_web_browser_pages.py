"""The join pages in a real Chromium, as a child on a 360-px phone meets them (issue 30): the
code page, the wrong-code page, the nickname page, the room's home page and the closed room's
page, in English and in French.

Each page fits the screen (no sideways scroll), its text is at least 16 px, every field has a
label a screen reader reads, everything on it is reached with Tab and works with Enter; no
request leaves for another origin and every page carries its Content-Security-Policy. A wrong
code is refused plainly, then slowed; a ``<script>`` nickname is refused and shown as text (no
dialog ever opens). The pictures of ``docs/web-room.md`` are taken here (``docs/web-room/``).
A last test, without a browser, reads the templates and the static files: no outside origin, no
inline script, style or ``on…=`` handler (the Content-Security-Policy would block them).
"""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.play import web_rooms
from bot.texts import t
from bot.web import pages as web_pages
from bot.web.limits import FREE_MISSES
from tests.browser import chromium, phone, screenshot  # noqa: F401  (the fixture)
from tests.web_helpers import open_room, start_web_bot

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "bot" / "web"
WIDTH = 360
#: What a keyboard reaches with Tab.
FOCUSABLE = ("a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), "
             "select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])")
#: The elements that hold text of their own, with the size each is drawn at.
TEXT_SIZES = """() => {
  const sizes = [];
  for (const element of document.body.querySelectorAll('*')) {
    const own = [...element.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const shown = element.getClientRects().length > 0;
    if (own && shown) {
      sizes.push([element.tagName + '.' + element.className + ' ' + element.textContent.trim()
                  .slice(0, 30), parseFloat(getComputedStyle(element).fontSize)]);
    }
  }
  for (const element of document.body.querySelectorAll('input, button')) {
    if (element.type !== 'hidden') {
      sizes.push([element.tagName + '#' + element.id,
                  parseFloat(getComputedStyle(element).fontSize)]);
    }
  }
  return sizes;
}"""
#: Each field and its accessible name's source: a <label for>, aria-label or aria-labelledby.
FIELD_LABELS = """() => [...document.querySelectorAll('input, select, textarea')]
  .filter(e => e.type !== 'hidden')
  .map(e => [e.id || e.name,
             [...(e.labels || [])].map(l => l.textContent.trim()).join(' ')
               || e.getAttribute('aria-label')
               || (e.getAttribute('aria-labelledby') || '').split(' ')
                    .map(id => (document.getElementById(id) || {}).textContent || '').join(' ')
                    .trim()])"""
#: Links and buttons without a name a screen reader could say.
NAMELESS = """() => [...document.querySelectorAll('a[href], button')]
  .filter(e => !(e.innerText.trim() || e.getAttribute('aria-label')))
  .map(e => e.outerHTML)"""
#: Where the focus is, as the index of FOCUSABLE's elements (-1: elsewhere), and the element.
FOCUSED = """(selector) => {
  const all = [...document.querySelectorAll(selector)];
  const at = all.indexOf(document.activeElement);
  const e = document.activeElement;
  return [at, e ? e.tagName + (e.id ? '#' + e.id : '') + ' ' + (e.getAttribute('href') || '') : ''];
}"""
SCRIPT_NICKNAME = "<script>alert()</script>"  # 24 characters: the field's own maxlength


@dataclass
class Visit:
    """One student's browser: the pages it saw and what left it."""

    base: str
    requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    page: Any = None

    async def open(self, browser: Any, lang: str) -> Any:
        self.page = await phone(browser, lang=lang)
        self.page.context.on("request", lambda request: self.requests.append(request.url))
        self.page.on("dialog", self._dialog)
        return self.page

    async def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        await dialog.dismiss()

    def elsewhere(self) -> list[str]:
        return [url for url in self.requests if not url.startswith(self.base + "/")]


@pytest.fixture
def steady_suggestion(monkeypatch: pytest.MonkeyPatch) -> None:
    """The offered nickname always the same (the pictures in docs/ do not change at each run)."""
    draw = web_rooms.generated_nickname
    monkeypatch.setattr(web_rooms, "generated_nickname",
                        lambda lang, rng=None: draw(lang, random.Random(30)))


async def check_page(visit: Visit, response: Any, what: str) -> None:
    """What every join page must be on a 360-px phone."""
    page = visit.page
    assert response is not None, what
    assert "default-src 'self'" in (await response.all_headers())["content-security-policy"], what
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= WIDTH, f"{what}: {width} px wide, the phone has {WIDTH}"
    small = [(name, size) for name, size in await page.evaluate(TEXT_SIZES) if size < 16]
    assert small == [], f"{what}: text under 16 px"
    body = await page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert body >= 16, what
    for name, label in await page.evaluate(FIELD_LABELS):
        assert label, f"{what}: the field {name} has no label"
        found = page.get_by_label(label, exact=True)
        assert await found.count() == 1, f"{what}: {label}"
        assert await found.evaluate("e => e.id || e.name") == name, what
    assert await page.evaluate(NAMELESS) == [], what
    assert visit.elsewhere() == [], what
    assert visit.dialogs == [], what


async def join_pages(browser: Any, start_bot: Callable[..., Awaitable[Any]], standin: Any,
                     lang: str, shots: dict[str, str]) -> Visit:
    """Every join page in ``lang``, each checked; ``shots`` names the pictures taken."""
    bot = await start_web_bot(start_bot)
    room = await open_room(bot, standin, name="5e B", lang=lang)
    visit = Visit(bot.web.base_url)
    page = await visit.open(browser, lang)

    async def seen(what: str, response: Any) -> None:
        await check_page(visit, response, f"{what} ({lang})")
        if what in shots:
            await screenshot(page, shots[what])

    await seen("code", await page.goto(visit.base + "/"))
    assert await page.inner_text("h1") == t("web.join_title", lang)
    code = page.get_by_label(t("web.code_label", lang), exact=True)
    await code.fill("KKKKKK")
    async with page.expect_navigation() as wrong:
        await code.press("Enter")
    await seen("wrong-code", await wrong.value)
    assert web_pages.text("web.code_wrong", lang) in await page.inner_text("[role=alert]")
    await page.get_by_label(t("web.code_label", lang), exact=True).fill(room.code.lower())
    async with page.expect_navigation() as nickname:
        await page.get_by_role("button", name=t("web.code_go", lang), exact=True).click()
    await seen("nickname", await nickname.value)
    assert page.url == f"{visit.base}/join/{room.code}"
    await page.get_by_label(t("web.nickname_label", lang), exact=True).fill("Léa")
    async with page.expect_navigation() as home:
        await page.keyboard.press("Enter")
    await seen("room", await home.value)
    assert page.url == visit.base + "/room" and "Léa" in await page.inner_text("header")
    await bot.services.db.web_rooms.close(room.room_id, bot.services.clocks.now())
    await seen("closed", await page.goto(visit.base + "/room"))
    assert await page.inner_text("h1") == t("web.closed_title", lang)
    return visit


async def test_each_join_page_fits_a_phone_reads_large_and_stays_home(
        start_bot, standin, chromium, steady_suggestion) -> None:  # noqa: F811
    visit = await join_pages(chromium, start_bot, standin, "en", {
        "code": "code", "wrong-code": "wrong-code", "nickname": "nickname", "room": "room",
        "closed": "closed"})
    assert len(visit.requests) >= 6  # the pages and their stylesheet, all from the bot


async def test_each_join_page_in_french(start_bot, standin, chromium,  # noqa: F811
                                        steady_suggestion) -> None:
    visit = await join_pages(chromium, start_bot, standin, "fr", {
        "code": "code-fr", "wrong-code": "wrong-code-fr", "nickname": "nickname-fr",
        "room": "room-fr", "closed": "closed-fr"})
    assert visit.elsewhere() == []


# The keyboard alone -------------------------------------------------------------------------

async def tab_to(page: Any, index: int) -> str:
    """Tab from the top of the page until the ``index``-th focusable element has the focus."""
    total = await page.locator(FOCUSABLE).count()
    for _ in range(total + 2):
        await page.keyboard.press("Tab")
        at, name = await page.evaluate(FOCUSED, FOCUSABLE)
        if at == index:
            return str(name)
    raise AssertionError(f"element {index} of {total} never reached with Tab")


async def test_everything_on_each_page_is_reached_with_tab_and_works_with_enter(
        start_bot, standin, chromium) -> None:  # noqa: F811
    bot = await start_web_bot(start_bot)
    room = await open_room(bot, standin, name="5e B")
    closed = await open_room(bot, standin, name="4e A")
    await bot.services.db.web_rooms.close(closed.room_id, bot.services.clocks.now())
    base = bot.web.base_url
    joined = 0

    # Each page with its field filled in as a student would before sending it (an empty code is
    # not sent at all: the field is required).
    async def code_page(page: Any) -> None:
        await page.goto(base + "/")
        await page.get_by_label("Room code", exact=True).fill(room.code)

    async def nickname_page(page: Any) -> None:
        nonlocal joined
        joined += 1
        await page.goto(f"{base}/join/{room.code}")
        await page.get_by_label("Nickname", exact=True).fill(f"Kid {joined}")

    async def room_page(page: Any) -> None:
        await nickname_page(page)
        async with page.expect_navigation():
            await page.keyboard.press("Enter")
        assert page.url == base + "/room"

    async def closed_page(page: Any) -> None:
        await page.goto(f"{base}/join/{closed.code}")

    reached: dict[str, list[str]] = {}
    for what, reach in [("code", code_page), ("nickname", nickname_page), ("room", room_page),
                        ("closed", closed_page)]:
        probe = await phone(chromium)
        await reach(probe)
        total = await probe.locator(FOCUSABLE).count()
        await probe.context.close()
        assert total >= 2, what
        for index in range(total):
            page = await phone(chromium)  # each element from a fresh page: Enter leaves it
            await reach(page)
            name = await tab_to(page, index)
            reached.setdefault(what, []).append(name)
            before = page.url
            if name.startswith("A ") and "#" in name:  # the skip link: to the page's text
                await page.keyboard.press("Enter")
                assert await page.evaluate("document.activeElement.id") == "main", what
            else:  # a new page: a link followed, a form sent
                async with page.expect_navigation(timeout=10_000):
                    await page.keyboard.press("Enter")
                if name.startswith(("INPUT", "BUTTON")):
                    assert page.url.endswith(("/room", f"/join/{room.code}")), (what, name)
                href = name.split(" ")[-1]
                if href.startswith("/lang/"):  # the same page, in the other language
                    assert page.url == before and await page.get_attribute("html", "lang") == "fr"
                elif name.startswith("A "):
                    assert page.url == base + href, (what, name)
            await page.context.close()
    # The menu of the room's home page: its three ways in, each a link reached with Tab.
    assert [name.split(" ")[-1] for name in reached["room"] if "/room/" in name] == [
        "/room/live", "/room/homework", "/room/practice"]


async def test_the_language_switch_turns_the_page_french_and_back(
        start_bot, standin, chromium) -> None:  # noqa: F811
    bot = await start_web_bot(start_bot)
    visit = Visit(bot.web.base_url)
    page = await visit.open(chromium, "en")
    await page.goto(visit.base + "/")
    assert await page.inner_text("h1") == "Join your class"
    switch = page.get_by_role("link", name="Français")
    assert await switch.get_attribute("lang") == "fr"
    await switch.focus()
    async with page.expect_navigation():
        await page.keyboard.press("Enter")
    assert await page.inner_text("h1") == "Rejoins ta classe"
    assert await page.get_attribute("html", "lang") == "fr"
    assert page.url == visit.base + "/"  # the same page, in the other language
    await page.goto(visit.base + "/")  # the choice is kept
    assert await page.inner_text("h1") == "Rejoins ta classe"
    async with page.expect_navigation():
        await page.get_by_role("link", name="English").click()
    assert await page.inner_text("h1") == "Join your class"
    assert visit.elsewhere() == []


# Refusals -----------------------------------------------------------------------------------

async def test_a_wrong_code_is_refused_plainly_then_slowed_in_the_browser(
        start_bot, standin, chromium) -> None:  # noqa: F811
    bot = await start_web_bot(start_bot)
    visit = Visit(bot.web.base_url)
    page = await visit.open(chromium, "en")
    await page.goto(visit.base + "/")
    said = []
    for _ in range(FREE_MISSES + 1):
        await page.get_by_label("Room code", exact=True).fill("KKKKKK")
        async with page.expect_navigation() as sent:
            await page.keyboard.press("Enter")
        said.append(((await sent.value).status, await page.inner_text("[role=alert]")))
        # The refused code stays in the field, and the field says it is wrong.
        assert await page.get_by_label("Room code").get_attribute("aria-invalid") == "true"
    wrong = "No open room has this code. Check it with your teacher and type it again."
    assert said[:FREE_MISSES] == [(404, wrong)] * FREE_MISSES
    assert said[-1] == (429, "Too many wrong codes. Wait 10 seconds, then try again.")
    assert visit.elsewhere() == []


async def test_a_script_nickname_is_refused_and_shown_as_text_in_the_browser(
        start_bot, standin, chromium) -> None:  # noqa: F811
    bot = await start_web_bot(start_bot)
    room = await open_room(bot, standin)
    visit = Visit(bot.web.base_url)
    page = await visit.open(chromium, "en")
    await page.goto(f"{visit.base}/join/{room.code}")
    await page.get_by_label("Nickname", exact=True).fill(SCRIPT_NICKNAME)
    async with page.expect_navigation() as sent:
        await page.keyboard.press("Enter")
    response = await sent.value
    assert response.status == 400
    html = await response.text()
    assert "&lt;script&gt;" in html and SCRIPT_NICKNAME not in html
    assert "« < »" in await page.inner_text("#nickname-error")  # the refused character, as text
    assert await page.get_by_label("Nickname").input_value() == SCRIPT_NICKNAME
    assert await page.locator("script").count() == 0
    await page.wait_for_timeout(100)  # a script that ran would have opened its dialog by now
    assert visit.dialogs == []
    assert await bot.services.db.web_rooms.seats_of_room(room.room_id) == []
    assert visit.elsewhere() == []


# The sources, without a browser -------------------------------------------------------------

OUTSIDE = re.compile(r"""(https?:)?//[\w.-]+\.\w|(["'(=][ ]*)//""", re.IGNORECASE)
INLINE = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle\s*=|\son[a-z]+\s*=|"
                    r"javascript:", re.IGNORECASE)


def web_sources() -> list[Path]:
    return sorted(p for folder in ("templates", "static") for p in (WEB / folder).rglob("*")
                  if p.is_file())


def test_no_template_or_static_file_reaches_another_origin_or_inlines_code() -> None:
    sources = web_sources()
    assert any(p.suffix == ".html" for p in sources) and any(p.suffix == ".css" for p in sources)
    outside, inline = [], []
    for path in sources:
        text = path.read_text(encoding="utf-8")
        name = str(path.relative_to(ROOT))
        # A CSS comment or a template comment may say "http://": only what the page uses counts.
        code = re.sub(r"/\*.*?\*/|\{#.*?#\}", "", text, flags=re.DOTALL)
        outside += [(name, m.group(0)) for m in OUTSIDE.finditer(code)]
        if path.suffix == ".css":
            outside += [(name, m) for m in re.findall(r"@import[^;]*|url\([^)]*\)", code)
                        if "data:" not in m]
        if path.suffix == ".html":
            inline += [(name, m.group(0)) for m in INLINE.finditer(code)]
    assert outside == []
    assert inline == []


def test_the_sources_check_would_see_what_it_looks_for() -> None:
    for bad in ['<script src="https://cdn.example/x.js">', '<img src="//evil.example/a.png">',
                '<link href="http://fonts.example/css">']:
        assert OUTSIDE.search(bad), bad
    for bad in ["<script>alert(1)</script>", "<style>p{}</style>", '<p style="color:red">',
                '<button onclick="go()">', '<a href="javascript:go()">']:
        assert INLINE.search(bad), bad
    for fine in ['<script src="/static/live.js" defer></script>', '<a href="/room/live">',
                 '<link rel="stylesheet" href="/static/ardoise.css">']:
        assert not OUTSIDE.search(fine) and not INLINE.search(fine), fine


def test_nothing_downloads_a_browser() -> None:
    # Playwright drives the distribution's Chromium (tests/browser.py): no "playwright install",
    # which would fetch a browser of its own (offline machines, schools' networks).
    asked = "playwright" + " install"
    sources = [ROOT / "ardoise", ROOT / ".ci" / "run", ROOT / "pyproject.toml",
               *(p for folder in ("tests", "tools", "bot") for p in (ROOT / folder).rglob("*.py"))]
    # What runs: each line without its comment (the comments say it is not done).
    assert [str(p.relative_to(ROOT)) for p in sources
            if any(asked in line.partition("#")[0].lower()
                   for line in p.read_text(encoding="utf-8").splitlines())] == []
