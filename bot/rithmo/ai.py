"""The Rithmomachia opponent: an evaluation a reader can follow, a search over turn steps, and
five levels of play.

Levels (:data:`LEVELS`, weakest first):

- ``random``: uniformly random legal steps until the turn ends (a yardstick, not a teacher).
- ``beginner``: honest but weak. Seven times in ten it takes the biggest capture open, if any;
  otherwise a random move, preferring one that leaves the moved piece where the enemy cannot take
  it at once (after a regular move it takes what opens up, seven times in ten). It never drops.
- ``middle``: sees one turn ahead. It walks every turn it could play, step by step, and keeps the
  one whose position, once the turn is over, evaluates best; the evaluation already counts the
  captures the opponent would then have (its "best immediate reply capture").
- ``strong``: searches. Negamax alpha-beta over turn *steps* with iterative deepening (depth in
  whole turns), principal variation search and late-move reductions, a transposition table on
  :meth:`Board.key`, captures first ordered by the value of the victim (MVV) and quiet moves by a
  history table, within a time budget (0.5 s a turn by default: :data:`SECONDS`) or a node
  budget (the same seed and budget give the same turn: the ladder and the tests use node
  budgets). Monte Carlo tree search was measured against it and lost
  (:mod:`tools.experiments.rithmo_mcts`).
- ``master``: the same search for 2 s a turn, for the class's best players (the ladder: it wins
  about four games in five against strong).

Variety: the searching levels keep every root step within :data:`MARGINS` points of the best
(the search proves the others against best − margin, so those within it get exact scores) and
the seeded rng chooses among them; the beginner's moves are random already. The material is
kept up to date by the search step by step, in integers, so it is always the full count
(``Searcher(verify=True)`` checks it at every evaluation).

The evaluation (:class:`Evaluator`) is in *points*, 1000 points being a whole victory's worth of
progress, seen from the side to move. Its parts (:meth:`Evaluator.explain` returns them):

1. **progress**: how near each side is to the victories chosen for the game. A common victory's
   progress is the mean of its conditions met so far (pieces / P, value / V, digits / D, each at
   most 1); lawsuit and honour count the value, halved once the digit or piece ceiling is broken.
   A proper victory's progress counts the enemy pyramid taken, then pieces in the enemy half and
   three of them whose values form a progression, then an arrangement made. A side's progress is
   that of its nearest victory plus half the mean of the others.
2. **material**: the pieces each side still has on the board, each worth what taking it would
   bring toward the chosen common victories (1/P for body, value/V for goods, digits/D for
   proceeds, their mean for several; big values and few pieces for lawsuit and honour).
3. **threats** (:meth:`Board.captures` of each side): the side to move will take what it can take
   now; of its own threatened pieces it can save about one, so the biggest counts little and the
   others much. Reaching a victory by those captures counts nearly as a win.
4. **pyramid safety** (with proper victories chosen): a threatened pyramid costs extra, as its
   loss opens the enemy's way to a proper victory.

Searching over steps: a turn of k captures is k + 2 steps; the sign of the score only changes
when a turn ends (END, or an irregular move), and only then does the depth (in turns) go down.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from bot.domain import DomainError
from bot.rithmo.arith import digits, progression_kind
from bot.rithmo.board import AFTER, BEFORE, PYRAMID_PARTS, START, Board, Piece
from bot.rithmo.game import Game
from bot.rithmo.squares import PYRAMID, Move, move
from bot.rithmo.turns import END, Capture, Drop, EndTurn, Turn
from bot.rithmo.victory import PROPER, Settings, Victory, proper_level

LEVELS = ("random", "beginner", "middle", "strong", "master")

Step = Capture | Move | Drop | EndTurn

WIN = 100_000  # a won game; a win found k steps deep scores WIN - k, so sooner is better
_INF = 10 ** 9
POINTS = 1000  # a whole victory's worth of progress

# Weights of the evaluation, in POINTS per unit (a unit being a whole victory's worth).
W_MATERIAL = 0.3  # pieces still on the board: strength to fight with, and what the enemy can win
W_GAIN = 0.8  # captures open to the side to move: it takes them this turn, barring surprises
W_LOSS_OTHERS = 0.5  # its threatened pieces except the biggest: it saves some, not all
W_LOSS_BIGGEST = 0.15  # its most valuable threatened piece: it will usually save that one
NEAR_WIN = 3000  # the side to move reaches a victory by the captures open to it
NEAR_LOSS = 1500  # the enemy would reach a victory by the captures it threatens, even if the
NEAR_LOSS_SOFT = 500  # ... biggest is saved (NEAR_LOSS), or only if it takes them all (SOFT)
PYRAMID_THREAT = 250  # extra cost of a threatened pyramid when proper victories are chosen
TEMPO = 15  # being the side to move
MATERIAL_UNIT = 1_000_000  # material is counted in millionths of a victory: integers, exact sums

LMR_FROM = 4  # quiet steps from this place in the order on are searched shallower first

_FLOORS = {"body": ("pieces",), "goods": ("value",), "proceeds": ("digits",),
           "body_goods": ("pieces", "value"), "body_proceeds": ("pieces", "digits"),
           "goods_proceeds": ("value", "digits"),
           "body_goods_proceeds": ("pieces", "value", "digits")}
_PROPER_LEVEL = {"mediocre": 1, "great": 2, "excellent": 3}


class Evaluator:
    """The static evaluation for one game's settings (see the module's docstring)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        common = [v for v in settings.victories if v.kind not in PROPER]
        if settings.move_limit is not None and settings.limit_rule == "goods":
            # at the move limit the greater value taken wins: value taken is worth pursuing
            common.append(Victory.make("goods"))
        self.common: tuple[Victory, ...] = tuple(common)
        proper = [_PROPER_LEVEL[v.kind] for v in settings.victories if v.kind in PROPER]
        self.proper_level: int | None = min(proper) if proper else None
        self._worth: dict[int, float] = {}
        self._units: dict[int, int] = {}

    # ------------------------------------------------------------ what a piece is worth

    def worth_of_value(self, value: int) -> float:
        """What taking a (plain) piece of this value brings toward the chosen common victories,
        in victories (1.0 = a whole one): the mean over them of 1/P (body), value/V (goods),
        digits/D (proceeds); lawsuit and honour favour big values in few digits and pieces."""
        w = self._worth.get(value)
        if w is not None:
            return w
        d = digits(value)
        ws = []
        for v in self.common:
            k = v.kind
            if k in _FLOORS:
                parts = []
                if v.pieces is not None:
                    parts.append(1 / v.pieces)
                if v.value is not None:
                    parts.append(value / v.value)
                if v.digits is not None:
                    parts.append(d / v.digits)
                ws.append(sum(parts) / len(parts))
            else:
                # Victory.make gives a ceiling victory every threshold of its kind.
                assert v.value is not None
                if k == "lawsuit":
                    assert v.digits is not None
                    ws.append(value / v.value - 0.5 * d / v.digits)
                elif k == "honour":
                    assert v.pieces is not None
                    ws.append(value / v.value - 0.5 / v.pieces)
                else:  # honour_lawsuit
                    assert v.digits is not None and v.pieces is not None
                    ws.append(value / v.value - 0.25 * d / v.digits - 0.25 / v.pieces)
        # Proper victories alone: pieces are the means to fight; count both number and value
        w = sum(ws) / len(ws) if ws else 0.5 * (1 / 8 + value / 300)
        self._worth[value] = w
        return w

    def worth(self, piece: Piece, part: int = 0) -> float:
        """What taking ``piece`` (or its component ``part``) brings."""
        if part:
            return self.worth_of_value(part)
        if piece.shape == PYRAMID:
            return sum(self.worth_of_value(v) for _, v in piece.parts)
        return self.worth_of_value(piece.value)

    # ------------------------------------------------------------ progress toward victories

    def common_progress(self, count: int, total: int, n_digits: int) -> list[float]:
        """Each chosen common victory's progress (0..1) for a hand of ``count`` pieces worth
        ``total`` written with ``n_digits`` digits."""
        out = []
        for v in self.common:
            k = v.kind
            if k in _FLOORS:
                parts = []
                if v.pieces is not None:
                    parts.append(min(count / v.pieces, 1.0))
                if v.value is not None:
                    parts.append(min(total / v.value, 1.0))
                if v.digits is not None:
                    parts.append(min(n_digits / v.digits, 1.0))
                out.append(sum(parts) / len(parts))
            else:
                assert v.value is not None  # a ceiling victory has its value (Victory.make)
                p = min(total / v.value, 1.0)
                # a broken ceiling can only be mended by dropping pieces back: halve
                if v.digits is not None and n_digits >= v.digits:
                    p *= 0.5
                if v.pieces is not None and count >= v.pieces:
                    p *= 0.5
                out.append(p)
        return out

    def reaches_common(self, count: int, total: int, n_digits: int) -> bool:
        """Whether a hand of these counts has one of the chosen common victories."""
        for v in self.settings.victories:
            k = v.kind
            if k in PROPER:
                continue
            if k in _FLOORS:
                if ((v.pieces is None or count >= v.pieces)
                        and (v.value is None or total >= v.value)
                        and (v.digits is None or n_digits >= v.digits)):
                    return True
            elif (v.value is not None and total >= v.value
                  and (v.digits is None or "lawsuit" not in k or n_digits < v.digits)
                  and (v.pieces is None or "honour" not in k or count < v.pieces)):
                return True
        return False

    def proper_progress(self, board: Board, side: int) -> float:
        """Progress (0..1) toward the lowest chosen proper victory: the enemy pyramid taken
        (half of it), then pieces in the enemy half, three of them forming a progression, and
        an arrangement made (the other half, which counts more once the pyramid is taken)."""
        enemy_pyr = next((p for p in board.pieces[1 - side] if p.shape == PYRAMID), None)
        if enemy_pyr is None:
            pyr = 1.0
        else:
            n0 = max(len(PYRAMID_PARTS[1 - side]), len(enemy_pyr.parts))
            pyr = 0.5 * (1 - len(enemy_pyr.parts) / n0)
        if side == 0:  # the enemy half (inlined: this runs at every evaluation)
            ahead = [p for p in board.pieces[0] if p.sq >= 64]
        else:
            ahead = [p for p in board.pieces[1] if p.sq < 64]
        if len(ahead) > 8:  # the nearest to the enemy edge: they are the ones to arrange
            ahead.sort(key=lambda p: -(p.sq >> 3) if side == 0 else p.sq >> 3)
            ahead = ahead[:8]
        adv = min(len(ahead), 4) / 4
        triples = 0
        if len(ahead) >= 3:
            for a, b, c in combinations([p.value for p in ahead], 3):
                if progression_kind(a, b, c) is not None:
                    triples += 1
                    if triples == 2:
                        break
        arranged = 0.0
        if triples and proper_level(board, side) >= (self.proper_level or 1):
            arranged = 1.0
        arr = 0.25 * adv + 0.35 * triples / 2 + 0.4 * arranged
        return 0.5 * pyr + 0.5 * arr * (0.4 + 0.6 * pyr)

    def progress(self, board: Board, side: int) -> float:
        """A side's progress: its nearest victory fully, plus half the mean of the others."""
        hand = board.taken[side]
        total = 0
        n_digits = 0
        for _, v in hand:
            total += v
            n_digits += digits(v)
        ps = self.common_progress(len(hand), total, n_digits)
        if self.proper_level is not None:
            ps.append(self.proper_progress(board, side))
        if not ps:
            return 0.0
        if len(ps) == 1:
            return ps[0]
        best = max(ps)
        return best + 0.5 * (sum(ps) - best) / (len(ps) - 1)

    # ------------------------------------------------------------ the evaluation

    def units_of_value(self, value: int) -> int:
        """:meth:`worth_of_value` in whole millionths, so that material is a sum of integers:
        the search keeps it up to date step by step (adding and taking away) and gets exactly
        the sum a full count gives."""
        u = self._units.get(value)
        if u is None:
            u = self._units[value] = round(MATERIAL_UNIT * self.worth_of_value(value))
        return u

    def units(self, piece: Piece) -> int:
        """A piece's material in millionths: a pyramid's is the sum of its components'."""
        if piece.shape == PYRAMID:
            return sum(self.units_of_value(v) for _, v in piece.parts)
        return self.units_of_value(piece.value)

    def material_units(self, board: Board, side: int) -> int:
        """The full count of a side's material on the board, in millionths."""
        return sum(self.units(p) for p in board.pieces[side])

    def material(self, board: Board, side: int) -> float:
        """A side's material on the board, in victories (see :meth:`worth`)."""
        return self.material_units(board, side) / MATERIAL_UNIT

    def _threats(self, board: Board, caps: list[Capture]) -> tuple[float, float, list[Piece]]:
        """The worth of the pieces these captures take (one entry per square: a pyramid whole
        or its best component), the biggest of them, and the pieces."""
        per_sq: dict[int, float] = {}
        per_piece: dict[int, Piece] = {}
        for c in caps:
            p = board.squares[c.square]
            assert p is not None  # a capture's victim stands on its square
            w = self.worth(p, c.part)
            if w > per_sq.get(c.square, -1e9):
                per_sq[c.square] = w
                per_piece[c.square] = p
        total = sum(w for w in per_sq.values() if w > 0)
        biggest = max(per_sq.values(), default=0.0)
        return total, max(biggest, 0.0), [per_piece[s] for s in per_sq]

    def _would_win(self, board: Board, side: int, victims: list[Piece],
                   leave_out: Piece | None = None) -> bool:
        """Whether ``side`` reaches a common victory by taking these pieces."""
        if not self.common:
            return False
        hand = board.taken[side]
        count = len(hand)
        total = sum(v for _, v in hand)
        n_digits = sum(digits(v) for _, v in hand)
        for p in victims:
            if p is leave_out or self.worth(p) <= 0:
                continue
            for _, v in p.gives():
                count += 1
                total += v
                n_digits += digits(v)
        return self.reaches_common(count, total, n_digits)

    def evaluate(self, board: Board, my_caps: list[Capture] | None = None,
                 their_caps: list[Capture] | None = None,
                 material: Sequence[int] | None = None) -> int:
        """The position's score for the side to move, in points (see :meth:`explain`)."""
        return round(sum(self.explain(board, my_caps, their_caps, material).values()))

    def explain(self, board: Board, my_caps: list[Capture] | None = None,
                their_caps: list[Capture] | None = None,
                material: Sequence[int] | None = None) -> dict[str, float]:
        """The evaluation's parts, in points, for the side to move: progress, material, threats,
        pyramid, tempo. Their sum is :meth:`evaluate`. The captures of each side may be given
        when the caller has them already, and the material of White and Black in millionths
        (:meth:`material_units`) when the caller keeps it up to date (the search does)."""
        me = board.turn
        op = 1 - me
        if my_caps is None:
            my_caps = board.captures(me)
        if their_caps is None:
            their_caps = board.captures(op)
        progress = POINTS * (self.progress(board, me) - self.progress(board, op))
        if material is None:
            material = (self.material_units(board, 0), self.material_units(board, 1))
        material_diff = (material[me] - material[op]) / MATERIAL_UNIT
        material_pts = POINTS * W_MATERIAL * material_diff

        threats = 0.0
        if my_caps:
            gain, _, victims = self._threats(board, my_caps)
            threats += POINTS * W_GAIN * gain
            if self._would_win(board, me, victims):
                threats += NEAR_WIN
        pyramid = 0.0
        if their_caps:
            loss, biggest, victims = self._threats(board, their_caps)
            threats -= POINTS * (W_LOSS_OTHERS * (loss - biggest) + W_LOSS_BIGGEST * biggest)
            if self._would_win(board, op, victims):
                top = max(victims, key=lambda p: self.worth(p))
                threats -= (NEAR_LOSS if self._would_win(board, op, victims, leave_out=top)
                            else NEAR_LOSS_SOFT)
            if self.proper_level is not None:
                for c in their_caps:
                    p = board.squares[c.square]
                    if p is not None and p.shape == PYRAMID and c.part == 0:
                        pyramid -= PYRAMID_THREAT
                        break
        return {"progress": progress, "material": material_pts, "threats": threats,
                "pyramid": pyramid, "tempo": float(TEMPO)}


# ---------------------------------------------------------------- the search


class _Abort(Exception):
    """The node or time budget ran out in the middle of an iteration."""


_EXACT, _LOWER, _UPPER = 0, 1, 2


@dataclass
class SearchResult:
    """What a search found: the turn, its score for the side that plays it (points), the deepest
    iteration completed (in turns), the positions searched and the seconds taken."""

    turn: Turn
    steps: list[Step]
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: list[Step] = field(default_factory=list)


class Searcher:
    """Negamax alpha-beta over turn steps (see the module's docstring).

    ``nodes``: stop after about that many positions searched (reproducible); ``seconds``: stop
    after that much time (for play); ``depth``: the deepest iteration, in turns. With none of
    them, depth 1 (the middle level). ``rng`` breaks ties between equally ordered root steps,
    so that games differ from one seed to the next while one seed gives one turn.
    """

    def __init__(self, settings: Settings, *, nodes: int | None = None,
                 seconds: float | None = None, depth: int | None = None,
                 rng: random.Random | None = None, margin: int = 0,
                 clock: Callable[[], float] = time.perf_counter,
                 verify: bool = False) -> None:
        self.settings = settings
        self.margin = margin if rng is not None else 0
        self.verify = verify
        self.ev = Evaluator(settings)
        self.node_limit = nodes
        self.seconds = seconds
        self.max_depth = depth if depth is not None else (
            1 if nodes is None and seconds is None else 64)
        self.rng = rng
        self.clock = clock
        self.nodes = 0
        self.tt: dict[Hashable, tuple[int, int, int, Step | None]] = {}
        self.history: dict[Move, int] = {}
        self._caps: dict[tuple[int, int], list[Capture]] = {}
        self._deadline = 0.0
        self._turns_deep = 0
        self._base_turns = 0
        self._pv: dict[int, list[Step]] = {}
        self.board = Board()
        self._mat = [0, 0]  # White's and Black's material, in millionths, kept up to date
        self._mat_undo: list[tuple[int, int] | None] = []
        self._root_scores: dict[tuple[type, Step], tuple[list[Step], int]] = {}
        self._refuted: set[tuple[type, Step]] = set()
        self.candidates: list[tuple[list[Step], int]] = []
        self._root_best: tuple[list[Step], int] | None = None

    # ------------------------------------------------------------ entry point

    def search(self, board: Board, turns_played: int = 0) -> SearchResult:
        """The best turn found for the side to move on ``board`` (a position between turns, with
        ``turns_played`` turns already played in the game, for the move limit). The board is
        searched as given and left as it was."""
        if board.turn_in_progress:
            raise ValueError("search() starts between turns")
        self.board = board
        self._base_turns = turns_played
        self._root_history = len(board.history)
        self.nodes = 0
        self._mat = [self.ev.material_units(board, 0), self.ev.material_units(board, 1)]
        self._mat_undo = []
        t0 = self.clock()
        self._deadline = t0 + self.seconds if self.seconds is not None else float("inf")
        best: list[Step] | None = None
        best_score = 0
        done = 0
        candidates: list[tuple[list[Step], int]] = []
        for depth in range(1, self.max_depth + 1):
            self._root_best = None
            self._root_scores = {}
            self._refuted = set()
            try:
                score = self._node(depth, -_INF, _INF, 0)
            except _Abort:
                self._unwind()
                if self._root_best is not None:  # a root step fully searched beat the others
                    candidates = self._partial_candidates(candidates, best,
                                                          self._root_best[0])
                    best, best_score = self._root_best
                break
            best = self._pv.get(0, [])
            best_score = score
            candidates = list(self._root_scores.values())
            done = depth
            if abs(score) >= WIN - 1000:  # a forced win or loss: deeper will not change it
                break
        if best and self.margin and self.rng is not None and candidates:
            # variety: any root step within the margin of the best, by the seeded rng
            top = max(sc for _, sc in candidates)
            near = [(pv, sc) for pv, sc in candidates if sc >= top - self.margin]
            self.candidates = near
            best, best_score = self.rng.choice(near)
        if not best:
            # not even the first root step was searched: any legal turn, by the ordering
            best = self._greedy_turn(board)
        steps = _turn_steps(best)
        if not steps:
            steps = self._greedy_turn(board)
        played = [s for s in steps if not isinstance(s, EndTurn)]
        return SearchResult(Turn.from_steps(played), steps,
                            best_score, done, self.nodes, self.clock() - t0, list(best))

    def _partial_candidates(self, previous: list[tuple[list[Step], int]],
                            previous_best: list[Step] | None, best: list[Step]
                            ) -> list[tuple[list[Step], int]]:
        """The root steps to choose among after an iteration cut short. If it found a new best
        step: the steps it scored within the margin. If it confirmed the last iteration's best
        (searched first, by the order), the last iteration's candidates but those it has shown
        to be worse by the margin, with the deeper scores of those it searched again."""
        if not previous or not previous_best or _step_key(previous_best[0]) != _step_key(best[0]):
            return list(self._root_scores.values())
        out = []
        for pv, sc in previous:
            k = _step_key(pv[0])
            if k not in self._refuted:
                out.append(self._root_scores.get(k, (pv, sc)))
        return out

    def _push(self, step: Step) -> None:
        """Play a step on the searched board, keeping the material up to date: a capture takes
        its victim's (or component's) worth from its side, a drop gives the piece's back."""
        b = self.board
        if type(step) is Capture:
            p = b.squares[step.square]
            assert p is not None
            ev = self.ev
            d = (ev.units(p) if step.part == 0 or len(p.parts) == 1
                 else ev.units_of_value(step.part))
            side = p.side
            self._mat[side] -= d
            self._mat_undo.append((side, d))
        elif type(step) is Drop:
            d = self.ev.units_of_value(step.value)
            self._mat[b.turn] += d
            self._mat_undo.append((b.turn, -d))
        else:
            self._mat_undo.append(None)
        b.push_step(step)

    def _pop(self) -> None:
        self.board.pop_step()
        undo = self._mat_undo.pop()
        if undo is not None:
            self._mat[undo[0]] += undo[1]

    def _unwind(self) -> None:
        b = self.board
        while len(b.history) > self._root_history or b.turn_in_progress:
            b.pop_step()
        self._turns_deep = 0
        self._mat = [self.ev.material_units(b, 0), self.ev.material_units(b, 1)]
        self._mat_undo = []

    def _greedy_turn(self, board: Board) -> list[Step]:
        """Steps to the end of a turn, each the first in the search's order."""
        steps: list[Step] = []
        depth = len(board.history)
        while len(board.history) == depth:
            legal = board.legal_steps()
            if not legal:
                break
            step = self._order(legal, None, board.phase)[0]
            board.push_step(step)
            steps.append(step)
        while len(board.history) > depth or board.turn_in_progress:
            board.pop_step()
        return steps

    # ------------------------------------------------------------ helpers

    def _captures(self, side: int) -> list[Capture]:
        """Captures of ``side`` in the current position, cached by the position: the captures
        listed in a turn's last phase are the enemy's threats once it ends."""
        b = self.board
        k = (b._key, side)  # the pieces and hands only, not the phase or side to move
        caps = self._caps.get(k)
        if caps is None:
            if len(self._caps) > 200_000:
                self._caps.clear()
            caps = self._caps[k] = b.captures(side)
        return caps

    def _tt_key(self) -> Hashable:
        b = self.board
        k: Hashable = b.key()
        if b.phase == BEFORE:
            k = (k, b.vacated)  # which capturers may still step where: not in key()
        if self.settings.move_limit is not None:
            k = (k, self._turns_deep)
        return k

    def _terminal(self, ply: int) -> int | None:
        """After a turn ended: the score for the side now to move if the game is over."""
        b = self.board
        mover = b.turn ^ 1
        last = b.history[-1]
        may_win = last.captures or last.drop is not None or self.ev.proper_level is not None
        if may_win and self.settings.victory_of(b, mover) is not None:
            return -(WIN - ply)
        limit = self.settings.move_limit
        if limit is not None and self._base_turns + self._turns_deep >= limit:
            if self.settings.limit_rule == "goods":
                mine, theirs = b.taken_value(b.turn), b.taken_value(mover)
                if mine != theirs:
                    return WIN - ply if mine > theirs else -(WIN - ply)
            return 0
        return None

    def _order(self, steps: list[Step], tt_step: Step | None, phase: int) -> list[Step]:
        """Captures first, the biggest victim first (MVV); then the transposition table's step
        is put in front of everything; quiet moves by the history table; drops; END last."""
        b = self.board
        ev = self.ev
        hist = self.history
        scored = []
        for i, s in enumerate(steps):
            t = type(s)
            if type(s) is Capture:
                victim = b.squares[s.square]
                assert victim is not None
                key = 3_000_000 + int(1000 * ev.worth(victim, s.part))
            elif type(s) is Move:
                key = 1_000_000 + hist.get(s, 0) if phase == START else 2_000_000
            elif t is Drop:
                key = 0
            else:  # END: after captures are considered
                key = -1
            if s == tt_step and t is type(tt_step):
                key = 10_000_000
            scored.append((-key, i, s))
        scored.sort(key=lambda x: (x[0], x[1]))
        return [s for _, _, s in scored]

    # ------------------------------------------------------------ negamax over steps

    def _node(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _Abort
        if self.seconds is not None and not self.nodes & 255 and self.clock() > self._deadline:
            raise _Abort
        b = self.board
        phase = b.phase
        self._pv[ply] = []
        if phase == START and depth <= 0:
            me = b.turn
            mat = self._mat
            if self.verify and mat != [self.ev.material_units(b, 0),
                                       self.ev.material_units(b, 1)]:
                raise AssertionError(f"incremental material {mat} differs from the full count")
            return self.ev.evaluate(b, self._captures(me), self._captures(1 - me), mat)

        key = self._tt_key()
        entry = self.tt.get(key)
        tt_step = None
        in_root_turn = self._turns_deep == 0
        if entry is not None:
            e_depth, flag, e_score, tt_step = entry
            if e_depth >= depth and not in_root_turn:
                if e_score >= WIN - 1000:
                    e_score -= ply
                elif e_score <= -(WIN - 1000):
                    e_score += ply
                if (flag == _EXACT or (flag == _LOWER and e_score >= beta)
                        or (flag == _UPPER and e_score <= alpha)):
                    return e_score

        if phase == AFTER:
            steps: list[Step] = list(self._captures(b.turn))
            steps.append(END)
        else:
            steps = b.legal_steps()
        if not steps:  # at the start of a turn: no move, no drop, no capture: a loss
            return -(WIN - ply)
        if phase == START and not in_root_turn and b.taken[b.turn]:
            steps = _one_drop_square_each(steps)
        if ply == 0 and self.rng is not None:
            self.rng.shuffle(steps)
        ordered = self._order(steps, tt_step, phase)

        alpha0 = alpha
        best = -_INF
        best_step: Step | None = None
        # late quiet steps at the start of a turn are first searched a turn shallower
        reducible = phase == START and depth >= 2 and ply > 0
        # at the root, with a margin, steps are proven against (best - margin) instead of the
        # best, so that every step within the margin gets its exact score (see search())
        margin = self.margin if ply == 0 else 0
        for i, step in enumerate(ordered):
            ends = step is END or (phase == START and type(step) is Move
                                   and step.irregular)
            self._push(step)
            term = None
            if ends:
                self._turns_deep += 1
                term = self._terminal(ply + 1)
            lo = alpha - margin if i else alpha
            if term is not None:
                score = -term
            elif i == 0:
                score = self._child(ends, depth, alpha, beta, ply)
            else:
                # principal variation search: prove with a null window that this step is no
                # better than the best so far; search it in full only if that fails
                reduce = (reducible and i >= LMR_FROM and step != tt_step
                          and (type(step) is Move or type(step) is Drop))
                score = self._child(ends, depth - 1 if reduce else depth, lo, lo + 1, ply)
                if score > lo and (reduce or score < beta):
                    score = self._child(ends, depth, lo, beta, ply)
            if ends:
                self._turns_deep -= 1
            self._pop()
            if ply == 0:
                k = _step_key(step)
                if score > lo or i == 0:
                    self._root_scores[k] = ([step] if term is not None
                                            else [step, *self._pv.get(ply + 1, [])], score)
                else:
                    self._refuted.add(k)
            if score > best:
                best = score
                best_step = step
                if score > alpha:
                    alpha = score
                    self._pv[ply] = ([step] if term is not None
                                     else [step, *self._pv.get(ply + 1, [])])
                    if ply == 0:
                        self._root_best = (list(self._pv[0]), score)
                    if alpha >= beta:
                        if type(step) is Move and phase == START:
                            self.history[step] = self.history.get(step, 0) + depth * depth
                        break
        flag = _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT
        stored = best
        if stored >= WIN - 1000:
            stored += ply
        elif stored <= -(WIN - 1000):
            stored -= ply
        old = self.tt.get(key)
        if old is None or old[0] <= depth:
            if len(self.tt) > 1_000_000:
                self.tt.clear()
            self.tt[key] = (depth, flag, stored, best_step)
        return best


    def _child(self, ends: bool, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The score of the step just pushed, for the side that played it: the turn goes on
        (same side, same depth) or it ended (the other side's score, negated; a turn less)."""
        if ends:
            return -self._node(depth - 1, -beta, -alpha, ply + 1)
        return self._node(depth, alpha, beta, ply + 1)


def _step_key(step: Step) -> tuple[type, Step]:
    """A step as a dictionary key (a move and a drop are tuples that could compare equal)."""
    return type(step), step


def _one_drop_square_each(steps: list[Step]) -> list[Step]:
    """The steps with each piece's drops cut down to one square, the free square of the first
    rank nearest the middle: beyond the turn being chosen, where a piece is dropped matters
    little, and a side holding many pieces would otherwise have dozens of drops."""
    best: dict[tuple[int, int], Drop] = {}
    out: list[Step] = []
    for s in steps:
        if type(s) is Drop:
            k = (s.shape, s.value)
            d = best.get(k)
            if d is None or abs(2 * (s.square & 7) - 7) < abs(2 * (d.square & 7) - 7):
                best[k] = s
        else:
            out.append(s)
    out.extend(best.values())
    return out


def _turn_steps(pv: list[Step]) -> list[Step]:
    """The steps of the first turn of a principal variation (up to its END, or an irregular
    move, which ends a turn by itself)."""
    out: list[Step] = []
    started = False
    for s in pv:
        out.append(s)
        if s is END:
            return out
        if type(s) is Move and not started and s.irregular:
            return out
        started = True
    return []


# ---------------------------------------------------------------- the simple levels


def random_steps(board: Board, rng: random.Random) -> list[Step]:
    """A turn of uniformly random legal steps (the ``random`` level)."""
    steps: list[Step] = []
    depth = len(board.history)
    while len(board.history) == depth:
        step = rng.choice(board.legal_steps())
        board.push_step(step)
        steps.append(step)
    while len(board.history) > depth or board.turn_in_progress:
        board.pop_step()
    return steps


BEGINNER_TAKES = 0.7  # how often the beginner takes a capture it is offered


def beginner_steps(board: Board, rng: random.Random, ev: Evaluator) -> list[Step]:
    """An honest but weak turn (the ``beginner`` level): seven times in ten the biggest capture
    open; else a random move, the first of up to six looked at that leaves the moved piece out
    of the enemy's reach (it does not look at the others); after a regular move, the biggest
    capture that opened, seven times in ten."""
    me = board.turn
    depth = len(board.history)
    steps: list[Step] = []

    def play(step: Step) -> None:
        board.push_step(step)
        steps.append(step)

    def biggest(caps: list[Capture]) -> Capture:
        def worth(c: Capture) -> float:
            victim = board.squares[c.square]
            assert victim is not None  # a capture's victim stands on its square
            return ev.worth(victim, c.part)

        return max(caps, key=worth)

    try:
        caps = board.captures()
        if caps and rng.random() < BEGINNER_TAKES:
            play(biggest(caps))
            if board.phase == BEFORE:
                if board.vacated:
                    sq, by = board.vacated[0]
                    play(move(rng.choice(by), sq))
                else:
                    play(END)
        else:
            moves = board.legal_moves()
            if not moves:
                play(rng.choice(board.legal_steps()))
            else:
                rng.shuffle(moves)
                chosen = moves[0]
                for mv in moves[:6]:  # a few looks for a safe square, as a beginner would
                    board.push_step(mv)
                    safe = all(c.square != mv.to for c in board.captures(me ^ 1))
                    board.pop_step()
                    if safe:
                        chosen = mv
                        break
                play(chosen)
        while len(board.history) == depth and board.phase == AFTER:
            caps = board.captures()
            if caps and rng.random() < BEGINNER_TAKES:
                play(biggest(caps))
            else:
                play(END)
        while len(board.history) == depth:  # a drop or capture left mid-turn: finish simply
            legal = board.legal_steps()
            play(END if END in legal else legal[0])
    finally:
        while len(board.history) > depth or board.turn_in_progress:
            board.pop_step()
    return steps


# ---------------------------------------------------------------- levels

#: Seconds a turn the searching levels think by default (``seconds=`` sets another budget).
#: Strong at 0.2 s already beats the middle level nearly always (docs/benchmarks.md): its old 2 s
#: were time a student waited through for nothing. Master uses 2 s, for the class's best.
SECONDS: dict[str, float] = {"strong": 0.5, "master": 2.0}
DEFAULT_SECONDS = SECONDS["strong"]
#: Variety: at each searching level, the root steps scoring within this many points of the best
#: are all good enough, and the seeded rng chooses among them (a game's seed gives its choices).
#: A point is a thousandth of a victory's worth; one piece of a body-8 game is about 37 in
#: material. The stronger the level, the smaller the margin it gives away.
MARGINS: dict[str, int] = {"middle": 20, "strong": 12, "master": 6}
# The middle level searches one turn in full, but a position with many captures open has 2^k
# ways to take k of them: past this many positions it plays the best turn found so far.
MIDDLE_NODE_CAP = 20_000


def choose_steps(board: Board, settings: Settings, level: str, rng: random.Random, *,
                 turns_played: int = 0, nodes: int | None = None,
                 seconds: float | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> list[Step]:
    """The steps of the turn ``level`` plays on ``board`` (between turns; left as it was).
    ``nodes`` / ``seconds`` set the strong and master levels' budget (default:
    :data:`SECONDS`); ``clock`` measures it (the ladder gives CPU time, for fairness on a shared
    machine)."""
    if level == "random":
        return random_steps(board, rng)
    if level == "beginner":
        return beginner_steps(board, rng, Evaluator(settings))
    if level == "middle":
        return Searcher(settings, depth=1, nodes=MIDDLE_NODE_CAP, rng=rng,
                        margin=MARGINS["middle"]).search(board, turns_played).steps
    if level in SECONDS:
        if nodes is None and seconds is None:
            seconds = SECONDS[level]
        s = Searcher(settings, nodes=nodes, seconds=seconds, rng=rng, margin=MARGINS[level],
                     clock=clock)
        return s.search(board, turns_played).steps
    raise DomainError("rithmo.bad_level", f"unknown level {level!r}; the levels are "
                      f"{', '.join(LEVELS)}", level=level)


def choose_turn(game: Game, level: str, rng: random.Random, *, nodes: int | None = None,
                seconds: float | None = None) -> Turn:
    """The turn ``level`` plays for the side to move in ``game`` (the game is not changed:
    ``game.push(turn)`` plays it)."""
    out = game.outcome()
    if out is not None:
        raise DomainError("rithmo.game_over", f"the game is over: {out}", outcome=out.to_json())
    board = game.board.copy()
    steps = choose_steps(board, game.settings, level, rng, turns_played=len(game.turns),
                         nodes=nodes, seconds=seconds)
    return Turn.from_steps([s for s in steps if not isinstance(s, EndTurn)])


__all__ = ["DEFAULT_SECONDS", "LEVELS", "MARGINS", "SECONDS", "WIN", "Evaluator", "SearchResult",
           "Searcher", "beginner_steps", "choose_steps", "choose_turn", "random_steps"]
