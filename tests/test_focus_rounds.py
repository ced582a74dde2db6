"""A round for every school year, every Focus level and every kind of round, with the counts
each kind really asks (``bot.focus.school.draw_round``): practice (``choose_round``'s pool of
the level and its question from the next level), the daily challenge, a live round and an
assignment up to the most their commands allow, a 20 Digits match's Focus. Each draw is the same
for the same seed and asks different questions; a skill asked alone borrows its own other
levels when the year's are too few."""

from __future__ import annotations

import random
import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from bot.domain import DomainError
from bot.focus import MAX_LEVEL, MIN_LEVEL, ROUND_SIZE, Question
from bot.focus.daily import daily_levels, daily_questions
from bot.focus.mastery import Mastery, fact_of
from bot.focus.review import choose_round
from bot.focus.school import YEARS, capacity, draw_round, ladder, pool, round_pool, year_refs
from bot.focus.skills import SKILLS
from bot.play.assignments import MAX_COUNT as ASSIGNMENT_MAX
from bot.play.digits import focus_questions
from bot.play.focus import class_questions, practice_questions

ROOT = Path(__file__).resolve().parent.parent
NOW = datetime(2026, 12, 7, tzinfo=UTC)
LEVELS = range(MIN_LEVEL, MAX_LEVEL + 1)


def _live_max() -> int:
    """The most questions ``/focus live`` asks: its ``count`` option's range, as the cog says."""
    source = (ROOT / "cogs" / "_focus_live.py").read_text(encoding="utf-8")
    found = re.search(r"count: app_commands\.Range\[int, 1, (\d+)\]", source)
    assert found is not None
    return int(found[1])


LIVE_MAX = _live_max()
MATCH = ROUND_SIZE  # a match round's Focus (bot.play.digits)
DAILY = ROUND_SIZE  # the daily challenge: six questions, one at each level of its climb


def _key(question: Question) -> str:
    return fact_of(question.ascii) or question.ascii


def _round(year: str, level: int, count: int, seed: int) -> list[Question]:
    drawn = draw_round(year, level, count, random.Random(seed))
    assert len(drawn) == count
    assert len({_key(q) for q in drawn}) == count, [q.text for q in drawn]  # all different
    assert {q.level for q in drawn} == {level}
    assert draw_round(year, level, count, random.Random(seed)) == drawn  # deterministic
    assert {q.skill for q in drawn} <= {s for s, _ in ladder(year)}  # the year's own skills
    return drawn


@pytest.mark.parametrize("year", list(YEARS))
def test_every_level_of_every_year_draws_every_kind_of_round(year: str) -> None:
    for level in LEVELS:
        # Practice, as the bot asks it: a newcomer's round (the level's pool of four rounds and
        # one question of the next level), a pinned level's (no level above), at the top.
        def generate(lvl: int, count: int, rng: random.Random, year: str = year
                     ) -> list[Question]:
            return practice_questions(year, lvl, rng, count)

        for above in ({level + 1, None} if level < MAX_LEVEL else {None}):
            for pinned in (False, True):
                chosen = choose_round(Mastery(), level, random.Random(level), NOW,
                                      next_level=above, only_level=pinned, generate=generate)
                assert len(chosen) == ROUND_SIZE
                assert len({_key(q) for q in chosen}) == ROUND_SIZE
                again = choose_round(Mastery(), level, random.Random(level), NOW,
                                     next_level=above, only_level=pinned, generate=generate)
                assert again == chosen
        # The daily challenge's six, and one question at each level of its climb.
        _round(year, level, DAILY, seed=1)
        _round(year, level, 1, seed=2)
        # A live round and an assignment: every count their commands allow.
        for count in range(1, max(LIVE_MAX, ASSIGNMENT_MAX) + 1):
            _round(year, level, count, seed=count)
        # A match round's Focus.
        _round(year, level, MATCH, seed=3)
    # The daily climb's levels are Focus levels too (each drawn above).
    assert set(daily_levels(2, 7)) <= set(LEVELS)


@pytest.mark.parametrize("year", list(YEARS))
def test_every_kind_of_round_draws_through_the_bot_s_own_functions(year: str) -> None:
    """The same walk through the functions each kind calls: the daily challenge (its climb, and
    a server that pins one level), a live round or an assignment (``class_questions``: at a
    level, or on a skill climbing the server's levels), a match's Focus (each round's level)."""
    day = date(2026, 12, 7)
    for low, high in ((2, 7), (1, 8), *((n, n) for n in LEVELS)):
        daily = daily_questions(1, day, low, high, year=year)
        assert len(daily) == DAILY and len({_key(q) for q in daily}) == DAILY
        assert daily_questions(1, day, low, high, year=year) == daily  # the same for everyone
    for level in LEVELS:
        for count in (1, ROUND_SIZE, LIVE_MAX, ASSIGNMENT_MAX):
            asked = class_questions(year, level, random.Random(count), count, None, (1, 8))
            assert len({_key(q) for q in asked}) == count
    for skill in {s for s, _ in ladder(year)}:
        if skill == "squares":  # the squares of 2 to 20 are 19: never 20 different ones
            with pytest.raises(DomainError):
                class_questions(year, None, random.Random(1), LIVE_MAX, [skill], (1, 8))
            continue
        climb = class_questions(year, None, random.Random(1), LIVE_MAX, [skill], (1, 8))
        assert len(climb) == LIVE_MAX and {q.skill for q in climb} == {skill}
    for round_ in range(1, 16):
        asked = focus_questions("match-7", round_, "ana", None, year)
        assert len({_key(q) for q in asked}) == MATCH
        assert focus_questions("match-7", round_, "ana", None, year) == asked


def test_different_seeds_draw_different_rounds() -> None:
    for year in YEARS:
        for level in LEVELS:
            rounds = {tuple(q.ascii for q in draw_round(year, level, ROUND_SIZE,
                                                        random.Random(seed)))
                      for seed in range(5)}
            assert len(rounds) > 1, (year, level)


def test_a_small_share_borrows_from_its_neighbouring_levels_of_the_same_year() -> None:
    # 5e's level-1 share is one small skill level (squares of 2 to 15: 14 questions): a practice
    # pool of 24 borrows the next levels' skills rather than refuse.
    assert pool("5e", 1) == (("squares", 1),) and capacity(("squares", 1)) == 14
    widened = round_pool(ladder("5e"), 1, 24)
    assert widened[0] == ("squares", 1) and len(widened) > 1
    assert set(widened) <= set(ladder("5e"))
    # A round the level's own share can give stays within it.
    assert round_pool(ladder("5e"), 1, 6) == pool("5e", 1)
    # It widens in turn above and below: level 8's share of 3e borrows from below.
    top = round_pool(ladder("3e"), 8, 24)
    assert top[-1] == ladder("3e")[-1] and len(top) > len(pool("3e", 8))


@pytest.mark.parametrize("skill", list(SKILLS))
def test_a_skill_asked_alone_gives_a_round_in_every_year(skill: str) -> None:
    """``/focus live skill:`` or ``/class assign skill:``: that skill's questions only, the
    year's own levels of it first, its other levels when those are too few (6e simplifies only
    the easiest fractions, a live round asks 20)."""
    distinct = len({SKILLS[skill].level(lv.number).build(random.Random(n)).ascii
                    for lv in SKILLS[skill].levels for n in range(2000)})
    for year in YEARS:
        for level in (1, 4, 8):
            for count in (ROUND_SIZE, LIVE_MAX):
                if count > distinct:
                    # Only squares: the squares of 2 to 20 are 19 questions, never 20.
                    assert skill == "squares"
                    with pytest.raises(DomainError):
                        draw_round(year, level, count, random.Random(0), [skill])
                    continue
                drawn = draw_round(year, level, count, random.Random(count), [skill])
                assert {q.skill for q in drawn} == {skill}
                assert len({q.ascii for q in drawn}) == count
    # The year's own levels of the skill come first: what it practises is what it is asked.
    own = [ref for ref in year_refs("6e", ["fractions-simplify"])]
    assert own == [("fractions-simplify", 1)]
    small = draw_round("6e", 1, 5, random.Random(0), ["fractions-simplify"])
    assert {q.text for q in small} <= {f"{p * 2}/{q * 2}" for q in range(2, 7)
                                       for p in range(1, q)}


def test_capacity_counts_the_small_skill_levels_exactly() -> None:
    assert capacity(("square-roots", 1)) == 9  # √4 to √100
    assert capacity(("squares", 2)) == 10  # 11 × 11 to 20 × 20
    assert 50 <= capacity(("addition", 2)) <= 100  # a large one: enough is known
