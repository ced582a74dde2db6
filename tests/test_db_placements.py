"""Placement's storage (migration 21): one row per member, started, moved on at its version
only, finished with the level set as the member's Focus level in the same transaction, skipped;
what the offer reads in one hop."""

from __future__ import annotations

from datetime import UTC, datetime

from db import Database
from db.focus import FocusAnswer

G, U = 10, 20
NOW = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
STATE = {"format": 1, "low": 1, "high": 8, "start": 4, "steps": [], "questions": []}


async def test_a_placement_moves_on_at_its_version_only_and_sets_the_level(db: Database
                                                                           ) -> None:
    assert await db.placements.get(G, U) is None
    version = await db.placements.start(G, U, STATE, "placement:a", NOW)
    row = await db.placements.get(G, U)
    assert row is not None
    assert (row.status, row.state, row.round_key, row.version) == (
        "running", STATE, "placement:a", version)
    assert row.started_at == NOW and row.finished_at is None
    moved = {**STATE, "steps": [{"level": 4, "correct": True}]}
    assert not await db.placements.save(G, U, moved, version + 1, NOW)  # a stale window
    assert await db.placements.save(G, U, moved, version, NOW)
    assert not await db.placements.save(G, U, moved, version, NOW)  # the same twice
    assert await db.placements.save(G, U, moved, version + 1, NOW, level=5)
    row = await db.placements.get(G, U)
    assert row is not None
    assert (row.status, row.level, row.finished_at) == ("finished", 5, NOW)
    player = await db.players.get(G, U)
    assert player is not None and player.focus_level == 5
    # A skip leaves a finished placement as it is.
    await db.placements.skip(G, U, NOW)
    assert (await db.placements.get(G, U)).status == "finished"  # type: ignore[union-attr]
    # Taken again: a new running one, the level chosen forgotten until it ends.
    await db.placements.start(G, U, STATE, "placement:b", NOW)
    row = await db.placements.get(G, U)
    assert row is not None and (row.status, row.level, row.round_key) == (
        "running", None, "placement:b")


async def test_skipping_and_what_the_offer_reads(db: Database) -> None:
    offer = await db.placements.for_offer(G, U)
    assert (offer.row, offer.answered, offer.pinned, offer.school_year) == (
        None, False, None, None)
    await db.placements.skip(G, U, NOW)
    offer = await db.placements.for_offer(G, U)
    assert offer.row is not None and offer.row.status == "skipped"
    await db.focus.record(FocusAnswer(guild_id=G, user_id=U, topic="addition", level=1,
                                      question="1 + 1", expected=2, given=2, time_ms=900))
    assert (await db.placements.for_offer(G, U)).answered
    # A running one ends skipped; its state goes.
    version = await db.placements.start(G, U + 1, STATE, "placement:c", NOW)
    await db.placements.skip(G, U + 1, NOW)
    row = await db.placements.get(G, U + 1)
    assert row is not None and (row.status, row.state) == ("skipped", None)
    assert not await db.placements.save(G, U + 1, STATE, version + 1, NOW, level=3)
    assert [r.user_id for r in await db.placements.of_server(G)] == [U, U + 1]


async def test_a_placement_goes_with_the_answers_when_older_than_the_retention(db: Database
                                                                              ) -> None:
    # Its state holds the questions and answers: the daily erasure takes it by its last change.
    await db.placements.start(G, U, STATE, "placement:old", NOW)
    await db.placements.skip(G, U + 1, NOW)
    later = NOW.replace(day=20)
    await db.placements.start(G, U + 2, STATE, "placement:new", later)
    counts = await db.retention.purge(G, NOW.replace(day=10))
    assert counts["focus_placements"] == 2
    assert await db.placements.get(G, U) is None and await db.placements.get(G, U + 1) is None
    assert await db.placements.get(G, U + 2) is not None
    # Another server's placement is not touched.
    await db.placements.start(G + 1, U, STATE, "placement:x", NOW)
    assert (await db.retention.purge(G, NOW.replace(day=10)))["focus_placements"] == 0
    assert await db.placements.get(G + 1, U) is not None
