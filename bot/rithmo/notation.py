""""Did you mean …?": the legal turns nearest to a turn the board refused.

A child who types ``c4-c5`` (a round does not move straight) or ``c4-d6`` (one square too far)
meant a turn close to it. :func:`nearest_turns` lists the legal turns nearest to what was typed,
by two measures, and :func:`with_suggestions` wraps the refusal with them (``rithmo.did_you_mean``:
the original reason first, then the suggestions), so the member learns why and what to play.

- Edit distance on the tidied text without spaces (:func:`bot.rithmo.turns.tidy`): a wrong
  letter or digit, a missing or extra character, two characters swapped.
- Square distance: a move written from a square holding one of the mover's pieces suggests that
  piece's own moves, the target nearest to the one typed first (the Chebyshev distance, in
  squares).

The candidates are the short turns a member types: every plain move and drop, a regular move
followed by one capture, a capture alone, and a capture made first with a capturer stepping onto
the freed square. At most 3 are suggested, the nearest first.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from bot.domain import DomainError
from bot.rithmo.board import BEFORE, START, Board
from bot.rithmo.squares import FILES, Move, file_of, rank_of
from bot.rithmo.turns import Capture, Drop, tidy

#: Suggestions listed at most.
LIMIT = 3
#: Longer texts get none: a turn a member types is short (``xd7 xe8 c3-e8 xf9`` is 17 characters),
#: and the edit distance costs the product of the two lengths.
LONGEST = 48
#: The refusals of a turn the member typed (not of the game: a game over has nothing to suggest).
TURN_CODES = frozenset({
    "rithmo.bad_notation", "rithmo.bad_square", "rithmo.capture_before_drop", "rithmo.no_piece",
    "rithmo.not_yours", "rithmo.occupied", "rithmo.blocked", "rithmo.not_a_move_of.round",
    "rithmo.not_a_move_of.triangle", "rithmo.not_a_move_of.square",
    "rithmo.not_a_move_of.pyramid", "rithmo.second_move", "rithmo.no_square_freed",
    "rithmo.must_step", "rithmo.after_leap", "rithmo.nothing_to_take", "rithmo.own_piece",
    "rithmo.not_a_pyramid", "rithmo.no_component", "rithmo.cannot_take", "rithmo.drop_late",
    "rithmo.drop_none", "rithmo.drop_rank", "rithmo.drop_occupied",
})

_SQUARES = re.compile(r"([a-h])(1[0-6]|[1-9])")


def candidate_turns(board: Board) -> list[str]:
    """The short legal turns of the side to move (see the module's docstring), in the board's
    order, each once. The board is left as it was."""
    if board.phase != START:
        return []
    out: dict[str, None] = {}
    for step in board.legal_steps():
        if isinstance(step, Move):
            out[str(step)] = None
            if step.irregular:
                continue
            board.push_step(step)
            try:
                for cap in board.captures():
                    out[f"{step} {cap}"] = None
            finally:
                board.pop_step()
        elif isinstance(step, Drop):
            out[str(step)] = None
        elif isinstance(step, Capture):
            board.push_step(step)
            try:
                if board.phase == BEFORE and board.vacated:
                    for nxt in board.legal_steps():
                        if isinstance(nxt, Move):
                            out[f"{step} {nxt}"] = None
                else:
                    out[str(step)] = None
            finally:
                board.pop_step()
    return list(out)


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance with adjacent swaps counted as one edit (``c4d5`` / ``4cd5``)."""
    prev2: list[int] | None = None
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if (prev2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb):
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def _squares_in(text: str) -> list[int]:
    return [FILES.index(f) + (int(r) - 1) * 8 for f, r in _SQUARES.findall(text)]


def _tolerance(typed: str) -> int:
    """Edits allowed for a text to be "close": one for a short text, up to three for a long."""
    return max(1, min(3, len(typed) // 4))


def nearest_turns(board: Board, text: str, limit: int = LIMIT,
                  keep: Callable[[str], bool] | None = None) -> list[str]:
    """The legal turns nearest to ``text`` (at most ``limit``, nearest first, only those ``keep``
    accepts when it is given); none when nothing is close. The board is left as it was."""
    typed = tidy(text).replace(" ", "") if isinstance(text, str) else ""
    if not typed or len(typed) > LONGEST:
        return []
    squares = _squares_in(typed)
    mover = board.turn
    moved = squares[0] if squares and not typed.startswith(("x", "drop")) else None
    own = moved is not None and (piece := board.piece_at(moved)) is not None \
        and piece.side == mover
    allowed = _tolerance(typed)
    scored: list[tuple[int, int, int, str]] = []
    for order, cand in enumerate(candidate_turns(board)):
        squashed = cand.replace(" ", "")
        edits = edit_distance(typed, squashed)
        far = 99
        cand_squares = _squares_in(squashed)
        if own and len(squares) > 1 and cand_squares[:1] == [moved] and "x" not in squashed:
            # The same piece's own moves, the target nearest to the one typed first.
            a, b = squares[1], cand_squares[1]
            far = max(abs(file_of(a) - file_of(b)), abs(rank_of(a) - rank_of(b)))
        if edits <= allowed or far <= 2:
            scored.append((min(edits, far), far, order, cand))
    scored.sort()
    kept = (cand for *_, cand in scored if keep is None or keep(cand))
    return list(itertools.islice(kept, limit))


def with_suggestions(board: Board, text: str, error: DomainError,
                     keep: Callable[[str], bool] | None = None) -> DomainError:
    """``error`` as refused, or, when the member typed a turn and legal turns are close to it,
    ``rithmo.did_you_mean``: ``refusal`` the original refusal (said first, in the member's
    language), ``turns`` the suggestions in the notation joined by ``"`, `"`` (so that a
    catalogue's ``"`{turns}`"`` shows each as code: ``c4-d5`, `c4-b5``), ``count`` how many."""
    if error.code not in TURN_CODES:
        return error
    turns = nearest_turns(board, text, keep=keep)
    if not turns:
        return error
    return DomainError("rithmo.did_you_mean", f"{error}; did you mean {', '.join(turns)}?",
                       text=text, refusal=error, turns="`, `".join(turns), count=len(turns))
