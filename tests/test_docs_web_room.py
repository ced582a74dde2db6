"""docs/web-room.md and docs/web-room.fr.md (the class rooms on the web, for teachers) and the
web rooms' part of docs/deploy.md stay true: the figures they give are the code's, their links
find their pages and headings, the pictures they show are the browser tests' (docs/web-room/),
and the README links them."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from bot.play import web_rooms
from bot.web import app as web_app
from bot.web import limits, pages

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = ("web-room.md", "web-room.fr.md")
#: The pictures the join pages' browser tests take (tests/test_web_browser_pages.py).
JOIN_PICTURES = {"code.png", "wrong-code.png", "nickname.png", "room.png", "closed.png"}
FRENCH_PICTURES = {"code-fr.png", "wrong-code-fr.png", "nickname-fr.png", "room-fr.png",
                   "closed-fr.png"}
#: The ones the live round's, the homework's and practice's browser tests take.
OTHER_PICTURES = {"live.png", "homework.png", "homework-question.png", "practice.png",
                  "practice-correction.png"}
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^\s*(```|~~~)")


def read(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = heading.lstrip("#").strip().lower()
    text = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    found, fenced = set(), False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            found.add(slug(line))
    return found


@pytest.mark.parametrize("name", PAGES)
def test_every_link_finds_its_page_and_heading(name: str) -> None:
    text = read(name)
    links = _LINK.findall(text)
    assert links
    for link in links:
        target, _, anchor = link.partition("#")
        page = DOCS / target if target else DOCS / name
        if target.startswith("web-room/"):
            continue  # a picture: the next test
        assert page.is_file(), link
        if anchor:
            assert anchor in anchors(page.read_text(encoding="utf-8")), link


@pytest.mark.parametrize("name", PAGES)
def test_the_pictures_are_the_browser_tests(name: str) -> None:
    shown = set(re.findall(r"!\[[^\]]+\]\(web-room/([^)]+)\)", read(name)))
    # The English page shows two French ones too; the French page the join pages in French.
    if name.endswith(".fr.md"):
        assert shown == FRENCH_PICTURES | OTHER_PICTURES
    else:
        assert shown == JOIN_PICTURES | OTHER_PICTURES | {"code-fr.png", "room-fr.png"}
    ours = JOIN_PICTURES | FRENCH_PICTURES
    missing = [p for p in ours if not (DOCS / "web-room" / p).is_file()]
    assert missing == [], "run pytest tests/test_web_browser_pages.py"
    taken = set(re.findall(r'"([\w-]+)"', (ROOT / "tests" / "test_web_browser_pages.py")
                           .read_text(encoding="utf-8")))
    assert {p.removesuffix(".png") for p in ours} <= taken


def test_the_figures_are_the_codes() -> None:
    english, french = read("web-room.md"), read("web-room.fr.md")
    assert (web_rooms.DEFAULT_HOURS, web_rooms.MAX_HOURS) == (12, 72)
    assert "**12 hours**" in english and "from 1 to 72" in english
    assert "**12 heures**" in french and "de 1 à 72" in french
    assert pages.SEAT_MAX_AGE == 72 * 3600
    assert "72 hours at most" in english and "72 heures au plus" in french
    assert (limits.FREE_MISSES, limits.WAITS, limits.FORGET) == (3, (10.0, 30.0, 60.0, 300.0),
                                                                 3600.0)
    assert "Three wrong codes in a row" in english and "10 seconds, the next ones 30 seconds, a " \
        "minute, 5 minutes" in english
    assert "Trois codes erronés de suite" in french
    assert "an hour after its last wrong code" in english
    assert "une heure après son dernier code erroné" in french
    assert web_app.MAX_BODY == 16 * 1024 and "16 KiB" in read("deploy.md")


def test_the_pages_the_deploy_guide_and_the_readme_link_each_other() -> None:
    assert "](web-room.fr.md)" in read("web-room.md")
    assert "](web-room.md)" in read("web-room.fr.md")
    deploy = read("deploy.md")
    assert "class-rooms-on-the-web" in anchors(deploy) and "](web-room.md)" in deploy
    for variable in ("ARDOISE_WEB", "ARDOISE_WEB_URL"):
        assert f"`{variable}`" in deploy
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/web-room.md)" in readme and "](docs/web-room.fr.md)" in readme
    assert "`ARDOISE_WEB`" in readme and "`ARDOISE_WEB_URL`" in readme
