"""``python -m bot.focus sample``, exactly as shared/design/engine-commands.md says."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bot.focus.__main__ import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot.focus", *args], capture_output=True,
                          cwd=ROOT, env={**os.environ, "PYTHONIOENCODING": "ascii"})


def test_sample_prints_the_contracts_json_the_same_for_the_same_seed():
    first = run("sample", "--level", "6", "--count", "5", "--seed", "7")
    assert first.returncode == 0 and first.stderr == b""
    out = json.loads(first.stdout.decode("utf-8"))
    assert list(out) == ["questions"] and len(out["questions"]) == 5
    for q in out["questions"]:
        assert list(q) == ["text", "answer", "topic"]
        assert isinstance(q["answer"], int) and q["topic"] == "priority"
        assert set(q["text"]) <= set("0123456789 ()+−×÷")
    assert run("sample", "--level", "6", "--count", "5", "--seed", "7").stdout == first.stdout
    assert run("sample", "--level", "6", "--count", "5", "--seed", "8").stdout != first.stdout


def test_sample_level_one_is_sums_within_20(capsys):
    assert main(["sample", "--level", "1", "--count", "50", "--seed", "3"]) == 0
    questions = json.loads(capsys.readouterr().out)["questions"]
    assert len(questions) == 50 and len({q["text"] for q in questions}) == 50
    for q in questions:
        a, b = (int(x) for x in q["text"].split(" + "))
        assert a + b == q["answer"] <= 20 and q["topic"] == "addition"


def test_sample_ascii_texts(capsys):
    assert main(["sample", "--level", "7", "--count", "30", "--seed", "1", "--ascii"]) == 0
    for q in json.loads(capsys.readouterr().out)["questions"]:
        assert set(q["text"]) <= set("0123456789 ()+-*/")


@pytest.mark.parametrize("args", [
    ["sample", "--level", "9", "--count", "3", "--seed", "1"],
    ["sample", "--level", "0", "--count", "3", "--seed", "1"],
    ["sample", "--level", "x", "--count", "3", "--seed", "1"],
    ["sample", "--level", "2", "--count", "0", "--seed", "1"],
    ["sample", "--level", "2", "--count", "51", "--seed", "1"],
    ["sample", "--level", "2", "--count", "3", "--seed", "one"],
    ["sample", "--level", "2", "--count", "3"],
    ["sample", "--level", "2", "--count", "3", "--seed", "1", "--loud"],
    ["draw"],
    [],
])
def test_bad_input_exits_2_with_one_line_on_stderr_and_nothing_on_stdout(args, capsys):
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("python -m bot.focus: ")


def test_bad_input_exit_status_from_the_shell():
    result = run("sample", "--level", "12", "--count", "3", "--seed", "1")
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.decode().strip() == (
        "python -m bot.focus: there is no Focus level 12: levels go from 1 to 8")


def test_the_engine_imports_no_discord_database_or_images():
    code = ("import sys, bot.focus, bot.focus.__main__, tools.bench.focus;"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('discord', 'aiosqlite', 'PIL', 'db', 'images', 'cogs')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         check=True)
    assert out.stdout.strip() == "[]"
