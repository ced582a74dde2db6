"""The class report's figures: per student and topic over a period, read from the rollups.

``focus_rollup`` (migration 11) keeps per quarter of an hour (UTC), member and topic the number
of answers, of right ones, and a histogram of their times in the spans of ``EDGES_MS``;
``focus_rollup_total`` the same for all time. Triggers on ``focus_answers`` keep both right in
each answer's own transaction. The report sums a few rows per student instead of reading every
answer (a million on a large server over a term), and gives the median time from the summed
histogram (see ``Tally.median_ms``): exact to the span, which is one second below eight seconds,
interpolated within it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from bot.focus.exact import WHOLE, Exact, parse_exact
from db.connection import Connection, to_db_time, utc

#: The upper edges (ms, excluded) of the time spans t0..t14; t15 is 60 s and more. The same as
#: the CASE of db/migrations/0011_class_report.sql.
EDGES_MS: tuple[int, ...] = (1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 10000, 12000,
                             15000, 20000, 30000, 45000, 60000)
#: Where the median is placed in the last, open span (60 s and more): at most the longest
#: time limit of a live round (5 minutes).
LAST_EDGE_MS = 300_000
SPANS = len(EDGES_MS) + 1
SLOT_SECONDS = 900  # a quarter of an hour


def slot_of(moment: datetime) -> int:
    """The rollup's slot of a moment: quarter hours since 1970 (UTC)."""
    return int(utc(moment).timestamp()) // SLOT_SECONDS


def span_of(time_ms: int) -> int:
    """The histogram span of one answer's time (as the migration's CASE)."""
    for index, edge in enumerate(EDGES_MS):
        if time_ms < edge:
            return index
    return SPANS - 1


@dataclass(frozen=True)
class Tally:
    """Answers of one student (or the class) in one topic: how many, how many right, and how
    many in each time span."""

    answers: int
    correct: int
    spans: tuple[int, ...]

    @classmethod
    def empty(cls) -> Tally:
        return cls(0, 0, (0,) * SPANS)

    def __add__(self, other: Tally) -> Tally:
        return Tally.total((self, other))

    def __sub__(self, other: Tally) -> Tally:
        return Tally(self.answers - other.answers, self.correct - other.correct,
                     tuple(a - b for a, b in zip(self.spans, other.spans, strict=True)))

    @classmethod
    def total(cls, tallies: Iterable[Tally]) -> Tally:
        """The sum of several tallies (a student's topics, a topic's students), added column
        by column in one pass (a class of a thousand is summed often)."""
        given = list(tallies)
        if not given:
            return cls.empty()
        return cls(sum(t.answers for t in given), sum(t.correct for t in given),
                   tuple(map(sum, zip(*(t.spans for t in given), strict=True))))

    @property
    def accuracy(self) -> float:
        return self.correct / self.answers if self.answers else 0.0

    @property
    def median_ms(self) -> float | None:
        """The median time, from the histogram: the span holding the middle answer, and within
        it a straight line between its edges (the grouped median). None without answers."""
        if self.answers <= 0:
            return None
        half = self.answers / 2
        below = 0
        for index, count in enumerate(self.spans):
            if count and below + count >= half:
                low = EDGES_MS[index - 1] if index else 0
                high = EDGES_MS[index] if index < len(EDGES_MS) else LAST_EDGE_MS
                return low + (high - low) * (half - below) / count
            below += count
        return float(LAST_EDGE_MS)  # not reached: the spans add up to the answers


def tally_of_times(times_ms: Iterable[int], correct: int = 0) -> Tally:
    """The tally of answers with these times (tests and tools: what the rollup should hold)."""
    spans = [0] * SPANS
    answers = 0
    for time_ms in times_ms:
        spans[span_of(time_ms)] += 1
        answers += 1
    return Tally(answers, correct, tuple(spans))


@dataclass(frozen=True)
class StudentTally:
    user_id: int
    topic: str
    tally: Tally


@dataclass(frozen=True)
class StoredAnswer:
    """One stored answer as the question-level report reads it."""

    user_id: int
    question: str
    skill: str  # the question's skill (its topic for the eight levels' and teachers' questions)
    form: str
    expected: Exact
    given: Exact | None
    correct: bool
    time_ms: int
    answered_at: str  # as stored (UTC text): sorts as time does


#: At most this many answers are read for the question-level part of ``/class report``: the
#: latest of the period (a term of a large server holds a million; a teacher acts on this
#: month's mistakes, and 20,000 answers are the last weeks of a class of 30 many times over).
RECENT_ANSWERS = 20_000


_SUMS = ", ".join(f"sum(t{i})" for i in range(SPANS))
_COLUMNS = ", ".join(f"t{i}" for i in range(SPANS))


class ClassReportRepository:
    """Reads of ``focus_rollup`` (per quarter hour) and ``focus_rollup_total`` (all time), which
    the triggers of migration 11 write."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    async def tallies(self, guild_id: int, *, since: datetime | None = None,
                      topic: str | None = None) -> list[StudentTally]:
        """Every student's tally per topic since ``since`` (rounded down to a quarter hour,
        where every time zone's midnight falls; None: all time), by user id then topic.

        All time is one row per student and topic (``focus_rollup_total``). A period sums its
        quarter hours' rows, or, when fewer of the server's quarter hours lie before ``since``
        than after (a term on a server a few months old), takes all time minus those before:
        either way at most about half of the rows are read, and the figures are exact."""
        where = "guild_id = ?"
        params: list[object] = [guild_id]
        if topic is not None:
            where, params = where + " AND topic = ?", [guild_id, topic]
        if since is None:
            return await self._totals(where, params)
        start = slot_of(since)
        span = await self._conn.one(
            "SELECT min(slot), max(slot) FROM focus_rollup WHERE guild_id = ?", (guild_id,))
        if span is None or span[0] is None or start <= span[0]:
            return await self._totals(where, params)
        if start - span[0] >= span[1] - start:
            return await self._sums(where + " AND slot >= ?", [*params, start])
        # All time minus the quarter hours before, subtracted in SQL (one set of rows to read).
        left = ", ".join(f"t.t{i} - coalesce(b.t{i}, 0)" for i in range(SPANS))
        before = ", ".join(f"sum(t{i}) AS t{i}" for i in range(SPANS))
        rows = await self._conn.all(
            f"SELECT t.user_id, t.topic, t.answers - coalesce(b.answers, 0),"
            f" t.correct - coalesce(b.correct, 0), {left} FROM focus_rollup_total t"
            f" LEFT JOIN (SELECT user_id, topic, sum(answers) AS answers,"
            f" sum(correct) AS correct, {before} FROM focus_rollup"
            f" WHERE {where} AND slot < ? GROUP BY user_id, topic) b USING (user_id, topic)"
            f" WHERE t.guild_id = ?{' AND t.topic = ?' if topic is not None else ''}"
            " AND t.answers - coalesce(b.answers, 0) > 0 ORDER BY t.user_id, t.topic",
            [*params, start, *params])
        return [StudentTally(row[0], row[1], Tally(row[2], row[3], tuple(row[4:])))
                for row in rows]

    async def _sums(self, where: str, params: list[object]) -> list[StudentTally]:
        rows = await self._conn.all(
            f"SELECT user_id, topic, sum(answers), sum(correct), {_SUMS} FROM focus_rollup"
            f" WHERE {where} GROUP BY user_id, topic ORDER BY user_id, topic", params)
        return [StudentTally(row[0], row[1], Tally(row[2], row[3], tuple(row[4:])))
                for row in rows]

    async def _totals(self, where: str, params: list[object]) -> list[StudentTally]:
        # Already one row per student and topic, in that order.
        rows = await self._conn.all(
            f"SELECT user_id, topic, answers, correct, {_COLUMNS} FROM focus_rollup_total"
            f" WHERE {where} ORDER BY user_id, topic", params)
        return [StudentTally(row[0], row[1], Tally(row[2], row[3], tuple(row[4:])))
                for row in rows]

    async def first_answers(self, guild_id: int) -> list[int]:
        """Every member who answered in the server, by their first answer (its quarter hour,
        then user id): the order of stable pseudonyms."""
        rows = await self._conn.all(
            "SELECT user_id, min(first_slot) AS first FROM focus_rollup_total"
            " WHERE guild_id = ? GROUP BY user_id ORDER BY first, user_id", (guild_id,))
        return [row[0] for row in rows]

    async def topics(self, guild_id: int) -> list[str]:
        """The topics the server's answers have, alphabetically."""
        rows = await self._conn.all(
            "SELECT DISTINCT topic FROM focus_rollup_total WHERE guild_id = ? ORDER BY topic",
            (guild_id,))
        return [row[0] for row in rows]

    async def recent_answers(self, guild_id: int, *, since: datetime | None = None,
                             topic: str | None = None, user_id: int | None = None,
                             limit: int = RECENT_ANSWERS) -> list[StoredAnswer]:
        """The latest ``limit`` answers of the server since ``since`` (None: all time), in
        ``topic`` or of ``user_id`` only if given, newest first. The primary key's order is
        the order answers were stored in, walked backwards, so that only about ``limit`` rows
        of a large table are read (see the comment below)."""
        # "+guild_id": no index for it (SQLite would take the progress index's guild prefix,
        # read every answer of the server and sort them); the primary key walked backwards
        # stops after ``limit`` rows (4× quicker on 100,000 answers; PostgreSQL does the same).
        where, params = "+guild_id = ?", list[object]([guild_id])
        if since is not None:
            where, params = where + " AND answered_at >= ?", [*params, to_db_time(since)]
        if topic is not None:
            where, params = where + " AND topic = ?", [*params, topic]
        if user_id is not None:
            where, params = where + " AND user_id = ?", [*params, user_id]
        rows = await self._conn.all(
            "SELECT user_id, question, coalesce(skill, topic), form, expected, expected_exact,"
            " given, given_exact, correct, time_ms, answered_at FROM focus_answers"
            f" WHERE {where} ORDER BY answer_id DESC LIMIT ?", [*params, limit])
        return [StoredAnswer(row[0], row[1], row[2], row[3] or WHOLE,
                             row[4] if row[5] is None else parse_exact(row[5]),
                             row[6] if row[7] is None else parse_exact(row[7]),
                             bool(row[8]), row[9], str(row[10])) for row in rows]
