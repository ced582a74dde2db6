"""Monte Carlo tree search over turn steps: the alternative to :mod:`bot.rithmo.ai`'s alpha-beta
that was measured against it (docs/rules/rithmomachia.md, "The bot opponent"). It is not one of
the levels; ``python -m tools.ladder.rithmo --pair strong mcts`` plays it.

UCT over the same steps as the alpha-beta search (a tree node is a position, mid-turn or not; a
child is one legal step). Random play-outs are useless here (random games last about 180 turns
and are decided by chance), so a new leaf is scored by the same :class:`Evaluator`, turned into
a chance of winning with a logistic curve; proven ends of the game score 1 or 0. Untried steps
are expanded in the alpha-beta search's order (captures first, the biggest victim first). The
budget is in positions visited (steps pushed), the same unit as the alpha-beta's nodes.
"""

from __future__ import annotations

import math
import random

from bot.rithmo.ai import WIN, Searcher, Step
from bot.rithmo.board import AFTER, START, Board
from bot.rithmo.squares import Move
from bot.rithmo.turns import END
from bot.rithmo.victory import Settings

SCALE = 200.0  # evaluation points for odds of e : 1
EXPLORATION = 0.3


class _Node:
    __slots__ = ("children", "mover", "n", "untried", "w")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the side that played the step leading here
        self.children: dict[Step, _Node] = {}
        self.untried: list[Step] | None = None
        self.n = 0
        self.w = 0.0  # wins for ``mover``


class MCTS:
    def __init__(self, settings: Settings, nodes: int, rng: random.Random | None = None) -> None:
        self.settings = settings
        self.nodes_limit = nodes
        self.rng = rng
        # the alpha-beta searcher lends its evaluation, ordering, captures cache and end checks
        self.ab = Searcher(settings, depth=1, rng=rng)
        self.nodes = 0
        self._depth0 = 0

    def search(self, board: Board, turns_played: int = 0) -> list[Step]:
        """The steps of the turn to play (the board is left as it was)."""
        ab = self.ab
        ab.board = board
        ab._base_turns = turns_played
        me = board.turn
        root = _Node(1 - me)
        depth0 = self._depth0 = len(board.history)
        self.nodes = 0
        while self.nodes < self.nodes_limit:
            node = root
            path = [root]
            pushed = 0
            value = None  # chance of winning for the side to move at the leaf
            # selection
            while True:
                if node.untried is None:
                    node.untried = self._steps(board)
                    if not node.untried and not node.children:
                        value = 0.0 if board.phase == START else 0.5
                        break
                if node.untried:
                    break
                if not node.children:
                    value = 0.5
                    break
                log_n = math.log(node.n + 1)
                best_step, best_child = max(
                    node.children.items(),
                    key=lambda kv: kv[1].w / kv[1].n + EXPLORATION * math.sqrt(log_n / kv[1].n))
                ended = self._push(board, best_step)
                pushed += 1
                node = best_child
                path.append(node)
                if ended is not None:
                    value = ended
                    break
            if value is None:
                # expansion: the next untried step in the search's order
                step = node.untried.pop(0)  # type: ignore[union-attr]
                mover = board.turn
                child = _Node(mover)
                node.children[step] = child
                ended = self._push(board, step)
                pushed += 1
                path.append(child)
                value = ended if ended is not None else self._leaf_value(board)
            # back-propagation: value is for the side to move now
            to_move = board.turn
            for n in path:
                n.n += 1
                n.w += value if n.mover == to_move else 1 - value
            for _ in range(pushed):
                board.pop_step()
            while len(board.history) > depth0 or board.turn_in_progress:
                board.pop_step()
        # the turn: the most visited steps until the turn ends
        steps: list[Step] = []
        node = root
        pushed = 0
        while True:
            if not node.children:
                rest = ab._greedy_turn(board) if not steps else self._finish(board)
                steps.extend(rest)
                break
            step, node = max(node.children.items(), key=lambda kv: kv[1].n)
            steps.append(step)
            ended = step is END or (type(step) is Move and board.phase == START
                                    and step.irregular)
            board.push_step(step)
            pushed += 1
            if ended:
                break
        while len(board.history) > depth0 or board.turn_in_progress:
            board.pop_step()
        return steps

    def _finish(self, board: Board) -> list[Step]:
        """Steps ending a turn already begun: the first in the search's order each time."""
        out: list[Step] = []
        depth = len(board.history)
        pushed = 0
        while len(board.history) == depth:
            step = self.ab._order(board.legal_steps(), None, board.phase)[0]
            board.push_step(step)
            pushed += 1
            out.append(step)
        for _ in range(pushed):
            board.pop_step()
        return out

    def _steps(self, board: Board) -> list[Step]:
        if board.phase == AFTER:
            steps: list[Step] = [*self.ab._captures(board.turn), END]
        else:
            steps = board.legal_steps()
        return self.ab._order(steps, None, board.phase)

    def _push(self, board: Board, step: Step) -> float | None:
        """Push a step; if it ends the game, the chance of winning for the side now to move."""
        ends = step is END or (board.phase == START and type(step) is Move and step.irregular)
        board.push_step(step)
        self.nodes += 1
        if not ends:
            return None
        self.ab._turns_deep = len(board.history) - self._depth0  # for the move limit
        term = self.ab._terminal(0)
        if term is None:
            return None
        return 1.0 if term > 0 else 0.0 if term < 0 else 0.5

    def _leaf_value(self, board: Board) -> float:
        """The chance of winning for the side to move. After a move its pieces can no longer be
        saved, so such a leaf is scored as the turn ended there (its captures still to take are
        children of the node, tried in their turn)."""
        if board.phase == AFTER:
            board.push_step(END)
            self.nodes += 1
            try:
                return 1 - self._leaf_value(board)
            finally:
                board.pop_step()
        me = board.turn
        score = self.ab.ev.evaluate(board, self.ab._captures(me), self.ab._captures(1 - me))
        score = max(-WIN, min(WIN, score))
        return 1 / (1 + math.exp(-score / SCALE))
