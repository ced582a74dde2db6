"""Servers: their settings and who may change them."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, fields, replace
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.domain import DomainError
from db.connection import Connection, Row, dumps, to_db_time, utc

LANGUAGES = ("en", "fr")


@dataclass(frozen=True)
class ServerSettings:
    """A server's settings; a server never configured has these defaults."""

    guild_id: int
    #: 'en' or 'fr'; None: each member's own Discord locale.
    language: str | None = None
    #: Where and when (local hour 0–23 in ``timezone``) the daily challenge is posted;
    #: no channel: no daily challenge.
    daily_channel_id: int | None = None
    daily_hour: int = 8
    timezone: str = "UTC"
    #: The Focus levels students move between; ``focus_level_pinned`` fixes one for everyone.
    focus_level_min: int = 1
    focus_level_max: int | None = None
    focus_level_pinned: int | None = None
    #: The school year whose skills Focus practice draws from (``bot.focus.school``'s ids:
    #: "cycle3", "grade6", …); None: the eight levels.
    focus_school_year: str | None = None
    #: The 20 Digits match defaults: starting lives, base gold per round, rounds, the draft variant
    #: (the engine's ``MatchSettings`` lives, base_gold, rounds, draft).
    match_lives: int = 10
    match_gold: int = 5
    match_rounds: int = 15
    match_draft: bool = False
    #: Rithmomachia victories offered by default (the engine's JSON); None: the engine's default.
    rithmo_victories: Any = None
    #: Time a player has for a move (Rithmomachia) or a round's turn (The 20 Digits).
    move_time_limit_s: int = 86400
    #: How long answers and finished games are kept (``bot.play.retention``): this many days,
    #: or until the day after ``retention_until`` (the end of the school year, a local date);
    #: both None: for ever. A new server keeps 365 days; migration 17 left the servers already
    #: there at for ever, until a teacher chooses.
    retention_days: int | None = 365
    retention_until: date | None = None
    #: Roles whose members may change these settings, besides those with Manage Server.
    admin_role_ids: frozenset[int] = field(default_factory=frozenset)
    #: Moved on by every change (``update``, ``set_admin_roles``): a process keeping these in
    #: memory compares it (``versions``) to know another process changed them.
    version: int = field(default=0, compare=False)

    def may_manage(self, role_ids: Iterable[int]) -> bool:
        """Whether a member with these roles is one of the settings' managers by role."""
        return not self.admin_role_ids.isdisjoint(role_ids)

    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


#: The settings a teacher may change with ``update``; ``admin_role_ids`` has its own method.
EDITABLE = tuple(
    f.name for f in fields(ServerSettings)
    if f.name not in ("guild_id", "admin_role_ids", "version")
)


def _invalid(name: str, value: Any, why: str) -> DomainError:
    return DomainError(
        "settings.invalid", f"{name} cannot be {value!r}: {why}", setting=name, value=value
    )


def _check(settings: ServerSettings) -> None:
    s = settings
    if s.language is not None and s.language not in LANGUAGES:
        raise _invalid("language", s.language, "it is 'en', 'fr' or none")
    if not (isinstance(s.daily_hour, int) and 0 <= s.daily_hour <= 23):
        raise _invalid("daily_hour", s.daily_hour, "an hour is 0 to 23")
    try:
        ZoneInfo(s.timezone)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise _invalid("timezone", s.timezone, "not a known time zone") from None
    for name in ("focus_level_min", "focus_level_max", "focus_level_pinned"):
        value = getattr(s, name)
        if value is not None and not (isinstance(value, int) and value >= 1):
            raise _invalid(name, value, "a level is a whole number from 1")
    if s.focus_school_year is not None and not (
            isinstance(s.focus_school_year, str) and 0 < len(s.focus_school_year) <= 20):
        raise _invalid("focus_school_year", s.focus_school_year, "a school year's id")
    if s.focus_level_max is not None and s.focus_level_max < s.focus_level_min:
        raise _invalid("focus_level_max", s.focus_level_max, "below the lowest level")
    if not (isinstance(s.match_lives, int) and 1 <= s.match_lives <= 99):
        raise _invalid("match_lives", s.match_lives, "lives are 1 to 99")
    if not (isinstance(s.match_gold, int) and 0 <= s.match_gold <= 99):
        raise _invalid("match_gold", s.match_gold, "gold is 0 to 99")
    if not (isinstance(s.match_rounds, int) and 1 <= s.match_rounds <= 99):
        raise _invalid("match_rounds", s.match_rounds, "rounds are 1 to 99")
    if not isinstance(s.match_draft, bool):
        raise _invalid("match_draft", s.match_draft, "true or false")
    if not (isinstance(s.move_time_limit_s, int) and 60 <= s.move_time_limit_s <= 30 * 86400):
        raise _invalid("move_time_limit_s", s.move_time_limit_s, "one minute to 30 days")
    if s.retention_days is not None and not (
            isinstance(s.retention_days, int) and 7 <= s.retention_days <= 3650):
        raise _invalid("retention_days", s.retention_days, "7 to 3650 days, or none")
    if s.retention_until is not None and not isinstance(s.retention_until, date):
        raise _invalid("retention_until", s.retention_until, "a date, or none")
    if s.retention_days is not None and s.retention_until is not None:
        raise _invalid("retention_until", s.retention_until, "a number of days is set")
    try:
        dumps(s.rithmo_victories)
    except (TypeError, ValueError):
        raise _invalid("rithmo_victories", s.rithmo_victories, "not JSON data") from None


_COLUMNS = (
    "language, daily_channel_id, daily_hour, timezone, focus_level_min, focus_level_max,"
    " focus_level_pinned, match_lives, match_gold, match_rounds, match_draft, rithmo_victories,"
    " move_time_limit_s, settings_version, focus_school_year, retention_days, retention_until"
)
#: ``get``'s one statement, not two: every command reads the settings, and each statement is a
#: hop to the database's thread. A row a role (one row, its role NULL, without any).
_GET = (f"SELECT {_COLUMNS}, r.role_id AS admin_role_id FROM servers"
        " LEFT JOIN server_admin_roles r ON r.guild_id = servers.guild_id"
        " WHERE servers.guild_id = ?")
#: How many servers one ``versions`` statement asks about (SQLite's variables are many more).
_VERSION_BATCH = 500


#: How long a server's settings read from the database are kept in memory (seconds): every
#: command and every Focus round reads them, and they change a few times a term. A change made
#: through this repository is seen at once; one made by another process (the command line, a
#: second bot process) within this time, or sooner when the bot's watch asks ``versions`` (every
#: 5 s, ``bot.app.SETTINGS_CHECK_S``) and finds the version moved. The server languages'
#: memory (``bot.i18n.Languages``) has the same rule.
SETTINGS_KEPT_S = 5.0


class ServersRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        #: guild id → (the settings, when they were read: ``time.monotonic``).
        self._kept: dict[int, tuple[ServerSettings, float]] = {}
        #: guild id → how many changes of its settings are under way in this process: a read
        #: that overlaps one may see the settings before it and is not kept.
        self._changing: dict[int, int] = {}
        #: Moved on by every change: a read that started before one is not kept either.
        self._changes = 0

    async def ensure(self, guild_id: int, now: datetime | None = None) -> None:
        """Make sure the server has a row (with default settings)."""
        stamp = to_db_time(utc(now))
        await self._conn.run(
            "INSERT INTO servers (guild_id, created_at, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO NOTHING",
            (guild_id, stamp, stamp),
        )

    def kept(self, guild_id: int) -> ServerSettings | None:
        """The server's settings as this process keeps them (``SETTINGS_KEPT_S``), or None when
        they must be read: ``get`` without the database. Never inside a transaction, which
        reads what it wrote."""
        if self._conn.in_transaction:
            return None
        found = self._kept.get(guild_id)
        if found is None:
            return None
        if time.monotonic() - found[1] > SETTINGS_KEPT_S:
            del self._kept[guild_id]
            return None
        return found[0]

    def reading(self, guild_id: int
                ) -> tuple[tuple[str, tuple[int]], Callable[[list[Row]], ServerSettings]]:
        """``get``'s statement, to be asked with others (``Connection.reads``), and the
        function that makes its rows the settings (and keeps them, as ``get`` does)."""
        changes, began = self._changes, time.monotonic()

        def settings(rows: list[Row]) -> ServerSettings:
            found = self._from_rows(guild_id, rows)
            self._keep(found, changes, began)
            return found

        return (_GET, (guild_id,)), settings

    async def get(self, guild_id: int) -> ServerSettings:
        """The server's settings (the defaults for a server never seen)."""
        kept = self.kept(guild_id)
        if kept is not None:
            return kept
        statement, settings = self.reading(guild_id)
        return settings(await self._conn.all(*statement))

    @staticmethod
    def _from_rows(guild_id: int, rows: list[Row]) -> ServerSettings:
        if not rows:
            return ServerSettings(guild_id)
        roles = frozenset(r["admin_role_id"] for r in rows if r["admin_role_id"] is not None)
        return _settings(guild_id, rows[0], roles)

    def _keep(self, settings: ServerSettings, changes: int, began: float) -> None:
        # Not what a transaction read (it may roll back), nor a read that a change of this
        # process overlapped (it may be the settings from before it).
        if (self._conn.in_transaction or changes != self._changes
                or self._changing.get(settings.guild_id)):
            return
        self._kept[settings.guild_id] = (settings, began)

    def forget(self, guild_id: int | None = None) -> None:
        """Read the server's settings (every server's: None) from the database next time."""
        if guild_id is None:
            self._kept.clear()
        else:
            self._kept.pop(guild_id, None)

    @asynccontextmanager
    async def _change(self, guild_id: int) -> AsyncIterator[None]:
        """A change of the server's settings: forgotten before and after it (after it is
        committed, when it is its own transaction)."""
        self._changes += 1
        self._changing[guild_id] = self._changing.get(guild_id, 0) + 1
        self.forget(guild_id)
        try:
            yield
        finally:
            self._changes += 1
            left = self._changing[guild_id] - 1
            if left:
                self._changing[guild_id] = left
            else:
                del self._changing[guild_id]
            self.forget(guild_id)

    async def all_with_daily(self) -> list[ServerSettings]:
        """Every server with a daily challenge channel."""
        rows = await self._conn.all(
            f"SELECT guild_id, {_COLUMNS} FROM servers WHERE daily_channel_id IS NOT NULL"
            " ORDER BY guild_id"
        )
        return [_settings(row["guild_id"], row, frozenset()) for row in rows]

    async def with_retention(self) -> list[ServerSettings]:
        """Every server that keeps its answers for a time (a number of days or a school year's
        end), for the daily erasure."""
        rows = await self._conn.all(
            f"SELECT guild_id, {_COLUMNS} FROM servers"
            " WHERE retention_days IS NOT NULL OR retention_until IS NOT NULL ORDER BY guild_id"
        )
        return [_settings(row["guild_id"], row, frozenset()) for row in rows]

    async def update(
        self, guild_id: int, now: datetime | None = None, **changes: Any
    ) -> ServerSettings:
        """Change some settings; every value is checked first, and nothing changes if one is wrong.

        Raises ``DomainError("settings.unknown")`` for a name that is not a setting and
        ``DomainError("settings.invalid")`` for a value out of range.
        """
        for name in changes:
            if name not in EDITABLE:
                raise DomainError("settings.unknown", f"no setting named {name!r}", setting=name)
        async with self._change(guild_id), self._conn.atomic():
            current = await self.get(guild_id)
            new = replace(current, **changes)
            _check(new)
            await self.ensure(guild_id, now)
            values = [getattr(new, name) for name in EDITABLE]
            values[EDITABLE.index("rithmo_victories")] = (
                None if new.rithmo_victories is None else dumps(new.rithmo_victories)
            )
            values[EDITABLE.index("retention_until")] = (
                None if new.retention_until is None else new.retention_until.isoformat())
            assignments = ", ".join(f"{name} = ?" for name in EDITABLE)
            await self._conn.run(
                f"UPDATE servers SET {assignments}, updated_at = ?,"
                " settings_version = settings_version + 1 WHERE guild_id = ?",
                (*values, to_db_time(utc(now)), guild_id),
            )
        return replace(new, version=current.version + 1)

    async def set_admin_roles(self, guild_id: int, role_ids: Iterable[int]) -> ServerSettings:
        """Replace the roles allowed to change the settings."""
        roles = sorted(set(role_ids))
        async with self._change(guild_id), self._conn.atomic():
            await self.ensure(guild_id)
            await self._conn.run("DELETE FROM server_admin_roles WHERE guild_id = ?", (guild_id,))
            await self._conn.many(
                "INSERT INTO server_admin_roles (guild_id, role_id) VALUES (?, ?)",
                [(guild_id, role) for role in roles],
            )
            await self._conn.run(
                "UPDATE servers SET settings_version = settings_version + 1 WHERE guild_id = ?",
                (guild_id,),
            )
            return await self.get(guild_id)

    async def versions(self, guild_ids: Iterable[int]) -> dict[int, int]:
        """The settings version of each of these servers (0 for one never configured): a read
        by key, so that a process may ask every few seconds about every server it keeps."""
        ids = list(dict.fromkeys(guild_ids))
        found = dict.fromkeys(ids, 0)
        for start in range(0, len(ids), _VERSION_BATCH):
            batch = ids[start:start + _VERSION_BATCH]
            rows = await self._conn.all(
                "SELECT guild_id, settings_version FROM servers WHERE guild_id IN"
                f" ({', '.join('?' * len(batch))})", batch)
            found.update((row[0], row[1]) for row in rows)
        for guild_id, version in found.items():
            kept = self._kept.get(guild_id)
            if kept is not None and kept[0].version != version:
                del self._kept[guild_id]  # changed by another process
        return found


def _settings(guild_id: int, row: Row, roles: frozenset[int]) -> ServerSettings:
    victories, until = row["rithmo_victories"], row["retention_until"]
    return ServerSettings(
        guild_id=guild_id,
        language=row["language"],
        daily_channel_id=row["daily_channel_id"],
        daily_hour=row["daily_hour"],
        timezone=row["timezone"],
        focus_level_min=row["focus_level_min"],
        focus_level_max=row["focus_level_max"],
        focus_level_pinned=row["focus_level_pinned"],
        match_lives=row["match_lives"],
        match_gold=row["match_gold"],
        match_rounds=row["match_rounds"],
        match_draft=bool(row["match_draft"]),
        rithmo_victories=None if victories is None else json.loads(victories),
        move_time_limit_s=row["move_time_limit_s"],
        focus_school_year=row["focus_school_year"],
        retention_days=row["retention_days"],
        retention_until=None if until is None else date.fromisoformat(until),
        admin_role_ids=roles,
        version=row["settings_version"],
    )
