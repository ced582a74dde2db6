"""Real-browser tests of the class rooms (issue 30): Debian's Chromium (``/usr/bin/chromium``, or
``ARDOISE_CHROMIUM``), driven by Playwright for Python with that executable: no browser is
downloaded. Where Chromium or Playwright is missing, the tests that need it are skipped with one
line saying why (``./ardoise test`` and CI install both).

``chromium`` (a fixture) is one browser for the test; ``phone(chromium)`` a new page the size of a
360-px-wide phone, with its own cookies (one student each).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

PHONE = {"width": 360, "height": 740}
#: The flags Chromium needs here: no sandbox as root, and none of its calls home (the machine's
#: closed network refuses them, slowly).
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]
DOCS = Path(__file__).resolve().parent.parent / "docs" / "web-room"


def chromium_path() -> str | None:
    chosen = os.environ.get("ARDOISE_CHROMIUM")
    if chosen:
        return chosen if Path(chosen).exists() else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest_asyncio.fixture
async def chromium() -> AsyncIterator[Any]:
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        pytest.skip("Playwright for Python is not installed (pip install playwright)")
    path = chromium_path()
    if path is None:
        pytest.skip("Chromium is not installed (apt-get install chromium chromium-driver)")
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=path, args=FLAGS)
        try:
            yield browser
        finally:
            await browser.close()


async def phone(browser: Any, *, lang: str = "en") -> Any:
    """A new phone-sized page with its own cookies, in ``lang``."""
    context = await browser.new_context(
        viewport=PHONE, locale="fr-FR" if lang == "fr" else "en-GB", has_touch=True,
        is_mobile=True, device_scale_factor=2)
    return await context.new_page()


async def screenshot(page: Any, name: str) -> Path:
    """The page as a student sees it, into docs/web-room/<name>.png (the docs show them)."""
    DOCS.mkdir(parents=True, exist_ok=True)
    path = DOCS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path
