"""The solo levels, measured: ``python -m tools.ladder.digits_levels [--matches 200] [--jobs 1]
[--levels gentle fair strong]``.

For each level, plays the matches ``python -m bot.digits match --solo --level LEVEL --seed N``
plays, for N = 0 … matches − 1 (the same function, :func:`bot.digits.levels.play_solo`: the
baseline player alone against the shadow of that level, no ghost pool), and prints a table: wins,
draws and losses of the baseline player, its win rate with a 95 % (Wilson) interval, and the mean
rounds a match lasted, beside the aim of the level. Any row can be replayed on its own
with the command above.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from bot.digits.levels import LEVELS, PLAYER, play_solo

#: What each level aims at: the baseline player's win rate, as (low, high) in % (issue "games a
#: child wins", which replaced issue 15's about 70 % / 40–60 % / at most 25 %; the other player
#: models' aims are tools.ladder.digits_models's).
AIMS: dict[str, tuple[float, float]] = {"gentle": (70.0, 100.0), "fair": (40.0, 60.0),
                                        "strong": (0.0, 30.0)}
AIM_TEXT = {"gentle": "at least 70 %", "fair": "40–60 %", "strong": "at most 30 %"}


@dataclass(frozen=True, slots=True)
class Result:
    level: str
    seed: int
    outcome: str  # "win", "draw" or "loss", the baseline player's
    rounds: int
    cpu: float  # seconds


def play(level: str, seed: int) -> Result:
    start = time.process_time()
    match = play_solo(seed, level)
    outcome = ("draw" if match.winner == "draw" else "win" if match.winner == PLAYER
               else "loss")
    return Result(level, seed, outcome, len(match.records), time.process_time() - start)


def _play(args: tuple[str, int]) -> Result:
    return play(*args)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate of ``wins`` in ``n``, as fractions."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def ladder(matches: int, levels: tuple[str, ...] = LEVELS, jobs: int = 1) -> list[Result]:
    games = [(level, seed) for level in levels for seed in range(matches)]
    if jobs <= 1:
        return [_play(g) for g in games]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_play, games, chunksize=4))


def within_aim(level: str, results: list[Result]) -> bool:
    """Whether the level's measured win rate is within its aim."""
    rs = [r for r in results if r.level == level]
    low, high = AIMS[level]
    rate = 100 * sum(r.outcome == "win" for r in rs) / len(rs) if rs else 0.0
    return low <= rate <= high


def table(results: list[Result]) -> str:
    rows = ["| Level | Matches | Wins | Draws | Losses | Win rate (95 % interval) | Aim "
            "| Mean rounds | CPU per match |",
            "|---|---|---|---|---|---|---|---|---|"]
    for level in LEVELS:
        rs = [r for r in results if r.level == level]
        if not rs:
            continue
        n = len(rs)
        w = sum(r.outcome == "win" for r in rs)
        d = sum(r.outcome == "draw" for r in rs)
        low, high = wilson(w, n)
        rounds = sum(r.rounds for r in rs) / n
        cpu = sum(r.cpu for r in rs) / n
        rows.append(f"| {level} | {n} | {w} | {d} | {n - w - d} | {100 * w / n:.1f} % "
                    f"({100 * low:.0f}–{100 * high:.0f} %) | {AIM_TEXT[level]}"
                    f"{'' if within_aim(level, results) else ' (missed)'} | {rounds:.1f} "
                    f"| {1000 * cpu:.0f} ms |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.ladder.digits_levels",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("--matches", type=int, default=200,
                        help="matches (seeds 0 … matches − 1) per level (default 200)")
    parser.add_argument("--levels", nargs="+", choices=LEVELS, default=list(LEVELS),
                        help="the levels to measure (default all)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    results = ladder(args.matches, tuple(args.levels), args.jobs)
    wall = time.perf_counter() - start
    print(f"Solo levels: BotPlayer alone against the shadow, seeds 0 to {args.matches - 1} "
          f"(python -m bot.digits match --solo --level LEVEL --seed N), default settings, "
          f"{args.jobs} process(es), {wall:.0f} s")
    print(table(results))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
