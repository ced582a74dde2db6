"""``python -m tools.ladder.rithmo``: each level of the Rithmomachia opponent plays the one below it
and the scores are printed; ``--speed`` prints the strong level's positions searched per second.

Each pair plays ``--games`` games (40 by default) with alternating colours: games 2k and 2k + 1
share an opening of ``--opening`` random turns (4 by default, two a side: the armies start eight
ranks apart, so nothing can be lost in them) and the stronger level has White in one and Black in
the other. Everything is seeded by ``--seed``, so with node budgets (``--nodes``) a ladder gives
the same games on any machine and with any number of ``--jobs``; ``--time`` gives the searching
levels seconds of CPU a turn instead (as in play, but measured on the process's CPU clock so that
two games sharing a loaded machine get the same thinking; not reproducible). The games use the
class-game victories (body 8 pieces, mediocre; ``--victories`` chooses others) and end at
``--move-limit`` turns by the rules' move limit (a draw, or ``--limit-rule goods``: the greater
value taken wins). A win scores 1, a draw 1/2; the range printed is the 95 % Wilson interval of
the score.

Budgets are per level: ``--nodes 3000`` (every searching level) or ``--nodes
strong=3000,master=12000``; ``--time 0.5`` or ``--time strong=0.5,master=2``. The middle level
always searches one turn (its own cap).

    python -m tools.ladder.rithmo           # random < beginner < middle < strong < master
    python -m tools.ladder.rithmo --pair strong middle --games 20 --time strong=0.2
    python -m tools.ladder.rithmo --pair master strong --games 40 --time strong=0.5,master=2 \
        --move-limit 120 --jobs 2
    taskset -c 0 python -m tools.ladder.rithmo --speed  # positions searched per second, one core
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import multiprocessing.pool
import random
import statistics
import sys
import time
from dataclasses import dataclass

from bot.domain import DomainError
from bot.rithmo.ai import LEVELS, SECONDS, WIN, Searcher, Step, choose_steps, random_steps
from bot.rithmo.board import Board
from bot.rithmo.game import Game
from bot.rithmo.turns import END, Turn
from bot.rithmo.victory import Settings

PAIRS = (("beginner", "random"), ("middle", "beginner"), ("strong", "middle"),
         ("master", "strong"))
DEFAULT_NODES = 3000
#: Master's node budget when the ladder is run on nodes: four times strong's, as 2 s is to 0.5 s.
DEFAULT_NODES_BY_LEVEL = {"strong": DEFAULT_NODES, "master": 4 * DEFAULT_NODES}
DEFAULT_MOVE_LIMIT = 200
REQUIRED_SCORE = 0.75


@dataclass(frozen=True)
class GameSpec:
    """One ladder game: ``upper`` (the stronger level) against ``lower``."""

    upper: str
    lower: str
    index: int
    seed: int
    opening: int
    move_limit: int
    nodes: tuple[tuple[str, int], ...]  # node budgets a turn, by level
    seconds: tuple[tuple[str, float], ...]  # or CPU seconds a turn, by level
    victories: tuple[str, ...] = ("body", "mediocre")
    limit_rule: str = "draw"
    wall_clock: bool = False  # time budgets on the wall clock (as in play) instead of CPU time


@dataclass(frozen=True)
class GameResult:
    spec: GameSpec
    upper_score: float  # 1 win, 0.5 draw, 0 loss, for the upper level
    reason: str
    turns: int
    seconds: dict[str, float]  # CPU seconds spent choosing turns, by level
    record: str


def steps_for(level: str, board: Board, settings: Settings, rng: random.Random,
              turns_played: int, nodes: dict[str, int], seconds: dict[str, float],
              wall_clock: bool = False) -> list[Step]:
    """The turn a level plays, with its budget. For measurements, ``strong@N`` is the strong level
    with N nodes a turn whatever the ladder's budget, and ``mcts`` (or ``mcts@N``) the tree
    search of :mod:`tools.experiments.rithmo_mcts` with the same node budget."""
    name, _, budget = level.partition("@")
    n: int | None = nodes.get(name)
    t: float | None = seconds.get(name)
    if budget:
        n, t = int(budget), None
    if name == "mcts":  # the tree search gets the strong level's node budget unless given one
        from tools.experiments.rithmo_mcts import MCTS

        if not budget:
            n = nodes.get("strong")

        return MCTS(settings, n or DEFAULT_NODES, rng).search(board, turns_played)
    return choose_steps(board, settings, name, rng, turns_played=turns_played, nodes=n,
                        seconds=t, clock=time.perf_counter if wall_clock else time.process_time)


def play_game(spec: GameSpec) -> GameResult:
    """Play one ladder game and say how it ended."""
    settings = Settings.make(list(spec.victories), move_limit=spec.move_limit,
                             limit_rule=spec.limit_rule)
    game = Game(settings)
    opening_rng = random.Random(f"{spec.seed}:{spec.upper}:{spec.lower}:opening:{spec.index // 2}")
    for _ in range(spec.opening):
        steps = random_steps(game.board, opening_rng)
        game.push(Turn.from_steps([s for s in steps if s is not END]))
    upper_side = spec.index % 2  # the upper level is White in even games, Black in odd ones
    levels = {upper_side: spec.upper, 1 - upper_side: spec.lower}
    rngs = {side: random.Random(f"{spec.seed}:{spec.upper}:{spec.lower}:{spec.index}:{side}")
            for side in (0, 1)}
    spent = {spec.upper: 0.0, spec.lower: 0.0}
    nodes, seconds = dict(spec.nodes), dict(spec.seconds)
    while not game.is_over():
        side = game.to_move
        t = time.process_time()
        steps = steps_for(levels[side], game.board, settings, rngs[side], len(game.turns),
                          nodes, seconds, spec.wall_clock)
        spent[levels[side]] += time.process_time() - t
        game.push(Turn.from_steps([s for s in steps if s is not END]))
    out = game.outcome()
    assert out is not None
    score = 0.5 if out.winner is None else 1.0 if out.winner == upper_side else 0.0
    reason = out.victory or out.reason
    return GameResult(spec, score, reason, len(game.turns), spent, game.record())


def parse_budgets(text: str | None, kind: type) -> dict[str, float]:
    """``"0.5"`` (every searching level) or ``"strong=0.5,master=2"``, as a dict by level."""
    if text is None:
        return {}
    if "=" not in text:
        return {level: kind(text) for level in SECONDS}
    out = {}
    for item in text.split(","):
        level, _, value = item.partition("=")
        if level.strip() not in SECONDS:
            raise ValueError(f"a budget is for {', '.join(SECONDS)}, not {level!r}")
        out[level.strip()] = kind(value)
    return out


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a score rate (a draw counting as half a win)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def run_pair(upper: str, lower: str, args: argparse.Namespace,
             pool: multiprocessing.pool.Pool | None) -> list[GameResult]:
    specs = [GameSpec(upper, lower, i, args.seed, args.opening, args.move_limit,
                      tuple(args.node_budgets.items()), tuple(args.time_budgets.items()),
                      tuple(args.victories.split(",")), args.limit_rule, args.clock == "wall")
             for i in range(args.games)]
    games = map(play_game, specs) if pool is None else pool.imap_unordered(play_game, specs)
    results = []
    for r in games:  # one line a game as it ends (to standard error): a long run shows progress
        results.append(r)
        score = sum(x.upper_score for x in results)
        print(f"  game {r.spec.index}: {upper} {('lost', 'drew', 'won')[int(2 * r.upper_score)]}"
              f" ({r.reason}, {r.turns} turns); {score:g} / {len(results)} so far",
              file=sys.stderr, flush=True)
    return sorted(results, key=lambda x: x.spec.index)


def print_pair(results: list[GameResult], wall: float) -> float:
    upper, lower = results[0].spec.upper, results[0].spec.lower
    n = len(results)
    score = sum(r.upper_score for r in results)
    wins = sum(r.upper_score == 1 for r in results)
    draws = sum(r.upper_score == 0.5 for r in results)
    losses = n - wins - draws
    ends: dict[str, int] = {}
    for r in results:
        ends[r.reason] = ends.get(r.reason, 0) + 1
    turns = statistics.mean(r.turns for r in results)
    upper_cpu = sum(r.seconds[upper] for r in results)
    upper_turns = sum((r.turns - r.spec.opening + (r.spec.index % 2 == 0)) // 2 for r in results)
    lower_cpu = sum(r.seconds[lower] for r in results)
    lower_turns = sum(r.turns - r.spec.opening for r in results) - upper_turns
    ok = "yes" if score / n >= REQUIRED_SCORE else "NO"
    lo, hi = wilson(score, n)
    print(f"| {upper} vs {lower} | {score:g} / {n} ({100 * score / n:.1f}%) | "
          f"{100 * lo:.0f}–{100 * hi:.0f}% | {wins}-{draws}-{losses} | {turns:.0f} | "
          f"{', '.join(f'{k} {v}' for k, v in sorted(ends.items()))} | "
          f"{1000 * upper_cpu / max(upper_turns, 1):.0f} ms | "
          f"{1000 * lower_cpu / max(lower_turns, 1):.0f} ms | {wall:.0f} s | {ok} |", flush=True)
    return score / n


def speed(args: argparse.Namespace) -> int:
    """Positions searched per second by the strong level (CPU time of this process)."""
    from tools.bench.rithmo import midgame_positions

    settings = Settings()
    boards = [Board.start(), *midgame_positions(args.positions, args.seed)]
    nodes = args.node_budgets["strong"]
    rates = []
    depths = []
    total_nodes = 0
    total_cpu = 0.0
    for i, b in enumerate(boards):
        s = Searcher(settings, nodes=nodes, rng=random.Random(i), margin=0)
        t = time.process_time()
        r = s.search(b)
        dt = time.process_time() - t
        total_nodes += r.nodes
        total_cpu += dt
        rates.append(r.nodes / dt)
        depths.append(r.depth)
        if i == 0:
            print(f"start position: {r.nodes / dt:,.0f} positions searched per second "
                  f"({r.nodes} nodes, depth {r.depth} completed, {dt:.2f} s)")
    mid = rates[1:]
    print(f"{len(mid)} random mid-game positions, {nodes} nodes each: "
          f"{statistics.median(mid):,.0f} positions per second median "
          f"({min(mid):,.0f}-{max(mid):,.0f}), {total_nodes / total_cpu:,.0f} overall; "
          f"depth completed: median {statistics.median(depths[1:]):g}, "
          f"min {min(depths[1:])}, max {max(depths[1:])}")
    if args.time_check:
        ds = []
        for i, b in enumerate(boards[: 1 + args.time_check]):
            s = Searcher(settings, seconds=args.time_check_seconds, rng=random.Random(i),
                         clock=time.process_time)
            r = s.search(b)
            forced = ", a forced end found" if abs(r.score) >= WIN - 1000 else ""
            ds.append(f"{r.depth} ({r.nodes} nodes{forced})")
        print(f"with {args.time_check_seconds:g} s of CPU a turn (the play default), on the start "
              f"position and {args.time_check} mid-game ones: depth completed "
              f"{'; '.join(ds)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.ladder.rithmo",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games a pair (default 40)")
    ap.add_argument("--seed", type=int, default=2026)
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument("--nodes", default=None,
                        help="node budgets a turn: N, or strong=N,master=M (default strong="
                             f"{DEFAULT_NODES},master={4 * DEFAULT_NODES})")
    budget.add_argument("--time", default=None,
                        help="CPU seconds a turn instead: S, or strong=S,master=T (a level not "
                             "named thinks its play default; not reproducible)")
    ap.add_argument("--move-limit", type=int, default=DEFAULT_MOVE_LIMIT,
                    help=f"turns in all before the limit rule (default {DEFAULT_MOVE_LIMIT})")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="--time on the process's CPU clock (fair on a loaded machine, default) "
                         "or the wall clock (as in play: on a loaded machine both levels get "
                         "fewer positions, and the games end sooner)")
    ap.add_argument("--limit-rule", choices=("draw", "goods"), default="draw",
                    help="what the move limit gives (the rules' two: a draw, or the greater "
                         "value taken wins)")
    ap.add_argument("--opening", type=int, default=4, help="random turns opening each game pair")
    ap.add_argument("--victories", default="body,mediocre",
                    help="the victories chosen, comma-separated, class-game thresholds "
                         "(default body,mediocre)")
    ap.add_argument("--jobs", type=int, default=2, help="games played at once (processes)")
    ap.add_argument("--pair", nargs=2, metavar=("UPPER", "LOWER"),
                    help=f"play only this pair: levels {', '.join(LEVELS)}; strong@N for N nodes "
                         "a turn, mcts or mcts@N for the measured tree search")
    ap.add_argument("--speed", action="store_true",
                    help="print positions searched per second instead (run with taskset -c 0)")
    ap.add_argument("--positions", type=int, default=30, help="--speed: mid-game positions")
    ap.add_argument("--time-check", type=int, default=5,
                    help="--speed: positions searched with a time budget too")
    ap.add_argument("--time-check-seconds", type=float, default=2.0)
    args = ap.parse_args(argv)
    try:
        Settings.make(args.victories.split(","))
        if args.time is not None:
            args.time_budgets = {**SECONDS, **parse_budgets(args.time, float)}
            args.node_budgets = {}
        else:
            args.time_budgets = {}
            args.node_budgets = {**DEFAULT_NODES_BY_LEVEL, **parse_budgets(args.nodes, int)}
    except DomainError as err:
        ap.error(str(err))
    except ValueError as err:
        ap.error(str(err))
    for level in args.pair or ():
        if level.partition("@")[0] not in (*LEVELS, "mcts"):
            ap.error(f"unknown level {level!r}: {', '.join(LEVELS)}, mcts")
    if args.speed:
        return speed(args)

    pairs = [tuple(args.pair)] if args.pair else list(PAIRS)
    budget_text = (", ".join(f"{k} {v:g} s" for k, v in args.time_budgets.items())
                   + f" of {'wall-clock' if args.clock == 'wall' else 'CPU'} time a turn"
                   if args.time_budgets
                   else ", ".join(f"{k} {v} nodes" for k, v in args.node_budgets.items())
                   + " a turn")
    print(f"Ladder: {args.games} games a pair, seed {args.seed}, {budget_text}, "
          f"move limit {args.move_limit} turns (then {args.limit_rule}), {args.opening} random "
          f"opening turns, victories {args.victories} (class-game thresholds), {args.jobs} "
          f"processes, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print("| Pair | Score of the upper level | 95% range | W-D-L | Turns a game | Endings | "
          "Upper's CPU a turn | Lower's CPU a turn | Wall time | ≥ 75% |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    t0 = time.perf_counter()
    ok = True
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    try:
        for upper, lower in pairs:
            t = time.perf_counter()
            results = run_pair(upper, lower, args, pool)
            ok &= print_pair(results, time.perf_counter() - t) >= REQUIRED_SCORE
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    print(f"Total wall time {time.perf_counter() - t0:.0f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
