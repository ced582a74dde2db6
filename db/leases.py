"""Who serves which shard: the leases of the bot processes (table ``shard_leases``, migration 16).

``db.leases``, built by the facade: ``bot/app.py`` takes its shards' leases before it connects
to Discord, renews them while it runs and gives them back when it stops. A lease is measured on
the database's clock (``Dialect.clock``), so two machines whose clocks differ still agree on
whether it has run out. Taking is all or nothing, in one transaction where takers go one at a
time (SQLite's ``BEGIN IMMEDIATE``, PostgreSQL's table lock): of two processes asking for
overlapping shards at the same moment, exactly one gets them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from db.connection import Connection, Row, db_time


@dataclass(frozen=True)
class Lease:
    application_id: int
    shard_id: int
    shard_count: int
    holder: str
    expires_at: datetime


def _lease(row: Row) -> Lease:
    return Lease(application_id=row["application_id"], shard_id=row["shard_id"],
                 shard_count=row["shard_count"], holder=row["holder"],
                 expires_at=db_time(row["expires_at"]))


def _seconds(seconds: float) -> str:
    """An interval both engines read (``'+30.000 seconds'``)."""
    return f"{seconds:+.3f} seconds"


class _Refused(Exception):
    """Inside :meth:`LeasesRepository.take`: undo what was written, some shard is not free."""


class LeasesRepository:
    def __init__(self, connection: Connection) -> None:
        self._conn = connection

    async def take(self, application_id: int, shard_ids: Sequence[int], shard_count: int,
                   holder: str, seconds: float) -> list[Lease]:
        """Take, or renew, ``holder``'s leases on the shards ``shard_ids`` of ``shard_count`` of
        the bot ``application_id`` for
        ``seconds`` from now (the database's now); all of them or none. The leases in the way
        (empty when taken): another holder's that has not run out, on one of these shards or on a
        shard of another count (its shards overlap these in Discord's servers)."""
        ids = sorted(set(shard_ids))
        if not ids:
            raise ValueError("a process serves at least one shard")
        clock = self._conn.dialect.clock()
        now, until = _seconds(0), _seconds(seconds)
        try:
            async with self._conn.transaction():
                lock = self._conn.dialect.lock_table("shard_leases")
                if lock is not None:
                    await self._conn.run(lock)
                values = ", ".join(f"(?, ?, ?, ?, {clock})" for _ in ids)
                # The one conditional write: a shard is taken where it is free, where its lease
                # ran out, or where it is already this holder's (a renewal).
                taken = await self._conn.returning(
                    "INSERT INTO shard_leases (application_id, shard_id, shard_count, holder,"
                    f" expires_at) VALUES {values} ON CONFLICT (application_id, shard_id)"
                    " DO UPDATE SET"
                    " shard_count = excluded.shard_count, holder = excluded.holder,"
                    " expires_at = excluded.expires_at"
                    f" WHERE shard_leases.holder = excluded.holder"
                    f" OR shard_leases.expires_at <= {clock} RETURNING shard_id",
                    [*(v for i in ids for v in (application_id, i, shard_count, holder, until)),
                     now])
                if len(taken) < len(ids) or await self._conn.one(
                        "SELECT 1 FROM shard_leases WHERE application_id = ? AND holder <> ?"
                        f" AND shard_count <> ? AND expires_at > {clock}",
                        (application_id, holder, shard_count, now)):
                    raise _Refused
        except _Refused:
            pass
        else:
            return []
        placeholders = ", ".join("?" for _ in ids)
        rows = await self._conn.all(
            "SELECT * FROM shard_leases WHERE application_id = ? AND holder <> ?"
            f" AND expires_at > {clock} AND (shard_id IN ({placeholders}) OR shard_count <> ?)"
            " ORDER BY shard_id", (application_id, holder, now, *ids, shard_count))
        if not rows:
            # The one in the way ran out between the two reads: ask again.
            return await self.take(application_id, ids, shard_count, holder, seconds)
        return [_lease(row) for row in rows]

    async def held(self, application_id: int) -> list[Lease]:
        """The bot's leases that have not run out, by shard."""
        rows = await self._conn.all(
            "SELECT * FROM shard_leases WHERE application_id = ? AND expires_at > "
            f"{self._conn.dialect.clock()} ORDER BY shard_id", (application_id, _seconds(0)))
        return [_lease(row) for row in rows]

    async def release(self, holder: str) -> int:
        """Give back every lease of ``holder`` (at a clean stop); how many there were."""
        return await self._conn.run("DELETE FROM shard_leases WHERE holder = ?", (holder,))
