"""The 20 Digits' shop clock: when a round's turn opens, its deadline.

The server's time for a move (``ServerSettings.move_time_limit_s``, ``/settings rithmo
move_time_limit_hours``) is the time a player has for a round's turn (its Focus and its shop).
``bot.play.digits.store`` asks :func:`turn_deadline` before each save: when the save opens a new
round of an active match, the match's ``deadline`` column becomes now + the limit (which clears
``warned_at``); ``bot.play.digits_leave`` warns before it and ends the turns still open at it.

The stored state keeps ``"clock": {"round": r}``, the round whose deadline is set, so that only
the save that opens a round sets it (a Focus answer or a purchase later in the round does not).
No Discord, no engine: the state's dict and the database only (``bot.play.digits`` imports it).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from db import UNSET, Database
from db.games import _Unset

#: The state's key of the clock's own bits.
CLOCK_KEY = "clock"


def utcnow() -> datetime:
    """Now, in UTC (the use cases take ``now`` as a parameter where a test replaces it)."""
    return datetime.now(UTC)


async def limit_s(db: Database, guild_id: int) -> int:
    """The server's time for a turn, in seconds."""
    return (await db.servers.get(guild_id)).move_time_limit_s


async def open_clock(db: Database, guild_id: int, state: dict[str, Any], round_: int,
                     now: datetime | None = None) -> datetime:
    """Start the clock of ``round_`` in ``state`` (a match being created active): its deadline."""
    state[CLOCK_KEY] = {**state.get(CLOCK_KEY, {}), "round": round_}
    return (now or utcnow()) + timedelta(seconds=await limit_s(db, guild_id))


async def turn_deadline(db: Database, guild_id: int, status: str, round_: int, over: bool,
                        extra: dict[str, Any], now: datetime | None = None
                        ) -> datetime | _Unset:
    """The deadline a save writes: a new one when the match is active and its round ``round_``
    has no clock yet (``extra`` is the state's keys kept beside the engine's, changed here),
    else ``UNSET`` (the column stays as it is)."""
    clock = extra.get(CLOCK_KEY) or {}
    if status != "active" or over or clock.get("round") == round_:
        return UNSET
    extra[CLOCK_KEY] = {**clock, "round": round_}
    return (now or utcnow()) + timedelta(seconds=await limit_s(db, guild_id))
