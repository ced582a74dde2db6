"""``/rithmo review``'s use cases: looking back on a finished game, over a
:class:`~db.Database` and the engine (:mod:`bot.rithmo.review`), without Discord
(``bot.ui.rithmo_review`` says the results).

Who may look
    The game's two players, and the server's teachers (``/settings``' teacher roles, or Manage
    Server): a game is a child's play, as their answers are, and the class's other members do not
    read it turn by turn. The conductor says whether the member teaches; a refusal says who may.

What is shown
    Any turn of the game (0: the set-up), with what it took and each capture's arithmetic, the
    board after it, and the turning point (:func:`bot.rithmo.review.review`). The review is worked
    out once, in a search process, and kept (``db.rithmo_reviews``): a second look, a click on a
    step button, or a restart in between reads it back. The board after a turn is replayed from
    the stored turns (nothing of it is stored twice).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.domain import DomainError
from bot.play.rithmo_turns import Taken, engine_game, last_turn_json, taken_and_explained
from bot.rithmo.review import Review
from db import Database, ReviewableGame, RithmoGame

#: Works out a game's review (settings JSON, turns) and gives its JSON: the search pool's, or a
#: test's own.
Reviewer = Callable[[Any, list[str]], Awaitable[dict[str, Any]]]

#: The games the autocomplete offers (Discord shows 25 at most).
LISTED = 25


def may_review(row: RithmoGame, user_id: int, teacher: bool) -> bool:
    """The players and the teachers (see the module's docstring)."""
    return teacher or user_id in (row.white_id, row.black_id)


async def reviewable(db: Database, guild_id: int, user_id: int,
                     teacher: bool) -> list[ReviewableGame]:
    """The finished games the member may review: their own, and for a teacher the server's."""
    return await db.rithmo_reviews.finished(guild_id, None if teacher else user_id, LISTED)


def check_review(row: RithmoGame | None, guild_id: int | None, game_id: int, user_id: int,
                 teacher: bool) -> RithmoGame:
    """The game, if it is this server's, finished, and the member may look at it."""
    if row is None or row.guild_id != guild_id:
        raise DomainError("rithmo.no_such_game", "no such game here", game=game_id)
    if row.status != "finished":
        raise DomainError("rithmo.review_not_finished", "only a finished game is reviewed",
                          game=game_id)
    if not may_review(row, user_id, teacher):
        raise DomainError("rithmo.review_private", "only its players and the teachers",
                          game=game_id)
    return row


@dataclass(frozen=True)
class Reviewed:
    """A finished game, its turns and its review."""

    row: RithmoGame
    turns: list[str]
    review: Review


async def load(db: Database, reviewer: Reviewer, guild_id: int | None, game_id: int,
               user_id: int, teacher: bool) -> Reviewed:
    """The game's review, worked out and kept the first time (see the module's docstring)."""
    row = check_review(await db.rithmo.get_game(game_id), guild_id, game_id, user_id, teacher)
    turns = [turn.notation for turn in row.turns]
    stored = await db.rithmo_reviews.review(game_id)
    if stored is None:
        stored = await reviewer(row.victories, turns)
        await db.rithmo_reviews.keep(game_id, stored)
    return Reviewed(row, turns, Review.from_json(stored))


def check_ply(reviewed: Reviewed, ply: int) -> int:
    """A turn of the game (0: the set-up); a button's forged one is refused."""
    if not 0 <= ply <= len(reviewed.turns):
        raise DomainError("component.invalid", "a button or menu sent an invalid turn")
    return ply


@dataclass(frozen=True)
class Step:
    """The game after ``ply`` turns: the board (the engine's JSON), the last turn as the picture
    highlights it, and what that turn took, with the arithmetic."""

    ply: int
    position: dict[str, Any]
    last_turn: dict[str, Any] | None
    turn: str | None
    taken: list[Taken]


def step(reviewed: Reviewed, ply: int) -> Step:
    """The game after ``ply`` turns, replayed from the stored turns (CPU: run in a thread)."""
    game = engine_game(reviewed.row.victories, reviewed.turns[:max(0, ply - 1)])
    if ply == 0:
        return Step(0, game.board.to_json(), None, None, [])
    board = game.board
    turn = board.copy().push(reviewed.turns[ply - 1])
    taken = taken_and_explained(board, turn)
    game.push(reviewed.turns[ply - 1])
    return Step(ply, game.board.to_json(), last_turn_json(turn, [t.why for t in taken]),
                str(turn), taken)


__all__ = ["LISTED", "Reviewed", "Reviewer", "Step", "check_ply", "check_review", "load",
           "may_review", "reviewable", "step"]
