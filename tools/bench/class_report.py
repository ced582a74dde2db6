"""The class report's speed: ``taskset -c 0 .venv/bin/python -m tools.bench.class_report``.

On a fresh database file in a temporary folder, for a class of 30 students with 20,000 answers
and for a server of 1,000 students with 1,000,000 answers (rounds of six answers in one topic,
over 120 days), prints for the periods "week", "term" (90 days) and "all":

- the query: the figures read from ``focus_rollup`` and the report built (``bot.play.
  class_report.answered`` then ``build``), without the names Discord gives;
- the picture of the first page (30 students) and the CSV of everyone, separately;
- for comparison, the same counts straight from ``focus_answers`` through its progress index
  (without any median: the rollup's reason to be);

each the median, minimum and maximum of several repeats, in wall-clock time and in CPU time
of the process (the database's thread included). Then what the rollup's trigger costs a
write: rounds of six answers recorded per second with it and without it.

With ``--database postgresql://…`` the same is measured on a fresh database of that server too
(its CPU time is then the bot's side only: the server is another process), and the medians are
printed side by side.
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

from bot.focus.questions import TOPICS
from bot.play import class_report as service
from bot.ui import question_report
from bot.ui.class_report import picture
from db.connection import to_db_time
from db.core import Database
from db.focus import FocusAnswer
from tools.bench import SideBySide, engines, fresh

GUILD = 1
NOW = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
DAYS = 120
ROUND = 6
PERIODS = ("week", "term", "all")
BATCH = 6_000
#: The figures of this run, by measure and engine.
SIDE = SideBySide()


def answers_of(students: int, answers: int, seed: int = 1) -> list[FocusAnswer]:
    """Rounds of six answers in one topic (one in twenty a teacher's own), on school days'
    hours over DAYS days, spread over the students."""
    rng = random.Random(seed)
    topics = [*TOPICS, "Fractions (Mme Roux)"]
    made: list[FocusAnswer] = []
    while len(made) < answers:
        user = 1000 + rng.randrange(students)
        topic = topics[-1] if rng.random() < 0.05 else rng.choice(TOPICS)
        start = NOW - timedelta(days=rng.randrange(DAYS), hours=rng.randrange(0, 10),
                                minutes=rng.randrange(60))
        skill = 0.5 + 0.5 * (user % 7) / 7
        for q in range(min(ROUND, answers - len(made))):
            right = rng.random() < skill
            made.append(FocusAnswer(GUILD, user, topic, 2, "6 × 7", 42, 42 if right else 41,
                                    int(rng.lognormvariate(8.6, 0.5)),
                                    answered_at=start + timedelta(seconds=9 * q)))
    return made


async def fill(db: Database, students: int, answers: int) -> float:
    """Store the answers (through the triggers); the seconds it took."""
    made = answers_of(students, answers)
    started = time.perf_counter()
    for start in range(0, len(made), BATCH):
        await db.focus.record_many(made[start:start + BATCH], now=NOW)
    return time.perf_counter() - started


def spread(times: list[tuple[float, float]]) -> str:
    """Wall-clock and CPU time (of the whole process: the database's thread too): the median,
    and the range. On a shared machine the CPU time is what the work itself costs."""
    wall = [w * 1000 for w, _ in times]
    cpu = [c * 1000 for _, c in times]
    return (f"median {statistics.median(wall):7.1f} ms ({min(wall):.1f}–{max(wall):.1f})"
            f"  CPU {statistics.median(cpu):7.1f} ms ({min(cpu):.1f}–{max(cpu):.1f})"
            f"  n={len(times)}")


async def timed(work: Callable[[], Awaitable[Any]], repeats: int
                ) -> tuple[list[tuple[float, float]], Any]:
    times, result = [], None
    for _ in range(repeats):
        started, cpu = time.perf_counter(), time.process_time()
        result = await work()
        times.append((time.perf_counter() - started, time.process_time() - cpu))
    return times, result


def median_ms(times: list[tuple[float, float]]) -> str:
    return f"{statistics.median(w for w, _ in times) * 1000:,.1f} ms"


async def report_figures(db: Database, repeats: int, size: str) -> None:
    names = {uid: f"Student name {uid}" for uid in range(1000, 1000 + 100_000)}
    for period in PERIODS:
        async def query(period: str = period) -> service.ClassReport:
            data = await service.answered(db, GUILD, period, now=NOW)
            return service.build(data, names, "en")

        times, report = await timed(query, repeats)
        answers = report.class_total.answers
        print(f"  {period:<5} {len(report.students):>5} students, {answers:>9,} answers")
        print(f"    query + build   {spread(times)}")
        SIDE.add(f"{size}, {period}: query + build", median_ms(times))

        async def draw(report: service.ClassReport = report) -> bytes:
            return picture(report, "en", 0)

        async def export(report: service.ClassReport = report) -> bytes:
            return service.report_csv(report, "fr")

        print(f"    picture, page 1 {spread((await timed(draw, repeats))[0])}")

        async def questions(report: service.ClassReport = report, period: str = period
                            ) -> Any:
            return question_report.class_files(report, "fr", period)

        times, _ = await timed(questions, repeats)
        print(f"    questions: {len(report.questions)} of {report.question_count:,} from"
              f" {report.answers_read:,} answers; picture and 2 CSVs {spread(times)}")
        SIDE.add(f"{size}, {period}: questions' picture and CSVs", median_ms(times))
        times, data = await timed(export, repeats)
        print(f"    CSV ({len(data) / 1024:,.0f} kB)   {spread(times)}")
        since = None if period == "all" else to_db_time(
            NOW - timedelta(days=service.PERIOD_DAYS[period] or 0))

        async def raw(since: str | None = since) -> list[Any]:
            return await db.connection.all(
                "SELECT user_id, topic, count(*), sum(correct) FROM focus_answers"
                " WHERE guild_id = ? AND answered_at >= ? GROUP BY user_id, topic",
                (GUILD, since or ""))

        times = (await timed(raw, repeats))[0]
        print(f"    (focus_answers, counts only: {spread(times)})")
        SIDE.add(f"{size}, {period}: focus_answers counts only", median_ms(times))


async def write_cost(folder: Path, rounds: int, server: str | None) -> None:
    made = answers_of(200, rounds * ROUND, seed=2)
    for label, drop in (("with the rollup's trigger", False), ("without it", True)):
        async with fresh(server, folder, f"writes_{int(drop)}") as location:
            db = await Database.open(location)
            try:
                if drop:
                    # PostgreSQL names a trigger within its table.
                    await db.connection.run("DROP TRIGGER focus_rollup_add" + (
                        " ON focus_answers" if db.engine == "postgresql" else ""))
                started = time.perf_counter()
                for start in range(0, len(made), ROUND):
                    await db.focus.record_many(made[start:start + ROUND], now=NOW)
                seconds = time.perf_counter() - started
            finally:
                await db.close()
        print(f"  rounds of 6 answers, one transaction each, {label:<26}"
              f" {rounds / seconds:8,.0f} rounds/s")
        SIDE.add(f"rounds of 6 answers per second, {label}", f"{rounds / seconds:,.0f}")


async def measure(sizes: list[tuple[int, int]], repeats: int, rounds: int,
                  database: str | None = None) -> None:
    with tempfile.TemporaryDirectory(prefix="ardoise-bench-") as name:
        folder = Path(name)
        for engine, server in engines(database):
            SIDE.engine = engine
            print(f"== {engine}")
            for students, answers in sizes:
                async with fresh(server, folder, f"report_{students}") as location:
                    db = await Database.open(location)
                    try:
                        seconds = await fill(db, students, answers)
                        rows = (await db.connection.all("SELECT count(*) FROM focus_rollup"))[0][0]
                        print(f"{students:,} students, {answers:,} answers over {DAYS} days"
                              f" (stored in {seconds:.1f} s; {rows:,} rollup rows)")
                        SIDE.add(f"{students:,} students: {answers:,} answers stored",
                                 f"{seconds:.1f} s")
                        await report_figures(db, repeats, f"{students:,} students")
                    finally:
                        await db.close()
            await write_cost(folder, rounds, server)
    if database:
        print("\nSide by side (medians):")
        print(SIDE.table())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.class_report",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7, help="measures of each (default 7)")
    parser.add_argument("--rounds", type=int, default=3_000,
                        help="rounds recorded to measure a write (default 3 000)")
    parser.add_argument("--quick", action="store_true",
                        help="30 students/1,200 answers and 100/6,000, for a try")
    parser.add_argument("--sizes", metavar="S:A,…", default=None,
                        help="servers of S students and A answers (default 30:20000,1000:1000000)")
    parser.add_argument("--database", metavar="URL", default=None,
                        help="a PostgreSQL server (postgresql://user@host:port/postgres): the"
                        " same work there too, side by side")
    args = parser.parse_args(argv)
    sizes = [(30, 1_200), (100, 6_000)] if args.quick else [(30, 20_000), (1_000, 1_000_000)]
    if args.sizes:
        sizes = [(int(s), int(a)) for s, a in (part.split(":") for part in args.sizes.split(","))]
    asyncio.run(measure(sizes, args.repeats, args.rounds, args.database))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
