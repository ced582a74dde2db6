"""The teacher's class report (``/class report``), without Discord: who answered in a period,
their accuracy, number of answers and median time per topic, each student's mastery of every
skill of those topics (``bot.focus.mastery``, all time: the eight levels' topics are one skill
each, a school year's topic several, ``bot.focus.skills.SKILLS``), the class's line, and the same
figures as a spreadsheet (CSV).

Two steps, because the names are Discord's (the bot has no member list): ``answered`` reads the
figures per student from the database (``db.class_report``, a rollup kept per quarter hour), the
caller fetches those students' names and roles, then ``build`` makes the report of the students
kept (a role's), named or as pseudonyms. ``report_csv`` writes the export.

Periods are days of the server's time zone (``/settings``): "today" is since the server's
midnight, "week" the last 7 days including today, and so on; "all" is everything.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from bot import spreadsheet
from bot.domain import DomainError
from bot.focus.mastery import LEVEL_NAMES
from bot.focus.question_stats import Given, Mistakes, QuestionStat, mistakes, question_stats
from bot.focus.skills import ALL_TOPICS, SKILLS
from bot.play.focus import local_day
from bot.texts import decimal_symbol, has, skill_name, t
from db import Database
from db.class_report import StoredAnswer, StudentTally, Tally
from db.mastery import SkillLevel

#: The periods by their choice value: how many days, today included (None: everything).
PERIOD_DAYS: dict[str, int | None] = {"today": 1, "week": 7, "month": 30, "term": 90,
                                      "all": None}
#: Students on one page of the picture (a phone shows about that many rows readably).
PAGE_ROWS = 30
#: Below this many answers a cell's accuracy says little: it is shown in grey, as "few".
MIN_ANSWERS = 3
#: The bands, best first: (key, the lowest accuracy in it). "few" is apart (too few answers).
BANDS: tuple[tuple[str, float], ...] = (("top", 0.9), ("good", 0.7), ("fair", 0.5),
                                        ("low", 0.0))
FEW = "few"
#: The questions of the question-level part: the most answered of the period's latest answers
#: (``db.class_report.RECENT_ANSWERS``), as many as the picture draws.
QUESTIONS_SHOWN = 20


def band(tally: Tally) -> str:
    """The band of a cell: "few" under MIN_ANSWERS answers, else by accuracy."""
    if tally.answers < MIN_ANSWERS:
        return FEW
    accuracy = tally.accuracy
    return next(key for key, low in BANDS if accuracy >= low)


def check_period(period: str) -> None:
    """Refused: a period the command does not offer (a modified client may send any value)."""
    if period not in PERIOD_DAYS:
        raise DomainError("class.report.unknown_period", f"no period {period!r}")


def topic_name(topic: str, lang: str) -> str:
    """A Focus topic's name in the language; a teacher's own topic (from a question set) as it
    was typed."""
    key = f"focus.topics.{topic}"
    return t(key, lang) if topic in ALL_TOPICS and has(key, lang) else topic


def topic_key(typed: str) -> str:
    """The topic a teacher typed without picking it from the list: a Focus topic by its key or
    its name in either language ("Priorités de calcul" is ``priority``), else their own topic as
    typed."""
    folded = typed.strip().casefold()
    for key in ALL_TOPICS:
        if folded == key or folded in (topic_name(key, lang).casefold() for lang in ("en", "fr")):
            return key
    return typed


def topic_order(topics: Collection[str]) -> list[str]:
    """The Focus topics in the engine's order, then the teachers' own alphabetically."""
    return sorted(topics, key=lambda k: (ALL_TOPICS.index(k) if k in ALL_TOPICS
                                         else len(ALL_TOPICS),
                                         k.casefold(), k))


def topic_skills(topic: str) -> tuple[str, ...]:
    """The engine's skills of a topic, in its order (``multiplication``: itself; ``negatives``:
    ``negatives-add`` … ``negatives-priority``; a teacher's own topic: none)."""
    return _TOPIC_SKILLS.get(topic, ())


_TOPIC_SKILLS: dict[str, tuple[str, ...]] = {}
for _skill in SKILLS.values():
    _TOPIC_SKILLS[_skill.topic] = (*_TOPIC_SKILLS.get(_skill.topic, ()), _skill.id)


def own_skill(topic: str) -> str | None:
    """The one skill a topic is (the eight levels' topics, ``percentages``): its mastery is shown
    in the topic's own cell; None for a topic of several skills (or none), whose skills are
    shown one by one beside it."""
    skills = topic_skills(topic)
    return skills[0] if len(skills) == 1 else None


@dataclass(frozen=True)
class Answered:
    """What ``answered`` read: the period's days and every student's tallies, before names."""

    period: str
    first_day: date | None  # None: since the start
    today: date
    topic: str | None
    tallies: list[StudentTally]
    #: Every member who ever answered in the server, by first answer (then id): pseudonyms.
    order: list[int] = field(default_factory=list)
    #: Each student's mastery of each skill (``db.mastery.skill_levels``), by (user id, skill).
    mastery: dict[tuple[int, str], SkillLevel] = field(default_factory=dict)
    #: The period's latest answers, newest first (at most ``db.class_report.RECENT_ANSWERS``):
    #: the question-level part and the known mistakes.
    recent: list[StoredAnswer] = field(default_factory=list)

    @property
    def user_ids(self) -> list[int]:
        return list(dict.fromkeys(row.user_id for row in self.tallies))


async def answered(db: Database, guild_id: int, period: str, topic: str | None = None, *,
                   pseudonym: bool = False, now: datetime | None = None) -> Answered:
    """The figures of everyone who answered in ``period`` (in ``topic`` only, if given)."""
    check_period(period)
    settings = await db.servers.get(guild_id)
    now = now or datetime.now(settings.tz())
    today = local_day(settings, now)
    days = PERIOD_DAYS[period]
    first_day = None if days is None else today - timedelta(days=days - 1)
    since = None if first_day is None else datetime.combine(first_day, time(), settings.tz())
    if topic is not None:
        topic = topic_key(topic)
    tallies = await db.class_report.tallies(guild_id, since=since, topic=topic)
    order = await db.class_report.first_answers(guild_id) if pseudonym else []
    skills = await db.mastery.skill_levels(guild_id, {row.user_id for row in tallies})
    mastery = {(s.user_id, s.skill): s for s in skills}
    recent = await db.class_report.recent_answers(guild_id, since=since, topic=topic)
    return Answered(period, first_day, today, topic, tallies, order, mastery, recent)


@dataclass(frozen=True)
class StudentRow:
    user_id: int
    name: str
    cells: dict[str, Tally]  # by topic; a topic the student did not answer is absent
    #: Their mastery of each skill of the report's topics (at the highest Focus level
    #: practised), all time, by skill.
    mastery: dict[str, SkillLevel] = field(default_factory=dict)

    @property
    def total(self) -> Tally:
        """All the student's answers (worked out when asked: the report itself needs only the
        cells and the class's line)."""
        return Tally.total(self.cells.values())


@dataclass(frozen=True)
class ClassReport:
    """The report as the picture, the embed and the CSV show it."""

    period: str
    first_day: date | None
    today: date
    topics: tuple[str, ...]
    students: tuple[StudentRow, ...]
    class_cells: dict[str, Tally]
    class_total: Tally
    pseudonyms: bool
    #: Question by question: the ``QUESTIONS_SHOWN`` most answered of the answers read.
    questions: tuple[QuestionStat, ...] = ()
    #: How many different questions, and answers, those were drawn from.
    question_count: int = 0
    answers_read: int = 0
    mistakes: Mistakes = field(default_factory=lambda: Mistakes({}, Counter()))
    #: The skills shown one by one, by topic (a topic of several skills: those any student of
    #: the report has a mastery of, in the engine's order); a topic of one skill is absent.
    skills: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.students) // PAGE_ROWS))

    def page(self, number: int) -> tuple[StudentRow, ...]:
        """The students of page ``number`` (from 0)."""
        return self.students[number * PAGE_ROWS:(number + 1) * PAGE_ROWS]


def build(data: Answered, names: Mapping[int, str], lang: str, *,
          keep: Collection[int] | None = None, pseudonym: bool = False) -> ClassReport:
    """The report of the students in ``keep`` (everyone when None), named from ``names`` (a
    missing one is a former member) or, with ``pseudonym``, "Student N" by their first answer in
    the server, so that Student 3 stays Student 3 from one report to the next."""
    cells: dict[int, dict[str, Tally]] = {}
    for row in data.tallies:
        if keep is None or row.user_id in keep:
            cells.setdefault(row.user_id, {})[row.topic] = row.tally
    topics = tuple(topic_order({topic for per in cells.values() for topic in per}))
    if pseudonym:
        rank = {uid: n for n, uid in enumerate(data.order, 1)}
        # A student missing from the order (answered since it was read): after the others.
        numbered = sorted(cells, key=lambda uid: (rank.get(uid, len(rank) + 1), uid))
        label = {uid: t("class.report.pseudonym", lang, number=rank.get(uid, i))
                 for i, uid in enumerate(numbered, len(rank) + 1)}
        ordered = numbered
    else:
        gone = t("class.report.former_member", lang)
        label = {uid: names.get(uid) or gone for uid in cells}
        ordered = sorted(cells, key=lambda uid: (label[uid].casefold(), uid))
    wanted = {skill for topic in topics for skill in topic_skills(topic)}
    known: dict[int, dict[str, SkillLevel]] = {}
    for (uid, skill), level in data.mastery.items():
        if skill in wanted and uid in cells:
            known.setdefault(uid, {})[skill] = level
    students = tuple(StudentRow(uid, label[uid], cells[uid], known.get(uid, {}))
                     for uid in ordered)
    practised = {skill for mine in known.values() for skill in mine}
    skills = {topic: found for topic in topics if own_skill(topic) is None
              and (found := tuple(s for s in topic_skills(topic) if s in practised))}
    by_topic: dict[str, list[Tally]] = {topic: [] for topic in topics}
    for student in students:
        for topic, tally in student.cells.items():
            by_topic[topic].append(tally)
    class_cells = {topic: Tally.total(by_topic[topic]) for topic in topics}
    given = [Given(a.user_id, f"{a.skill}\n{a.question}", a.question, a.skill, a.form,
                   a.expected, a.given, a.correct, a.time_ms)
             for a in data.recent if a.user_id in cells]
    stats = question_stats(given)  # the most answered first: none has a number
    return ClassReport(data.period, data.first_day, data.today, topics, students, class_cells,
                       Tally.total(class_cells.values()), pseudonym,
                       tuple(stats[:QUESTIONS_SHOWN]), len(stats), len(given),
                       mistakes(given), skills)


# --- The spreadsheet ---------------------------------------------------------------------------


def csv_name(report: ClassReport, lang: str) -> str:
    """``class-report-2026-12-01.csv`` / ``bilan-classe-2026-12-01.csv`` (the server's day)."""
    return t("class.report.csv_file", lang, day=report.today.isoformat())


def _figure(value: float | None, point: str) -> str:
    """A figure as a spreadsheet of the language reads it: 66.7 / 66,7, with the language's
    decimal symbol (``point``). Not Babel's whole formatting: a thousand students' rows would
    take it a second, and these figures (under a thousand) need no grouping."""
    return "" if value is None else f"{value:.1f}".replace(".", point)


def report_csv(report: ClassReport, lang: str) -> bytes:
    """One row per student and topic they answered, then the class's row per topic: student,
    topic, skill, answers, right, accuracy %, median time (s), the student's mastery of the skill
    in words ("Proficient", « Acquis ») and the Focus level it is at. A topic that is one skill
    (the eight levels') names it and holds its mastery; a topic of several skills is followed by
    one row per skill the student has a mastery of (its figures empty: answers are counted by
    topic). The class's rows hold no mastery. UTF-8 with a BOM (so that a spreadsheet reads
    accents right); French: ``;`` between fields and a decimal comma, as a French spreadsheet
    expects; English: commas and a decimal point."""
    out = io.StringIO()
    writer = spreadsheet.writer(out, lang)
    writer.writerow([t(f"class.report.csv.{column}", lang) for column in
                     ("student", "topic", "skill", "answers", "right", "accuracy", "median",
                      "mastery", "mastery_level")])
    point = decimal_symbol(lang)
    names = {topic: topic_name(topic, lang) for topic in report.topics}
    levels = {n: t(f"mastery.level.{name}", lang) for n, name in LEVEL_NAMES.items()}

    def said(mastery: SkillLevel | None) -> list[str]:
        return ["", ""] if mastery is None else [levels[mastery.mastery], str(mastery.level)]

    def line(who: str, topic: str, tally: Tally, mastery: SkillLevel | None = None,
             skill: str | None = None) -> list[str]:
        median = tally.median_ms
        return [who, names[topic], "" if skill is None else skill_name(skill, lang),
                str(tally.answers), str(tally.correct), _figure(100 * tally.accuracy, point),
                _figure(None if median is None else median / 1000, point), *said(mastery)]

    for student in report.students:
        for topic in report.topics:
            if topic not in student.cells:
                continue
            own = own_skill(topic)
            writer.writerow(line(student.name, topic, student.cells[topic],
                                 None if own is None else student.mastery.get(own), own))
            for skill in report.skills.get(topic, ()):
                if skill in student.mastery:
                    writer.writerow([student.name, names[topic], skill_name(skill, lang),
                                     "", "", "", "", *said(student.mastery[skill])])
    everyone = t("class.report.class", lang)
    for topic in report.topics:
        writer.writerow(line(everyone, topic, report.class_cells[topic]))
    return ("\ufeff" + out.getvalue()).encode("utf-8")


# --- The topic option ---------------------------------------------------------------------------

async def topic_choices(db: Database, guild_id: int, current: str, lang: str
                        ) -> list[tuple[str, str]]:
    """(name, value) of the topics the server's answers have that match what the teacher typed
    (in the name or the key), in the report's order."""
    typed = current.strip().casefold()
    found = topic_order(await db.class_report.topics(guild_id))
    # A choice's value is at most 100 characters: a longer topic of a teacher's is typed.
    named = [(topic_name(topic, lang), topic) for topic in found if len(topic) <= 100]
    return [(name, topic) for name, topic in named
            if typed in name.casefold() or typed in topic.casefold()]


# --- Known mistakes -----------------------------------------------------------------------------


def mistakes_csv(report: ClassReport, lang: str) -> bytes:
    """The known mistakes of the answers read (``bot.focus.misconceptions``): one row per
    student and mistake (the most made first), then the class's. Same dialect as the report's
    CSV."""
    out = io.StringIO()
    writer = spreadsheet.writer(out, lang)
    writer.writerow([t(f"reports.csv.{column}", lang) for column in
                     ("student", "mistake", "count")])
    for student in report.students:
        found = report.mistakes.by_student.get(student.user_id)
        for name, count in sorted((found or Counter()).items(), key=lambda m: (-m[1], m[0])):
            writer.writerow([student.name, t(f"misconceptions.{name}", lang), count])
    everyone = t("reports.csv.class", lang)
    for name, count in sorted(report.mistakes.total.items(), key=lambda m: (-m[1], m[0])):
        writer.writerow([everyone, t(f"misconceptions.{name}", lang), count])
    return ("\ufeff" + out.getvalue()).encode("utf-8")
