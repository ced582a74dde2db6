"""``taskset -c 0 python -m tools.bench.rithmo_puzzles``: how long a capture puzzle takes to find.

Prints, on one core (CPU time of the process):

- ``generate(seed)`` for seeds 0..N-1 (the puzzle of a server without finished games: a game the
  bot plays against itself): median, 95th percentile and slowest, and the methods the puzzles
  ask for;
- the daily draw from a server's finished games (``bot.play.rithmo_puzzles.draw`` over 20
  finished games of 80 random turns each, looking at 3 of them): median and slowest;
- a hint (``bot.rithmo.puzzles.hint``) on mid-game positions, with a capture open at once and
  without (then every move is looked at): median and slowest.

The figures go in docs/benchmarks.md. Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass

from bot.play.rithmo_puzzles import draw
from bot.rithmo.game import Game
from bot.rithmo.opponents import random_turn
from bot.rithmo.puzzles import generate, hint

_clock = time.process_time  # CPU time: the machine is shared


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


@dataclass
class _Finished:
    game_id: int
    victories: object
    turns: list[str]


def _random_game(rng: random.Random, turns: int) -> Game:
    game = Game()
    while len(game.turns) < turns and not game.is_over():
        game.push(random_turn(game, rng))
    return game


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.rithmo_puzzles",
                                     description="How long a capture puzzle takes to find.")
    parser.add_argument("--seeds", type=int, default=100, help="puzzles generated")
    parser.add_argument("--days", type=int, default=20, help="daily draws from finished games")
    parser.add_argument("--positions", type=int, default=100, help="positions given a hint")
    args = parser.parse_args(argv)

    times, methods = [], Counter()
    for seed in range(args.seeds):
        t = _clock()
        puzzle = generate(seed)
        times.append(_clock() - t)
        methods.update({w.method for w in puzzle.solutions})
    print(f"generate(seed), {args.seeds} seeds: median {statistics.median(times) * 1000:.0f} ms, "
          f"p95 {_percentile(times, 0.95) * 1000:.0f} ms, slowest {max(times) * 1000:.0f} ms")
    print("methods asked for (puzzles with each):",
          ", ".join(f"{m} {n}" for m, n in methods.most_common()))

    games = []
    for i in range(min(20, 2 * args.days)):
        game = _random_game(random.Random(i), 80)
        games.append(_Finished(i, game.settings.to_json(), [str(t) for t in game.turns]))
    draws, sources = [], Counter()
    for day in range(args.days):
        t = _clock()
        puzzle = draw(games, 1000 + day)
        draws.append(_clock() - t)
        sources[puzzle.source["kind"]] += 1
    print(f"daily draw from {len(games)} finished games of 80 turns, {args.days} days: median "
          f"{statistics.median(draws) * 1000:.0f} ms, slowest {max(draws) * 1000:.0f} ms "
          f"(positions from: {dict(sources)})")

    now: list[float] = []
    later: list[float] = []
    for i in range(args.positions):
        board = _random_game(random.Random(100 + i), 20).board
        t = _clock()
        hint(board)
        (now if board.captures() else later).append(_clock() - t)
    for what, times_ in (("a capture open at once", now), ("none open at once", later)):
        if times_:
            print(f"hint, {len(times_)} positions after 20 random turns, {what}: median "
                  f"{statistics.median(times_) * 1000:.1f} ms, slowest {max(times_) * 1000:.1f} ms")

if __name__ == "__main__":
    main()
