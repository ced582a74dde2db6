"""``python -m bot.rithmo start | moves | captures``: the engine on the command line.

``start`` prints the set-up position; ``moves`` and ``captures`` read a position (JSON) on standard
input and print the plain moves, or every capture open to the side to move. The formats are the
contract of ``shared/design/engine-commands.md``. Bad input exits with status 2 and one line on
standard error, nothing on standard output.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from bot.domain import DomainError
from bot.rithmo.board import Board
from bot.rithmo.squares import name

USAGE = "usage: python -m bot.rithmo start | moves | captures   (moves/captures read a position " \
        "as JSON on standard input)"


class _BadInput(Exception):
    pass


def _read_board(stdin: TextIO) -> Board:
    try:
        data = json.loads(stdin.read())
    except json.JSONDecodeError as err:
        raise _BadInput(f"malformed JSON: {err.msg} (line {err.lineno}, column {err.colno})") \
            from err
    except UnicodeDecodeError as err:
        raise _BadInput(f"malformed input: {err.reason}") from err
    try:
        return Board.from_json(data)
    except DomainError as err:
        raise _BadInput(str(err)) from err


def run(args: list[str], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    if len(args) != 1 or args[0] not in ("start", "moves", "captures"):
        print(USAGE, file=stderr)
        return 2
    cmd = args[0]
    out: dict[str, Any]
    try:
        if cmd == "start":
            out = Board.start().to_json()
        elif cmd == "moves":
            board = _read_board(stdin)
            moves = sorted(board.legal_moves())
            out = {"moves": [{"from": name(m.frm), "to": name(m.to),
                              "kind": "irregular" if m.irregular else "regular"} for m in moves]}
        else:
            out = {"captures": _read_board(stdin).capture_options()}
    except _BadInput as err:
        print(f"rithmo {cmd}: {err}", file=stderr)
        return 2
    stdout.write(json.dumps(out) + "\n")
    return 0


def main() -> int:
    return run(sys.argv[1:], sys.stdin, sys.stdout, sys.stderr)
