"""Why a capture is allowed: the arithmetic behind each way to take a piece, as data.

The capture scan (:meth:`Board.capture_options`) says *that* a piece can be taken, by which method
and from which squares; this module says *why*, so that the turn's message, the board picture's
"last turn" line, a hint, a puzzle and the command line all state the same sum, product, power or
progression. It is computed on demand from the position, never inside the search's hot loop.

A ``why`` object (``engine-commands.md``, the ``captures`` extension):

- ``relation``: ``equal`` (encounter), ``sum``, ``difference``, ``product``, ``ratio`` (ambush),
  ``distance`` (assault), ``power`` / ``root`` (power), ``arithmetic``, ``geometric``, ``harmonic``
  (progression), ``surrounded`` (emprisonment);
- ``values``: the numbers of the capturers in the order the statement reads them
  (``[8, 4]`` for 8 + 4 = 12; ``[3, 4]`` for 3⁴ = 81: base and exponent; ``[6, 5]`` for an
  assault's 6 × 5 = 30: the capturer's value and the number of empty squares; the three terms of
  a progression, smallest first);
- ``result``: the victim's value (a pyramid component's, or the pyramid's total);
- extras where the statement needs them: ``empty`` (assault: empty squares between),
  ``operation`` (assault: ``product`` or ``ratio``), ``step`` (arithmetic: the difference;
  geometric: the ratio, ``"3/2"`` when not whole; harmonic: the difference of the reciprocals,
  ``"1/12"``), ``pyramid`` (the pyramid's total when one of its components is taken).

The encounter's relation is ``equal``: equal numbers meet, and no other relation says that.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bot.rithmo.arith import ARITHMETIC, GEOMETRIC, HARMONIC, ambush, progression_kind
from bot.rithmo.board import (
    AMBUSH,
    ASSAULT,
    EMPRISONMENT,
    ENCOUNTER,
    METHODS,
    POWER,
    PROGRESSION,
    Board,
)
from bot.rithmo.squares import PYRAMID, file_of, name, parse_square, rank_of, square
from bot.rithmo.turns import Capture

RELATIONS = ("equal", "sum", "difference", "product", "ratio", "distance", "power", "root",
             ARITHMETIC, GEOMETRIC, HARMONIC, "surrounded")


def _fraction_text(x: Fraction) -> int | str:
    return x.numerator if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _exponent(x: int, base: int) -> int | None:
    """``k`` with ``base ** k == x`` and ``k >= 2``, or None (1 = 1², the only power of 1)."""
    if base == 1:
        return 2 if x == 1 else None
    if base < 1:
        return None
    k, p = 1, base
    while p < x:
        p *= base
        k += 1
    return k if p == x and k >= 2 else None


def _ambush_why(a: int, b: int, v: int) -> dict[str, Any] | None:
    big, small = max(a, b), min(a, b)
    if big + small == v:
        return {"relation": "sum", "values": [big, small], "result": v}
    if big - small == v:
        return {"relation": "difference", "values": [big, small], "result": v}
    if big * small == v:
        return {"relation": "product", "values": [big, small], "result": v}
    if small and big % small == 0 and big // small == v:
        return {"relation": "ratio", "values": [big, small], "result": v}
    return None


def _progression_why(a: int, b: int, v: int) -> dict[str, Any] | None:
    kind = progression_kind(a, b, v)
    if kind is None:
        return None
    lo, m, hi = sorted((a, b, v))
    if kind == ARITHMETIC:
        step: int | str = m - lo
    elif kind == GEOMETRIC:
        step = _fraction_text(Fraction(m, lo))
    else:
        step = _fraction_text(Fraction(1, lo) - Fraction(1, m))
    return {"relation": kind, "values": [lo, m, hi], "result": v, "step": step}


def _empty_between(board: Board, frm: int, to: int) -> int:
    """The empty squares on the line from ``frm`` to ``to`` (an assault's distance)."""
    f1, r1, f2, r2 = file_of(frm), rank_of(frm), file_of(to), rank_of(to)
    df, dr = (f2 > f1) - (f2 < f1), (r2 > r1) - (r2 < r1)
    steps = max(abs(f2 - f1), abs(r2 - r1)) - 1
    return sum(board.piece_at(square(f1 + df * i, r1 + dr * i)) is None
               for i in range(1, steps + 1))


def why(board: Board, victim: int | str, value: int, method: str,
        by: tuple[int | str, ...] | list[int | str]) -> dict[str, Any]:
    """The arithmetic of one way to capture (as :meth:`Board.capture_options` lists it) on
    ``board`` as it stands, before the capture. Raises ValueError if that way does not hold,
    which would mean the scan and this module disagree (a test plays many games to check)."""
    vsq = parse_square(victim) if isinstance(victim, str) else victim
    sqs = [parse_square(s) if isinstance(s, str) else s for s in by]
    target = board.piece_at(vsq)
    if target is None:
        raise ValueError(f"no piece on {name(vsq)}")
    pieces = [board.piece_at(s) for s in sqs]
    if method != EMPRISONMENT and any(p is None for p in pieces):
        raise ValueError("a capturing square is empty")
    values = [p.values if p is not None else () for p in pieces]
    out: dict[str, Any] | None = None
    if method == ENCOUNTER:
        if value in values[0]:
            out = {"relation": "equal", "values": [value], "result": value}
    elif method == POWER:
        for a in values[0]:
            k = _exponent(value, a)
            if k is not None:
                out = {"relation": "power", "values": [a, k], "result": value}
                break
            k = _exponent(a, value)
            if k is not None:
                out = {"relation": "root", "values": [a, k], "result": value}
                break
    elif method in (AMBUSH, PROGRESSION) and len(values) == 2:
        found = [(a, b) for a in values[0] for b in values[1]
                 if (ambush(a, b, value) if method == AMBUSH
                     else progression_kind(a, b, value) is not None)]
        for a, b in found:
            out = (_ambush_why if method == AMBUSH else _progression_why)(a, b, value)
            if out is not None:
                break
    elif method == ASSAULT:
        n = _empty_between(board, sqs[0], vsq)
        for a in values[0]:
            if n and value == a * n:
                out = {"relation": "distance", "values": [a, n], "result": value,
                       "operation": "product", "empty": n}
                break
            if n and a == value * n:
                out = {"relation": "distance", "values": [a, n], "result": value,
                       "operation": "ratio", "empty": n}
                break
    elif method == EMPRISONMENT:
        out = {"relation": "surrounded", "values": [], "result": value}
    if out is None:
        raise ValueError(f"{method} does not take {value} on {name(vsq)} from {by}")
    if target.shape == PYRAMID and value != target.value:
        out["pyramid"] = target.value
    return out


def explained_options(board: Board, side: int | None = None) -> list[dict[str, Any]]:
    """:meth:`Board.capture_options` with each entry's ``"why"``: the command line's answer."""
    return [{**option, "why": why(board, option["victim"], option["value"], option["method"],
                                  option["by"])}
            for option in board.capture_options(side)]


def explain_capture(board: Board, capture: Capture) -> dict[str, Any]:
    """The way a capture step of a turn is explained: the first of the ways open now (in the
    rules' order of the methods: encounter, ambush, assault, power, progression, emprisonment),
    as ``{"victim", "method", "by", "value", "why"}``. ``board`` is the position just before the
    step (mid-turn if other steps came first)."""
    piece = board.piece_at(capture.square)
    if piece is None:
        raise ValueError(f"no piece on {name(capture.square)}")
    value = capture.part or piece.value
    where = name(capture.square)
    options = [o for o in board.capture_options() if o["victim"] == where and o["value"] == value]
    if not options:
        raise ValueError(f"nothing takes {value} on {where}")
    options.sort(key=lambda o: METHODS.index(o["method"]))
    best = options[0]
    return {**best, "why": why(board, where, value, best["method"], best["by"])}
