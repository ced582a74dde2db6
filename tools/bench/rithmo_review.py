"""``taskset -c 0 python -m tools.bench.rithmo_review``: what ``/rithmo review`` costs.

Prints, on one core (CPU time of the process), for finished games of 40, 80 and 120 turns
(random turns on both sides, as a beginner's game has its blunders; a game won sooner is
shorter, the turns played are printed):

- the review (``bot.rithmo.review.review``: the evaluation after every turn, then the search for
  the better turn at the turning point, :data:`~bot.rithmo.review.NODES` positions): what the
  search process spends once per game, before it is kept;
- a step of the review (``bot.play.rithmo_review.step``: the game replayed to a turn, with what
  it took and the arithmetic), which every click on a step button costs in a thread before the
  picture is drawn.

Median and slowest of ``--games`` games each. The figures go in docs/benchmarks.md. Speed is
measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from types import SimpleNamespace
from typing import Any

from bot.play.rithmo_review import Reviewed, step
from bot.rithmo import Game, Settings
from bot.rithmo.opponents import random_turn
from bot.rithmo.review import review

_clock = time.process_time  # CPU time: the machine is shared


def _game(seed: int, plies: int) -> list[str]:
    rng = random.Random(seed)
    game = Game(Settings())
    while len(game.turns) < plies and not game.is_over():
        game.push(random_turn(game, rng))
    return [str(t) for t in game.turns]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.rithmo_review",
                                     description="What /rithmo review costs.")
    parser.add_argument("--games", type=int, default=5, help="games of each length")
    args = parser.parse_args(argv)
    settings = Settings().to_json()
    print("turns asked | turns played (median) | review median (s) | review slowest (s) |"
          " turned in | step median (ms) | step slowest (ms)")
    for plies in (40, 80, 120):
        reviews, steps, turned, lengths = [], [], 0, []
        for seed in range(args.games):
            turns = _game(seed, plies)
            lengths.append(len(turns))
            start = _clock()
            found = review(settings, turns)
            reviews.append(_clock() - start)
            turned += found.turning is not None
            row: Any = SimpleNamespace(victories=settings)
            reviewed = Reviewed(row, turns, found)
            for ply in (0, len(turns) // 2, len(turns)):
                start = _clock()
                step(reviewed, ply)
                steps.append(_clock() - start)
        print(f"{plies} | {statistics.median(lengths):.0f} | {statistics.median(reviews):.2f} |"
              f" {max(reviews):.2f} |"
              f" {turned}/{args.games} | {1000 * statistics.median(steps):.1f} |"
              f" {1000 * max(steps):.1f}")


if __name__ == "__main__":
    main()
