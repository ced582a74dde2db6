"""``python -m bot.rithmo start | moves | captures`` as engine-commands.md describes it, run as a
real process, bad input included."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.rithmo import Board

ROOT = Path(__file__).resolve().parents[1]


def run(stdin: str | bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run([sys.executable, "-m", "bot.rithmo", *args], input=data,
                          capture_output=True, cwd=ROOT, timeout=60)


CONTRACT_POSITION = {
    "to_move": "white",
    "pieces": [{"square": "c2", "side": "white", "shape": "round", "value": 4},
               {"square": "b2", "side": "white", "shape": "pyramid",
                "parts": [{"shape": "square", "value": 36}, {"shape": "round", "value": 1}]}],
    "taken": {"white": [], "black": []},
}


def test_start_prints_the_setup_white_to_move():
    p = run("", "start")
    assert p.returncode == 0 and p.stderr == b""
    out = json.loads(p.stdout)
    assert out == Board.start().to_json()
    assert out["to_move"] == "white" and len(out["pieces"]) == 48
    assert {"square": "b2", "side": "white", "shape": "pyramid",
            "parts": [{"shape": "square", "value": 36}, {"shape": "square", "value": 25},
                      {"shape": "triangle", "value": 16}, {"shape": "triangle", "value": 9},
                      {"shape": "round", "value": 4}, {"shape": "round", "value": 1}]} \
        in out["pieces"]
    assert Board.from_json(out).army_value(1) == 1752


def test_moves_of_the_contract_position():
    p = run(json.dumps(CONTRACT_POSITION), "moves")
    assert p.returncode == 0 and p.stderr == b""
    moves = json.loads(p.stdout)["moves"]
    assert {"from": "c2", "to": "d3", "kind": "regular"} in moves
    assert {"from": "b2", "to": "b5", "kind": "regular"} in moves  # the pyramid as a square
    assert {"from": "b2", "to": "c5", "kind": "irregular"} in moves
    assert {"from": "b2", "to": "c3", "kind": "regular"} in moves  # ... and as a round
    assert all(set(m) == {"from", "to", "kind"} for m in moves)
    assert len(moves) == len({(m["from"], m["to"]) for m in moves}) == 13


def test_captures_lists_every_way_with_capturers_and_value():
    # Black's round 8 and pyramid 14 (12 + 2) both reach the White 16: 8 × 2 (ambush),
    # 2^4 (power), 8-12-16 (progression); each with its arithmetic ("why")
    position = {"to_move": "black", "pieces": [
        {"square": "d3", "side": "white", "shape": "round", "value": 16},
        {"square": "c4", "side": "black", "shape": "round", "value": 8},
        {"square": "e4", "side": "black", "shape": "pyramid",
         "parts": [{"shape": "triangle", "value": 12}, {"shape": "round", "value": 2}]}]}
    p = run(json.dumps(position), "captures")
    assert p.returncode == 0 and p.stderr == b""
    assert json.loads(p.stdout) == {"captures": [
        {"victim": "d3", "method": "ambush", "by": ["c4", "e4"], "value": 16,
         "why": {"relation": "product", "values": [8, 2], "result": 16}},
        {"victim": "d3", "method": "power", "by": ["e4"], "value": 16,
         "why": {"relation": "power", "values": [2, 4], "result": 16}},
        {"victim": "d3", "method": "progression", "by": ["c4", "e4"], "value": 16,
         "why": {"relation": "arithmetic", "values": [8, 12, 16], "result": 16, "step": 4}},
    ]}


def test_captures_gives_a_pyramid_components_value():
    # the round 4 takes either component of the pyramid 80: 16 = 4², 64 = 4³
    position = {"to_move": "white", "pieces": [
        {"square": "g14", "side": "white", "shape": "round", "value": 4},
        {"square": "h15", "side": "black", "shape": "pyramid",
         "parts": [{"shape": "square", "value": 64}, {"shape": "round", "value": 16}]}]}
    p = run(json.dumps(position), "captures")
    assert json.loads(p.stdout) == {"captures": [
        {"victim": "h15", "method": "power", "by": ["g14"], "value": 16,
         "why": {"relation": "power", "values": [4, 2], "result": 16, "pyramid": 80}},
        {"victim": "h15", "method": "power", "by": ["g14"], "value": 64,
         "why": {"relation": "power", "values": [4, 3], "result": 64, "pyramid": 80}},
    ]}


def test_captures_of_the_start_position_is_empty():
    p = run(json.dumps(Board.start().to_json()), "captures")
    assert p.returncode == 0 and json.loads(p.stdout) == {"captures": []}


@pytest.mark.parametrize("stdin,args,words", [
    ("{\"to_move\": ", ("moves",), "malformed JSON"),
    (json.dumps({"to_move": "white",
                 "pieces": [{"square": "z2", "side": "white", "shape": "round", "value": 2}]}),
     ("captures",), "bad square 'z2'"),
    (json.dumps({"to_move": "white",
                 "pieces": [{"square": "c2", "side": "white", "shape": "star", "value": 2}]}),
     ("moves",), "shape"),
    (b"\xff\xfe", ("moves",), "malformed"),
    ("", ("castle",), "usage"),
    ("", (), "usage"),
])
def test_bad_input_exits_2_with_one_line_and_no_output(stdin, args, words):
    p = run(stdin, *args)
    assert p.returncode == 2 and p.stdout == b""
    err = p.stderr.decode()
    assert err.count("\n") == 1 and words in err


def test_engine_is_pure():
    code = ("import sys, bot.rithmo, bot.rithmo.cli, tools.bench.rithmo; "
            "bad = [m for m in sys.modules if m.split('.')[0] in "
            "('discord', 'aiosqlite', 'PIL', 'db', 'images', 'cogs')]; print(bad)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0 and p.stdout.strip() == b"[]"
