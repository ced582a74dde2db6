"""Storage benchmark: ``taskset -c 0 .venv/bin/python -m tools.bench.db [--quick]
[--database postgresql://…]``.

Prints, on a fresh database file in a temporary folder (and with ``--database`` on a fresh
database of that PostgreSQL server too, then both side by side):

- Focus answers recorded per second: one answer per transaction (one task, then 50 tasks at
  once), a Focus round of 6 answers per transaction, and batches of 500;
- match-state saves per second with 50 concurrent tasks: each on its own match (no conflict), then
  two players per match and ten per match (read, save from the version read, read again on a
  refusal);
- the progress query of a student with 10,000 answers among 100,000, with the index of migration 3
  and without it.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from db.core import Database, StaleVersion
from db.focus import FocusAnswer
from tools.bench import SideBySide, engines, fresh

GUILD = 1
START = datetime(2026, 1, 1, tzinfo=UTC)
TOPICS = ("addition", "subtraction", "multiplication", "division", "tables", "priority")
#: The figures of this run, by measure and engine.
SIDE = SideBySide()


def _answer(rng: random.Random, user: int, moment: datetime) -> FocusAnswer:
    a, b = rng.randint(2, 12), rng.randint(2, 12)
    given = a * b if rng.random() < 0.8 else a * b + 1
    return FocusAnswer(
        GUILD,
        user,
        rng.choice(TOPICS),
        rng.randint(1, 6),
        f"{a} × {b}",
        a * b,
        given,
        rng.randint(800, 9000),
        answered_at=moment,
    )


def _match_state(rng: random.Random) -> dict[str, Any]:
    """About the size of a 20 Digits match state in mid-game (two slates, shop, last battle)."""
    digit = ("Odd", "Even", "Plus", "Minus", "Half", "Modulo", "Carry", "Zero")

    def slate() -> dict[str, Any]:
        return {
            str(c): {"digit": rng.choice(digit), "level": rng.randint(1, 3), "atk": 4, "hp": 5}
            for c in range(1, 9)
        }

    return {
        "round": 7,
        "seed": rng.randint(0, 2**31),
        "players": [
            {
                "gold": rng.randint(0, 11),
                "lives": 6,
                "slate": slate(),
                "shop": [rng.choice(digit) for _ in range(5)],
                "frozen": [1, 3],
            }
            for _ in range(2)
        ],
        "log": [
            {"exchange": e, "hits": [{"side": "left", "from": 1, "to": 1, "damage": 3}] * 4}
            for e in range(1, 9)
        ],
    }


async def _rate(label: str, count: int, run: Callable[[], Awaitable[None]]) -> float:
    started = time.perf_counter()
    await run()
    elapsed = time.perf_counter() - started
    per_second = count / elapsed
    print(f"  {label:<58} {per_second:>9,.0f} /s   ({count:,} in {elapsed:.2f} s)")
    SIDE.add(label, f"{per_second:,.0f} /s")
    return per_second


async def bench_answers(db: Database, scale: int) -> None:
    print("Focus answers recorded")
    rng = random.Random(1)
    n = 2000 * scale

    async def single() -> None:
        for i in range(n):
            await db.focus.record(_answer(rng, 100 + i % 30, START + timedelta(seconds=i)))

    await _rate("one per transaction, one task", n, single)

    async def concurrent() -> None:
        async def student(user: int) -> None:
            for i in range(n // 50):
                await db.focus.record(_answer(rng, user, START + timedelta(seconds=i)))

        await asyncio.gather(*(student(200 + u) for u in range(50)))

    await _rate("one per transaction, 50 tasks at once", n // 50 * 50, concurrent)

    async def rounds() -> None:
        for r in range(n // 6):
            moment = START + timedelta(minutes=r)
            await db.focus.record_many(
                [_answer(rng, 300 + r % 30, moment + timedelta(seconds=q)) for q in range(6)]
            )

    await _rate("a Focus round of 6 per transaction", n // 6 * 6, rounds)

    async def batches() -> None:
        for b in range(n * 5 // 500):
            moment = START + timedelta(hours=b)
            await db.focus.record_many(
                [_answer(rng, 400 + q % 30, moment + timedelta(seconds=q)) for q in range(500)]
            )

    await _rate("batches of 500 per transaction", n * 5 // 500 * 500, batches)


async def bench_saves(db: Database, scale: int) -> None:
    print("Match-state saves, 50 concurrent tasks")
    rng = random.Random(2)
    state = _match_state(rng)
    print(f"  (state: {len(str(state)):,} characters of JSON)")
    saves_per_task = 40 * scale
    matches = [
        await db.digits.create_match(GUILD, [1000 + 2 * i, 1001 + 2 * i], state, status="active")
        for i in range(50)
    ]

    async def own_match() -> None:
        async def player(match_id: int) -> None:
            version = 1
            for turn in range(saves_per_task):
                state["round"] = turn
                version = await db.digits.save_match(match_id, state, version)

        await asyncio.gather(*(player(m.match_id) for m in matches))

    await _rate("each task on its own match", 50 * saves_per_task, own_match)

    async def contended(players_per_match: int, saves_each: int) -> int:
        """Every player reads the match, then saves from the version read; on a refusal (another
        player saved first) it reads again. The number of refusals."""
        refused = 0

        async def player(match_id: int) -> None:
            nonlocal refused
            done = 0
            while done < saves_each:
                current = await db.digits.require_match(match_id)
                try:
                    await db.digits.save_match(match_id, current.state, current.version)
                except StaleVersion:
                    refused += 1
                    continue
                done += 1

        shared = [m.match_id for m in matches[: 50 // players_per_match]]
        await asyncio.gather(*(player(shared[t % len(shared)]) for t in range(50)))
        return refused

    # Ten players on one match is far more contention than a game sees: fewer saves each.
    for per_match, saves_each in ((2, saves_per_task // 2), (10, saves_per_task // 8)):
        refusals = 0

        async def run(per_match: int = per_match, saves_each: int = saves_each) -> None:
            nonlocal refusals
            refusals = await contended(per_match, saves_each)

        await _rate(
            f"{per_match} tasks per match, {50 // per_match} matches (read, then save)",
            50 * saves_each,
            run,
        )
        print(f"  {'  stale saves refused (then read again)':<58} {refusals:>9,}")


async def bench_progress(db: Database, scale: int) -> None:
    print("Progress query: a student with 10,000 answers among 100,000")
    rng = random.Random(3)
    student = 7
    rows = []
    for i in range(100_000):
        user = student if i % 10 == 0 else 5000 + i % 300
        rows.append(_answer(rng, user, START + timedelta(minutes=13 * i // 10)))
    for start in range(0, len(rows), 5000):
        await db.focus.record_many(rows[start : start + 5000])
    runs = 20 * scale

    async def timed(label: str) -> None:
        for by in ("day", "week", "all"):
            times = []
            result: list[Any] = []
            for _ in range(runs):
                started = time.perf_counter()
                result = await db.focus.progress(GUILD, student, by=by)
                times.append(time.perf_counter() - started)
            answers = sum(r.answers for r in result)
            SIDE.add(f"progress {label}, by {by}", f"{statistics.median(times) * 1000:.2f} ms")
            print(
                f"  {label + ', by ' + by:<44} median {statistics.median(times) * 1000:7.2f} ms"
                f"   ({len(result):,} rows, {answers:,} answers)"
            )

    await timed("with index")
    await db.connection.run("DROP INDEX focus_answers_progress")
    await timed("without index")


async def measure(quick: bool, database: str | None = None) -> None:
    scale = 1 if quick else 3
    with tempfile.TemporaryDirectory(prefix="ardoise-bench-") as folder:
        for engine, server in engines(database):
            SIDE.engine = engine
            print(f"== {engine}")
            for name, bench in (("answers", bench_answers), ("saves", bench_saves),
                                ("progress", bench_progress)):
                async with fresh(server, Path(folder), name) as location:
                    db = await Database.open(location)
                    try:
                        await bench(db, scale)
                    finally:
                        await db.close()
    if database:
        print("\nSide by side:")
        print(SIDE.table())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.db", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a third of the work, for a try")
    parser.add_argument("--database", metavar="URL", default=None,
                        help="a PostgreSQL server (postgresql://user@host:port/postgres): the"
                        " same work there too, side by side")
    args = parser.parse_args(argv)
    asyncio.run(measure(args.quick, args.database))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
