"""Rithmomachia games: players and colours, victories, the turn list, the position, the clock.

What a game shares with a 20 Digits match (its row, its version, loading it with its turns in
one query, the refusal to finish it twice) is ``db.versioned``'s."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from bot.domain import DomainError
from db.connection import (
    Row,
    db_time,
    dumps,
    not_found,
    to_db_time,
    utc,
)
from db.games import GAMES, UNSET, _Unset, check_status
from db.players import RatingChange
from db.versioned import Layout, VersionedGames, common_fields

SIDES = ("white", "black")
GAME_RESULTS = ("white", "black", "draw")
#: A game's turns as a JSON list, read with the game in one query (``Layout.children``).
TURNS = ("turns", "ply, side, notation, played_at", "rithmo_turns", "ply")


@dataclass(frozen=True)
class TurnRow:
    ply: int
    side: str
    notation: str
    played_at: datetime


@dataclass(frozen=True)
class RithmoGame:
    game_id: int
    guild_id: int
    channel_id: int | None
    message_id: int | None
    #: None for the side Ardoise plays (``computer_side``) or a player whose data was deleted.
    white_id: int | None
    black_id: int | None
    computer_side: str | None
    challenger_id: int | None
    victories: Any
    position: Any
    to_move: str
    turns: tuple[TurnRow, ...]
    deadline: datetime | None
    warned_at: datetime | None
    draw_offer: str | None
    status: str
    result: str | None
    reason: str | None
    version: int
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    #: Whether ``/rithmo hint`` is open in this game (always against Ardoise; in a challenge,
    #: as the challenger chose and the challenged member accepted), and the hints each side used.
    hints_allowed: bool = False
    hints_white: int = 0
    hints_black: int = 0

    def hints_used(self, side: str) -> int:
        return self.hints_white if side == "white" else self.hints_black

    def player(self, side: str) -> int | None:
        return self.white_id if side == "white" else self.black_id

    def after_turn(self, version: int, notation: str, position: Any, *, to_move: str,
                   deadline: datetime | None, now: datetime) -> RithmoGame:
        """This game as :meth:`RithmoRepository.play_turn` leaves it (its new ``version``), without
        reading it again: the turn appended, the clock restarted, no warning nor draw offer.
        Times are kept to the millisecond, as stored."""
        moment = db_time(to_db_time(now))
        return replace(
            self, version=version, position=position, to_move=to_move, updated_at=moment,
            deadline=None if deadline is None else db_time(to_db_time(deadline)),
            warned_at=None, draw_offer=None,
            turns=(*self.turns, TurnRow(len(self.turns) + 1, self.to_move, notation, moment)))

    def side_of(self, user_id: int) -> str | None:
        """The colour ``user_id`` plays, or None if they do not play this game."""
        if user_id == self.white_id:
            return "white"
        if user_id == self.black_id:
            return "black"
        return None


def _check_side(side: str, what: str = "side") -> None:
    if side not in SIDES:
        raise ValueError(f"{what} is 'white' or 'black', not {side!r}")


class RithmoRepository(VersionedGames[RithmoGame]):
    layout = Layout("rithmo", GAMES, "g", TURNS, not_active="rithmo.not_active")

    def _read(self, row: Row) -> RithmoGame:
        return RithmoGame(
            turns=tuple(
                TurnRow(ply, side, notation, db_time(played_at))
                for ply, side, notation, played_at in json.loads(row["turns"])
            ),
            victories=json.loads(row["victories"]),
            position=json.loads(row["position"]),
            hints_allowed=bool(row["hints_allowed"]),
            **common_fields(row, "game_id", "white_id", "black_id", "computer_side",
                            "challenger_id", "to_move", "draw_offer", "result", "reason",
                            "hints_white", "hints_black"),
        )

    async def create_game(
        self,
        guild_id: int,
        *,
        white_id: int | None,
        black_id: int | None,
        victories: Any,
        position: Any,
        challenger_id: int | None = None,
        computer_side: str | None = None,
        status: str = "pending",
        to_move: str = "white",
        channel_id: int | None = None,
        message_id: int | None = None,
        deadline: datetime | None = None,
        hints_allowed: bool = False,
        now: datetime | None = None,
    ) -> RithmoGame:
        """A new game at version 1. Against Ardoise, ``computer_side`` names its colour and that
        side's id is None; a pending challenge waits on the player who is not ``challenger_id``.
        ``hints_allowed``: whether ``/rithmo hint`` is open in it."""
        check_status(status)
        _check_side(to_move, "to_move")
        if computer_side is not None:
            _check_side(computer_side, "computer_side")
        for side, user in (("white", white_id), ("black", black_id)):
            if (user is None) != (side == computer_side):
                raise ValueError(f"{side} is played by a member unless it is the computer's side")
        if white_id is not None and white_id == black_id:
            raise ValueError("a member cannot play both colours")
        async with self._conn.atomic():
            game_id = await self._insert(guild_id, (white_id, black_id), {
                "channel_id": channel_id, "message_id": message_id, "white_id": white_id,
                "black_id": black_id, "computer_side": computer_side,
                "challenger_id": challenger_id, "victories": dumps(victories),
                "position": dumps(position), "to_move": to_move,
                "deadline": None if deadline is None else to_db_time(deadline),
                "status": status, "hints_allowed": int(hints_allowed),
            }, utc(now))
            return await self.require_game(game_id)

    async def get_game(self, game_id: int) -> RithmoGame | None:
        return await self._one(game_id)

    async def open_games(
        self, guild_id: int, user_id: int, channel_id: int | None = None
    ) -> list[RithmoGame]:
        """The member's open games in one server (and channel, when given): challenges made by or
        to them and games being played, whether or not it is their turn; the newest first."""
        return await self._many(
            " WHERE g.status IN ('pending', 'active') AND (g.white_id = ? OR g.black_id = ?)"
            " AND g.guild_id = ? AND (? IS NULL OR g.channel_id = ?)"
            " ORDER BY g.game_id DESC",
            (user_id, user_id, guild_id, channel_id, channel_id),
        )

    async def require_game(self, game_id: int) -> RithmoGame:
        """The game, or ``DomainError("db.not_found")``."""
        return await self._required(game_id)

    async def update_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        status: str | None = None,
        position: Any | _Unset = UNSET,
        to_move: str | None = None,
        deadline: datetime | _Unset | None = UNSET,
        draw_offer: str | _Unset | None = UNSET,
        now: datetime | None = None,
    ) -> int:
        """Change the game if it is still at ``expected_version`` (accepting a challenge, offering
        a draw…); the new version, or :class:`~db.connection.StaleVersion`. Turns go through
        :meth:`play_turn`, results through :meth:`finish_game`; where the game is shown is
        bookkeeping, :meth:`set_message_id`."""
        sets, params = self._changes(utc(now), status=status, deadline=deadline)
        if to_move is not None:
            _check_side(to_move, "to_move")
            sets.append("to_move = ?")
            params.append(to_move)
        if draw_offer is not UNSET and draw_offer is not None:
            _check_side(draw_offer, "draw_offer")
        if position is not UNSET:
            sets.append("position = ?")
            params.append(dumps(position))
        if draw_offer is not UNSET:
            sets.append("draw_offer = ?")
            params.append(draw_offer)
        return await self._update(game_id, expected_version, sets, params)

    async def count_hint(self, game_id: int, side: str) -> int:
        """One more hint used by ``side`` in the game being played: the side's count after it.
        Bookkeeping (the version stays: a hint changes nothing a player acts on); a game that is
        not being played (finished meanwhile) raises ``rithmo.not_active``."""
        _check_side(side)
        column = f"hints_{side}"
        rows = await self._conn.returning(
            f"UPDATE rithmo_games SET {column} = {column} + 1"
            " WHERE game_id = ? AND status = 'active'"
            " AND (hints_allowed = 1 OR computer_side IS NOT NULL) RETURNING " + column,
            (game_id,),
        )
        if not rows:
            game = await self.require_game(game_id)
            if game.status == "active":
                raise DomainError("rithmo.hints_off", "hints are not allowed in this game")
            raise self.not_active(game.status)
        return int(rows[0][0])

    async def play_turn(
        self,
        game_id: int,
        expected_version: int,
        notation: str,
        position: Any,
        *,
        to_move: str,
        deadline: datetime | None,
        now: datetime | None = None,
    ) -> int:
        """Append the turn (played by the side to move) and store the position after it, if the
        game is still at ``expected_version``: the new version. A turn ends any draw offer and
        starts the next clock (``deadline``, clearing the warning). Raises
        :class:`~db.core.StaleVersion`, or ``DomainError("rithmo.not_active")`` for a game that is
        not being played."""
        _check_side(to_move, "to_move")
        moment = utc(now)
        async with self._conn.atomic():
            row = await self._conn.one(
                "SELECT status, to_move, version FROM rithmo_games WHERE game_id = ?", (game_id,)
            )
            if row is None:
                raise not_found("game", id=game_id)
            if row["version"] != expected_version:
                raise await self._conn.version_conflict(*GAMES, game_id, expected_version)
            if row["status"] != "active":
                raise self.not_active(row["status"])
            version = await self._update(
                game_id,
                expected_version,
                [
                    "updated_at = ?",
                    "position = ?",
                    "to_move = ?",
                    "deadline = ?",
                    "warned_at = NULL",
                    "draw_offer = NULL",
                ],
                [
                    to_db_time(moment),
                    dumps(position),
                    to_move,
                    None if deadline is None else to_db_time(deadline),
                ],
            )
            await self._conn.run(
                "INSERT INTO rithmo_turns (game_id, ply, side, notation, played_at)"
                " SELECT ?, coalesce(max(ply), 0) + 1, ?, ?, ? FROM rithmo_turns WHERE game_id = ?",
                (game_id, row["to_move"], notation, to_db_time(moment), game_id),
            )
            return version

    async def finish_game(
        self,
        game_id: int,
        expected_version: int,
        result: str,
        reason: str,
        *,
        position: Any | _Unset = UNSET,
        now: datetime | None = None,
    ) -> dict[int, RatingChange]:
        """End the game with ``result`` ('white', 'black' or 'draw') and its ``reason``
        ('victory:body', 'resignation', 'agreed', 'timeout'…), and rate it when two members played
        it, in one transaction. The rating changes (none against Ardoise)."""
        if result not in GAME_RESULTS:
            raise ValueError(f"a result is one of {GAME_RESULTS}, not {result!r}")
        moment = utc(now)
        sets = [
            "updated_at = ?",
            "status = 'finished'",
            "finished_at = ?",
            "result = ?",
            "reason = ?",
            "deadline = NULL",
            "draw_offer = NULL",
        ]
        params: list[Any] = [to_db_time(moment), to_db_time(moment), result, reason]
        if position is not UNSET:
            sets.append("position = ?")
            params.append(dumps(position))
        async with self._conn.transaction():
            await self._finishing(game_id, expected_version)
            await self._update(game_id, expected_version, sets, params)
            game = await self.require_game(game_id)
            if game.computer_side is not None or game.white_id is None or game.black_id is None:
                return {}
            score_white = {"white": 1.0, "black": 0.0, "draw": 0.5}[result]
            return await self._rate(game.guild_id, game.white_id, game.black_id, score_white,
                                    moment)
