"""``python -m tools.bench.mastery``: the cost of choosing a practice round from a member's
mastery when they have given 10,000 answers.

Prints, each the best of several repeats (as timeit does): the model worked out from the
10,000 answers (the one-off backfill of a member from before the model), one round chosen from
it (``bot.focus.review.choose_round``, pure), the model read from the database and a round
chosen (what ``/focus practice`` does before its first question), and one answer stored with
the mastery it moves (``db.focus.record``).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.focus.mastery import Evidence, Mastery
from bot.focus.questions import LEVELS, generate_questions
from bot.focus.review import choose_round
from db import Database, FocusAnswer

START = datetime(2026, 9, 1, 8, tzinfo=UTC)
GUILD, USER = 1, 2


def answers(count: int, seed: int = 1) -> list[FocusAnswer]:
    """``count`` answers over a term at every level, one in four wrong, 1 to 6 s."""
    rng = random.Random(seed)
    out: list[FocusAnswer] = []
    while len(out) < count:
        level = rng.choice(sorted(LEVELS))
        for q in generate_questions(level, 6, rng):
            at = START + timedelta(minutes=len(out) * 7)
            wrong = rng.random() < 0.25
            out.append(FocusAnswer(GUILD, USER, q.topic, q.level, q.text, q.answer,
                                   q.answer + wrong, rng.randint(1000, 6000),
                                   answered_at=at))
    return out[:count]


def evidence(stored: list[FocusAnswer]) -> list[Evidence]:
    return [Evidence(a.question, a.topic, a.level, a.correct, a.time_ms / 1000,
                     a.answered_at or START) for a in stored]


def best(repeats: int, work: object) -> float:
    """The best time of ``repeats`` calls of ``work`` (a callable), in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


async def best_async(repeats: int, work: object) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        await work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


async def measure(count: int, repeats: int) -> dict[str, float]:
    made = answers(count)
    facts = evidence(made)
    now = (made[-1].answered_at or START) + timedelta(hours=20)
    figures: dict[str, float] = {}
    figures["model from the answers"] = best(repeats, lambda: Mastery().record_all(facts))
    model = Mastery()
    model.record_all(facts)
    figures["items in the model"] = len(model.items)
    rng = random.Random(3)
    figures["round chosen (pure)"] = best(
        repeats * 20, lambda: choose_round(model, 4, rng, now, next_level=5))
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bench.sqlite3")
        try:
            for start in range(0, len(made), 5000):
                await db.focus.record_many(made[start:start + 5000])

            async def load_and_choose() -> None:
                choose_round(await db.mastery.load(GUILD, USER), 4, rng, now, next_level=5)

            figures["model read + round chosen (db)"] = await best_async(repeats * 5,
                                                                          load_and_choose)
            n = 0

            async def one_answer() -> None:
                nonlocal n
                n += 1
                await db.focus.record(FocusAnswer(GUILD, USER, "multiplication", 4, "7 × 8",
                                                  56, 56, 1500, answered_at=now,
                                                  round_key="bench", question_no=n))

            figures["one answer stored with its mastery"] = await best_async(repeats * 5,
                                                                              one_answer)
        finally:
            await db.close()
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.mastery",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    figures = asyncio.run(measure(args.answers, args.repeats))
    print(f"a member with {args.answers} answers")
    for name, value in figures.items():
        text = f"{value:.0f}" if name.startswith("items") else f"{value * 1000:.2f} ms"
        print(f"  {name:<38} {text}")


if __name__ == "__main__":
    main()
