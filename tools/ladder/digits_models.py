"""The solo levels measured on each player model: ``python -m tools.ladder.digits_models
[--matches 100] [--first 0] [--jobs 1] [--levels …] [--players …] [--trace]``.

For each level and player model, plays the matches ``python -m bot.digits match --solo --level L
--seed N --player P`` plays, for N = 0 … matches − 1 (``--first`` moves the range; the same
function, :func:`bot.digits.levels.play_solo`), and prints a table: the player's win rate with a
95 % (Wilson) interval, and the late collapses: of the matches where the player led by 5 lives or
more after round 5, the share it did not win (the aim: at most 10 %). ``--trace`` prints, match by
match, the lives and the gold worth of both slates after each round
(:func:`bot.digits.ghosts.slate_cost`: what the digits cost in the shop), to see where a lead is
lost.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from bot.digits.ghosts import slate_cost
from bot.digits.levels import LEVELS, PLAYER, play_solo
from bot.digits.match import GHOST, Match
from bot.digits.players import PLAYERS
from tools.ladder.digits_levels import wilson

#: The aims of issue "games a child wins": (level, model) → (low, high) win rate in %.
AIMS: dict[tuple[str, str], tuple[float, float]] = {
    ("gentle", "greedy"): (75.0, 100.0), ("gentle", "novice"): (55.0, 100.0),
    ("gentle", "baseline"): (70.0, 100.0),
    ("fair", "greedy"): (40.0, 60.0), ("fair", "baseline"): (40.0, 60.0),
    ("strong", "baseline"): (0.0, 30.0),
}
#: A lead after this round ...
LEAD_ROUND = 5
#: ... of this many lives or more should be kept ...
LEAD = 5
#: ... in at least this share of those matches.
KEPT = 0.9


@dataclass(frozen=True, slots=True)
class Result:
    level: str
    player: str
    seed: int
    outcome: str  # "win", "draw" or "loss", the player's
    led: bool  # ahead by LEAD lives or more after round LEAD_ROUND
    rounds: int
    trace: tuple[tuple[int, int, int, int], ...]  # per round: lives A, ghost; worth A, ghost


def outcome(match: Match) -> str:
    return "draw" if match.winner == "draw" else "win" if match.winner == PLAYER else "loss"


def play(level: str, player: str, seed: int) -> Result:
    match = play_solo(seed, level, player=player)
    trace = tuple((r.lives[PLAYER], r.lives[GHOST], slate_cost(r.slates[PLAYER]),
                   slate_cost(r.slates[GHOST])) for r in match.records)
    led = len(trace) >= LEAD_ROUND and trace[LEAD_ROUND - 1][0] - trace[LEAD_ROUND - 1][1] >= LEAD
    return Result(level, player, seed, outcome(match), led, len(trace), trace)


def _play(args: tuple[str, str, int]) -> Result:
    return play(*args)


def ladder(matches: int, levels: tuple[str, ...], players: tuple[str, ...],
           jobs: int = 1, first: int = 0) -> list[Result]:
    games = [(lv, p, s) for lv in levels for p in players
             for s in range(first, first + matches)]
    if jobs <= 1:
        return [_play(g) for g in games]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_play, games, chunksize=8))


def row(results: list[Result], level: str, player: str) -> dict[str, float] | None:
    """The figures of one cell of the table, or None when it has no match."""
    rs = [r for r in results if r.level == level and r.player == player]
    if not rs:
        return None
    n, wins = len(rs), sum(r.outcome == "win" for r in rs)
    low, high = wilson(wins, n)
    led = [r for r in rs if r.led]
    return {"n": n, "wins": wins, "draws": sum(r.outcome == "draw" for r in rs),
            "rate": 100 * wins / n, "low": 100 * low, "high": 100 * high, "led": len(led),
            "collapsed": sum(r.outcome != "win" for r in led),
            "rounds": sum(r.rounds for r in rs) / n}


def meets(level: str, player: str, figures: dict[str, float]) -> bool:
    """Whether a cell meets its aims: the win rate (where the issue sets one) and the late lead
    kept at gentle."""
    aim = AIMS.get((level, player))
    ok = aim is None or aim[0] <= figures["rate"] <= aim[1]
    if level == "gentle" and figures["led"]:
        ok = ok and figures["collapsed"] <= (1 - KEPT) * figures["led"]
    return ok


def table(results: list[Result], levels: tuple[str, ...] = LEVELS,
          players: tuple[str, ...] = tuple(PLAYERS)) -> str:
    lines = ["| Level | Player | Matches | Wins | Draws | Win rate (95 % interval) | Aim "
             "| Led by 5+ after round 5 | Of those, not won | Mean rounds |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for level in levels:
        for player in players:
            f = row(results, level, player)
            if f is None:
                continue
            aim = AIMS.get((level, player))
            aim_text = "—" if aim is None else (
                f"≥ {aim[0]:.0f} %" if aim[1] == 100 else f"≤ {aim[1]:.0f} %" if aim[0] == 0
                else f"{aim[0]:.0f}–{aim[1]:.0f} %")
            late = (f"{f['collapsed']:.0f} ({100 * f['collapsed'] / f['led']:.0f} %)"
                    if f["led"] else "—")
            lines.append(f"| {level} | {player} | {f['n']:.0f} | {f['wins']:.0f} "
                         f"| {f['draws']:.0f} | {f['rate']:.1f} % ({f['low']:.0f}–"
                         f"{f['high']:.0f} %) | {aim_text}"
                         f"{'' if meets(level, player, f) else ' (missed)'} | {f['led']:.0f} "
                         f"| {late} | {f['rounds']:.1f} |")
    return "\n".join(lines)


def traces(results: list[Result]) -> str:
    """Each match, one line: seed, outcome, then per round "lives A–ghost (worth A/ghost)"."""
    return "\n".join(
        f"{r.level} {r.player} seed {r.seed} {r.outcome}{' LED' if r.led else ''}: "
        + "  ".join(f"r{i + 1} {a}–{g} ({wa}/{wg})" for i, (a, g, wa, wg) in enumerate(r.trace))
        for r in results)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.ladder.digits_models",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("--matches", type=int, default=100,
                        help="matches (seeds first … first + matches − 1) per cell "
                             "(default 100)")
    parser.add_argument("--first", type=int, default=0,
                        help="the first seed (default 0; another range checks the levels on "
                             "seeds they were not chosen on)")
    parser.add_argument("--levels", nargs="+", choices=LEVELS, default=list(LEVELS))
    parser.add_argument("--players", nargs="+", choices=tuple(PLAYERS), default=list(PLAYERS))
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--trace", action="store_true",
                        help="print each match's lives and slate worth by round first")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    results = ladder(args.matches, tuple(args.levels), tuple(args.players), args.jobs,
                     args.first)
    wall = time.perf_counter() - start
    if args.trace:
        print(traces(results))
    print(f"Solo levels by player model, seeds {args.first} to "
          f"{args.first + args.matches - 1} (python -m bot.digits "
          f"match --solo --level L --seed N --player P), default settings, {args.jobs} "
          f"process(es), {wall:.0f} s")
    print(table(results, tuple(args.levels), tuple(args.players)))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
