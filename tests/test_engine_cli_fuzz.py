"""The three engine command lines under bad and odd input (issue 12, "The engine command lines").

Whatever the input, a command ends in one of two ways (shared/design/engine-commands.md): exit 0
with one JSON document on stdout, or exit 2 with exactly one non-empty line on stderr and nothing
on stdout. Never a traceback, never exit 1 (the runner's "internal error", a bug).

The corpus is generated, deterministically, from one valid input per command: every field of it
replaced by values of the wrong type or out of range, removed, or joined by an unknown key, plus
raw texts that are not JSON, too deep, too big or not UTF-8, plus bad argv. It runs in-process
(each CLI's ``main(argv, stdin=, stdout=, stderr=)``); the named cases of the issue and a few
others also run as real processes, to prove the real entry points.
"""

from __future__ import annotations

import copy
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot import engine_cli
from bot.digits.__main__ import main as digits_main
from bot.focus.__main__ import main as focus_main
from bot.rithmo.cli import main as rithmo_main

ROOT = Path(__file__).resolve().parents[1]

MAINS: dict[str, Callable[..., int]] = {
    "bot.digits": digits_main, "bot.rithmo": rithmo_main, "bot.focus": focus_main}


@dataclass
class Result:
    code: int
    out: str
    err: str


def call(module: str, argv: list[str], stdin: bytes = b"") -> Result:
    out, err = io.StringIO(), io.StringIO()
    code = MAINS[module](argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return Result(code, out.getvalue(), err.getvalue())


def spawn(module: str, argv: list[str], stdin: bytes = b"") -> Result:
    p = subprocess.run([sys.executable, "-m", module, *argv], input=stdin, capture_output=True,
                       cwd=ROOT, timeout=120, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    return Result(p.returncode, p.stdout.decode("utf-8", "replace"),
                  p.stderr.decode("utf-8", "replace"))


def assert_answered_or_refused(r: Result) -> None:
    """Exit 0 and one JSON document, or exit 2 and one line; nothing else."""
    assert "Traceback" not in r.err, r.err[-2000:]
    if r.code == 0:
        assert r.out.endswith("\n") and r.out.count("\n") == 1, r.out[:300]
        json.loads(r.out)
    else:
        assert r.code == 2, (r.code, r.err[:300])
        assert r.out == ""
        assert r.err.endswith("\n") and r.err.count("\n") == 1, r.err[:500]
        assert r.err.strip(), "an empty error line"
        assert len(r.err) <= engine_cli.MAX_MESSAGE + 40, "an error line that quotes too much"


def assert_refused(r: Result, *words: str) -> None:
    assert_answered_or_refused(r)
    assert r.code == 2, r.out[:300]
    for word in words:
        assert word in r.err, r.err


# ----------------------------------------------------------------------------- the corpus

BATTLE = {"left": {"slate": {"1": "Odd", "5": "Plus N1"}, "focus": 0},
          "right": {"slate": {"1": {"digit": "Minus", "level": 2}}, "focus": 3},
          "seed": 7}
ODDS = {"player": {"slate": {"1": "Abacus N2", "5": "Plus"}, "focus": None},
        "opponents": [{"slate": {"1": "Modulo"}}, {"slate": {"1": "Boulier N2"}, "focus": 3}],
        "battles": 20, "seed": 7, "accuracy": 0.75}
POSITION = {"to_move": "white",
            "pieces": [{"square": "c2", "side": "white", "shape": "round", "value": 4},
                       {"square": "b2", "side": "white", "shape": "pyramid",
                        "parts": [{"shape": "square", "value": 36},
                                  {"shape": "round", "value": 1}]},
                       {"square": "d3", "side": "black", "shape": "triangle", "value": 16}],
            "taken": {"white": [{"shape": "square", "value": 9}], "black": []}}

MID_TURN = {"to_move": "white",  # the project's mid-turn form (docs/rules/rithmomachia.md)
            "pieces": [{"square": "c2", "side": "white", "shape": "round", "value": 4},
                       {"square": "d3", "side": "black", "shape": "triangle", "value": 16}],
            "turn_in_progress": "c2-b3"}

HUGE_INT = "9" * 5000  # past Python 3.11's 4,300-digit limit of int("…")
DEEP = "[" * 100_000 + "]" * 100_000
# Values put in place of each field: wrong types, out of range, huge, odd.
ODD_VALUES: list[tuple[str, Any]] = [
    ("null", None), ("true", True), ("false", False), ("zero", 0), ("minus one", -1),
    ("a float", 2.5), ("a big int", 10 ** 29), ("a 31-digit int", 10 ** 30), ("text", "x"),
    ("empty text", ""), ("100k text", "a" + " " * 100_000 + "b"), ("a list", ["white"]),
    ("an object", {"x": 1}), ("nested lists", [[[[[[[[1]]]]]]]]), ("a lone surrogate", "\ud800"),
    ("Odd N99999", "Odd N" + "9" * 5000),
]


def paths(doc: Any, prefix: tuple = ()) -> Iterator[tuple]:
    """Every path to a value inside ``doc`` (dict keys and list indexes)."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) \
        else ()
    for k, v in items:
        yield (*prefix, k)
        yield from paths(v, (*prefix, k))


def replaced(doc: Any, path: tuple, value: Any) -> Any:
    out = copy.deepcopy(doc)
    parent = out
    for k in path[:-1]:
        parent = parent[k]
    parent[path[-1]] = value
    return out


def without(doc: Any, path: tuple) -> Any:
    out = copy.deepcopy(doc)
    parent = out
    for k in path[:-1]:
        parent = parent[k]
    del parent[path[-1]]
    return out


def json_cases(doc: Any) -> Iterator[tuple[str, bytes]]:
    for path in paths(doc):
        where = "/".join(map(str, path))
        for label, value in ODD_VALUES:
            yield f"{where}={label}", json.dumps(replaced(doc, path, value)).encode()
        yield f"{where} removed", json.dumps(without(doc, path)).encode()
        target = replaced(doc, path, 0)
        parent = target
        for k in path[:-1]:
            parent = parent[k]
        if isinstance(parent, dict):
            parent["bogus"] = 1
            yield f"unknown key beside {where}", json.dumps(target).encode()
    text = json.dumps(doc)
    yield "5000-digit int", text.replace("7", HUGE_INT, 1).replace("4", HUGE_INT, 1).encode()
    first = next(iter(doc))
    yield "a duplicate key", (f'{{"{first}": null, ' + text[1:]).encode()


RAW_CASES: list[tuple[str, bytes]] = [
    ("empty", b""), ("blank", b" \n\t "), ("null", b"null"), ("true", b"true"), ("a number", b"1"),
    ("a string", b'"white"'), ("an empty list", b"[]"), ("an empty object", b"{}"),
    ("not UTF-8", b"\xff\xfe{}"), ("latin-1", '{"to_move": "blanc é"}'.encode("latin-1")),
    ("a BOM", b"\xef\xbb\xbf{}"), ("a NUL", b"\x00"), ("cut", b'{"left": {"slate": '),
    ("trailing garbage", b"{} {}"), ("single quotes", b"{'a': 1}"), ("NaN", b"NaN"),
    ("Infinity", b'{"seed": Infinity}'), ("1e400", b'{"seed": 1e400}'),
    ("a 5000-digit int", HUGE_INT.encode()), ("-5000 digits", b"-" + HUGE_INT.encode()),
    ("100,000 deep", DEEP.encode()), ("100,000 deep objects", b'{"a":' * 100_000),
    ("50,000 deep, closed", b"[" * 50_000 + b"]" * 50_000),
    ("33 deep", b"[" * 33 + b"]" * 33), ("brackets in a string", b'"' + b"[" * 100_000 + b'"'),
    ("over 1 MB", b'"' + b"a" * 1_000_001 + b'"'), ("a lone surrogate", b'"\\ud800"'),
    ("binary", bytes(range(256))),
]

JSON_COMMANDS: list[tuple[str, list[str], Any]] = [
    ("bot.digits", ["battle"], BATTLE), ("bot.digits", ["odds"], ODDS),
    ("bot.rithmo", ["moves"], POSITION), ("bot.rithmo", ["captures"], POSITION),
    ("bot.rithmo", ["captures"], MID_TURN)]


def stdin_corpus() -> list[tuple[str, str, list[str], bytes]]:
    cases = []
    for module, argv, doc in JSON_COMMANDS:
        name = f"{module.split('.')[1]} {argv[0]}" + (" mid-turn" if doc is MID_TURN else "")
        cases += [(f"{name}: {label}", module, argv, data) for label, data in json_cases(doc)]
        cases += [(f"{name}: raw {label}", module, argv, data) for label, data in RAW_CASES]
    return cases


SURROGATE = b"\xff".decode("utf-8", "surrogateescape")  # how Python hands over non-UTF-8 argv
ARGV_CORPUS: list[tuple[str, list[str]]] = [
    ("bot.digits", []), ("bot.digits", ["fight"]), ("bot.digits", ["battle", "extra"]),
    ("bot.digits", ["--nope"]), ("bot.digits", ["match", "--seed"]),
    ("bot.digits", ["match", "--seed", "x"]), ("bot.digits", ["match", "--seed", HUGE_INT]),
    ("bot.digits", ["match", "--seed", "1.5"]), ("bot.digits", ["match", "--rounds", "0"]),
    ("bot.digits", ["match", "--rounds", "-3"]), ("bot.digits", ["match", "--rounds", "10" * 20]),
    ("bot.digits", ["match", "--rounds", ""]), ("bot.digits", ["match", "--draft=1"]),
    ("bot.digits", ["odds", "--seed", "1"]), ("bot.digits", [SURROGATE]),
    ("bot.digits", ["match", "--seed", SURROGATE]), ("bot.digits", ["match", "--seed", "1\n2"]),
    ("bot.rithmo", []), ("bot.rithmo", ["castle"]), ("bot.rithmo", ["start", "moves"]),
    ("bot.rithmo", ["START"]), ("bot.rithmo", ["moves", "--x"]), ("bot.rithmo", [SURROGATE]),
    ("bot.rithmo", ["x" * 100_000]), ("bot.rithmo", ["start", "\n"]),
    ("bot.focus", []), ("bot.focus", ["draw"]), ("bot.focus", ["sample"]),
    ("bot.focus", ["sample", "--level", HUGE_INT, "--count", "3", "--seed", "1"]),
    ("bot.focus", ["sample", "--level", "99999999999999999999", "--count", "3", "--seed", "1"]),
    ("bot.focus", ["sample", "--level", "-1", "--count", "3", "--seed", "1"]),
    ("bot.focus", ["sample", "--level", "2", "--count", "10" * 20, "--seed", "1"]),
    ("bot.focus", ["sample", "--level", "2", "--count", "-1", "--seed", "1"]),
    ("bot.focus", ["sample", "--level", "2", "--count", "3", "--seed", HUGE_INT]),
    ("bot.focus", ["sample", "--level", "2", "--count", "3", "--seed", "-" + "9" * 4000]),
    ("bot.focus", ["sample", "--level", "1.0", "--count", "3", "--seed", "1"]),
    ("bot.focus", ["sample", "--level", SURROGATE, "--count", "3", "--seed", "1"]),
    ("bot.focus", ["sample", "--level", "2", "--count", "3", "--seed", "1", "extra"]),
    ("bot.focus", ["sample", "--level", "2", "--level", "3", "--count", "3", "--seed", "1"]),
]


def test_the_corpus_is_large_and_deterministic():
    assert len(stdin_corpus()) + len(ARGV_CORPUS) >= 260
    assert stdin_corpus() == stdin_corpus()


@pytest.mark.parametrize("module,argv,data", [c[1:] for c in stdin_corpus()],
                         ids=[c[0] for c in stdin_corpus()])
def test_stdin_fuzz(module, argv, data):
    assert_answered_or_refused(call(module, argv, data))


@pytest.mark.parametrize("module,argv", ARGV_CORPUS,
                         ids=[f"{m} {' '.join(a)[:40]!r}" for m, a in ARGV_CORPUS])
def test_argv_fuzz(module, argv):
    assert_answered_or_refused(call(module, argv))


def test_valid_inputs_still_answer():
    for module, argv, doc in JSON_COMMANDS:
        r = call(module, argv, json.dumps(doc).encode())
        assert r.code == 0 and r.err == "", r.err
        json.loads(r.out)
    assert json.loads(call("bot.rithmo", ["start"]).out)["to_move"] == "white"
    assert call("bot.focus", ["sample", "--level", "2", "--count", "3", "--seed", "1"]).code == 0
    assert call("bot.digits", ["match", "--seed", "2", "--rounds", "2"]).code == 0


# ----------------------------------------------------------------------------- the cases,
# as real processes (they failed before the shared reader: tracebacks, two lines, or exit 0)

@pytest.mark.parametrize("module,argv", [("bot.digits", ["battle"]), ("bot.digits", ["odds"]),
                                         ("bot.rithmo", ["moves"]), ("bot.rithmo", ["captures"])])
def test_json_nested_100000_deep_is_one_line(module, argv):
    assert_refused(spawn(module, argv, DEEP.encode()), "deeper than 32")
    # 50,000 deep and closed, as the issue sent it: said as too deep, not as malformed.
    assert_refused(spawn(module, argv, b"[" * 50_000 + b"]" * 50_000), "nests deeper than 32")


@pytest.mark.parametrize("module,argv,doc", JSON_COMMANDS[::2])
def test_a_5000_digit_integer_is_one_line(module, argv, doc):
    text = json.dumps(doc).replace("7" if module == "bot.digits" else "4", HUGE_INT, 1)
    assert_refused(spawn(module, argv, text.encode()), "at most 30 digits")


def test_a_digit_spec_with_a_huge_level_is_one_line():
    doc = replaced(BATTLE, ("left", "slate", "1"), "Odd N" + "9" * 99_999)
    assert_refused(spawn("bot.digits", ["battle"], json.dumps(doc).encode()), "left slate")


def test_a_long_digit_spec_takes_no_quadratic_time():
    # "a", 100,000 spaces, "b" took the digit-name pattern minutes of backtracking
    doc = replaced(BATTLE, ("left", "slate", "1"), "a" + " " * 100_000 + "b")
    assert_refused(call("bot.digits", ["battle"], json.dumps(doc).encode()), "left slate")


@pytest.mark.parametrize("field", ["to_move", "side"])
def test_to_move_or_side_as_a_list_is_one_line(field):
    doc = replaced(POSITION, ("to_move",) if field == "to_move" else ("pieces", 0, "side"),
                   ["white"])
    assert_refused(spawn("bot.rithmo", ["moves"], json.dumps(doc).encode()), field)


@pytest.mark.parametrize("argv", [[], ["fight"], ["match", "--seed", "x"], ["battle", "--x"]])
def test_digits_argparse_errors_are_one_line(argv):
    assert_refused(spawn("bot.digits", argv), "error: ", "(see python -m bot.digits", "--help)")


@pytest.mark.parametrize("doc,word", [
    ({}, "missing key 'to_move'"),
    ({"to_move": "white"}, "missing key 'pieces'"),
    ({"pieces": []}, "missing key 'to_move'"),
    ({**POSITION, "board": []}, "unknown key 'board'"),
    ({"colour": "white", "pieces": []}, "unknown key 'colour'"),
    (replaced(POSITION, ("pieces", 0, "colour"), "red"), "unknown key 'colour'"),
    (replaced(POSITION, ("pieces", 1, "parts", 0, "tier"), 1), "unknown key 'tier'"),
    (replaced(POSITION, ("taken", "white", 0, "square"), "a1"), "unknown key 'square'"),
    (replaced(POSITION, ("taken", "grey"), []), "unknown key 'grey'"),
])
@pytest.mark.parametrize("command", ["moves", "captures"])
def test_rithmo_refuses_positions_without_the_contracts_fields_or_with_unknown_keys(
        doc, word, command):
    assert_refused(call("bot.rithmo", [command], json.dumps(doc).encode()), word)


@pytest.mark.parametrize("command", ["moves", "captures"])
def test_rithmo_refuses_an_empty_object_as_a_real_process(command):
    # it used to read {} as an empty board and answer {"moves": []} with status 0
    assert_refused(spawn("bot.rithmo", [command], b"{}"), "missing key 'to_move'")


def test_rithmo_still_reads_the_optional_fields_and_a_turn_in_progress():
    bare = {"to_move": "black", "pieces": POSITION["pieces"]}  # "taken" is optional
    assert call("bot.rithmo", ["moves"], json.dumps(bare).encode()).code == 0
    one_side = {**bare, "taken": {"white": []}}
    assert call("bot.rithmo", ["captures"], json.dumps(one_side).encode()).code == 0
    # the project's documented mid-turn form (docs/rules/rithmomachia.md)
    start = json.loads(call("bot.rithmo", ["start"]).out)
    r = call("bot.rithmo", ["moves"], json.dumps({**start, "turn_in_progress": ""}).encode())
    assert r.code == 0, r.err


@pytest.mark.parametrize("module", ["bot.digits", "bot.rithmo", "bot.focus"])
def test_help_still_exits_0_on_stdout(module):
    r = spawn(module, ["--help"])
    assert r.code == 0 and r.err == "" and "usage" in r.out.lower()


def test_help_in_process_writes_on_the_given_stream():
    r = call("bot.digits", ["battle", "--help"])
    assert r.code == 0 and r.err == "" and "battle" in r.out


def test_a_real_process_answers_a_valid_input_unchanged():
    r = spawn("bot.digits", ["battle"], json.dumps(BATTLE).encode())
    assert r.code == 0 and r.err == ""
    assert json.loads(r.out)["winner"] == "left"


def test_a_bug_is_one_line_with_status_1_not_a_traceback(monkeypatch):
    import bot.rithmo.cli as cli

    def broken(*args: Any) -> Any:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(cli.Board, "start", broken)
    r = call("bot.rithmo", ["start"])
    assert r.code == 1 and r.out == "" and r.err.count("\n") == 1
    assert "internal error (ZeroDivisionError)" in r.err


def test_the_shared_reader_imports_no_discord_database_or_images():
    code = ("import sys, bot.engine_cli;"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('discord', 'aiosqlite', 'PIL', 'db', 'images', 'cogs')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         check=True)
    assert out.stdout.strip() == "[]"
