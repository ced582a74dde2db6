"""db.focus_live: the live Focus rounds' state between clicks, saved with a version check."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.domain import DomainError
from db import Database, StaleVersion

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


async def test_a_new_live_round_is_active_at_version_one_with_its_state(db: Database) -> None:
    row = await db.focus_live.create(7, 70, 700, {"round": {"index": 0}}, now=T0)
    assert (row.guild_id, row.channel_id, row.teacher_id) == (7, 70, 700)
    assert (row.status, row.version, row.state) == ("active", 1, {"round": {"index": 0}})
    assert row.created_at == T0
    assert await db.focus_live.get(row.live_id) == row


async def test_saving_moves_the_version_on_and_may_finish_the_round(db: Database) -> None:
    row = await db.focus_live.create(7, 70, 700, {"n": 0})
    assert await db.focus_live.save(row.live_id, {"n": 1}, 1) == 2
    assert await db.focus_live.save(row.live_id, {}, 2, status="finished") == 3
    saved = await db.focus_live.require(row.live_id)
    assert (saved.state, saved.status, saved.version) == ({}, "finished", 3)


async def test_a_save_from_a_stale_version_is_refused_and_changes_nothing(db: Database) -> None:
    row = await db.focus_live.create(7, 70, 700, {"n": 0})
    await db.focus_live.save(row.live_id, {"n": 1}, 1)
    with pytest.raises(StaleVersion) as refused:
        await db.focus_live.save(row.live_id, {"n": 99}, 1)
    assert refused.value.params["actual"] == 2
    assert (await db.focus_live.require(row.live_id)).state == {"n": 1}


async def test_a_missing_live_round_is_not_found(db: Database) -> None:
    assert await db.focus_live.get(12345) is None
    with pytest.raises(DomainError) as missing:
        await db.focus_live.save(12345, {}, 1)
    assert missing.value.code == "db.not_found"
    with pytest.raises(ValueError):
        await db.focus_live.save(12345, {}, 1, status="paused")


async def test_the_running_rounds_are_listed_for_their_timers(db: Database) -> None:
    first = await db.focus_live.create(7, 70, 700, {"n": 0})
    done = await db.focus_live.create(7, 70, 700, {"n": 0})
    other = await db.focus_live.create(8, 80, 800, {"n": 0})
    await db.focus_live.save(done.live_id, {}, 1, status="finished")
    assert [r.live_id for r in await db.focus_live.active()] == [first.live_id, other.live_id]


async def test_a_rounds_answers_are_read_for_every_member(db: Database) -> None:
    from db import FocusAnswer

    def given(user: int, key: str, number: int) -> FocusAnswer:
        return FocusAnswer(guild_id=7, user_id=user, topic="addition", level=1, question="1 + 1",
                           expected=2, given=2, time_ms=1000, source="live", round_key=key,
                           question_no=number)

    for answer in (given(2, "live:1", 1), given(1, "live:1", 0), given(2, "live:1", 0),
                   given(1, "live:2", 0)):
        await db.focus.record(answer, now=T0)
    found = await db.focus.answers_of_round(7, "live:1")
    assert [(a.user_id, a.question_no) for a in found] == [(1, 0), (2, 0), (2, 1)]
    assert await db.focus.answers_of_round(8, "live:1") == []
