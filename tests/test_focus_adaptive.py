"""The adaptive level rule, the teacher's pin and the server's range."""

from __future__ import annotations

import pytest

from bot.domain import DomainError
from bot.focus import Answer, next_level


def answers(level: int, topic: str, right: int, wrong: int) -> list[Answer]:
    out = [Answer("q", topic, level, 5, 5, True, 2.0) for _ in range(right)]
    out += [Answer("q", topic, level, 5, 4, False, 2.0) for _ in range(wrong)]
    return out


def test_documented_up_eleven_of_twelve_no_weak_topic():
    history = answers(4, "multiplication", 6, 0) + answers(4, "division", 5, 1)
    advice = next_level(history, current=4)
    assert (advice.level, advice.reason, advice.right, advice.answers) == (5, "up", 11, 12)
    assert advice.weak_topics == ()


def test_documented_weak_topic_holds_the_level():
    history = answers(4, "multiplication", 8, 0) + answers(4, "division", 2, 2)
    advice = next_level(history, current=4)
    assert (advice.level, advice.reason, advice.weak_topics) == (4, "stay", ("division",))


def test_documented_down_five_of_twelve():
    history = answers(4, "multiplication", 3, 3) + answers(4, "division", 2, 4)
    advice = next_level(history, current=4)
    assert (advice.level, advice.reason) == (3, "down")
    assert advice.weak_topics == ("multiplication", "division")


def test_documented_not_enough_answers():
    advice = next_level(answers(4, "division", 4, 0), current=4)
    assert (advice.level, advice.reason) == (4, "not_enough_answers")


def test_half_right_stays_just_under_half_goes_down():
    assert next_level(answers(3, "addition", 3, 3), current=3).reason == "stay"
    assert next_level(answers(3, "addition", 5, 6), current=3).reason == "down"


def test_five_of_six_goes_up_four_of_six_stays():
    assert next_level(answers(2, "addition", 5, 1), current=2).level == 3
    assert next_level(answers(2, "addition", 4, 2), current=2).level == 2


def test_only_the_last_twelve_answers_at_the_current_level_count():
    old_mistakes = answers(4, "division", 0, 12)
    other_level = answers(3, "addition", 0, 20)
    recent = answers(4, "division", 12, 0)
    advice = next_level(old_mistakes + other_level + recent, current=4)
    assert (advice.level, advice.right, advice.answers) == (5, 12, 12)


def test_skipped_questions_count_as_wrong():
    skipped = [Answer("q", "addition", 1, 5, None, False, 30.0)] * 6
    assert next_level(skipped, current=2).reason == "not_enough_answers"
    assert next_level(skipped, current=1).level == 1  # down from 1 is nowhere: stays


def test_new_player_starts_at_the_bottom_of_the_range():
    assert (next_level([]).level, next_level([]).reason) == (1, "start")
    assert next_level([], min_level=3, max_level=6).level == 3


def test_the_range_and_the_top_level_stop_the_rule():
    perfect = answers(6, "priority", 12, 0)
    assert (next_level(perfect, current=6, max_level=6).level,
            next_level(perfect, current=6, max_level=6).reason) == (6, "stay")
    assert next_level(answers(8, "squares", 12, 0), current=8).level == 8
    low = answers(3, "addition", 0, 12)
    assert next_level(low, current=3, min_level=3).level == 3
    moved = next_level([], current=8, min_level=2, max_level=5)
    assert (moved.level, moved.reason) == (5, "range")


def test_a_teachers_pin_wins_within_the_range():
    perfect = answers(4, "division", 12, 0)
    assert (next_level(perfect, current=4, pin=2).level,
            next_level(perfect, current=4, pin=2).reason) == (2, "pinned")
    assert next_level(perfect, current=4, pin=8, max_level=6).level == 6
    assert next_level([], pin=5).level == 5


def test_bad_levels_and_ranges_are_refused():
    for kwargs in ({"current": 9}, {"pin": 0, "current": 2}, {"min_level": 5, "max_level": 4}):
        with pytest.raises(DomainError) as error:
            next_level([], **kwargs)
        assert error.value.code in ("focus.unknown_level", "focus.bad_level_range")


def test_advice_to_json():
    advice = next_level(answers(4, "division", 3, 3), current=4)
    assert advice.to_json() == {"level": 4, "reason": "stay", "right": 3, "answers": 6,
                                "weak_topics": ["division"]}
