"""``python -m bot.digits``: The 20 Digits on the command line, JSON in on stdin, JSON out.

The contracts are in ``shared/design/engine-commands.md``. Bad input (malformed JSON, unknown digit,
bad cell or level, wrong types) exits with status 2 and one line on stderr, nothing on stdout.

To add a subcommand: write a handler ``def _name(args: argparse.Namespace) -> Any`` that returns
the JSON answer (``read_json(args.stdin)`` gives the input; raise :class:`BadInput` for bad
input), then register it in :func:`build_parser` with ``add_parser`` and
``set_defaults(handler=...)``. Reading, limits and the one error line are :mod:`bot.engine_cli`'s.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import IO, Any

from bot.digits.battle import MAX_FOCUS, SIDES, fight
from bot.digits.ghosts import LEVELS
from bot.digits.levels import DEFAULT_LEVEL
from bot.digits.players import PLAYERS
from bot.digits.slate import Slate, SlateError
from bot.engine_cli import (
    BadInput,
    OneLineParser,
    check_keys,
    describe,
    read_json,
    run,
    whole_number,
)

MAX_ROUNDS = 1000  # `match --rounds`: a match between two bots that keep drawing must end


def battle_input(data: Any) -> tuple[Slate, Slate, int, int]:
    """The two slates and Focus scores of a ``battle`` input."""
    check_keys(data, "the input", ("left", "right", "seed"), ("left", "right"))
    if data.get("seed") is not None:
        whole_number(data["seed"], "seed")
    slates: list[Slate] = []
    focus: list[int] = []
    for side in SIDES:
        check_keys(data[side], side, ("slate", "focus"), ("slate",))
        try:
            slates.append(Slate.from_json(data[side]["slate"]))
        except SlateError as e:
            raise BadInput(f"{side} slate: {e}") from None
        focus.append(whole_number(data[side].get("focus", 0), f"{side} focus", 0, MAX_FOCUS))
    return slates[0], slates[1], focus[0], focus[1]


def _battle(args: argparse.Namespace) -> Any:
    left, right, left_focus, right_focus = battle_input(read_json(args.stdin))
    # "seed" is accepted and ignored: battles have no randomness (engine-commands.md).
    return fight(left, right, left_focus, right_focus).to_json()


def _odds(args: argparse.Namespace) -> Any:
    from bot.digits.odds import DEFAULT_ACCURACY, DEFAULT_BATTLES, odds

    data = read_json(args.stdin)
    check_keys(data, "the input", ("player", "opponents", "battles", "seed", "accuracy"),
               ("player", "opponents"))

    def side(value: Any, where: str) -> tuple[Slate, int | None]:
        # A Focus score as in "battle" (0 when not given), or null: unknown, drawn with accuracy.
        check_keys(value, where, ("slate", "focus"), ("slate",))
        try:
            slate = Slate.from_json(value["slate"])
        except SlateError as e:
            raise BadInput(f"{where} slate: {e}") from None
        focus = value.get("focus", 0)
        return slate, None if focus is None else whole_number(focus, f"{where} focus", 0,
                                                              MAX_FOCUS)

    slate, focus = side(data["player"], "player")
    if not isinstance(data["opponents"], list) or not data["opponents"]:
        raise BadInput("opponents must be a non-empty list of {\"slate\": …, \"focus\": …}")
    opponents = [side(o, f"opponent {i + 1}") for i, o in enumerate(data["opponents"])]
    battles = whole_number(data.get("battles", DEFAULT_BATTLES), "battles", 1, 1_000_000)
    seed = whole_number(data.get("seed", 0), "seed")
    accuracy = data.get("accuracy", DEFAULT_ACCURACY)
    if isinstance(accuracy, bool) or not isinstance(accuracy, int | float) \
            or not 0 <= accuracy <= 1:
        raise BadInput(f"accuracy must be a number from 0 to 1, not {describe(accuracy)}")
    return odds(slate, focus, opponents, battles=battles, rng=random.Random(seed),
                accuracy=accuracy).to_json()


def _match(args: argparse.Namespace) -> Any:
    from bot.digits.baseline import play_bot_match
    from bot.digits.levels import play_solo
    from bot.digits.shop import MatchSettings

    if args.rounds is not None:
        whole_number(args.rounds, "--rounds", 1, MAX_ROUNDS)
    if args.level is not None and not args.solo:
        raise BadInput("--level is the level of a solo match's shadow: add --solo")
    if args.player is not None and not args.solo:
        raise BadInput("--player is the player model of a solo match: add --solo")
    changes = {"draft": args.draft} | ({} if args.rounds is None else {"rounds": args.rounds})
    settings = MatchSettings.from_json(changes)
    if args.solo:
        # A player model alone against the shadow at that level (bot.digits.levels).
        match = play_solo(args.seed, args.level or DEFAULT_LEVEL, settings,
                          player=args.player or "baseline")
    else:
        match = play_bot_match(args.seed, settings)
    return match.summary() if args.text else match.record()


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="python -m bot.digits",
        description="The 20 Digits on the command line: JSON on stdin, JSON on stdout.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                     parser_class=OneLineParser)
    commands.add_parser(
        "battle", help="fight two slates",
        description='Reads {"left": {"slate": …, "focus": 0}, "right": {…}, "seed": 7} on stdin '
                    "and prints the battle: winner, exchanges, opening, log, survivors.",
    ).set_defaults(handler=_battle)
    commands.add_parser(
        "odds", help="win, draw and loss percentages of a slate against likely opponents",
        description='Reads {"player": {"slate": …, "focus": 3}, "opponents": [{"slate": …, '
                    '"focus": 2}, …], "battles": 2000, "seed": 7, "accuracy": 0.75} on stdin '
                    "and prints the odds. A focus of null is unknown: drawn for each battle "
                    "(6 questions, each right with probability accuracy).",
    ).set_defaults(handler=_odds)
    match = commands.add_parser(
        "match", help="play a whole match between two bot players",
        description="Plays a match between two bot players (with --solo: the player model "
                    "--player alone against the shadow at --level) and prints its record (JSON), "
                    'or a readable summary with --text. Each round of "rounds" has "lives", the '
                    'lives of each side after it ({"A": 9, "ghost": 7} in a solo match).')
    match.add_argument("--seed", type=int, default=0, help="the match's seed (default 0)")
    match.add_argument("--rounds", type=int, default=None,
                       help=f"rounds at most, 1 to {MAX_ROUNDS} (default 15)")
    match.add_argument("--draft", action="store_true", help="the draft variant")
    match.add_argument("--text", action="store_true", help="a readable summary, not JSON")
    match.add_argument("--solo", action="store_true",
                       help='a player model ("A", --player) alone against the shadow of a solo '
                            'match ("ghost"): "winner" is one of them or "draw"')
    match.add_argument("--level", choices=LEVELS, default=None,
                       help=f"the shadow's level with --solo (default {DEFAULT_LEVEL})")
    match.add_argument("--player", choices=tuple(PLAYERS), default=None,
                       help="the player model with --solo: baseline (default; reads roles and "
                            "places its digits), greedy (the quick child: 6/6 Focus, the dearest "
                            "digit it can afford, merges, sells its weakest for a dearer one, "
                            "rerolls spare gold, never moves a digit) or novice (each Focus "
                            "question right 2 times in 3, the first digit it can afford, never "
                            "sells, merges, rerolls or moves)")
    match.set_defaults(handler=_match)
    return parser


def main(argv: list[str] | None = None, *, stdin: IO[Any] | None = None,
         stdout: IO[str] | None = None, stderr: IO[str] | None = None) -> int:
    """The command line; the streams default to the process's own (tests pass their own)."""
    def command() -> str:
        args = build_parser().parse_args(argv)
        args.stdin = sys.stdin if stdin is None else stdin
        answer = args.handler(args)
        return answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)

    return run(command, prefix="error: ", stdout=stdout, stderr=stderr, refused=(SlateError,))


if __name__ == "__main__":
    raise SystemExit(main())
