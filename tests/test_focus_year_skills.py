"""``skill:`` and ``topic:`` read and offered (``bot.play.year_skills``), and the year's draws of
the teacher's rounds and the daily challenge (``bot.play.focus.class_questions``,
``bot.focus.daily``): every year, every skill, all different, within Discord's limits."""

from __future__ import annotations

import random
from datetime import date

import pytest

from bot.domain import DomainError
from bot.focus import daily_questions
from bot.focus.daily import year_for_levels
from bot.focus.questions import TOPICS
from bot.focus.school import YEARS
from bot.focus.skills import ALL_TOPICS, SKILLS
from bot.play.focus import class_questions
from bot.play.year_skills import (
    CHOICE_CHARS,
    offered_skills,
    offered_topics,
    read_skills,
    read_topic,
    skill_choices,
    topic_choices,
    topic_skills,
)
from bot.texts import skill_name


def test_skills_are_read_by_id_or_by_name_in_either_language() -> None:
    assert read_skills(None) == () and read_skills("  ") == ()
    assert read_skills("fractions-add") == ("fractions-add",)
    assert read_skills("fractions-add,powers") == ("fractions-add", "powers")
    assert read_skills("Adding fractions ; PUISSANCES + square-roots") == (
        "fractions-add", "powers", "square-roots")
    # A name with commas in it is one skill (the longest name is read first).
    assert read_skills("décimaux × 10, 100, 1000, addition de fractions") == (
        "decimals-times-ten", "fractions-add")
    assert read_skills("powers, powers") == ("powers",)
    for lang in ("en", "fr"):
        for skill in SKILLS:
            assert read_skills(skill_name(skill, lang)) == (skill,), (skill, lang)


@pytest.mark.parametrize("typed, rest", [
    ("geometry", "geometry"), ("fractions-add, geometry", "geometry"),
    ("adding fractions and more", "and more"), (",,", ",,"), ("fractions-addition", None)])
def test_anything_else_is_refused_naming_what_is_no_skill(typed: str, rest: str | None) -> None:
    with pytest.raises(DomainError) as refused:
        read_skills(typed)
    assert refused.value.code == "focus_year.unknown_skill"
    if rest is not None:
        assert refused.value.params["text"] == rest


@pytest.mark.parametrize("year", [None, *YEARS])
def test_the_choices_fit_discord_name_no_id_and_read_back(year: str | None) -> None:
    offered = offered_skills(year)
    assert offered and set(offered) <= set(SKILLS)
    if year is not None:
        assert set(offered) == {skill for skill, _ in YEARS[year].skills}
    for lang in ("en", "fr"):
        first = skill_choices("", year, lang)
        assert [value for _, value in first] == list(offered)
        # Several picked one after the other: each continuation reads back as those skills.
        typed = ""
        for skill in offered[:6]:
            choices = skill_choices(typed, year, lang)
            for name, value in choices:
                assert 1 <= len(name) <= CHOICE_CHARS and len(value) <= CHOICE_CHARS
                assert all(s not in name for s in SKILLS if "-" in s)  # never an id
                assert read_skills(value) == tuple(value.split(","))
            chosen = next(value for _, value in choices if value.endswith(skill))
            typed = chosen
        assert read_skills(typed) == tuple(offered[:len(read_skills(typed))])


def test_a_continuation_offers_the_skills_not_chosen_yet_that_match() -> None:
    assert skill_choices("adding fractions, pow", "cycle4", "en") == [
        ("adding fractions + powers", "fractions-add,powers")]
    assert skill_choices("addition de fractions", "cycle4", "fr")[0] == (
        "addition de fractions", "fractions-add")
    assert skill_choices("zzz", "cycle4", "en") == []


def test_the_topics_offered_are_the_years() -> None:
    assert offered_topics(None) == TOPICS
    for year, found in YEARS.items():
        topics = offered_topics(year)
        assert topics and set(topics) <= set(ALL_TOPICS)
        assert set(topics) == {SKILLS[skill].topic for skill, _ in found.skills}
        for topic in topics:
            assert {SKILLS[s].topic for s in topic_skills(topic, year)} == {topic}
    assert topic_choices("frac", "5e", "fr") == [("fractions", "fractions")]
    assert topic_choices("", None, "en")[5] == ("order of operations", "priority")
    assert read_topic("Priorités de calcul") == "priority"
    assert read_topic("negatives") == "negatives"
    with pytest.raises(DomainError) as refused:
        read_topic("geometry")
    assert refused.value.code == "focus_year.unknown_topic"


@pytest.mark.parametrize("year", [None, *YEARS])
def test_every_skill_of_every_year_gives_a_climb_and_a_level(year: str | None) -> None:
    rng = random.Random(year)
    for skill in offered_skills(year):
        climb = class_questions(year, None, rng, 6, (skill,), (1, 8))
        assert len({q.ascii for q in climb}) == 6 and {q.skill for q in climb} == {skill}
        assert [q.level for q in climb] == [1, 2, 4, 5, 7, 8]
        at = class_questions(year, 5, rng, 6, (skill,), (1, 8))
        assert len({q.ascii for q in at}) == 6 and {q.level for q in at} == {5}


@pytest.mark.parametrize("year", list(YEARS))
def test_the_daily_challenge_and_a_long_climb_of_every_year(year: str) -> None:
    day = date(2026, 12, 7)
    questions = daily_questions(42, day, 2, 7, year=year)
    assert questions == daily_questions(42, day, 2, 7, year=year)  # the same for everyone
    assert [q.level for q in questions] == [2, 3, 4, 5, 6, 7]
    assert len({q.ascii for q in questions}) == 6
    assert {q.skill for q in questions} <= {skill for skill, _ in YEARS[year].skills}
    long = year_for_levels(year, [1] * 20, random.Random(1))  # one level, twenty different
    assert len({q.ascii for q in long}) == 20
