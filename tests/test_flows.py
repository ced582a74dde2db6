"""The cogs are thin, read from the code (it replaces issue 13's line budget, which rewarded
moving code out of the cogs anywhere rather than into a flow): a cog declares commands and
options and calls one method of its conductor (``bot/flows``), nothing more.

- no cog imports a repository (``db``), a use case (``bot.play``), an engine (``bot.digits``,
  ``bot.rithmo``, ``bot.focus``), the pictures, the sending (``bot.replies``) or the refusals
  (``bot.domain``): those are the flow's to call;
- no cog method has more than ``MOST_STATEMENTS`` statements;
- a command, an autocomplete, a listener or a timer awaits exactly one call, a method of the
  cog's flow (``await self.flow.<method>(…)``);
- a cog module defines no function but ``setup``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COGS = sorted(p for p in (ROOT / "cogs").glob("*.py") if p.name != "__init__.py")
FORBIDDEN = ("db", "bot.play", "bot.digits", "bot.rithmo", "bot.focus", "images",
             "bot.replies", "bot.domain")
MOST_STATEMENTS = 3
#: Decorators that make a method an entry point the flow must conduct (their last name).
ENTRY_POINTS = ("command", "autocomplete", "listener", "loop", "error")


def forbidden_imports(tree: ast.Module) -> list[str]:
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        for name in names:
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN):
                found.append(f"{name} (line {node.lineno})")
                break
    return found


def _body(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.stmt]:
    body = fn.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    return body


def _decorator_name(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _rooted_at_flow(node: ast.expr) -> bool:
    while isinstance(node, ast.Attribute):
        if (isinstance(node.value, ast.Name) and node.value.id == "self"
                and node.attr == "flow"):
            return True
        node = node.value
    return False


def fat_parts(source: str) -> list[str]:
    """What in a cog module's ``source`` is more than a thin cog."""
    tree = ast.parse(source)
    found = [f"imports {name}" for name in forbidden_imports(tree)]
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name != "setup":
            found.append(f"{node.name}: a function of the module (line {node.lineno})")
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for fn in cls.body:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            where = f"{cls.name}.{fn.name} (line {fn.lineno})"
            body = _body(fn)
            if len(body) > MOST_STATEMENTS:
                found.append(f"{where}: {len(body)} statements")
            if not any(_decorator_name(d) in ENTRY_POINTS for d in fn.decorator_list):
                continue
            awaited = [n.value for s in body for n in ast.walk(s) if isinstance(n, ast.Await)]
            if len(awaited) != 1 or not (isinstance(awaited[0], ast.Call)
                                         and _rooted_at_flow(awaited[0].func)):
                found.append(f"{where}: awaits {len(awaited)} calls, not one of self.flow")
    return found


def test_the_scan_sees_a_fat_cog() -> None:
    fat = '''
from db import Database
from bot import replies

def helper(x):
    return x

class C:
    @app_commands.command(name="x")
    async def x(self, interaction):
        lang = await lang_for(interaction)
        row = await self.service.get(1)
        await replies.respond(interaction, str(row))

    @x.autocomplete("turn")
    async def turn(self, interaction, current):
        return await self.flow.complete(interaction, current)

    async def cog_load(self):
        a = 1
        b = 2
        c = 3
        d = 4
'''
    assert fat_parts(fat) == [
        "imports db (line 2)", "imports bot.replies (line 3)",
        "helper: a function of the module (line 5)",
        "C.x (line 10): awaits 3 calls, not one of self.flow",
        "C.cog_load (line 19): 4 statements",
    ]
    thin = '''
class C:
    """A cog."""

    @app_commands.command(name="x")
    async def x(self, interaction):
        """The docstring does not count."""
        await self.flow.rithmo.x(interaction)
'''
    assert fat_parts(thin) == []


@pytest.mark.parametrize("path", COGS, ids=[p.stem for p in COGS])
def test_the_cog_is_thin(path: Path) -> None:
    assert fat_parts(path.read_text(encoding="utf-8")) == []


def test_every_conductor_has_its_module() -> None:
    flows = {p.stem for p in (ROOT / "bot" / "flows").glob("*.py")}
    assert {"rithmo", "digits", "focus", "classroom", "server"} <= flows
