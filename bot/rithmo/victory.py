"""Victories, agreed when a game is created, and the proper victories' arrangements.

Common victories count what a player holds taken (pyramid components one by one): how many pieces,
their total value, how many digits their values are written with. The thresholds are part of each
chosen victory; a kind chosen without numbers gets the class-game defaults of :data:`DEFAULTS`.

Proper victories need the enemy pyramid wholly taken (no enemy pyramid left on the board), then 3
or 4 of one's own pieces in the enemy half, either on one row, column or diagonal, equally spaced
with nothing between them, or on the 4 corners of a square (sides along the files and ranks); some
3 of them, sorted, form a progression. Mediocre: one kind of progression. Great: two kinds among
the triples of 4 pieces. Excellent: all three kinds. A pyramid counts with its total value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from bot.domain import DomainError
from bot.rithmo.arith import digits, progression_kind
from bot.rithmo.board import BLACK, SIDES, WHITE, Board, Piece
from bot.rithmo.squares import N_FILES, N_RANKS, PYRAMID

# Each kind and the thresholds it uses. "pieces"/"value"/"digits" are floors (at least) except in
# lawsuit and honour, where "digits" and "pieces" are ceilings (fewer than).
KINDS: dict[str, tuple[str, ...]] = {
    "body": ("pieces",),
    "goods": ("value",),
    "proceeds": ("digits",),
    "body_goods": ("pieces", "value"),
    "body_proceeds": ("pieces", "digits"),
    "goods_proceeds": ("value", "digits"),
    "body_goods_proceeds": ("pieces", "value", "digits"),
    "lawsuit": ("value", "digits"),
    "honour": ("value", "pieces"),
    "honour_lawsuit": ("value", "digits", "pieces"),
    "mediocre": (),
    "great": (),
    "excellent": (),
}
PROPER = ("mediocre", "great", "excellent")
_PROPER_LEVEL = {"mediocre": 1, "great": 2, "excellent": 3}

# Class-game defaults: a game of a lesson's length. The Even army (White) totals 1312 in 29
# pieces counting pyramid components, the Odd army (Black) 1752 in 28, so 8 pieces is about a
# quarter of an army and 300 in value about five to seven pieces; values mostly have 2 digits.
_COMMON_DEFAULTS = {"pieces": 8, "value": 300, "digits": 16}
DEFAULTS: dict[str, dict[str, int]] = {
    kind: {t: _COMMON_DEFAULTS[t] for t in thresholds} for kind, thresholds in KINDS.items()
}
# Lawsuit and honour: reach the value with few digits / few pieces (big captures).
DEFAULTS["lawsuit"] = {"value": 300, "digits": 10}
DEFAULTS["honour"] = {"value": 300, "pieces": 5}
DEFAULTS["honour_lawsuit"] = {"value": 300, "digits": 10, "pieces": 5}


def _bad(why: str) -> DomainError:
    return DomainError("rithmo.bad_settings", f"bad game settings: {why}", reason=why)


@dataclass(frozen=True)
class Victory:
    """One agreed victory: its kind and its thresholds."""

    kind: str
    pieces: int | None = None
    value: int | None = None
    digits: int | None = None

    @classmethod
    def make(cls, kind: str, **thresholds: int) -> Victory:
        """A victory of ``kind``, thresholds not given taken from :data:`DEFAULTS`."""
        if kind not in KINDS:
            raise _bad(f"unknown victory {kind!r}; the victories are {', '.join(KINDS)}")
        for t, v in thresholds.items():
            if t not in KINDS[kind]:
                raise _bad(f"the victory {kind} has no threshold {t!r}")
            if type(v) is not int or v < 1:
                raise _bad(f"a threshold is a whole number from 1 up, not {v!r}")
        return cls(kind, **{**DEFAULTS[kind], **thresholds})

    def achieved(self, board: Board, side: int) -> bool:
        """Whether ``side`` has this victory on ``board``."""
        if self.kind in _PROPER_LEVEL:
            if board.has_pyramid(1 - side):
                return False
            return proper_level(board, side) >= _PROPER_LEVEL[self.kind]
        hand = board.taken[side]
        count = len(hand)
        total = sum(v for _, v in hand)
        n_digits = sum(digits(v) for _, v in hand)
        k = self.kind
        if k in ("lawsuit", "honour", "honour_lawsuit"):
            # make() gives these every threshold of their kind.
            assert self.value is not None
            ok = total >= self.value
            if "lawsuit" in k:
                assert self.digits is not None
                ok = ok and n_digits < self.digits
            if "honour" in k:
                assert self.pieces is not None
                ok = ok and count < self.pieces
            return ok
        return ((self.pieces is None or count >= self.pieces)
                and (self.value is None or total >= self.value)
                and (self.digits is None or n_digits >= self.digits))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for t in KINDS[self.kind]:
            out[t] = getattr(self, t)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Victory:
        if isinstance(data, str):
            return cls.make(data)
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise _bad("a victory is a kind (\"body\") or {\"kind\": ..., thresholds...}")
        return cls.make(data["kind"], **{k: v for k, v in data.items() if k != "kind"})

    def __str__(self) -> str:
        parts = [f"{t} {getattr(self, t)}" for t in KINDS[self.kind]]
        return self.kind + (f" ({', '.join(parts)})" if parts else "")


LIMIT_RULES = ("draw", "goods")


@dataclass(frozen=True)
class Settings:
    """What the players agreed when creating the game.

    ``move_limit``: the game stops after that many turns in all (both players' turns count),
    ``None`` for no limit. ``limit_rule``: what the limit gives, ``"draw"``, or ``"goods"`` (the
    player holding the greater value taken wins; equal values draw).
    """

    victories: tuple[Victory, ...] = field(
        default_factory=lambda: (Victory.make("body"), Victory.make("mediocre")))
    move_limit: int | None = None
    limit_rule: str = "draw"

    def __post_init__(self) -> None:
        if not self.victories and self.move_limit is None:
            raise _bad("choose at least one victory, or a move limit")
        if self.move_limit is not None and (type(self.move_limit) is not int
                                            or self.move_limit < 1):
            raise _bad(f"the move limit is a whole number of turns from 1 up, "
                       f"not {self.move_limit!r}")
        if self.limit_rule not in LIMIT_RULES:
            raise _bad(f"limit_rule is 'draw' or 'goods', not {self.limit_rule!r}")

    @classmethod
    def make(cls, victories: list[str | Victory] | None = None, **kw: Any) -> Settings:
        """Settings from kind names (default thresholds) or Victory objects."""
        if victories is None:
            return cls(**kw)
        vs = tuple(v if isinstance(v, Victory) else Victory.make(v) for v in victories)
        return cls(vs, **kw)

    def victory_of(self, board: Board, side: int) -> Victory | None:
        """The chosen victory ``side`` has on ``board``, if any (proper ones first, the higher
        first; then common ones in the order chosen)."""
        ranked = sorted(self.victories, key=lambda v: -_PROPER_LEVEL.get(v.kind, 0))
        for v in ranked:
            if v.achieved(board, side):
                return v
        return None

    def to_json(self) -> dict[str, Any]:
        return {"victories": [v.to_json() for v in self.victories],
                "move_limit": self.move_limit, "limit_rule": self.limit_rule}

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise _bad("settings are a JSON object")
        victories = data.get("victories")
        kw: dict[str, Any] = {}
        if "move_limit" in data:
            kw["move_limit"] = data["move_limit"]
        if "limit_rule" in data:
            kw["limit_rule"] = data["limit_rule"]
        if victories is None:
            return cls(**kw)
        if not isinstance(victories, list):
            raise _bad("victories is a list")
        return cls(tuple(Victory.from_json(v) for v in victories), **kw)


# ---------------------------------------------------------------- proper victories

_LINES = ((1, 0), (0, 1), (1, 1), (-1, 1))  # one way along each line, so each is found once


def _in_enemy_half(side: int, sq: int) -> bool:
    return sq >= 64 if side == WHITE else sq < 64


def arrangements(board: Board, side: int) -> list[tuple[Piece, ...]]:
    """Every arrangement of 3 or 4 of ``side``'s pieces in the enemy half: equally spaced on a
    line with nothing between (up to 4 in a row; longer rows give each run of 4), or the corners
    of a square."""
    sqs = board.squares
    out: list[tuple[Piece, ...]] = []
    mine = [p for p in board.pieces[side] if _in_enemy_half(side, p.sq)]
    for p in mine:
        f0, r0 = p.sq & 7, p.sq >> 3
        for df, dr in _LINES:
            chain = [p]
            gap = 0
            f, r = f0, r0
            while len(chain) < 4:
                k = 1
                while (0 <= f + df * k < N_FILES and 0 <= r + dr * k < N_RANKS
                       and sqs[(r + dr * k) * N_FILES + f + df * k] is None):
                    k += 1
                if not (0 <= f + df * k < N_FILES and 0 <= r + dr * k < N_RANKS):
                    break
                q = sqs[(r + dr * k) * N_FILES + f + df * k]
                if q is None or q.side != side or not _in_enemy_half(side, q.sq):
                    break
                if gap and k != gap:
                    break
                gap = k
                chain.append(q)
                f, r = f + df * k, r + dr * k
            if len(chain) >= 3:
                out.append(tuple(chain))
        for k in range(1, N_FILES):
            if f0 + k >= N_FILES or r0 + k >= N_RANKS:
                break
            corners = [c for c in (sqs[r0 * N_FILES + f0 + k], sqs[(r0 + k) * N_FILES + f0],
                                   sqs[(r0 + k) * N_FILES + f0 + k])
                       if c is not None and c.side == side and _in_enemy_half(side, c.sq)]
            if len(corners) == 3:
                out.append((p, *corners))
    return out


def progression_kinds(values: tuple[int, ...] | list[int]) -> set[str]:
    """The kinds of progression formed by the triples of these values."""
    return {k for x, y, z in combinations(values, 3)
            if (k := progression_kind(x, y, z)) is not None}


def proper_level(board: Board, side: int) -> int:
    """The most kinds of progression one arrangement of ``side`` shows (0 to 3), whether or not
    the enemy pyramid is taken."""
    best = 0
    for arr in arrangements(board, side):
        n = len(progression_kinds([p.value for p in arr]))
        if n > best:
            best = n
            if best == 3:
                break
    return best


def pyramid_taken(board: Board, side: int) -> bool:
    """Whether ``side`` has wholly taken the enemy pyramid (none is left on the board)."""
    return not any(p.shape == PYRAMID for p in board.pieces[1 - side])


__all__ = ["BLACK", "DEFAULTS", "KINDS", "PROPER", "SIDES", "WHITE", "Settings", "Victory",
           "arrangements", "progression_kinds", "proper_level", "pyramid_taken"]
