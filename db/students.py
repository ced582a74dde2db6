"""One student's own settings in one server (``/class student``): a Focus level pinned or a
range, extra time, and whether public rankings show them. A field left ``None`` is "as the
server says" (``db.servers``); the use cases combine the two (``bot.play.students``)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from datetime import datetime

from db.connection import Connection, Row, from_db_time, to_db_time, utc
from db.players import PlayersRepository

#: Extra time: the factor on a Focus's time, ``None`` for no timer at all.
EXTRA_TIME = {"x1.5": 1.5, "x2": 2.0, "untimed": None}
#: How public rankings show a student: "anonymous" (as "a student"), "hidden" (left out).
RANKINGS = ("anonymous", "hidden")


@dataclass(frozen=True)
class StudentSettings:
    guild_id: int
    user_id: int
    level_min: int | None = None
    level_max: int | None = None
    level_pinned: int | None = None
    extra_time: str | None = None
    rankings: str | None = None
    #: Their own school year (``bot.focus.school``; None: the server's).
    school_year: str | None = None
    updated_at: datetime | None = None

    @property
    def is_default(self) -> bool:
        """Nothing of their own: the server's settings only."""
        return all(getattr(self, f.name) is None for f in fields(self)
                   if f.name not in ("guild_id", "user_id", "updated_at"))

    @property
    def time_factor(self) -> float | None:
        """How many times the usual time they have: 1.0 usually, ``None`` for no timer."""
        if self.extra_time is None:
            return 1.0
        return EXTRA_TIME[self.extra_time]


_COLUMNS = ("level_min", "level_max", "level_pinned", "extra_time", "rankings", "school_year")


def _row(row: Row) -> StudentSettings:
    return StudentSettings(
        guild_id=row["guild_id"], user_id=row["user_id"], level_min=row["level_min"],
        level_max=row["level_max"], level_pinned=row["level_pinned"],
        extra_time=row["extra_time"], rankings=row["rankings"], school_year=row["school_year"],
        updated_at=from_db_time(row["updated_at"]))


def _check(settings: StudentSettings) -> None:
    if settings.extra_time is not None and settings.extra_time not in EXTRA_TIME:
        raise ValueError(f"extra time is one of {sorted(EXTRA_TIME)}, not {settings.extra_time!r}")
    if settings.rankings is not None and settings.rankings not in RANKINGS:
        raise ValueError(f"rankings is one of {RANKINGS}, not {settings.rankings!r}")


class StudentsRepository:
    def __init__(self, conn: Connection, players: PlayersRepository) -> None:
        self._conn = conn
        self._players = players

    async def get(self, guild_id: int, user_id: int) -> StudentSettings:
        """Their settings (all ``None`` when the teacher set nothing for them)."""
        row = await self._conn.one(
            "SELECT * FROM student_settings WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id))
        return StudentSettings(guild_id, user_id) if row is None else _row(row)

    async def of_server(self, guild_id: int, user_ids: list[int] | None = None
                        ) -> dict[int, StudentSettings]:
        """Every student of the server with a setting of their own (or only among
        ``user_ids``), by user id."""
        rows = await self._conn.all(
            "SELECT * FROM student_settings WHERE guild_id = ? ORDER BY user_id", (guild_id,))
        found = {row["user_id"]: _row(row) for row in rows}
        if user_ids is not None:
            wanted = set(user_ids)
            found = {uid: s for uid, s in found.items() if uid in wanted}
        return found

    async def save(self, settings: StudentSettings, now: datetime | None = None
                   ) -> StudentSettings:
        """Store ``settings`` as they are (``None``: the server's); a row of nothing but
        ``None`` is deleted. The settings as stored."""
        _check(settings)
        stamp = utc(now)
        key = (settings.guild_id, settings.user_id)
        async with self._conn.atomic():
            if settings.is_default:
                await self._conn.run(
                    "DELETE FROM student_settings WHERE guild_id = ? AND user_id = ?", key)
                return replace(settings, updated_at=None)
            await self._players.ensure(*key, now=now)
            values = [getattr(settings, column) for column in _COLUMNS]
            await self._conn.run(
                f"INSERT INTO student_settings (guild_id, user_id, {', '.join(_COLUMNS)},"
                " updated_at) VALUES (?, ?, " + "?, " * len(_COLUMNS) + "?)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET "
                + ", ".join(f"{c} = excluded.{c}" for c in (*_COLUMNS, "updated_at")),
                (*key, *values, to_db_time(stamp)))
        return replace(settings, updated_at=stamp)
