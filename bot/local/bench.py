"""Benchmark: the real bot under many members at once, through the stand-in.

    taskset -c 0 .venv/bin/python -m bot.local.bench --members 200 --rounds 5

Every member runs ``/digits card`` (and then an autocomplete) at the same moment, ``rounds`` times;
the figures are the stand-in's time from sending each interaction to receiving its first answer,
which is what Discord's 3-second limit measures. The bot and the stand-in share the one process
(and core), so the figures include the stand-in's own work: they are an upper bound.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import tempfile
import time
from pathlib import Path

from bot.app import create_bot
from bot.digits.catalogue import DIGITS
from bot.local.server import StandIn
from bot.settings import Settings


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def run(members: int, rounds: int) -> dict[str, list[float]]:
    standin = StandIn()
    await standin.start()
    standin.point_discord_here()
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(token=standin.token, db_path=Path(folder) / "bench.sqlite3",
                            test_guild=standin.guild.id)
        bot = create_bot(settings, guild_ready_timeout=0.02)
        task = asyncio.create_task(bot.start(standin.token))
        try:
            await asyncio.wait_for(bot.wait_until_ready(), 10)
            people = [standin.add_member(f"Student {i}", locale="fr" if i % 2 else "en-US")
                      for i in range(members)]
            figures: dict[str, list[float]] = {"slash": [], "autocomplete": [], "cpu": []}
            cpu = time.process_time()
            for round_ in range(rounds):
                records = await asyncio.gather(*(
                    standin.slash(m, "digits card", digit=DIGITS[(i + round_) % 20].key)
                    for i, m in enumerate(people)))
                figures["slash"].extend(r.answer_time or 0.0 for r in records)
                before = len(standin.interactions)
                await asyncio.gather(*(
                    standin.autocomplete(m, "digits card", "digit", digit="p") for m in people))
                added = list(standin.interactions.values())[before:]
                figures["autocomplete"].extend(r.answer_time or 0.0 for r in added)
            # CPU time per interaction does not depend on what else runs on the machine.
            figures["cpu"].append((time.process_time() - cpu) / (2 * members * rounds))
            if standin.errors:
                raise SystemExit("the stand-in recorded errors:\n" + "\n".join(standin.errors))
            return figures
        finally:
            await bot.close()
            await task
            await standin.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    start = time.perf_counter()
    figures = asyncio.run(run(args.members, args.rounds))
    elapsed = time.perf_counter() - start
    cpu = figures.pop("cpu")[0]
    print(f"{args.members} members at once, {args.rounds} rounds ({elapsed:.1f} s in all), "
          f"{cpu * 1000:.2f} ms of CPU per interaction (bot and stand-in)")
    for name, times in figures.items():
        ms = [t * 1000 for t in times]
        print(f"  {name:12} n={len(ms):5}  median {statistics.median(ms):6.1f} ms  "
              f"p95 {_percentile(ms, 0.95):6.1f} ms  max {max(ms):6.1f} ms")


if __name__ == "__main__":
    main()
