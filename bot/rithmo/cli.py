"""``python -m bot.rithmo start | moves | captures | puzzle --seed N``: the engine on the command
line.

``start`` prints the set-up position; ``moves`` and ``captures`` read a position (JSON) on standard
input and print the plain moves, or every capture open to the side to move with its arithmetic
(``"why"``, :mod:`bot.rithmo.why`). The formats are the contract of
``shared/design/engine-commands.md``. ``puzzle --seed N`` is this project's extension
(docs/rithmo-puzzles.md): it reads nothing and prints the capture puzzle of seed N
(:mod:`bot.rithmo.puzzles`), the same for the same seed. Bad input exits with status 2 and one
line on standard error, nothing on standard output (reading, limits and that line:
:mod:`bot.engine_cli`).

A position names its side to move and its pieces ("taken" is optional, and so is the project's
mid-turn "turn_in_progress", docs/rules/rithmomachia.md); any other key is refused, at every level,
so that a misspelt field is not read as an empty board.
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any

from bot.domain import DomainError
from bot.engine_cli import BadInput, check_keys, read_json
from bot.engine_cli import run as run_command
from bot.rithmo.board import Board
from bot.rithmo.puzzles import generate
from bot.rithmo.squares import name
from bot.rithmo.why import explained_options

USAGE = ("usage: python -m bot.rithmo start | moves | captures | puzzle --seed N   "
         "(moves/captures read a position as JSON on standard input)")
COMMANDS = ("start", "moves", "captures")

_POSITION = ("to_move", "pieces", "taken", "turn_in_progress")
# A pyramid has parts, and may also say its value (Board.from_json checks it is their sum).
_PIECE = ("square", "side", "shape", "value", "parts")
_PART = ("shape", "value")


def check_position(data: Any) -> None:
    """The keys of a position, as the contract names them; the values are Board.from_json's."""
    check_keys(data, "the position", _POSITION, ("to_move", "pieces"))
    pieces = data["pieces"]
    for i, piece in enumerate(pieces if isinstance(pieces, list) else ()):
        check_keys(piece, f"piece {i + 1}", _PIECE)
        parts = piece.get("parts")
        for part in parts if isinstance(parts, list) else ():
            check_keys(part, f"a part of piece {i + 1}", _PART)
    taken = data.get("taken", {})
    if isinstance(taken, dict):
        check_keys(taken, "taken", ("white", "black"))
        for side, items in taken.items():
            for item in items if isinstance(items, list) else ():
                check_keys(item, f"a piece taken by {side}", _PART)


def _read_board(stdin: IO[Any] | None) -> Board:
    data = read_json(stdin)
    check_position(data)
    return Board.from_json(data)


def _seed(args: list[str]) -> int:
    """The N of ``--seed N``: a whole number from 0 up (digits only, so "1e9" is refused)."""
    if len(args) != 2 or args[0] != "--seed" or not args[1].isascii() or not args[1].isdigit() \
            or len(args[1]) > 19:
        raise BadInput("rithmo puzzle: give --seed N, N a whole number from 0 up")
    return int(args[1])


def _answer(args: list[str], stdin: IO[Any] | None) -> str:
    if args in (["-h"], ["--help"]):
        return USAGE
    if args[:1] == ["puzzle"]:
        return json.dumps(generate(_seed(args[1:])).to_json())
    if len(args) != 1 or args[0] not in COMMANDS:
        raise BadInput(USAGE)
    cmd = args[0]
    out: dict[str, Any]
    try:
        if cmd == "start":
            out = Board.start().to_json()
        elif cmd == "moves":
            moves = sorted(_read_board(stdin).legal_moves())
            out = {"moves": [{"from": name(m.frm), "to": name(m.to),
                              "kind": "irregular" if m.irregular else "regular"} for m in moves]}
        else:
            out = {"captures": explained_options(_read_board(stdin))}
    except (BadInput, DomainError) as err:
        raise BadInput(f"rithmo {cmd}: {err}") from None
    return json.dumps(out)


def run(args: list[str], stdin: IO[Any] | None, stdout: IO[str] | None = None,
        stderr: IO[str] | None = None) -> int:
    return run_command(lambda: _answer(args, stdin), prefix="", stdout=stdout, stderr=stderr)


def main(argv: list[str] | None = None, *, stdin: IO[Any] | None = None,
         stdout: IO[str] | None = None, stderr: IO[str] | None = None) -> int:
    """The command line; the streams default to the process's own (tests pass their own)."""
    return run(sys.argv[1:] if argv is None else argv, sys.stdin if stdin is None else stdin,
               stdout, stderr)
