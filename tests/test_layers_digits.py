"""The 20 Digits' layers, read with ``ast``: the cog and the presentation reach the database only
through the use cases (``bot.play.digits``), which import no Discord (and no cog, nor images)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The digits' cog files and presentation: none may chain ``.db.<repository>``.
THROUGH_SERVICES = ("cogs/digits.py", "cogs/_digits_info.py", "bot/ui/digits.py")


def db_chains(source: str) -> list[str]:
    """Every ``<x>.db.<attribute>`` in ``source`` (``bot.db.digits``, ``self.bot.db.servers``, …):
    a repository reached past the use cases."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
                and node.value.attr == "db"):
            found.append(f"{ast.unparse(node)} (line {node.lineno})")
    return found


def imported_modules(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_the_scan_sees_a_repository_reached_directly():
    assert db_chains("await self.bot.db.digits.require_match(1)") == [
        "self.bot.db.digits (line 1)"]
    assert db_chains("db = database(interaction); await play.load_game(db, 1)") == []


def test_the_digits_cog_and_presentation_reach_no_repository():
    for name in THROUGH_SERVICES:
        assert db_chains((ROOT / name).read_text(encoding="utf-8")) == [], name


def test_the_use_cases_import_no_discord_cog_or_images():
    modules = imported_modules((ROOT / "bot/play/digits.py").read_text(encoding="utf-8"))
    top = {m.split(".")[0] for m in modules}
    assert not top & {"discord", "cogs", "images"}, modules
    assert not modules & {"bot.i18n", "bot.replies", "bot.views", "bot.tree", "bot.limits"}


def test_the_cog_is_thin():
    # The cog's two files together: the commands only (the budget is 700 lines).
    lines = sum(len((ROOT / name).read_text(encoding="utf-8").splitlines())
                for name in THROUGH_SERVICES[:2])
    assert lines <= 700
