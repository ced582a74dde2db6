"""The class report without Discord: the rollup the triggers keep (against the answers, through
record, record_many, a replay, an erasure and an upgrade from version 10), the figures of
bot.play.class_report (hand-computed rows, period edges in the server's time zone, the topic and
role filters, the median, the bands, stable pseudonyms), and the CSV parsed back in both
languages."""

from __future__ import annotations

import csv
import io
import random
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from bot.domain import DomainError
from bot.play import class_report as service
from db import LATEST_VERSION, Database, FocusAnswer
from db.class_report import EDGES_MS, SPANS, Tally, span_of, tally_of_times
from db.connection import to_db_time

G = 10
ANA, BOB, CHLOE, DAN = 101, 102, 103, 104
NOW = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)  # a Tuesday


def answer(user: int, topic: str, right: bool, time_ms: int, at: datetime,
           round_key: str | None = None, question_no: int | None = None,
           source: str = "practice") -> FocusAnswer:
    return FocusAnswer(G, user, topic, 2, "6 × 7", 42, 42 if right else 41, time_ms,
                       source=source, answered_at=at, round_key=round_key,
                       question_no=question_no)


def tallies(rows) -> dict[tuple[int, str], tuple[int, int]]:
    return {(r.user_id, r.topic): (r.tally.answers, r.tally.correct) for r in rows}


async def raw_rollup(db: Database) -> list[tuple]:
    """The per-quarter-hour rows (member, topic, answers), and the all-time ones."""
    return [tuple(r) for r in await db.connection.all(
        "SELECT user_id, topic, answers FROM focus_rollup ORDER BY user_id, topic, slot")] + [
        tuple(r) for r in await db.connection.all(
            "SELECT user_id, topic, answers, 'total' FROM focus_rollup_total"
            " ORDER BY user_id, topic")]


async def both(db: Database) -> list:
    """The all-time tallies, checked against the sum of the quarter hours' rows."""
    total = await db.class_report.tallies(G)
    spans = ", ".join(f"sum(t{i})" for i in range(SPANS))
    summed = await db.connection.all(
        f"SELECT user_id, topic, sum(answers), sum(correct), {spans} FROM focus_rollup"
        " GROUP BY user_id, topic ORDER BY user_id, topic")
    assert [(r.user_id, r.topic, r.tally.answers, r.tally.correct, *r.tally.spans)
            for r in total] == [tuple(row) for row in summed]
    return total


# --- The rollup ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["0011_class_report.sql", "0011_class_report.postgresql.sql"])
def test_the_spans_are_the_migrations(name: str) -> None:
    sql = (Path(__file__).parent.parent / "db" / "migrations" / name).read_text(encoding="utf-8")
    for index, edge in enumerate(EDGES_MS):
        assert f"WHEN time_ms < {edge} THEN {index} " in sql
        assert f"WHEN NEW.time_ms < {edge} THEN {index} " in sql
        assert f"WHEN OLD.time_ms < {edge} THEN {index} " in sql
    assert f"ELSE {SPANS - 1} END" in sql
    assert [span_of(t) for t in (0, 999, 1000, 7999, 8000, 59_999, 60_000, 10**7)] == [
        0, 0, 1, 7, 8, 14, 15, 15]


async def test_the_rollup_counts_each_answer_once_whatever_writes_it(db: Database) -> None:
    at = NOW - timedelta(hours=1)
    assert await db.focus.record(answer(ANA, "addition", True, 1500, at, "practice:1", 0))
    # The same question of the same round again (a retry): stored once, counted once.
    assert not await db.focus.record(answer(ANA, "addition", False, 9000, at, "practice:1", 0))
    await db.focus.record_many([
        answer(ANA, "addition", False, 2500, at + timedelta(seconds=5), "practice:1", 1),
        answer(ANA, "addition", True, 3500, at + timedelta(seconds=9), "practice:1", 2),
        answer(ANA, "addition", True, 2500, at + timedelta(seconds=9), "practice:1", 2),  # again
        answer(BOB, "division", True, 61_000, at),
        answer(ANA, "addition", True, 4000, at - timedelta(days=3)),  # another quarter hour
    ])
    rows = await both(db)
    assert tallies(rows) == {(ANA, "addition"): (4, 3), (BOB, "division"): (1, 1)}
    ana = next(r.tally for r in rows if r.user_id == ANA)
    assert ana.spans == tally_of_times([1500, 2500, 3500, 4000]).spans
    # One row per member, topic and quarter hour; one per member and topic for all time.
    assert await raw_rollup(db) == [
        (ANA, "addition", 1), (ANA, "addition", 3), (BOB, "division", 1),
        (ANA, "addition", 4, "total"), (BOB, "division", 1, "total")]
    # Since an hour ago: the quarter hours' rows only.
    recent = await db.class_report.tallies(G, since=at)
    assert tallies(recent) == {(ANA, "addition"): (3, 2), (BOB, "division"): (1, 1)}


async def test_any_period_gives_the_answers_own_figures(db: Database) -> None:
    # Answers over 60 days; periods starting anywhere in them (the report sums the quarter
    # hours after the start, or takes all time minus those before, whichever reads fewer):
    # always the figures of the answers themselves.
    rng = random.Random(5)
    made = [answer(rng.choice((ANA, BOB, CHLOE)), rng.choice(("addition", "division")),
                   rng.random() < 0.6, rng.randrange(500, 70_000),
                   NOW - timedelta(minutes=rng.randrange(60 * 24 * 60))) for _ in range(400)]
    await db.focus.record_many(made)
    for days in (0, 1, 7, 20, 30, 45, 59, 61):
        since = NOW - timedelta(days=days, minutes=rng.randrange(60 * 24))
        since = since.replace(minute=since.minute // 15 * 15, second=0, microsecond=0)
        want: dict[tuple[int, str], list[FocusAnswer]] = {}
        for a in made:
            if a.answered_at >= since:
                want.setdefault((a.user_id, a.topic), []).append(a)
        got = {(r.user_id, r.topic): r.tally for r in await db.class_report.tallies(
            G, since=since)}
        assert got == {key: tally_of_times([a.time_ms for a in mine],
                                           sum(a.correct for a in mine))
                       for key, mine in want.items()}, days
        division = await db.class_report.tallies(G, since=since, topic="division")
        assert {(r.user_id, r.topic) for r in division} == {
            key for key in want if key[1] == "division"}


async def test_a_transaction_that_fails_leaves_no_rollup(db: Database) -> None:
    with pytest.raises(RuntimeError):
        async with db.transaction():
            await db.focus.record(answer(ANA, "addition", True, 1500, NOW))
            raise RuntimeError("the round could not be saved")
    assert await raw_rollup(db) == []


async def test_an_erased_member_leaves_nothing_in_the_rollup(db: Database) -> None:
    await db.focus.record_many([answer(ANA, "addition", True, 1500, NOW),
                                answer(BOB, "addition", True, 1500, NOW)])
    counts = await db.delete_player(G, ANA)
    assert counts["focus_rollup"] == counts["focus_rollup_total"] == counts["focus_answers"] == 1
    assert tallies(await both(db)) == {(BOB, "addition"): (1, 1)}
    # An answer deleted alone (no path does it today) is taken out again.
    await db.connection.run("DELETE FROM focus_answers WHERE user_id = ?", (BOB,))
    assert await raw_rollup(db) == []


async def test_an_upgrade_from_version_10_rolls_up_the_answers_already_there(
        empty_db_location: Path | str) -> None:
    path = empty_db_location
    old = await Database.open(path, target_version=10)
    # Written as version 10 wrote them (today's repository writes the columns of later versions).
    for a in (answer(ANA, "addition", True, 1500, NOW), answer(ANA, "addition", False, 7500, NOW),
              answer(BOB, "Fractions", True, 30_000, NOW - timedelta(days=40))):
        await old.players.ensure(G, a.user_id)
        await old.connection.run(
            "INSERT INTO focus_answers (guild_id, user_id, answered_at, source, topic, level,"
            " question, expected, given, correct, time_ms)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (G, a.user_id, to_db_time(a.answered_at), a.source, a.topic, a.level, a.question,
             a.expected, a.given, int(a.correct), a.time_ms))
    await old.close()
    new = await Database.open(path)
    try:
        assert new.version == LATEST_VERSION  # 11 rolled them up; later ones keep them
        rows = await both(new)
        assert tallies(rows) == {(ANA, "addition"): (2, 1), (BOB, "Fractions"): (1, 1)}
        assert rows[0].tally.spans == tally_of_times([1500, 7500]).spans
        assert await new.class_report.first_answers(G) == [BOB, ANA]
        # And the triggers run from then on.
        await new.focus.record(answer(ANA, "addition", True, 500, NOW))
        assert tallies(await both(new))[(ANA, "addition")] == (3, 2)
    finally:
        await new.close()


async def test_the_rollups_are_the_same_on_both_engines_for_the_same_answers(
        db: Database, tmp_path: Path) -> None:
    """The test's database (PostgreSQL's PL/pgSQL triggers, on its run) against a SQLite file:
    the same answers, some erased, give the same rows to the last column."""
    rng = random.Random(18)
    reference = await Database.open(tmp_path / "reference.sqlite3")
    try:
        made = [answer(rng.choice((ANA, BOB, CHLOE, DAN)), rng.choice(("addition", "tables")),
                       rng.random() < 0.7, rng.choice((0, 999, 1000, 7999, 8000, 59_999, 60_000,
                                                       rng.randint(0, 90_000))),
                       # Across quarter hours, their edges, days and a change of year.
                       datetime(2026, 12, 31, 23, 0, tzinfo=UTC)
                       + timedelta(seconds=rng.choice((0, 899, 900, rng.randint(0, 86_400)))))
                for _ in range(300)]
        for database in (db, reference):
            await database.focus.record_many(made[:200])
            for one in made[200:]:
                await database.focus.record(one)
            await database.delete_player(G, DAN)
        every = "guild_id, user_id, topic, answers, correct, " + ", ".join(
            f"t{i}" for i in range(SPANS))
        for table, order in (("focus_rollup", "slot, user_id, topic"),
                             ("focus_rollup_total", "user_id, topic")):
            columns = f"slot, {every}" if table == "focus_rollup" else f"first_slot, {every}"
            query = f"SELECT {columns} FROM {table} ORDER BY {order}"
            ours = [tuple(r) for r in await db.connection.all(query)]
            assert ours == [tuple(r) for r in await reference.connection.all(query)], table
            assert len(ours) >= 6  # three members (Dan erased), two topics, many slots
    finally:
        await reference.close()


# --- The median, the bands ------------------------------------------------------------------


def test_the_median_is_the_middle_answers_span_interpolated() -> None:
    # One answer in each of [1,2), [2,3), [3,4) s: the middle one is halfway through [2,3).
    assert tally_of_times([1500, 2500, 3500]).median_ms == 2500
    # Four answers, two in [1,2) s and two in [4,5) s: half of them are reached at the end of
    # [1,2), at 2 s.
    assert tally_of_times([1200, 1800, 4100, 4900]).median_ms == 2000
    # Ten answers in [8,10) s: halfway through it.
    assert tally_of_times([8000 + i * 100 for i in range(10)]).median_ms == 9000
    # The open last span (60 s and more) reaches to 5 minutes.
    assert tally_of_times([70_000]).median_ms == 180_000
    assert Tally.empty().median_ms is None


@pytest.mark.parametrize(("answers", "right", "expected"), [
    (10, 9, "top"), (10, 10, "top"), (100, 89, "good"), (10, 7, "good"), (10, 6, "fair"),
    (10, 5, "fair"), (10, 4, "low"), (3, 0, "low"), (2, 2, "few"), (1, 0, "few")])
def test_a_cells_band_is_by_accuracy_and_grey_under_three_answers(answers, right,
                                                                    expected) -> None:
    assert service.band(Tally(answers, right, (answers,) + (0,) * (SPANS - 1))) == expected


# --- The figures of a report ----------------------------------------------------------------


async def seed_week(db: Database) -> None:
    day = lambda n: datetime(2026, 12, 1, 12, tzinfo=UTC) - timedelta(days=n)  # noqa: E731
    await db.focus.record_many([
        # Ana: addition 3/4 over the week; multiplication 1/2.
        answer(ANA, "addition", True, 1500, day(0)), answer(ANA, "addition", True, 2500, day(2)),
        answer(ANA, "addition", False, 3500, day(6)), answer(ANA, "addition", True, 4500, day(6)),
        answer(ANA, "multiplication", True, 5500, day(1)),
        answer(ANA, "multiplication", False, 6500, day(1)),
        answer(ANA, "addition", True, 1000, day(7)),  # the day before the week: out
        # Bob: division 2/2, and a teacher's topic.
        answer(BOB, "division", True, 2100, day(3)), answer(BOB, "division", True, 2900, day(3)),
        answer(BOB, "Fractions <b>", False, 9000, day(3), source="assignment"),
        # Chloé answered only long ago: not in the week, but first of all in the server.
        answer(CHLOE, "addition", True, 1000, day(20)),
    ])


async def test_the_weeks_figures_per_student_and_topic_and_the_class(db: Database) -> None:
    await seed_week(db)
    data = await service.answered(db, G, "week", now=NOW)
    assert (data.first_day, data.today) == (date(2026, 11, 25), date(2026, 12, 1))
    report = service.build(data, {ANA: "Ana", BOB: "Bob"}, "en")
    assert report.topics == ("addition", "multiplication", "division", "Fractions <b>")
    assert [s.name for s in report.students] == ["Ana", "Bob"]
    ana, bob = report.students
    assert {k: (v.answers, v.correct) for k, v in ana.cells.items()} == {
        "addition": (4, 3), "multiplication": (2, 1)}
    assert ana.cells["addition"].median_ms == tally_of_times([1500, 2500, 3500, 4500]).median_ms
    assert (ana.total.answers, ana.total.correct) == (6, 4)
    assert {k: (v.answers, v.correct) for k, v in bob.cells.items()} == {
        "division": (2, 2), "Fractions <b>": (1, 0)}
    assert bob.cells["division"].median_ms == 2500  # both in [2,3) s: halfway
    assert {k: (v.answers, v.correct) for k, v in report.class_cells.items()} == {
        "addition": (4, 3), "multiplication": (2, 1), "division": (2, 2),
        "Fractions <b>": (1, 0)}
    assert (report.class_total.answers, report.class_total.correct) == (9, 6)
    assert report.pages == 1


async def test_the_topic_filter_and_the_role_filter(db: Database) -> None:
    await seed_week(db)
    data = await service.answered(db, G, "week", "addition", now=NOW)
    report = service.build(data, {ANA: "Ana", BOB: "Bob"}, "en")
    assert report.topics == ("addition",) and [s.name for s in report.students] == ["Ana"]
    # Typed rather than picked: a Focus topic's name in either language, a teacher's as typed.
    for typed in ("Multiplication ", "multiplication"):
        data = await service.answered(db, G, "week", typed, now=NOW)
        assert [r.topic for r in data.tallies] == ["multiplication"]
    assert service.topic_key("Priorités de calcul") == "priority"
    assert service.topic_key("order of operations") == "priority"
    assert service.topic_key("Fractions <b>") == "Fractions <b>"
    data = await service.answered(db, G, "week", "Fractions <b>", now=NOW)
    assert data.user_ids == [BOB]
    # Only the students kept (those with the role): Bob.
    data = await service.answered(db, G, "week", now=NOW)
    report = service.build(data, {ANA: "Ana", BOB: "Bob"}, "en", keep={BOB})
    assert [s.name for s in report.students] == ["Bob"]
    assert report.topics == ("division", "Fractions <b>")
    assert report.class_total.answers == 3


async def test_today_and_the_week_start_at_the_servers_midnight(db: Database) -> None:
    # Montréal is 5 hours behind UTC in December: its 1 December starts at 05:00 UTC.
    await db.servers.update(G, timezone="America/Montreal")
    edge = datetime(2026, 12, 1, 5, 0, tzinfo=UTC)
    await db.focus.record_many([
        answer(ANA, "addition", True, 1000, edge - timedelta(seconds=1)),  # 30 Nov, 23:59:59
        answer(BOB, "addition", True, 1000, edge),
        answer(CHLOE, "addition", True, 1000, datetime(2026, 11, 25, 5, 0, tzinfo=UTC)),
        answer(DAN, "addition", True, 1000, datetime(2026, 11, 25, 4, 59, tzinfo=UTC)),
    ])
    today = await service.answered(db, G, "today", now=NOW)
    assert today.first_day == today.today == date(2026, 12, 1)
    assert today.user_ids == [BOB]
    week = await service.answered(db, G, "week", now=NOW)
    assert week.user_ids == [ANA, BOB, CHLOE]
    assert (await service.answered(db, G, "all", now=NOW)).user_ids == [ANA, BOB, CHLOE, DAN]
    # Kolkata is 5 h 30 ahead: its 1 December starts at 18:30 UTC on 30 November, between two
    # quarter hours.
    await db.servers.update(G, timezone="Asia/Kolkata")
    await db.focus.record_many([
        answer(DAN, "division", True, 1000, datetime(2026, 11, 30, 18, 29, 59, tzinfo=UTC)),
        answer(CHLOE, "division", True, 1000, datetime(2026, 11, 30, 18, 30, tzinfo=UTC))])
    today = await service.answered(db, G, "today", "division", now=NOW)
    assert today.user_ids == [CHLOE]


async def test_a_period_not_offered_is_refused(db: Database) -> None:
    with pytest.raises(DomainError) as refused:
        await service.answered(db, G, "year", now=NOW)
    assert refused.value.code == "class.report.unknown_period"


async def test_pseudonyms_follow_the_first_answer_in_the_server_and_stay(db: Database) -> None:
    await seed_week(db)
    # Chloé answered first (20 days ago), then Ana (7 days ago), then Bob (3 days ago).
    data = await service.answered(db, G, "week", pseudonym=True, now=NOW)
    report = service.build(data, {ANA: "Ana", BOB: "Bob"}, "en", pseudonym=True)
    assert [(s.user_id, s.name) for s in report.students] == [(ANA, "Student 2"),
                                                               (BOB, "Student 3")]
    assert report.pseudonyms
    # Today only Ana answered: she is still Student 2, in French too.
    data = await service.answered(db, G, "today", pseudonym=True, now=NOW)
    report = service.build(data, {}, "fr", pseudonym=True)
    assert [s.name for s in report.students] == ["Élève 2"]


async def test_a_member_who_left_is_a_former_member(db: Database) -> None:
    await seed_week(db)
    data = await service.answered(db, G, "week", now=NOW)
    report = service.build(data, {BOB: "Bob"}, "fr")
    assert [s.name for s in report.students] == ["Bob", "un ancien membre"]


async def test_the_topics_offered_are_the_servers_matching_what_is_typed(db: Database) -> None:
    await seed_week(db)
    assert await service.topic_choices(db, G, "", "fr") == [
        ("addition", "addition"), ("multiplication", "multiplication"),
        ("division", "division"), ("Fractions <b>", "Fractions <b>")]
    assert await service.topic_choices(db, G, "FRAC", "en") == [
        ("Fractions <b>", "Fractions <b>")]
    assert await service.topic_choices(db, 999, "", "en") == []


async def test_pages_hold_thirty_students(db: Database) -> None:
    await db.focus.record_many([answer(1000 + n, "addition", True, 1000, NOW)
                                for n in range(61)])
    report = service.build(await service.answered(db, G, "today", now=NOW),
                           {1000 + n: f"S{n:02}" for n in range(61)}, "en")
    assert report.pages == 3
    assert [len(report.page(n)) for n in range(3)] == [30, 30, 1]
    assert report.page(2)[0].name == "S60"


# --- The CSV ------------------------------------------------------------------------------------


def parse(data: bytes, delimiter: str) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")  # UTF-8 with a BOM
    return list(csv.reader(io.StringIO(data[3:].decode("utf-8")), delimiter=delimiter))


async def test_the_csv_in_english_has_a_row_per_student_and_topic_then_the_class(
        db: Database) -> None:
    await seed_week(db)
    report = service.build(await service.answered(db, G, "week", now=NOW),
                           {ANA: "Ana Ñúñez", BOB: "=HYPERLINK(\"x\")"}, "en")
    rows = parse(service.report_csv(report, "en"), ",")
    assert rows[0] == ["Student", "Topic", "Skill", "Answers", "Right", "Accuracy (%)",
                       "Median time (s)", "Mastery", "Mastery level"]
    # The mastery is all time (Ana's addition from the answer before the week too): addition
    # fast at last when due (proficient), multiplication slow then wrong (attempted), Bob's
    # division fast twice; a teacher's topic has none.
    assert rows[1:] == [
        ["'=HYPERLINK(\"x\")", "division", "division", "2", "2", "100.0", "2.5", "Proficient",
         "2"],
        ["'=HYPERLINK(\"x\")", "Fractions <b>", "", "1", "0", "0.0", "9.0", "", ""],
        ["Ana Ñúñez", "addition", "addition", "4", "3", "75.0", "3.0", "Proficient", "2"],
        ["Ana Ñúñez", "multiplication", "multiplication", "2", "1", "50.0", "6.0", "Attempted",
         "2"],
        ["Class", "addition", "", "4", "3", "75.0", "3.0", "", ""],
        ["Class", "multiplication", "", "2", "1", "50.0", "6.0", "", ""],
        ["Class", "division", "", "2", "2", "100.0", "2.5", "", ""],
        ["Class", "Fractions <b>", "", "1", "0", "0.0", "9.0", "", ""],
    ]
    # The figures are the rows': each student's answers add up to the class's.
    for topic in report.topics:
        mine = [r for r in rows[1:] if r[1] == topic]
        assert sum(int(r[3]) for r in mine[:-1]) == int(mine[-1][3])
    assert service.csv_name(report, "en") == "class-report-2026-12-01.csv"


async def test_the_csv_in_french_has_semicolons_and_decimal_commas(db: Database) -> None:
    await seed_week(db)
    await db.focus.record(answer(ANA, "priority", True, 3300, NOW))
    await db.focus.record(answer(ANA, "priority", False, 3300, NOW))
    await db.focus.record(answer(ANA, "priority", False, 3300, NOW))
    report = service.build(await service.answered(db, G, "today", now=NOW), {ANA: "Anaïs"},
                           "fr")
    rows = parse(service.report_csv(report, "fr"), ";")
    assert rows == [
        ["Élève", "Thème", "Compétence", "Réponses", "Justes", "Réussite (%)",
         "Temps médian (s)", "Maîtrise", "Niveau de la maîtrise"],
        ["Anaïs", "addition", "addition", "1", "1", "100,0", "1,5", "Acquis", "2"],
        ["Anaïs", "priorités de calcul", "priorités de calcul", "3", "1", "33,3", "3,5",
         "Essayé", "2"],
        ["Classe", "addition", "", "1", "1", "100,0", "1,5", "", ""],
        ["Classe", "priorités de calcul", "", "3", "1", "33,3", "3,5", "", ""],
    ]
    assert service.csv_name(report, "fr") == "bilan-classe-2026-12-01.csv"


async def test_an_empty_report_is_a_header_only(db: Database) -> None:
    report = service.build(await service.answered(db, G, "week", now=NOW), {}, "en")
    assert report.students == () and report.pages == 1
    assert parse(service.report_csv(report, "en"), ",") == [
        ["Student", "Topic", "Skill", "Answers", "Right", "Accuracy (%)", "Median time (s)",
         "Mastery", "Mastery level"]]


async def test_the_latest_answers_of_a_period_newest_first_bounded(db: Database) -> None:
    # The question-level part reads the period's latest answers (db.class_report.recent_answers)
    # on both engines: newest first, filtered by period, topic and member, at most ``limit``.
    rng = random.Random(27)
    made = [answer(rng.choice((ANA, BOB)), rng.choice(("addition", "division")),
                   rng.random() < 0.5, rng.randrange(500, 9_000),
                   NOW - timedelta(hours=n)) for n in range(60)]
    await db.focus.record_many(made)
    since = NOW - timedelta(hours=30, minutes=30)
    got = await db.class_report.recent_answers(G, since=since)
    # The last stored first (here the oldest in time: hour 0 was stored first).
    want = [a for a in made if a.answered_at >= since]
    assert len(got) == 31
    assert [(r.user_id, r.skill, r.given, r.correct, r.time_ms) for r in got] == [
        (a.user_id, a.topic, a.given, a.correct, a.time_ms) for a in reversed(want)]
    few = await db.class_report.recent_answers(G, since=since, topic="division", user_id=ANA,
                                               limit=3)
    mine = [a for a in reversed(want) if a.topic == "division" and a.user_id == ANA]
    assert [r.time_ms for r in few] == [a.time_ms for a in mine[:3]]
    assert all(r.user_id == ANA and r.skill == "division" for r in few)
