"""A game: its settings, its start, the turns played and how it ended.

The board plays the rules; the game adds what the players agreed (:class:`Settings`) and the
ways a game ends:

- a victory, checked after each turn for the player who just moved;
- a player who, at the start of a turn, has no move, no drop and no capture loses;
- resignation, or a draw both players agree on;
- the move limit, if one was set (a draw, or the greater value taken with ``limit_rule="goods"``).

Storage: :meth:`Game.to_json` (settings, start position, turns as text) and :meth:`Game.record`
(the numbered turns, ``1. c4-c6 2. f13-e12 …``) both read back to the same game. The JSON carries
``"format": GAME_FORMAT`` (:mod:`bot.formats`): an older one is upgraded, a newer one refused. The
position inside (``"start"``) is the command line's position format, which has no version field
(``shared/design/engine-commands.md``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.domain import DomainError
from bot.formats import FORMAT_KEY, upgrade
from bot.rithmo.board import SIDE_BY_NAME, SIDES, Board
from bot.rithmo.turns import Turn
from bot.rithmo.victory import Settings

#: The version of :meth:`Game.to_json`'s layout. 1: today's layout with the field; 0 (no field):
#: the same, written before versions.
GAME_FORMAT = 1

VICTORY, NO_TURN, RESIGNATION, DRAW_AGREED, MOVE_LIMIT = (
    "victory", "no_turn", "resignation", "draw_agreed", "move_limit")


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winner`` is 0 (White), 1 (Black) or None for a draw; ``victory`` the
    kind of victory when ``reason`` is "victory"."""

    winner: int | None
    reason: str
    victory: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"winner": None if self.winner is None else SIDES[self.winner],
                "reason": self.reason, "victory": self.victory}

    def __str__(self) -> str:
        if self.winner is None:
            return {"draw_agreed": "draw by agreement"}.get(self.reason, "draw at the move limit")
        who = SIDES[self.winner].capitalize()
        how = {VICTORY: f"victory of {self.victory}", NO_TURN: "the opponent could not play",
               RESIGNATION: "resignation", MOVE_LIMIT: "more value taken at the move limit"}
        return f"{who} wins ({how[self.reason]})"


def _side(side: int | str) -> int:
    if isinstance(side, str):
        if side not in SIDE_BY_NAME:
            raise DomainError("rithmo.bad_side", f"a side is white or black, not {side!r}",
                              side=side)
        return SIDE_BY_NAME[side]
    return side


class Game:
    """A game of Rithmomachia between two players."""

    def __init__(self, settings: Settings | None = None, start: Board | None = None) -> None:
        self.settings = settings if settings is not None else Settings()
        self.board = start.copy() if start is not None else Board.start()
        if self.board.turn_in_progress:
            raise ValueError("a game starts between turns")
        self._start = self.board.to_json()
        self._ended: Outcome | None = None
        self._cache: tuple[int, int, Outcome | None] | None = None

    @property
    def turns(self) -> list[Turn]:
        return self.board.history

    @property
    def to_move(self) -> int:
        return self.board.turn

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        if self._ended is not None:
            return self._ended
        b = self.board
        if b.turn_in_progress:
            return None
        n = len(b.history)
        key = b.key()
        if self._cache is not None and self._cache[:2] == (n, key):
            return self._cache[2]
        result = None
        if n:
            mover = b.turn ^ 1
            won = self.settings.victory_of(b, mover)
            if won is not None:
                result = Outcome(mover, VICTORY, won.kind)
        if result is None and not b.has_legal_turn():
            result = Outcome(b.turn ^ 1, NO_TURN)
        limit = self.settings.move_limit
        if result is None and limit is not None and n >= limit:
            winner = None
            if self.settings.limit_rule == "goods":
                w, k = b.taken_value(0), b.taken_value(1)
                winner = 0 if w > k else 1 if k > w else None
            result = Outcome(winner, MOVE_LIMIT)
        self._cache = (n, key, result)
        return result

    def is_over(self) -> bool:
        return self.outcome() is not None

    def _require_on(self) -> None:
        out = self.outcome()
        if out is not None:
            raise DomainError("rithmo.game_over", f"the game is over: {out}",
                              outcome=out.to_json())

    def push(self, turn: Turn | str) -> Turn:
        """Play the side to move's turn (text or Turn), checked; returns it as recorded."""
        self._require_on()
        return self.board.push(turn)

    def pop(self) -> Turn:
        """Take back the last turn (and a resignation or agreed draw made after it)."""
        self._ended = None
        return self.board.pop()

    def resign(self, side: int | str) -> Outcome:
        self._require_on()
        loser = _side(side)
        self._ended = Outcome(1 - loser, RESIGNATION)
        return self._ended

    def agree_draw(self) -> Outcome:
        self._require_on()
        self._ended = Outcome(None, DRAW_AGREED)
        return self._ended

    # ---------------------------------------------------------------- storage

    def record(self) -> str:
        """The turns, numbered: ``1. c4-c6 2. f13-e12 3. xe12 d4-e12``."""
        return " ".join(f"{i}. {t}" for i, t in enumerate(self.turns, 1))

    @classmethod
    def from_record(cls, text: str, settings: Settings | None = None,
                    start: Board | None = None) -> Game:
        """The game whose turns :meth:`record` wrote; a bad turn raises ``rithmo.bad_record``
        naming it."""
        game = cls(settings, start)
        body = text.strip()
        if not body:
            return game
        items = [t for t in re.split(r"(?:^|\s+)[0-9]+\.\s*", body) if t.strip()]
        if not re.match(r"[0-9]+\.", body):
            raise DomainError("rithmo.bad_record",
                              "a record numbers its turns: 1. c4-c6 2. f13-e12", turn=0)
        for i, text_turn in enumerate(items, 1):
            try:
                game.push(text_turn)
            except DomainError as err:
                raise DomainError("rithmo.bad_record", f"turn {i} ({text_turn.strip()}): {err}",
                                  turn=i, cause=err.code, reason=str(err)) from err
        return game

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {FORMAT_KEY: GAME_FORMAT, "settings": self.settings.to_json(),
                               "start": self._start,
                               "turns": [str(t) for t in self.turns]}
        if self.board.turn_in_progress:
            out["turn_in_progress"] = " ".join(str(s) for s in self.board.turn_in_progress)
        if self._ended is not None:
            out["ended"] = self._ended.to_json()
        return out

    @classmethod
    def from_json(cls, data: Any) -> Game:
        if not isinstance(data, dict):
            raise DomainError("rithmo.bad_record", "a game is a JSON object", turn=0)
        data = upgrade(data, "game", GAME_FORMAT)
        start = Board.from_json(data["start"]) if "start" in data else None
        game = cls(Settings.from_json(data.get("settings")), start)
        turns = data.get("turns", [])
        if not isinstance(turns, list):
            raise DomainError("rithmo.bad_record", "turns is a list of turns", turn=0)
        for i, t in enumerate(turns, 1):
            try:
                game.push(t)
            except DomainError as err:
                raise DomainError("rithmo.bad_record", f"turn {i} ({t}): {err}", turn=i,
                                  cause=err.code, reason=str(err)) from err
        progress = data.get("turn_in_progress")
        if progress:
            for step in Turn.parse(progress).steps():
                game.board.play(step)
        ended = data.get("ended")
        if ended:
            winner = ended.get("winner") if isinstance(ended, dict) else None
            reason = ended.get("reason") if isinstance(ended, dict) else None
            if reason == RESIGNATION and winner in SIDE_BY_NAME:
                game.resign(1 - SIDE_BY_NAME[winner])
            elif reason == DRAW_AGREED:
                game.agree_draw()
            else:
                raise DomainError("rithmo.bad_record",
                                  "ended is a resignation or an agreed draw", turn=len(turns))
        return game
