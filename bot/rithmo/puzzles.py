"""Capture puzzles and hints: positions where the side to move has a piece to find and take.

Pure (no Discord, database or images), like the rest of the engine.

What a puzzle asks
    "Find the most valuable piece you can take this turn." The position is one from a real game:
    a game the bot plays against itself from a seed (:func:`generate`: the beginner and the random
    levels, which leave captures open as children's games do), or a game members finished
    (:func:`from_turns`). A position is a puzzle when:

    - the side to move has at least one capture open at the start of its turn;
    - one victim (a piece, or one component of a pyramid) is worth strictly more than every other
      piece the side to move can take, whether now, after any one move or drop, or after taking
      a piece and stepping onto its square: the *target*. So the puzzle has one best answer, the
      target, and a move that opens a bigger capture cannot make the expected answer wrong.

Accepted answers
    Any legal turn (checked by the engine, :meth:`Board.push`) whose captures take the target;
    other captures in the same turn do not matter. :attr:`Puzzle.solutions` lists every way to
    take the target open at the start of the turn (each method and its capturers), each with a
    whole legal turn that makes it (``xd7 c3-d7``: take, then a capturer steps onto the square),
    checked when the puzzle is made. :attr:`Puzzle.others` lists the lesser captures open, the
    decoys.

Hints
    :func:`hint` is the same search for a game being played: the most valuable capture open to
    the side to move at the start of its turn (ties: the first in the board's order); when there
    is none, the most valuable one a move or a drop opens, taken after it; or None.

Speed: a candidate position costs one capture scan; only a position with a unique best capture
open pays for the check after each move (a scan per move, about 50 moves). A generated puzzle
takes a few tens of milliseconds (``tools/bench`` figures in docs/benchmarks.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from bot.domain import DomainError
from bot.rithmo.ai import choose_steps
from bot.rithmo.board import BEFORE, START, Board, label
from bot.rithmo.game import Game
from bot.rithmo.notation import with_suggestions
from bot.rithmo.squares import Move, name, parse_square
from bot.rithmo.turns import Capture, Drop, Turn
from bot.rithmo.victory import Settings
from bot.rithmo.why import why

#: The version of :meth:`Puzzle.to_json`'s layout (stored with each daily puzzle).
PUZZLE_FORMAT = 1

#: Generated games: the first turns are openings, with nothing to take yet.
FIRST_PLY = 6
#: Generated games: how many turns at most are played looking for puzzles.
MAX_PLIES = 120
#: Generated games: how many puzzle positions are skipped at most (chosen by the seed), so that
#: seeds do not all give the first capture of similar openings.
MAX_SKIP = 2
#: Generated games: the share of turns the beginner plays (the others are random turns).
BEGINNER_SHARE = 0.5
#: Generated games: the share of positions kept whose capture is only of these methods (see
#: :func:`_kept`); the other methods are always kept.
KEPT = {"encounter": 0.5, "assault": 0.4, "emprisonment": 0.25}


@dataclass(frozen=True)
class Way:
    """One way to take a victim: the method, the capturers' squares, the victim's value used (a
    pyramid component's, or the pyramid's total), a whole legal turn that makes it, the victim as
    the notation writes it (``T36``, ``36 (P190)``) and the arithmetic
    (:func:`bot.rithmo.why.why`'s object)."""

    victim: str
    part: int
    value: int
    method: str
    by: tuple[str, ...]
    turn: str
    piece: str
    why: dict[str, Any] = field(default_factory=dict)

    @property
    def capture(self) -> str:
        """The capture step as typed: ``xd7``, ``xh15(36)``."""
        return f"x{self.victim}" + (f"({self.part})" if self.part else "")

    def explained(self) -> dict[str, Any]:
        """The capture option as :func:`bot.rithmo.why.explained_options` gives it (with its
        ``"why"``), which ``bot.ui.rithmo_explain.capture_text`` says."""
        return {"victim": self.victim, "method": self.method, "by": list(self.by),
                "value": self.value, "why": self.why}

    def to_json(self) -> dict[str, Any]:
        return {"capture": self.capture, "turn": self.turn, "victim": self.victim,
                "part": self.part, "value": self.value, "method": self.method,
                "by": list(self.by), "piece": self.piece, "why": self.why}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Way:
        return cls(str(data["victim"]), int(data["part"]), int(data["value"]),
                   str(data["method"]), tuple(data["by"]), str(data["turn"]),
                   str(data["piece"]), dict(data["why"]))


@dataclass(frozen=True)
class Puzzle:
    """A position (between turns, the command line's JSON), its side to move, the target and the
    ways to take it, the lesser captures open, and where the position comes from (``source``:
    ``{"kind": "generated", "seed", "ply"}`` or ``{"kind": "game", "game_id", "ply"}``)."""

    position: dict[str, Any]
    target: str
    part: int
    value: int
    piece: str
    solutions: tuple[Way, ...]
    others: tuple[Way, ...] = ()
    source: dict[str, Any] = field(default_factory=dict)

    @property
    def to_move(self) -> str:
        return str(self.position["to_move"])

    def board(self) -> Board:
        """A fresh board at the puzzle's position."""
        return Board.from_json(self.position)

    def to_json(self) -> dict[str, Any]:
        return {"format": PUZZLE_FORMAT, "source": self.source, "to_move": self.to_move,
                "position": self.position,
                "target": {"square": self.target, "part": self.part, "value": self.value,
                           "piece": self.piece},
                "solutions": [w.to_json() for w in self.solutions],
                "others": [w.to_json() for w in self.others]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        target = data["target"]
        return cls(data["position"], str(target["square"]), int(target["part"]),
                   int(target["value"]), str(target["piece"]),
                   tuple(Way.from_json(w) for w in data["solutions"]),
                   tuple(Way.from_json(w) for w in data.get("others", ())),
                   dict(data.get("source") or {}))


@dataclass(frozen=True)
class Verdict:
    """A member's answer checked: right when the turn took the target. ``turn`` is the turn as
    the engine recorded it; ``taken`` the ways its captures were made, in order (for the
    explanation of each); the puzzle's solutions say the expected capture."""

    right: bool
    turn: str
    taken: tuple[Way, ...]


# ---------------------------------------------------------------------------- the searches


def _piece_label(board: Board, square: int, part: int) -> str:
    """``T36``, or ``36 (P190)`` for a pyramid's component."""
    p = board.squares[square]
    assert p is not None
    return f"{part} ({label(p)})" if part and len(p.parts) > 1 else label(p)


def _part(board: Board, option: dict[str, Any]) -> tuple[int, int]:
    """(square, part) of a capture option: part 0 takes the piece whole, else the component."""
    square = parse_square(option["victim"])
    victim = board.squares[square]
    assert victim is not None
    return square, 0 if option["value"] == victim.value else option["value"]


def _why(board: Board, option: dict[str, Any]) -> dict[str, Any]:
    """The arithmetic of a capture option on the board as it stands (:mod:`bot.rithmo.why`)."""
    return why(board, option["victim"], option["value"], option["method"], option["by"])


def _victims(board: Board) -> dict[tuple[int, int], int]:
    """Every victim open to the side to move: (square, part) -> the value taken."""
    return {_part(board, opt): opt["value"] for opt in board.capture_options()}


def ways(board: Board, square: int, part: int) -> list[Way]:
    """Every way to take the victim on ``square`` (``part``: a pyramid component, 0 whole) open to
    the side to move now, each with a whole turn that makes it, in the board's order."""
    out = []
    victim = board.squares[square]
    for opt in board.capture_options():
        if opt["victim"] != name(square) or _part(board, opt)[1] != part:
            continue
        assert victim is not None
        step = f"x{name(square)}" + (f"({part})" if part else "")
        whole = part == 0 or len(victim.parts) <= 1
        turn = f"{step} {opt['by'][0]}-{name(square)}" if whole else step
        out.append(Way(name(square), part, opt["value"], opt["method"], tuple(opt["by"]), turn,
                       _piece_label(board, square, part), _why(board, opt)))
    return out


def _best(victims: dict[tuple[int, int], int]) -> tuple[tuple[int, int], int] | None:
    """The victim worth most, if it is worth strictly more than every other."""
    if not victims:
        return None
    ranked = sorted(victims.items(), key=lambda kv: -kv[1])
    if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        return None
    return ranked[0]


def _nothing_bigger(board: Board, target: tuple[int, int], value: int) -> bool:
    """Whether no other victim worth ``value`` or more can be taken this turn after one move or
    drop, or after taking a piece first and stepping onto its square."""
    def bigger_now() -> bool:
        return any(k != target and v >= value for k, v in _victims(board).items())

    for step in board.legal_steps():
        if isinstance(step, Move) and step.irregular:
            continue  # an irregular move ends the turn: nothing follows it
        if isinstance(step, Move | Drop):
            board.push_step(step)
            try:
                if bigger_now():
                    return False
            finally:
                board.pop_step()
        elif isinstance(step, Capture):
            board.push_step(step)
            try:
                nexts = board.legal_steps() if board.phase == BEFORE else []
                for nxt in nexts:
                    if isinstance(nxt, Move):
                        board.push_step(nxt)
                        try:
                            if bigger_now():
                                return False
                        finally:
                            board.pop_step()
            finally:
                board.pop_step()
    return True


def puzzle_at(board: Board, source: dict[str, Any] | None = None) -> Puzzle | None:
    """The puzzle of this position (between turns), or None if it makes none (see the module's
    docstring). The board is left as it was."""
    if board.phase != START or board.turn_in_progress:
        return None
    victims = _victims(board)
    best = _best(victims)
    if best is None:
        return None
    (square, part), value = best
    if not _nothing_bigger(board, (square, part), value):
        return None
    solutions = ways(board, square, part)
    position = board.to_json()
    for way in solutions:  # checked by the engine: each is a legal turn that takes the target
        try:
            played = Board.from_json(position).push(way.turn)
        except DomainError:
            return None  # never seen: the scan and the rules would disagree
        if not any(c.square == square and c.part == part for c in played.captures):
            return None
    others = [w for (sq, pt), _v in sorted(victims.items(), key=lambda kv: -kv[1])
              if (sq, pt) != (square, part) for w in ways(board, sq, pt)[:1]]
    return Puzzle(position, name(square), part, value, _piece_label(board, square, part),
                  tuple(solutions), tuple(others), dict(source or {}))


def _most_valuable(board: Board) -> Way | None:
    """The most valuable capture open to the side to move now (ties: the first victim in the
    board's order, its first way), or None."""
    victims = _victims(board)
    for key, _v in sorted(victims.items(), key=lambda kv: (-kv[1], kv[0])):
        found = ways(board, *key)
        if found:
            return found[0]
    return None


def hint(board: Board) -> Way | None:
    """A capture open to the side to move this turn, with a whole turn that makes it: the most
    valuable one open at the start of the turn; when there is none, the most valuable one that a
    regular move (or a drop) opens, taken after it (``c4-b5 xd7``; ties: the first move in the
    board's order); None when no turn can take anything. The board is left as it was."""
    now = _most_valuable(board)
    if now is not None:
        return now
    best: Way | None = None
    for step in board.legal_steps():
        if not isinstance(step, Move | Drop) or (isinstance(step, Move) and step.irregular):
            continue
        board.push_step(step)
        try:
            after = _most_valuable(board)
        finally:
            board.pop_step()
        if after is not None and (best is None or after.value > best.value):
            best = replace(after, turn=f"{step} {after.capture}")
    return best


# ---------------------------------------------------------------------------- answers


def refusal(puzzle: Puzzle, text: str, refused: DomainError) -> DomainError:
    """What a refused answer to ``puzzle`` is told: the rules' reason and, as in a game, the
    legal turns nearest to what was typed, but never one that would give the puzzle away (a turn
    that takes the target), and, when the text was not a turn at all (``rithmo.bad_notation``),
    no capture either: a list of captures would be the answer, to be fished."""
    malformed = refused.code == "rithmo.bad_notation"

    def keep(turn: str) -> bool:
        if malformed and "x" in turn:
            return False
        return not check_answer(puzzle, turn).right

    return with_suggestions(puzzle.board(), text, refused, keep=keep)


def check_answer(puzzle: Puzzle, text: str) -> Verdict:
    """Play the member's turn on the puzzle's position: a turn the rules refuse raises the
    engine's coded :class:`~bot.domain.DomainError` (nothing is counted); a legal turn is right
    when its captures take the target."""
    board = puzzle.board()
    turn = board.push(text)
    board.pop()
    taken = taken_ways(board, turn)
    target = parse_square(puzzle.target)
    right = any(parse_square(w.victim) == target and w.part == puzzle.part for w in taken)
    return Verdict(right, str(turn), tuple(taken))


def taken_ways(board: Board, turn: Turn) -> list[Way]:
    """How each capture of ``turn`` (legal on ``board``, between turns) is made: the first way
    open at that step (the methods in the rules' order). The board is left as it was."""
    out: list[Way] = []
    played = 0
    try:
        for step in turn.steps():
            if isinstance(step, Capture):
                victim = board.squares[step.square]
                part = step.part if victim is not None and len(victim.parts) > 1 else 0
                found = ways(board, step.square, part)
                if found:
                    out.append(replace(found[0], turn=str(turn)))
            board.play(step)
            played += 1
    finally:
        for _ in range(played):
            board.pop_step()
    return out


# ---------------------------------------------------------------------------- sources


def _bot_turn(game: Game, rng: random.Random) -> None:
    """Play a weak bot's turn: the beginner level half the time, else the ladder's random level
    (the opponent's own levels, :func:`bot.rithmo.ai.choose_steps`, walked on the game's board:
    no copy of it). Beginners against each other take what they can at once and leave a capture
    open once in twenty turns; the random half leaves pieces where they can be taken, as a child
    does."""
    level = "beginner" if rng.random() < BEGINNER_SHARE else "random"
    board = game.board
    for step in choose_steps(board, game.settings, level, rng, turns_played=len(game.turns)):
        board.push_step(step)


def _kept(puzzle: Puzzle, rng: random.Random) -> bool:
    """Whether a generated position is kept: always when its capture is an ambush, a power or a
    progression (the arithmetic the puzzles are there to practise), else sometimes (see
    :data:`KEPT`), so that the common assaults and emprisonments do not crowd them out."""
    return rng.random() < max(KEPT.get(w.method, 1.0) for w in puzzle.solutions)


def generate(seed: int) -> Puzzle:
    """A puzzle from a game the bot plays against itself (:func:`_bot_turn` on both sides, from
    ``seed``): the same seed gives the same puzzle. Games that end before giving one are followed
    by the next game of the same seed."""
    rng = random.Random(f"rithmo-puzzle:{seed}")
    skip = rng.randrange(MAX_SKIP + 1)
    for attempt in range(20):
        game = Game(Settings())
        for ply in range(MAX_PLIES):
            if game.is_over():
                break
            if ply >= FIRST_PLY:
                found = puzzle_at(game.board, {"kind": "generated", "seed": seed,
                                               "game": attempt, "ply": ply})
                if found is not None and _kept(found, rng):
                    if skip == 0:
                        return found
                    skip -= 1
            _bot_turn(game, rng)
    raise RuntimeError(f"no puzzle in 20 games of seed {seed}")  # never seen: a bug to report


def from_turns(settings: Any, turns: list[str], source: dict[str, Any],
               rng: random.Random) -> Puzzle | None:
    """A puzzle from a finished game's turns (its settings JSON and turns as stored), the
    position chosen by ``rng`` among the game's puzzle positions; None if it has none."""
    game = Game.from_json({"settings": settings, "turns": []})
    found: list[Puzzle] = []
    for ply, text in enumerate(turns):
        if ply >= FIRST_PLY:
            p = puzzle_at(game.board, {**source, "ply": ply})
            if p is not None:
                found.append(p)
        try:
            game.push(text)
        except DomainError:  # a stored game the engine no longer reads: stop there
            break
    return rng.choice(found) if found else None


__all__ = ["FIRST_PLY", "MAX_PLIES", "PUZZLE_FORMAT", "Puzzle", "Verdict", "Way", "check_answer",
           "from_turns", "generate", "hint", "puzzle_at", "taken_ways", "ways"]
