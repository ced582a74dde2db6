"""Versioned migrations: the numbered SQL files of ``db/migrations`` and the code that applies them.

A migration file is named ``NNNN_what_it_does.sql``; versions run 1, 2, 3… without a gap. Each one
is applied in its own transaction together with its row in ``schema_migrations``, so a failing
migration leaves the database at the version before it. Migration files hold schema statements
only: no BEGIN, COMMIT or PRAGMA (the runner owns the transaction).

One series for both engines. A migration written in the portable subset (``INTEGER``, ``INTEGER
PRIMARY KEY``, ``TEXT``, ``REAL``, ``CHECK``, ``UNIQUE``, ``REFERENCES … ON DELETE CASCADE``,
``CREATE INDEX``, ``INSERT … ON CONFLICT``; ``WITHOUT ROWID``, ``STRICT`` and ``COLLATE NOCASE``
are taken care of) is one file: PostgreSQL reads it through :func:`db.dialect.postgresql_schema`
(the types translated). Where the SQL itself differs (triggers, JSON functions, SQLite's date
functions), a dialect's file sits beside it, ``NNNN_what_it_does.postgresql.sql``, written for
PostgreSQL (the same translation applies to it, so it may say ``INTEGER`` too).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from db.dialect import postgresql_schema

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)(?:\.(postgresql))?\.sql$")
#: The table of applied versions (portable: PostgreSQL reads it translated).
SCHEMA_MIGRATIONS = (
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
)


class DatabaseVersionError(Exception):
    """The database was written by a newer Ardoise than this one."""

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
    #: The PostgreSQL file's text, where the SQL differs; None: ``sql`` serves both.
    postgresql: str | None = None

    def sql_for(self, dialect: str) -> str:
        """The text to run on ``dialect`` ("sqlite" or "postgresql")."""
        if dialect == "sqlite":
            return self.sql
        return postgresql_schema(self.sql if self.postgresql is None else self.postgresql)


def load_migrations(folder: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migrations of ``folder`` in version order; refuses a gap or a duplicate number, and a
    dialect's file without its portable one."""
    portable: dict[int, tuple[str, str]] = {}
    dialects: dict[int, str] = {}
    for path in sorted(folder.iterdir()):
        match = _NAME.match(path.name)
        if match is None:
            continue
        version, text = int(match[1]), path.read_text(encoding="utf-8")
        if match[3] is None:
            if version in portable:
                raise RuntimeError(f"two migrations numbered {version} in {folder}")
            portable[version] = (match[2], text)
        else:
            dialects[version] = text
    versions = sorted(portable)
    if versions != list(range(1, len(portable) + 1)):
        raise RuntimeError(
            f"migrations in {folder} must be numbered 1, 2, 3… without gaps: {versions}"
        )
    lonely = sorted(set(dialects) - set(portable))
    if lonely:
        raise RuntimeError(f"PostgreSQL migrations without their SQLite file: {lonely}")
    return [Migration(v, portable[v][0], portable[v][1], dialects.get(v)) for v in versions]


LATEST_VERSION = len(load_migrations())


class MigrationTarget(Protocol):
    """A database as :func:`migrate` sees it (:mod:`db.connection` gives one per engine)."""

    async def current_version(self) -> int: ...

    async def apply(self, migration: Migration) -> None:
        """Run the migration and record its row, in one transaction."""


async def migrate(
    target_db: MigrationTarget,
    migrations: Sequence[Migration],
    target: int | None = None,
    *,
    upgrade: bool = True,
) -> int:
    """Bring the database to ``target`` (default: the latest).

    Returns the version reached. A database newer than ``migrations`` raises
    :class:`DatabaseVersionError`, whatever the target; with ``upgrade`` false nothing is applied.
    """
    known = len(migrations)
    version = await target_db.current_version()
    if version > known:
        raise DatabaseVersionError(version, known)
    goal = known if target is None else min(target, known)
    if not upgrade:
        return version
    for migration in migrations:
        if not version < migration.version <= goal:
            continue
        await target_db.apply(migration)
        version = migration.version
    return version
