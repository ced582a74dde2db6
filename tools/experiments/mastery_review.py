"""``python -m tools.experiments.mastery_review``: does practice chosen from the mastery model
(``bot.focus.review``) master the multiplication table sooner than today's rounds drawn at
random (measured, side by side)?

A simulated student practises at level 4 (the tables to 10 and exact division), a few rounds a
day. They know a share of the table's 45 facts (``a × b``, 2 ≤ a ≤ b ≤ 10) from the start and
answer those right and fast; any other fact of the table they answer wrong, and learn it after
its third correction (the round shows the right answer: from then on, right and fast). Every
other question (divisions, the next level's) they answer right and fast: only the table is
measured. The model (``bot.focus.mastery``) records every answer in both runs; the runs differ
only in how rounds are chosen: ``choose_round`` (reviews, the weakest first, one of the next
level) or ``generate_questions`` (six at random). A run ends when every fact of the table is
Mastered, which needs the spaced reviews of 1 and 3 days: so it counts rounds *and* days.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from bot.focus.mastery import MASTERED, Evidence, Mastery, fact_of
from bot.focus.questions import ROUND_SIZE, Question, generate_questions
from bot.focus.review import choose_round

LEVEL = 4
TABLE = tuple(f"{a}*{b}" for a in range(2, 11) for b in range(a, 11))
START = datetime(2026, 9, 1, 8, tzinfo=UTC)
FAST_SECONDS, WRONG_SECONDS = 1.5, 4.0


@dataclass
class Student:
    """Knows ``known``; learns any other fact of the table at its ``corrections``-th
    correction."""

    known: set[str]
    corrections: int = 3
    seen_wrong: dict[str, int] = field(default_factory=dict)

    def answer(self, question: Question) -> tuple[bool, float]:
        fact = fact_of(question.ascii)
        if fact not in TABLE or fact in self.known:
            return True, FAST_SECONDS
        self.seen_wrong[fact] = self.seen_wrong.get(fact, 0) + 1
        if self.seen_wrong[fact] >= self.corrections:
            self.known.add(fact)  # the third correction: known from the next time
        return False, WRONG_SECONDS


@dataclass(frozen=True)
class Run:
    review: bool
    rounds: int | None  # None: not every fact mastered within the budget
    days: int
    mastered: int  # facts of the table mastered at the end


def table_mastered(model: Mastery) -> int:
    return sum(1 for fact in TABLE if (item := model.fact(fact)) and item.level == MASTERED)


def simulate(*, review: bool, seed: int = 1, known: float = 0.6, corrections: int = 3,
             rounds_per_day: int = 3, max_rounds: int = 2000) -> Run:
    """One simulated student from the start until the table is mastered (or ``max_rounds``)."""
    rng = random.Random(seed)
    student = Student(set(rng.sample(TABLE, round(known * len(TABLE)))), corrections)
    model = Mastery()
    for n in range(1, max_rounds + 1):
        day, slot = divmod(n - 1, rounds_per_day)
        now = START + timedelta(days=day, hours=3 * slot)  # rounds three hours apart
        if review:
            questions = choose_round(model, LEVEL, rng, now, next_level=LEVEL + 1)
        else:
            questions = generate_questions(LEVEL, ROUND_SIZE, rng)
        for i, question in enumerate(questions):
            correct, seconds = student.answer(question)
            model.record(Evidence(question.text, question.topic, question.level, correct,
                                  seconds, now + timedelta(seconds=10 * i)))
        if table_mastered(model) == len(TABLE):
            return Run(review, n, day + 1, len(TABLE))
    return Run(review, None, (max_rounds - 1) // rounds_per_day + 1, table_mastered(model))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.experiments.mastery_review",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="students simulated (seeds)")
    parser.add_argument("--known", type=float, default=0.6, help="share of the table known")
    parser.add_argument("--corrections", type=int, default=3)
    parser.add_argument("--rounds-per-day", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"{len(TABLE)} facts, {args.known:.0%} known, learnt at the {args.corrections}rd "
          f"correction, {args.rounds_per_day} rounds a day, {args.seeds} students")
    print(f"{'seed':>4}  {'with review':>18}  {'without review':>18}")
    totals: dict[bool, list[int]] = {True: [], False: []}
    for seed in range(1, args.seeds + 1):
        cells = []
        for review in (True, False):
            run = simulate(review=review, seed=seed, known=args.known,
                           corrections=args.corrections, rounds_per_day=args.rounds_per_day)
            if run.rounds is None:
                cells.append(f"not within budget ({run.mastered}/{len(TABLE)})")
            else:
                totals[review].append(run.rounds)
                cells.append(f"{run.rounds} rounds, {run.days} days")
        print(f"{seed:>4}  {cells[0]:>18}  {cells[1]:>18}")
    for review, label in ((True, "with review"), (False, "without review")):
        rounds = sorted(totals[review])
        if rounds:
            print(f"{label}: median {rounds[len(rounds) // 2]} rounds, worst {rounds[-1]} "
                  f"({len(rounds)}/{args.seeds} students mastered the table)")


if __name__ == "__main__":
    main()
