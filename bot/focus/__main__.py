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
"""

from __future__ import annotations

import argparse
import json
import random
from typing import IO, Any

from bot.engine_cli import BadInput, OneLineParser, run
from bot.focus.exact import json_answer
from bot.focus.questions import MAX_COUNT, generate_questions
from bot.focus.skills import SKILLS, generate_skill


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
    commands.add_parser("skills", help="the skills and their levels, as JSON")
    return parser


def main(argv: list[str] | None = None, *, stdin: IO[Any] | None = None,
         stdout: IO[str] | None = None, stderr: IO[str] | None = None) -> int:
    """The command line; the streams default to the process's own (tests pass their own).
    ``stdin`` is not read: every command takes its input from argv."""
    def command() -> str:
        args = _parser().parse_args(argv)
        if args.command == "skills":
            return json.dumps([skill.to_json() for skill in SKILLS.values()],
                              ensure_ascii=False)
        if args.command != "sample":
            raise BadInput("give a command: sample or skills")
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
