"""The 20 Digits' presentation conducts nothing: ``bot/ui/digits*.py`` (the rules' pages
aside, another window's module) awaits no use case, sends nothing and reads no language; what
an interaction does is ``bot/flows/digits.py``'s, which the buttons and windows call back
through the protocols kept in the services (issue 25)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRESENTATION = sorted(p for p in (ROOT / "bot" / "ui").glob("digits*.py")
                      if p.name != "digits_rules.py")
#: What a view may await: the flow it calls back, its own helpers and controls (a shop
#: control hands its click to its ``window``), a picture in a thread, the error report.
MAY_AWAIT = {"flows", "asyncio", "super", "self", "shop_files", "handler", "callback", "window",
             "report_error"}


def awaited_roots(source: str) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Await) and isinstance(node.value, ast.Call):
            func = node.value.func
            while isinstance(func, (ast.Attribute, ast.Call)):
                func = func.value if isinstance(func, ast.Attribute) else func.func
            roots.add(func.id if isinstance(func, ast.Name) else type(func).__name__)
    return roots


def test_the_scan_sees_a_view_that_conducts() -> None:
    conducting = '''
async def on_click(self, interaction):
    game = await play.load_active(db, 1)
    await replies.update(interaction, content="x")
    await flows(interaction).accept(interaction, 1, 2)
'''
    assert awaited_roots(conducting) - MAY_AWAIT == {"play", "replies"}


def test_the_presentation_of_the_20_digits_conducts_nothing() -> None:
    assert {p.name for p in PRESENTATION} >= {"digits.py", "digits_leave.py", "digits_shop.py"}
    found = {p.name: sorted(awaited_roots(p.read_text(encoding="utf-8")) - MAY_AWAIT)
             for p in PRESENTATION}
    assert {name: roots for name, roots in found.items() if roots} == {}
