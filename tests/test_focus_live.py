"""A live class round: points for correctness and speed, the running ranking, late joiners."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from bot.domain import DomainError
from bot.focus import LiveRound, Question, live_points


def class_round(answers=(15, 6, 8), time_limit=20.0) -> LiveRound:
    return LiveRound([Question(f"q{a}", f"q{a}", a, "addition", 1) for a in answers], time_limit)


@pytest.mark.parametrize("correct,seconds,points", [
    (True, 0, 1000), (True, 6, 850), (True, 10, 750), (True, 20, 500), (True, 13.3, 667),
    (False, 2, 0), (False, 0, 0)])
def test_documented_points_with_a_20_second_limit(correct, seconds, points):
    assert live_points(correct, seconds, 20.0) == points


def test_points_fall_with_time_and_stay_between_500_and_1000():
    values = [live_points(True, t / 10, 30.0) for t in range(0, 301)]
    assert values == sorted(values, reverse=True)
    assert values[0] == 1000 and values[-1] == 500


def test_a_question_scores_right_and_fast_above_right_and_slow_above_wrong():
    live = class_round()
    live.next_question()
    fast = live.answer(1, "15", 2.0)
    slow = live.answer(2, "15", 15.0)
    wrong = live.answer(3, "14", 1.0)
    assert fast.points > slow.points > wrong.points == 0
    assert fast.answer.correct and not wrong.answer.correct and wrong.answer.given == 14


def test_first_readable_answer_is_final_unreadable_can_be_retyped():
    live = class_round()
    live.next_question()
    with pytest.raises(DomainError) as error:
        live.answer(1, "quinze", 1.0)
    assert error.value.code == "focus.not_a_number" and live.answers == [] and live.players == []
    live.answer(1, "14", 2.0)
    with pytest.raises(DomainError) as error:
        live.answer(1, "15", 3.0)
    assert error.value.code == "focus.live_already_answered"
    assert [a.answer.given for a in live.answers] == [14]


def test_answers_after_the_limit_or_with_no_question_open_are_refused():
    live = class_round(time_limit=10)
    with pytest.raises(DomainError) as error:
        live.answer(1, "15", 1.0)
    assert error.value.code == "focus.live_no_question"
    live.next_question()
    with pytest.raises(DomainError) as error:
        live.answer(1, "15", 10.5)
    assert error.value.code == "focus.live_too_late"
    assert live.answer(1, "15", 10.0).points == 500
    live.close_question()
    with pytest.raises(DomainError) as error:
        live.answer(2, "15", 3.0)
    assert error.value.code == "focus.live_no_question"
    with pytest.raises(DomainError) as error:
        live.close_question()
    assert error.value.code == "focus.live_no_question"


def test_running_ranking_with_a_late_joiner_and_ties():
    live = class_round()
    live.join(1)
    live.join(2)
    assert live.join(2) is False
    live.next_question()  # 15
    live.answer(1, "15", 0.0)  # 1000
    live.answer(2, "15", 10.0)  # 750
    assert [(s.rank, s.player, s.points) for s in live.ranking()] == [(1, 1, 1000), (2, 2, 750)]
    live.next_question()  # 6 (the first question closes)
    live.answer(3, "6", 0.0)  # a late joiner, by answering: 1000
    live.answer(2, "6", 10.0)  # 750
    live.answer(1, "7", 1.0)  # wrong: 0
    assert [(s.rank, s.player, s.points, s.correct, s.answered) for s in live.ranking()] == [
        (1, 2, 1500, 2, 2), (2, 1, 1000, 1, 2), (2, 3, 1000, 1, 1)]
    live.join(4)  # joins at question 3 with nothing yet
    live.next_question()
    live.close_question()
    assert live.finished
    assert live.ranking()[-1].player == 4 and live.ranking()[-1].points == 0
    assert live.ranking()[-1].rank == 4
    with pytest.raises(DomainError) as error:
        live.join(5)
    assert error.value.code == "focus.live_finished"


def test_next_question_after_the_last_is_refused():
    live = class_round(answers=(4,))
    live.next_question()
    with pytest.raises(DomainError) as error:
        live.next_question()
    assert error.value.code == "focus.live_finished"
    assert live.open and not live.finished


def test_everyone_gets_the_same_question_set():
    live = LiveRound.new(6, random.Random(4), count=8)
    assert len(live.questions) == 8 and live.current is None
    shown = [live.next_question() for _ in range(8)]
    assert shown == live.questions and len({q.text for q in shown}) == 8


@pytest.mark.parametrize("limit", [0, 4.9, 301, float("nan"), -5])
def test_time_limit_out_of_range_is_refused(limit):
    with pytest.raises(DomainError) as error:
        LiveRound.new(3, random.Random(1), time_limit=limit)
    assert error.value.code == "focus.bad_time_limit"


def test_live_json_round_trip_mid_round():
    live = LiveRound.new(7, random.Random(8), time_limit=30)
    live.join(10)
    live.next_question()
    live.answer(11, str(live.current.answer), 4.2)
    live.answer(10, "1", 7.0)
    copy = LiveRound.from_json(json.loads(json.dumps(live.to_json())))
    assert copy == live and copy.ranking() == live.ranking()
    copy.next_question()
    copy.answer(10, str(copy.current.answer), 1.0)
    assert copy.ranking()[0].player == 10 and copy.answers_to(1)[0].player == 10


@pytest.mark.parametrize(("factor", "seconds", "points"), [
    (2.0, 30.0, 625),   # 30 s of 40 count as 15 s of 20
    (2.0, 40.0, 500),   # the last moment of their own window
    (1.5, 15.0, 750),   # 15 s of 30 count as 10 s
    (None, 19.0, 762),  # no timer: counted as at ×2, 9.5 s
    (None, 600.0, 500),
])
def test_extra_time_takes_no_speed_points_away(factor, seconds, points):
    assert live_points(True, seconds, 20.0, factor) == points
    assert live_points(True, seconds / (factor or 2.0), 20.0) == points
    assert live_points(False, seconds, 20.0, factor) == 0


def test_a_students_own_window_is_the_limit_times_their_factor():
    game = class_round()
    game.next_question()
    with pytest.raises(DomainError) as late:
        game.answer(1, "15", 20.5)
    assert late.value.code == "focus.live_too_late"
    assert game.answer(2, "15", 39.0, 2.0).points == live_points(True, 19.5, 20.0)
    with pytest.raises(DomainError):
        game.answer(3, "15", 30.5, 1.5)
    assert game.answer(4, "15", 1000.0, None).points == 500
    assert game.window(None) == float("inf") and game.window(1.5) == 30.0


def test_a_question_waits_for_everyone_who_joined():
    game = class_round()
    game.next_question()
    assert not game.everyone_answered()  # nobody joined: nobody to wait for, nor to close on
    game.join(1)
    game.join(2)
    game.answer(1, "15", 1.0)
    assert not game.everyone_answered()
    game.answer(2, "3", 2.0)
    assert game.everyone_answered()
    game.close_question()
    assert not game.everyone_answered()


def test_a_question_that_closes_by_itself_holds_no_timer_as_twice_the_time():
    game = class_round(time_limit=15.0)
    assert [game.hold(f) for f in (1.0, 1.5, 2.0, None)] == [15.0, 22.5, 30.0, 30.0]
    game.next_question()
    assert game.answer(1, "15", 45.0, None).points == 500  # its own answers have no limit


def test_a_fraction_question_takes_a_half_as_a_fraction_or_a_decimal_and_refuses_words():
    # Issue 26: a live round of a school year reads answers by the question's form.
    half = Question(text="1/4 + 1/4", ascii="1/4 + 1/4", answer=Fraction(1, 2),
                    topic="fractions", level=3, skill="fractions-add", form="fraction")
    game = LiveRound([half], 20.0)
    game.next_question()
    with pytest.raises(DomainError) as refused:
        game.answer(1, "a half", 1.0)
    assert refused.value.code == "focus.not_a_fraction"
    for player, typed in ((1, "1/2"), (2, "0,5"), (3, "2/4"), (4, "0.5")):
        scored = game.answer(player, typed, 1.0)
        assert scored.answer.correct and scored.answer.given == Fraction(1, 2), typed
        assert (scored.answer.skill, scored.answer.form) == ("fractions-add", "fraction")
    assert not game.answer(5, "1/3", 1.0).answer.correct
