"""Tools stand outside the product: no module of ``bot``, ``cogs``, ``images`` or ``db`` imports
one (read from the source with ``ast``, so a lazy import inside a function counts too), none is
an installed package, every ``python -m …`` the docs and docstrings give names a module that
exists, and every tool answers ``--help`` with its own command line. The tools' own work is
smoke-tested next to what they measure (test_bench_smoke.py, test_digits_strategy.py, …)."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import setuptools

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("bot", "cogs", "images", "db")
TOOLS = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts)
    for path in (ROOT / "tools").rglob("*.py")
    if path.name != "__init__.py" and path.parent.name != "experiments")


def imported_names(path: Path) -> set[str]:
    """Every module an import statement of ``path`` names (``from a import b``: ``a`` and
    ``a.b``, as ``b`` may be a module), and every constant passed to ``import_module``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and getattr(node.func, "attr", getattr(node.func, "id", None))
              in ("import_module", "__import__")):
            names.add(node.args[0].value)
    return names


def product_files() -> list[Path]:
    return sorted(path for package in PRODUCT for path in (ROOT / package).rglob("*.py"))


def test_no_product_module_imports_a_tool() -> None:
    files = product_files()
    assert len(files) > 50  # the product was found
    found = {str(path.relative_to(ROOT)): sorted(name for name in imported_names(path)
                                                  if name.split(".")[0] == "tools")
             for path in files}
    assert {file: names for file, names in found.items() if names} == {}


def test_the_import_reader_sees_every_way_to_import_a_tool(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text("import tools.load\nfrom tools import samples\n"
                      "def later():\n    from tools.bench.digits import main\n"
                      "    importlib.import_module('tools.ladder.rithmo')\n")
    assert {n for n in imported_names(source) if n.startswith("tools")} == {
        "tools.load", "tools", "tools.samples", "tools.bench.digits", "tools.bench.digits.main",
        "tools.ladder.rithmo"}


def test_tools_are_not_installed_packages() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = setuptools.find_packages(where=str(ROOT), include=include)
    assert set(PRODUCT) <= set(packages)
    assert [p for p in packages if p.split(".")[0] in ("tools", "tests")] == []
    assert "tools" in setuptools.find_packages(where=str(ROOT))  # the check could see it


def test_the_product_holds_no_benchmark_ladder_or_sample_module() -> None:
    misplaced = [str(path.relative_to(ROOT)) for path in product_files()
                 if re.search(r"bench|ladder|samples|mcts", path.stem)]
    assert misplaced == []


def commands_in(text: str) -> set[str]:
    # "python -m tools.…" and "tools.bench.<part>" are placeholders, not commands.
    return {name for name in re.findall(r"python3? -m ([A-Za-z_][\w.]*)", text)
            if not name.endswith(".")}


def test_every_command_the_docs_give_names_a_module_that_exists() -> None:
    sources = [ROOT / "README.md", ROOT / "ardoise", *sorted((ROOT / "docs").rglob("*.md")),
               *product_files(), *sorted((ROOT / "tools").rglob("*.py")),
               *sorted((ROOT / "tests").glob("*.py"))]
    commands: dict[str, set[str]] = {}
    for path in sources:
        for module in commands_in(path.read_text(encoding="utf-8")):
            commands.setdefault(module, set()).add(str(path.relative_to(ROOT)))
    assert {"bot", "tools.load", "tools.bench.digits", "tools.ladder.rithmo"} <= set(commands)
    outside = {"pytest", "venv", "pip"}
    missing = {module: sorted(where) for module, where in commands.items()
               if module not in outside and importlib.util.find_spec(module) is None}
    assert missing == {}


def test_tools_init_lists_every_tool() -> None:
    import tools

    assert len(TOOLS) == 25  # issue 24: tools.bench.focus_compare, tools.bench.floor_bot; 28:
    # tools.ladder.digits_models, tools.bench.rithmo_review; 29: tools.french_docs
    assert commands_in(tools.__doc__ or "") == set(TOOLS)


@pytest.mark.parametrize("module", TOOLS)
def test_every_tool_answers_help_with_its_own_command(module: str, capsys) -> None:
    tool = importlib.import_module(module)
    with pytest.raises(SystemExit) as exit_:
        tool.main(["--help"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: python -m {module} ")


def test_a_tool_runs_from_the_project_root_with_python_m() -> None:
    # ``tools`` is not installed: ``python -m`` finds it in the folder it is started from.
    done = subprocess.run([sys.executable, "-m", "tools.bench.digits", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: python -m tools.bench.digits ")


# --- the tools run, in small (no figure is asserted: they are for docs/benchmarks.md) ----------
# tools.load, the ladders and tools.samples' states have theirs next to what they measure
# (test_bench_smoke.py, test_digits_strategy.py, test_digits_shadow.py, test_rithmo_ai.py,
# test_images*.py); tools.bench.db (7 s even with --quick) and tools.bench.images (4 s) only
# answer --help here.

@pytest.mark.parametrize(("module", "argv", "printed"), [
    ("tools.bench.digits", ["--count", "30", "--repeat", "1"], "battles/s"),
    ("tools.bench.digits_odds", ["--matches", "2", "--players", "2"], "distinct, exact"),
    ("tools.bench.digits_match", ["--count", "2", "--repeat", "1"], "matches/s"),
    ("tools.bench.rithmo", ["--positions", "3", "--games", "2", "--limit", "10"],
     "games per second"),
    ("tools.bench.focus", ["--rounds", "10", "--repeats", "1"], "rounds/s"),
    ("tools.bench.mastery", ["--answers", "60", "--repeats", "1"], "round chosen (pure)"),
    ("tools.bench.rithmo_puzzles", ["--seeds", "2", "--days", "1", "--positions", "3"],
     "generate(seed), 2 seeds"),
    ("tools.bench.class_report", ["--quick", "--repeats", "1", "--rounds", "10"],
     "query + build"),
])
def test_a_benchmark_runs_in_small(module: str, argv: list[str], printed: str, capsys) -> None:
    assert importlib.import_module(module).main(argv) in (0, None)
    assert printed in capsys.readouterr().out


def test_the_rithmomachia_cog_under_load_runs_in_small(capsys) -> None:
    from tools import load_rithmo

    load_rithmo.main(["--games", "1", "--turns", "2"])
    out = capsys.readouterr().out
    assert "1 Rithmomachia games at once, 2 turns each" in out and "turn to board  n=    2" in out


def test_the_samples_are_written_where_asked(tmp_path: Path, capsys) -> None:
    from tools import samples

    assert samples.main([str(tmp_path / "pictures")]) == 0
    written = sorted(p.name for p in (tmp_path / "pictures").iterdir())
    assert len(written) == 32 and "board.png" in written and "replay.gif" in written
    assert {"progress-days.png", "streak-new.png", "live-ranking.png", "class-report.png",
            "live-report.png", "question-report.png", "question-report-fr.png",
            "student-page-fr.png", "class-report-skills.png", "mastery-fr.png"} <= set(written)
    # The teachers' guide shows the pictures the code draws now (issue 27).
    # And the skills' names and mastery in the class report and the mastery map (issue 26).
    for name in ("question-report.png", "question-report-fr.png", "student-page-fr.png",
                 "class-report.png", "class-report-skills.png", "mastery-fr.png",
                 # The French teachers' guide's pictures (docs/teachers.fr.md).
                 "live-ranking-fr.png", "live-report-fr.png", "class-report-fr.png",
                 "class-report-skills-fr.png", "progress-fr.png", "streak-new-fr.png",
                 "leaderboard-fr.png"):
        docs = Path(__file__).resolve().parent.parent / "docs" / "images" / name
        assert (tmp_path / "pictures" / name).read_bytes() == docs.read_bytes(), name
    assert all((tmp_path / "pictures" / name).stat().st_size > 0 for name in written)
    # The rules documents' picture of the coordinates is the one the code draws now (issue 16).
    docs = Path(__file__).resolve().parent.parent / "docs" / "images" / "rithmo-squares.png"
    assert (tmp_path / "pictures" / "rithmo-squares.png").read_bytes() == docs.read_bytes()
    # The odds' won and lost battles in the 20 Digits' rules books are the ones drawn now.
    for name in ("odds-won.gif", "odds-lost-fr.gif"):
        assert (tmp_path / "pictures" / name).read_bytes() == (docs.parent / name).read_bytes()


def test_the_mcts_experiment_still_plays_legal_ladder_games() -> None:
    # Kept so that "MCTS lost" can be measured again: it must keep playing the engine's turns.
    from tools.ladder.rithmo import GameSpec, play_game

    for upper, lower in (("mcts", "random"), ("strong", "mcts@60")):
        spec = GameSpec(upper, lower, 0, seed=3, opening=2, move_limit=6,
                        nodes=(("strong", 60),), seconds=())
        result = play_game(spec)
        assert result.turns == 6 and result.reason and result.record
        assert play_game(spec).record == result.record  # seeded: the same game again
