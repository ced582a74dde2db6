"""``python -m bot.focus sample``, exactly as shared/design/engine-commands.md says."""

from __future__ import annotations

import json
import math
import os
import re
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
    ["sample", "--count", "3", "--seed", "1"],
    ["sample", "--skill", "fractions-divide", "--count", "3", "--seed", "1"],
    ["sample", "--skill", "fractions-add", "--level", "4", "--count", "3", "--seed", "1"],
    ["sample", "--skill", "fractions-add", "--level", "0", "--count", "3", "--seed", "1"],
    ["sample", "--skill", "fractions-add", "--count", "51", "--seed", "1"],
    ["sample", "--skill", "fractions-add", "--count", "3"],
    ["skills", "--all"],
    ["years", "--all"],
    ["sample", "--year", "9e", "--level", "1", "--count", "3", "--seed", "1"],
    ["sample", "--year", "5e", "--count", "3", "--seed", "1"],
    ["sample", "--year", "5e", "--level", "9", "--count", "3", "--seed", "1"],
    ["sample", "--year", "5e", "--level", "1", "--count", "51", "--seed", "1"],
    ["sample", "--year", "5e", "--level", "1", "--count", "0", "--seed", "1"],
    ["sample", "--year", "5e", "--skill", "powers", "--level", "1", "--count", "3", "--seed",
     "1"],
    ["sample", "--year", "5e", "--level", "1", "--count", "3", "--seed", "1", "--steps"],
    ["sample", "--year", "5e", "--level", "1", "--count", "3", "--seed", "1", "--wrong", "2"],
    ["sample", "--year", "5e", "--level", "1", "--count", "3", "--seed", "1", "--steps",
     "--wrong", "deux"],
    ["sample", "--level", "1", "--count", "3", "--seed", "1", "--steps", "--wrong", "2"],
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


def test_sample_of_a_skill_prints_exact_answers_as_the_contract_says(capsys):
    """Each question's text as shown, and its answer: an int, a fraction in lowest terms or a
    decimal with a point, always the text's own value."""
    from fractions import Fraction

    from tests.test_focus_skills import evaluate
    seen_forms = set()
    for skill, level in (("fractions-add", 3), ("fractions-subtract", 2), ("decimals-add", 3),
                         ("decimals-times-ten", 3), ("negatives-divide", 2),
                         ("fractions-simplify", 2), ("missing-division", 2), ("powers", 3)):
        assert main(["sample", "--skill", skill, "--level", str(level), "--count", "15",
                     "--seed", "5"]) == 0
        questions = json.loads(capsys.readouterr().out)["questions"]
        assert len(questions) == 15
        for q in questions:
            assert list(q) == ["text", "answer", "topic", "skill", "level", "form"]
            assert q["skill"] == skill and q["level"] == level
            answer = q["answer"]
            seen_forms.add(type(answer).__name__ + q["form"])
            if isinstance(answer, str):
                if q["form"] == "decimal":
                    assert re.fullmatch(r"-?[0-9]+\.[0-9]*[1-9]", answer), answer
                else:
                    top, bottom = (int(x) for x in answer.split("/"))
                    assert bottom > 1 and math.gcd(top, bottom) == 1
                value = Fraction(answer)
            else:
                assert isinstance(answer, int)
                value = Fraction(answer)
            ascii = (q["text"].replace("−", "-").replace("×", "*").replace("÷", "/")
                     .replace("√", "sqrt").replace(" %", "%"))
            if "?" in ascii:
                left, right = ascii.split("=")
                assert evaluate(left.replace("?", f"({answer})")) == evaluate(right)
            elif skill != "powers":
                assert evaluate(ascii) == value
            assert "-" not in q["text"] and "*" not in q["text"]
    assert {"strfraction", "strdecimal", "intwhole", "strlowest"} <= seen_forms


def test_sample_of_a_skill_in_ascii_and_by_default_at_its_first_level(capsys):
    assert main(["sample", "--skill", "negatives-subtract", "--count", "10", "--seed", "2",
                 "--ascii"]) == 0
    questions = json.loads(capsys.readouterr().out)["questions"]
    assert {q["level"] for q in questions} == {1}
    for q in questions:
        assert set(q["text"]) <= set("0123456789 ()+-")
    first = run("sample", "--skill", "percentages", "--count", "4", "--seed", "9")
    assert first.returncode == 0 and first.stderr == b""
    assert run("sample", "--skill", "percentages", "--count", "4", "--seed", "9").stdout \
        == first.stdout


def test_skills_lists_every_skill_with_its_topic_and_levels():
    result = run("skills")
    assert result.returncode == 0 and result.stderr == b""
    skills = json.loads(result.stdout.decode("utf-8"))
    by_id = {s["skill"]: s for s in skills}
    assert len(by_id) == len(skills) >= 27
    for topic in ("addition", "subtraction", "multiplication", "division", "squares",
                  "priority", "parentheses"):
        assert by_id[topic]["topic"] == topic  # the eight levels' topics are skills
    assert by_id["fractions-add"]["topic"] == "fractions"
    for s in skills:
        assert list(s) == ["skill", "topic", "form", "levels"]
        assert [lv["level"] for lv in s["levels"]] == list(range(1, len(s["levels"]) + 1))
        tiers = [lv["tier"] for lv in s["levels"]]
        assert tiers == sorted(tiers) and all(lv["name"] for lv in s["levels"])


def test_years_lists_every_school_year_with_its_names_from_the_catalogue():
    from bot.focus.school import YEARS
    from bot.texts import t
    result = run("years")
    assert result.returncode == 0 and result.stderr == b""
    years = json.loads(result.stdout.decode("utf-8"))
    assert [y["year"] for y in years] == list(YEARS)
    for y in years:
        assert list(y) == ["year", "country", "name", "levels"]
        assert y["country"] == YEARS[y["year"]].country in ("fr", "us")
        assert y["name"] == {lang: t(f"focus.school_years.{y['year']}", lang)
                             for lang in ("en", "fr")}
        assert y["levels"] == [1, 2, 3, 4, 5, 6, 7, 8]
    fifth = next(y for y in years if y["year"] == "5e")
    assert fifth["name"]["en"] == "5e (France, age 12)"


def test_sample_of_a_year_is_the_round_that_year_and_level_draw(capsys):
    import random

    from bot.focus.exact import json_answer
    from bot.focus.school import draw_round
    for year, level in (("5e", 1), ("6e", 1), ("3e", 8), ("grade8", 3), ("cp", 8)):
        assert main(["sample", "--year", year, "--level", str(level), "--count", "12",
                     "--seed", "4"]) == 0
        questions = json.loads(capsys.readouterr().out)["questions"]
        drawn = draw_round(year, level, 12, random.Random(4))
        assert [(q["text"], q["answer"], q["skill"], q["form"]) for q in questions] == [
            (d.text, json_answer(d.answer, d.form), d.skill, d.form) for d in drawn]
        assert len({q["text"] for q in questions}) == 12
        for q in questions:
            assert list(q) == ["text", "answer", "topic", "skill", "level", "form"]
            assert q["level"] == level
    first = run("sample", "--year", "5e", "--level", "1", "--count", "6", "--seed", "9",
                "--ascii")
    assert first.returncode == 0 and first.stderr == b""
    assert run("sample", "--year", "5e", "--level", "1", "--count", "6", "--seed", "9",
               "--ascii").stdout == first.stdout
    for q in json.loads(first.stdout.decode("utf-8"))["questions"]:
        assert "×" not in q["text"] and "−" not in q["text"]


def test_sample_steps_say_each_question_s_worked_correction_after_a_wrong_answer(capsys):
    from bot.corrections import step_texts
    from bot.focus.exact import parse_exact
    from bot.focus.steps import steps
    assert main(["sample", "--year", "cycle4", "--level", "5", "--count", "20", "--seed", "2",
                 "--steps", "--wrong", "0"]) == 0
    questions = json.loads(capsys.readouterr().out)["questions"]
    for q in questions:
        assert list(q) == ["text", "answer", "topic", "skill", "level", "form", "steps"]
        answer = parse_exact(q["answer"])
        assert q["steps"] == step_texts(steps(q["skill"], q["text"], answer), "en")
        assert 1 <= len(q["steps"]) <= 3 and all(isinstance(s, str) for s in q["steps"])
    # After a right answer there is nothing to correct.
    assert main(["sample", "--year", "3e", "--level", "1", "--count", "1", "--seed", "1"]) == 0
    [only] = json.loads(capsys.readouterr().out)["questions"]
    right = str(only["answer"])
    assert main(["sample", "--year", "3e", "--level", "1", "--count", "1", "--seed", "1",
                 "--steps", "--wrong", right]) == 0
    assert json.loads(capsys.readouterr().out)["questions"][0]["steps"] == []
    # A wrong answer as a member types it: a comma, a fraction, a minus sign.
    for typed in ("0,5", "1/2", "−3"):
        assert main(["sample", "--year", "5e", "--level", "2", "--count", "3", "--seed", "1",
                     "--steps", "--wrong", typed]) == 0
        assert all(q["steps"] for q in json.loads(capsys.readouterr().out)["questions"])
