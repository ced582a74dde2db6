"""Rithmomachia, "the battle of the numbers": the complete rules engine.

Pure and deterministic (no Discord, database or images), in the spirit of python-chess:

>>> from bot.rithmo import Board, Game
>>> board = Board.start()                  # the set-up, White (Even) to move
>>> len(board.legal_moves()), board.captures()
(47, [])
>>> turn = board.push("c4-b5")             # a checked turn from its notation
>>> str(board.pop())
'c4-b5'

- :class:`Board`: the position, the side to move, the pieces each side has taken
  (``board.taken``), the plain moves (:meth:`Board.legal_moves`), the captures open now
  (:meth:`Board.captures`, :meth:`Board.capture_options`), the drops; turns pushed and popped
  whole (:meth:`Board.push`, :meth:`Board.pop`) or one step at a time for a search
  (:meth:`Board.legal_steps`, :meth:`Board.push_step`, :meth:`Board.pop_step`).
- :class:`Turn` and its steps (:class:`Capture`, :class:`Move`, :class:`Drop`, :data:`END`) with
  the text notation (``c3-c5``, ``c3-c5 xd7 xe8``, ``xd7 c3-d7``, ``drop T36 d1``).
- :class:`Game`: the agreed :class:`Settings` (victories, move limit), resignation and agreed
  draws, the :class:`Outcome`, the game record and JSON.
- Refusals: a turn, step or game the rules refuse raises :class:`~bot.domain.DomainError` with
  one code per reason (``rithmo.occupied``, ``rithmo.blocked``, ``rithmo.cannot_take`` …) and the
  params to say it in any language; :data:`REFUSALS` lists every code with its params
  (:mod:`bot.rithmo.refusals`), :data:`CODES` is the set of codes.

The rules as played, with every ruling and notation example: ``docs/rules/rithmomachia.md``.
"""

from bot.rithmo.board import (
    AFTER,
    BEFORE,
    BLACK,
    METHODS,
    SIDES,
    START,
    WHITE,
    Board,
    Piece,
)
from bot.rithmo.game import GAME_FORMAT, Game, Outcome
from bot.rithmo.refusals import CODES, REFUSALS, Refusal
from bot.rithmo.squares import PYRAMID, ROUND, SQUARE, TRIANGLE, Move, name, parse_square
from bot.rithmo.turns import END, Capture, Drop, EndTurn, Turn
from bot.rithmo.victory import Settings, Victory

__all__ = [
    "AFTER", "BEFORE", "BLACK", "CODES", "END", "GAME_FORMAT", "METHODS", "PYRAMID", "REFUSALS",
    "ROUND", "SIDES", "SQUARE", "START", "TRIANGLE", "WHITE", "Board", "Capture", "Drop", "EndTurn",
    "Game", "Move", "Outcome", "Piece", "Refusal", "Settings", "Turn", "Victory", "name",
    "parse_square",
]
