"""``python -m tools.bench.focus_compare``: a Focus interaction's cost, an old tree beside today's.

    .venv/bin/python -m tools.bench.focus_compare --old c7c20d6 --rounds 2
    .venv/bin/python -m tools.bench.focus_compare --old c7c20d6 --before main --rounds 2
    .venv/bin/python -m tools.bench.focus_compare --old c7c20d6 --record old.json  # keep it
    .venv/bin/python -m tools.bench.focus_compare --baseline old.json --rounds 3   # reuse it
    .venv/bin/python -m tools.bench.focus_compare --profile /tmp/focus.prof         # the steps
    .venv/bin/python -m tools.bench.focus_compare --old c7c20d6 --floor             # the floor

Issue 24. Each round runs, one after the other: the old tree's ``focus`` scenario of the load
benchmark (``python -m tools.load focus``, or ``bot.local.bench`` in a tree from before issue
13), then today's (this tree's) ``focus``, ``card`` and ``rithmo``; with ``--before`` also that
tree's ``focus`` and ``rithmo`` (today's main, say, before a change: Rithmomachia's boards no
later than there). With ``--floor``, also ``focus`` and ``card`` against
``tools.bench.floor_bot``: a bot of discord.py alone that gives the members the same exchanges
(the embeds, the button, the modal, the edits) and does nothing else, the floor under any bot on
discord.py; its own focus / card ratio, and today's focus against it, say how much of a Focus
interaction is Ardoise's. Every run is a fresh pair of processes (the bot pinned to core 0, the
stand-in and the members to core 1), so the trees alternate on the same machine within minutes,
and the figures that matter are ratios taken side by side: the bot's CPU per Focus interaction
against the ``card`` scenario's (the floor of an interaction: a command and an embed) and against
the old tree's. Printed, per run and as medians: the bot's CPU an interaction, how long its event
loop waited for its core, the first answers' 95th percentile (and for ``rithmo`` a turn to its
board), the machine's load average as the run started.

``--old COMMIT`` checks the commit out once in a git worktree (``/tmp/ardoise-<commit>``, reused
after), ``--old-tree DIR`` uses a tree already there, ``--baseline FILE`` the figures ``--record
FILE`` kept of an old tree (then no old tree runs: the ratio to it is only as good as the two
machines' likeness). The scenario's size: ``--members``, ``--games``, ``--turns`` (the load
benchmark's defaults).

``--profile FILE`` runs today's ``focus`` once with the bot profiled, its event loop and its
threads (aiosqlite's two included: ``tools.load --profile``), and prints what each step of a
practice answer costs, per answer: reading the interaction, the answer stored with its mastery
(the bot's side, then the database threads'), the reply drawn and sent. Profiled times are
inflated several times over; read them against each other.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_CPU = re.compile(r"^  bot: ([\d.]+) ms of CPU an interaction .*?waited ([\d.]+) s", re.M)
_ALL = re.compile(r"^  all\s+all\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+ms", re.M)
_BOARD = re.compile(r"^  turn → board\s+posted\s+(\d+)\s+([\d.]+)\s+([\d.]+)", re.M)
_ERRORS = re.compile(r"^  errors: (\d+)", re.M)


@dataclass
class Run:
    """The figures of one scenario run in one tree."""

    tree: str  # "old", "before", "today", "floor" (``tools.bench.floor_bot``)
    scenario: str
    cpu_ms: float  # the bot's CPU an interaction
    waited_s: float  # its event loop ready to run, without its core
    p95_ms: float  # first answers, all kinds
    board_p95_ms: float | None  # rithmo: a turn to its board
    errors: int
    load: float  # the 1-minute load average as the run started


def parse(output: str, tree: str, scenario: str, load: float) -> Run:
    """A run's figures from the load benchmark's report (``Figures.report``)."""
    cpu, alls, errors = _CPU.search(output), _ALL.search(output), _ERRORS.search(output)
    if cpu is None or alls is None or errors is None:
        raise RuntimeError(f"no figures in the {tree} tree's {scenario} output:\n{output}")
    board = _BOARD.search(output)
    return Run(tree, scenario, float(cpu[1]), float(cpu[2]), float(alls[3]),
               None if board is None else float(board[3]), int(errors[1]), load)


def load_tool(tree: Path) -> str:
    """The load benchmark's module in ``tree`` (named ``bot.local.bench`` before issue 13)."""
    return "tools.load" if (tree / "tools" / "load.py").exists() else "bot.local.bench"


def worktree(commit: str) -> Path:
    """A checkout of ``commit`` beside the repository (made once, reused)."""
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", commit], check=True,
                         capture_output=True, text=True).stdout.strip()
    folder = Path("/tmp") / f"ardoise-{sha}"
    if not (folder / "bot").is_dir():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(folder), sha],
                       check=True, capture_output=True)
    return folder


def run(tree: Path, label: str, scenario: str, size: Sequence[str],
        extra: Sequence[str] = ()) -> Run:
    """One scenario of the load benchmark in ``tree``, in processes of its own."""
    load = os.getloadavg()[0]
    command = [sys.executable, "-m", load_tool(tree), scenario, *size, *extra]
    done = subprocess.run(command, cwd=tree, capture_output=True, text=True, timeout=900)
    return parse(done.stdout + done.stderr, label, scenario, load)


def median(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def medians(runs: Sequence[Run], tree: str, scenario: str) -> dict[str, float | None]:
    mine = [r for r in runs if r.tree == tree and r.scenario == scenario]
    return {"cpu_ms": median([r.cpu_ms for r in mine]),
            "waited_s": median([r.waited_s for r in mine]),
            "p95_ms": median([r.p95_ms for r in mine]),
            "board_p95_ms": median([r.board_p95_ms for r in mine]),
            "runs": len(mine)}


def _ratio(a: float | None, b: float | None) -> str:
    return "" if a is None or not b else f"{a / b:.2f}"


def _ms(value: float | None, unit: str = "ms") -> str:
    return "" if value is None else f"{value:,.2f} {unit}" if unit == "ms" and value < 10 \
        else f"{value:,.0f} {unit}" if unit == "ms" else f"{value:.2f} {unit}"


def table(runs: Sequence[Run], baseline: dict[str, dict[str, float | None]] | None) -> str:
    """The runs one by one, then the medians and their ratios."""
    lines = ["| run | tree | scenario | bot CPU an interaction | loop waited | p95 first answer |"
             " p95 turn → board | errors | load |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for i, r in enumerate(runs, 1):
        lines.append(f"| {i} | {r.tree} | {r.scenario} | {r.cpu_ms:.2f} ms | {r.waited_s:.2f} s"
                     f" | {r.p95_ms:,.0f} ms | {_ms(r.board_p95_ms)} | {r.errors} |"
                     f" {r.load:.2f} |")
    figures = {(tree, scenario): medians(runs, tree, scenario)
               for tree, scenario in {(r.tree, r.scenario) for r in runs}}
    if baseline is not None:
        figures[("old", "focus")] = baseline["focus"]
    lines += ["", "| medians | bot CPU an interaction | loop waited | p95 first answer |"
              " p95 turn → board | runs |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
    order = [("old", "focus"), ("before", "focus"), ("today", "focus"), ("today", "card"),
             ("floor", "focus"), ("floor", "card"), ("before", "rithmo"), ("today", "rithmo")]
    for key in order:
        if key in figures:
            f = figures[key]
            lines.append(f"| {key[0]} {key[1]} | {_ms(f['cpu_ms'])} | {_ms(f['waited_s'], 's')}"
                         f" | {_ms(f['p95_ms'])} | {_ms(f['board_p95_ms'])} | {f['runs']:.0f} |")
    today, card = figures.get(("today", "focus")), figures.get(("today", "card"))
    old, before = figures.get(("old", "focus")), figures.get(("before", "focus"))
    lines.append("")
    if today and card:
        lines.append(f"- focus / card, bot CPU an interaction: today "
                     f"{_ratio(today['cpu_ms'], card['cpu_ms'])}"
                     + (f", old {_ratio(old['cpu_ms'], card['cpu_ms'])}" if old else "")
                     + (f", before {_ratio(before['cpu_ms'], card['cpu_ms'])}" if before else "")
                     + " (aim: today at most 1.3)")
    for name, other in (("old", old), ("before", before)):
        if today and other:
            cpu = _ratio(today["cpu_ms"], other["cpu_ms"])
            lines.append(f"- today / {name}, focus: bot CPU {cpu}"
                         f", loop waited {_ratio(today['waited_s'], other['waited_s'])}, p95 first"
                         f" answer {_ratio(today['p95_ms'], other['p95_ms'])}"
                         + (" (aim: p95 at most 0.5)" if name == "old" else ""))
    floor, floor_card = figures.get(("floor", "focus")), figures.get(("floor", "card"))
    if floor and floor_card:
        ratio = _ratio(floor["cpu_ms"], floor_card["cpu_ms"])
        lines.append(f"- discord.py's floor (tools.bench.floor_bot, the same exchanges): focus / "
                     f"card, bot CPU an interaction {ratio}")
    if floor and today:
        lines.append(f"- today / floor, focus: bot CPU {_ratio(today['cpu_ms'], floor['cpu_ms'])}"
                     f", p95 first answer {_ratio(today['p95_ms'], floor['p95_ms'])}"
                     + (f"; floor / old, p95 first answer {_ratio(floor['p95_ms'], old['p95_ms'])}"
                        if old else ""))
    rithmo, rithmo_before = figures.get(("today", "rithmo")), figures.get(("before", "rithmo"))
    if rithmo and rithmo_before:
        lines.append(f"- today / before, rithmo: p95 turn → board "
                     f"{_ratio(rithmo['board_p95_ms'], rithmo_before['board_p95_ms'])}, bot CPU "
                     f"{_ratio(rithmo['cpu_ms'], rithmo_before['cpu_ms'])} (aim: at most 1)")
    loads = [r.load for r in runs]
    if loads:
        lines.append(f"- load average (1 minute) as the runs started: {min(loads):.2f}–"
                     f"{max(loads):.2f} on {os.cpu_count()} cores")
    return "\n".join(lines)


# --- The steps of a practice answer, from a profile ------------------------------------------

#: (step, functions whose cumulative time is the step's), summed over the event loop's profile.
STEPS = (
    ("read: discord.py reads the submission", ("discord/state.py:parse_interaction_create",)),
    ("read: the answer read and marked", ("bot/focus/answers.py:read_for",
                                          "bot/focus/round.py:mark")),
    ("mastery: the items moved (Python)", ("db/mastery.py:moves", "db/mastery.py:apply")),
    ("store: the answer's statements, the bot's side", ("db/focus.py:record",)),
    ("render: the next question or the summary", ("bot/ui/focus_run.py:question_embed",
                                                  "bot/ui/focus_run.py:question_view",
                                                  "bot/ui/focus.py:practice_embed")),
    ("send: the reply (fitted, then HTTP)", ("bot/replies.py:update",)),
    # Once a round, spread over its answers: the settings, the player, the mastery read and
    # the questions drawn; then the level moved and the round read as stored.
    ("round: its start (reads, the draw), per answer", ("bot/play/focus.py:start_practice",)),
    ("round: its end (reads, the level), per answer", ("bot/play/focus.py:end_practice",)),
)


def _cumulative(stats: dict[tuple[str, int, str], tuple], wanted: str) -> float:
    path, name = wanted.rsplit(":", 1)
    return sum(value[3] for (file, _, function), value in stats.items()
               if function == name and file.endswith(path))


def _calls(stats: dict[tuple[str, int, str], tuple], wanted: str) -> int:
    path, name = wanted.rsplit(":", 1)
    # Primitive calls: a coroutine counts once per resumption otherwise.
    return max((value[0] for (file, _, function), value in stats.items()
                if function == name and file.endswith(path)), default=0)


def steps(profile: str) -> str:
    """What each step of a practice answer cost, per answer, from ``tools.load --profile``'s two
    files (the event loop, ``FILE``; the threads, ``FILE.threads``)."""
    import pstats

    loop = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    # Called once an answer stored (a coroutine would count once per resumption).
    marked = _calls(loop, "bot/ui/focus_run.py:stored_answer") or 1
    # The loop's busy time: everything but waiting in epoll for something to do. A step's share
    # of it is steadier than its time on a shared machine (the wall clock counts other
    # processes' turns).
    busy_loop = sum(value[2] for (_, _, function), value in loop.items()
                    if function != "<method 'poll' of 'select.epoll' objects>")
    lines = [f"per answer ({marked} answers; wall time in each thread under the profiler, and"
             f" the share of the event loop's busy time, {busy_loop:.2f} s):"]
    mastery = sum(_cumulative(loop, f) for f in STEPS[2][1])
    for step, functions in STEPS:
        spent = sum(_cumulative(loop, f) for f in functions)
        if step.startswith("store"):
            spent -= mastery  # the record's time without the model's Python
        lines.append(f"  {step:<52} {spent / marked * 1000:7.3f} ms {spent / busy_loop:6.1%}")
    # The database threads' time is wall time too: against the loop's busy time it compares
    # across runs at different loads.
    threads = Path(f"{profile}.threads")
    if threads.exists():
        stats = pstats.Stats(str(threads)).stats  # type: ignore[attr-defined]
        # The threads' own work: everything but waiting for the next statement.
        busy = sum(value[2] for (file, _, function), value in stats.items()
                   if function not in ("<method 'get' of '_queue.SimpleQueue' objects>",
                                       "<method 'acquire' of '_thread.lock' objects>"))
        lines.append(f"  {'store: the database threads (every statement of a round)':<52} "
                     f"{busy / marked * 1000:7.3f} ms {busy / busy_loop:6.1%} of the loop's")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.focus_compare",
                                     description=__doc__.splitlines()[0].split(": ", 1)[1])
    old = parser.add_mutually_exclusive_group()
    old.add_argument("--old", metavar="COMMIT", help="the old tree: a commit (e.g. c7c20d6)")
    old.add_argument("--old-tree", metavar="DIR", help="the old tree: a checkout already there")
    old.add_argument("--baseline", metavar="FILE", help="the old tree's figures, --record'ed")
    parser.add_argument("--before", metavar="COMMIT",
                        help="also this commit's focus and rithmo (e.g. main before a change)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of runs (default 2)")
    parser.add_argument("--record", metavar="FILE", help="keep the old tree's medians here")
    parser.add_argument("--no-rithmo", action="store_true", help="skip the rithmo scenario")
    parser.add_argument("--floor", action="store_true",
                        help="also focus and card against tools.bench.floor_bot (discord.py "
                        "alone, the same exchanges): the floor under Ardoise's figures")
    parser.add_argument("--members", type=int, help="members of focus and card (default 200)")
    parser.add_argument("--games", type=int, help="rithmo games (default 50)")
    parser.add_argument("--turns", type=int, help="rithmo turns a player (default 10)")
    parser.add_argument("--profile", metavar="FILE",
                        help="instead: today's focus once, profiled into FILE; the steps' costs")
    args = parser.parse_args(argv)
    size = [f"--{name}={value}" for name in ("members", "games", "turns")
            if (value := getattr(args, name)) is not None]
    if args.profile:
        result = run(ROOT, "today", "focus", size, ["--profile", args.profile])
        print(f"today focus, profiled: {result.cpu_ms:.2f} ms of bot CPU an interaction "
              f"(load {result.load:.2f})")
        print(steps(args.profile))
        return
    old_tree = (worktree(args.old) if args.old else
                Path(args.old_tree) if args.old_tree else None)
    before_tree = worktree(args.before) if args.before else None
    baseline = json.loads(Path(args.baseline).read_text()) if args.baseline else None
    runs: list[Run] = []
    for round_ in range(args.rounds):
        plan: list[tuple[Path, str, str]] = []
        if old_tree is not None:
            plan.append((old_tree, "old", "focus"))
        if before_tree is not None:
            plan.append((before_tree, "before", "focus"))
        plan += [(ROOT, "today", "focus"), (ROOT, "today", "card")]
        if not args.no_rithmo:
            if before_tree is not None:
                plan.append((before_tree, "before", "rithmo"))
            plan.append((ROOT, "today", "rithmo"))
        plan += [(ROOT, "floor", "focus"), (ROOT, "floor", "card")] if args.floor else []
        for tree, label, scenario in plan:
            result = run(tree, label, scenario, size, ["--floor"] if label == "floor" else [])
            runs.append(result)
            print(f"round {round_ + 1}: {label} {scenario}: {result.cpu_ms:.2f} ms of bot CPU, "
                  f"loop waited {result.waited_s:.2f} s, p95 {result.p95_ms:.0f} ms"
                  + ("" if result.board_p95_ms is None
                     else f", turn → board p95 {result.board_p95_ms:.0f} ms")
                  + f", {result.errors} errors (load {result.load:.2f})", flush=True)
    if args.record and old_tree is not None:
        Path(args.record).write_text(json.dumps(
            {"tree": str(args.old or args.old_tree), "focus": medians(runs, "old", "focus"),
             "runs": [asdict(r) for r in runs if r.tree == "old"]}, indent=1) + "\n")
    print(table(runs, baseline))
    if any(r.errors for r in runs):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
