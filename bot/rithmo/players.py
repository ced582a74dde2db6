"""Opponents: who chooses the turn when Ardoise plays a side.

``choose_turn(game, level, rng)`` is the one entry point the bot calls for its turn in a game
against a member (``/rithmo solo``). For now every level plays the simplest honest strategy: a
random legal turn, made by walking the turn's steps (:meth:`Board.legal_steps`) and picking each
one at random with ``rng`` — captures, the move or drop, captures after, or ending the turn. The
levels are named already so that a stronger player (issue 9) only has to replace the body of
:func:`choose_turn`; the bot says which strategy it plays.

Pure and deterministic: the same game, level and seed give the same turn; the game is not changed.
"""

from __future__ import annotations

import random

from bot.domain import DomainError
from bot.rithmo.game import Game
from bot.rithmo.turns import Turn

#: The levels offered to a member, weakest first.
LEVELS: dict[int, str] = {1: "beginner", 2: "middle", 3: "strong"}

#: What each level plays today (the bot tells its opponent).
STRATEGY = "random"


def random_turn(game: Game, rng: random.Random) -> Turn:
    """A random legal turn of the side to move: each step picked at random among the legal ones
    of its phase, until the turn ends."""
    board = game.board.copy()  # the game's own board stays as it is
    while not board.history:
        board.push_step(rng.choice(board.legal_steps()))
    return board.history[-1]


def choose_turn(game: Game, level: int, rng: random.Random) -> Turn:
    """The turn Ardoise plays at ``level`` (see :data:`LEVELS`) for the side to move."""
    if level not in LEVELS:
        raise DomainError("rithmo.bad_level", f"the levels are {', '.join(map(str, LEVELS))}",
                          level=level)
    outcome = game.outcome()
    if outcome is not None:
        raise DomainError("rithmo.game_over", f"the game is over: {outcome}",
                          outcome=outcome.to_json())
    if game.board.turn_in_progress:
        raise DomainError("rithmo.turn_in_progress",
                          "a turn is already in progress: finish it or cancel it first")
    return random_turn(game, rng)


__all__ = ["LEVELS", "STRATEGY", "choose_turn", "random_turn"]
