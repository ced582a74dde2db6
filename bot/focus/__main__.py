"""``python -m bot.focus sample --level L --count N --seed S``: questions as JSON on stdout.

The contract is in ``shared/design/engine-commands.md``: ``{"questions": [{"text": "7 + 8",
"answer": 15, "topic": "addition"}, ...]}``, the same for the same seed. ``--ascii`` writes the
texts with + - * / instead of + − × ÷. Bad input: status 2, one line on stderr, nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import IO, Any

from bot.engine_cli import BadInput, OneLineParser, run
from bot.focus.questions import MAX_COUNT, generate_questions


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="python -m bot.focus",
                           description="Focus questions on the command line.")
    commands = parser.add_subparsers(dest="command", parser_class=OneLineParser)
    sample = commands.add_parser("sample", help="N questions of level L, as JSON")
    sample.add_argument("--level", type=int, required=True, help="the level, 1 upward")
    sample.add_argument("--count", type=int, required=True,
                        help=f"how many questions, 1 to {MAX_COUNT}")
    sample.add_argument("--seed", type=int, required=True, help="the same seed, the same questions")
    sample.add_argument("--ascii", action="store_true", help="texts with + - * /")
    return parser


def main(argv: list[str] | None = None, *, stdin: IO[Any] | None = None,
         stdout: IO[str] | None = None, stderr: IO[str] | None = None) -> int:
    """The command line; the streams default to the process's own (tests pass their own).
    ``stdin`` is not read: every command takes its input from argv."""
    def command() -> str:
        args = _parser().parse_args(argv)
        if args.command != "sample":
            raise BadInput("give a command: sample")
        questions = generate_questions(args.level, args.count, random.Random(args.seed))
        out = {"questions": [{"text": q.ascii if args.ascii else q.text, "answer": q.answer,
                              "topic": q.topic} for q in questions]}
        return json.dumps(out, ensure_ascii=False)

    return run(command, prefix="python -m bot.focus: ", stdout=stdout, stderr=stderr)


if __name__ == "__main__":
    raise SystemExit(main())
