"""``taskset -c 0 python -m tools.bench.focus``: how fast Focus makes questions and plays rounds.

Prints questions generated per second at each level and overall (rounds of six different
questions), and complete rounds per second: six questions generated, six typed answers read and
marked, the round sent through JSON and back. Each figure is the best of several repeats, as
timeit does, so that a moment of sharing the core does not count. ``--skills``: questions per
second at each level of each skill (``bot.focus.skills``) instead.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from bot.focus.questions import LEVELS, ROUND_SIZE, generate_questions
from bot.focus.round import FocusRound
from bot.focus.skills import SKILLS, generate_skill


def _rate(work: int, seconds: float) -> str:
    return f"{work / seconds:,.0f}".replace(",", " ")


def questions_per_second(level: int, rounds: int, seed: int = 1) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(rounds):
        generate_questions(level, ROUND_SIZE, rng)
    return rounds * ROUND_SIZE / (time.perf_counter() - start)


def rounds_per_second(rounds: int, seed: int = 1) -> float:
    rng = random.Random(seed)
    levels = sorted(LEVELS)
    start = time.perf_counter()
    for n in range(rounds):
        focus = FocusRound.new(levels[n % len(levels)], rng)
        while (question := focus.current) is not None:
            # typed as a player would, with a thousands space now and then, one answer in 3 wrong
            typed = f"{question.answer + (n % 3 == 0):,}".replace(",", "\u202f")
            focus.answer(typed, 1.5)
        FocusRound.from_json(json.loads(json.dumps(focus.to_json())))
    return rounds / (time.perf_counter() - start)


def skill_questions_per_second(skill: str, level: int, rounds: int, seed: int = 1) -> float:
    """Rounds of six different questions of one level of a skill (``bot.focus.skills``)."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(rounds):
        generate_skill(skill, level, ROUND_SIZE, rng)
    return rounds * ROUND_SIZE / (time.perf_counter() - start)


def best(measure, repeats: int) -> float:
    return max(measure() for _ in range(repeats))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.focus")
    parser.add_argument("--rounds", type=int, default=4_000,
                        help="rounds of six questions per measure (default 4 000)")
    parser.add_argument("--repeats", type=int, default=5, help="measures, best kept (default 5)")
    parser.add_argument("--skills", action="store_true",
                        help="questions per second of each level of each skill instead")
    args = parser.parse_args(argv)
    if args.skills:
        for skill in SKILLS.values():
            rates = [best(lambda s=skill.id, n=lv.number: skill_questions_per_second(
                s, n, args.rounds), args.repeats) for lv in skill.levels]
            print(f"{skill.id}: " + " · ".join(
                f"level {n}: {_rate(round(rate), 1.0)}" for n, rate in enumerate(rates, 1))
                + " questions/s")
        return 0
    total_questions, total_seconds = 0, 0.0
    for level in sorted(LEVELS):
        rate = best(lambda level=level: questions_per_second(level, args.rounds), args.repeats)
        total_questions += args.rounds * ROUND_SIZE
        total_seconds += args.rounds * ROUND_SIZE / rate
        print(f"level {level}: {_rate(round(rate), 1.0)} questions/s")
    print(f"all levels: {_rate(total_questions, total_seconds)} questions/s")
    rounds = best(lambda: rounds_per_second(args.rounds), args.repeats)
    print(f"rounds (generate, answer 6, JSON round trip): {_rate(round(rounds), 1.0)} rounds/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
