"""Opponents: who chooses the turn when Ardoise plays a side.

``choose_turn(game, level, rng)`` is the one entry point the bot calls for its turn in a game
against a member (``/rithmo solo``). Levels 1 to 4 are the beginner, middle, strong and master
players of :mod:`bot.rithmo.ai` (strong thinks 0.5 s a turn, master 2 s: :data:`SECONDS`);
:func:`random_turn`, a random legal turn made by walking the turn's steps at random, stays below
them all (the ladder's "random" level).

Variety and replays: every level chooses at random among the turns good enough for it (the
beginner among plain moves, the searching levels among the first steps within
:data:`bot.rithmo.ai.MARGINS` of the best), with the rng :func:`turn_rng` derives from the
game's seed (stored with the game) and the turn's number. So two games differ, and one game
replayed gives the same turns: exactly at levels 1 and 2; at 3 and 4 a time budget makes the
search depend on the machine's speed as well (a node budget, ``nodes=``, makes it exact).

Pure: the game is not changed. :func:`search_in_worker` is the same choice for a worker process
(the game as JSON in, the turn as text out): the bot runs the searching levels in a process pool
(``bot.play.rithmo_search``) so that they never take the event loop's core.
"""

from __future__ import annotations

import random
from typing import Any

from bot.domain import DomainError
from bot.rithmo.ai import SECONDS
from bot.rithmo.ai import choose_turn as engine_turn
from bot.rithmo.game import Game
from bot.rithmo.turns import Turn

#: The levels offered to a member, weakest first.
LEVELS: dict[int, str] = {1: "beginner", 2: "middle", 3: "strong", 4: "master"}

#: The levels that search for seconds a turn (and so run in the bot's process pool, one search
#: at a time per slot of ``bot.limits.SearchGate``).
SEARCHING: frozenset[int] = frozenset(n for n, name in LEVELS.items() if name in SECONDS)

#: What each level plays today (the bot tells its opponent): the engine's levels, not random.
STRATEGY = "engine"


def new_seed() -> int:
    """A fresh seed for a new game (stored with it: its replays use it again)."""
    return random.SystemRandom().getrandbits(48)


def turn_rng(seed: int | str, ply: int) -> random.Random:
    """The rng of the turn played after ``ply`` turns in a game of this seed. A game stored
    before seeds were stored uses its id as its seed, which gives the turns it was given then."""
    return random.Random(f"rithmo:{seed}:{ply}")


def random_turn(game: Game, rng: random.Random) -> Turn:
    """A random legal turn of the side to move: each step picked at random among the legal ones
    of its phase, until the turn ends."""
    board = game.board.copy()  # the game's own board stays as it is
    while not board.history:
        board.push_step(rng.choice(board.legal_steps()))
    return board.history[-1]


def choose_turn(game: Game, level: int, rng: random.Random, *,
                seconds: float | None = None) -> Turn:
    """The turn Ardoise plays at ``level`` (see :data:`LEVELS`) for the side to move;
    ``seconds`` replaces the level's own time budget (strong and master)."""
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
    return engine_turn(game, LEVELS[level], rng, seconds=seconds)


def search_in_worker(game_json: dict[str, Any], level: int, seed: int | str, ply: int,
                     seconds: float | None = None) -> str:
    """:func:`choose_turn` in a worker process: the game as :meth:`Game.to_json` gives it, the
    seed and turn number for :func:`turn_rng`; the turn comes back as its text (a refusal
    raises its DomainError, which pickles back to the caller)."""
    game = Game.from_json(game_json)
    return str(choose_turn(game, level, turn_rng(seed, ply), seconds=seconds))


__all__ = ["LEVELS", "SEARCHING", "STRATEGY", "choose_turn", "new_seed", "random_turn",
           "search_in_worker", "turn_rng"]
