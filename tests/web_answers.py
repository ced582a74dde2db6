"""Answers of a browser student stored as the web pages store them (``bot.play.focus``'s
``record_answer``, the same use case as a member's), for the teachers' reports tests."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.play.focus import record_answer
from db import Database, FocusAnswer


async def store_answers(db: Database, guild_id: int, user_id: int, now: datetime, *,
                        right: int = 3, wrong: int = 1, source: str = "practice",
                        round_key: str | None = None) -> None:
    """``right`` right answers then ``wrong`` wrong ones to "6 × 7" (multiplication, level 2),
    a few seconds apart, ending a minute before ``now``."""
    count = right + wrong
    for n in range(count):
        await record_answer(db, FocusAnswer(
            guild_id, user_id, "multiplication", 2, "6 × 7", 42, 42 if n < right else 41,
            3000 + 100 * n, source=source,
            answered_at=now - timedelta(seconds=60 + 5 * (count - n)),
            round_key=round_key, question_no=None if round_key is None else n))
