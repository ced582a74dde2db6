"""The layers (docs/architecture.md), read from the code: no cog and nothing of the presentation
(``bot/ui``) reaches a repository but through a use case, and the use cases (``bot/play``)
import nothing of Discord, the cogs or the pictures, not even through another module."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Every cog and every module of the presentation: none may chain ``.db.<repository>``.
THROUGH_USE_CASES = sorted([*ROOT.glob("cogs/*.py"), *ROOT.glob("bot/ui/*.py"),
                            *ROOT.glob("bot/flows/*.py"), *ROOT.glob("bot/web/*.py")])
USE_CASES = sorted(p.stem for p in ROOT.glob("bot/play/*.py") if p.stem != "__init__")
FORBIDDEN = ("discord", "cogs", "images", "aiohttp")


def db_chains(source: str) -> list[str]:
    """Every ``<x>.db.<attribute>`` in ``source`` (``self.bot.db.servers``,
    ``interaction.client.db.focus``…): a repository reached past the use cases. A database passed
    to a use case (``play.board(self.bot.db, …)``) is no chain: nothing is read from it."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
                and node.value.attr == "db"):
            found.append(f"{ast.unparse(node)} (line {node.lineno})")
    return found


def loaded_by(modules: list[str]) -> list[str]:
    """The forbidden packages a fresh interpreter has loaded after importing ``modules``."""
    code = (f"import sys, {', '.join(modules)}\n"
            f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(FORBIDDEN)!r}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip()
    return ast.literal_eval(out)


def test_the_scan_sees_a_repository_reached_directly() -> None:
    assert db_chains("await self.bot.db.digits.require_match(1)") == [
        "self.bot.db.digits (line 1)"]
    assert db_chains("async def f(self):\n    await self.bot.db.rithmo.require_game(1)\n") == [
        "self.bot.db.rithmo (line 2)"]
    assert db_chains("x = interaction.client.db.focus\n") == [
        "interaction.client.db.focus (line 1)"]
    assert db_chains("db = database(interaction); await play.load_game(db, 1)") == []
    assert db_chains("await service.board(self.bot.db, 1, 'x')\n") == []


def test_no_cog_nor_the_presentation_reaches_a_repository() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in THROUGH_USE_CASES}
    assert {"cogs/digits.py", "cogs/_digits_info.py", "cogs/rithmo.py", "cogs/focus.py",
            "cogs/settings.py", "cogs/progress.py", "cogs/meta.py", "bot/ui/digits.py",
            "bot/ui/rithmo.py", "bot/ui/focus.py", "bot/ui/focus_run.py", "bot/ui/settings.py",
            "bot/ui/progress.py", "bot/ui/teachers.py", "bot/ui/help.py"} <= names
    found = {p.relative_to(ROOT).as_posix(): db_chains(p.read_text(encoding="utf-8"))
             for p in THROUGH_USE_CASES}
    assert {name: chains for name, chains in found.items() if chains} == {}


def test_the_use_cases_import_no_discord_cogs_or_images_even_indirectly() -> None:
    assert {"digits", "rithmo", "rithmo_turns", "focus", "focus_live", "settings",
            "progress"} <= set(USE_CASES)
    assert loaded_by([f"bot.play.{name}" for name in USE_CASES]) == []
    # The check sees what it looks for: the presentation loads discord.
    assert "discord" in loaded_by(["bot.ui.rithmo"])


def test_the_old_helpers_are_gone() -> None:
    # How thin a cog is, tests/test_flows.py reads from the code (it replaced issue 13's budget).
    for moved in ("_focus_ui.py", "_rithmo_play.py", "_teachers.py"):
        assert not (ROOT / "cogs" / moved).exists(), moved


def test_the_presentation_and_the_use_cases_never_import_a_flow() -> None:
    # A view calls back into its flow through a protocol kept in the services (bot/flows).
    for path in [*ROOT.glob("bot/ui/*.py"), *ROOT.glob("bot/play/*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("bot.flows"), path.name
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("bot.flows") for a in node.names), path.name
