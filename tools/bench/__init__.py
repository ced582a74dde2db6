"""Speed benchmarks, one module per part: ``python -m tools.bench.<part>`` prints its figures.

Here, what several share: the benchmarks' databases on both engines. ``--database
postgresql://…`` measures the same work on SQLite and on that PostgreSQL server, one after the
other in one run, and prints the figures side by side. Each measure gets a fresh database: a file
in a temporary folder, or a database created on the server for it and dropped after (the URL's
own database is only used to create them, so any ``postgresql://user@host:port/postgres`` will
do)."""


from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

SQLITE = "SQLite"
POSTGRESQL = "PostgreSQL"


def engines(url: str | None) -> list[tuple[str, str | None]]:
    """(label, server URL or None for SQLite) of each engine to measure."""
    return [(SQLITE, None), *([(POSTGRESQL, url)] if url else [])]


def _with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


@asynccontextmanager
async def fresh(server: str | None, folder: Path, name: str) -> AsyncIterator[Path | str]:
    """A new, empty database for one measure: its file or its URL."""
    if server is None:
        yield folder / f"{name}.sqlite3"
        return
    import asyncpg

    database = f"ardoise_bench_{os.getpid()}_{name}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        await admin.execute(f'CREATE DATABASE "{database}"')
    finally:
        await admin.close()
    try:
        yield _with_database(server, database)
    finally:
        admin = await asyncpg.connect(server)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        finally:
            await admin.close()


class SideBySide:
    """Figures by measure and engine, printed as one table at the end."""

    def __init__(self) -> None:
        self.engine = SQLITE
        self.figures: dict[str, dict[str, str]] = {}
        self.labels: list[str] = []

    def add(self, label: str, figure: str) -> None:
        if label not in self.figures:
            self.figures[label] = {}
            self.labels.append(label)
        self.figures[label][self.engine] = figure

    def table(self) -> str:
        engines = [e for e in (SQLITE, POSTGRESQL)
                   if any(e in row for row in self.figures.values())]
        lines = [f"| measure | {' | '.join(engines)} |", f"| --- |{' ---: |' * len(engines)}"]
        for label in self.labels:
            row = self.figures[label]
            lines.append(f"| {label} | {' | '.join(row.get(e, '') for e in engines)} |")
        return "\n".join(lines)
