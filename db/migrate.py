"""Versioned migrations: the numbered SQL files of ``db/migrations`` and the code that applies them.

A migration file is named ``NNNN_what_it_does.sql``; versions run 1, 2, 3… without a gap. Each one
is applied in its own transaction together with its row in ``schema_migrations``, so a failing
migration leaves the database at the version before it. Migration files hold schema statements
only: no BEGIN, COMMIT or PRAGMA (the runner owns the transaction).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


class DatabaseVersionError(Exception):
    """The database file was written by a newer Ardoise than this one."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(
            f"database version {found} is newer than this Ardoise ({known}); upgrade Ardoise"
        )
        self.found = found
        self.known = known


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(folder: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migrations of ``folder`` in version order; refuses a gap or a duplicate number."""
    found: list[Migration] = []
    for path in sorted(folder.iterdir()):
        match = _NAME.match(path.name)
        if match is None:
            continue
        found.append(Migration(int(match[1]), match[2], path.read_text(encoding="utf-8")))
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(
            f"migrations in {folder} must be numbered 1, 2, 3… without gaps: {versions}"
        )
    return found


LATEST_VERSION = len(load_migrations())


async def current_version(conn: aiosqlite.Connection) -> int:
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    rows = await conn.execute_fetchall("SELECT coalesce(max(version), 0) FROM schema_migrations")
    return int(next(iter(rows))[0])


async def migrate(
    conn: aiosqlite.Connection,
    migrations: Sequence[Migration],
    target: int | None = None,
    *,
    upgrade: bool = True,
) -> int:
    """Bring the database of ``conn`` (in autocommit mode) to ``target`` (default: the latest).

    Returns the version reached. A database newer than ``migrations`` raises
    :class:`DatabaseVersionError`, whatever the target; with ``upgrade`` false nothing is applied.
    """
    known = len(migrations)
    version = await current_version(conn)
    if version > known:
        raise DatabaseVersionError(version, known)
    goal = known if target is None else min(target, known)
    if not upgrade:
        return version
    for migration in migrations:
        if not version < migration.version <= goal:
            continue
        try:
            # executescript commits any open transaction first, so BEGIN must be in the script.
            await conn.executescript("BEGIN IMMEDIATE;\n" + migration.sql)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, datetime.now(UTC).isoformat(" ")),
            )
            await conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise
        version = migration.version
    return version
