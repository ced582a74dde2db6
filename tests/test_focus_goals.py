"""The goals of homework (``bot.focus.goals``): reading what a teacher types, when each kind
ends (at the goal and not before, or after the most answers), and the questions on the way."""

from __future__ import annotations

import random

import pytest

from bot.domain import DomainError
from bot.focus import generate_questions
from bot.focus.goals import (
    MAX_ATTEMPTS,
    PERCENT,
    RIGHT,
    Goal,
    goal_questions,
    read_goal,
)
from bot.focus.skills import generate_skill


@pytest.mark.parametrize("typed, goal", [
    ("right:10", Goal(RIGHT, 10)), ("10 right", Goal(RIGHT, 10)), ("Juste: 7", Goal(RIGHT, 7)),
    ("12 bonnes réponses", Goal(RIGHT, 12)), ("80%:10", Goal(PERCENT, 80, 10)),
    ("80 % sur 10", Goal(PERCENT, 80, 10)), ("75% of the last 8", Goal(PERCENT, 75, 8)),
    ("90%/20", Goal(PERCENT, 90, 20)), ("", None), (None, None)])
def test_what_a_teacher_types_is_read(typed, goal):
    assert read_goal(typed) == goal
    if goal is not None:
        assert Goal.from_stored(goal.stored()) == goal


@pytest.mark.parametrize("typed", ["10", "right:0", "right:31", "120%:10", "80%:1",
                                   "80%:21", "until good", "0%:10"])
def test_anything_else_is_refused_with_the_bounds(typed):
    with pytest.raises(DomainError) as refused:
        read_goal(typed)
    assert refused.value.code == "homework.bad_goal"


def test_n_right_answers_ends_at_the_nth_and_not_before():
    goal = Goal(RIGHT, 3)
    answers = [True, False, False, True]
    assert not goal.over(answers) and not goal.reached(answers)
    assert goal.reached([*answers, True]) and goal.over([*answers, True])


def test_a_percentage_needs_its_window_full_and_counts_only_the_last():
    goal = Goal(PERCENT, 80, 5)
    assert not goal.over([True] * 4)  # 100 % but only 4 answers
    assert goal.reached([True] * 5)
    assert not goal.reached([True, True, False, True, False, True])  # last 5: 3/5 = 60 %
    assert goal.reached([False, False, True, True, True, False, True])  # last 5: 4/5 = 80 %


def test_an_attempt_ends_after_the_most_answers_goal_not_reached():
    goal = Goal(RIGHT, 30)
    assert not goal.over([False] * (MAX_ATTEMPTS - 1))
    assert goal.over([False] * MAX_ATTEMPTS) and not goal.reached([False] * MAX_ATTEMPTS)


def test_a_wrong_answer_brings_a_fresh_question_of_the_same_skill():
    pool = generate_questions(4, 6, random.Random(1))
    asked = goal_questions(pool, [True, False, False, True], "7:42", redraw=True)
    assert asked[0] == pool[0] and asked[1] == pool[1]
    # After each wrong answer, the same topic at the same level, another question.
    assert asked[2].topic == asked[1].topic and asked[2].level == 4
    assert asked[2].text != asked[1].text and asked[3].topic == asked[2].topic
    assert asked[4] == pool[2]  # after a right answer, the pool goes on
    # The same for the same assignment, student and answers; another student's differ.
    assert goal_questions(pool, [True, False, False, True], "7:42", redraw=True) == asked
    others = [goal_questions(pool, [False], f"7:{n}", redraw=True)[1] for n in range(10)]
    assert len({q.text for q in others}) > 1


def test_a_skill_of_a_school_year_redraws_its_skill_and_a_set_its_pool():
    pool = generate_skill("fractions-add", 1, 3, random.Random(2))
    asked = goal_questions(pool, [False], "1:1", redraw=True)
    assert asked[1].skill == "fractions-add" and asked[1].form == pool[0].form
    assert asked[1].text != pool[0].text
    assert goal_questions(pool, [False, False, False], "1:1", redraw=False) == [
        pool[0], pool[1], pool[2], pool[0]]
