"""Public discord.py only (issue 13): no module of ``cogs/`` or ``bot/`` reads, writes or
overrides a private attribute or method of discord.py's objects (a name starting with ``_``:
``._dispatch_item``, ``.__cog_app_commands__``, ``._state``, ``._connection``…).

Read from the source (``ast``): every ``x._name`` (and ``getattr(x, "_name")``, a method
``def _name`` in a class) must be a name our own code defines (a function, a class, a method, a
module-level name, or an attribute it assigns), and, when discord.py defines that name too, our
own class must be the one defining it (``self._lock`` in a class of ours that sets it). Python's
own dunders (``__name__``, ``__init__``…) are fine.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import types
from collections.abc import Iterable, Iterator
from pathlib import Path

import discord

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("bot", "cogs")
OURS = ("bot", "cogs", "db", "images")
#: Private names of other libraries than discord.py, each with its reason.
OTHERS = {
    ("bot/local/server.py", "_server"): "aiohttp's TCPSite: the socket it bound (port 0)",
    ("bot/background.py", "_default_executor"): "asyncio's loop: no getter for it (CPython)",
}
PYTHON_DUNDERS = frozenset(
    name for kind in (object, type, types.ModuleType, types.FunctionType, types.MethodType,
                      BaseException, builtins)
    for name in dir(kind) if name.startswith("__")
) | {"__wrapped__", "__slots__", "__all__", "__path__", "__file__", "__version__", "__stdout__",
     "__stderr__", "__stdin__", "__aenter__", "__aexit__", "__enter__", "__exit__",
     "__len__", "__iter__", "__getitem__", "__contains__", "__call__", "__post_init__"}


def _private(name: str) -> bool:
    return name.startswith("_") and name not in PYTHON_DUNDERS and name != "_"


def _files(packages: Iterable[str]) -> Iterator[Path]:
    for package in packages:
        yield from sorted((ROOT / package).rglob("*.py"))


def _classes(tree: ast.AST) -> Iterator[ast.ClassDef]:
    return (node for node in ast.walk(tree) if isinstance(node, ast.ClassDef))


def _defined_in_class(cls: ast.ClassDef) -> set[str]:
    """The names a class body defines: its methods, class attributes, and ``self.x = …``."""
    names: set[str] = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
              and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            names.add(node.attr)
    return names


def defined_names(trees: Iterable[ast.AST]) -> set[str]:
    """Every ``_`` name some code defines: functions, classes, methods, assigned names and
    assigned attributes, anywhere."""
    names: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.alias):
                names.add((node.asname or node.name).split(".")[-1])
    return {name for name in names if name.startswith("_")}


def _discord_private_names() -> set[str]:
    folder = Path(discord.__file__).parent
    return defined_names(ast.parse(path.read_text(encoding="utf-8")) for path in
                         folder.rglob("*.py"))


def _base_name(base: ast.expr) -> str:
    while isinstance(base, ast.Subscript):
        base = base.value
    return base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")


def violations(sources: dict[str, str], ours: dict[str, str], theirs: set[str]) -> list[str]:
    """``path:line: what`` for each private name of another library used in ``sources``;
    ``ours``: every module of our own code (path → text), ``theirs``: discord.py's ``_`` names."""
    own_trees = {path: ast.parse(text) for path, text in ours.items()}
    own = defined_names(own_trees.values()) | {Path(p).stem for p in ours}
    by_class: dict[str, set[str]] = {}
    bases: dict[str, list[str]] = {}
    for tree in own_trees.values():
        for cls in _classes(tree):
            by_class.setdefault(cls.name, set()).update(_defined_in_class(cls))
            bases.setdefault(cls.name, []).extend(_base_name(b) for b in cls.bases)

    def in_our_chain(class_name: str, name: str) -> bool:
        seen: set[str] = set()
        todo = [class_name]
        while todo:
            current = todo.pop()
            if current in seen or current not in by_class:
                continue
            seen.add(current)
            if name in by_class[current]:
                return True
            todo.extend(bases.get(current, []))
        return False

    found: list[str] = []
    for path, text in sources.items():
        tree = ast.parse(text)
        # A module that never imports discord is handed none of its objects (an engine).
        uses_discord = any(
            isinstance(node, ast.Import | ast.ImportFrom)
            and any(name.split(".")[0] == "discord" for name in
                    ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""]))
            for node in ast.walk(tree))
        owner: dict[ast.AST, str] = {}  # node -> the innermost class around it
        for cls in _classes(tree):  # outer classes come first: inner ones overwrite
            for node in ast.walk(cls):
                owner[node] = cls.name

        def problem(node: ast.AST, receiver: ast.expr | None, name: str,
                    path: str = path, owner: dict[ast.AST, str] = owner,
                    uses_discord: bool = uses_discord) -> str | None:
            if not _private(name) or (path, name) in OTHERS:
                return None
            if name not in own:
                return "not a name of our code"
            if name not in theirs:
                return None
            on_self = (isinstance(receiver, ast.Name) and receiver.id in ("self", "cls")) or (
                isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name)
                and receiver.func.id == "super")
            if on_self:
                if node in owner and _overrides_discord(path, owner[node], name):
                    return "discord.py's attribute of a base of the class"
                ours_too = node in owner and in_our_chain(owner[node], name)
                return None if ours_too else "discord.py's, not our class's"
            return "discord.py's name, on an object of unknown kind" if uses_discord else None

        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                why = problem(node, node.value, node.attr)
                if why:
                    found.append(f"{path}:{node.lineno}: {ast.unparse(node)} ({why})")
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
                  and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                  and isinstance(node.args[1].value, str)):
                why = problem(node, node.args[0], node.args[1].value)
                if why:
                    found.append(f"{path}:{node.lineno}: {ast.unparse(node)} ({why})")
            elif (isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node in owner
                  and _private(node.name) and node.name in theirs
                  and _overrides_discord(path, owner[node], node.name)):
                # A method of ours that replaces one of discord.py's (View._dispatch_item…).
                found.append(f"{path}:{node.lineno}: def {node.name} overrides discord.py's")
    return found


def _overrides_discord(path: str, class_name: str, name: str) -> bool:
    """Whether discord.py defines ``name`` on a base of the class (imported to see its bases;
    ``__cog_app_commands__`` is set on every cog class by discord.py's metaclass); a class that
    cannot be imported (a snippet of a test) is taken to derive from discord.py."""
    module_name = path.removesuffix(".py").replace("/", ".")
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError):
        return True
    return any(name in vars(base) for base in cls.__mro__
               if base.__module__.split(".")[0] == "discord")


def _read(paths: Iterable[Path]) -> dict[str, str]:
    return {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
            for path in paths}


def test_no_private_name_of_discord_py_is_used_in_cogs_or_bot() -> None:
    ours = _read(_files(OURS))
    scanned = _read(_files(SCANNED))
    assert violations(scanned, ours, _discord_private_names()) == []


def test_the_scan_finds_what_the_bot_used_before_issue_13() -> None:
    # The three uses the issue names, and two more kinds: a private attribute of an object
    # passed in, and one read through getattr.
    before = '''
import discord
from discord import ui
from discord.ext import commands

class FocusView(ui.View):
    def _dispatch_item(self, item, interaction):
        return super()._dispatch_item(item, interaction)

class AnswerModal(ui.Modal):
    def _dispatch_submit(self, interaction, *args):
        return super()._dispatch_submit(interaction, *args)

class ArdoiseCog(commands.Cog):
    def _attach(self):
        self._moved = list(self.__cog_app_commands__)
        self.__cog_app_commands__ = []

def attach(cog):
    mine = list(cog.__cog_app_commands__)
    cog.__cog_app_commands__ = []

def store(bot):
    return bot._connection._view_store, getattr(bot, "_connection")
'''
    ours = _read(_files(OURS))
    found = violations({"cogs/old.py": before}, ours, _discord_private_names())
    text = "\n".join(found)
    for name in ("def _dispatch_item", "def _dispatch_submit", "super()._dispatch_item",
                 "super()._dispatch_submit", "cog.__cog_app_commands__", "bot._connection",
                 "self.__cog_app_commands__",
                 "._view_store", "getattr(bot, '_connection')"):
        assert name in text, (name, found)
    # Our own private names stay fine, on self and on our objects.
    fine = '''
class Mine:
    def __init__(self):
        self._moves = []
    def _helper(self):
        return self._moves
def use(db):
    return db._current()
'''
    assert violations({"cogs/fine.py": fine}, {**ours, "cogs/fine.py": fine},
                      _discord_private_names()) == []
