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


# --- One word for each thing, in French (issue 29) ------------------------------------------

FRENCH_SECTION = "## One word for each thing, in French"


def forbidden_words() -> list[tuple[str, re.Pattern[str]]]:
    """The last column of the glossary's French words: what the French texts must not say
    (each `` `…` `` a regular expression, ``\\|`` the escaped pipe of a Markdown table)."""
    text = GLOSSARY.read_text(encoding="utf-8")
    section = text[text.index(FRENCH_SECTION):]
    out = []
    for line in section.splitlines():
        if not line.startswith("| ") or line.startswith("| Thing") or set(line) <= set("|- "):
            continue
        cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
        thing, _, banned = (cell.strip() for cell in cells[:3])
        for pattern in re.findall(r"`([^`]+)`", banned):
            out.append((thing, re.compile(pattern.replace("\\|", "|"))))
    return out


def test_the_french_texts_say_each_thing_with_the_glossarys_word() -> None:
    from bot.texts import catalogues

    banned = forbidden_words()
    assert len(banned) >= 12
    found = {}
    for key, text in catalogues().texts["fr"].items():
        said = re.sub(r"\{[^{}]*\}", "X", text)
        for thing, pattern in banned:
            match = pattern.search(said)
            if match is not None:
                found[key] = f"{thing}: {match.group(0)!r}"
    assert found == {}


@pytest.mark.parametrize("sentence", [
    "Abandonner la n° 1 contre les fantômes", "Impair — rang 1", "Victoire propre médiocre",
    "Rediffusion de la bataille de la manche 2", "victoire 4 % · nul 11 % · défaite 85 %",
    "quitte-la avec /rithmomachie abandon", "La partie n° 4 a atteint sa limite : match nul.",
    "Dernier coup : de a1 à b2.",
])
def test_the_glossary_check_sees_the_words_it_forbids(sentence: str) -> None:
    assert any(pattern.search(sentence) for _, pattern in forbidden_words())
