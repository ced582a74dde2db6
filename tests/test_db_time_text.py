"""The database's time text read back (``db.core.from_db_time``) is the moment written, to the
millisecond, in UTC, whatever the time zone it was given in."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as hs

from db.connection import db_time, from_db_time, to_db_time

PARIS_WINTER = timezone(timedelta(hours=1))


@settings(max_examples=200)
@given(moment=hs.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1),
                           timezones=hs.sampled_from([UTC, PARIS_WINTER])))
def test_a_time_written_reads_back_to_the_millisecond_in_utc(moment: datetime) -> None:
    read = from_db_time(to_db_time(moment))
    assert read is not None and read.tzinfo is UTC
    assert read == moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def test_a_stored_text_reads_as_that_utc_moment() -> None:
    assert db_time("2026-11-30 04:05:06.789") == datetime(2026, 11, 30, 4, 5, 6, 789000,
                                                          tzinfo=UTC)
    assert from_db_time(None) is None
