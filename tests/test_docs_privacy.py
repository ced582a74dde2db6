"""docs/privacy.md and its French twin name every table of the schema, so that a new table cannot
be added without saying what of a member it holds: the tables are read from a database the
migrations built (``sqlite_master``), not from a list kept by hand. The two pages follow each
other: the same sections, the same tables, the same link to Discord's minimum ages."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from db import Database

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = {"en": DOCS / "privacy.md", "fr": DOCS / "privacy.fr.md"}
DISCORD_AGES = "https://support.discord.com/hc/en-us/articles/360040724612"
# A row of a table of the page whose first cell is a table's name: | `focus_answers` | …
_TABLE_ROW = re.compile(r"^\| `([a-z_]+)` \|", re.M)


def described(page: Path) -> list[str]:
    """The tables the page describes, one row each, in its order."""
    return _TABLE_ROW.findall(page.read_text(encoding="utf-8"))


async def schema_tables(tmp_path: Path) -> set[str]:
    path = tmp_path / "schema.sqlite3"
    db = await Database.open(path)
    await db.close()
    with sqlite3.connect(path) as connection:
        return {name for (name,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_page_describes_every_table_of_the_schema(tmp_path: Path, lang: str):
    tables = await schema_tables(tmp_path)
    rows = described(PAGES[lang])
    assert len(rows) == len(set(rows)), "a table is described twice"
    missing = tables - set(rows)
    assert not missing, f"docs/{PAGES[lang].name} does not say what these tables hold: {missing}"


def test_the_french_page_follows_the_english_one():
    english, french = (page.read_text(encoding="utf-8") for page in PAGES.values())
    assert described(PAGES["fr"]) == described(PAGES["en"])
    headings = [re.findall(r"^(#{1,3}) ", text, re.M) for text in (english, french)]
    assert headings[0] == headings[1]
    for text in (english, french):
        assert DISCORD_AGES in text
    # The minimum ages are the same figures in both.
    ages = [re.findall(r"^\| [^|]+ \| (\d{2}) \|$", text, re.M) for text in (english, french)]
    assert ages[0] and ages[0] == ages[1]
