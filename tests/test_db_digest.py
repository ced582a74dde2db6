"""The weekly digest's storage (on both engines): set, changed, turned off, and each day
claimed once (and given back when Discord refused the post)."""

from __future__ import annotations

from datetime import date

import pytest

from db import Database

G = 10


async def test_a_digest_is_set_changed_claimed_once_and_turned_off(db: Database) -> None:
    assert await db.digests.get(G) is None
    made = await db.digests.save(G, 5, 4, 17, False)
    assert (made.channel_id, made.weekday, made.hour, made.pseudonym) == (5, 4, 17, False)
    friday, next_friday = date(2026, 12, 4), date(2026, 12, 11)
    assert await db.digests.claim(G, friday)
    assert not await db.digests.claim(G, friday)
    changed = await db.digests.save(G, 6, 4, 18, True)
    assert (changed.channel_id, changed.hour, changed.pseudonym, changed.posted_for) == (
        6, 18, True, friday)  # changing the hour on its day does not post it twice
    assert not await db.digests.claim(G, friday)
    assert await db.digests.claim(G, next_friday)
    await db.digests.release(G, next_friday, friday)
    assert (await db.digests.get(G)).posted_for == friday
    assert [d.guild_id for d in await db.digests.every()] == [G]
    assert await db.digests.delete(G) and await db.digests.get(G) is None


async def test_a_day_or_hour_out_of_range_is_refused(db: Database) -> None:
    with pytest.raises(ValueError):
        await db.digests.save(G, 5, 7, 17, False)
