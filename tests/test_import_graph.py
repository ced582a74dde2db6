"""The product's import graph (bot/, cogs/, images/, db/), read with ``ast`` from the source
files: no import circle, and db/ as a connection module, repositories on it and a facade.

Imports under ``if TYPE_CHECKING:`` are for the type checker only and do not count; imports
inside functions do (they run, only later).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("bot", "cogs", "images", "db")

#: Circles allowed as they are (none: a module joining one fails the test).
KNOWN_CIRCLES: set[frozenset[str]] = set()


def product_modules() -> dict[str, Path]:
    modules = {}
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking(node.test):
            for other in node.orelse:
                yield from _runtime_imports(ast.Module(body=[other], type_ignores=[]))
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from _runtime_imports(node)


def imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The product modules ``name`` imports when it runs: ``from a import b`` counts as
    ``a.b`` when that is a module, else as ``a``."""
    found: set[str] = set()
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name in modules}
            continue
        if node.level:
            base = package[: len(package) - node.level + 1]
            source = ".".join([*base, *([node.module] if node.module else [])])
        else:
            source = node.module or ""
        for alias in node.names:
            if f"{source}.{alias.name}" in modules:
                found.add(f"{source}.{alias.name}")
            elif source in modules:
                found.add(source)
    found.discard(name)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = product_modules()
    return {name: imported(name, path, modules) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_reader_finds_a_circle_and_skips_type_only_imports(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("from pkg import b\n")
    (tmp_path / "pkg" / "b.py").write_text("def f():\n    from . import c\n")
    (tmp_path / "pkg" / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import b\n"
        "import pkg.a\n")
    modules = {f"pkg.{m}": tmp_path / "pkg" / f"{m}.py" for m in "abc"}
    modules["pkg"] = tmp_path / "pkg" / "__init__.py"
    graph = {name: imported(name, path, modules) for name, path in modules.items()}
    assert graph == {"pkg": set(), "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.c"}, "pkg.c": {"pkg.a"}}
    assert circles(graph) == [frozenset({"pkg.a", "pkg.b", "pkg.c"})]
    graph["pkg.c"] = set()
    assert circles(graph) == []


def test_the_product_has_no_import_circle() -> None:
    graph = import_graph()
    assert len(graph) > 50 and {"db.core", "cogs.digits", "images.board"} <= set(graph)
    unexpected = [sorted(c) for c in circles(graph) if c not in KNOWN_CIRCLES]
    assert unexpected == []


def test_db_is_a_connection_under_repositories_under_a_facade() -> None:
    graph = import_graph()
    db = {name: targets for name, targets in graph.items() if name.startswith("db.")}
    # The connection knows no repository; no repository knows the facade.
    assert graph["db.connection"] <= {"db.migrate", "db.dialect", "bot.domain"}
    repositories = {"db.daily", "db.digits", "db.focus", "db.focus_live", "db.games",
                    "db.players", "db.rithmo", "db.servers", "db.export"}
    for name in repositories:
        assert "db.connection" in db[name], name
        assert "db.core" not in db[name] and "db" not in db[name], name
    assert repositories <= db["db.core"]


_DRIVERS = {"sqlite3", "aiosqlite"}
# Upper case, as this code writes SQL (so that "Select a cell" is not taken for it).
_SQL = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|PRAGMA|BEGIN)\s")


def _private_access(tree: ast.AST, allowed: set[str]) -> list[str]:
    """``x._name`` where ``x`` is not one of ``allowed`` (``self``, ``cls``): a private method
    or attribute of another object."""
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in allowed)):
            found.append(f"{ast.unparse(node)} (line {node.lineno})")
    return found


def _db_privates(tree: ast.AST) -> list[str]:
    """``db._x``, ``bot.db._x``, ``db.connection._x``: a private part of the database."""
    return [
        ast.unparse(n) for n in ast.walk(tree)
        if isinstance(n, ast.Attribute) and n.attr.startswith("_")
        and not n.attr.startswith("__")
        and ((isinstance(n.value, ast.Name) and n.value.id in {"db", "database"})
             or (isinstance(n.value, ast.Attribute) and n.value.attr in {"db", "connection"}))
    ]


def test_the_private_access_readers_see_what_they_look_for() -> None:
    code = ast.parse("await bot.db._all('x')\nself._conn.run()\ndb.connection._writer\n"
                     "db.digits.get(1)\nother._secret\n")
    assert sorted(_db_privates(code)) == ["bot.db._all", "db.connection._writer"]
    assert sorted(_private_access(code, {"self"})) == [
        "bot.db._all (line 1)", "db.connection._writer (line 3)", "other._secret (line 5)"]
    assert _SQL.match("SELECT 1") and not _SQL.match("Select a cell")


def test_only_db_speaks_sql_and_nothing_outside_it_reaches_its_private_parts() -> None:
    for name, path in product_modules().items():
        if name == "db" or name.startswith("db."):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        drivers = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        drivers |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not drivers & _DRIVERS, name
        sql = [n.value[:40] for n in ast.walk(tree)
               if isinstance(n, ast.Constant) and isinstance(n.value, str) and _SQL.match(n.value)]
        assert sql == [], name
        # A database object (``db``, ``bot.db``, ``….connection``) is used by its public API.
        assert _db_privates(tree) == [], name


def test_inside_db_only_the_connection_touches_the_driver_and_none_reaches_another_s_privates(
) -> None:
    for name, path in product_modules().items():
        if not name.startswith("db.") or name in {"db.connection", "db.migrate"}:
            continue
        if name == "db.bench":
            continue  # a benchmark, leaving for tools/ (issue 13 item 7, helper `tools`)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        drivers = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        drivers |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not drivers & _DRIVERS, name
        # Modules' private names (``_Unset``) may be imported; no object's private method or
        # attribute is used from outside it.
        assert _private_access(tree, {"self", "cls"}) == [], name
