"""Turns, the atomic steps they are made of, and their text notation.

A turn is never stored as "one of all the combinations of captures": it is a short sequence of
steps, each of which the board can list, apply and take back on its own:

- :class:`Capture` ``(square, part)``: take the enemy piece on ``square`` whole (``part`` 0) or
  one component of the pyramid there (``part`` = that component's value).
- :class:`~bot.rithmo.squares.Move` ``(frm, to)``: a plain move, or, after captures made first,
  a capturer stepping onto the square of a piece it took.
- :class:`Drop` ``(shape, value, square)``: put a taken piece back on one's first rank.
- :data:`END`: finish the turn (the board switches sides). An irregular move ends its turn by
  itself, as no capture may follow it.

A :class:`Turn` groups the steps of one turn for people and records: captures made first, the
move or drop, captures made after.

Notation (case and spacing are free; ``×`` may stand for ``x``; :func:`tidy` lists every
spelling read as the canonical one, such as ``c4 d5``, ``C4D5`` or ``c4–d5`` for ``c4-d5``):

==========================  =======================================================
``c3-c5``                   a plain move (regular or irregular: the shape of the move says)
``c3-c5 xd7 xe8``           a regular move, then two captures; their squares stay empty
``xd7 c3-d7``               capture d7 first, then the capturer on c3 takes its square
``xd7 xe8 c3-e8 xf9``       two captures first, one capturer steps in, one capture after
``xh15(36)``                take the 36 out of the pyramid on h15 (a pyramid component)
``drop T36 d1``             put a taken triangle 36 on d1 (R round, T triangle, S square)
``drop T36 d1 xe3``         a drop, then a capture
==========================  =======================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from bot.domain import DomainError
from bot.rithmo.squares import (
    SHAPE_BY_LETTER,
    SHAPE_LETTERS,
    SHAPE_NAMES,
    Move,
    move,
    name,
    parse_square,
)


@dataclass(frozen=True, slots=True)
class Capture:
    """Take the piece on ``square`` (``part`` 0), or the component of value ``part`` of the
    pyramid there. ``by`` — the squares of the pieces that can make this capture, over every
    method — is filled in by the board when it lists the capture; it takes no part in equality,
    so a parsed capture equals the listed one."""

    square: int
    part: int = 0
    by: tuple[int, ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        return f"x{name(self.square)}" + (f"({self.part})" if self.part else "")


class Drop(NamedTuple):
    """Put a taken piece (a plain round, triangle or square of that value) on ``square``."""

    shape: int
    value: int
    square: int

    def __str__(self) -> str:
        return f"drop {SHAPE_LETTERS[self.shape]}{self.value} {name(self.square)}"


class EndTurn:
    """The step that finishes a turn. Use the singleton :data:`END`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "END"

    def __str__(self) -> str:
        return "end"


END = EndTurn()

Step = Capture | Move | Drop | EndTurn


@dataclass(frozen=True, slots=True)
class Turn:
    """One player's turn: captures made first, the move or the drop, captures made after.

    A turn has at most one of ``move`` and ``drop``. Without either, it is captures made first
    that freed no square to step onto (only pyramid components were taken).
    """

    before: tuple[Capture, ...] = ()
    move: Move | None = None
    drop: Drop | None = None
    after: tuple[Capture, ...] = ()

    def steps(self) -> list[Capture | Move | Drop]:
        """The steps in the order they are played (without the final END)."""
        out: list[Capture | Move | Drop] = list(self.before)
        if self.move is not None:
            out.append(self.move)
        if self.drop is not None:
            out.append(self.drop)
        out.extend(self.after)
        return out

    @property
    def captures(self) -> tuple[Capture, ...]:
        return self.before + self.after

    def __str__(self) -> str:
        return " ".join(str(s) for s in self.steps())

    @classmethod
    def from_steps(cls, steps: list[Capture | Move | Drop] | tuple[Capture | Move | Drop, ...]
                   ) -> Turn:
        """The turn made of these steps in the order played (an END among them is ignored):
        how a search turns the steps it walked into a turn to play or to print."""
        before: list[Capture] = []
        after: list[Capture] = []
        main: Move | Drop | None = None
        for s in steps:
            if type(s) is Capture:
                (before if main is None else after).append(s)
            elif type(s) is Move or type(s) is Drop:
                main = s
        if isinstance(main, Drop):
            return cls((), None, main, tuple(after))
        return cls(tuple(before), main, None, tuple(after))

    @classmethod
    def parse(cls, text: str) -> Turn:
        """Read a turn in the notation above. Only the form is checked here; whether the board
        allows it is the board's question (:meth:`Board.push`)."""
        return parse_turn(text)


_TOKEN = re.compile(
    r"""\s*(?:
      (?P<drop>drop)\s+(?P<shape>[a-z])\s*(?P<value>[0-9]+)\s+(?P<dsq>[a-z][0-9]+)
    | x\s*(?P<csq>[a-z][0-9]+)(?:\s*\(\s*(?P<part>[0-9]+)\s*\))?
    | (?P<frm>[a-z][0-9]+)\s*-\s*(?P<to>[a-z][0-9]+)
    )\s*[,;]?""",
    re.VERBOSE,
)


def _bad(text: str, why: str) -> DomainError:
    return DomainError("rithmo.bad_notation", f"cannot read the turn {text!r}: {why}",
                       text=text, reason=why)


#: Characters people (and phones, and word processors) type for the dash of a move.
_DASHES = str.maketrans({c: "-" for c in "–—−‐‑‒―→⤳>:"})
#: Two bare squares side by side, with a space or nothing between (``c4 d5``, ``c4d5``), not
#: preceded by a letter, a digit or ``x`` (``xd7 c3`` is a capture, then a square).
_BARE_PAIR = re.compile(r"(?<![a-z0-9(])([a-h][0-9]{1,2})\s*(?=[a-h][0-9])")


def tidy(text: str) -> str:
    """The text of a turn as the parser reads it: lower case; ``×`` as ``x``; en and em dashes,
    the minus sign, arrows and ``:`` as ``-``; a move written as two squares with only a space
    or nothing between them (``c4 d5``, ``C4D5``) joined by ``-``; spaces single. Children type
    all of these; the notation they mean is never in doubt, since a square is a letter a–h then
    a number, and no other token starts with one."""
    src = " ".join(text.lower().replace("×", "x").translate(_DASHES).split())
    src = re.sub(r"\s*-\s*", "-", src)
    return _BARE_PAIR.sub(lambda m: m.group(1) + "-", src)


def parse_turn(text: str) -> Turn:
    if not isinstance(text, str):
        raise _bad(str(text), "a turn is text")
    src = tidy(text)
    if not src:
        raise _bad(text, "the turn is empty; write a move like c3-c5")
    pos = 0
    before: list[Capture] = []
    after: list[Capture] = []
    main: Move | Drop | None = None
    while pos < len(src):
        m = _TOKEN.match(src, pos)
        if m is None or m.end() == pos:
            rest = src[pos:].split()[0] if src[pos:].split() else src[pos:]
            raise _bad(text, f"{rest!r} is not a move (c3-c5), a capture (xd7, xh15(36)) "
                             "or a drop (drop T36 d1)")
        pos = m.end()
        if m.group("drop"):
            if main is not None:
                raise _bad(text, "a turn has one move or one drop")
            if before:
                raise DomainError("rithmo.capture_before_drop",
                                  "captures cannot come before a drop: drop first, then capture",
                                  text=text)
            letter = m.group("shape").upper()
            shape = SHAPE_BY_LETTER.get(letter)
            if shape is None or letter == "P":
                raise _bad(text, f"{letter!r} is not a piece to drop: R (round), T (triangle) "
                                 "or S (square), then its value, like T36")
            value = int(m.group("value"))
            if value < 1:
                raise _bad(text, "a piece's value is 1 or more")
            main = Drop(shape, value, parse_square(m.group("dsq")))
        elif m.group("csq"):
            part = int(m.group("part")) if m.group("part") is not None else 0
            if m.group("part") is not None and part < 1:
                raise _bad(text, "a pyramid component's value is 1 or more")
            cap = Capture(parse_square(m.group("csq")), part)
            (before if main is None else after).append(cap)
        else:
            if main is not None:
                raise _bad(text, "a turn has one move or one drop")
            frm, to = parse_square(m.group("frm")), parse_square(m.group("to"))
            if frm == to:
                raise _bad(text, "a move goes to another square")
            main = move(frm, to)
    if isinstance(main, Drop):
        return Turn((), None, main, tuple(after))
    return Turn(tuple(before), main, None, tuple(after))


def piece_text(shape: int, value: int) -> str:
    """``T36``: a plain piece as the notation writes it."""
    return f"{SHAPE_LETTERS[shape]}{value}"


def describe(shape: int, value: int) -> str:
    """``triangle 36``: a plain piece in words, for messages."""
    return f"{SHAPE_NAMES[shape]} {value}"
