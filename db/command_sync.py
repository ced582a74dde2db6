"""What the bot last sent Discord as its slash commands (table ``command_sync``, migration 7).

``db.command_syncs``, built by the facade: ``bot/app.py`` compares the hash of the payload it
would sync with the one stored here and syncs only when they differ (or when asked to), then
stores the new one.
"""

from __future__ import annotations

from datetime import datetime

from db.connection import Connection, to_db_time, utc


class CommandSyncs:
    """The last synced payload's hash, per application and scope (``"global"`` or a server id)."""

    def __init__(self, connection: Connection) -> None:
        self._conn = connection

    async def last(self, application_id: int, scope: str) -> str | None:
        """The SHA-256 (hex) of the payload last synced to ``scope``, if any."""
        row = await self._conn.one(
            "SELECT payload_sha256 FROM command_sync WHERE application_id = ? AND scope = ?",
            (application_id, scope))
        return None if row is None else str(row[0])

    async def record(self, application_id: int, scope: str, payload_sha256: str,
                     now: datetime | None = None) -> None:
        """Remember that the payload of hash ``payload_sha256`` was synced to ``scope``."""
        await self._conn.run(
            "INSERT INTO command_sync (application_id, scope, payload_sha256, synced_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (application_id, scope) DO UPDATE SET"
            " payload_sha256 = excluded.payload_sha256, synced_at = excluded.synced_at",
            (application_id, scope, payload_sha256, to_db_time(utc(now))))
