"""The odds' battles per second: ``taskset -c 0 .venv/bin/python -m tools.bench.digits_odds``.

The slates are real ones: every slate fielded in ``--matches`` matches between two baseline bot
players (``play_bot_match``, seeds 0 …), kept as ghosts by round. Each case asks for the odds of
2,000 battles (``odds(..., battles=2000)``), one call per player slate, 20 player slates, and
prints the CPU time of a call (median, and the slowest), the battles counted per second and the
distinct battles fought per second (the raw rate of the battle engine behind the odds):

- *solo, round 7*: the player's slate against every ghost of round 7 (the pool the bot keeps);
- *challenge*: against one slate (the challenger's last one), both sides with an Abacus and their
  scores unknown: up to 7 × 7 different battles;
- *every round's ghosts*: against every ghost of every round (some 3,000), so that most battles
  drawn are different ones: the worst case of a call;
- *2,000 distinct, exact*: :func:`expected` against 2,000 different ghosts, every battle fought
  once and none drawn: 2,000 battles with nothing to share, the figure of the engine itself.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from bot.digits.baseline import play_bot_match
from bot.digits.ghosts import Ghost
from bot.digits.odds import Battles, Odds, expected, odds
from bot.digits.slate import Piece, Slate

BATTLES = 2000


def ghosts(matches: int) -> list[Ghost]:
    out: list[Ghost] = []
    for seed in range(matches):
        out.extend(g for g in play_bot_match(seed).ghosts() if len(g.slate))
    return out


def with_abacus(slate: Slate) -> Slate:
    """The slate with an Abacus N2 in its first free cell (or its cell 1)."""
    free = slate.empty_cells()
    return slate.with_cell(free[0] if free else 1, Piece("Abacus", 2))


def exact(player: Ghost, opponents: list[Ghost]) -> Odds:
    """:func:`expected` against every opponent, as an :class:`Odds` (no battle drawn)."""
    fights = Battles(player.slate)
    win, draw, loss = expected(player.slate, player.focus, opponents, fights=fights)
    return Odds(100 * win, 100 * draw, 100 * loss, len(opponents), fights.fought)


def measure(call: Callable[[], Odds]) -> tuple[float, Odds]:
    start = time.process_time()
    result = call()
    return time.process_time() - start, result


def run_case(name: str, calls: list[Callable[[], Odds]]) -> str:
    timed = [measure(c) for c in calls]
    times = sorted(t for t, _ in timed)
    total = sum(times)
    counted = sum(o.battles for _, o in timed)
    distinct = sum(o.distinct for _, o in timed)
    median = times[len(times) // 2]
    return (f"| {name} | {distinct / len(timed):,.0f} | {1000 * median:.0f} ms | "
            f"{1000 * times[-1]:.0f} ms | {counted / total:,.0f} | {distinct / total:,.0f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.digits_odds",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200,
                        help="bot matches whose slates are used (default 200)")
    parser.add_argument("--players", type=int, default=20, help="player slates per case")
    args = parser.parse_args(argv)
    pool = ghosts(args.matches)
    round7 = [g for g in pool if g.round == 7]
    pick = random.Random(7)
    players7 = pick.sample(round7, min(args.players, len(round7)))
    distinct = list({g.slate: g for g in pool}.values())[:BATTLES]
    players = pick.sample(pool, min(args.players, len(pool)))
    cases = {
        f"solo, round 7 ({len(round7)} ghosts)": [
            (lambda p=p: odds(p.slate, p.focus, round7, battles=BATTLES,
                              rng=random.Random(1))) for p in players7],
        "challenge, Abacus on both sides, scores unknown": [
            (lambda p=p, q=q: odds(with_abacus(p.slate), None, [(with_abacus(q.slate), None)],
                                   battles=BATTLES, rng=random.Random(2)))
            for p, q in zip(players, reversed(players), strict=True)],
        f"every round's ghosts ({len(pool)})": [
            (lambda p=p: odds(p.slate, p.focus, pool, battles=BATTLES,
                              rng=random.Random(3))) for p in players],
        f"{len(distinct):,} distinct, exact": [
            (lambda p=p: exact(p, distinct)) for p in players],
    }
    print(f"Odds of {BATTLES} battles a call, {len(players)} player slates a case; slates from "
          f"{args.matches} bot matches; CPU time")
    print("| Case | Distinct battles a call | Time a call (median) | Slowest | "
          "Battles counted/s | Distinct battles/s |")
    print("|---|---|---|---|---|---|")
    for name, calls in cases.items():
        print(run_case(name, calls))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
