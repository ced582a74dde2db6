"""The placement engine (``bot.focus.placement``, issue 26): a student who answers right exactly
up to level k ends at k (within their levels), whatever the start and the range; never more
than 12 questions; the staircase moves one level; the state round-trips through JSON; the same
seed draws the same questions."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from bot.domain import DomainError
from bot.focus.placement import (
    MAX_QUESTIONS,
    PLACEMENT_FORMAT,
    Placement,
    Step,
    simulate,
)
from bot.focus.school import YEARS

RANGES = [(low, high) for low in range(1, 9) for high in range(low, 9)]


@pytest.mark.parametrize("knows", range(0, 10))
def test_a_student_right_up_to_level_k_ends_at_k(knows: int) -> None:
    for low, high in RANGES:
        for start in [None, *range(low, high + 1)]:
            placement = simulate(knows, low, high, start)
            assert placement.done
            assert placement.result == min(max(knows, low), high), (low, high, start)
            assert len(placement.steps) <= MAX_QUESTIONS
            assert all(low <= step.level <= high for step in placement.steps)


def test_the_default_placement_of_1_to_8_settles_within_seven_questions() -> None:
    # The first question at level 4; walked in docs/rules/focus.md.
    assert [len(simulate(k).steps) for k in range(0, 9)] == [5, 6, 5, 4, 4, 5, 6, 7, 6]
    walk = simulate(5)
    assert [(s.level, s.correct) for s in walk.steps] == [
        (4, True), (5, True), (6, False), (5, True), (6, False)]


def test_the_staircase_goes_up_after_a_right_answer_and_down_after_a_wrong_one() -> None:
    placement = Placement.new(2, 7)
    assert placement.level == 4  # the middle of 2–7
    placement = replace(placement, steps=(Step(4, True),))
    assert placement.level == 5
    placement = replace(placement, steps=(*placement.steps, Step(5, False)))
    assert placement.level == 4
    # Kept within the levels at both ends.
    top = replace(Placement.new(1, 3, 3), steps=(Step(3, True),))
    assert top.level == 3
    bottom = replace(Placement.new(2, 8, 2), steps=(Step(2, False),))
    assert bottom.level == 2


def test_a_noisy_student_stops_at_12_questions_within_the_levels() -> None:
    rng = random.Random(7)
    longest = 0
    for _ in range(2000):
        low = rng.randint(1, 8)
        high = rng.randint(low, 8)
        placement = Placement.new(low, high)
        while not placement.done:
            level = placement.level
            placement = replace(placement,
                                steps=(*placement.steps, Step(level, rng.random() < 0.5)))
        longest = max(longest, len(placement.steps))
        assert len(placement.steps) <= MAX_QUESTIONS
        assert low <= placement.result <= high
    assert longest == MAX_QUESTIONS  # some never settle: the cap is what stops them


def test_without_a_settled_level_the_highest_level_passed_is_given() -> None:
    # Alternating luck: 12 questions, never settled; level 5 has 2 right of 3.
    steps = [Step(4, True), Step(5, True), Step(6, False), Step(5, False), Step(4, True),
             Step(5, True), Step(6, True), Step(7, False), Step(6, False), Step(5, False),
             Step(4, False), Step(3, True)]
    placement = replace(Placement.new(), steps=tuple(steps))
    assert placement.done and placement.settled is None
    assert placement.result == 4  # 4: 2 right of 3; 5: 2 of 4 (not more right than wrong)


def test_asking_and_answering_through_real_questions_and_the_json_round_trip() -> None:
    placement = Placement.new(1, 8)
    rng = random.Random(3)
    knows = 6
    while not placement.done:
        question = placement.draw("cycle4", rng)
        assert question.level == placement.level
        assert question.text not in {q.text for q in placement.questions}
        placement = placement.ask(question)
        data = json.loads(json.dumps(placement.to_json()))
        assert data["format"] == PLACEMENT_FORMAT
        assert Placement.from_json(data) == placement
        assert placement.current == question
        placement = placement.answer(question.level <= knows)
        assert placement.current is None
        assert Placement.from_json(placement.to_json()) == placement
    assert placement.result == knows
    with pytest.raises(DomainError) as over:
        placement.ask(placement.draw("cycle4", rng))
    assert over.value.code == "placement.over"


def test_the_same_seed_draws_the_same_placement() -> None:
    def run(seed: int) -> list[str]:
        placement = Placement.new()
        texts = []
        index = 0
        while not placement.done:
            question = placement.draw("5e", random.Random(f"{seed}:{index}"))
            texts.append(question.text)
            placement = placement.ask(question).answer(question.level <= 3)
            index += 1
        return texts

    assert run(11) == run(11)
    assert run(11) != run(12)


@pytest.mark.parametrize("year", [*sorted(YEARS), None])
def test_every_year_gives_a_question_at_every_level(year: str | None) -> None:
    for level in range(1, 9):
        placement = Placement.new(level, level)
        assert placement.draw(year, random.Random(level)).level == level


def test_refusals_and_a_newer_format() -> None:
    placement = Placement.new()
    with pytest.raises(DomainError) as none_waiting:
        placement.answer(True)
    assert none_waiting.value.code == "placement.no_question"
    question = placement.draw(None, random.Random(1))
    asked = placement.ask(question)
    with pytest.raises(ValueError):
        asked.ask(question)  # a question is waiting already
    with pytest.raises(ValueError):
        placement.ask(replace(question, level=5))  # not the next level
    with pytest.raises(DomainError) as bad_range:
        Placement.new(6, 3)
    assert bad_range.value.code == "focus.bad_level_range"
    with pytest.raises(DomainError) as newer:
        Placement.from_json({**asked.to_json(), "format": PLACEMENT_FORMAT + 1})
    assert newer.value.code == "state.too_new"


def test_the_rules_walk_the_engine_s_placement() -> None:
    import re
    from pathlib import Path

    walk = ", ".join(f"{s.level} {'✓' if s.correct else '✗'}" for s in simulate(5).steps)
    for name in ("focus.md", "focus.fr.md"):
        text = (Path(__file__).resolve().parent.parent / "docs" / "rules" / name).read_text(
            encoding="utf-8")
        found = re.search(r"<!-- placement-walk -->(.*?)<!-- /placement-walk -->", text)
        assert found is not None and found[1] == walk, name
