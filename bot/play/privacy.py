"""What ``/privacy`` says of a server: how long its members' answers and finished games are kept.

A server's retention (``/settings privacy retention:``, docs/privacy.md "How long it is kept") is
a number of days, the end of the school year (a date its teacher set), or for ever; the default
is 365 days on a new server, for ever on one that used Ardoise before the retention existed
(migration 17), until a teacher chooses.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from db import Database


@dataclass(frozen=True)
class Retention:
    """How long a server keeps its members' answers and finished games: ``days`` (erased once
    older), or until ``until`` (the end of its school year), or, with neither, for ever."""

    days: int | None = None
    until: date | None = None

    def __post_init__(self) -> None:
        if self.days is not None and self.until is not None:
            raise ValueError("a retention is a number of days or a date, not both")
        if self.days is not None and self.days < 1:
            raise ValueError(f"a retention of {self.days} days keeps nothing")

    @property
    def forever(self) -> bool:
        return self.days is None and self.until is None


FOREVER = Retention()


async def server_retention(db: Database, guild_id: int) -> Retention:
    """The retention of ``guild_id`` as ``/settings privacy`` stored it (a server Ardoise has
    not met yet has a new server's default, ``db.servers.ServerSettings``)."""
    settings = await db.servers.get(guild_id)
    return Retention(days=settings.retention_days, until=settings.retention_until)
