"""``python -m bot.focus sample --level L --count N --seed S``: questions as JSON on stdout.

The contract is in ``shared/design/engine-commands.md``: ``{"questions": [{"text": "7 + 8",
"answer": 15, "topic": "addition"}, ...]}``, the same for the same seed. ``--ascii`` writes the
texts with + - * / instead of + − × ÷. Bad input: status 2, one line on stderr, nothing on stdout.

``sample --skill S [--level N]`` draws from level N (default 1) of a skill
(``bot.focus.skills``): each question also says its ``skill``, ``level`` (the skill's level) and
``form``, and its ``answer`` is an int, or a string: a fraction in lowest terms (``"3/4"``,
``"-5/2"``) or, for the decimals, a decimal with a point (``"0.75"``). ``skills`` lists the skills:
``[{"skill": "fractions-add", "topic": "fractions", "form": "fraction", "levels": [{"level": 1,
"name": …, "tier": 5}, …]}, …]`` (``tier``: the Focus level of the same difficulty).

``years`` lists the school years: ``[{"year": "5e", "country": "fr", "name": {"en": …, "fr":
…}, "levels": [1, …, 8]}, …]`` (the names are the catalogue's ``focus.school_years.*``, the ones
the bot shows). ``sample --year Y --level L`` draws the round a student of year Y at Focus level L
is asked (``bot.focus.school.draw_round``, the level's share widened to its neighbours when too
small): the questions as ``--skill`` writes them, ``level`` being the Focus level. ``--steps
--wrong X`` adds each question's ``"steps"``: the worked correction shown after the wrong answer
X (``bot.focus.steps``, in English), ``[]`` where X is the right answer.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import IO, Any

from bot.corrections import step_texts
from bot.domain import DomainError
from bot.engine_cli import BadInput, OneLineParser, run
from bot.focus.answers import read_exact
from bot.focus.exact import FRACTION, Exact, json_answer
from bot.focus.questions import (
    MAX_COUNT,
    MAX_LEVEL,
    MIN_LEVEL,
    Question,
    generate_questions,
)
from bot.focus.school import YEARS, check_year, draw_round
from bot.focus.skills import SKILLS, generate_skill
from bot.focus.steps import steps
from bot.texts import LANGS, t


def check_count(count: int) -> int:
    if not 1 <= count <= MAX_COUNT:
        raise DomainError("focus.bad_count",
                          f"the number of questions goes from 1 to {MAX_COUNT}, not {count!r}",
                          count=count, max=MAX_COUNT)
    return count


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="python -m bot.focus",
                           description="Focus questions on the command line.")
    commands = parser.add_subparsers(dest="command", parser_class=OneLineParser)
    sample = commands.add_parser("sample", help="N questions of level L, as JSON")
    sample.add_argument("--level", type=int, help="the level, 1 upward (of the skill with "
                                                   "--skill, 1 by default)")
    sample.add_argument("--skill", help="a skill's id (python -m bot.focus skills lists them)")
    sample.add_argument("--count", type=int, required=True,
                        help=f"how many questions, 1 to {MAX_COUNT}")
    sample.add_argument("--seed", type=int, required=True, help="the same seed, the same questions")
    sample.add_argument("--ascii", action="store_true", help="texts with + - * /")
    sample.add_argument("--year", help="a school year's id (python -m bot.focus years lists "
                                       "them): the round it draws at Focus level L")
    sample.add_argument("--steps", action="store_true",
                        help="each question's worked steps after the wrong answer --wrong X")
    sample.add_argument("--wrong", help="the wrong answer the steps follow (with --steps)")
    commands.add_parser("skills", help="the skills and their levels, as JSON")
    commands.add_parser("years", help="the school years, their names and levels, as JSON")
    return parser


def _years() -> list[dict[str, Any]]:
    return [{"year": year.id, "country": year.country,
             "name": {lang: t(f"focus.school_years.{year.id}", lang) for lang in LANGS},
             "levels": list(range(MIN_LEVEL, MAX_LEVEL + 1))} for year in YEARS.values()]


def _steps(question: Question, wrong: Exact) -> list[str]:
    """The worked steps a member reads after answering ``wrong`` (none after a right answer)."""
    if wrong == question.answer:
        return []
    found = steps(question.skill, question.text, question.answer)
    return [] if found is None else step_texts(found, "en")


def main(argv: list[str] | None = None, *, stdin: IO[Any] | None = None,
         stdout: IO[str] | None = None, stderr: IO[str] | None = None) -> int:
    """The command line; the streams default to the process's own (tests pass their own).
    ``stdin`` is not read: every command takes its input from argv."""
    def command() -> str:
        args = _parser().parse_args(argv)
        if args.command == "skills":
            return json.dumps([skill.to_json() for skill in SKILLS.values()],
                              ensure_ascii=False)
        if args.command == "years":
            return json.dumps(_years(), ensure_ascii=False)
        if args.command != "sample":
            raise BadInput("give a command: sample, skills or years")
        if args.steps != (args.wrong is not None):
            raise BadInput("--steps and --wrong X go together")
        wrong = None if args.wrong is None else read_exact(args.wrong, FRACTION)
        if args.year is not None:
            if args.skill is not None or args.level is None:
                raise BadInput("sample --year Y needs --level L (and no --skill)")
            check_year(args.year)
            questions = draw_round(args.year, args.level, check_count(args.count),
                                   random.Random(args.seed))
            rows: list[dict[str, Any]] = []
            for q in questions:
                row: dict[str, Any] = {
                    "text": q.ascii if args.ascii else q.text,
                    "answer": json_answer(q.answer, q.form), "topic": q.topic,
                    "skill": q.skill, "level": q.level, "form": q.form}
                if wrong is not None:
                    row["steps"] = _steps(q, wrong)
                rows.append(row)
            return json.dumps({"questions": rows}, ensure_ascii=False)
        if wrong is not None:
            raise BadInput("--steps goes with --year")
        if args.skill is not None:
            level = 1 if args.level is None else args.level
            questions = generate_skill(args.skill, level, args.count, random.Random(args.seed))
            out = {"questions": [{"text": q.ascii if args.ascii else q.text,
                                  "answer": json_answer(q.answer, q.form), "topic": q.topic,
                                  "skill": q.skill, "level": level, "form": q.form}
                                 for q in questions]}
            return json.dumps(out, ensure_ascii=False)
        if args.level is None:
            raise BadInput("sample needs --level L (or --skill S)")
        questions = generate_questions(args.level, args.count, random.Random(args.seed))
        out = {"questions": [{"text": q.ascii if args.ascii else q.text, "answer": q.answer,
                              "topic": q.topic} for q in questions]}
        return json.dumps(out, ensure_ascii=False)

    return run(command, prefix="python -m bot.focus: ", stdout=stdout, stderr=stderr)


if __name__ == "__main__":
    raise SystemExit(main())
