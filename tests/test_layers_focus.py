"""The layers of Focus and the teachers' commands (issue 13): the cogs reach the database only
through a service (no ``….db.<repository>`` chain), the presentation (bot/ui) neither, and the
use cases (bot/play) import nothing of Discord, the cogs or the pictures, even indirectly."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COGS = ("focus", "settings", "progress", "meta")
UI = ("focus", "focus_run", "settings", "progress", "teachers", "help")
PLAY = ("focus", "focus_live", "settings", "progress")


def db_chains(source: str) -> list[str]:
    """Every ``x.db.name`` in ``source`` (``self.bot.db.servers``, ``interaction.client.db.focus``,
    ``self.db.daily``…): a repository reached directly. ``self.bot.db`` passed to a service is
    no chain (nothing is read from it)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
                and node.value.attr == "db"):
            found.append(f"{ast.unparse(node)} (line {node.lineno})")
    return found


def test_the_reader_finds_a_repository_reached_directly() -> None:
    assert db_chains("async def f(self):\n    await self.bot.db.servers.get(1)\n") == [
        "self.bot.db.servers (line 2)"]
    assert db_chains("x = interaction.client.db.focus\n") == [
        "interaction.client.db.focus (line 1)"]
    assert db_chains("await service.board(self.bot.db, 1, 'x')\n") == []


def test_no_cog_of_focus_or_the_teachers_reaches_the_database_but_through_a_service() -> None:
    found = {name: db_chains((ROOT / "cogs" / f"{name}.py").read_text()) for name in COGS}
    assert found == {name: [] for name in COGS}


def test_the_presentation_reaches_no_repository_either() -> None:
    found = {name: db_chains((ROOT / "bot" / "ui" / f"{name}.py").read_text()) for name in UI}
    assert found == {name: [] for name in UI}


def test_the_use_cases_import_no_discord_cogs_or_images_even_indirectly() -> None:
    modules = ", ".join(f"bot.play.{name}" for name in PLAY)
    code = (f"import sys, {modules}\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('discord', 'cogs', 'images', 'aiohttp')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip()
    assert out == "[]"


def test_the_old_helper_modules_are_gone_from_cogs() -> None:
    # Moved to bot/ui: focus_run (the ephemeral round), teachers; nothing left behind.
    assert not (ROOT / "cogs" / "_focus_ui.py").exists()
    assert not (ROOT / "cogs" / "_teachers.py").exists()
