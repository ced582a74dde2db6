"""``python -m db copy SRC DST``: a school's database moved between SQLite and PostgreSQL (either
way), then checked.

The destination is opened (and so migrated) to the latest version and must hold no row yet; the
source must be at the latest version too (``python -m db migrate --db SRC`` first). Every table
the migrations made is copied in the order of its foreign keys, all in one transaction of the
destination (a failure leaves it empty), from one transaction of the source (one moment of it:
stop the bot first, or it waits on SQLite and is not seen on PostgreSQL). Two tables are not
copied but rebuilt: the class report's rollups (migration 11), which the destination's triggers
fill as the answers arrive; they are then compared with the source's in full, which checks the
two engines' triggers against each other on the school's own answers. PostgreSQL's identity
columns are moved past the copied ids, so that the next match or answer gets a new one.

The check: the count of rows of every table is the source's, and a sample of rows (up to
:data:`SAMPLE` per table, drawn at random, read back by primary key) is equal column by column.
What was copied and checked is returned as lines for the command to print.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from db.connection import Connection

#: Rows compared column by column per table (beside the counts of all of them).
SAMPLE = 50
#: Rows moved per statement batch.
BATCH = 2000
#: Tables the destination's triggers fill from the rows copied (migration 11's rollups).
DERIVED = ("focus_rollup", "focus_rollup_total")
#: The destination's own record of its migrations: not copied.
SKIPPED = ("schema_migrations",)


class CopyError(Exception):
    """The copy cannot be made (the destination is not empty, the versions differ) or its check
    failed: the message says which."""


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]  # the primary key's columns, in order (all columns if it has none)


async def tables(conn: Connection) -> list[Table]:
    """The database's tables (but the migrations' record) in an order where every table comes
    after the tables it refers to."""
    catalogue = conn.dialect.catalogue
    found: dict[str, Table] = {}
    refers: dict[str, set[str]] = {}
    for (name,) in await conn.all(catalogue.tables):
        if name in SKIPPED:
            continue
        columns = [(row[0], int(row[1])) for row in await conn.all(catalogue.columns, (name,))]
        key = tuple(c for c, place in sorted(columns, key=lambda c: c[1]) if place)
        found[name] = Table(name, tuple(c for c, _ in columns), key or tuple(c for c, _ in columns))
        refers[name] = {row[0] for row in await conn.all(catalogue.references, (name,))} - {name}
    ordered: list[Table] = []
    placed: set[str] = set()
    while len(ordered) < len(found):
        ready = sorted(n for n in found if n not in placed and refers[n] <= placed)
        if not ready:
            raise CopyError(f"foreign keys in a circle among {sorted(set(found) - placed)}")
        for name in ready:
            ordered.append(found[name])
            placed.add(name)
    return ordered


async def _count(conn: Connection, table: str) -> int:
    row = await conn.one(f'SELECT count(*) FROM "{table}"')
    assert row is not None
    return int(row[0])


def _names(columns: Sequence[str]) -> str:
    """Quoted column names (from the catalogue, never a member's text)."""
    return ", ".join(f'"{c}"' for c in columns)


def _select(table: Table) -> str:
    return f'SELECT {_names(table.columns)} FROM "{table.name}" ORDER BY {_names(table.key)}'


async def copy(src: Connection, dst: Connection, *, seed: int = 0) -> list[str]:
    """Copy every row of ``src`` into the empty ``dst`` and check it; what was done, as lines.
    Raises :class:`CopyError` when it cannot be done or the check fails (``dst`` is then left
    as it was)."""
    if src.version != dst.version:
        raise CopyError(
            f"the source is at schema version {src.version}, the destination at {dst.version}:"
            " migrate the older one first (python -m db migrate --db …)")
    source_tables = await tables(src)
    dest_tables = {t.name: t for t in await tables(dst)}
    missing = sorted({t.name for t in source_tables} ^ set(dest_tables))
    if missing:
        raise CopyError(f"the two databases do not have the same tables: {missing}")
    for table in source_tables:
        if await _count(dst, table.name):
            raise CopyError(f"the destination is not empty (table {table.name} has rows):"
                            " copy into a new database")
    lines: list[str] = []
    rng = random.Random(seed)
    async with src.transaction(), dst.transaction():
        counts: dict[str, int] = {}
        for table in source_tables:
            if table.name in DERIVED:
                continue
            counts[table.name] = await _copy_table(src, dst, table)
            if counts[table.name]:
                lines.append(f"copied {table.name}: {counts[table.name]} rows")
        empty = sorted(name for name, count in counts.items() if not count)
        if empty:
            lines.append(f"empty in the source: {', '.join(empty)}")
        for table in source_tables:
            if table.name in DERIVED:
                lines.append(await _compare_derived(src, dst, table))
        lines += await _move_identities(dst, source_tables)
        sampled = 0
        for table in source_tables:
            if table.name in DERIVED:
                continue
            got = await _count(dst, table.name)
            if got != counts[table.name]:
                raise CopyError(f"{table.name}: {got} rows copied of {counts[table.name]}")
            sampled += await _compare_sample(src, dst, table, rng)
    lines.append(
        f"checked: the rows of all {len(source_tables)} tables counted equal, {sampled} rows"
        f" drawn at random (up to {SAMPLE} per table) equal column by column, the rollups"
        " equal in full")
    return lines


async def _copy_table(src: Connection, dst: Connection, table: Table) -> int:
    select = _select(table) + " LIMIT ? OFFSET ?"
    marks = ", ".join("?" for _ in table.columns)
    insert = f'INSERT INTO "{table.name}" ({_names(table.columns)}) VALUES ({marks})'
    done = 0
    while True:
        rows = await src.all(select, (BATCH, done))
        if not rows:
            return done
        await dst.many(insert, [tuple(row) for row in rows])
        done += len(rows)


def _rows(rows: Sequence[Any]) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in rows]


async def _compare_derived(src: Connection, dst: Connection, table: Table) -> str:
    theirs = _rows(await src.all(_select(table)))
    ours = _rows(await dst.all(_select(table)))
    if theirs != ours:
        differ = next((i for i, (a, b) in enumerate(zip(theirs, ours, strict=False)) if a != b),
                      min(len(theirs), len(ours)))
        raise CopyError(
            f"{table.name}, rebuilt by the destination's triggers, differs from the source's"
            f" ({len(ours)} rows against {len(theirs)}; first difference at row {differ})")
    return f"rebuilt {table.name} from the answers: {len(ours)} rows, equal to the source's"


async def _compare_sample(src: Connection, dst: Connection, table: Table,
                          rng: random.Random) -> int:
    keys = _rows(await src.all(f'SELECT {_names(table.key)} FROM "{table.name}"'))
    drawn = rng.sample(keys, min(SAMPLE, len(keys)))
    where = " AND ".join(f'"{c}" IS ?' for c in table.key)
    statement = f'SELECT {_names(table.columns)} FROM "{table.name}" WHERE {where}'
    for key in drawn:
        theirs, ours = await src.one(statement, key), await dst.one(statement, key)
        if ours is None or tuple(ours) != tuple(theirs or ()):
            raise CopyError(f"{table.name}: the row {dict(zip(table.key, key, strict=True))}"
                            " differs in the destination")
    return len(drawn)


async def _move_identities(dst: Connection, source_tables: list[Table]) -> list[str]:
    """PostgreSQL: each identity column's next value past the highest copied id (rows were
    copied with their ids, which moves no sequence)."""
    query = dst.dialect.catalogue.identities
    if query is None:
        return []
    moved = 0
    for table in source_tables:
        for (column,) in await dst.all(query, (table.name,)):
            await dst.all(
                f"SELECT setval(pg_get_serial_sequence(?, ?), coalesce(max(\"{column}\"), 0) + 1,"
                f' false) FROM "{table.name}"', (table.name, column))
            moved += 1
    return [f"moved {moved} identity columns past the copied ids"] if moved else []
