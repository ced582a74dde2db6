"""A Focus round, the daily challenge and streaks."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.domain import DomainError
from bot.focus import (
    Answer,
    DailyChallenge,
    FocusRound,
    Question,
    Streak,
    daily_questions,
)
from bot.focus.daily import competition_ranks, daily_levels, daily_seed


def through_json(data: dict) -> dict:
    return json.loads(json.dumps(data))


def fixed_round(answers: list[int]) -> FocusRound:
    return FocusRound([Question(f"{a - 2} + 2", f"{a - 2} + 2", a, "addition", 1) for a in answers])


# --- a round -------------------------------------------------------------------------------

def test_documented_round_example_scores_four_of_six():
    focus = fixed_round([15, 6, 8, 7, 12, 30])
    for typed in ("15", "6", "9", "7"):
        focus.answer(typed, 3.0)
    focus.skip(20.0)
    focus.answer("30", 2.5)
    assert focus.finished and focus.score == 4
    assert [a.correct for a in focus.answers] == [True, True, False, True, False, True]
    assert focus.answers[4].given is None and focus.answers[2].given == 9
    assert focus.total_seconds == 3.0 * 4 + 20.0 + 2.5


def test_a_round_has_six_questions_and_walks_to_finished():
    focus = FocusRound.new(4, random.Random(9))
    assert len(focus.questions) == 6 and focus.index == 0 and not focus.finished
    for i in range(6):
        assert focus.current is focus.questions[i]
        focus.submit(focus.current.answer, 1.0)
    assert focus.finished and focus.current is None and focus.score == 6 and focus.index == 6


def test_each_answer_keeps_topic_expected_given_correct_and_time():
    focus = FocusRound.new(5, random.Random(2))
    question = focus.current
    answer = focus.answer(str(question.answer + 1), 4.25)
    assert answer == Answer(question=question.text, topic=question.topic, level=5,
                            expected=question.answer, given=question.answer + 1, correct=False,
                            seconds=4.25)


def test_unreadable_answer_changes_nothing_and_can_be_typed_again():
    focus = FocusRound.new(1, random.Random(1))
    before = focus.to_json()
    with pytest.raises(DomainError) as error:
        focus.answer("quinze", 2.0)
    assert error.value.code == "focus.not_a_number"
    assert focus.to_json() == before
    focus.answer(f"  {focus.current.answer} ", 3.0)
    assert focus.score == 1 and focus.answers[0].seconds == 3.0


def test_answers_typed_with_habits_are_marked_right():
    focus = FocusRound([Question("500 × 2", "500 * 2", 1000, "multiplication", 8)])
    focus.answer("1 000", 1)
    assert focus.score == 1


def test_a_finished_round_refuses_more_answers():
    focus = fixed_round([3])
    focus.answer("3", 1)
    for act in (lambda: focus.answer("3", 1), lambda: focus.skip(1), lambda: focus.submit(3, 1)):
        with pytest.raises(DomainError) as error:
            act()
        assert error.value.code == "focus.round_finished"
    assert len(focus.answers) == 1


@pytest.mark.parametrize("bad", [-1, float("nan"), float("inf"), "3", None])
def test_times_must_be_finite_seconds_from_zero(bad):
    focus = fixed_round([3])
    with pytest.raises(ValueError):
        focus.answer("3", bad)
    assert focus.answers == []


def test_round_json_round_trip_at_every_step():
    focus = FocusRound.new(7, random.Random(11))
    assert FocusRound.from_json(through_json(focus.to_json())) == focus
    while not focus.finished:
        if focus.index == 2:
            focus.skip(30.0)
        else:
            focus.answer(str(focus.current.answer), 1.0 + focus.index / 3)
        copy = FocusRound.from_json(through_json(focus.to_json()))
        assert copy == focus and copy.score == focus.score and copy.index == focus.index
    assert FocusRound.from_json(through_json(focus.to_json())).finished


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32), level=st.integers(1, 8),
       plan=st.lists(st.tuples(st.booleans(), st.floats(0, 60)), min_size=6, max_size=6))
def test_property_score_counts_right_answers(seed, level, plan):
    focus = FocusRound.new(level, random.Random(seed))
    for right, seconds in plan:
        q = focus.current
        focus.submit(q.answer if right else q.answer + 7, seconds)
    assert focus.score == sum(right for right, _ in plan)
    assert 0 <= focus.score <= 6
    assert FocusRound.from_json(through_json(focus.to_json())) == focus


# --- the daily challenge -------------------------------------------------------------------

DAY = date(2026, 11, 30)
SERVER = 112233445566778899


def test_daily_set_is_the_same_for_one_server_and_date():
    assert daily_questions(SERVER, DAY) == daily_questions(SERVER, DAY)
    challenge = DailyChallenge.new(SERVER, DAY)
    assert challenge.start(1).questions == challenge.start(2).questions == challenge.questions


def test_daily_set_differs_between_dates_and_between_servers():
    base = [q.text for q in daily_questions(SERVER, DAY)]
    for other_day in (DAY + timedelta(days=1), DAY - timedelta(days=1), date(2027, 11, 30)):
        assert [q.text for q in daily_questions(SERVER, other_day)] != base
    assert [q.text for q in daily_questions(SERVER + 1, DAY)] != base


def test_daily_seed_does_not_depend_on_pythons_hash():
    code = ("from datetime import date; from bot.focus import daily_questions;"
            f"print([q.text for q in daily_questions({SERVER}, date(2026, 11, 30))])")
    outputs = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env, check=True, cwd=os.path.dirname(os.path.dirname(__file__)))
        outputs.add(out.stdout)
    assert outputs == {str([q.text for q in daily_questions(SERVER, DAY)]) + "\n"}
    assert daily_seed(SERVER, DAY) == daily_seed(SERVER, date.fromisoformat("2026-11-30"))


@pytest.mark.parametrize("low,high,levels", [((2), (7), [2, 3, 4, 5, 6, 7]),
                                             (1, 8, [1, 2, 4, 5, 7, 8]),
                                             (4, 4, [4] * 6), (1, 2, [1, 1, 1, 2, 2, 2])])
def test_daily_levels_climb_over_the_server_range(low, high, levels):
    assert daily_levels(low, high) == levels
    assert [q.level for q in daily_questions(SERVER, DAY, low, high)] == levels


def test_daily_default_range_has_one_question_per_level_two_to_seven():
    assert [q.level for q in DailyChallenge.new(SERVER, DAY).questions] == [2, 3, 4, 5, 6, 7]


def test_daily_bad_range_is_refused():
    with pytest.raises(DomainError) as error:
        DailyChallenge.new(SERVER, DAY, 6, 3)
    assert error.value.code == "focus.bad_level_range"
    with pytest.raises(DomainError) as error:
        DailyChallenge.new(SERVER, DAY, 0, 3)
    assert error.value.code == "focus.unknown_level"


def test_one_attempt_a_day():
    challenge = DailyChallenge.new(SERVER, DAY)
    challenge.start(7)
    with pytest.raises(DomainError) as error:
        challenge.start(7)
    assert error.value.code == "focus.daily_already_played"
    with pytest.raises(DomainError) as error:
        challenge.answer(8, "3", 1.0)
    assert error.value.code == "focus.daily_not_started"


def play(challenge: DailyChallenge, player: int, right: int, seconds: float,
         finish: bool = True) -> None:
    challenge.start(player)
    attempt = challenge.attempt(player)
    for i in range(6 if finish else 3):
        q = attempt.current
        challenge.answer(player, str(q.answer if i < right else q.answer + 1), seconds)


def test_daily_ranking_by_score_then_total_time_ties_share_a_rank():
    challenge = DailyChallenge.new(SERVER, DAY)
    play(challenge, 1, right=5, seconds=4.0)   # 5, 24 s
    play(challenge, 2, right=6, seconds=9.0)   # 6, 54 s
    play(challenge, 3, right=5, seconds=3.0)   # 5, 18 s
    play(challenge, 4, right=5, seconds=4.0)   # 5, 24 s: tied with 1
    play(challenge, 5, right=2, seconds=1.0)   # 2, 6 s
    play(challenge, 6, right=6, seconds=1.0, finish=False)  # not finished: not ranked
    ranking = challenge.ranking()
    assert [(s.rank, s.player, s.score, s.seconds) for s in ranking] == [
        (1, 2, 6, 54.0), (2, 3, 5, 18.0), (3, 1, 5, 24.0), (3, 4, 5, 24.0), (5, 5, 2, 6.0)]
    assert challenge.finished(1) and not challenge.finished(6) and not challenge.finished(99)


def test_daily_skips_count_in_the_total_time():
    challenge = DailyChallenge.new(SERVER, DAY)
    challenge.start(1)
    for _ in range(6):
        challenge.skip(1, 30.0)
    assert challenge.ranking()[0].score == 0 and challenge.ranking()[0].seconds == 180.0


def test_competition_ranks():
    assert competition_ranks([]) == []
    assert competition_ranks([(6, 1.0), (6, 1.0), (5, 2.0), (5, 3.0), (5, 3.0)]) == [1, 1, 3, 4, 4]


def test_daily_json_round_trip():
    challenge = DailyChallenge.new(SERVER, DAY, 3, 8)
    play(challenge, 1, right=4, seconds=2.5)
    play(challenge, 2, right=1, seconds=1.5, finish=False)
    copy = DailyChallenge.from_json(through_json(challenge.to_json()))
    assert copy.to_json() == challenge.to_json()
    assert copy.ranking() == challenge.ranking() and copy.day == DAY
    copy.answer(2, "1", 1.0)  # the unfinished attempt carries on
    assert copy.attempt(2).index == 4


# --- streaks -------------------------------------------------------------------------------

MONDAY = date(2026, 11, 30)


def test_documented_streak_example():
    tue, wed, thu, fri = (MONDAY + timedelta(days=n) for n in (1, 2, 3, 4))
    streak = Streak().record(MONDAY).record(tue).record(wed)
    assert streak.current == 3
    assert streak.record(wed) == streak  # the same day twice counts once
    assert streak.on(wed) == 3 and streak.on(thu) == 3  # alive until Thursday ends
    assert streak.on(fri) == 0  # Thursday was missed
    streak = streak.record(fri)
    assert streak.current == 1 and streak.best == 3 and streak.on(fri) == 1


def test_streak_best_grows_with_a_longer_run():
    streak = Streak()
    for n in range(3):
        streak = streak.record(MONDAY + timedelta(days=n))
    for n in range(10, 15):
        streak = streak.record(MONDAY + timedelta(days=n))
    assert (streak.current, streak.best) == (5, 5)


def test_streak_ignores_an_earlier_day_and_starts_at_one():
    assert Streak().on(MONDAY) == 0
    streak = Streak().record(MONDAY)
    assert (streak.current, streak.best, streak.last_day) == (1, 1, MONDAY)
    assert streak.record(MONDAY - timedelta(days=1)) == streak


def test_streak_json_round_trip():
    for streak in (Streak(), Streak().record(MONDAY).record(MONDAY + timedelta(days=1))):
        assert Streak.from_json(through_json(streak.to_json())) == streak
