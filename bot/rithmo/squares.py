"""Squares and the geometry of moves, precomputed once.

The board has 8 files (a–h, across) and 16 ranks (1–16, along); White's first rank is 1. A square
is an index 0..127, ``rank_index * 8 + file`` (a1 = 0, h1 = 7, a2 = 8, h16 = 127). Index 128 is
a sentinel that the board keeps empty forever: a table entry that has fewer squares between start
and target than another pads with 128, so the move loop tests "between empty" with two list reads
and no branch on the shape.

Tables, per shape mask (1 round, 2 triangle, 4 square, or any union of them for a pyramid):

- ``REGULAR[mask][sq]``: tuples ``(target, between1, between2, move)`` of every regular move that
  stays on the board. A regular move also defines reach: "V is within a regular move of A" when
  A's table holds V's square with both between-squares empty.
- ``IRREGULAR[mask][sq]``: tuples ``(target, move)`` of the leaps (a knight's (1, 2) for a
  triangle, a (1, 3) leap for a square; a round has none).
- ``RAYS[sq]``: the 8 lines (orthogonal and diagonal) leaving a square, nearest square first, for
  the Assault.

``move`` in the tables is the :class:`Move` object itself, built once here, so listing moves
allocates nothing.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from bot.domain import DomainError

FILES = "abcdefgh"
N_FILES = 8
N_RANKS = 16
N_SQUARES = N_FILES * N_RANKS
OFF = N_SQUARES  # the sentinel square, always empty

ROUND, TRIANGLE, SQUARE, PYRAMID = 1, 2, 4, 8
SHAPE_NAMES = {ROUND: "round", TRIANGLE: "triangle", SQUARE: "square", PYRAMID: "pyramid"}
SHAPE_BY_NAME = {name: code for code, name in SHAPE_NAMES.items()}
SHAPE_LETTERS = {ROUND: "R", TRIANGLE: "T", SQUARE: "S", PYRAMID: "P"}
SHAPE_BY_LETTER = {letter: code for code, letter in SHAPE_LETTERS.items()}

_SQUARE_RE = re.compile(r"([a-h])([0-9]{1,2})")


def square(file: int, rank: int) -> int:
    """The index of a square from its file 0–7 and its rank 1–16."""
    return (rank - 1) * N_FILES + file


def file_of(sq: int) -> int:
    return sq & 7


def rank_of(sq: int) -> int:
    """The rank 1–16 of a square."""
    return (sq >> 3) + 1


def name(sq: int) -> str:
    return f"{FILES[sq & 7]}{(sq >> 3) + 1}"


def parse_square(text: str) -> int:
    """A square from its name ("c3", "H16"); a bad name raises ``rithmo.bad_square``."""
    m = _SQUARE_RE.fullmatch(text.strip().lower()) if isinstance(text, str) else None
    if m is None or not 1 <= int(m.group(2)) <= N_RANKS or m.group(2).startswith("0"):
        raise DomainError("rithmo.bad_square",
                          f"bad square {text!r}: files are a–h and ranks 1–16, like c3 or h16",
                          square=str(text))
    return square(FILES.index(m.group(1)), int(m.group(2)))


def on_board(file: int, rank: int) -> bool:
    return 0 <= file < N_FILES and 1 <= rank <= N_RANKS


class Move(NamedTuple):
    """A piece going from one square to another (a plain move, or a capturer taking a victim's
    place). Regular or irregular follows from the displacement alone: the shapes' regular and
    irregular displacements never overlap."""

    frm: int
    to: int

    @property
    def irregular(self) -> bool:
        df = abs((self.to & 7) - (self.frm & 7))
        dr = abs((self.to >> 3) - (self.frm >> 3))
        return (df, dr) in _LEAPS

    def __str__(self) -> str:
        return f"{name(self.frm)}-{name(self.to)}"


_LEAPS = {(1, 2), (2, 1), (1, 3), (3, 1)}

# Displacements (file, rank) of each shape's regular moves, with the squares passed over.
_DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_ORTHOGONALS = ((1, 0), (-1, 0), (0, 1), (0, -1))
_REGULAR_SHAPES = {
    ROUND: [(d, 1) for d in _DIAGONALS],
    TRIANGLE: [(d, 2) for d in _ORTHOGONALS],
    SQUARE: [(d, 3) for d in _ORTHOGONALS],
}
_IRREGULAR_SHAPES = {
    ROUND: [],
    TRIANGLE: [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)],
    SQUARE: [(1, 3), (3, 1), (-1, 3), (-3, 1), (1, -3), (3, -1), (-1, -3), (-3, -1)],
}

_MOVES: dict[tuple[int, int], Move] = {}


def move(frm: int, to: int) -> Move:
    """The shared Move object for a pair of squares."""
    m = _MOVES.get((frm, to))
    if m is None:
        m = _MOVES[(frm, to)] = Move(frm, to)
    return m


def _regular_for(shape: int, sq: int) -> list[tuple[int, int, int, Move]]:
    f, r = file_of(sq), rank_of(sq)
    out = []
    for (df, dr), dist in _REGULAR_SHAPES[shape]:
        tf, tr = f + df * dist, r + dr * dist
        if not on_board(tf, tr):
            continue
        between = [square(f + df * k, r + dr * k) for k in range(1, dist)]
        between += [OFF] * (2 - len(between))
        t = square(tf, tr)
        out.append((t, between[0], between[1], move(sq, t)))
    return out


def _irregular_for(shape: int, sq: int) -> list[tuple[int, Move]]:
    f, r = file_of(sq), rank_of(sq)
    out = []
    for df, dr in _IRREGULAR_SHAPES[shape]:
        if on_board(f + df, r + dr):
            t = square(f + df, r + dr)
            out.append((t, move(sq, t)))
    return out


# Indexed by a piece's shape mask, then by its square: (target, the two squares passed over, the
# move) for each regular move; (target, move) for each irregular move. RAYS: by square, the lines
# of squares in the 8 directions.
_Regular = list[tuple[tuple[tuple[int, int, int, Move], ...], ...]]
_Irregular = list[tuple[tuple[tuple[int, Move], ...], ...]]
_Rays = list[tuple[tuple[int, ...], ...]]


def _build() -> tuple[_Regular, _Irregular, _Rays]:
    regular: _Regular = []
    irregular: _Irregular = []
    for mask in range(8):
        shapes = [s for s in (ROUND, TRIANGLE, SQUARE) if mask & s]
        regular.append(tuple(tuple(e for s in shapes for e in _regular_for(s, sq))
                             for sq in range(N_SQUARES)))
        irregular.append(tuple(tuple(e for s in shapes for e in _irregular_for(s, sq))
                               for sq in range(N_SQUARES)))
    rays: _Rays = []
    for sq in range(N_SQUARES):
        f, r = file_of(sq), rank_of(sq)
        lines: list[tuple[int, ...]] = []
        for df, dr in _DIAGONALS + _ORTHOGONALS:
            line: list[int] = []
            k = 1
            while on_board(f + df * k, r + dr * k):
                line.append(square(f + df * k, r + dr * k))
                k += 1
            if line:
                lines.append(tuple(line))
        rays.append(tuple(lines))
    return regular, irregular, rays


REGULAR, IRREGULAR, RAYS = _build()
