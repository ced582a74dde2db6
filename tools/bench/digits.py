"""Battles per second: ``taskset -c 0 .venv/bin/python -m tools.bench.digits``.

Fights random full slates (8 digits against 8, every tier, levels 1–3, Focus 0–6, fixed seed) and
prints the rate of each way in:

- ``outcome``: winner and number of exchanges only (what the odds simulator calls);
- ``fight(log=False)``: a result with the opening and the survivors, no log;
- ``fight``: the full result with the log of every exchange (its snapshots not yet replayed);
- ``fight`` + ``snapshots``: the same, with the state after every exchange replayed too.

The slates are drawn before the clock starts; every battle is fought from scratch, nothing is
carried from one battle to the next. Times are the process's CPU time (``time.process_time``), so
that other programs sharing the core weigh less on the figure; the best of ``--repeat`` passes is
kept, the ways taking turns.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from bot.digits.battle import fight, outcome
from bot.digits.catalogue import DIGITS, MAX_LEVEL
from bot.digits.slate import Piece, Slate

Match = tuple[Slate, Slate, int, int]


def random_full_slate(rng: random.Random) -> Slate:
    return Slate(tuple(Piece(rng.choice(DIGITS).key, rng.randint(1, MAX_LEVEL))
                       for _ in range(8)))


def random_matches(count: int, seed: int) -> list[Match]:
    rng = random.Random(seed)
    return [(random_full_slate(rng), random_full_slate(rng), rng.randint(0, 6), rng.randint(0, 6))
            for _ in range(count)]


def timed_pass(run: Callable[[Match], Any], matches: list[Match]) -> float:
    """CPU seconds to fight all the matches once."""
    start = time.process_time()
    for m in matches:
        run(m)
    return time.process_time() - start


WAYS: dict[str, Callable[[Match], Any]] = {
    "outcome": lambda m: outcome(*m),
    "fight(log=False)": lambda m: fight(*m, log=False),
    "fight": lambda m: fight(*m),
    "fight + snapshots": lambda m: fight(*m).snapshots,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.digits",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20_000, help="battles per pass")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=5, help="timed passes; the best is kept")
    args = parser.parse_args(argv)
    matches = random_matches(args.count, args.seed)
    results = [outcome(*m) for m in matches]
    exchanges = sum(x for _, x in results) / len(results)
    print(f"{args.count} random full battles (8 vs 8, all tiers, levels 1-3, Focus 0-6), "
          f"seed {args.seed}: {exchanges:.2f} exchanges on average; "
          f"best of {args.repeat} passes, CPU time")
    # The ways take turns pass after pass, so that a busy moment of the machine does not fall on
    # one of them only; each keeps its best pass.
    best = dict.fromkeys(WAYS, float("inf"))
    for _ in range(args.repeat):
        for name, way in WAYS.items():
            best[name] = min(best[name], timed_pass(way, matches))
    for name, seconds in best.items():
        print(f"{name:<18} {args.count / seconds:>9,.0f} battles/s "
              f"({1e6 * seconds / args.count:.1f} µs a battle)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
