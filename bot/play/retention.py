"""How long a server keeps its members' answers and finished games (``/settings privacy``), the
daily erasure of what is older, and the end of the school year (``/class end-of-year``), without
Discord.

A server keeps them for a number of days (``DAYS``), until the end of the school year (a local
date a teacher gives: once it has passed, everything up to its end goes; what came after stays,
the next year's), or for ever. A new server keeps 365 days; the servers already there before
this version keep everything until a teacher chooses (migration 17): docs/teachers.md says why.

``db.retention`` says what "answers and finished games" are and what stays.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from bot.domain import DomainError
from bot.shards import Owner, every_server
from db import Database, ServerSettings

#: The choices of ``/settings privacy retention:``.
KINDS = ("days", "school_year", "forever")
#: A number of days kept: a week at least (a week's report needs a week), ten years at most.
DAYS = (7, 3650)
#: How far ahead the end of a school year may be: a year and a half covers any school calendar.
UNTIL_AHEAD_DAYS = 550

_ISO = re.compile(r"\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*")
_FRENCH = re.compile(r"\s*(\d{1,2})/(\d{1,2})/(\d{4})\s*")


def read_until(text: str) -> date:
    """A date as a teacher types it: 2027-07-04 or 04/07/2027 (day first, as in French)."""
    iso, french = _ISO.fullmatch(text), _FRENCH.fullmatch(text)
    try:
        if iso:
            return date(int(iso[1]), int(iso[2]), int(iso[3]))
        if french:
            return date(int(french[3]), int(french[2]), int(french[1]))
    except ValueError:
        pass
    raise DomainError("settings.retention.bad_date", f"{text!r} is not a date",
                      value=text[:40])


def check_retention(kind: str, days: int | None, until: str | None, today: date
                    ) -> dict[str, Any]:
    """The settings of a retention choice (``kind`` one of ``KINDS``), checked: the number of
    days goes with "days" only, the date with "school_year" only, and that date is in the
    coming ``UNTIL_AHEAD_DAYS`` (one already past would erase at once what a teacher may not
    mean to)."""
    if kind not in KINDS:
        raise DomainError("settings.retention.unknown", f"no retention {kind!r}", value=kind)
    if kind == "days":
        if days is None:
            raise DomainError("settings.retention.days_missing", "days needs a number of days")
        if not DAYS[0] <= days <= DAYS[1]:
            raise DomainError("settings.retention.days_out_of_range", f"{days} days",
                              value=days, low=DAYS[0], high=DAYS[1])
    elif days is not None:
        raise DomainError("settings.retention.days_unused", "days goes with retention: days")
    if kind == "school_year":
        if until is None:
            raise DomainError("settings.retention.until_missing", "school_year needs a date")
        end = read_until(until)
        if not today < end <= today + timedelta(days=UNTIL_AHEAD_DAYS):
            raise DomainError("settings.retention.until_out_of_range", f"{end} is not ahead",
                              value=end.isoformat(), today=today.isoformat(),
                              last=(today + timedelta(days=UNTIL_AHEAD_DAYS)).isoformat())
        return {"retention_days": None, "retention_until": end}
    if until is not None:
        raise DomainError("settings.retention.until_unused",
                          "until goes with retention: school_year")
    return {"retention_days": days, "retention_until": None}


def after_day(day: date, zone: ZoneInfo) -> datetime:
    """The first moment after the local ``day`` ends."""
    return datetime.combine(day + timedelta(days=1), time(), zone)


def cutoff(settings: ServerSettings, now: datetime) -> datetime | None:
    """What is older than this moment goes now (None: nothing goes): ``retention_days`` before
    ``now``, or the end of the school year's last day once that day has passed."""
    if settings.retention_until is not None:
        today = now.astimezone(settings.tz()).date()
        if today <= settings.retention_until:
            return None
        return after_day(settings.retention_until, settings.tz())
    if settings.retention_days is not None:
        return now - timedelta(days=settings.retention_days)
    return None


@dataclass(frozen=True)
class Purged:
    guild_id: int
    before: datetime
    counts: dict[str, int]
    #: The end of the school year that has just passed, when this caller is the one to tell the
    #: teachers (once per date, whichever process erased first).
    told: date | None = None


async def purge_due(db: Database, now: datetime, owns: Owner = every_server) -> list[Purged]:
    """Erase, in every server of this process with a retention, what is older than it."""
    done = []
    for settings in await db.servers.with_retention():
        before = cutoff(settings, now)
        if before is None or not owns(settings.guild_id):
            continue
        counts = await db.retention.purge(settings.guild_id, before)
        told = None
        until = settings.retention_until
        if until is not None and await db.retention.claim_told(settings.guild_id, until):
            told = until
        done.append(Purged(settings.guild_id, before, counts, told))
    return done


# --- The end of the school year --------------------------------------------------------------


async def members(db: Database, guild_id: int) -> list[int]:
    """Every member the server holds data of (the caller keeps the students among them)."""
    return await db.retention.members(guild_id)


async def exports(db: Database, guild_id: int, user_ids: Iterable[int]
                  ) -> list[tuple[int, dict[str, Any]]]:
    """Each member's ``export-player`` data (``db.export``), in the order given; one erased
    meanwhile (another teacher's end of the year, the command line) has nothing left to give."""
    found = []
    for uid in user_ids:
        try:
            found.append((uid, await db.export_player(guild_id, uid)))
        except DomainError as error:
            if error.code != "db.not_found":
                raise
    return found


def export_json(data: dict[str, Any]) -> bytes:
    """An export as ``python -m db export-player`` writes it."""
    return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def archive(files: Sequence[tuple[str, bytes]]) -> bytes:
    """One zip file of these (name, content), compressed."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as bundle:
        for name, content in files:
            bundle.writestr(name, content)
    return out.getvalue()


async def erase(db: Database, guild_id: int, user_ids: Iterable[int]) -> dict[str, int]:
    """Forget these members of the server (``db.export``'s erasure of each); the rows removed or
    changed, per table, summed."""
    total: dict[str, int] = {}
    for uid in user_ids:
        try:
            counts = await db.delete_player(guild_id, uid)
        except DomainError as error:
            if error.code != "db.not_found":
                raise
            continue  # erased meanwhile (the command line, a second click): nothing left
        for table, count in counts.items():
            total[table] = total.get(table, 0) + count
    return total
