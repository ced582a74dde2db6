"""The pure side of ``/rithmo``: no Discord, no database, no words, only the engine
(``bot.play.rithmo`` uses it for the games; ``bot.ui.rithmo`` words the menus and the
autocomplete from what it gives).

- :func:`server_settings`: the server's default victories as the engine's settings (a
  challenge's options change them with ``bot.play.settings.build_settings``, the one rule of a
  game's victories, which ``/settings rithmo`` uses too; imported here for ``bot.play.rithmo``);
- :func:`engine_game`: the engine's :class:`~bot.rithmo.Game` of a stored game (settings + turns);
- :func:`completions`: what ``/rithmo move`` offers while a member types a turn;
- :func:`actors` and :func:`step_choices`: the select menus of the "Play a turn" view, as data;
- :class:`Taken`: what a turn took, as data (``bot.ui.rithmo`` words it, with the members'
  names, the sides and the victories).

A refused turn needs nothing here: the engine's refusal already names its reason and carries
its params (:mod:`bot.rithmo.refusals`), and the catalogues say it as ``errors.<code>``.

Every function that explores the board (plays steps to look ahead) gives it back exactly as it
was before returning; the board it is given is the caller's own (``RithmoService.engine`` hands
a cached game to one caller at a time), so no one else sees it half-played.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.domain import DomainError
from bot.play.settings import build_settings as build_settings  # its home before: re-exported
from bot.rithmo import (
    BEFORE,
    END,
    PYRAMID,
    START,
    Board,
    Capture,
    Drop,
    Game,
    Move,
    Piece,
    Settings,
    Turn,
    name,
)
from bot.rithmo.notation import nearest_turns
from bot.rithmo.squares import SHAPE_LETTERS
from bot.rithmo.turns import tidy
from bot.rithmo.victory import KINDS, PROPER
from bot.rithmo.why import explain_capture

T = TypeVar("T")

log = logging.getLogger(__name__)

COMMON = tuple(k for k in KINDS if k not in PROPER)
#: The turns offered at once when the caller says no number: a first screen to read, not
#: a menu's size (the presentation passes its own).
OFFERED = 25


# ------------------------------------------------------------------------------ settings


def server_settings(raw: Any) -> Settings:
    """The server's default victories (``ServerSettings.rithmo_victories``), read generously: the
    engine's settings JSON, a list of victories, or ``{"kind": {thresholds}}``; anything
    unreadable gives the engine's class-game defaults (and a warning in the log)."""
    if raw is None:
        return Settings()
    try:
        if isinstance(raw, list):
            return Settings.from_json({"victories": raw})
        if isinstance(raw, dict) and raw and "victories" not in raw and all(
                k in KINDS for k in raw):
            return Settings.from_json({"victories": [
                {"kind": k, **(v if isinstance(v, dict) else {})} for k, v in raw.items()]})
        return Settings.from_json(raw)
    except (DomainError, TypeError, ValueError, KeyError) as error:
        log.warning("unreadable Rithmomachia default victories %r: %s", raw, error)
        return Settings()




# ------------------------------------------------------------------------------ the game


def engine_game(settings: Any, turns: Sequence[str]) -> Game:
    """The engine's game from what the database keeps: the settings JSON and the turns."""
    return Game.from_json({"settings": settings, "turns": list(turns)})


@contextmanager
def exploring(board: Board) -> Iterator[Board]:
    """Play steps on ``board`` freely inside; it is given back as it was (turns and steps)."""
    depth = len(board.history)
    progress = board.turn_in_progress
    try:
        yield board
    finally:
        board.cancel_turn()
        while len(board.history) > depth:
            board.pop()
        if len(board.history) == depth and not board.turn_in_progress:
            for step in progress:
                board.push_step(step)


def piece_text(piece: Piece | None) -> str:
    """``R64``, ``P190``: a piece as the notation writes it (the same letters in French)."""
    if piece is None:
        return "?"
    return f"{SHAPE_LETTERS[piece.shape]}{piece.value}"


def victim_text(board: Board, capture: Capture) -> str:
    """What a capture takes: ``S16``, or ``36 (P190)`` for a pyramid's component."""
    piece = board.piece_at(capture.square)
    if capture.part and piece is not None and piece.shape == PYRAMID and len(piece.parts) > 1:
        return f"{capture.part} ({piece_text(piece)})"
    return piece_text(piece)


def last_turn_json(turn: Turn, whys: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The last turn as images.render_board highlights it: squares left and reached, and the
    squares where pieces were taken (a pyramid's square once); with ``whys``
    (:func:`turn_explanations`), the arithmetic of each capture under ``"why"``."""
    out: dict[str, Any] = {}
    if turn.move is not None:
        out["from"], out["to"] = name(turn.move.frm), name(turn.move.to)
    elif turn.drop is not None:
        out["to"] = name(turn.drop.square)
    captured = list(dict.fromkeys(name(c.square) for c in turn.captures))
    if captured:
        out["captured"] = captured
    if whys:
        out["why"] = [dict(w) for w in whys]
    return out


def _at_each_capture(board_before: Board, turn: Turn,
                     what: Callable[[Board, Capture], T]) -> list[T]:
    """``what(board, capture)`` for each capture of a turn, in the order taken, on the board as
    it stands just before that capture (``board_before`` is given back as it was)."""
    out: list[T] = []
    with exploring(board_before) as board:
        for step in turn.steps():
            if isinstance(step, Capture):
                out.append(what(board, step))
            board.play(step)
    return out


def taken_texts(board_before: Board, turn: Turn) -> list[str]:
    """The pieces a turn takes, as :func:`victim_text` writes them, in the order taken."""
    return _at_each_capture(board_before, turn, victim_text)


def turn_explanations(board_before: Board, turn: Turn) -> list[dict[str, Any]]:
    """Each capture of a turn with its arithmetic (:func:`bot.rithmo.why.explain_capture`),
    in the order taken, each explained on the board as it stood just before that capture."""
    return _at_each_capture(board_before, turn, explain_capture)


@dataclass(frozen=True)
class Taken:
    """A piece a turn took, as data (``bot.ui.rithmo`` says it): its square, its shape and value
    (for a pyramid's component, ``part`` is the component's value and ``value`` the pyramid's),
    and how (``why``: :func:`bot.rithmo.why.explain_capture`'s entry, the capture's rule and its
    numbers)."""

    square: str
    shape: int
    value: int
    part: int | None
    why: dict[str, Any]


def _taken(board: Board, capture: Capture) -> Taken:
    piece = board.piece_at(capture.square)
    if piece is None:
        raise ValueError(f"no piece on {name(capture.square)}")
    part = (capture.part if capture.part and piece.shape == PYRAMID and len(piece.parts) > 1
            else None)
    return Taken(name(capture.square), piece.shape, piece.value, part,
                 explain_capture(board, capture))


def taken_and_explained(board_before: Board, turn: Turn) -> list[Taken]:
    """What a turn takes, piece by piece, each with its arithmetic, in one replay of the turn
    (the order taken; what :func:`taken_texts` writes and :func:`turn_explanations` gives)."""
    return _at_each_capture(board_before, turn, _taken)


# ------------------------------------------------------------------------------ typing a turn

_TOKEN = re.compile(r"drop\s*[a-z]\s*[0-9]+\s+[a-z][0-9]+|x\s*[a-z][0-9]+(?:\s*\(\s*[0-9]+\s*\))?"
                    r"|[a-z][0-9]+\s*-\s*[a-z][0-9]+")


def normalise(text: str) -> str:
    """The engine's tolerant reading (:func:`bot.rithmo.turns.tidy`: ``C4 D5`` is ``c4-d5``),
    commas as spaces, single spaces."""
    return " ".join(tidy(text.replace(",", " ").replace(";", " ")).split())


def _squash(text: str) -> str:
    """Without spaces or dashes: ``c4d`` is the beginning of ``c4-d5``."""
    return "".join(normalise(text).split()).replace("-", "")


@dataclass
class Completion:
    """A turn (or its beginning) offered while typing, and what it does."""

    text: str
    mover: str | None = None
    taken: list[str] = field(default_factory=list)
    #: How useful it is offered first: 0 captures made first, 1 a move that opens a capture and
    #: takes it, 2 a plain move, step or drop, 3 a move followed by a capture open before it.
    group: int = 2


def _continuations(board: Board, depth: int) -> list[Completion]:
    """Short ways to go on from the board's phase (relative texts; ``text`` "" = stop here)."""
    if len(board.history) > depth:
        return [Completion("")]  # an irregular move ended the turn
    out: list[Completion] = []
    steps = board.legal_steps()
    if board.phase != START and END in steps:
        out.append(Completion(""))
    open_now = {(s.square, s.part) for s in steps if isinstance(s, Capture)}
    for step in steps:
        if step is END:
            continue
        if isinstance(step, Move):
            mover = piece_text(board.piece_at(step.frm))
            out.append(Completion(str(step), mover))
            if board.phase != START or not step.irregular:
                board.push_step(step)
                try:
                    for cap in board.captures():
                        fresh = (cap.square, cap.part) not in open_now
                        out.append(Completion(f"{step} {cap}", mover, [victim_text(board, cap)],
                                              1 if fresh else 3))
                finally:
                    board.pop_step()
        elif isinstance(step, Capture):
            victim = victim_text(board, step)
            board.push_step(step)
            try:
                if board.phase == BEFORE and board.vacated:
                    for nxt in board.legal_steps():
                        if isinstance(nxt, Move):
                            out.append(Completion(f"{step} {nxt}",
                                                  piece_text(board.piece_at(nxt.frm)), [victim],
                                                  0))
                else:
                    out.append(Completion(str(step), None, [victim], 0))
            finally:
                board.pop_step()
        elif isinstance(step, Drop):
            out.append(Completion(str(step), f"{SHAPE_LETTERS[step.shape]}{step.value}"))
    return out


def completions(board: Board, typed: str, limit: int = OFFERED) -> list[Completion]:
    """The legal turns (or beginnings of turns) that start with what was typed, the most useful
    first (see :attr:`Completion.group`; what was typed comes first when it is already a whole
    turn, and turns that take more come before those that take less); at most ``limit`` (the
    caller's: how many its menu shows).

    What was typed is played step by step as far as it is legal; the last word, while no space
    follows it, is still being typed (``xd1`` may become ``xd16``)."""
    norm = normalise(typed)
    ends_open = not typed[-1:].isspace() and not typed.endswith(",")
    played: list[str] = []
    mover: str | None = None
    taken: list[str] = []
    pos = 0
    with exploring(board):
        depth = len(board.history)
        for m in _TOKEN.finditer(norm):
            if norm[pos:m.start()].strip() or len(board.history) > depth:
                break
            if m.end() == len(norm) and ends_open:
                break
            text = m.group(0)
            try:
                parsed = Turn.parse(text).steps()
                if len(parsed) != 1:
                    break
                before = board.piece_at(parsed[0].frm) if isinstance(parsed[0], Move) else None
                victim = (victim_text(board, parsed[0]) if isinstance(parsed[0], Capture)
                          else None)
                step = board.play(parsed[0])
            except DomainError:
                break
            played.append(str(step))
            if before is not None and mover is None:
                mover = piece_text(before)
            if isinstance(step, Drop):
                mover = f"{SHAPE_LETTERS[step.shape]}{step.value}"
            if victim is not None:
                taken.append(victim)
            pos = m.end()
        rest = _squash(norm[pos:])
        found: dict[str, tuple[tuple[int, int, int, str], Completion]] = {}
        for more in _continuations(board, depth):
            if not _squash(more.text).startswith(rest):
                continue
            text = " ".join([*played, more.text]).strip()
            if not text:
                continue
            item = Completion(text, mover or more.mover, taken + more.taken, more.group)
            rank = (0 if not more.text else 1, more.group, -len(item.taken), text)
            if text not in found or rank < found[text][0]:
                found[text] = (rank, item)
    offered = [item for _, item in sorted(found.values(), key=lambda x: x[0])][:limit]
    if offered or not norm:
        return offered
    # Nothing legal begins so (``c4-c5``, a round moved straight): the nearest legal turns.
    return [Completion(turn, _mover(board, turn)) for turn in nearest_turns(board, typed)]


def _mover(board: Board, turn: str) -> str | None:
    """``R8``: the piece a suggested plain move moves (None for other turns)."""
    step = Turn.parse(turn).move
    return piece_text(board.piece_at(step.frm)) if step is not None else None


# ------------------------------------------------------------------------------ select menus


@dataclass(frozen=True)
class Actor:
    """A piece that can start a turn, for the "Play a turn" view's first menu: on a square
    (``square``: what it ``takes`` there at once, how many ``moves`` it has), or held and
    droppable (``square`` None: on how many squares, ``drops``). ``value`` is the menu's value
    (``sq:c2``, ``drop:T36``); ``piece`` as the notation writes it."""

    value: str
    piece: str
    square: str | None = None
    takes: tuple[str, ...] = ()
    moves: int = 0
    drops: int = 0


def actors(board: Board) -> list[Actor]:
    """The pieces of the side to move that can do something at the start of a turn (move or
    take), then the pieces it holds that it may drop; those that can take come first."""
    moves: dict[int, int] = {}
    takes: dict[int, list[str]] = {}
    drops: dict[tuple[int, int], int] = {}
    for step in board.legal_steps():
        if isinstance(step, Move):
            moves[step.frm] = moves.get(step.frm, 0) + 1
        elif isinstance(step, Capture):
            for sq in step.by:
                takes.setdefault(sq, []).append(name(step.square))
        elif isinstance(step, Drop):
            drops[(step.shape, step.value)] = drops.get((step.shape, step.value), 0) + 1
    squares = sorted(set(moves) | set(takes), key=lambda sq: (sq not in takes, name(sq)))
    out = [Actor(f"sq:{name(sq)}", piece_text(board.piece_at(sq)), name(sq),
                 tuple(takes.get(sq, ())), moves.get(sq, 0)) for sq in squares]
    for (shape, value), count in drops.items():
        piece = f"{SHAPE_LETTERS[shape]}{value}"
        out.append(Actor(f"drop:{piece}", piece, drops=count))
    return out


@dataclass(frozen=True)
class StepChoice:
    """A step offered by the "Play a turn" view: ``value`` its notation; ``kind`` what it does
    (``move``, ``leap`` (an irregular move), ``step_onto`` (onto a square a capture freed),
    ``take``, ``drop``); ``piece`` the piece that moves, is dropped or (``take``) is taken; the
    squares it leaves and reaches (``frm``, ``to``: a drop's or a capture's square is ``to``) and
    a capture's capturers (``by``)."""

    value: str
    kind: str
    piece: str
    to: str
    frm: str | None = None
    by: tuple[str, ...] = ()


def step_choice(board: Board, step: Any) -> StepChoice:
    """A step as the view offers it (see :class:`StepChoice`)."""
    if isinstance(step, Move):
        kind = "step_onto" if board.phase == BEFORE else "leap" if step.irregular else "move"
        return StepChoice(str(step), kind, piece_text(board.piece_at(step.frm)), name(step.to),
                          name(step.frm))
    if isinstance(step, Capture):
        return StepChoice(str(step), "take", victim_text(board, step), name(step.square),
                          by=tuple(name(s) for s in step.by))
    if isinstance(step, Drop):
        return StepChoice(str(step), "drop", f"{SHAPE_LETTERS[step.shape]}{step.value}",
                          name(step.square))
    raise TypeError(f"not a step to offer: {step!r}")


def step_choices(board: Board, actor: str | None) -> list[StepChoice]:
    """The steps to offer now: at the start of a turn, those of the chosen piece (its moves, the
    captures it can make first) or of the chosen piece to drop; later, every capture and every
    step onto a freed square. END is the view's Confirm button, never an option."""
    out = []
    for step in board.legal_steps():
        if step is END:
            continue
        if board.phase == START:
            if actor is None:
                continue
            if isinstance(step, Move) and f"sq:{name(step.frm)}" != actor:
                continue
            if isinstance(step, Capture) and actor not in {f"sq:{name(s)}" for s in step.by}:
                continue
            if isinstance(step, Drop) and actor != f"drop:{SHAPE_LETTERS[step.shape]}{step.value}":
                continue
        out.append(step_choice(board, step))
    # Captures first: they are what a player looks for; then moves in board order.
    return sorted(out, key=lambda o: (not o.value.startswith("x"), o.value))
