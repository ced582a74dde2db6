"""Battles per second: ``taskset -c 0 .venv/bin/python -m bot.digits.bench``.

Fights random full slates (8 digits against 8, every tier, levels 1–3, Focus 0–6, fixed seed) and
prints the rate of the full path (``fight``: log and snapshots) and of the outcome-only path
(``outcome``). The slates are drawn before the clock starts; every battle is fought from scratch.
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


def rate(run: Callable[[Match], Any], matches: list[Match], repeat: int) -> float:
    """The best of ``repeat`` timed passes over all the matches, in battles per second."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for m in matches:
            run(m)
        best = min(best, time.perf_counter() - start)
    return len(matches) / best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.digits.bench", description=__doc__)
    parser.add_argument("--count", type=int, default=20_000, help="battles per pass")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3, help="timed passes; the best is kept")
    args = parser.parse_args(argv)
    matches = random_matches(args.count, args.seed)
    exchanges = sum(outcome(*m)[1] for m in matches) / len(matches)
    print(f"{args.count} random full battles (8 vs 8, all tiers, levels 1-3), seed {args.seed}, "
          f"{exchanges:.2f} exchanges on average, best of {args.repeat} passes")
    full = rate(lambda m: fight(*m), matches, args.repeat)
    print(f"fight (log and snapshots): {full:>9,.0f} battles/s")
    bare = rate(lambda m: outcome(*m), matches, args.repeat)
    print(f"outcome (winner only):     {bare:>9,.0f} battles/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
