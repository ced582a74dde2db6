"""The class's weekly digest (``/settings class digest:``): where and when each server's is
posted, and which day's was (claimed once: the database decides)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from db.connection import Connection, Row
from db.servers import ServersRepository


@dataclass(frozen=True)
class DigestSettings:
    guild_id: int
    channel_id: int
    weekday: int  # 0: Monday
    hour: int  # 0–23, in the server's time zone
    pseudonym: bool = False
    posted_for: date | None = None  # the local date of the last digest posted


def _digest(row: Row) -> DigestSettings:
    posted = row["posted_for"]
    return DigestSettings(row["guild_id"], row["channel_id"], row["weekday"], row["hour"],
                          bool(row["pseudonym"]),
                          None if posted is None else date.fromisoformat(posted))


class DigestsRepository:
    def __init__(self, conn: Connection, servers: ServersRepository) -> None:
        self._conn = conn
        self._servers = servers

    async def get(self, guild_id: int) -> DigestSettings | None:
        row = await self._conn.one("SELECT * FROM class_digests WHERE guild_id = ?",
                                   (guild_id,))
        return None if row is None else _digest(row)

    async def save(self, guild_id: int, channel_id: int, weekday: int, hour: int,
                   pseudonym: bool, now: datetime | None = None) -> DigestSettings:
        """Set (or change) the server's digest; the day already posted is kept (changing the
        hour on the day it was posted does not post it twice)."""
        if not (0 <= weekday <= 6 and 0 <= hour <= 23):
            raise ValueError(f"a weekday is 0 to 6 and an hour 0 to 23: {weekday}, {hour}")
        async with self._conn.atomic():
            await self._servers.ensure(guild_id, now)
            await self._conn.run(
                "INSERT INTO class_digests (guild_id, channel_id, weekday, hour, pseudonym)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " channel_id = excluded.channel_id, weekday = excluded.weekday,"
                " hour = excluded.hour, pseudonym = excluded.pseudonym",
                (guild_id, channel_id, weekday, hour, int(pseudonym)))
            found = await self.get(guild_id)
        assert found is not None
        return found

    async def delete(self, guild_id: int) -> bool:
        return await self._conn.run("DELETE FROM class_digests WHERE guild_id = ?",
                                    (guild_id,)) > 0

    async def every(self) -> list[DigestSettings]:
        """Every server's digest (the background task looks at each one's day and hour)."""
        rows = await self._conn.all("SELECT * FROM class_digests ORDER BY guild_id")
        return [_digest(row) for row in rows]

    async def claim(self, guild_id: int, day: date) -> bool:
        """Whether this caller posts the digest of the local date ``day``: once, whoever asks
        (another process, this one before a restart)."""
        return await self._conn.run(
            "UPDATE class_digests SET posted_for = ? WHERE guild_id = ?"
            " AND (posted_for IS NULL OR posted_for < ?)",
            (day.isoformat(), guild_id, day.isoformat())) > 0

    async def release(self, guild_id: int, day: date, before: date | None) -> None:
        """Give a claimed day back (Discord refused the post for a while: tried again)."""
        await self._conn.run(
            "UPDATE class_digests SET posted_for = ? WHERE guild_id = ? AND posted_for = ?",
            (None if before is None else before.isoformat(), guild_id, day.isoformat()))
