"""``python -m tools.bench.mastery``: the cost of choosing a practice round from a member's
mastery when they have given 10,000 answers.

Prints, each the best of several repeats (as timeit does): the model worked out from the
10,000 answers (the one-off backfill of a member from before the model), one round chosen from
it (``bot.focus.review.choose_round``, pure), the model read from the database and a round
chosen (what ``/focus practice`` does before its first question), and one answer stored with
the mastery it moves (``db.focus.record``): the long way (its transaction reads the items) and,
with the model a practice round keeps (issue 24), the one statement; each beside plain
``sqlite3`` running the same statements with the same Python work (the rows, the model moved) in
this thread, and the ratio: what ``db/`` and aiosqlite's hops add. Those are CPU times of the
process (aiosqlite's threads included), the best of ``--repeats`` runs of ``--writes`` answers.
Then the same one statement given by 50 members at the same moment, again and again (``db/``
commits those of a moment together, ``Connection.grouped``), beside plain sqlite3 with a commit
an answer and with a commit a moment.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.focus.mastery import Evidence, Mastery, keys_of
from bot.focus.questions import LEVELS, generate_questions
from bot.focus.review import choose_round
from db import Database, FocusAnswer
from db.focus import _INSERT, _INSERT_MOVING, _MOVING_TRIGGER, _MOVING_VIEW, _row
from db.mastery import _TYPED_KEY, _UPSERT, MasteryRepository, _item, _values
from db.mastery import evidence as answer_evidence

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


async def measure(count: int, repeats: int, writes: int = 2000) -> dict[str, float]:
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
        figures.update(await storage(Path(folder), writes, repeats))
        figures.update(await together(Path(folder), writes, repeats))
    return figures


def _answers(count: int, start: datetime, key: str, user: int = USER) -> list[FocusAnswer]:
    """Answers a member gives in practice rounds, six a round, facts coming back."""
    rng = random.Random(7 + user)
    out = []
    for n in range(count):
        a, b = rng.randint(2, 9), rng.randint(2, 9)
        out.append(FocusAnswer(GUILD, user, "multiplication", 4, f"{a} × {b}", a * b,
                               a * b + (rng.random() < 0.25), rng.randint(900, 5000),
                               answered_at=start + timedelta(seconds=5 * n),
                               round_key=f"{key}:{n // 6}", question_no=n % 6))
    return out


def _raw_long(conn: sqlite3.Connection, answer: FocusAnswer, now: datetime) -> None:
    """``db.focus.record``'s long way, in plain sqlite3: BEGIN, the answer, the items read,
    moved, written, COMMIT."""
    conn.execute("BEGIN IMMEDIATE")
    if conn.execute(_INSERT, _row(answer, now)).rowcount == 1:
        found = answer_evidence(answer, now)
        keys = sorted(keys_of([found]))
        rows = conn.execute(
            f"SELECT * FROM focus_mastery WHERE (guild_id, user_id, kind, item) IN"
            f" (VALUES {', '.join([_TYPED_KEY] * len(keys))})",
            [v for kind, key in keys for v in (GUILD, USER, kind, key)]).fetchall()
        changed = Mastery(_item(row) for row in rows).record_all([found])
        out = [_values(GUILD, USER, item) for item in changed.values()]
        if len(out) == 1:
            conn.execute(_UPSERT, out[0])
        else:
            conn.executemany(_UPSERT, out)
    conn.execute("COMMIT")


async def storage(folder: Path, writes: int, repeats: int) -> dict[str, float]:
    """One answer with its mastery: db/ (the long way, then one statement with a known model)
    beside plain sqlite3 running the same statements, CPU time of the process an answer."""
    start = START + timedelta(days=200)
    figures: dict[str, float] = {}
    times: dict[str, list[float]] = {}
    for repeat in range(repeats):
        for way in ("long", "one"):
            path = folder / f"storage-{way}-{repeat}.sqlite3"
            db = await Database.open(path)
            await db.players.ensure(GUILD, USER)
            answers = _answers(writes, start, f"practice:{way}")
            known = await db.mastery.load(GUILD, USER) if way == "one" else None
            begun = time.process_time()
            for answer in answers:
                await db.focus.record(answer, now=start, known=known)
            times.setdefault(f"db/ {way}", []).append((time.process_time() - begun) / writes)
            await db.close()
            raw = sqlite3.connect(path.with_name(f"raw-{path.name}"), isolation_level=None)
            raw.row_factory = sqlite3.Row  # as db/ reads rows
            # The database file as db/ made it, copied: the same tables, indexes, triggers.
            source = sqlite3.connect(path)
            source.backup(raw)
            source.close()
            for pragma in ("PRAGMA journal_mode = WAL", "PRAGMA foreign_keys = ON",
                           "PRAGMA synchronous = NORMAL", "DELETE FROM focus_answers",
                           "DELETE FROM focus_mastery"):
                raw.execute(pragma)
            raw.execute(_MOVING_VIEW)
            raw.execute(_MOVING_TRIGGER)
            model = Mastery()
            repository = MasteryRepository.__new__(MasteryRepository)
            begun = time.process_time()
            for answer in answers:
                if way == "long":
                    _raw_long(raw, answer, start)
                else:
                    changed, moves = repository.moves(model, answer, start)
                    raw.execute(_INSERT_MOVING, (*_row(answer, start), moves))
                    model.items.update(changed)
            times.setdefault(f"raw {way}", []).append((time.process_time() - begun) / writes)
            raw.close()
    for way, label in (("long", "the long way (5 statements)"),
                       ("one", "one statement, the round's model known")):
        ours, raw_ = min(times[f"db/ {way}"]), min(times[f"raw {way}"])
        figures[f"answer + mastery, {label}: db/"] = ours
        figures[f"answer + mastery, {label}: raw sqlite3"] = raw_
        figures[f"answer + mastery, {label}: ratio"] = ours / raw_
    return figures


def _raw_copy(path: Path) -> sqlite3.Connection:
    """Plain sqlite3 on a copy of the file ``db/`` made (the same tables, indexes, triggers),
    its answers and mastery emptied, the view of the one statement made."""
    raw = sqlite3.connect(path.with_name(f"raw-{path.name}"), isolation_level=None)
    raw.row_factory = sqlite3.Row
    source = sqlite3.connect(path)
    source.backup(raw)
    source.close()
    for pragma in ("PRAGMA journal_mode = WAL", "PRAGMA foreign_keys = ON",
                   "PRAGMA synchronous = NORMAL", "DELETE FROM focus_answers",
                   "DELETE FROM focus_mastery"):
        raw.execute(pragma)
    raw.execute(_MOVING_VIEW)
    raw.execute(_MOVING_TRIGGER)
    return raw


async def together(folder: Path, writes: int, repeats: int, members: int = 50
                   ) -> dict[str, float]:
    """``members`` members answering at the same moment, again and again (the load
    benchmark's Focus at its peak), each answer the one statement with its round's model:
    ``db/`` (``Connection.grouped`` commits those of one moment together) beside plain sqlite3
    running the same statements one commit an answer, and one commit a moment. CPU time of the
    process an answer, the best of ``repeats``."""
    start = START + timedelta(days=300)
    rounds = max(1, writes // members)
    times: dict[str, list[float]] = {}
    for repeat in range(repeats):
        path = folder / f"together-{repeat}.sqlite3"
        db = await Database.open(path)
        users = [USER + 1 + m for m in range(members)]
        await db.players.ensure_many([(GUILD, user) for user in users])
        given = {user: _answers(rounds, start, "practice:together", user) for user in users}
        known = {user: await db.mastery.load(GUILD, user) for user in users}
        begun = time.process_time()
        for n in range(rounds):
            await asyncio.gather(*(db.focus.record(given[user][n], now=start, known=known[user])
                                   for user in users))
        times.setdefault("db/", []).append((time.process_time() - begun) / (rounds * members))
        await db.close()
        for way in ("a commit an answer", "a commit a moment"):
            raw = _raw_copy(path)
            models = {user: Mastery() for user in users}
            repository = MasteryRepository.__new__(MasteryRepository)
            begun = time.process_time()
            for n in range(rounds):
                if way == "a commit a moment":
                    raw.execute("BEGIN IMMEDIATE")
                for user in users:
                    changed, moves = repository.moves(models[user], given[user][n], start)
                    raw.execute(_INSERT_MOVING, (*_row(given[user][n], start), moves))
                    models[user].items.update(changed)
                if way == "a commit a moment":
                    raw.execute("COMMIT")
            times.setdefault(f"raw {way}", []).append(
                (time.process_time() - begun) / (rounds * members))
            raw.close()
            path.with_name(f"raw-{path.name}").unlink()
    ours = min(times["db/"])
    label = f"{members} members at once, one statement each"
    figures = {f"answer + mastery, {label}: db/": ours}
    for way in ("a commit an answer", "a commit a moment"):
        figures[f"answer + mastery, {label}: raw sqlite3, {way}"] = min(times[f"raw {way}"])
        figures[f"answer + mastery, {label}: against raw, {way}: ratio"] = (
            ours / min(times[f"raw {way}"]))
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.mastery",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--writes", type=int, default=2000,
                        help="answers stored a run, for the storage against plain sqlite3")
    args = parser.parse_args(argv)
    figures = asyncio.run(measure(args.answers, args.repeats, args.writes))
    print(f"a member with {args.answers} answers")
    for name, value in figures.items():
        text = (f"{value:.0f}" if name.startswith("items") else f"{value:.2f}×"
                if name.endswith("ratio") else f"{value * 1000:.3f} ms")
        print(f"  {name:<64} {text}")


if __name__ == "__main__":
    main()
