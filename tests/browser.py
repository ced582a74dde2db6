"""Real-browser tests of the class rooms (issue 30): Debian's Chromium (``/usr/bin/chromium``, or
``ARDOISE_CHROMIUM``), driven by Playwright for Python with that executable: no browser is
downloaded. Where Chromium or Playwright is missing, the tests that need it are skipped, and
pytest's summary says why in one line (``conftest.py``'s ``pytest_terminal_summary``), not one a
test (``./ardoise test`` and CI install both). ``ARDOISE_TEST_BROWSER=0`` skips them on purpose,
silently here: ``./ardoise test`` sets it after saying why it cannot install Chromium.
``ARDOISE_TEST_BROWSER=require`` (CI) makes a missing Chromium or Playwright a failure.

``chromium`` (a fixture) is one browser for the test; ``phone(chromium)`` a new page the size of a
360-px-wide phone, with its own cookies (one student each).
"""

from __future__ import annotations

import os
import shutil
import tempfile
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


#: Why browser tests were skipped in this run, and how many: pytest's summary says each once.
SKIPPED: dict[str, int] = {}


def _skip(reason: str, *, say: bool = True) -> None:
    if os.environ.get("ARDOISE_TEST_BROWSER") == "require":  # CI: the browser tests must run
        pytest.fail(f"ARDOISE_TEST_BROWSER=require, but {reason}")
    if say:
        SKIPPED[reason] = SKIPPED.get(reason, 0) + 1
    pytest.skip(reason)


def skipped_summary() -> list[str]:
    """The lines for pytest's summary: one for each reason the browser tests were skipped."""
    return [f"{count} browser test{'s' * (count > 1)} skipped: {reason}"
            for reason, count in SKIPPED.items()]


def chromium_path() -> str | None:
    chosen = os.environ.get("ARDOISE_CHROMIUM")
    if chosen:
        return chosen if Path(chosen).exists() else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest_asyncio.fixture
async def chromium() -> AsyncIterator[Any]:
    if os.environ.get("ARDOISE_TEST_BROWSER", "1") == "0":
        _skip("ARDOISE_TEST_BROWSER=0", say=False)
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        _skip("Playwright for Python is not installed (pip install -e '.[test]')")
    path = chromium_path()
    if path is None and os.environ.get("ARDOISE_CHROMIUM"):
        _skip(f"ARDOISE_CHROMIUM names no file ({os.environ['ARDOISE_CHROMIUM']})")
    if path is None:
        _skip("Chromium is not installed (apt-get install chromium chromium-driver; "
              "./ardoise test does it where it may)")
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
    """The page as a student sees it: into docs/web-room/<name>.png (the docs show them) when
    ``ARDOISE_SCREENSHOTS=1``, else into a temporary folder (taken all the same, so that a page
    that cannot be drawn fails; a test run does not rewrite the docs' pictures)."""
    folder = DOCS if os.environ.get("ARDOISE_SCREENSHOTS") == "1" else _SCRATCH
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path


_SCRATCH = Path(tempfile.gettempdir()) / "ardoise-screenshots"
