"""Class rooms on the web (issue 30): a teacher opens a room on Discord; students without a
Discord account join it from a browser with its code and a nickname, and play as pseudonymous
players of that server (a negative player id, ``is_web_player``), counted in the same live
rounds, assignments, practice, mastery and reports as members.

Nothing else is asked of a student: no password, no e-mail. Their seat is a random session
token kept in an HttpOnly cookie; the database keeps only its SHA-256 (``token_hash``), so a copy
of the database opens no seat. Every process reads and writes rooms and seats through the shared
database: any bot process may serve any room's pages.
"""

from __future__ import annotations

import hashlib
import random
import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.domain import DomainError
from bot.texts import t
from db import Database
from db.web_rooms import CodeTaken, NicknameTaken, RoomRow, SeatRow

#: Join codes: no 0/O/Q, 1/I/L, 2/Z, 5/S, 8/B, 6/G look-alikes.
CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY3479"
CODE_LENGTH = 6
#: A room lasts this long unless closed before (``/class room open hours:``).
DEFAULT_HOURS = 12
MAX_HOURS = 72
NICKNAME_MIN = 2
NICKNAME_MAX = 24
#: A web student's player id: below zero (a Discord id never is), drawn at random so that no id
#: tells how many students came before.
_ID_SPAN = 2**53


def is_web_player(user_id: int) -> bool:
    """Whether a player id is a browser student's (never a Discord member's)."""
    return user_id < 0


def new_code(rng: random.Random | None = None) -> str:
    pick = (rng or secrets.SystemRandom()).choice
    return "".join(pick(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def read_code(typed: str) -> str | None:
    """The code a student typed (spaces, dashes and case forgiven), or None when it cannot be
    one (wrong length, a character not of the alphabet)."""
    text = re.sub(r"[\s\-]", "", typed.strip().upper())[:64]
    if len(text) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in text):
        return None
    return text


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# Nicknames ------------------------------------------------------------------------------------

_LINKISH = re.compile(r"(://|www\.|\w\.[a-z]{2,}\b|discord\.gg)", re.IGNORECASE)
#: Letters (any script), digits, spaces and a few joiners; nothing Discord or a browser reads
#: as syntax (no @, #, <, >, :, /, *, _, ~, |, `, brackets).
_ALLOWED_EXTRA = set(" -'.’")


def read_nickname(typed: str) -> str:
    """The nickname as kept, or ``DomainError("web.nickname_*")`` saying what is wrong: bounded
    (2 to 24 characters), no control character, no mention syntax, no link."""
    text = unicodedata.normalize("NFKC", typed)[:200]
    if any(unicodedata.category(c).startswith("C") for c in text):
        raise DomainError("web.nickname_control", "no control characters")
    text = " ".join(text.split())
    if len(text) < NICKNAME_MIN:
        raise DomainError("web.nickname_short", "too short", min=NICKNAME_MIN)
    if len(text) > NICKNAME_MAX:
        raise DomainError("web.nickname_long", "too long", max=NICKNAME_MAX)
    if _LINKISH.search(text):
        raise DomainError("web.nickname_link", "no links")
    for c in text:
        if not (c.isalnum() or c in _ALLOWED_EXTRA or unicodedata.category(c) == "Mn"):
            raise DomainError("web.nickname_character", "not allowed", character=c)
    if not any(c.isalnum() for c in text):
        raise DomainError("web.nickname_short", "too short", min=NICKNAME_MIN)
    return text


def generated_nickname(lang: str, rng: random.Random | None = None) -> str:
    """An animal and a number, in the page's language ("Loutre 42")."""
    pick = rng or secrets.SystemRandom()
    animals = [a.strip() for a in t("web.animals", lang).split(",") if a.strip()]
    return f"{pick.choice(animals)} {pick.randint(10, 99)}"


# Rooms ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Seat:
    """A browser student in their room (``room`` None once the room was erased)."""

    seat: SeatRow
    room: RoomRow | None

    @property
    def user_id(self) -> int:
        return self.seat.user_id

    @property
    def guild_id(self) -> int:
        return self.seat.guild_id

    def room_open(self, now: datetime) -> bool:
        return self.room is not None and self.room.is_open(now)


async def open_room(db: Database, guild_id: int, channel_id: int | None, teacher_id: int,
                    name: str | None, lang: str, now: datetime, *, teaches: bool,
                    hours: int = DEFAULT_HOURS, rng: random.Random | None = None) -> RoomRow:
    """A new room for the class of ``channel_id``, for teachers only; its code drawn until free."""
    if not teaches:
        raise DomainError("web.teachers_only", "teachers only")
    if not 1 <= hours <= MAX_HOURS:
        raise DomainError("web.room_hours", "hours out of range", max=MAX_HOURS)
    clean = " ".join(name.split())[:60] if name else None
    for _ in range(20):
        try:
            return await db.web_rooms.open(guild_id, channel_id, teacher_id, new_code(rng),
                                           clean or None, lang, now, now + timedelta(hours=hours))
        except CodeTaken:
            continue
    raise DomainError("web.no_code", "no free code")  # 22^6 codes: only a broken RNG gets here


async def rooms_of(db: Database, guild_id: int) -> list[RoomRow]:
    return await db.web_rooms.of_server(guild_id)


async def room_by_code(db: Database, code: str) -> RoomRow | None:
    return await db.web_rooms.by_code(code)


async def join(db: Database, room: RoomRow, nickname: str, lang: str | None, now: datetime,
               ) -> tuple[Seat, str]:
    """Seat a student in an open ``room`` under ``nickname`` (read by ``read_nickname``); the
    seat and the session token for their cookie (given once, never stored)."""
    if not room.is_open(now):
        raise DomainError("web.room_closed", "the room is closed")
    kept = read_nickname(nickname)
    token = secrets.token_urlsafe(32)
    user_id = -(secrets.randbelow(_ID_SPAN) + 1)
    try:
        row = await db.web_rooms.seat(room, user_id, kept, token_hash(token),
                                      secrets.token_urlsafe(24), lang, now)
    except NicknameTaken:
        raise DomainError("web.nickname_taken", "nickname taken", nickname=kept) from None
    return Seat(row, room), token


async def seat_of(db: Database, token: str | None) -> Seat | None:
    """The seat of a session cookie (None: no cookie, or a seat erased)."""
    if not token or len(token) > 200:
        return None
    found = await db.web_rooms.by_token(token_hash(token))
    return None if found is None else Seat(*found)


async def seen(db: Database, seat: Seat, now: datetime, lang: str | None = None) -> None:
    await db.web_rooms.touch(seat.seat.seat_id, now, lang)


async def nicknames(db: Database, guild_id: int, user_ids: list[int] | None = None
                    ) -> dict[int, str]:
    """The nicknames of the server's web students, by player id: what a report names them by
    (members are named by Discord)."""
    return await db.web_rooms.nicknames(guild_id, user_ids)


# The teacher's side (``/class room``) ---------------------------------------------------------

@dataclass(frozen=True)
class RoomSummary:
    """A room as ``/class room list`` shows it: how many students sat in it."""

    room: RoomRow
    students: int


@dataclass(frozen=True)
class Closed:
    """What ``/class room close`` did: the room (as it was found), whether it was still open,
    and how many of its students were erased (``erase``; the room's row went with them)."""

    room: RoomRow
    was_open: bool
    erased: int | None


async def students(db: Database, guild_id: int) -> list[tuple[int, str, str | None]]:
    """The server's web students (player id, nickname, their room's name), the latest first:
    what a teacher picks one from (``/class report web_student:``)."""
    return await db.web_rooms.students(guild_id)


async def student_named(db: Database, guild_id: int, value: str) -> tuple[int, str]:
    """The web student a teacher picked (``value``: their player id, as the choices give it),
    with their nickname; refused when it is no web student of this server (forged, or erased
    since)."""
    text = value.strip()
    user_id = int(text) if len(text) <= 24 and text.lstrip("-").isdigit() else 0
    found = (await nicknames(db, guild_id, [user_id])).get(user_id) \
        if is_web_player(user_id) else None
    if found is None:
        raise DomainError("web_rooms.unknown_student", "no such web student on this server")
    return user_id, found


async def room_list(db: Database, guild_id: int, now: datetime) -> list[RoomSummary]:
    """The server's rooms, the open ones first, each part the newest first."""
    rooms = await db.web_rooms.of_server(guild_id)
    counts = await db.web_rooms.seat_counts(guild_id)
    ordered = sorted(rooms, key=lambda room: not room.is_open(now))  # stable: newest first kept
    return [RoomSummary(room, counts.get(room.room_id, 0)) for room in ordered]


async def open_rooms(db: Database, guild_id: int, now: datetime, typed: str = ""
                     ) -> list[RoomRow]:
    """The server's open rooms whose name or code holds ``typed`` (the close command's
    choices), the newest first."""
    folded = typed.casefold().strip()
    return [room for room in await db.web_rooms.of_server(guild_id)
            if room.is_open(now) and (folded in room.code.casefold()
                                      or folded in (room.name or "").casefold())]


def _plain(text: str) -> str:
    """A typed room's name as a refusal quotes it: letters, digits, spaces and dashes only
    (a refusal reads markdown; nothing typed may become a mention or a link there)."""
    return re.sub(r"[^\w \-']|_", "", " ".join(text.split()))[:40] or "?"


async def _chosen_room(db: Database, guild_id: int, chosen: str | None, now: datetime
                       ) -> RoomRow:
    if chosen is None:
        found = await open_rooms(db, guild_id, now)
        if not found:
            raise DomainError("web_rooms.none_open", "no open room on this server")
        return found[0]
    # The choice's value is the code; a teacher who typed without choosing may have typed the
    # room's name: an exact name of one of the server's rooms is taken too.
    code = read_code(chosen)
    room = None if code is None else await db.web_rooms.by_code(code)
    if room is None or room.guild_id != guild_id:  # another server's code is no room of theirs
        folded = " ".join(chosen.split()).casefold()
        named = [r for r in await db.web_rooms.of_server(guild_id)
                 if r.name is not None and r.name.casefold() == folded]
        if not named:
            raise DomainError("web_rooms.unknown_room", "no such room on this server",
                              room=_plain(chosen))
        room = next((r for r in named if r.is_open(now)), named[0])
    return room


async def close_room(db: Database, guild_id: int, chosen: str | None, now: datetime, *,
                     teaches: bool, erase: bool) -> Closed:
    """Close a room of the server (``chosen``: its code, else the newest open one), for
    teachers only. With ``erase``, every student who sat in it is erased completely, as
    ``python -m db delete-player`` erases a member (their answers, mastery, attempts, their
    part of live rounds, their seat), and the room itself; an already closed room may be
    erased, not closed again."""
    if not teaches:
        raise DomainError("web.teachers_only", "teachers only")
    room = await _chosen_room(db, guild_id, chosen, now)
    if not erase and room.closed_at is not None:
        raise DomainError("web_rooms.already_closed", "already closed",
                          room=_plain(room.name or room.code))
    # Closed first: nobody joins while its students are being erased.
    was_open = await db.web_rooms.close(room.room_id, now) and room.is_open(now)
    if not erase:
        return Closed(room, was_open, None)
    erased = 0
    for seat in await db.web_rooms.seats_of_room(room.room_id):
        try:
            await db.delete_player(guild_id, seat.user_id)
        except DomainError as error:
            if error.code != "db.not_found":
                raise
            continue  # erased meanwhile (the command line, retention)
        erased += 1
    await db.web_rooms.delete_room(room.room_id)
    return Closed(room, was_open, erased)


def room_link(base_url: str, room: RoomRow) -> str:
    """The address a student opens to join ``room`` (its code already typed)."""
    return f"{base_url.rstrip('/')}/join/{room.code}"
