"""Focus: every answer a student gives, and their progress per topic over time."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from bot.domain import DomainError
from bot.focus.exact import WHOLE, Exact, exact_text, parse_exact
from bot.focus.mastery import Mastery
from db.connection import Connection, IntegrityError, Row, from_db_time, to_db_time, utc
from db.mastery import _LOAD, CHUNK, MasteryRepository, _item
from db.migrate import LATEST_VERSION
from db.players import _ENSURE_PLAYER, _ENSURE_SERVER, Player, PlayersRepository, _player
from db.servers import ServerSettings, ServersRepository
from db.students import StudentSettings
from db.students import _row as _student

#: Where an answer was given: a practice round, the daily challenge, a 20 Digits match, a live
#: Focus run by a teacher.
SOURCES = ("practice", "daily", "match", "live", "assignment")
PERIODS = ("day", "week", "all")


@dataclass(frozen=True)
class FocusAnswer:
    """One answer. ``given`` is None when the time ran out; ``answered_at`` defaults to now.

    ``round_key`` and ``question_no`` (both or neither) say which question of which round of the
    member it answers (e.g. ``"match:42:3"`` and 0 to 5): the database keeps one answer per
    question of a round, and a second write of it changes nothing.
    """

    guild_id: int
    user_id: int
    topic: str
    level: int
    question: str
    expected: Exact
    given: Exact | None
    time_ms: int
    source: str = "practice"
    answered_at: datetime | None = None
    round_key: str | None = None
    question_no: int | None = None
    skill: str | None = None
    form: str | None = None  # None: a whole number (bot.focus.exact's WHOLE)

    @property
    def correct(self) -> bool:
        # Derived, never stored apart from what was given: one source of truth.
        return self.given is not None and self.given == self.expected


@dataclass(frozen=True)
class ProgressRow:
    """A student's answers in one topic over one period (a day, a week starting on Monday, or
    everything when ``period`` is None)."""

    period: date | None
    topic: str
    answers: int
    correct: int
    mean_time_ms: float

    @property
    def accuracy(self) -> float:
        return self.correct / self.answers


def _whole_part(value: Exact | None) -> int | None:
    """The INTEGER column of an exact value: itself when whole, else its whole part (toward
    zero; the exact value is in the text column)."""
    return None if value is None else int(value)


def _exact_text(value: Exact | None, form: str | None) -> str | None:
    """The text column of an exact value: None when whole (the INTEGER column holds it)."""
    if value is None or isinstance(value, int):
        return None
    return exact_text(value, form or WHOLE)


def _exact(whole: int | None, text: str | None) -> Exact | None:
    return whole if text is None else parse_exact(text)


def _row(answer: FocusAnswer, now: datetime) -> tuple[object, ...]:
    if answer.source not in SOURCES:
        raise ValueError(f"unknown answer source {answer.source!r}; one of {SOURCES}")
    if answer.time_ms < 0 or answer.level < 1:
        raise ValueError(f"an answer needs a level from 1 and a time of at least 0: {answer!r}")
    if (answer.round_key is None) != (answer.question_no is None) or (
            answer.question_no is not None and answer.question_no < 0):
        raise ValueError(f"an answer's round and question number go together: {answer!r}")
    return (
        answer.guild_id,
        answer.user_id,
        to_db_time(answer.answered_at or now),
        answer.source,
        answer.topic,
        answer.level,
        answer.question,
        _whole_part(answer.expected),
        _whole_part(answer.given),
        int(answer.correct),
        answer.time_ms,
        answer.round_key,
        answer.question_no,
        None if answer.skill == answer.topic else answer.skill,
        None if answer.form == WHOLE else answer.form,
        _exact_text(answer.expected, answer.form),
        _exact_text(answer.given, answer.form),
    )


# The same question of the same round stored again (a retry after a crash between two writes):
# nothing happens, the first answer stands.
_ANSWER_COLUMNS = (
    "guild_id, user_id, answered_at, source, topic, level, question, expected, given, correct,"
    " time_ms, round_key, question_no, skill, form, expected_exact, given_exact")
_INSERT = (
    f"INSERT INTO focus_answers ({_ANSWER_COLUMNS})"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id, user_id, round_key, question_no) WHERE round_key IS NOT NULL"
    " DO NOTHING"
)


def counted_from_answers() -> str:
    """``score = …, time_ms = …`` of an attempt: each the parameter given, else counted from
    the member's stored answers of the round (parameters: score, guild, user, round key, time,
    guild, user, round key). The right answers and the time of what is stored, not of what a
    window of the round holds in memory."""
    stored = "FROM focus_answers WHERE guild_id = ? AND user_id = ? AND round_key = ?"
    return (f"score = coalesce(?, (SELECT coalesce(sum(correct), 0) {stored})),"
            f" time_ms = coalesce(?, (SELECT coalesce(sum(time_ms), 0) {stored}))")


# An answer and the mastery it moves in ONE statement (SQLite; issue 24): each statement is a
# hop to aiosqlite's thread, and the transaction of ``record``'s long way is five of them. A
# caller that knows the member's items (a practice round read them as it started) inserts into
# this view the answer and, in ``moves``, the new states of the items it moves with their
# answers count as known. Its trigger refuses the whole statement when an item moved since it was
# read (another round, another process) or when the question was stored already; the caller then
# takes the long way, which reads the items in its transaction. TEMP: made on the writer's
# connection when the repository is prepared, nothing of it in the database file.
_MOVING_VIEW = (
    f"CREATE TEMP VIEW IF NOT EXISTS focus_answer_moving AS SELECT {_ANSWER_COLUMNS},"
    " NULL AS moves FROM focus_answers WHERE 0"
)
_MOVED = "ardoise: focus_mastery moved since it was read"
_STORED = "ardoise: that question of that round is stored already"
_MOVING_TRIGGER = (
    "CREATE TEMP TRIGGER IF NOT EXISTS focus_answer_moving INSTEAD OF INSERT"
    " ON focus_answer_moving BEGIN"
    f" SELECT RAISE(ABORT, '{_MOVED}') FROM json_each(NEW.moves) AS m"
    " WHERE (SELECT f.answers FROM focus_mastery AS f WHERE f.guild_id = NEW.guild_id"
    " AND f.user_id = NEW.user_id AND f.kind = json_extract(m.value, '$[0]')"
    " AND f.item = json_extract(m.value, '$[1]')) IS NOT json_extract(m.value, '$[2]');"
    f" INSERT INTO focus_answers ({_ANSWER_COLUMNS}) VALUES (NEW.guild_id, NEW.user_id,"
    " NEW.answered_at, NEW.source, NEW.topic, NEW.level, NEW.question, NEW.expected, NEW.given,"
    " NEW.correct, NEW.time_ms, NEW.round_key, NEW.question_no, NEW.skill, NEW.form,"
    " NEW.expected_exact, NEW.given_exact)"
    " ON CONFLICT (guild_id, user_id, round_key, question_no) WHERE round_key IS NOT NULL"
    " DO NOTHING;"
    f" SELECT RAISE(ABORT, '{_STORED}') WHERE changes() = 0;"
    " INSERT INTO focus_mastery (guild_id, user_id, kind, item, level, step, recent, answers,"
    " correct, fast, due_at, last_at) SELECT NEW.guild_id, NEW.user_id,"
    " json_extract(m.value, '$[0]'), json_extract(m.value, '$[1]'),"
    " json_extract(m.value, '$[3]'), json_extract(m.value, '$[4]'),"
    " json_extract(m.value, '$[5]'), json_extract(m.value, '$[6]'),"
    " json_extract(m.value, '$[7]'), json_extract(m.value, '$[8]'),"
    " json_extract(m.value, '$[9]'), json_extract(m.value, '$[10]')"
    " FROM json_each(NEW.moves) AS m WHERE true"
    " ON CONFLICT (guild_id, user_id, kind, item) DO UPDATE SET level = excluded.level,"
    " step = excluded.step, recent = excluded.recent, answers = excluded.answers,"
    " correct = excluded.correct, fast = excluded.fast, due_at = excluded.due_at,"
    " last_at = excluded.last_at;"
    " END"
)
_INSERT_MOVING = (
    f"INSERT INTO focus_answer_moving ({_ANSWER_COLUMNS}, moves)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


#: One (member, round, question) in a VALUES list, typed: PostgreSQL would read them as text.
_TYPED_KEY = "(CAST(? AS BIGINT), CAST(? AS BIGINT), ?, CAST(? AS INTEGER))"


@dataclass(frozen=True)
class RoundReads:
    """What a Focus round reads of a member as it starts or ends (``FocusRepository.for_round``),
    asked together."""

    settings: ServerSettings
    student: StudentSettings
    player: Player | None  # None: no player row (a newcomer, or erased)
    mastery: Mastery
    recent: list[FocusAnswer]  # their latest answers, the latest first (as many as asked)


#: A member's latest answers, the latest first.
_RECENT = ("SELECT * FROM focus_answers WHERE guild_id = ? AND user_id = ?"
           " ORDER BY answered_at DESC, answer_id DESC LIMIT ?")


class FocusRepository:
    def __init__(self, conn: Connection, players: PlayersRepository,
                 mastery: MasteryRepository | None = None,
                 servers: ServersRepository | None = None) -> None:
        self._conn = conn
        self._players = players
        self._mastery = mastery or MasteryRepository(conn)
        self._servers = servers or ServersRepository(conn)
        self._moving = False

    async def for_round(self, guild_id: int, user_id: int, now: datetime | None = None, *,
                        recent: int = 0, make_player: bool = False) -> RoundReads:
        """The server's settings, the member's own (``db.students``), their player row, their
        mastery (``MasteryRepository.load``) and their ``recent`` latest answers, read in one hop
        to the database (``Connection.reads``: one snapshot on SQLite), the settings from memory
        when the server's are kept (``ServersRepository.kept``). ``make_player``: a member
        without a player row gets one (and their server too), in one more hop; ``player`` still
        says there was none."""
        statements: list[tuple[str, Sequence[object]]] = [
            ("SELECT * FROM student_settings WHERE guild_id = ? AND user_id = ?",
             (guild_id, user_id)),
            ("SELECT * FROM players WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)),
            (_LOAD, (guild_id, user_id, guild_id, user_id)),
        ]
        if recent:
            statements.append((_RECENT, (guild_id, user_id, recent)))
        settings = self._servers.kept(guild_id)
        if settings is None:
            statement, read_settings = self._servers.reading(guild_id)
            statements.append(statement)
        rows = await self._conn.reads(statements)
        if settings is None:
            settings = read_settings(rows[-1])
        student = StudentSettings(guild_id, user_id) if not rows[0] else _student(rows[0][0])
        player = _player(rows[1][0]) if rows[1] else None
        items = rows[2]
        if items and items[0]["backfill"]:
            mastery = await self._mastery.load(guild_id, user_id, now)  # worked out first
        else:
            mastery = Mastery(_item(row) for row in items if row["kind"] is not None)
        answers = [_answer(row) for row in rows[3]] if recent else []
        if player is None and make_player:
            stamp = to_db_time(utc(now))
            # The server's row and the player's, each "if missing", in one hop (with the other
            # newcomers' of the same moment when the writer is busy: a class starting at once).
            await self._conn.grouped_each([(_ENSURE_SERVER, (guild_id, stamp, stamp)),
                                           (_ENSURE_PLAYER, (guild_id, user_id, stamp))])
        return RoundReads(settings, student, player, mastery, answers)

    async def prepare(self) -> None:
        """Make the one-statement write of an answer with its mastery (SQLite, the schema's
        latest tables; elsewhere ``record`` always takes its transaction)."""
        if self._conn.dialect.name != "sqlite" or self._conn.version < LATEST_VERSION:
            return
        await self._conn.run(_MOVING_VIEW)
        await self._conn.run(_MOVING_TRIGGER)
        self._moving = True

    async def record(self, answer: FocusAnswer, now: datetime | None = None, *,
                     newcomer: bool = True, known: Mastery | None = None) -> bool:
        """Store one answer and move the member's mastery by it, atomically; whether it was new
        (False: that question of that round was stored already, and is left as it was, the
        mastery too).

        ``known``: the member's model as the caller last saw it (a practice round's, read as
        it started); it is moved by the answer too. With it, on SQLite, the answer and its
        mastery are one statement, which checks that the items it moves are still as known;
        otherwise, or when they moved, one transaction reads them and writes both.

        ``newcomer=False``: the answer is of a round whose start made the member a player (a
        practice round, a daily attempt, an assignment's): when they are no player any more,
        their data erased (``delete-player``, maybe by another process) while the round's window
        was open, nothing is stored and ``DomainError("focus.erased")`` is raised, rather than
        make them a player again with the answer (the one statement's foreign key refuses it
        too, and the long way says so)."""
        moment = utc(now)
        row = _row(answer, moment)
        if known is not None and self._moving and not self._conn.in_transaction:
            changed, moves = self._mastery.moves(known, answer, moment)
            try:
                # Committed with the other members' answers given at the same moment.
                await self._conn.grouped(_INSERT_MOVING, (*row, moves))
            except IntegrityError as error:
                if _STORED in str(error):
                    return False
                # The items moved since they were read, or a newcomer without a player row:
                # the long way below, which reads them again.
                if _MOVED not in str(error) and "FOREIGN KEY" not in str(error):
                    raise
            else:
                known.items.update(changed)
                return True
        async with self._conn.atomic():
            try:
                # A savepoint on PostgreSQL (Connection.attempt), so that a refusal spoils
                # nothing of the transaction.
                async with self._conn.attempt():
                    new = await self._conn.run(_INSERT, row) == 1
            except IntegrityError as error:
                if "FOREIGN KEY" not in str(error):
                    raise
                if not newcomer:
                    raise DomainError("focus.erased",
                                      "the member's data was erased during the round") from None
                # A newcomer's first answer: create the player, then insert again. (Cheaper than
                # making sure of the player before every answer.)
                await self._players.ensure(answer.guild_id, answer.user_id, now)
                new = await self._conn.run(_INSERT, row) == 1
            if new:
                moved = await self._mastery.apply([answer], moment)
                if known is not None:
                    known.items.update(moved.get((answer.guild_id, answer.user_id), {}))
            return new

    async def close_attempt(self, table: str, key: str, key_params: Sequence[object],
                            guild_id: int, user_id: int, round_key: str,
                            answers: Iterable[FocusAnswer], score: int | None,
                            time_ms: int | None, now: datetime | None) -> list[Row]:
        """An attempt's last answers stored and the attempt closed, in one transaction (the
        caller's, if any): the daily challenge's and an assignment's end, written once. The
        ``answers`` (those stored already stay as they were, ``record_many``), then its row of
        ``table`` (``key``: the SQL that finds it, with ``key_params``) still open closed with
        its score and time counted from the stored answers of ``round_key``
        (``counted_from_answers``) unless given: the closed row, none if it was not open."""
        async with self._conn.atomic():
            await self.record_many(answers, now)
            return await self._conn.returning(
                f"UPDATE {table} SET {counted_from_answers()}, finished_at = ?"
                f" WHERE {key} AND finished_at IS NULL RETURNING *",
                (score, guild_id, user_id, round_key, time_ms, guild_id, user_id, round_key,
                 to_db_time(utc(now)), *key_params))

    async def round_answers(self, guild_id: int, user_id: int, round_key: str
                            ) -> list[FocusAnswer]:
        """The member's stored answers of one round, in question order."""
        rows = await self._conn.all(
            "SELECT * FROM focus_answers WHERE guild_id = ? AND user_id = ? AND round_key = ?"
            " ORDER BY question_no",
            (guild_id, user_id, round_key),
        )
        return [_answer(row) for row in rows]

    async def answers_of_round(self, guild_id: int, round_key: str) -> list[FocusAnswer]:
        """Every member's stored answers of one round (a live round's report), by member and
        question."""
        rows = await self._conn.all(
            "SELECT * FROM focus_answers WHERE guild_id = ? AND round_key = ?"
            " ORDER BY user_id, question_no",
            (guild_id, round_key),
        )
        return [_answer(row) for row in rows]

    async def record_many(self, answers: Iterable[FocusAnswer], now: datetime | None = None) -> int:
        """Store several answers in one transaction (a whole round), with the mastery they move;
        how many were given (those of a round already stored are left as they were, and move
        nothing again)."""
        moment = utc(now)
        given = list(answers)
        rows = [_row(answer, moment) for answer in given]
        if not rows:
            return 0
        async with self._conn.atomic():
            await self._players.ensure_many(((a.guild_id, a.user_id) for a in given), moment)
            stored = await self._stored_keys(given)
            await self._conn.many(_INSERT, rows)
            new: list[FocusAnswer] = []
            for answer in given:
                key = (answer.guild_id, answer.user_id, answer.round_key, answer.question_no)
                if answer.round_key is not None:
                    if key in stored:
                        continue
                    stored.add(key)
                new.append(answer)
            new.sort(key=lambda a: utc(a.answered_at or moment))  # oldest first, stable
            await self._mastery.apply(new, moment)
        return len(rows)

    async def record_new(self, answers: Sequence[FocusAnswer], now: datetime | None = None
                         ) -> list[bool]:
        """Store answers of rounds (each with its ``round_key``) in one transaction, with the
        mastery they move, as ``record_many``; for each, whether it was new (False: that
        question of that round was stored already, or is twice in ``answers``: left as it
        was). A live round's group commit (``bot.play.focus_live``)."""
        given = list(answers)
        if not given:
            return []
        async with self._conn.atomic():
            stored = await self._stored_keys(given)
            new: list[bool] = []
            for answer in given:
                key = (answer.guild_id, answer.user_id, answer.round_key, answer.question_no)
                new.append(answer.round_key is None or key not in stored)
                stored.add(key)
            await self.record_many([a for a, fresh in zip(given, new, strict=True) if fresh],
                                   now)
        return new

    async def _stored_keys(self, answers: list[FocusAnswer]
                           ) -> set[tuple[int, int, str | None, int | None]]:
        """Which of these answers' (member, round, question) are stored already."""
        keys = sorted({(a.guild_id, a.user_id, a.round_key, a.question_no) for a in answers
                       if a.round_key is not None})
        found: set[tuple[int, int, str | None, int | None]] = set()
        for start in range(0, len(keys), CHUNK):
            part = keys[start:start + CHUNK]
            rows = await self._conn.all(
                "SELECT guild_id, user_id, round_key, question_no FROM focus_answers"
                " WHERE (guild_id, user_id, round_key, question_no) IN"
                f" (VALUES {', '.join([_TYPED_KEY] * len(part))})",
                [value for key in part for value in key])
            found |= {(r[0], r[1], r[2], r[3]) for r in rows}
        return found

    async def progress(
        self,
        guild_id: int,
        user_id: int,
        *,
        by: str = "day",
        topic: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        utc_offset_minutes: int = 0,
    ) -> list[ProgressRow]:
        """Accuracy and mean time per topic and per period, oldest period first.

        ``by`` is 'day', 'week' (weeks start on Monday) or 'all'; ``since`` (included) and
        ``until`` (excluded) bound the answers' times; days are cut at midnight
        ``utc_offset_minutes`` away from UTC (the server's time zone, say).
        """
        if by not in PERIODS:
            raise ValueError(f"progress is by {PERIODS}, not {by!r}")
        if by == "all":
            period = "NULL"
            modifiers: tuple[str, ...] = ()
        else:
            # Shifted to local time by '±N minutes', then the day or the Monday of its week.
            period = self._conn.dialect.local_day("answered_at", week=by == "week")
            modifiers = (f"{int(utc_offset_minutes):+d} minutes",)
        conditions = ["guild_id = ?", "user_id = ?"]
        params: list[object] = [*modifiers, guild_id, user_id]
        if since is not None:
            conditions.append("answered_at >= ?")
            params.append(to_db_time(since))
        if until is not None:
            conditions.append("answered_at < ?")
            params.append(to_db_time(until))
        if topic is not None:
            conditions.append("topic = ?")
            params.append(topic)
        rows = await self._conn.all(
            f"SELECT {period} AS period, topic, count(*), sum(correct), avg(time_ms)"
            f" FROM focus_answers WHERE {' AND '.join(conditions)}"
            " GROUP BY period, topic ORDER BY period, topic",
            params,
        )
        return [
            ProgressRow(
                period=None if row[0] is None else date.fromisoformat(row[0]),
                topic=row[1],
                answers=row[2],
                correct=row[3],
                mean_time_ms=row[4],
            )
            for row in rows
        ]

    async def recent(self, guild_id: int, user_id: int, limit: int = 50) -> list[FocusAnswer]:
        """The member's latest answers, the latest first."""
        rows = await self._conn.all(_RECENT, (guild_id, user_id, limit))
        return [_answer(row) for row in rows]


def _answer(row: Row) -> FocusAnswer:
    expected = _exact(row["expected"], row["expected_exact"])
    assert expected is not None  # NOT NULL: every question has its answer
    return FocusAnswer(
        guild_id=row["guild_id"],
        user_id=row["user_id"],
        topic=row["topic"],
        level=row["level"],
        question=row["question"],
        expected=expected,
        given=_exact(row["given"], row["given_exact"]),
        time_ms=row["time_ms"],
        source=row["source"],
        answered_at=from_db_time(row["answered_at"]),
        round_key=row["round_key"],
        question_no=row["question_no"],
        skill=row["skill"],
        form=row["form"],
    )
