"""What the three engine command lines share: reading JSON input, one-line argparse errors, and
the runner that turns any outcome into exit 0 with the answer, or exit 2 with one line on stderr.

The contract (``shared/design/engine-commands.md``) says bad input exits with status 2, one line on
standard error and nothing on standard output. That has to hold for *any* input, so the limits are
checked before ``json.loads`` sees the text (a 100,000-deep array overflows its recursion, a
5,000-digit integer trips Python's int-conversion limit), and a bug that still gets through is
reported on one line too (status 1), never as a traceback. The limits are in
``docs/rules/README.md`` (« Les lignes de commande des moteurs » in French).

Engines import this module, so it imports nothing from discord, ``db`` or ``images``.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from contextlib import redirect_stderr, redirect_stdout
from itertools import accumulate
from typing import IO, Any, NoReturn

from bot.domain import DomainError

MAX_INPUT_BYTES = 1_000_000  # the largest real input, an odds query with many opponents, is ~10 kB
MAX_DEPTH = 32  # the deepest real input nests 5 levels (odds → opponents → slate → cell)
MAX_INT_DIGITS = 30  # a 64-bit seed has 20; piece values and levels far fewer
MAX_MESSAGE = 300  # an error line quotes user text; a megabyte of it would not be "one clear line"

BAD_INPUT = 2
INTERNAL_ERROR = 1  # a bug of ours, not the caller's input; still one line


class BadInput(ValueError):
    """Input a command cannot read; the message is the line printed on stderr."""


# ----------------------------------------------------------------------------- JSON input

# A JSON string, escapes included; an unterminated one runs to the end (json.loads then says so).
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def nesting(text: str) -> int:
    """How deep the arrays and objects of ``text`` nest, brackets inside strings not counted."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(1 if c in "[{" else -1 for c in brackets), default=0)


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise BadInput(f"a number has at most {MAX_INT_DIGITS} digits, not {len(text)}")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise BadInput(f"the number {text} is too large")
    return value


def _parse_constant(text: str) -> NoReturn:
    raise BadInput(f"{text} is not a JSON number")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # Two values for one key would make the answer depend on which one the reader keeps.
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise BadInput(f"the key {key!r} is given twice")
        out[key] = value
    return out


def parse_json(raw: bytes | str) -> Any:
    """The JSON document in ``raw``, within the limits above; anything else raises BadInput."""
    if len(raw) > MAX_INPUT_BYTES:
        raise BadInput(f"the input is larger than {MAX_INPUT_BYTES:,} bytes")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadInput("malformed input: not UTF-8 text") from None
    if not raw.strip():
        raise BadInput("malformed JSON: the input is empty")
    if nesting(raw) > MAX_DEPTH:
        raise BadInput(f"the JSON nests deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(raw, parse_int=_parse_int, parse_float=_parse_float,
                          parse_constant=_parse_constant, object_pairs_hook=_object)
    except json.JSONDecodeError as e:
        raise BadInput(f"malformed JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
    except RecursionError:  # nesting makes this unreachable; kept so that it can never be a trace
        raise BadInput(f"the JSON nests deeper than {MAX_DEPTH} levels") from None


def read_json(stdin: IO[Any] | None) -> Any:
    """The JSON document on ``stdin`` (a binary or text stream; None: nothing to read)."""
    if stdin is None:
        return parse_json(b"")
    stream = getattr(stdin, "buffer", stdin)
    return parse_json(stream.read(MAX_INPUT_BYTES + 1))


# ----------------------------------------------------------------------------- field checks

def check_keys(data: Any, where: str, allowed: Iterable[str], required: Iterable[str] = ()) -> None:
    """``data`` is an object with only the ``allowed`` keys and every ``required`` one."""
    allowed = tuple(allowed)
    if not isinstance(data, Mapping):
        raise BadInput(f"{where} must be a JSON object, not {describe(data)}")
    unknown = [k for k in data if k not in allowed]
    if unknown:
        raise BadInput(f"{where}: unknown key {unknown[0]!r} (expected {', '.join(allowed)})")
    missing = [k for k in required if k not in data]
    if missing:
        raise BadInput(f"{where}: missing key {missing[0]!r}")


def whole_number(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` is an int (not a bool) within ``low`` … ``high`` when they are given."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{where} must be a whole number, not {describe(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise BadInput(f"{where} must be {low} to {high}, not {value}")
    return value


def describe(value: Any) -> str:
    """A short quote of a JSON value for an error line."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


# ----------------------------------------------------------------------------- argv

class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors raise BadInput (one line) instead of printing usage and
    exiting; ``--help`` still prints the help on stdout and exits 0."""

    def error(self, message: str) -> NoReturn:
        raise BadInput(f"{message} (see {self.prog} --help)")


# ----------------------------------------------------------------------------- the runner

def one_line(text: str) -> str:
    """``text`` on a single line of at most MAX_MESSAGE characters."""
    text = " ".join(text.split())
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE - 1] + "…"


def run(command: Callable[[], str], *, prefix: str, stdout: IO[str] | None = None,
        stderr: IO[str] | None = None, refused: tuple[type[Exception], ...] = ()) -> int:
    """Run ``command`` (which parses argv, reads stdin and returns the answer's text) and write
    its answer and a newline on stdout: 0. Bad input (BadInput, DomainError or one of
    ``refused``): ``prefix`` and the reason, one line on stderr, nothing on stdout: 2. ``--help``:
    the help on stdout, 0. Anything else is a bug: one line on stderr, 1.

    The answer is built whole before anything is written, so a refusal never follows a partial
    answer. ``None`` streams are the process's own, looked up now (tests swap them)."""
    out = sys.stdout if stdout is None else stdout
    err = sys.stderr if stderr is None else stderr
    expected: tuple[type[Exception], ...] = (BadInput, DomainError, *refused)
    try:
        # argparse prints --help on sys.stdout; keep it on the streams given.
        with redirect_stdout(out), redirect_stderr(err):
            answer = command()
    except SystemExit as e:  # --help (argparse's own errors are BadInput, see OneLineParser)
        return 0 if e.code is None else e.code if isinstance(e.code, int) else BAD_INPUT
    except expected as e:
        _say(err, prefix + one_line(str(e)))
        return BAD_INPUT
    except Exception as e:  # the contract: never a traceback, even for a bug
        _say(err, prefix + one_line(f"internal error ({type(e).__name__}): {e}"))
        return INTERNAL_ERROR
    if out is sys.__stdout__ and isinstance(out, io.TextIOWrapper):
        out.reconfigure(encoding="utf-8")  # × and ÷ whatever the terminal's encoding
    out.write(answer + "\n")
    out.flush()
    return 0


def _say(err: IO[str], line: str) -> None:
    err.write(line + "\n")
    err.flush()
