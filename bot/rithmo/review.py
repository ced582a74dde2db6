"""Looking back on a finished game: the engine's evaluation after every turn, and the turn where
the game turned, with the better turn the engine finds there (``/rithmo review``, issue 28).

The evaluation is the bot's own (:meth:`bot.rithmo.ai.Evaluator.evaluate`, the score its search
ends on), said from White's side after each turn (a won position is :data:`~bot.rithmo.ai.WIN`),
without the tempo of the side to move (which would make every turn look like a loss).
It already counts the captures open to the side to move, so a capture about to be made is not a
swing when it is made: the swing is the turn that *let* it be made.

The turning point is the turn that lost the most for the side that played it: the largest drop
of the evaluation, from that side's view, between the position it played in and the position it
left. There the search (:class:`bot.rithmo.ai.Searcher`, a node budget rather than a clock, so
that one game gives one answer on any machine) looks for the turn it would have played; when it
is another turn, that turn and the evaluation it leads to are the "better turn". A game with no
turn that lost anything (every turn kept or improved its player's evaluation) has no turning
point; neither has one whose worst turn cost less than :data:`MIN_SWING`.

Pure and CPU-bound (a search of 2 to 3 seconds): the bot runs :func:`review_in_worker` in its
search processes, never on the event loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.domain import DomainError
from bot.rithmo.ai import TEMPO, WIN, Evaluator, Searcher
from bot.rithmo.game import Game
from bot.rithmo.victory import Settings

#: Positions the search looks at for the better turn: 2.4-3 s of pure Python on the shared core
#: (docs/benchmarks.md, issue 28).
NODES = 40_000
#: The least a turn must cost its player to be the turning point, in points (a tenth of a
#: victory): below it, a game's evaluation only wavers.
MIN_SWING = 100
REVIEW_FORMAT = 1


@dataclass(frozen=True)
class TurningPoint:
    """The turn ``ply`` (1 = the first turn), played by ``side``, moved the evaluation from
    ``before`` to ``after`` (both from White's side); ``better`` is the turn the engine finds in
    its place (None: it finds the same turn) and ``better_after`` the evaluation it leads to."""

    ply: int
    side: str
    played: str
    before: int
    after: int
    better: str | None
    better_after: int | None

    @property
    def swing(self) -> int:
        """What the turn cost its player, in points (positive)."""
        drop = self.before - self.after
        return drop if self.side == "white" else -drop


@dataclass(frozen=True)
class Review:
    """The evaluations from White's side: ``scores[k]`` after ``k`` turns (``scores[0]`` the
    set-up); the turning point if there is one."""

    scores: list[int]
    turning: TurningPoint | None

    def to_json(self) -> dict[str, Any]:
        turning = self.turning
        return {"format": REVIEW_FORMAT, "scores": self.scores,
                "turning": None if turning is None else {
                    "ply": turning.ply, "side": turning.side, "played": turning.played,
                    "before": turning.before, "after": turning.after, "better": turning.better,
                    "better_after": turning.better_after}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Review:
        turning = data.get("turning")
        return cls([int(s) for s in data["scores"]],
                   None if turning is None else TurningPoint(**turning))


def white_score(game: Game, ev: Evaluator) -> int:
    """The position's evaluation from White's side (a decided game: ±WIN, a draw 0)."""
    out = game.outcome()
    if out is not None:
        return 0 if out.winner is None else (WIN if out.winner == 0 else -WIN)
    # Without the side to move's tempo: every turn would otherwise seem to cost 2 × TEMPO.
    score = ev.evaluate(game.board) - TEMPO
    return score if game.board.turn == 0 else -score


def review(settings: Any, turns: list[str], nodes: int = NODES) -> Review:
    """The review of a game from its settings JSON and its turns as stored."""
    game = Game(Settings.from_json(settings))
    ev = Evaluator(game.settings)
    scores = [white_score(game, ev)]
    for text in turns:
        game.push(text)
        scores.append(white_score(game, ev))
    worst: tuple[int, int] | None = None  # (cost, ply)
    for ply in range(1, len(scores)):
        sign = 1 if ply % 2 == 1 else -1  # White plays the odd turns
        cost = sign * (scores[ply - 1] - scores[ply])
        if cost >= MIN_SWING and (worst is None or cost > worst[0]):
            worst = (cost, ply)
    if worst is None:
        return Review(scores, None)
    ply = worst[1]
    side = "white" if ply % 2 == 1 else "black"
    before = Game(Settings.from_json(settings))
    for text in turns[:ply - 1]:
        before.push(text)
    played = str(before.board.copy().push(turns[ply - 1]))
    found = Searcher(before.settings, nodes=nodes).search(before.board.copy(), ply - 1)
    better: str | None = None
    better_after: int | None = None
    if str(found.turn) != played:
        try:
            before.push(str(found.turn))
        except DomainError:  # the search plays only legal turns: never seen
            pass
        else:
            better, better_after = str(found.turn), white_score(before, ev)
    return Review(scores, TurningPoint(ply, side, played, scores[ply - 1], scores[ply], better,
                                       better_after))


def review_in_worker(settings: Any, turns: list[str], nodes: int = NODES) -> dict[str, Any]:
    """:func:`review` in a worker process: the result as JSON (it pickles, and it is stored)."""
    return review(settings, turns, nodes).to_json()


__all__ = ["MIN_SWING", "NODES", "Review", "TurningPoint", "review", "review_in_worker",
           "white_score"]
