"""The classroom's clock and seed for tests that play homework through the bot (assignments,
their reminders and goals, ``/focus homework``, the weekly digest), and waiting for a post."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

import pytest

from bot.flows.classroom import ClassroomFlow


class Moment:
    """The classroom flow's clock (``assign_now``), for every bot of the test, restarted ones
    included."""

    def __init__(self, now: datetime) -> None:
        self.now = now


def classroom_clock(monkeypatch: pytest.MonkeyPatch, now: datetime, seed: int = 11) -> Moment:
    """Set every classroom flow's clock to a ``Moment`` starting at ``now`` and its seed to
    ``seed``; the tests close the posts themselves (no background closing)."""
    clock = Moment(now)
    monkeypatch.setattr(ClassroomFlow, "assign_now", lambda self: clock.now)
    monkeypatch.setattr(ClassroomFlow, "assign_seed", lambda self: seed)
    monkeypatch.setattr(ClassroomFlow, "assign_autoclose", False)
    return clock


async def posted(bot: Any, standin: Any, name: str) -> Any:
    """The assignment ``name`` once the bot has stored where it was posted."""
    for _ in range(250):
        found = await bot.db.assignments.get(standin.guild.id, name)
        if found is not None and found.message_id is not None:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError(f"{name!r} was not posted")
