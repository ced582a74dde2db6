"""``python -m bot.digits battle`` as engine-commands.md describes it, run as a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(stdin: str | bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run([sys.executable, "-m", "bot.digits", *args], input=data,
                          capture_output=True, cwd=ROOT, timeout=60)


def battle(document: object) -> subprocess.CompletedProcess[bytes]:
    return run(json.dumps(document), "battle")


CONTRACT_IN = {"left": {"slate": {"1": "Odd", "5": "Plus N1"}, "focus": 0},
               "right": {"slate": {"1": {"digit": "Minus", "level": 2}}, "focus": 3},
               "seed": 7}


def test_a_valid_battle_prints_the_contract_answer():
    p = battle(CONTRACT_IN)
    assert p.returncode == 0 and p.stderr == b""
    out = json.loads(p.stdout)
    assert out["winner"] == "left" and out["exchanges"] == 1
    assert out["survivors"] == {"left": {"1": {"digit": "Plus", "level": 1, "atk": 1, "hp": 3,
                                               "shield": 0}}, "right": {}}
    assert out["log"][0]["moves"] == [{"side": "left", "from": 5, "to": 1}]
    assert list(out) == ["winner", "exchanges", "opening", "log", "survivors"]


def test_focus_and_seed_are_optional():
    p = battle({"left": {"slate": {"1": "Odd", "5": "Plus N1"}},
                "right": {"slate": {"1": "Minus N2"}, "focus": 3}})
    assert p.returncode == 0
    assert json.loads(p.stdout) == json.loads(battle(CONTRACT_IN).stdout)


def test_french_names_any_case_accents_optional_come_out_in_english():
    p = battle({"left": {"slate": {"1": "Impair", "5": "plus n1", "2": "Moitié",
                                   "3": {"digit": "moitie", "level": 2}, "4": "ZÉRO N3"}},
                "right": {"slate": {"1": "Moins N2", "6": "Retenue"}}})
    assert p.returncode == 0, p.stderr
    opening = json.loads(p.stdout)["opening"]
    assert {c: (s["digit"], s["level"]) for c, s in opening["left"].items()} == {
        "1": ("Odd", 1), "2": ("Half", 1), "3": ("Half", 2), "4": ("Zero", 3), "5": ("Plus", 1)}
    assert {c: s["digit"] for c, s in opening["right"].items()} == {"1": "Minus", "6": "Carry"}


def bad_input_cases() -> list[tuple[str, str | bytes, str]]:
    """(what is wrong, the input, a word the error line must contain)."""
    ok = {"slate": {"1": "Odd"}}

    def doc(**changes: object) -> str:
        d: dict[str, object] = {"left": ok, "right": ok}
        d.update(changes)
        return json.dumps(d)

    return [
        ("malformed JSON", '{"left": {"slate": {"1": "Odd"}', "JSON"),
        ("empty input", "", "JSON"),
        ("not UTF-8", b"\xff\xfe{}", "UTF-8"),
        ("not an object", "[1, 2]", "object"),
        ("no right side", json.dumps({"left": ok}), "right"),
        ("unknown key", doc(sede=7), "sede"),
        ("side not an object", doc(left="Odd"), "left"),
        ("no slate", doc(left={"focus": 2}), "slate"),
        ("slate not an object", doc(left={"slate": ["Odd"]}), "slate"),
        ("unknown digit", doc(left={"slate": {"1": "Seven"}}), "Seven"),
        ("cell 9", doc(left={"slate": {"9": "Odd"}}), "9"),
        ("cell 0", doc(right={"slate": {"0": "Odd"}}), "0"),
        ("cell not a number", doc(left={"slate": {"a1": "Odd"}}), "a1"),
        ("level 4 in a name", doc(left={"slate": {"1": "Odd N4"}}), "level"),
        ("level 0 in an object", doc(left={"slate": {"1": {"digit": "Odd", "level": 0}}}),
         "level"),
        ("level as text", doc(left={"slate": {"1": {"digit": "Odd", "level": "2"}}}), "level"),
        ("digit as a number", doc(left={"slate": {"1": 3}}), "digit"),
        ("object without digit", doc(left={"slate": {"1": {"level": 2}}}), "digit"),
        ("focus 7", doc(left={"slate": {}, "focus": 7}), "focus"),
        ("focus -1", doc(right={"slate": {}, "focus": -1}), "focus"),
        ("focus as text", doc(left={"slate": {}, "focus": "3"}), "focus"),
        ("focus true", doc(left={"slate": {}, "focus": True}), "focus"),
        ("focus 2.5", doc(left={"slate": {}, "focus": 2.5}), "focus"),
        ("seed as text", doc(seed="7"), "seed"),
    ]


@pytest.mark.parametrize("stdin,word", [(c[1], c[2]) for c in bad_input_cases()],
                         ids=[c[0] for c in bad_input_cases()])
def test_bad_input_exits_2_with_one_line_on_stderr_and_nothing_on_stdout(stdin, word):
    p = run(stdin, "battle")
    assert p.returncode == 2
    assert p.stdout == b""
    err = p.stderr.decode()
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert word in err


def test_an_unknown_subcommand_is_refused():
    p = run("{}", "fight")
    assert p.returncode == 2 and p.stdout == b""
