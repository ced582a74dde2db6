"""Benchmark: many Rithmomachia games at once through the stand-in, with the real bot.

    taskset -c 0 .venv/bin/python -m tools.load_rithmo --games 50 --turns 10

Each game is a pair of members in a channel of its own: a challenge, its acceptance, then
``turns`` turns in all, every game playing its turn at the same moment: the player to move asks the
autocomplete of ``/rithmo move`` for the legal turns, then plays one of them (seeded). Printed:
the time from sending each interaction to the bot's first answer (what Discord's 3 seconds
measure), per kind, and the time from a ``/rithmo move`` to its new board message in the channel
(the board image is drawn in a thread meanwhile). The bot and the stand-in share the process and
its core, so the figures include the stand-in's own work: an upper bound. First, the CPU time of
the autocomplete's own work (listing the legal turns that match what was typed).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bot.app import create_bot
from bot.local.server import Channel, Member, Message, StandIn
from bot.play.rithmo_turns import completions
from bot.rithmo import Board
from bot.settings import Config
from tools.bench.rithmo import midgame_positions


def completion_figures(positions: int = 100, seed: int = 5) -> dict[str, list[float]]:
    """CPU time of the autocomplete's work alone (``completions``), at the start and in random
    mid-game positions, with nothing typed and with one letter typed."""
    def per_call(fn: Callable[[], object], calls: int) -> float:
        start = time.process_time()
        for _ in range(calls):
            fn()
        return (time.process_time() - start) / calls

    start = Board.start()
    boards = midgame_positions(positions, seed)
    return {
        "start, nothing typed": [per_call(lambda: completions(start, ""), 50)],
        "mid-game, nothing typed": [per_call(lambda b=b: completions(b, ""), 5) for b in boards],
        "mid-game, 'c' typed": [per_call(lambda b=b: completions(b, "c"), 5) for b in boards],
    }


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def _game(standin: StandIn, channel: Channel, white: Member, black: Member, turns: int,
                rng: random.Random, figures: dict[str, list[float]]) -> None:
    posted = await standin.slash(white, "rithmo challenge", member=black, colour="white",
                                 in_channel=channel)
    figures["challenge"].append(posted.answer_time or 0.0)
    accept = posted.reply.buttons()[0]["custom_id"]  # "Accept" or "Accepter"
    clicked = await standin.click(black, posted.reply, accept)
    figures["accept"].append(clicked.answer_time or 0.0)
    board: Message = await standin.wait_for_message(lambda m: bool(m.attachments),
                                                    after=posted.reply, timeout=60)
    players = (white, black)
    for ply in range(turns):
        member = players[ply % 2]
        sent = time.perf_counter()
        choices = await standin.autocomplete(member, "rithmo move", "turn", turn="",
                                             in_channel=channel)
        if not choices:
            return
        turn = rng.choice(choices)["value"]
        record = await standin.slash(member, "rithmo move", turn=turn, in_channel=channel)
        figures["move"].append(record.answer_time or 0.0)
        board = await standin.wait_for_message(
            lambda m, t=turn: bool(m.attachments) and f"`{t}`" in m.content, after=board,
            timeout=60)
        figures["turn to board"].append(time.perf_counter() - sent)
        if "🏆" in board.content or "🤝" in board.content:
            return


async def run(games: int, turns: int, seed: int) -> dict[str, list[float]]:
    standin = StandIn()
    standin.answer_deadline = 3.0
    await standin.start()
    standin.point_discord_here()
    with tempfile.TemporaryDirectory() as folder:
        settings = Config(token=standin.token, db_path=Path(folder) / "bench.sqlite3",
                            test_guild=standin.guild.id)
        bot = create_bot(settings, guild_ready_timeout=0.02)
        task = asyncio.create_task(bot.start(standin.token))
        try:
            await asyncio.wait_for(bot.wait_until_ready(), 10)
            channels = [standin.add_channel(f"table-{i}") for i in range(games)]
            pairs = [(standin.add_member(f"White {i}", locale="fr" if i % 2 else "en-US"),
                      standin.add_member(f"Black {i}")) for i in range(games)]
            figures: dict[str, list[float]] = {
                "challenge": [], "accept": [], "autocomplete": [], "move": [],
                "turn to board": []}
            rng = random.Random(seed)
            cpu = time.process_time()
            before = len(standin.interactions)
            await asyncio.gather(*(
                _game(standin, channel, white, black, turns, random.Random(rng.random()),
                      figures)
                for channel, (white, black) in zip(channels, pairs, strict=True)))
            records = list(standin.interactions.values())[before:]
            figures["autocomplete"] = [r.answer_time or 0.0 for r in records
                                       if r.label.startswith("/rithmo move (autocomplete)")]
            figures["cpu"] = [(time.process_time() - cpu) / max(1, len(records))]
            if standin.errors:
                raise SystemExit("the stand-in recorded errors:\n" + "\n".join(standin.errors))
            return figures
        finally:
            await bot.close()
            await task
            await standin.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.load_rithmo",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    print("autocomplete of /rithmo move, the legal turns alone (CPU time per call):")
    for name, times in completion_figures().items():
        ms = [t * 1000 for t in times]
        print(f"  {name:24} median {statistics.median(ms):5.2f} ms  max {max(ms):5.2f} ms")
    start = time.perf_counter()
    figures = asyncio.run(run(args.games, args.turns, args.seed))
    elapsed = time.perf_counter() - start
    cpu = figures.pop("cpu")[0]
    print(f"{args.games} Rithmomachia games at once, {args.turns} turns each "
          f"({elapsed:.1f} s in all), {cpu * 1000:.2f} ms of CPU per interaction "
          "(bot, stand-in and board images)")
    for name, times in figures.items():
        ms = [t * 1000 for t in times]
        print(f"  {name:14} n={len(ms):5}  median {statistics.median(ms):7.1f} ms  "
              f"p95 {_percentile(ms, 0.95):7.1f} ms  max {max(ms):7.1f} ms")


if __name__ == "__main__":
    main()
