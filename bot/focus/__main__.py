"""``python -m bot.focus sample --level L --count N --seed S``: questions as JSON on stdout.

The contract is in ``shared/design/engine-commands.md``: ``{"questions": [{"text": "7 + 8",
"answer": 15, "topic": "addition"}, ...]}``, the same for the same seed. ``--ascii`` writes the
texts with + - * / instead of + − × ÷. Bad input: status 2, one line on stderr, nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import NoReturn

from bot.domain import DomainError
from bot.focus.questions import MAX_COUNT, generate_questions


class _OneLineParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _BadInput(message)


class _BadInput(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(prog="python -m bot.focus",
                            description="Focus questions on the command line.")
    commands = parser.add_subparsers(dest="command", parser_class=_OneLineParser)
    sample = commands.add_parser("sample", help="N questions of level L, as JSON")
    sample.add_argument("--level", type=int, required=True, help="the level, 1 upward")
    sample.add_argument("--count", type=int, required=True,
                        help=f"how many questions, 1 to {MAX_COUNT}")
    sample.add_argument("--seed", type=int, required=True, help="the same seed, the same questions")
    sample.add_argument("--ascii", action="store_true", help="texts with + - * /")
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        if args.command != "sample":
            raise _BadInput("give a command: sample")
        questions = generate_questions(args.level, args.count, random.Random(args.seed))
    except _BadInput as error:
        print(f"python -m bot.focus: {error}", file=sys.stderr)
        return 2
    except DomainError as error:
        print(f"python -m bot.focus: {error}", file=sys.stderr)
        return 2
    out = {"questions": [{"text": q.ascii if args.ascii else q.text, "answer": q.answer,
                          "topic": q.topic} for q in questions]}
    if hasattr(sys.stdout, "reconfigure"):  # × and ÷ whatever the terminal's encoding
        sys.stdout.reconfigure(encoding="utf-8")
    sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
