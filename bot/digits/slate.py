"""The slate: 8 cells, front 1–4 and back 5–8; column c holds cells c and c + 4.

A slate is what a player fields before a battle: which digit, at which level, in which cell. The
battle engine turns it into fighting units; the shop edits it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bot.digits.catalogue import BY_KEY, MAX_LEVEL, DigitKind, find

CELLS = range(1, 9)
FRONT = (1, 2, 3, 4)
BACK = (5, 6, 7, 8)
_CELL_NAMES = frozenset(str(c) for c in CELLS)
MAX_SPEC = 40  # characters of a digit written as text, spaces included ("Puissance N3" is 12)


class SlateError(ValueError):
    """A slate that cannot be read (bad cell, bad level, unknown digit)."""


def column(cell: int) -> int:
    return cell if cell <= 4 else cell - 4


def is_front(cell: int) -> bool:
    return cell <= 4


@dataclass(frozen=True, slots=True)
class Piece:
    """A digit standing on a slate: its kind (English key) and its level (1–3)."""

    key: str
    level: int = 1

    def __post_init__(self) -> None:
        if self.key not in BY_KEY:
            raise SlateError(f"unknown digit: {self.key!r}")
        if not 1 <= self.level <= MAX_LEVEL:
            raise SlateError(f"level must be 1 to {MAX_LEVEL}, not {self.level}")

    @property
    def kind(self) -> DigitKind:
        return BY_KEY[self.key]

    def to_json(self) -> dict[str, Any]:
        return {"digit": self.key, "level": self.level}

    @classmethod
    def parse(cls, value: Any) -> Piece:
        """A piece from a name ("Odd", "moitié"), a name and level ("Odd N2"), or an object
        ({"digit": "Minus", "level": 2})."""
        if isinstance(value, str):
            # The longest name and level is 12 characters ("Puissance N3"). Past 40, the pattern
            # would backtrack for minutes on "a", 100,000 spaces, "b"; int() refuses 5,000 digits.
            if len(value) > MAX_SPEC:
                raise SlateError(f"cannot read digit {value[:20]!r}…: more than {MAX_SPEC} "
                                 "characters")
            m = re.fullmatch(r"\s*(.+?)(?:\s+[Nn]([0-9]+))?\s*", value)
            if not m:
                raise SlateError(f"cannot read digit {value!r}")
            name, level = m.group(1), int(m.group(2) or 1)
        elif isinstance(value, Mapping):
            name = value.get("digit")
            level = value.get("level", 1)
            if not isinstance(name, str):
                raise SlateError(f"a digit object needs a \"digit\" name: {value!r}")
            if not isinstance(level, int) or isinstance(level, bool):
                raise SlateError(f"level must be a whole number: {value!r}")
        else:
            raise SlateError(f"cannot read digit {value!r}")
        try:
            kind = find(name)
        except ValueError as e:
            raise SlateError(str(e)) from None
        return cls(kind.key, level)


@dataclass(frozen=True, slots=True)
class Slate:
    """Eight cells, each empty (None) or holding a piece. Immutable: edits return a new slate."""

    cells: tuple[Piece | None, ...] = (None,) * 8

    def __post_init__(self) -> None:
        if len(self.cells) != 8:
            raise SlateError("a slate has 8 cells")

    def __getitem__(self, cell: int) -> Piece | None:
        return self.cells[cell - 1]

    def items(self) -> Iterator[tuple[int, Piece]]:
        """The occupied cells in order, as (cell, piece)."""
        for i, p in enumerate(self.cells):
            if p is not None:
                yield i + 1, p

    def __len__(self) -> int:
        return sum(p is not None for p in self.cells)

    def is_full(self) -> bool:
        return all(p is not None for p in self.cells)

    def empty_cells(self) -> list[int]:
        return [i + 1 for i, p in enumerate(self.cells) if p is None]

    def with_cell(self, cell: int, piece: Piece | None) -> Slate:
        if cell not in CELLS:
            raise SlateError(f"cells are 1 to 8, not {cell}")
        cells = list(self.cells)
        cells[cell - 1] = piece
        return Slate(tuple(cells))

    def to_json(self) -> dict[str, dict[str, Any]]:
        return {str(c): p.to_json() for c, p in self.items()}

    @classmethod
    def from_json(cls, data: Any) -> Slate:
        if not isinstance(data, Mapping):
            raise SlateError("a slate is an object of cells \"1\" to \"8\"")
        cells: list[Piece | None] = [None] * 8
        for k, v in data.items():
            # Exactly "1" … "8" (or the int): " 1", "+1" or "01" would let two keys name one cell.
            if isinstance(k, bool) or str(k) not in _CELL_NAMES:
                raise SlateError(f"cells are \"1\" to \"8\", not {k!r}")
            cells[int(k) - 1] = Piece.parse(v)
        return cls(tuple(cells))

    @classmethod
    def of(cls, **cells: Any) -> Slate:
        """Convenience for tests: ``Slate.of(c1="Odd", c5="Plus N1")``."""
        return cls.from_json({k.lstrip("c"): v for k, v in cells.items()})
