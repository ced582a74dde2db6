"""The Rithmomachia board: pieces, the side to move, the pieces each side has taken, and the turn
being played, walked one atomic step at a time.

How a turn is represented (see :mod:`bot.rithmo.turns`): captures are optional and can be
combined before and after the move, so the turns of a position are far too many to list. The
board lists *steps* instead and keeps a small phase machine:

========  ==============================================  ===================================
phase     legal steps                                     after the step
========  ==============================================  ===================================
START     a capture, a plain move, a drop                 capture → BEFORE; regular move or
                                                          drop → AFTER; irregular move → the
                                                          turn ends
BEFORE    a capture; a capturer stepping onto the square  capture → BEFORE; step → AFTER;
          of a piece it took; END only when no such       END → next player's START
          square was freed (only pyramid components
          were taken)
AFTER     a capture; END                                  capture → AFTER; END → next START
========  ==============================================  ===================================

:meth:`Board.legal_steps` lists the steps of the current phase, :meth:`Board.push_step` applies one
(trusting it came from that list, like ``chess.Board.push``) and :meth:`Board.pop_step` takes it
back. A search walks these steps depth-first; a turn of k captures is k + 2 short steps, never one
of 2^k combinations. END is always legal after a move or a drop, so a search may end a turn there
without listing the captures that could follow (:meth:`Turn.from_steps` turns the steps walked
into a turn to play). :meth:`Board.push` and :meth:`Board.pop` do the same with whole
:class:`~bot.rithmo.turns.Turn` objects, checking every step; a refused step raises a
:class:`~bot.domain.DomainError` whose code names its one reason, with the params to say it in any
language (:mod:`bot.rithmo.refusals` lists them all).

Every capture is checked in the position as it stands when it is made, so captures of one turn
are taken one after another, each seeing the earlier ones' squares empty.

Speed: squares are indices 0..127 (see :mod:`bot.rithmo.squares`) with precomputed move tables;
each side keeps a list of its pieces, updated as pieces are taken and dropped. One pass over the
side to move's regular-move tables yields its regular moves *and*, for every enemy piece, which of
its pieces have it within a regular move (:meth:`Board._reach`); the reach-based captures
(Encounter, Power, Ambush, Progression: :func:`is_encounter`, :func:`is_power`, :func:`is_ambush`,
:func:`is_progression`) only look at those attackers. Assault (:meth:`Board._captures_by_assault`)
walks the 8 lines from each of the mover's pieces to the first piece met; Emprisonment, the capture
by siege (:meth:`Board._captures_by_siege`), looks for one free regular move of each enemy piece
and stops at the first. docs/glossary.md names every rule and where it lives.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any, Final, Literal

from bot.domain import DomainError
from bot.rithmo.arith import ambush, power_related, progression_kind
from bot.rithmo.squares import (
    FILES,
    IRREGULAR,
    N_FILES,
    N_SQUARES,
    OFF,
    PYRAMID,
    RAYS,
    REGULAR,
    ROUND,
    SHAPE_BY_LETTER,
    SHAPE_BY_NAME,
    SHAPE_LETTERS,
    SHAPE_NAMES,
    SQUARE,
    TRIANGLE,
    Move,
    move,
    name,
    parse_square,
    rank_of,
)
from bot.rithmo.turns import (
    END,
    Capture,
    Drop,
    EndTurn,
    Turn,
    describe,
    parse_turn,
    piece_text,
)

WHITE, BLACK = 0, 1
SIDES = ("white", "black")
SIDE_BY_NAME = {"white": WHITE, "black": BLACK}

START, BEFORE, AFTER = 0, 1, 2

ENCOUNTER, AMBUSH, ASSAULT = "encounter", "ambush", "assault"
POWER, PROGRESSION, EMPRISONMENT = "power", "progression", "emprisonment"
METHODS = (ENCOUNTER, AMBUSH, ASSAULT, POWER, PROGRESSION, EMPRISONMENT)

FIRST_RANK = (1, 16)  # each side's board edge, where drops go

_PLAIN_SHAPES = (ROUND, TRIANGLE, SQUARE)


class Piece:
    """A piece on the board. A pyramid keeps its components in ``parts`` ((shape, value) pairs,
    largest first); everything else is derived from them by :meth:`refresh`.

    ``mask`` is the union of the shapes it moves as; ``values`` the numbers it may capture with
    (a pyramid: its total, then each component's); ``victims`` the (value, part) pairs it can be
    taken by: (value, 0) takes it whole, (c, c) takes a pyramid's component c.
    """

    __slots__ = ("mask", "parts", "shape", "side", "sq", "value", "values", "victims")

    def __init__(self, side: int, shape: int, value: int = 0,
                 parts: tuple[tuple[int, int], ...] = (), sq: int = OFF) -> None:
        self.side = side
        self.shape = shape
        self.parts = tuple(sorted(parts, key=lambda p: (-p[1], p[0]))) if shape == PYRAMID else ()
        self.value = value
        self.sq = sq
        self.refresh()

    def refresh(self) -> None:
        if self.shape == PYRAMID:
            self.value = sum(v for _, v in self.parts)
            mask = 0
            for s, _ in self.parts:
                mask |= s
            self.mask = mask
            comps = list(dict.fromkeys(v for _, v in self.parts))
            if len(self.parts) > 1:
                self.values = (self.value, *comps)
                self.victims = ((self.value, 0), *((c, c) for c in comps))
            else:
                self.values = (self.value,)
                self.victims = ((self.value, 0),)
        else:
            self.mask = self.shape
            self.values = (self.value,)
            self.victims = ((self.value, 0),)

    def gives(self) -> tuple[tuple[int, int], ...]:
        """What its taker gains: the piece, or a pyramid's components one by one."""
        return self.parts if self.shape == PYRAMID else ((self.shape, self.value),)

    def text(self) -> str:
        """The piece as the position string writes it: ``T36``, ``p(s64s49t36t25r16)``."""
        if self.shape == PYRAMID:
            body = "P(" + "".join(f"{SHAPE_LETTERS[s]}{v}" for s, v in self.parts) + ")"
        else:
            body = f"{SHAPE_LETTERS[self.shape]}{self.value}"
        return body if self.side == WHITE else body.lower()

    def describe(self) -> str:
        """``triangle 36``, ``pyramid 190``: for messages."""
        return f"{SHAPE_NAMES[self.shape]} {self.value}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"square": name(self.sq), "side": SIDES[self.side],
                               "shape": SHAPE_NAMES[self.shape]}
        if self.shape == PYRAMID:
            out["parts"] = [{"shape": SHAPE_NAMES[s], "value": v} for s, v in self.parts]
        else:
            out["value"] = self.value
        return out

    def __repr__(self) -> str:
        return f"Piece({SIDES[self.side]} {self.describe()} on {name(self.sq)})"


# The set-up of the rulings: (square, shape letter, value); the pyramids' components below.
SETUP = {
    WHITE: ["a1 S289", "b1 S169", "g1 S81", "h1 S25",
            "a2 S153", "b2 P91", "c2 T49", "d2 T42", "e2 T20", "f2 T25", "g2 S45", "h2 S15",
            "a3 T81", "b3 T72", "c3 R64", "d3 R36", "e3 R16", "f3 R4", "g3 T6", "h3 T9",
            "c4 R8", "d4 R6", "e4 R4", "f4 R2"],
    BLACK: ["a16 S49", "b16 S121", "g16 S225", "h16 S361",
            "a15 S28", "b15 S66", "c15 T36", "d15 T30", "e15 T56", "f15 T64", "g15 S120",
            "h15 P190",
            "a14 T16", "b14 T12", "c14 R9", "d14 R25", "e14 R49", "f14 R81", "g14 T90",
            "h14 T100",
            "c13 R3", "d13 R5", "e13 R7", "f13 R9"],
}
PYRAMID_PARTS = {
    WHITE: ((SQUARE, 36), (SQUARE, 25), (TRIANGLE, 16), (TRIANGLE, 9), (ROUND, 4), (ROUND, 1)),
    BLACK: ((SQUARE, 64), (SQUARE, 49), (TRIANGLE, 36), (TRIANGLE, 25), (ROUND, 16)),
}

# Position keys: a 64-bit sum of one random number per (side, what, value, square). A sum, not a
# xor, so that two equal taken pieces do not cancel out.
_KEY_MASK = (1 << 64) - 1
_keys: dict[tuple[int, int, int, int], int] = {}
_TAKEN_CODE = 16  # "what" for a taken piece is shape | 16; a pyramid component's is shape | 8
_SIDE_KEY = random.Random("rithmo:black-to-move").getrandbits(64)
_PHASE_KEYS = tuple(random.Random(f"rithmo:phase:{p}").getrandbits(64) if p else 0
                    for p in (START, BEFORE, AFTER))


def _zk(side: int, what: int, value: int, sq: int) -> int:
    k = (side, what, value, sq)
    r = _keys.get(k)
    if r is None:
        r = _keys[k] = random.Random(f"rithmo:{side}:{what}:{value}:{sq}").getrandbits(64)
    return r


def _piece_key(p: Piece, sq: int) -> int:
    if p.shape == PYRAMID:
        return sum(_zk(p.side, PYRAMID | s, v, sq) for s, v in p.parts)
    return _zk(p.side, p.shape, p.value, sq)


# One way to capture: (victim square, the pyramid component taken or 0, the value taken, method,
# the capturers' squares).
_Way = tuple[int, int, int, str, tuple[int, ...]]


def is_encounter(values: tuple[int, ...], v: int) -> bool:
    """Encounter (« rencontre »): the attacker, a regular move from its victim, is worth it."""
    return v in values


def is_power(values: tuple[int, ...], v: int) -> bool:
    """Power (« puissance »): the attacker, a regular move from its victim, is a power of it or
    it a power of the attacker (exponent 2 or more)."""
    for a in values:  # noqa: SIM110 - any() over a generator costs more, on the hot scan
        if a != v and power_related(a, v):
            return True
    return False


def is_ambush(values: tuple[int, ...], others: tuple[int, ...], v: int) -> bool:
    """Ambush (« embuscade »): two attackers, each a regular move from the victim, whose sum,
    difference, product or ratio is its value."""
    for a in values:
        for b in others:
            if ambush(a, b, v):
                return True
    return False


def is_progression(values: tuple[int, ...], others: tuple[int, ...], v: int) -> bool:
    """Progression (« progression »): two attackers, each a regular move from the victim, form
    with its value an arithmetic, geometric or harmonic progression."""
    for a in values:
        for b in others:
            if progression_kind(a, b, v) is not None:
                return True
    return False


def _bad_position(why: str, **params: Any) -> DomainError:
    return DomainError("rithmo.bad_position", f"bad position: {why}", reason=why, **params)


# Undo records: the kind first, then the step, the phase and the squares vacated before it.
_U_MOVE: Final = 0
_U_WHOLE: Final = 1  # then the piece taken whole, its index in its side's list, pieces gained
_U_PART: Final = 2  # then the pyramid, the index of the component taken and its shape
_U_DROP: Final = 3  # then the dropped piece's index in the hand
_U_END: Final = 4  # the steps of the turn ended instead of one step; then whether it ended alone
_Vacated = tuple[tuple[int, tuple[int, ...]], ...]
_Undo = (tuple[Literal[0], Move, int, _Vacated]
         | tuple[Literal[1], Capture, int, _Vacated, Piece, int, int]
         | tuple[Literal[2], Capture, int, _Vacated, Piece, int, int]
         | tuple[Literal[3], Drop, int, _Vacated, int]
         | tuple[Literal[4], list[Capture | Move | Drop], int, _Vacated, bool])


class Board:
    """A Rithmomachia position with the side to move, the pieces each side has taken, the turn in
    progress and the history of finished turns (which :meth:`pop` takes back)."""

    def __init__(self) -> None:
        """An empty board, White to move. Use :meth:`start` for the set-up."""
        self.squares: list[Piece | None] = [None] * (N_SQUARES + 1)
        self.pieces: tuple[list[Piece], list[Piece]] = ([], [])
        self.turn = WHITE
        self.taken: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
        self.phase = START
        self.vacated: _Vacated = ()
        self.history: list[Turn] = []
        self._cur: list[Capture | Move | Drop] = []
        self._undo: list[_Undo] = []
        self._key = 0

    # ----------------------------------------------------------------- set-up and pieces

    @classmethod
    def start(cls) -> Board:
        """The set-up of the rulings, White to move."""
        b = cls()
        for side, rows in SETUP.items():
            for item in rows:
                sq_name, code = item.split()
                shape = SHAPE_BY_LETTER[code[0]]
                if shape == PYRAMID:
                    p = Piece(side, PYRAMID, parts=PYRAMID_PARTS[side])
                else:
                    p = Piece(side, shape, int(code[1:]))
                b.add_piece(p, parse_square(sq_name))
        return b

    def add_piece(self, piece: Piece, sq: int) -> None:
        """Put a piece on an empty square (setting up a position, not a move)."""
        if self.squares[sq] is not None:
            raise _bad_position(f"two pieces on {name(sq)}", square=name(sq))
        self.pieces[piece.side].append(piece)
        self._place(piece, sq)

    def piece_at(self, sq: int | str) -> Piece | None:
        return self.squares[parse_square(sq) if isinstance(sq, str) else sq]

    def army_value(self, side: int) -> int:
        return sum(p.value for p in self.pieces[side])

    def taken_value(self, side: int) -> int:
        """The total value of the pieces ``side`` holds, taken from the enemy."""
        return sum(v for _, v in self.taken[side])

    def has_pyramid(self, side: int) -> bool:
        return any(p.shape == PYRAMID for p in self.pieces[side])

    def key(self) -> int:
        """A 64-bit key of the position for transposition tables: pieces, taken pieces, side to
        move and phase. Mid-turn, the squares a capturer may still step onto are not in it."""
        k = self._key + _PHASE_KEYS[self.phase]
        if self.turn == BLACK:
            k += _SIDE_KEY
        return k & _KEY_MASK

    def _place(self, p: Piece, sq: int) -> None:
        self.squares[sq] = p
        p.sq = sq
        self._key += _piece_key(p, sq)

    def _hold(self, side: int, shape: int, value: int) -> None:
        """Give ``side`` a taken piece (setting up a position)."""
        self.taken[side].append((shape, value))
        self._key += _zk(side, _TAKEN_CODE | shape, value, OFF)

    def _lift(self, p: Piece) -> None:
        self.squares[p.sq] = None
        self._key -= _piece_key(p, p.sq)

    # ----------------------------------------------------------------- generation

    def _scan(self, moves: list[Move] | None, side: int | None = None) -> list[_Way]:
        """Every capture open to the side to move (or to ``side``), as (victim square, part,
        value, method, by); with ``moves`` given, also append its plain moves to it (they come
        from the same pass). The order of the ways is the order the steps are listed in."""
        me = self.turn if side is None else side
        out: list[_Way] = []
        self._captures_in_reach(me, self._reach(me, moves), out)
        self._captures_by_assault(me, out)
        self._captures_by_siege(me, out)
        return out

    def _reach(self, me: int, moves: list[Move] | None) -> dict[int, list[Piece]]:
        """For each enemy piece that ``me``'s pieces have within a free regular move, those
        pieces (the reach-based captures only look at them); with ``moves`` given, ``me``'s plain
        moves are appended to it on the way."""
        sqs = self.squares
        reach: dict[int, list[Piece]] = {}
        for p in self.pieces[me]:
            s = p.sq
            for t, b1, b2, mv in REGULAR[p.mask][s]:
                if sqs[b1] is None and sqs[b2] is None:
                    q = sqs[t]
                    if q is None:
                        if moves is not None:
                            moves.append(mv)
                    elif q.side != me:
                        lst = reach.get(t)
                        if lst is None:
                            reach[t] = [p]
                        else:
                            lst.append(p)
            if moves is not None:
                for t, mv in IRREGULAR[p.mask][s]:
                    if sqs[t] is None:
                        moves.append(mv)
        return reach

    def _captures_in_reach(self, me: int, reach: dict[int, list[Piece]], out: list[_Way]) -> None:
        """The captures by a piece within reach of its victim (encounter, power) and by two of
        them (ambush, progression), victim by victim."""
        for t, atk in reach.items():
            target = self.squares[t]
            assert target is not None
            victims = target.victims
            for a_piece in atk:
                avals = a_piece.values
                for v, part in victims:
                    if is_encounter(avals, v):
                        out.append((t, part, v, ENCOUNTER, (a_piece.sq,)))
                    if is_power(avals, v):
                        out.append((t, part, v, POWER, (a_piece.sq,)))
            n = len(atk)
            for i in range(n - 1):
                a_piece = atk[i]
                for j in range(i + 1, n):
                    b_piece = atk[j]
                    sa, sb = a_piece.sq, b_piece.sq
                    by = (sa, sb) if sa < sb else (sb, sa)
                    for v, part in victims:
                        if is_ambush(a_piece.values, b_piece.values, v):
                            out.append((t, part, v, AMBUSH, by))
                        if is_progression(a_piece.values, b_piece.values, v):
                            out.append((t, part, v, PROGRESSION, by))

    def _captures_by_assault(self, me: int, out: list[_Way]) -> None:
        """Assault (« assaut »): along one of the 8 lines, the first piece met is an enemy, and
        the attacker's value times the empty squares between them is the victim's (or the
        victim's times them is the attacker's)."""
        sqs = self.squares
        for p in self.pieces[me]:
            s = p.sq
            for ray in RAYS[s]:
                n = 0
                for t in ray:
                    q = sqs[t]
                    if q is None:
                        n += 1
                        continue
                    if n and q.side != me:
                        for v, part in q.victims:
                            for a in p.values:
                                if v == a * n or a == v * n:
                                    out.append((t, part, v, ASSAULT, (s,)))
                                    break
                    break

    def _captures_by_siege(self, me: int, out: list[_Way]) -> None:
        """Emprisonment, the capture by siege (« siège »): an enemy piece with no free regular
        move, at least one of them blocked by ``me``'s pieces, is taken whole by those pieces.
        One free move found is enough to spare a piece, so the search stops there."""
        sqs = self.squares
        for victim in self.pieces[1 - me]:
            entries = REGULAR[victim.mask][victim.sq]
            for t, b1, b2, _ in entries:
                if sqs[t] is None and sqs[b1] is None and sqs[b2] is None:
                    break
            else:
                by_set = set()
                for entry in entries:
                    for x in entry[:3]:
                        q = sqs[x]
                        if q is not None and q.side == me:
                            by_set.add(x)
                if by_set:
                    out.append((victim.sq, 0, victim.value, EMPRISONMENT,
                                tuple(sorted(by_set))))

    def legal_moves(self) -> list[Move]:
        """The plain moves (regular and irregular) of the side to move."""
        moves: list[Move] = []
        sqs = self.squares
        for p in self.pieces[self.turn]:
            s = p.sq
            for t, b1, b2, mv in REGULAR[p.mask][s]:
                if sqs[t] is None and sqs[b1] is None and sqs[b2] is None:
                    moves.append(mv)
            for t, mv in IRREGULAR[p.mask][s]:
                if sqs[t] is None:
                    moves.append(mv)
        return moves

    def captures(self, side: int | None = None) -> list[Capture]:
        """Every capture open to the side to move now: one :class:`Capture` per piece (or
        pyramid component) that can be taken, with the squares of every piece that can take it.
        With ``side``, the captures that side would have if it were to move (threats)."""
        return self._aggregate(self._scan(None, side))

    @staticmethod
    def _aggregate(raw: list[_Way]) -> list[Capture]:
        agg: dict[tuple[int, int], set[int]] = {}
        for t, part, _v, _m, by in raw:
            s = agg.get((t, part))
            if s is None:
                agg[(t, part)] = set(by)
            else:
                s.update(by)
        return [Capture(t, part, tuple(sorted(s))) for (t, part), s in agg.items()]

    def capture_options(self, side: int | None = None) -> list[dict[str, Any]]:
        """Every way to capture open to the side to move (or to ``side``), for people and the
        command line: ``{"victim", "method", "by", "value"}`` (``value``: the victim's value used,
        a pyramid component's or the pyramid's total), sorted by victim, value, method and
        capturers."""
        raw = sorted(set(self._scan(None, side)),
                     key=lambda c: (c[0], c[2], METHODS.index(c[3]), c[4]))
        return [{"victim": name(t), "method": m, "by": [name(s) for s in by], "value": v}
                for t, _part, v, m, by in raw]

    def legal_drops(self) -> list[Drop]:
        """The drops of the side to move: each different taken piece on each free square of its
        first rank."""
        me = self.turn
        if not self.taken[me]:
            return []
        base = (FIRST_RANK[me] - 1) * N_FILES
        free = [s for s in range(base, base + N_FILES) if self.squares[s] is None]
        return [Drop(shape, value, s) for shape, value in dict.fromkeys(self.taken[me])
                for s in free]

    def legal_steps(self) -> list[Capture | Move | Drop | EndTurn]:
        """The steps the side to move may play now, for the current phase (see the module's
        table): captures first, then moves, drops and END."""
        phase = self.phase
        if phase == START:
            moves: list[Move] = []
            steps: list[Capture | Move | Drop | EndTurn] = []
            steps.extend(self._aggregate(self._scan(moves)))
            steps.extend(moves)
            steps.extend(self.legal_drops())
            return steps
        steps = list(self.captures())
        if phase == BEFORE:
            if self.vacated:
                for sq, by in self.vacated:
                    steps.extend(move(b, sq) for b in by)
            else:
                steps.append(END)
        else:
            steps.append(END)
        return steps

    def has_legal_turn(self) -> bool:
        """Whether the side to move can play at all (a move, a drop or a capture). A player who
        cannot loses."""
        sqs = self.squares
        for p in self.pieces[self.turn]:
            s = p.sq
            for t, b1, b2, _ in REGULAR[p.mask][s]:
                if sqs[t] is None and sqs[b1] is None and sqs[b2] is None:
                    return True
            for t, _ in IRREGULAR[p.mask][s]:
                if sqs[t] is None:
                    return True
        if self.legal_drops():
            return True
        return bool(self._scan(None))

    def legal_turns(self) -> Iterator[Turn]:
        """Every legal turn from the start of a turn, found by walking the steps. Turns that only
        differ in the order of their captures come once: a mid-turn state already walked (same
        pieces, same squares to step onto) is not walked again, so k captures cost about 2^k
        states, not k!. Positions rich in captures still have very many turns: a search should
        walk :meth:`legal_steps` instead."""
        if self.phase != START or self._cur:
            raise ValueError("legal_turns() lists whole turns: finish the turn in progress first")
        seen: set[tuple[frozenset[Capture], Move | None, Drop | None, frozenset[Capture]]] = set()
        walked: set[tuple[int, frozenset[tuple[int, frozenset[int]]]]] = set()
        depth = len(self.history)

        def walk() -> Iterator[Turn]:
            for step in self.legal_steps():
                self.push_step(step)
                if len(self.history) > depth:
                    t = self.history[-1]
                    k = (frozenset(t.before), t.move, t.drop, frozenset(t.after))
                    if k not in seen:
                        seen.add(k)
                        yield t
                else:
                    state = (self.key(), frozenset((s, frozenset(by)) for s, by in self.vacated))
                    if state not in walked:
                        walked.add(state)
                        yield from walk()
                self.pop_step()

        return walk()

    # ----------------------------------------------------------------- applying steps

    def push_step(self, step: Capture | Move | Drop | EndTurn) -> None:
        """Apply one step taken from :meth:`legal_steps` (not checked again: use :meth:`play`
        for a step from outside)."""
        if step is END:
            self._end(auto=False)
            return
        me = self.turn
        if type(step) is Move:
            p = self.squares[step.frm]
            assert p is not None
            self._undo.append((_U_MOVE, step, self.phase, self.vacated))
            self._lift(p)
            self._place(p, step.to)
            self._cur.append(step)
            if self.phase == START and step.irregular:
                self._end(auto=True)
            else:
                self.phase = AFTER
                self.vacated = ()
        elif type(step) is Capture:
            p = self.squares[step.square]
            assert p is not None
            phase, vacated = self.phase, self.vacated
            mine = self.taken[me]
            if step.part == 0 or len(p.parts) == 1:
                lst = self.pieces[p.side]
                idx = lst.index(p)
                del lst[idx]
                self._lift(p)
                gained = p.gives()
                for shape, value in gained:
                    mine.append((shape, value))
                    self._key += _zk(me, _TAKEN_CODE | shape, value, OFF)
                self._undo.append((_U_WHOLE, step, phase, vacated, p, idx, len(gained)))
                if phase != AFTER:
                    self.phase = BEFORE
                    self.vacated = (*vacated, (step.square, step.by))
            else:
                i = next(k for k, (_, v) in enumerate(p.parts) if v == step.part)
                shape = p.parts[i][0]
                self._lift(p)
                p.parts = p.parts[:i] + p.parts[i + 1:]
                p.refresh()
                self._place(p, step.square)
                mine.append((shape, step.part))
                self._key += _zk(me, _TAKEN_CODE | shape, step.part, OFF)
                self._undo.append((_U_PART, step, phase, vacated, p, i, shape))
                if phase == START:
                    self.phase = BEFORE
            self._cur.append(step)
        else:
            assert type(step) is Drop
            hand = self.taken[me]
            idx = hand.index((step.shape, step.value))
            del hand[idx]
            self._key -= _zk(me, _TAKEN_CODE | step.shape, step.value, OFF)
            p = Piece(me, step.shape, step.value)
            self.pieces[me].append(p)
            self._place(p, step.square)
            self._undo.append((_U_DROP, step, self.phase, self.vacated, idx))
            self._cur.append(step)
            self.phase = AFTER
            self.vacated = ()

    def _end(self, auto: bool) -> None:
        turn = Turn.from_steps(self._cur)
        self._undo.append((_U_END, self._cur, self.phase, self.vacated, auto))
        self.history.append(turn)
        self._cur = []
        self.phase = START
        self.vacated = ()
        self.turn ^= 1

    def pop_step(self) -> Capture | Move | Drop | EndTurn:
        """Take back the last step (an END included: the previous player's turn is then open
        again). Returns the step taken back."""
        if not self._undo:
            raise IndexError("pop_step(): nothing to take back")
        rec = self._undo.pop()
        if rec[0] == _U_END:
            self.turn ^= 1
            self.history.pop()
            self._cur, self.phase, self.vacated = rec[1], rec[2], rec[3]
            if rec[4]:  # the irregular move that ended its turn goes back with it
                return self.pop_step()
            return END
        step = rec[1]
        self.phase, self.vacated = rec[2], rec[3]
        self._cur.pop()
        me = self.turn
        if rec[0] == _U_MOVE:
            mv = rec[1]
            p = self.squares[mv.to]
            assert p is not None
            self._lift(p)
            self._place(p, mv.frm)
        elif rec[0] == _U_WHOLE:
            cap, p, idx, n = rec[1], rec[4], rec[5], rec[6]
            mine = self.taken[me]
            for _ in range(n):
                shape, value = mine.pop()
                self._key -= _zk(me, _TAKEN_CODE | shape, value, OFF)
            self.pieces[p.side].insert(idx, p)
            self._place(p, cap.square)
        elif rec[0] == _U_PART:
            cap, p, i, shape = rec[1], rec[4], rec[5], rec[6]
            self.taken[me].pop()
            self._key -= _zk(me, _TAKEN_CODE | shape, cap.part, OFF)
            self._lift(p)
            p.parts = (*p.parts[:i], (shape, cap.part), *p.parts[i:])
            p.refresh()
            self._place(p, cap.square)
        else:
            drop = rec[1]
            dropped = self.squares[drop.square]
            assert dropped is not None
            self._lift(dropped)
            self.pieces[me].pop()
            self.taken[me].insert(rec[4], (drop.shape, drop.value))
            self._key += _zk(me, _TAKEN_CODE | drop.shape, drop.value, OFF)
        return step

    @property
    def turn_in_progress(self) -> tuple[Capture | Move | Drop, ...]:
        """The steps played so far in the current turn."""
        return tuple(self._cur)

    def cancel_turn(self) -> None:
        """Take back the steps of the turn in progress."""
        while self._cur:
            self.pop_step()

    # ----------------------------------------------------------------- checked play

    def play(self, step: Capture | Move | Drop | EndTurn | str) -> Capture | Move | Drop | EndTurn:
        """Check one step against the rules (a refusal is a coded DomainError, see
        :mod:`bot.rithmo.refusals`), then apply it. A step may be text: ``xd7``, ``c3-d7``,
        ``drop T36 d1`` or ``end``."""
        if isinstance(step, str):
            text = step.strip().lower()
            if text == "end":
                step = END
            else:
                parsed = parse_turn(step).steps()
                if len(parsed) != 1:
                    raise DomainError("rithmo.bad_notation",
                                      f"{step!r} is not one step: give one move, capture or drop",
                                      text=step, reason="not one step")
                step = parsed[0]
        real = self._check(step)
        self.push_step(real)
        return real

    def push(self, turn: Turn | str) -> Turn:
        """Play a whole turn, checked step by step; a refused turn raises a DomainError and
        leaves the board as it was. Returns the turn as recorded (with its capturers filled in)."""
        if isinstance(turn, str):
            turn = parse_turn(turn)
        if self._cur:
            raise DomainError("rithmo.turn_in_progress",
                              "a turn is already in progress: finish it or cancel it first")
        depth = len(self.history)
        pushed = 0
        try:
            for step in turn.steps():
                if len(self.history) > depth:
                    raise DomainError(
                        "rithmo.after_leap",
                        f"no capture may follow an irregular move ({self.history[-1]})",
                        move=str(self.history[-1]))
                self.push_step(self._check(step))
                pushed += 1
            if len(self.history) == depth:
                self.push_step(self._check(END))
                pushed += 1
        except DomainError:
            for _ in range(pushed):
                self.pop_step()
            raise
        return self.history[-1]

    def pop(self) -> Turn:
        """Take back the last finished turn."""
        if self._cur:
            raise DomainError("rithmo.turn_in_progress",
                              "a turn is in progress: cancel it before taking back a turn")
        if not self.history:
            raise DomainError("rithmo.nothing_to_undo", "no turn has been played yet")
        turn = self.history[-1]
        self.pop_step()
        while self._cur:
            self.pop_step()
        return turn

    def _check(self, step: Capture | Move | Drop | EndTurn) -> Capture | Move | Drop | EndTurn:
        """The legal step equal to ``step``, or a DomainError saying why it is not legal."""
        phase = self.phase
        if step is END or isinstance(step, EndTurn):
            if phase == START:
                raise DomainError("rithmo.empty_turn", "a turn needs a move, a drop or a capture")
            if phase == BEFORE and self.vacated:
                raise _must_step(self.vacated)
            return END
        if isinstance(step, Capture):
            return self._check_capture(step)
        if isinstance(step, Drop):
            return self._check_drop(step)
        if not isinstance(step, Move):
            raise TypeError(f"not a step: {step!r}")
        frm, to = step
        mv = move(frm, to)
        if phase == AFTER:
            raise DomainError("rithmo.second_move",
                              "the turn already has its move: only captures may follow",
                              move=str(mv))
        if phase == BEFORE:
            if not self.vacated:
                raise DomainError(
                    "rithmo.no_square_freed",
                    "the captures made first freed no square (only pyramid components were "
                    "taken), so the turn ends with them; it has no move")
            for sq, by in self.vacated:
                if sq == to and frm in by:
                    return mv
            raise _must_step(self.vacated)
        if mv in self.legal_moves():
            return mv
        raise self._why_not(frm, to)

    def _why_not(self, frm: int, to: int) -> DomainError:
        """Why the move frm-to, not among the legal moves at the start of a turn, is refused."""
        p = self.squares[frm]
        where = f"{name(frm)}-{name(to)}"
        if p is None:
            return DomainError("rithmo.no_piece", f"{where}: there is no piece on {name(frm)}",
                               move=where, square=name(frm))
        said = {"move": where, "square": name(frm), "piece": label(p)}
        if p.side != self.turn:
            return DomainError(
                "rithmo.not_yours",
                f"{where}: the {p.describe()} on {name(frm)} is {SIDES[p.side].capitalize()}'s",
                **said, side=SIDES[p.side])
        q = self.squares[to]
        if q is not None:
            return DomainError("rithmo.occupied",
                               f"{where}: {name(to)} is occupied by the {q.describe()}; a move "
                               f"lands on an empty square (to take a piece, capture it)",
                               move=where, square=name(to), piece=label(q))
        for t, b1, b2, _ in REGULAR[p.mask][frm]:
            if t == to:  # the shape moves so, and the target is empty: something is in the way
                block = next(b for b in (b1, b2) if self.squares[b] is not None)
                return DomainError("rithmo.blocked",
                                   f"{where}: the path is blocked at {name(block)}",
                                   **said, at=name(block))
        what = {ROUND: "a round moves one square diagonally",
                TRIANGLE: "a triangle moves two squares straight or leaps like a knight",
                SQUARE: "a square moves three squares straight or leaps (1, 3)"}
        if p.shape == PYRAMID:
            held = ", ".join(what[s] for s in _PLAIN_SHAPES if p.mask & s)
            return DomainError(
                "rithmo.not_a_move_of.pyramid",
                f"{where}: the pyramid on {name(frm)} moves as the shapes it holds: {held}",
                **said, shapes=", ".join(SHAPE_LETTERS[s] for s in _PLAIN_SHAPES if p.mask & s))
        return DomainError(_NOT_A_MOVE_OF[p.shape], f"{where}: {what[p.shape]}", **said)

    def _check_capture(self, step: Capture) -> Capture:
        sq, part = step.square, step.part
        victim = self.squares[sq]
        if victim is None:
            raise DomainError("rithmo.nothing_to_take", f"x{name(sq)}: there is no piece there",
                              square=name(sq))
        if victim.side == self.turn:
            raise DomainError("rithmo.own_piece",
                              f"x{name(sq)}: the {victim.describe()} there is yours",
                              square=name(sq), piece=label(victim), side=SIDES[victim.side])
        whom = label(victim)
        if part:
            if victim.shape != PYRAMID:
                raise DomainError("rithmo.not_a_pyramid",
                                  f"x{name(sq)}({part}): only a pyramid is taken by component; "
                                  f"write x{name(sq)}", square=name(sq), piece=whom)
            held = [v for _, v in victim.parts]
            if part not in held:
                raise DomainError("rithmo.no_component",
                                  f"x{name(sq)}({part}): the pyramid there holds "
                                  f"{', '.join(map(str, held))}",
                                  square=name(sq), part=part, parts=", ".join(map(str, held)))
            if len(victim.parts) == 1:
                part = 0  # a pyramid of one piece left is taken whole
            else:
                whom = f"{part} ({whom})"
        for cap in self.captures():
            if cap.square == sq and cap.part == part:
                return cap
        what = (f"the {part} of the pyramid on {name(sq)}" if part
                else f"the {victim.describe()} on {name(sq)}")
        raise DomainError("rithmo.cannot_take",
                          f"{what} cannot be taken now: no encounter, ambush, assault, power, "
                          "progression or emprisonment applies", square=name(sq), piece=whom)

    def _check_drop(self, step: Drop) -> Drop:
        me = self.turn
        piece = piece_text(step.shape, step.value)
        if self.phase != START:
            raise DomainError("rithmo.drop_late",
                              "a drop replaces the move: it cannot follow captures or a move",
                              piece=piece)
        if (step.shape, step.value) not in self.taken[me]:
            raise DomainError("rithmo.drop_none",
                              f"{step}: you have no {describe(step.shape, step.value)} to drop",
                              piece=piece)
        if rank_of(step.square) != FIRST_RANK[me]:
            raise DomainError("rithmo.drop_rank",
                              f"{step}: a drop goes on your first rank (rank {FIRST_RANK[me]})",
                              piece=piece, rank=FIRST_RANK[me])
        if self.squares[step.square] is not None:
            raise DomainError("rithmo.drop_occupied", f"{step}: {name(step.square)} is occupied",
                              piece=piece, square=name(step.square))
        return step

    # ----------------------------------------------------------------- JSON and text

    def to_json(self) -> dict[str, Any]:
        """The position in the command-line format (see docs/rules/rithmomachia.md). Mid-turn, the
        position at the start of the turn plus ``"turn_in_progress"``: the steps played so far."""
        if self._cur:
            steps = list(self._cur)
            self.cancel_turn()
            try:
                out = self.to_json()
            finally:
                for s in steps:
                    self.push_step(s)
            out["turn_in_progress"] = " ".join(str(s) for s in steps)
            return out
        pieces = sorted(self.pieces[WHITE] + self.pieces[BLACK], key=lambda p: p.sq)
        return {"to_move": SIDES[self.turn],
                "pieces": [p.to_json() for p in pieces],
                "taken": {SIDES[s]: [{"shape": SHAPE_NAMES[sh], "value": v}
                                     for sh, v in self.taken[s]] for s in (WHITE, BLACK)}}

    @classmethod
    def from_json(cls, data: Any) -> Board:
        """A board from :meth:`to_json`'s format; anything wrong raises ``rithmo.bad_position``."""
        if not isinstance(data, dict):
            raise _bad_position("a position is a JSON object")
        b = cls()
        to_move = data.get("to_move", "white")
        if not isinstance(to_move, str) or to_move not in SIDE_BY_NAME:  # a list is unhashable
            raise _bad_position(f"to_move is 'white' or 'black', not {to_move!r}")
        b.turn = SIDE_BY_NAME[to_move]
        pieces = data.get("pieces", [])
        if not isinstance(pieces, list):
            raise _bad_position("pieces is a list")
        for item in pieces:
            piece, sq = _piece_from_json(item)
            b.add_piece(piece, sq)
        taken = data.get("taken", {})
        if not isinstance(taken, dict):
            raise _bad_position("taken is an object {\"white\": [...], \"black\": [...]}")
        for side_name, items in taken.items():
            if side_name not in SIDE_BY_NAME or not isinstance(items, list):
                raise _bad_position(f"taken has lists for 'white' and 'black', not {side_name!r}")
            side = SIDE_BY_NAME[side_name]
            for item in items:
                if not isinstance(item, dict):
                    raise _bad_position("a taken piece is {\"shape\": ..., \"value\": ...}")
                shape = _plain_shape(item.get("shape"))
                value = _value(item.get("value"))
                b._hold(side, shape, value)
        progress = data.get("turn_in_progress")
        if progress:
            if not isinstance(progress, str):
                raise _bad_position("turn_in_progress is a turn's text")
            for step in parse_turn(progress).steps():
                b.play(step)
        return b

    def position_string(self) -> str:
        """The position on one line: the ranks from 16 down to 1 separated by '/', each square a
        piece (``S289`` White, ``s49`` Black, ``P(S36S25T16T9R4R1)`` a pyramid) or '.', then the
        side to move (w or b), then what White and Black hold taken ('-' for nothing)."""
        if self._cur:
            raise ValueError("position_string() is for positions between turns")
        ranks = []
        for r in range(16, 0, -1):
            row = ""
            for f in range(N_FILES):
                p = self.squares[(r - 1) * N_FILES + f]
                row += "." if p is None else p.text()
            ranks.append(row)
        hands = ["".join(f"{SHAPE_LETTERS[s]}{v}" for s, v in h) or "-" for h in self.taken]
        return f"{'/'.join(ranks)} {'wb'[self.turn]} {hands[0]} {hands[1]}"

    @classmethod
    def from_position_string(cls, text: str) -> Board:
        if not isinstance(text, str):
            raise _bad_position("a position string is text")
        fields = text.split()
        if len(fields) != 4:
            raise _bad_position("a position string has 4 fields: ranks, side, White's and "
                                "Black's taken pieces")
        ranks = fields[0].split("/")
        if len(ranks) != 16:
            raise _bad_position(f"16 ranks separated by '/', not {len(ranks)}")
        b = cls()
        for i, row in enumerate(ranks):
            r = 16 - i
            f = 0
            pos = 0
            while pos < len(row):
                m = _CELL.match(row, pos)
                if m is None:
                    raise _bad_position(f"cannot read rank {r} at {row[pos:]!r}")
                pos = m.end()
                if f >= N_FILES:
                    raise _bad_position(f"rank {r} has more than 8 squares")
                sq = (r - 1) * N_FILES + f
                f += 1
                if m.group(0) == ".":
                    continue
                b.add_piece(_piece_from_cell(m), sq)
            if f != N_FILES:
                raise _bad_position(f"rank {r} has {f} squares, not 8")
        if fields[1] not in ("w", "b"):
            raise _bad_position(f"the side to move is w or b, not {fields[1]!r}")
        b.turn = WHITE if fields[1] == "w" else BLACK
        for side, hand in ((WHITE, fields[2]), (BLACK, fields[3])):
            if hand == "-":
                continue
            if not _HAND.fullmatch(hand):
                raise _bad_position(f"cannot read the taken pieces {hand!r}")
            for x, v in _PART.findall(hand):
                b._hold(side, SHAPE_BY_LETTER[x.upper()], _value(int(v)))
        return b

    @classmethod
    def from_pieces(cls, pieces: dict[str, str], to_move: str = "white",
                    taken: dict[str, str] | None = None) -> Board:
        """A position from a few pieces, written as in the position string:
        ``Board.from_pieces({"c2": "R4", "d3": "s4", "b2": "P(S36R1)"}, "black")`` (capitals
        White, small letters Black); ``taken`` like ``{"white": "T36R9"}``."""
        b = cls()
        if to_move not in SIDE_BY_NAME:
            raise _bad_position(f"to_move is 'white' or 'black', not {to_move!r}")
        b.turn = SIDE_BY_NAME[to_move]
        for sq_name, text in pieces.items():
            m = _CELL.fullmatch(text)
            if m is None or text == ".":
                raise _bad_position(f"cannot read the piece {text!r}")
            b.add_piece(_piece_from_cell(m), parse_square(sq_name))
        for side_name, hand in (taken or {}).items():
            side = SIDE_BY_NAME[side_name]
            for x, v in _PART.findall(hand):
                b._hold(side, SHAPE_BY_LETTER[x.upper()], _value(int(v)))
        return b

    def copy(self) -> Board:
        """An independent board at the same position (its history starts empty)."""
        return Board.from_json(self.to_json())

    def __str__(self) -> str:
        """A text picture, rank 16 at the top, White pieces in capitals."""
        lines = []
        for r in range(16, 0, -1):
            cells = []
            for f in range(N_FILES):
                p = self.squares[(r - 1) * N_FILES + f]
                cells.append("." if p is None else
                             (f"{SHAPE_LETTERS[p.shape]}{p.value}" if p.side == WHITE
                              else f"{SHAPE_LETTERS[p.shape]}{p.value}".lower()))
            lines.append(f"{r:>2} " + " ".join(c.rjust(5) for c in cells))
        lines.append("   " + " ".join(c.rjust(5) for c in FILES))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Board({self.position_string() if not self._cur else '…mid-turn'!r})"


_CELL = re.compile(r"\.|(?P<shape>[RTSrts])(?P<value>[0-9]+)"
                   r"|(?P<pyr>[Pp])\((?P<parts>(?:[RTSrts][0-9]+)+)\)")
_PART = re.compile(r"([RTSrts])([0-9]+)")
_HAND = re.compile(r"(?:[RTSrts][0-9]+)+")


def _piece_from_cell(m: re.Match[str]) -> Piece:
    if m.group("pyr"):
        side = WHITE if m.group("pyr") == "P" else BLACK
        parts = tuple((SHAPE_BY_LETTER[x.upper()], _value(int(v)))
                      for x, v in _PART.findall(m.group("parts")))
        return Piece(side, PYRAMID, parts=parts)
    letter = m.group("shape")
    side = WHITE if letter.isupper() else BLACK
    return Piece(side, SHAPE_BY_LETTER[letter.upper()], _value(int(m.group("value"))))


def _must_step(vacated: tuple[tuple[int, tuple[int, ...]], ...]) -> DomainError:
    options = ", ".join(str(move(b, s)) for s, by in vacated for b in by)
    return DomainError("rithmo.must_step",
                       "after capturing before the move, one of the capturers takes the square "
                       f"of a piece it took: {options}", options=options)


def label(p: Piece) -> str:
    """``R64``, ``P91``: a piece as refusals name it (a pyramid by its total)."""
    return f"{SHAPE_LETTERS[p.shape]}{p.value}"


_NOT_A_MOVE_OF = {ROUND: "rithmo.not_a_move_of.round", TRIANGLE: "rithmo.not_a_move_of.triangle",
                  SQUARE: "rithmo.not_a_move_of.square"}


def _value(v: Any) -> int:
    if type(v) is not int or v < 1:
        raise _bad_position(f"a value is a whole number from 1 up, not {v!r}")
    return v


def _plain_shape(s: Any) -> int:
    shape = SHAPE_BY_NAME.get(s) if isinstance(s, str) else None
    if shape is None or shape == PYRAMID:
        raise _bad_position(f"shape is round, triangle or square here, not {s!r}")
    return shape


def _piece_from_json(item: Any) -> tuple[Piece, int]:
    if not isinstance(item, dict):
        raise _bad_position("a piece is an object with square, side, shape and value")
    sq_text = item.get("square")
    if not isinstance(sq_text, str):
        raise _bad_position("a piece needs its square, like \"c3\"")
    sq = parse_square(sq_text)
    side = item.get("side")
    if not isinstance(side, str) or side not in SIDE_BY_NAME:
        raise _bad_position(f"side is 'white' or 'black', not {side!r}", square=sq_text)
    shape_name = item.get("shape")
    shape = SHAPE_BY_NAME.get(shape_name) if isinstance(shape_name, str) else None
    if shape is None:
        raise _bad_position(f"shape is round, triangle, square or pyramid, not {shape_name!r}",
                            square=sq_text)
    if shape == PYRAMID:
        parts_in = item.get("parts")
        if not isinstance(parts_in, list) or not parts_in:
            raise _bad_position(f"the pyramid on {sq_text} needs its parts", square=sq_text)
        parts = []
        for part in parts_in:
            if not isinstance(part, dict):
                raise _bad_position("a pyramid part is {\"shape\": ..., \"value\": ...}")
            parts.append((_plain_shape(part.get("shape")), _value(part.get("value"))))
        piece = Piece(SIDE_BY_NAME[side], PYRAMID, parts=tuple(parts))
        if "value" in item and item["value"] != piece.value:
            raise _bad_position(f"the pyramid on {sq_text} is worth {piece.value}, the sum of "
                                f"its parts, not {item['value']!r}", square=sq_text)
        return piece, sq
    return Piece(SIDE_BY_NAME[side], shape, _value(item.get("value"))), sq
