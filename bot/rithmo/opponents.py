"""Opponents: who chooses the turn when Ardoise plays a side.

``choose_turn(game, level, rng)`` is the one entry point the bot calls for its turn in a game
against a member (``/rithmo solo``). Level 1, 2 and 3 are the beginner, middle and strong players
of :mod:`bot.rithmo.ai` (the strong one searches for 2 seconds a turn); :func:`random_turn`, a
random legal turn made by walking the turn's steps at random, stays below them all (the ladder's
"random" level).

Pure: the game is not changed. Levels 1 and 2 give the same turn for the same game and seed; the
strong level's time budget makes its turn depend on the machine's speed as well.
"""

from __future__ import annotations

import random

from bot.domain import DomainError
from bot.rithmo.ai import choose_turn as engine_turn
from bot.rithmo.game import Game
from bot.rithmo.turns import Turn

#: The levels offered to a member, weakest first.
LEVELS: dict[int, str] = {1: "beginner", 2: "middle", 3: "strong"}

#: What each level plays today (the bot tells its opponent): the engine's levels, not random.
STRATEGY = "engine"


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
    return engine_turn(game, LEVELS[level], rng)


__all__ = ["LEVELS", "STRATEGY", "choose_turn", "random_turn"]
