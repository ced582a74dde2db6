"""The ladder of The 20 Digits' bot players: ``python -m tools.ladder.digits [--matches 200]
[--seed S] [--jobs 2]``.

The stronger player (:class:`bot.digits.strategy.OddsPlayer`) plays the baseline
(:class:`bot.digits.baseline.BotPlayer`) over ``--matches`` matches with private shops. Matches go
in pairs on one match seed, the stronger player first on the left and then on the right, so that
each strategy meets the same offers and draws the same Focus scores from each seat (a seat's bot
seed is the match seed and the seat, as in ``play_bot_match``). Prints the wins, draws and losses
of the stronger player, by seat and in all, its score (a win 1, a draw ½) and the time its shop
turns took.

``--odds-bench`` prints the odds' battles per second instead (``tools.bench.digits_odds``).
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
from bot.digits.match import Match
from bot.digits.shop import MatchSettings
from bot.digits.strategy import BUDGET, FOES, MARGIN, OddsPlayer


class Timed(OddsPlayer):
    """The stronger player, timing its shop turns: the CPU time of its actions in each round's
    shop (every pick of a draft round together), the Focus and the waits excluded."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.rounds: dict[int, float] = {}

    @property
    def turns(self) -> list[float]:
        return list(self.rounds.values())

    def act(self, match: Match, player: str, ghost_pool: Iterable[Ghost] = ()) -> bool:
        if match.over or match.stage(player) != "shop":
            return super().act(match, player, ghost_pool)
        round_ = match.round
        start = time.process_time()
        moved = super().act(match, player, ghost_pool)
        self.rounds[round_] = self.rounds.get(round_, 0.0) + time.process_time() - start
        return moved


@dataclass(slots=True)
class Result:
    """One match of the ladder, from the stronger player's side."""

    seed: str
    seat: str  # "left" or "right": where the stronger player sat
    outcome: str  # "win", "draw" or "loss"
    rounds: int
    turns: list[float] = field(default_factory=list)


def play(seed: str, strong_left: bool, settings: MatchSettings | None = None,
         **strategy: float) -> Result:
    """One match on ``seed``; the stronger player sits on the left when ``strong_left``."""
    seats = ["A", "B"]
    strong_seat = "A" if strong_left else "B"
    strong = Timed(f"{seed}/bot/{strong_seat}", **strategy)
    bots = {p: strong if p == strong_seat else BotPlayer(f"{seed}/bot/{p}") for p in seats}
    match = Match.new(seats, seed=seed, settings=settings)
    while not match.over:
        moved = False
        for p in seats:
            moved = bots[p].act(match, p) or moved
        if not moved:
            raise RuntimeError("bot players are stuck")
    outcome = ("draw" if match.winner == "draw" else
               "win" if match.winner == strong_seat else "loss")
    return Result(seed, "left" if strong_left else "right", outcome, len(match.records),
                  strong.turns)


def _play(args: tuple[str, bool, bool, dict[str, float]]) -> Result:
    seed, strong_left, draft, strategy = args
    return play(seed, strong_left, MatchSettings(draft=draft), **strategy)


def ladder(matches: int, seed: int | str, jobs: int = 1, draft: bool = False,
           **strategy: float) -> list[Result]:
    """The results of ``matches`` matches, in pairs on one seed (the stronger player on the left
    in the first of a pair, on the right in the second). ``strategy``: the stronger player's
    settings (``foes``, ``budget``, ``margin``), its defaults when not given."""
    games = [(f"{seed}/{i // 2}", i % 2 == 0, draft, strategy) for i in range(matches)]
    if jobs <= 1:
        return [_play(g) for g in games]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_play, games, chunksize=4))


def table(results: list[Result]) -> str:
    def line(name: str, rs: list[Result]) -> str:
        w = sum(r.outcome == "win" for r in rs)
        d = sum(r.outcome == "draw" for r in rs)
        n = len(rs)
        score = 100 * (w + d / 2) / n if n else 0.0
        return f"| {name} | {n} | {w} | {d} | {n - w - d} | {score:.1f} % |"

    rows = ["| Stronger player (OddsPlayer) | Matches | Wins | Draws | Losses | Score |",
            "|---|---|---|---|---|---|",
            line("on the left", [r for r in results if r.seat == "left"]),
            line("on the right", [r for r in results if r.seat == "right"]),
            line("in all", results)]
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.ladder.digits",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("--matches", type=int, default=200, help="matches (default 200)")
    parser.add_argument("--seed", default="ladder", help="the ladder's seed (default: ladder)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--draft", action="store_true", help="the draft variant")
    parser.add_argument("--foes", type=int, default=FOES,
                        help=f"OddsPlayer's likely opponents (default {FOES})")
    parser.add_argument("--budget", type=int, default=BUDGET,
                        help=f"OddsPlayer's battles a shop turn (default {BUDGET})")
    parser.add_argument("--margin", type=float, default=MARGIN,
                        help=f"OddsPlayer's weight of a battle's margin (default {MARGIN})")
    parser.add_argument("--odds-bench", action="store_true",
                        help="print the odds' battles per second instead")
    args = parser.parse_args(argv)
    if args.odds_bench:
        from tools.bench import digits_odds
        return digits_odds.main([])
    start = time.perf_counter()
    results = ladder(args.matches, args.seed, args.jobs, args.draft, foes=args.foes,
                     budget=args.budget, margin=args.margin)
    wall = time.perf_counter() - start
    turns = sorted(t for r in results for t in r.turns)
    form = "draft" if args.draft else "private shops"
    print(f"OddsPlayer against BotPlayer, {args.matches} matches ({form}, seats "
          f"alternating on each match seed), seed {args.seed!r}, {args.jobs} process(es), "
          f"{wall:.0f} s; OddsPlayer with foes={args.foes}, budget={args.budget}, "
          f"margin={args.margin}")
    print(table(results))
    rounds = sum(r.rounds for r in results) / max(len(results), 1)
    if turns:
        print(f"{rounds:.2f} rounds a match; OddsPlayer's shop turns: {len(turns)}, "
              f"{cpu_times(turns)}")
    sys.stdout.flush()
    return 0


def cpu_times(seconds: list[float]) -> str:
    """Mean, median and max of sorted CPU times, in milliseconds, for the ladders' last line."""
    return (f"CPU time mean {1000 * sum(seconds) / len(seconds):.0f} ms, median "
            f"{1000 * seconds[len(seconds) // 2]:.0f} ms, max {1000 * seconds[-1]:.0f} ms")


if __name__ == "__main__":
    raise SystemExit(main())
