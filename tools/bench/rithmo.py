"""``taskset -c 0 python -m tools.bench.rithmo``: how fast the engine lists and plays.

Prints, on one core (CPU time of the process):

- the time to list the plain moves and the open captures (``Board.legal_steps()`` at the start of
  a turn: captures, moves and drops in one pass) of the start position, and of random mid-game
  positions (the median over many);
- legal steps generated per second, steps applied and taken back per second, and whole legal
  turns enumerated per second (``Board.legal_turns()``), over those positions;
- the time to explain every open capture with its arithmetic (``bot.rithmo.why``: the CLI's
  ``"why"``, the turn's message, a hint), median and worst over those positions;
- the time to suggest the legal turns nearest to a refused turn (``/rithmo move``'s "did you
  mean …?", ``bot.rithmo.notation.nearest_turns``), median and worst over those positions;
- random complete games per second: both sides play uniformly random legal steps, under the
  default class-game victories and a move limit.

The figures go in docs/benchmarks.md. Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.rithmo.board import START, Board
from bot.rithmo.game import Game
from bot.rithmo.notation import nearest_turns
from bot.rithmo.squares import name
from bot.rithmo.victory import Settings
from bot.rithmo.why import explained_options

# CPU time of this process: the machine is shared, and a wall clock would count other people's
# work on the same core as ours.
_clock = time.process_time


def _per_call(fn, calls: int) -> float:  # type: ignore[no-untyped-def]
    t = _clock()
    for _ in range(calls):
        fn()
    return (_clock() - t) / calls


def random_turn(board: Board, rng: random.Random) -> None:
    """Play one turn of uniformly random legal steps."""
    board.push_step(rng.choice(board.legal_steps()))
    while board.phase != START:
        board.push_step(rng.choice(board.legal_steps()))


def midgame_positions(count: int, seed: int) -> list[Board]:
    """Positions 10 to 80 turns into random games, at the start of a turn."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = Game(Settings.make(["body"], move_limit=80))
        target = rng.randint(10, 80)
        while len(game.turns) < target and not game.is_over():
            random_turn(game.board, rng)
        if not game.is_over():
            out.append(game.board.copy())
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.bench.rithmo",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=300, help="random mid-game positions")
    ap.add_argument("--games", type=int, default=100, help="random complete games")
    ap.add_argument("--limit", type=int, default=200, help="move limit of the random games")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    start = Board.start()
    batch = 50
    samples = [_per_call(start.legal_steps, batch) for _ in range(200)]
    print(f"start position: moves + captures listed in {statistics.median(samples) * 1e6:.1f} µs "
          f"(median of 200 × {batch}; {len(start.legal_steps())} steps)")

    positions = midgame_positions(args.positions, args.seed)
    times = [_per_call(b.legal_steps, 20) for b in positions]
    n_steps = sum(len(b.legal_steps()) for b in positions)
    n_caps = sum(len(b.captures()) for b in positions)
    print(f"mid-game ({len(positions)} random positions, 10-80 turns in): moves + captures listed "
          f"in {statistics.median(times) * 1e6:.1f} µs median, "
          f"{max(times) * 1e6:.1f} µs worst; {n_steps / len(positions):.1f} steps and "
          f"{n_caps / len(positions):.2f} captures a position on average")

    rich = [(b, t) for b, t in zip(positions, times, strict=True) if b.captures()]
    if rich:
        print(f"  of which {len(rich)} with a capture open: "
              f"{statistics.median(t for _, t in rich) * 1e6:.1f} µs median")

    # whole turns, as legal_turns() enumerates them (each move's captures after included)
    sample = positions[: max(1, len(positions) // 5)]
    t = _clock()
    n_turns = sum(sum(1 for _ in b.legal_turns()) for b in sample)
    elapsed = _clock() - t
    print(f"legal turns enumerated: {n_turns / elapsed:,.0f} per second "
          f"({n_turns / len(sample):.1f} turns a position, {len(sample)} positions)")

    # every open capture with its arithmetic (what the turn's message and a hint need)
    explained = [_per_call(lambda b=b: explained_options(b), 5) for b in positions]
    print(f"captures explained (why): {statistics.median(explained) * 1e3:.3f} ms median, "
          f"{max(explained) * 1e3:.3f} ms worst a position ({n_caps} captures open in all)")

    # "did you mean …?": a move of the side to move's first piece to the next rank (most often
    # refused: not a move of its shape, or the square is taken)
    near = []
    for b in positions:
        sq = b.pieces[b.turn][0].sq
        typed = f"{name(sq)}-{name(sq ^ 8)}"
        near.append(_per_call(lambda b=b, typed=typed: nearest_turns(b, typed), 3))
    print(f"did you mean: nearest legal turns to a refused turn in "
          f"{statistics.median(near) * 1e3:.2f} ms median, {max(near) * 1e3:.2f} ms worst "
          f"({len(positions)} positions)")

    # generation throughput, and walking steps (what a search does), over every phase
    rng = random.Random(args.seed)
    generated = 0
    walked = 0
    t_gen = t_walk = 0.0
    for b in positions:
        for _ in range(3):  # the start of the turn and, after a random step, the next phase
            t = _clock()
            steps = b.legal_steps()
            t_gen += _clock() - t
            generated += len(steps)
            t = _clock()
            for s in steps:
                b.push_step(s)
                b.pop_step()
            t_walk += _clock() - t
            walked += len(steps)
            b.push_step(rng.choice(steps))
    print(f"legal steps generated: {generated / t_gen:,.0f} per second; "
          f"steps pushed and popped: {walked / t_walk:,.0f} per second")

    rng = random.Random(args.seed)
    settings = Settings(move_limit=args.limit)
    turns = 0
    endings: dict[str, int] = {}
    t = _clock()
    for _ in range(args.games):
        game = Game(settings)
        while not game.is_over():
            random_turn(game.board, rng)
        turns += len(game.turns)
        out = game.outcome()
        reason = out.victory if out.victory else out.reason  # type: ignore[union-attr]
        endings[reason] = endings.get(reason, 0) + 1
    elapsed = _clock() - t
    ends = ", ".join(f"{k} {v}" for k, v in sorted(endings.items()))
    print(f"random complete games (victories {', '.join(v.kind for v in settings.victories)}, "
          f"move limit {args.limit}): {args.games / elapsed:.2f} games per second, "
          f"{turns / elapsed:,.0f} turns per second, {turns / args.games:.0f} turns a game "
          f"({ends})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
