"""Class rooms on the web (migration 24, issue 30): the rooms teachers open, and the seats of
the students who joined one from a browser (a negative player id, a nickname, the hash of their
session cookie). What those students answer is ``focus_answers`` rows like a member's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from db.connection import Connection, IntegrityError, Row, db_time, from_db_time, to_db_time, utc
from db.players import PlayersRepository


@dataclass(frozen=True)
class RoomRow:
    room_id: int
    guild_id: int
    channel_id: int | None
    teacher_id: int | None
    code: str
    name: str | None
    lang: str
    opened_at: datetime
    expires_at: datetime
    closed_at: datetime | None

    def is_open(self, now: datetime) -> bool:
        return self.closed_at is None and utc(now) < self.expires_at


@dataclass(frozen=True)
class SeatRow:
    seat_id: int
    room_id: int | None
    guild_id: int
    user_id: int
    nickname: str
    csrf: str
    lang: str | None
    joined_at: datetime
    seen_at: datetime


def _room(row: Row) -> RoomRow:
    return RoomRow(
        room_id=row["room_id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        teacher_id=row["teacher_id"], code=row["code"], name=row["name"], lang=row["lang"],
        opened_at=db_time(row["opened_at"]), expires_at=db_time(row["expires_at"]),
        closed_at=from_db_time(row["closed_at"]))


def _seat(row: Row) -> SeatRow:
    return SeatRow(
        seat_id=row["seat_id"], room_id=row["room_id"], guild_id=row["guild_id"],
        user_id=row["user_id"], nickname=row["nickname"], csrf=row["csrf"], lang=row["lang"],
        joined_at=db_time(row["joined_at"]), seen_at=db_time(row["seen_at"]))


class CodeTaken(Exception):
    """The join code drawn is another room's: draw again."""


class NicknameTaken(Exception):
    """Another student of the room has that nickname."""


class WebRoomsRepository:
    def __init__(self, conn: Connection, players: PlayersRepository) -> None:
        self._conn = conn
        self._players = players

    # Rooms ----------------------------------------------------------------------------------

    async def open(self, guild_id: int, channel_id: int | None, teacher_id: int, code: str,
                   name: str | None, lang: str, now: datetime, expires_at: datetime) -> RoomRow:
        """A new room; ``CodeTaken`` when ``code`` is another room's."""
        stamp = to_db_time(utc(now))
        await self._conn.run("INSERT INTO servers (guild_id, created_at, updated_at)"
                             " VALUES (?, ?, ?) ON CONFLICT (guild_id) DO NOTHING",
                             (guild_id, stamp, stamp))
        try:
            room_id = await self._conn.insert(
                "INSERT INTO web_rooms (guild_id, channel_id, teacher_id, code, name, lang,"
                " opened_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING room_id",
                (guild_id, channel_id, teacher_id, code, name, lang, to_db_time(utc(now)),
                 to_db_time(utc(expires_at))))
        except IntegrityError as error:
            if "UNIQUE" in str(error):
                raise CodeTaken(code) from None
            raise
        room = await self.room(room_id)
        assert room is not None
        return room

    async def room(self, room_id: int) -> RoomRow | None:
        row = await self._conn.one("SELECT * FROM web_rooms WHERE room_id = ?", (room_id,))
        return None if row is None else _room(row)

    async def by_code(self, code: str) -> RoomRow | None:
        row = await self._conn.one("SELECT * FROM web_rooms WHERE code = ?", (code,))
        return None if row is None else _room(row)

    async def of_server(self, guild_id: int) -> list[RoomRow]:
        """The server's rooms, the newest first (open and closed)."""
        rows = await self._conn.all(
            "SELECT * FROM web_rooms WHERE guild_id = ? ORDER BY opened_at DESC, room_id DESC",
            (guild_id,))
        return [_room(row) for row in rows]

    async def close(self, room_id: int, now: datetime) -> bool:
        """Close the room (still open): False when it was closed already."""
        return bool(await self._conn.run(
            "UPDATE web_rooms SET closed_at = ? WHERE room_id = ? AND closed_at IS NULL",
            (to_db_time(utc(now)), room_id)))

    async def delete_room(self, room_id: int) -> None:
        """The room's row itself (its students erased first, by the caller)."""
        await self._conn.run("DELETE FROM web_rooms WHERE room_id = ?", (room_id,))

    # Seats ----------------------------------------------------------------------------------

    async def seat(self, room: RoomRow, user_id: int, nickname: str, token_hash: str,
                   csrf: str, lang: str | None, now: datetime) -> SeatRow:
        """A new student in ``room`` as player ``user_id`` (negative); ``NicknameTaken`` when
        another student of the room has that nickname."""
        stamp = to_db_time(utc(now))
        try:
            async with self._conn.transaction():
                await self._players.ensure(room.guild_id, user_id, now=now)
                seat_id = await self._conn.insert(
                    "INSERT INTO web_seats (room_id, guild_id, user_id, nickname, token_hash,"
                    " csrf, lang, joined_at, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    " RETURNING seat_id",
                    (room.room_id, room.guild_id, user_id, nickname, token_hash, csrf, lang,
                     stamp, stamp))
        except IntegrityError as error:
            if "UNIQUE" in str(error):
                raise NicknameTaken(nickname) from None
            raise
        found = await self._conn.one("SELECT * FROM web_seats WHERE seat_id = ?", (seat_id,))
        assert found is not None
        return _seat(found)

    async def by_token(self, token_hash: str) -> tuple[SeatRow, RoomRow | None] | None:
        """The seat of a session cookie's hash, with its room (None once the room is erased)."""
        rows = await self._conn.reads([
            ("SELECT * FROM web_seats WHERE token_hash = ?", (token_hash,)),
            ("SELECT r.* FROM web_rooms r JOIN web_seats s ON s.room_id = r.room_id"
             " WHERE s.token_hash = ?", (token_hash,)),
        ])
        if not rows[0]:
            return None
        return _seat(rows[0][0]), (_room(rows[1][0]) if rows[1] else None)

    async def touch(self, seat_id: int, now: datetime, lang: str | None = None) -> None:
        """The student was seen (the retention's clock), in that language if given."""
        if lang is None:
            await self._conn.run("UPDATE web_seats SET seen_at = ? WHERE seat_id = ?",
                                 (to_db_time(utc(now)), seat_id))
        else:
            await self._conn.run("UPDATE web_seats SET seen_at = ?, lang = ? WHERE seat_id = ?",
                                 (to_db_time(utc(now)), lang, seat_id))

    async def seats_of_room(self, room_id: int) -> list[SeatRow]:
        rows = await self._conn.all(
            "SELECT * FROM web_seats WHERE room_id = ? ORDER BY seat_id", (room_id,))
        return [_seat(row) for row in rows]

    async def nicknames(self, guild_id: int, user_ids: list[int] | None = None
                        ) -> dict[int, str]:
        """The nicknames of the server's web students (of ``user_ids`` when given), by
        player id."""
        rows = await self._conn.all(
            "SELECT user_id, nickname FROM web_seats WHERE guild_id = ?", (guild_id,))
        wanted = None if user_ids is None else set(user_ids)
        return {row["user_id"]: row["nickname"] for row in rows
                if wanted is None or row["user_id"] in wanted}

    async def students(self, guild_id: int) -> list[tuple[int, str, str | None]]:
        """The server's web students: their player id, nickname and room's name (None: the
        room has none, or is gone), the latest seated first."""
        rows = await self._conn.all(
            "SELECT s.user_id, s.nickname, r.name FROM web_seats s"
            " LEFT JOIN web_rooms r ON r.room_id = s.room_id"
            " WHERE s.guild_id = ? ORDER BY s.seat_id DESC", (guild_id,))
        return [(row["user_id"], row["nickname"], row["name"]) for row in rows]

    async def seat_counts(self, guild_id: int) -> dict[int, int]:
        """How many students sit in each of the server's rooms, by room."""
        rows = await self._conn.all(
            "SELECT room_id, count(*) AS n FROM web_seats WHERE guild_id = ?"
            " AND room_id IS NOT NULL GROUP BY room_id", (guild_id,))
        return {row["room_id"]: row["n"] for row in rows}

    async def seat_of_player(self, guild_id: int, user_id: int) -> SeatRow | None:
        row = await self._conn.one(
            "SELECT * FROM web_seats WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        return None if row is None else _seat(row)
