"""Solo matches of a bot player against the shadow and against the built-in ghosts:
``python -m tools.ladder.digits_solo [--matches 100] [--seed S] [--player bot|odds] [--jobs 1]``.

A solo match on a server with no ghosts meets, each round, the match's shadow (the stronger shop
player, :class:`bot.digits.strategy.OddsPlayer`, shopping alongside: ``Match.new(...,
shadow=OddsPlayer)``) or, in a match without a shadow, the fixed built-in slate of the round. This
plays ``--matches`` solo matches of the player (``bot``: the baseline :class:`BotPlayer`, a steady
student's stand-in; ``odds``: OddsPlayer) against each, on the same match seeds (so the player
meets the same offers and draws the same Focus scores), and prints the player's wins, draws and
losses, and the CPU time of the shadow's shop turns (what the shadow adds to a solo battle).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from bot.digits.baseline import BotPlayer
from bot.digits.ghosts import Ghost
from bot.digits.match import Match, RoundRecord
from bot.digits.strategy import OddsPlayer
from tools.ladder.digits import cpu_times


@dataclass(slots=True)
class Solo:
    """One solo match, from the player's side."""

    seed: str
    shadow: bool
    outcome: str  # "win", "draw" or "loss"
    rounds: int
    shadow_turns: list[float] = field(default_factory=list)  # CPU seconds of each turn's end


def play(seed: str, shadow: bool, player: str = "bot") -> Solo:
    """The player alone on ``seed``, against the shadow or the built-in ghosts."""
    bot = (OddsPlayer if player == "odds" else BotPlayer)(f"{seed}/bot/A")
    match = Match.new(["A"], seed=seed, shadow=OddsPlayer if shadow else None)
    ends: list[float] = []
    end_turn = match.end_turn

    def timed(who: str, ghost_pool: Iterable[Ghost] = ()) -> RoundRecord | None:
        # The end of the turn: the shadow's shop turn, then the battle.
        start = time.process_time()
        record = end_turn(who, ghost_pool)
        ends.append(time.process_time() - start)
        return record

    match.end_turn = timed  # type: ignore[method-assign]
    while not match.over:
        if not bot.act(match, "A"):
            raise RuntimeError("the bot player is stuck")
    outcome = ("draw" if match.winner == "draw" else "win" if match.winner == "A" else "loss")
    return Solo(seed, shadow, outcome, len(match.records), ends if shadow else [])


def _play(args: tuple[str, bool, str]) -> Solo:
    return play(*args)


def ladder(matches: int, seed: int | str, player: str = "bot", jobs: int = 1) -> list[Solo]:
    """``matches`` solo matches against the shadow and as many against the built-in ghosts, on
    the seeds ``{seed}/0`` … (the same seeds for both)."""
    games = [(f"{seed}/{i}", shadow, player) for shadow in (True, False) for i in range(matches)]
    if jobs <= 1:
        return [_play(g) for g in games]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_play, games, chunksize=4))


def table(results: list[Solo], player: str) -> str:
    name = "OddsPlayer" if player == "odds" else "BotPlayer"
    rows = [f"| {name} alone against | Matches | Wins | Draws | Losses | Win rate | Rounds |",
            "|---|---|---|---|---|---|---|"]
    for shadow, label in ((True, "the shadow (OddsPlayer)"), (False, "the built-in ghosts")):
        rs = [r for r in results if r.shadow == shadow]
        n = len(rs)
        w = sum(r.outcome == "win" for r in rs)
        d = sum(r.outcome == "draw" for r in rs)
        rounds = sum(r.rounds for r in rs) / n if n else 0.0
        rate = 100 * w / n if n else 0.0
        rows.append(f"| {label} | {n} | {w} | {d} | {n - w - d} | {rate:.0f} % | {rounds:.1f} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.ladder.digits_solo",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("--matches", type=int, default=100,
                        help="matches against each opponent (default 100)")
    parser.add_argument("--seed", default="solo", help="the seeds' prefix (default: solo)")
    parser.add_argument("--player", choices=("bot", "odds"), default="bot",
                        help="the solo player: BotPlayer (default) or OddsPlayer")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    results = ladder(args.matches, args.seed, args.player, args.jobs)
    wall = time.perf_counter() - start
    print(f"Solo matches, seeds {args.seed!r}/0 to /{args.matches - 1}, default settings, "
          f"{args.jobs} process(es), {wall:.0f} s")
    print(table(results, args.player))
    turns = sorted(t for r in results for t in r.shadow_turns)
    if turns:
        print(f"The end of a turn against the shadow (its shop turn, then the battle): "
              f"{len(turns)} rounds, {cpu_times(turns)}")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
