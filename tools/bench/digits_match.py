"""Matches per second: ``taskset -c 0 .venv/bin/python -m tools.bench.digits_match``.

Plays complete matches between two bot players (Focus scores drawn by the bots, every shop turn,
every battle with its log, the records kept), seeds 0 … count − 1, in three forms: private shops,
the draft, and one bot against the built-in ghosts; then one match sent through JSON and back after
every action. Prints matches per second (the best of the timed passes) and the rounds they last.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

from bot.digits.baseline import BotPlayer, play_bot_match
from bot.digits.match import Match
from bot.digits.shop import MatchSettings


def _json_every_action(seed: int) -> Match:
    """A bot match saved to JSON and read back after every action, as the bot stores it."""
    bots = [BotPlayer(f"{seed}/bot/A"), BotPlayer(f"{seed}/bot/B")]
    m = Match.new(["A", "B"], seed=seed)
    while not m.over:
        for p, bot in zip("AB", bots, strict=True):
            bot.act(m, p)
            m = Match.from_json(json.loads(json.dumps(m.to_json())))
    return m


def _rate(play: Callable[[int], Match], count: int, repeat: int) -> tuple[float, float]:
    """(matches per second, best of ``repeat`` passes; rounds per match on average)."""
    best, rounds = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        rounds = sum(len(play(seed).records) for seed in range(count))
        best = min(best, time.perf_counter() - start)
    return count / best, rounds / count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.digits_match", description=__doc__)
    parser.add_argument("--count", type=int, default=200, help="matches per pass")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes; the best is kept")
    args = parser.parse_args(argv)
    draft = MatchSettings(draft=True)
    forms: list[tuple[str, Callable[[int], Match]]] = [
        ("two bots, private shops", play_bot_match),
        ("two bots, draft", lambda s: play_bot_match(s, draft)),
        ("one bot against ghosts", lambda s: play_bot_match(s, solo=True)),
        ("two bots, JSON round trip after every action", _json_every_action),
    ]
    print(f"{args.count} complete bot-against-bot matches per form (seeds 0-{args.count - 1}), "
          f"best of {args.repeat} passes")
    for name, play in forms:
        per_second, rounds = _rate(play, args.count, args.repeat)
        print(f"{name + ':':<47} {per_second:>7,.1f} matches/s  ({rounds:.2f} rounds a match)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
