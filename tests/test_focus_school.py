"""School years (``bot.focus.school``): their skills, the ladder shared among the eight Focus
levels, what practice draws from (``bot.play.focus.practice_skills``), the settings that choose
them and the exact answers stored (schema 14)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from bot.domain import DomainError
from bot.focus import ROUND_SIZE
from bot.focus.exact import DECIMAL, FRACTION
from bot.focus.questions import LEVELS, MAX_LEVEL
from bot.focus.school import YEARS, check_year, ladder, pool
from bot.focus.skills import ALL_TOPICS, SKILLS, draw
from bot.i18n import has, t
from bot.play import focus as play
from bot.play import settings as settings_service
from bot.play.students import SERVER, changed_settings, school_year_of
from bot.ui.settings import SCHOOL_YEAR_NAMES, SCHOOL_YEARS_EN
from db import Database, FocusAnswer, ServerSettings
from db.export import export_player
from db.students import StudentSettings

GUILD, ANA, BEN = 1, 10, 11


@pytest.mark.parametrize("year", list(YEARS))
def test_a_year_s_skills_exist_and_its_ladder_is_shared_among_the_eight_levels(year: str
                                                                               ) -> None:
    found = check_year(year)
    for skill, levels in found.skills:
        assert skill in SKILLS and levels == tuple(sorted(set(levels)))
        for n in levels:
            SKILLS[skill].level(n)  # exists
    refs = ladder(year)
    assert sorted(refs) == sorted((s, n) for s, levels in found.skills for n in levels)
    tiers = [SKILLS[s].level(n).tier for s, n in refs]
    assert tiers == sorted(tiers)  # easiest first
    shares = [pool(year, level) for level in range(1, MAX_LEVEL + 1)]
    assert all(shares)  # every level practises something
    # In order, each skill level in at least one share, a higher level never easier.
    flat = [ref for share in shares for ref in share]
    assert sorted(set(flat)) == sorted(refs)
    assert [refs.index(ref) for ref in flat] == sorted(refs.index(ref) for ref in flat)
    if len(refs) >= MAX_LEVEL:
        assert len(flat) == len(refs)  # a partition: nothing twice


@pytest.mark.parametrize("year", list(YEARS))
def test_every_level_of_every_year_gives_a_round_of_different_questions(year: str) -> None:
    for level in range(1, MAX_LEVEL + 1):
        for seed in range(3):
            questions = draw(pool(year, level), ROUND_SIZE, random.Random(seed), level=level)
            assert len({q.ascii for q in questions}) == ROUND_SIZE
            assert {q.level for q in questions} == {level}
            assert {(q.skill,) for q in questions} <= {(s,) for s, _ in pool(year, level)}


def test_the_years_follow_the_school_s_order() -> None:
    """A later year is harder: its easiest and its hardest tiers are not below the year
    before's (France by cycle, the US by grade)."""
    def span(year: str) -> tuple[int, int]:
        tiers = [SKILLS[s].level(n).tier for s, n in ladder(year)]
        return min(tiers), max(tiers)

    for country in (["cycle2", "cycle3", "cycle4"], [f"grade{n}" for n in range(1, 9)],
                    ["cp", "ce1", "ce2", "cm1", "cm2", "6e", "5e", "4e", "3e"]):
        spans = [span(y) for y in country]
        assert [low for low, _ in spans] == sorted(low for low, _ in spans), spans
    # A class practises its cycle's skills (CP–CE2 in cycle 2, CM1–6e in 3, 5e–3e in 4).
    for cycle, classes in (("cycle2", ("cp", "ce1", "ce2")), ("cycle3", ("cm1", "cm2", "6e")),
                           ("cycle4", ("5e", "4e", "3e"))):
        assert set().union(*(ladder(c) for c in classes)) <= set(ladder(cycle)), cycle
    assert "negatives-add" in dict(YEARS["cycle4"].skills)
    assert "negatives-add" not in dict(YEARS["cycle3"].skills)
    assert "decimals-add" in dict(YEARS["cycle3"].skills)
    assert "fractions-add" in dict(YEARS["grade4"].skills)
    assert "square-roots" in dict(YEARS["grade8"].skills)


def test_names_in_both_languages() -> None:
    assert set(SCHOOL_YEARS_EN) == set(YEARS) and set(SCHOOL_YEAR_NAMES) == {*YEARS, "none"}
    for lang in ("en", "fr"):
        for year in YEARS:
            assert has(f"focus.school_years.{year}", lang)
            assert has(f"settings.choices.school_year.{year}", lang)
        for topic in ALL_TOPICS:
            assert has(f"focus.topics.{topic}", lang)
        for skill in SKILLS:
            assert has(f"focus.skills.{skill}", lang)
    assert t("focus.topics.negatives", "fr") == "nombres relatifs"
    assert t("focus.topics.fractions", "en") == "fractions"
    # The class report names the new topics too, and orders them after the eight levels'.
    from bot.play.class_report import topic_name, topic_order
    assert topic_name("negatives", "fr") == "nombres relatifs"
    assert topic_name("Fractions (Mme Roux)", "fr") == "Fractions (Mme Roux)"  # a teacher's own
    assert topic_order(["fractions", "Géométrie", "addition", "negatives"]) == [
        "addition", "negatives", "fractions", "Géométrie"]


def test_practice_draws_from_the_student_s_year_else_the_server_s_else_the_eight_levels(
        ) -> None:
    server = ServerSettings(GUILD)
    assert play.practice_year(server, None) is None
    assert play.practice_year(server, StudentSettings(GUILD, ANA)) is None
    fourth = ServerSettings(GUILD, focus_school_year="cycle4")
    assert play.practice_year(fourth, None) == "cycle4"
    own = StudentSettings(GUILD, ANA, school_year="grade5")
    assert school_year_of(fourth, own) == "grade5"
    assert play.practice_year(fourth, own) == "grade5"
    gone = ServerSettings(GUILD, focus_school_year="cycle9")  # a year no longer known
    assert play.practice_year(gone, None) is None
    # Without a year, the level's own questions, exactly as before.
    from bot.focus import generate_questions
    assert play.practice_questions(None, 4, random.Random(5)) == generate_questions(
        4, ROUND_SIZE, random.Random(5))
    chosen = play.practice_questions("cycle4", 3, random.Random(5))
    assert {q.skill for q in chosen} <= {s for s, _ in pool("cycle4", 3)}
    assert {q.level for q in chosen} == {3}
    assert set(LEVELS[3].topics) & {q.topic for q in chosen} == set()


def test_settings_check_a_school_year() -> None:
    assert settings_service.check_school_year(None) == {}
    assert settings_service.check_school_year("none") == {"focus_school_year": None}
    assert settings_service.check_school_year("cycle3") == {"focus_school_year": "cycle3"}
    with pytest.raises(DomainError) as refused:
        settings_service.check_school_year("cycle5")
    assert refused.value.code == "settings.unknown_school_year"
    current = StudentSettings(GUILD, ANA)
    assert changed_settings(current, school_year="grade7").school_year == "grade7"
    assert changed_settings(StudentSettings(GUILD, ANA, school_year="grade7"),
                            school_year=SERVER).school_year is None
    with pytest.raises(DomainError) as bad:
        changed_settings(current, school_year="grade9")
    assert bad.value.code == "class.student.bad_choice"


async def test_school_years_are_stored_for_the_server_and_the_student(db: Database) -> None:
    saved = await db.servers.update(GUILD, focus_school_year="cycle3")
    assert saved.focus_school_year == "cycle3"
    assert (await db.servers.get(GUILD)).focus_school_year == "cycle3"
    await db.students.save(StudentSettings(GUILD, ANA, school_year="grade6"))
    assert (await db.students.get(GUILD, ANA)).school_year == "grade6"
    rules = await play.students.rules_for(db, GUILD, ANA)
    assert play.practice_year(rules.server, rules.settings) == "grade6"
    start = await play.start_practice(db, GUILD, ANA, None, seed=3)
    # Five at the member's level, the last from the level above, each from the year's share.
    *at_level, ahead = start.questions
    assert {q.skill for q in at_level} <= {s for s, _ in pool("grade6", start.level)}
    assert ahead.skill in {s for s, _ in pool("grade6", start.level + 1)}
    other = await play.start_practice(db, GUILD, BEN, None, seed=3)
    assert {q.skill for q in other.questions[:-1]} <= {s for s, _ in pool("cycle3", other.level)}
    await db.servers.update(GUILD, focus_school_year=None)
    assert (await db.servers.get(GUILD)).focus_school_year is None


async def test_exact_answers_are_stored_and_read_back_exactly(db: Database) -> None:
    answers = [
        FocusAnswer(GUILD, ANA, "fractions", 5, "1/2 + 1/4", Fraction(3, 4), Fraction(6, 8),
                    2500, round_key="practice:x", question_no=0, skill="fractions-add",
                    form=FRACTION),
        FocusAnswer(GUILD, ANA, "decimals", 5, "4.9 + 3.7", Fraction(43, 5), Fraction(-17, 2),
                    3100, round_key="practice:x", question_no=1, skill="decimals-add",
                    form=DECIMAL),
        FocusAnswer(GUILD, ANA, "negatives", 5, "−8 + 3", -5, None, 9000,
                    round_key="practice:x", question_no=2, skill="negatives-add"),
        FocusAnswer(GUILD, ANA, "addition", 1, "7 + 8", 15, 15, 1000),
    ]
    await db.focus.record_many(answers)
    back = {a.question: a for a in await db.focus.recent(GUILD, ANA)}
    first = back["1/2 + 1/4"]
    assert first.expected == Fraction(3, 4) and first.given == Fraction(3, 4) and first.correct
    assert first.skill == "fractions-add" and first.form == FRACTION
    second = back["4.9 + 3.7"]
    assert second.expected == Fraction(43, 5) and second.given == Fraction(-17, 2)
    assert not second.correct
    assert back["−8 + 3"].expected == -5 and back["−8 + 3"].given is None
    assert back["7 + 8"].expected == 15 and back["7 + 8"].skill is None
    rows = await db.connection.all(
        "SELECT question, expected, given, correct, expected_exact, given_exact, skill, form"
        " FROM focus_answers ORDER BY answer_id")
    assert [tuple(r) for r in rows] == [
        ("1/2 + 1/4", 0, 0, 1, "3/4", "3/4", "fractions-add", "fraction"),
        ("4.9 + 3.7", 8, -8, 0, "8.6", "-8.5", "decimals-add", "decimal"),
        ("−8 + 3", -5, None, 0, None, None, "negatives-add", None),
        ("7 + 8", 15, 15, 1, None, None, None, None),
    ]
    # The history the adaptive level reads keeps them exact, and so does the export.
    history = play.history(await db.focus.recent(GUILD, ANA))
    assert sorted(map(str, (a.expected for a in history))) == ["-5", "15", "3/4", "43/5"]
    assert {a.skill for a in history} == {"fractions-add", "decimals-add", "negatives-add",
                                          "addition"}
    exported = await export_player(db.connection, db.version, GUILD, ANA)
    assert {a["expected_exact"] for a in exported["focus_answers"]} == {"3/4", "8.6", None}
