"""Every code reference of ``docs/glossary.md`` (```file.py``` or ```file.py:name```, ``name``
a function, a class, a constant or ``Class.member``) names something that exists, so the
glossary cannot drift from the code; and the rules a newcomer looks for are in it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "docs" / "glossary.md"
REFERENCE = re.compile(r"`((?:bot|cogs|db|images)/[\w/]+\.py)(?::([\w.]+))?`")


def references() -> list[tuple[str, str | None]]:
    text = GLOSSARY.read_text(encoding="utf-8")
    return sorted(set(REFERENCE.findall(text)), key=str)


def _names(body: list[ast.stmt]) -> dict[str, ast.AST]:
    """The names a module or a class body defines: functions, classes, assigned names (tuple
    unpacking included) and annotated attributes."""
    out: dict[str, ast.AST] = {}
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out[node.name] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        out[name.id] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node
    return out


def defined(path: str, dotted: str) -> bool:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    scope: list[ast.stmt] = tree.body
    for part in dotted.split("."):
        node = _names(scope).get(part)
        if node is None:
            return False
        scope = node.body if isinstance(node, ast.ClassDef) else []
    return True


def test_the_glossary_names_code() -> None:
    found = references()
    assert len(found) > 100, "the glossary's references are written `file.py:name`"


@pytest.mark.parametrize(("path", "name"), references())
def test_each_reference_exists(path: str, name: str) -> None:
    assert (ROOT / path).is_file(), f"docs/glossary.md names {path}, which is not a file"
    if name:
        assert defined(path, name), f"docs/glossary.md names {path}:{name}, which is not there"


def test_defined_tells_a_missing_name() -> None:
    assert defined("bot/rithmo/board.py", "Board._captures_by_siege")
    assert not defined("bot/rithmo/board.py", "Board.capture_by_nothing")
    assert not defined("bot/rithmo/board.py", "is_encounter.nested")


@pytest.mark.parametrize(("words", "where"), [
    ("siege", "bot/rithmo/board.py:Board._captures_by_siege"),
    ("siège", "bot/rithmo/board.py:Board._captures_by_siege"),
    ("gold income", "bot/digits/shop.py:MatchSettings.income"),
    ("revenu en or", "bot/digits/shop.py:MatchSettings.income"),
])
def test_a_newcomer_finds_the_rule_by_its_word(words: str, where: str) -> None:
    rows = [line for line in GLOSSARY.read_text(encoding="utf-8").splitlines()
            if words in line.lower()]
    assert any(f"`{where}`" in row for row in rows), f"no row with {words!r} names {where}"
