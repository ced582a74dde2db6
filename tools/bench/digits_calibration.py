"""Are the odds of The 20 Digits a forecast? ``python -m tools.bench.digits_calibration
[--matches 200] [--solo 200] [--seed calibration] [--jobs 2] [--fit]``.

Plays ``--matches`` bot-against-bot challenges (two baseline players, :class:`BotPlayer`) and
``--solo`` solo matches (the baseline player against the shadow, as ``/digits solo`` plays it,
no ghost pool) on seeds ``<seed>/challenge/<i>`` and ``<seed>/solo/<i>``. At every round, when a
player's shop turn is done and it is about to press Ready, it asks for the odds of its slate
twice: today's odds before this forecast (:func:`bot.digits.odds.odds_for_match`, against the
opponent's last slate) and the forecast (:func:`bot.digits.forecast.forecast_for_match`,
calibrated); then the battle says what happened. Prints, for each and side by side:

- the win deciles: the forecasts of a win in ten bins (0–10 %, …, 90–100 %), each with its
  count, mean forecast and observed win rate; and the largest gap (in points) between the two
  in a bin of 30 forecasts or more, for win, draw and loss;
- the Brier score (the mean over forecasts of Σ (chance − happened)² over win, draw and loss),
  the base rate's (always saying the observed frequencies), and the skill 1 − Brier / base.

``--fit`` fits the calibration (``CALIBRATION`` of :mod:`bot.digits.forecast`, for challenges
and for the shadow) on the raw forecasts of a training set (seeds ``<seed>/fit/...``, as many
matches), prints the constants, and evaluates them on the set above (other seeds).

``--level gentle|fair|strong`` plays the solo matches at that level (``bot.digits.levels``); the
forecast still uses the one "shadow" calibration, fitted on the shadow of before the levels.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from math import exp, log

from bot.digits.baseline import BotPlayer
from bot.digits.forecast import (
    CALIBRATION,
    calibrate,
    calibration_key,
    features,
    forecast_for_match,
)
from bot.digits.ghosts import Ghost
from bot.digits.levels import LEVELS, solo_match
from bot.digits.match import Match
from bot.digits.odds import odds_for_match
from bot.digits.strategy import OddsPlayer

Chances = tuple[float, float, float]
OUTCOMES = ("win", "draw", "loss")
MIN_BIN = 30


@dataclass(frozen=True, slots=True)
class Sample:
    """One forecast: which match, the round, today's odds, the new forecast before and after
    the calibration, and what happened (0 win, 1 draw, 2 loss)."""

    kind: str  # "challenge" or "shadow" (the kind of opponent, as CALIBRATION keys it)
    round: int
    old: Chances
    raw: Chances
    new: Chances
    happened: int
    seconds: tuple[float, float] = (0.0, 0.0)  # CPU time of today's odds and of the forecast


class Asking(BotPlayer):
    """The baseline player, asking for the odds at the end of each of its shop turns."""

    def __init__(self, seed: str) -> None:
        super().__init__(seed)
        self.asked: dict[int, tuple[Chances, Chances, Chances, tuple[float, float]]] = {}

    def act(self, match: Match, player: str, ghost_pool: Iterable[Ghost] = ()) -> bool:
        if match.over or match.stage(player) != "shop" or match.draft is not None:
            return super().act(match, player, ghost_pool)
        self._shop_turn(match, player)
        self._merge_all(match, player)
        self._arrange(match, player)
        start = time.process_time()
        old = odds_for_match(match, player, ghost_pool)
        middle = time.process_time()
        new = forecast_for_match(match, player, ghost_pool, calibrated=False)
        seconds = (middle - start, time.process_time() - middle)
        raw = (new.win, new.draw, new.loss)
        self.asked[match.round] = ((old.win / 100, old.draw / 100, old.loss / 100), raw,
                                   calibrate(*raw, CALIBRATION[calibration_key(match, new.kind)]),
                                   seconds)
        match.end_turn(player, ghost_pool)
        return True


def play(job: tuple[str, str]) -> list[Sample]:
    """The samples of one match: ``job`` is (kind, seed), kind "challenge" or "solo"."""
    kind, seed = job
    kind, _, level = kind.partition(":")
    players = ["A", "B"] if kind == "challenge" else ["A"]
    bots = {p: Asking(f"{seed}/bot/{p}") for p in players}
    if level:
        match = solo_match("A", level, seed=seed)
    else:
        match = Match.new(players, seed=seed, shadow=OddsPlayer if kind == "solo" else None)
    while not match.over:
        if not any([bots[p].act(match, p) for p in players]):
            raise RuntimeError("bot players are stuck")
    out = []
    for record in match.records:
        for p in players:
            old, raw, new, seconds = bots[p].asked[record.round]
            happened = 1 if record.winner is None else 0 if record.winner == p else 2
            out.append(Sample("shadow" if kind == "solo" else kind, record.round, old, raw, new,
                              happened, seconds))
    return out


def collect(seed: str, matches: int, solo: int, jobs: int, level: str | None = None
            ) -> list[Sample]:
    games = [("challenge", f"{seed}/challenge/{i}") for i in range(matches)]
    solo_kind = "solo" if level is None else f"solo:{level}"
    games += [(solo_kind, f"{seed}/solo/{i}") for i in range(solo)]
    if jobs <= 1:
        return [s for g in games for s in play(g)]
    with ProcessPoolExecutor(jobs) as pool:
        return [s for batch in pool.map(play, games, chunksize=4) for s in batch]


def brier(forecasts: list[Chances], happened: list[int]) -> float:
    return sum(sum((q - (k == h)) ** 2 for k, q in enumerate(f))
               for f, h in zip(forecasts, happened, strict=True)) / len(forecasts)


def skill(forecasts: list[Chances], happened: list[int]) -> tuple[float, float, float]:
    """(Brier, base-rate Brier, skill)."""
    n = len(happened)
    rates = tuple(sum(h == k for h in happened) / n for k in range(3))
    b, base = brier(forecasts, happened), brier([rates] * n, happened)  # type: ignore[list-item]
    return b, base, 1 - b / base if base else 0.0


def deciles(forecasts: list[Chances], happened: list[int], outcome: int
            ) -> list[tuple[int, float, float]]:
    """(count, mean forecast, observed rate) of ``outcome`` in each tenth of the forecasts."""
    bins: list[list[tuple[float, bool]]] = [[] for _ in range(10)]
    for f, h in zip(forecasts, happened, strict=True):
        bins[min(int(f[outcome] * 10), 9)].append((f[outcome], h == outcome))
    return [(len(b), sum(q for q, _ in b) / len(b) if b else 0.0,
             sum(y for _, y in b) / len(b) if b else 0.0) for b in bins]


def worst_gap(forecasts: list[Chances], happened: list[int], outcome: int) -> float:
    """The largest |mean forecast − observed rate| in points, in a bin of MIN_BIN or more."""
    gaps = [abs(m - o) for n, m, o in deciles(forecasts, happened, outcome) if n >= MIN_BIN]
    return 100 * max(gaps, default=0.0)


def report(name: str, samples: list[Sample]) -> str:
    happened = [s.happened for s in samples]
    old, new = [s.old for s in samples], [s.new for s in samples]
    lines = [f"### {name}: {len(samples)} forecasts", "",
             "| Win forecast | n (today) | forecast | observed | n (new) | forecast | observed |",
             "|---|---|---|---|---|---|---|"]
    for i, (a, b) in enumerate(zip(deciles(old, happened, 0), deciles(new, happened, 0),
                                   strict=True)):
        def cells(d: tuple[int, float, float]) -> str:
            return (f"{d[0]} | {100 * d[1]:.0f} % | {100 * d[2]:.0f} %" if d[0]
                    else "0 | – | –")
        lines.append(f"| {10 * i}–{10 * i + 10} % | {cells(a)} | {cells(b)} |")
    lines += ["", "| Odds | Brier | Base-rate Brier | Skill | Largest gap, win / draw / loss "
              f"(bins of {MIN_BIN}+) |", "|---|---|---|---|---|"]
    for label, f in (("today's (last slate)", old), ("forecast (calibrated)", new)):
        b, base, s = skill(f, happened)
        gaps = " / ".join(f"{worst_gap(f, happened, k):.0f}" for k in range(3))
        lines.append(f"| {label} | {b:.3f} | {base:.3f} | {s:+.2f} | {gaps} points |")
    first = [s for s in samples if s.round == 1]
    if first:
        mean_old = sum(s.old[0] for s in first) / len(first)
        mean_new = sum(s.new[0] for s in first) / len(first)
        won = sum(s.happened == 0 for s in first) / len(first)
        lines += ["", f"Round 1: mean win forecast {100 * mean_old:.0f} % today, "
                  f"{100 * mean_new:.0f} % forecast; won {100 * won:.0f} %."]
    return "\n".join(lines)


Params = tuple[float, float, float]


def _solve(m: list[list[float]], v: list[float]) -> list[float]:
    """The solution of a small linear system (Gauss-Jordan with partial pivoting)."""
    n = len(v)
    rows = [[*m[i], v[i]] for i in range(n)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(rows[r][c]))
        rows[c], rows[pivot] = rows[pivot], rows[c]
        for r in range(n):
            if r != c and rows[c][c]:
                f = rows[r][c] / rows[c][c]
                rows[r] = [x - f * y for x, y in zip(rows[r], rows[c], strict=True)]
    return [rows[i][n] / rows[i][i] if rows[i][i] else 0.0 for i in range(n)]


def fit(samples: list[Sample], steps: int = 30) -> Params:
    """(A, B_draw, B_loss) of :func:`bot.digits.forecast.calibrate` with the least log loss on
    ``samples`` (Newton's method on the multinomial logistic model, a convex problem; a small
    ridge keeps it defined when a kind of outcome never happens)."""
    data = [(features(*s.raw), s.happened) for s in samples]
    theta = [1.0, 0.0, 0.0]
    for _ in range(steps):
        grad = [0.0] * 3
        hess = [[1e-3 if i == j else 0.0 for j in range(3)] for i in range(3)]
        for x, h in data:
            q = calibrate_x(x, theta)
            jac = [[x[k], float(k == 1), float(k == 2)] for k in range(3)]
            for k in range(3):
                r = q[k] - (k == h)
                for i in range(3):
                    grad[i] += jac[k][i] * r
            for k in range(3):
                for m in range(3):
                    w = q[k] * ((k == m) - q[m])
                    if w:
                        for i in range(3):
                            for j in range(3):
                                hess[i][j] += jac[k][i] * w * jac[m][j]
        step = _solve(hess, grad)
        now, scale = log_loss(data, theta), 1.0
        while scale > 1e-6:  # a damped step: never one that makes the fit worse
            trial = [t - scale * d for t, d in zip(theta, step, strict=True)]
            if trial[0] > 0 and log_loss(data, trial) <= now:
                break
            scale /= 2
        else:
            break
        theta = trial
        if max(abs(scale * d) for d in step) < 1e-7:
            break
    return theta[0], theta[1], theta[2]


def log_loss(data: list[tuple[tuple[float, float, float], int]], theta: list[float]) -> float:
    return -sum(log(max(calibrate_x(x, theta)[h], 1e-300)) for x, h in data)


def calibrate_x(x: tuple[float, float, float], theta: list[float]) -> Chances:
    """The calibrated chances of features ``x`` with parameters ``theta`` (as ``calibrate``)."""
    logits = [theta[0] * x[0], theta[0] * x[1] + theta[1], theta[0] * x[2] + theta[2]]
    top = max(logits)
    e = [exp(v - top) for v in logits]
    return e[0] / sum(e), e[1] / sum(e), e[2] / sum(e)


def key_of(kind: str, level: str | None) -> str:
    """The calibration a sample of ``kind`` takes in a run at ``level``: the level's own for the
    shadow (``bot.digits.forecast.calibration_key``)."""
    return f"shadow/{level}" if kind == "shadow" and level else kind


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.digits_calibration",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200, help="challenges (default 200)")
    parser.add_argument("--solo", type=int, default=200, help="solo matches (default 200)")
    parser.add_argument("--seed", default="calibration", help="seed (default: calibration)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--fit", action="store_true",
                        help="fit SLOPE and BASE on a training set first")
    parser.add_argument("--level", default=None, choices=LEVELS,
                        help="the solo matches at this level (default: the shadow of before "
                             "the levels, the odds player, which is strong's)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    params = dict(CALIBRATION)
    if args.fit:
        train = collect(f"{args.seed}/fit", args.matches, args.solo, args.jobs, args.level)
        for kind in list(params):
            part = [s for s in train if s.kind == kind]
            if part:
                params[key_of(kind, args.level)] = fit(part)
        print(f"Fitted on {len(train)} forecasts (seed {args.seed + '/fit'!r}): CALIBRATION = "
              "{" + ", ".join(f'"{k}": ({a:.3f}, {b:.3f}, {c:.3f})'
                              for k, (a, b, c) in params.items()) + "}")
    samples = collect(args.seed, args.matches, args.solo, args.jobs, args.level)
    samples = [Sample(s.kind, s.round, s.old, s.raw,
                      calibrate(*s.raw, params.get(key_of(s.kind, args.level), params[s.kind])),
                      s.happened, s.seconds) for s in samples]
    print(f"Odds against what happened: {args.matches} challenges and {args.solo} solo matches "
          f"of baseline players, seed {args.seed!r}, {time.perf_counter() - start:.0f} s")
    for name, part in (("Challenges", [s for s in samples if s.kind == "challenge"]),
                       ("Solo against the shadow", [s for s in samples if s.kind == "shadow"]),
                       ("All", samples)):
        if part:
            print()
            print(report(name, part))
    print()
    for i, label in enumerate(("today's odds", "the forecast")):
        times = sorted(s.seconds[i] for s in samples)
        print(f"CPU time of one call, {label}: median {1000 * times[len(times) // 2]:.0f} ms, "
              f"slowest {1000 * times[-1]:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
