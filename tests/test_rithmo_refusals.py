"""The engine's refusals are coded: one code per reason, each raised by a position that triggers
it, with the params its sentence needs (bot.rithmo.refusals lists them all)."""

from __future__ import annotations

import ast
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.domain import DomainError
from bot.rithmo import CODES, REFUSALS, Board, Game, Settings
from bot.rithmo.notation import with_suggestions
from bot.rithmo.opponents import choose_turn
from bot.rithmo.refusals import BY_CODE

ROOT = Path(__file__).resolve().parent.parent
PYRAMID_190 = "p(s64s49t36t25r16)"


def suggested(turn: str) -> None:
    """A member's turn refused on the set-up, with the legal turns nearest to it."""
    board = Board.start()
    try:
        board.push(turn)
    except DomainError as refused:
        raise with_suggestions(board, turn, refused) from None


def start(turn: str) -> Callable[[], Any]:
    return lambda: Board.start().push(turn)


def steps(board: Callable[[], Board], *played: str) -> Callable[[], Any]:
    """Play ``played`` one step at a time on a fresh board (the last step is the refused one)."""
    def run() -> None:
        b = board()
        for step in played:
            b.play(step)
    return run


def met() -> Board:
    """White's round 16 on c2 meets Black's 16 on d3 (an encounter); White holds a triangle 36."""
    return Board.from_pieces({"c2": "R16", "d3": "s16", "h16": "s49"}, taken={"white": "T36"})


def hand() -> Board:
    return Board.from_pieces({"a1": "S25", "h16": "s49"}, taken={"white": "T36"})


def component() -> Board:
    return Board.from_pieces({"g14": "R36", "h15": PYRAMID_190, "a16": "s49"})


def in_progress() -> Board:
    board = Board.start()
    board.play("c4-b5")  # a turn begun, not ended
    return board


def resigned() -> Game:
    game = Game()
    game.resign("white")
    return game


# code, what raises it, the params it must carry (all of them, with their values where known)
CASES: list[tuple[str, Callable[[], Any], dict[str, Any]]] = [
    ("rithmo.bad_notation", start("c4-b5 hello"), {"text": "c4-b5 hello"}),
    ("rithmo.bad_square", start("c4-b17"), {"square": "b17"}),
    ("rithmo.capture_before_drop", start("xd7 drop T36 d1"), {"text": "xd7 drop T36 d1"}),
    ("rithmo.did_you_mean", lambda: suggested("c4-c5"),
     {"text": "c4-c5", "turns": "c4-d5`, `c4-b5`, `d4-c5", "count": 3}),
    ("rithmo.no_piece", start("a5-a6"), {"move": "a5-a6", "square": "a5"}),
    ("rithmo.not_yours", start("c13-b12"),
     {"move": "c13-b12", "square": "c13", "piece": "R3", "side": "black"}),
    ("rithmo.occupied", start("c3-d4"), {"move": "c3-d4", "square": "d4", "piece": "R6"}),
    ("rithmo.blocked", start("a2-a5"),
     {"move": "a2-a5", "square": "a2", "piece": "S153", "at": "a3"}),
    ("rithmo.not_a_move_of.round", start("c3-c5"),
     {"move": "c3-c5", "square": "c3", "piece": "R64"}),
    ("rithmo.not_a_move_of.triangle", start("a3-a6"),
     {"move": "a3-a6", "square": "a3", "piece": "T81"}),
    ("rithmo.not_a_move_of.square", start("g1-g5"),
     {"move": "g1-g5", "square": "g1", "piece": "S81"}),
    ("rithmo.not_a_move_of.pyramid", start("b2-b7"),
     {"move": "b2-b7", "square": "b2", "piece": "P91", "shapes": "R, T, S"}),
    ("rithmo.second_move", steps(Board.start, "c4-b5", "d4-e5"), {"move": "d4-e5"}),
    ("rithmo.no_square_freed", lambda: component().push("xh15(36) g14-h15"), {}),
    ("rithmo.must_step", lambda: met().push("xd3"), {"options": "c2-d3"}),
    ("rithmo.after_leap", start("b3-c5 xd14"), {"move": "b3-c5"}),
    ("rithmo.empty_turn", steps(Board.start, "end"), {}),
    ("rithmo.nothing_to_take", start("xe8"), {"square": "e8"}),
    ("rithmo.own_piece", start("xc3"), {"square": "c3", "piece": "R64", "side": "white"}),
    ("rithmo.not_a_pyramid", start("xd14(5)"), {"square": "d14", "piece": "R25"}),
    ("rithmo.no_component", start("xh15(7)"),
     {"square": "h15", "part": 7, "parts": "64, 49, 36, 25, 16"}),
    ("rithmo.cannot_take", start("xd14"), {"square": "d14", "piece": "R25"}),
    ("rithmo.drop_late", steps(met, "c2-b3", "drop T36 d1"), {"piece": "T36"}),
    ("rithmo.drop_none", start("drop T36 d1"), {"piece": "T36"}),
    ("rithmo.drop_rank", lambda: hand().push("drop T36 d2"), {"piece": "T36", "rank": 1}),
    ("rithmo.drop_occupied", lambda: hand().push("drop T36 a1"),
     {"piece": "T36", "square": "a1"}),
    ("rithmo.turn_in_progress", lambda: in_progress().push("d4-e5"), {}),
    ("rithmo.nothing_to_undo", lambda: Board.start().pop(), {}),
    ("rithmo.game_over", lambda: resigned().push("c4-b5"),
     {"outcome": {"winner": "black", "reason": "resignation", "victory": None}}),
    ("rithmo.bad_position", lambda: Board.from_json([]), {}),
    ("rithmo.bad_record", lambda: Game.from_record("1. c4-b5 2. zz"),
     {"turn": 2, "cause": "rithmo.bad_notation"}),
    ("rithmo.bad_side", lambda: Game().resign("red"), {"side": "red"}),
    ("rithmo.bad_settings", lambda: Settings.from_json({"victories": ["nonsense"]}), {}),
    ("rithmo.bad_level", lambda: choose_turn(Game(), 9, random.Random(1)), {"level": 9}),
]


def test_every_code_the_engine_lists_is_raised_below() -> None:
    assert [code for code, _, _ in CASES] == [r.code for r in REFUSALS]
    assert len(CODES) == len(REFUSALS)  # no code listed twice


@pytest.mark.parametrize("code, action, params", CASES, ids=[c for c, _, _ in CASES])
def test_each_refusal_is_raised_with_its_code_and_params(
        code: str, action: Callable[[], Any], params: dict[str, Any]) -> None:
    with pytest.raises(DomainError) as refused:
        action()
    error = refused.value
    refusal = BY_CODE[code]
    assert error.code == code, str(error)
    assert set(refusal.params) <= set(error.params) <= {*refusal.params, *refusal.optional}
    assert {k: error.params[k] for k in params} == params
    english = str(error)  # the command line prints it on one line
    assert english and "\n" not in english


def test_a_refused_turn_changes_nothing() -> None:
    board = Board.start()
    before = (board.to_json(), board.key())
    for code, turn in [("rithmo.blocked", "a2-a5"), ("rithmo.after_leap", "b3-c5 xd14"),
                       ("rithmo.cannot_take", "c4-b5 xd14")]:
        with pytest.raises(DomainError) as refused:
            board.push(turn)
        assert refused.value.code == code
        assert (board.to_json(), board.key(), board.history) == (*before, [])


_CODE_SHAPED = re.compile(r"rithmo\.[a-z_]+(?:\.[a-z_]+)*")


def _engine_modules() -> list[Path]:
    return sorted((ROOT / "bot" / "rithmo").glob("*.py"))


def codes_written(paths: list[Path]) -> dict[str, str]:
    """Every code-shaped string (``rithmo.…``) in these modules' source, and a file it is in."""
    written: dict[str, str] = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and _CODE_SHAPED.fullmatch(node.value)):
                written[node.value] = path.name
    assert written, f"the scan found no code at all in {paths}"
    return written


def test_every_code_written_in_the_engine_is_listed() -> None:
    """A refusal raised somewhere in bot/rithmo with a code missing from REFUSALS would have no
    sentence; every code-shaped string of the engine's source must be a listed code."""
    written = codes_written([p for p in _engine_modules() if p.name != "refusals.py"])
    assert {c: f for c, f in written.items() if c not in CODES} == {}
    assert CODES - set(written) == set(), "listed codes that no module raises"


@pytest.mark.parametrize("page", ["rithmomachia.md", "rithmomachie.md"])
def test_the_rules_pages_name_every_code_and_its_params(page: str) -> None:
    text = (ROOT / "docs" / "rules" / page).read_text(encoding="utf-8")
    for refusal in REFUSALS:
        rows = [line for line in text.splitlines() if f"`{refusal.code}`" in line]
        assert rows, (page, refusal.code)
        for param in refusal.params:
            assert any(f"`{param}`" in row for row in rows), (page, refusal.code, param)


def test_the_engine_imports_no_discord_db_or_images() -> None:
    modules = [f"bot.rithmo.{p.stem}" for p in _engine_modules() if p.stem != "__main__"]
    code = ("import sys\n" + "".join(f"import {m}\n" for m in modules)
            + "print(sorted(m for m in sys.modules if m.split('.')[0] in "
              "('discord', 'aiosqlite', 'PIL', 'db', 'images', 'cogs')))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0 and p.stdout.strip() == b"[]", p.stderr[-500:]
