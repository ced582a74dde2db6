"""The layers of /rithmo: cogs/rithmo.py reaches the database only through bot.play.rithmo, the
use cases import no Discord (the round trips of /rithmo move: tests/test_round_trips.py)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPOSITORIES = {"rithmo", "servers", "games", "players", "focus", "digits", "daily",
                "focus_live", "command_syncs"}


def _db_chains(path: Path) -> list[str]:
    """Every ``<x>.db.<repository>`` attribute chain (and ``<x>.db.transaction``) in a file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
                and node.value.attr == "db"
                and (node.attr in REPOSITORIES or node.attr == "transaction")):
            found.append(f"{path.name}:{node.lineno}: .db.{node.attr}")
    return found


def test_the_rithmo_cog_reaches_no_repository() -> None:
    assert _db_chains(ROOT / "cogs" / "rithmo.py") == []
    assert not (ROOT / "cogs" / "_rithmo_play.py").exists()


def test_the_scan_sees_a_repository_chain(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("async def f(self):\n    await self.bot.db.rithmo.require_game(1)\n")
    assert _db_chains(sample) == ["sample.py:2: .db.rithmo"]


def _imports(path: Path) -> set[str]:
    """The modules a file imports at run time (``if TYPE_CHECKING:`` blocks aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
                   for n in ast.walk(block)}
    names: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


#: Product modules that import discord.py themselves.
DISCORD_MODULES = ("discord", "bot.views", "bot.limits", "bot.tree", "bot.replies", "bot.ui",
                   "cogs", "images")


def _reaches_discord(names: set[str]) -> set[str]:
    return {n for n in names if n.startswith(DISCORD_MODULES)
            and any(n == m or n.startswith(m + ".") for m in DISCORD_MODULES)}


def test_the_use_cases_import_no_discord_cogs_nor_images() -> None:
    paths = sorted((ROOT / "bot" / "play").glob("rithmo*.py"))
    assert [p.name for p in paths] == ["rithmo.py", "rithmo_turns.py"]
    for path in paths:
        assert _reaches_discord(_imports(path)) == set(), path
    # The check sees what it looks for: the presentation imports discord and the use cases.
    ui = _imports(ROOT / "bot" / "ui" / "rithmo.py")
    assert {"discord", "bot.views"} <= _reaches_discord(ui) and "bot.play.rithmo" in ui

