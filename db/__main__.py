"""Ardoise's database from the command line.

    python -m db backup DEST [--db PATH]                  online copy of the live database
    python -m db migrate [--db PATH]                      apply the migrations, print the version
    python -m db export-player GUILD USER [--db PATH] [--out FILE]   a member's data as JSON
    python -m db delete-player GUILD USER [--db PATH]     forget a member (prints what went or
                                                          changed; db/export.py says how)
    python -m db purge --server ID --before DATE [--db PATH]   erase the server's answers and
                                                          finished games older than DATE (its
                                                          start, in the server's time zone;
                                                          prints the rows erased per table)
    python -m db copy SRC DST                             every row of SRC into the new DST,
                                                          checked (db/copy.py says how)

A database is a SQLite file or a ``postgresql://user:password@host:port/name`` URL (its database
created beforehand, ``createdb name``). ``backup`` of PostgreSQL runs ``pg_dump`` (custom format,
``pg_restore`` reads it). ``--db`` defaults to ``$ARDOISE_DB``, else ``data/ardoise.sqlite3``.
Errors are one line on standard error and exit status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import date, datetime, time
from pathlib import Path

from bot.domain import DomainError
from db.connection import is_postgresql
from db.copy import CopyError
from db.copy import copy as copy_database
from db.core import Database, default_path, location_of
from db.migrate import DatabaseVersionError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m db", description="Ardoise's database.")
    commands = parser.add_subparsers(dest="command", required=True)

    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text)
        sub.add_argument(
            "--db",
            type=location_of,
            default=None,
            help="database file or postgresql:// URL (default: $ARDOISE_DB, else"
            " data/ardoise.sqlite3)",
        )
        return sub

    backup = add("backup", "copy the live database safely to DEST")
    backup.add_argument("dest", type=Path)
    add("migrate", "apply the migrations and print the schema version")
    export = add("export-player", "print everything stored about one member as JSON")
    export.add_argument("guild", type=int)
    export.add_argument("user", type=int)
    export.add_argument("--out", type=Path, default=None, help="write to this file, not stdout")
    delete = add("delete-player", "delete everything stored about one member")
    delete.add_argument("guild", type=int)
    delete.add_argument("user", type=int)
    purge = add("purge", "erase a server's answers and finished games older than a date")
    purge.add_argument("--server", type=int, required=True, help="the server's id")
    purge.add_argument("--before", type=date.fromisoformat, required=True,
                       help="YYYY-MM-DD: what is older than its start (the server's time zone)")
    copy = commands.add_parser(
        "copy", help="copy every row of SRC into DST (a new database), then check the copy")
    copy.add_argument("src", type=location_of, help="SQLite file or postgresql:// URL")
    copy.add_argument("dst", type=location_of, help="SQLite file or postgresql:// URL (empty)")
    return parser


async def _copy(args: argparse.Namespace) -> str:
    if not is_postgresql(args.src) and not Path(args.src).exists():
        raise FileNotFoundError(f"no database at {args.src}")
    if not is_postgresql(args.dst) and Path(args.dst).exists():
        raise FileExistsError(f"{args.dst} exists: copy into a new file")
    # The source is read as it is: an older one is not upgraded behind its owner's back.
    src = await Database.open(args.src, upgrade=False)
    try:
        dst = await Database.open(args.dst)
        try:
            lines = await copy_database(src.connection, dst.connection)
        finally:
            await dst.close()
    finally:
        await src.close()
    return "\n".join([f"copy {src.describe()} -> {dst.describe()}", *lines])


async def _run(args: argparse.Namespace) -> str:
    if args.command == "copy":
        return await _copy(args)
    path = args.db or default_path()
    if args.command != "migrate" and not is_postgresql(path) and not Path(path).exists():
        raise FileNotFoundError(f"no database at {path}")
    # A backup copies the file as it is: an older database is not upgraded first.
    db = await Database.open(path, upgrade=args.command != "backup")
    try:
        if args.command == "backup":
            dest = await db.backup(args.dest)
            return f"backed up {db.describe()} to {dest}"
        if args.command == "migrate":
            return f"{db.describe()}: schema version {db.version}"
        if args.command == "export-player":
            text = json.dumps(
                await db.export_player(args.guild, args.user), ensure_ascii=False, indent=2
            )
            if args.out is None:
                return text
            args.out.write_text(text + "\n", encoding="utf-8")
            return f"exported member {args.user} of server {args.guild} to {args.out}"
        if args.command == "purge":
            settings = await db.servers.get(args.server)
            before = datetime.combine(args.before, time(), settings.tz())
            counts = await db.retention.purge(args.server, before)
            erased = ", ".join(f"{name} {count}" for name, count in counts.items())
            return f"erased in server {args.server} before {before.isoformat()}: {erased}"
        counts = await db.delete_player(args.guild, args.user)
        removed = ", ".join(f"{name} {count}" for name, count in counts.items())
        return f"deleted member {args.user} of server {args.guild}: {removed}"
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        print(asyncio.run(_run(args)))
    except (DomainError, DatabaseVersionError, CopyError, ValueError, OSError) as error:
        print(f"python -m db {args.command}: {error}", file=sys.stderr)
        return 1
    except Exception as error:
        # PostgreSQL's refusals (no such database, a wrong password…) are asyncpg's own.
        if not type(error).__module__.startswith("asyncpg"):
            raise
        print(f"python -m db {args.command}: PostgreSQL says: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
