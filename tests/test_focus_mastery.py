"""The mastery model (bot/focus/mastery.py): fact keys, each transition, the review schedule on
a replaced clock, the JSON, the round chosen from it (bot/focus/review.py) and the level it
decides (bot/focus/adaptive.py ``model_level``)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from bot.domain import DomainError
from bot.focus import Answer, Question, generate_questions
from bot.focus.adaptive import model_level
from bot.focus.mastery import (
    ATTEMPTED,
    FACT,
    FAMILIAR,
    FAST,
    MASTERED,
    PROFICIENT,
    SKILL,
    SLOW,
    WRONG,
    Evidence,
    Mastery,
    fact_of,
    map_data,
    moves,
    skill_of,
    skill_seconds,
    step,
)
from bot.focus.review import (
    REVIEW_SLOTS,
    choose_round,
    fact_level,
    question_for_fact,
    round_shares,
)

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def days(n: float) -> datetime:
    return T0 + timedelta(days=n)


def play(results: str, *, every: float = 0.0) -> list:
    """The item of "7*8" after each outcome in ``results``, answered ``every`` days apart."""
    item, out = None, []
    for n, result in enumerate(results):
        item = step(item, FACT, "7*8", result, days(n * every))
        out.append(item)
    return out


def test_fact_keys_are_read_from_the_text_never_evaluated():
    assert fact_of("8 × 7") == fact_of("7 * 8") == "7*8"
    assert fact_of("8 + 5 =") == fact_of("5 + 8") == "5+8"
    assert fact_of("13 − 5") == "13-5" and fact_of("5 - 13") is None
    assert fact_of("56 ÷ 8 = ?") == "56/8" and fact_of("57 / 8") is None
    assert fact_of("15 + 9") is None  # beyond 20: not a fact
    assert fact_of("13 × 7") is None  # beyond the tables to 12
    assert fact_of("3 + 4 × 5") is None and fact_of("__import__('os')") is None


def test_skill_of_prefers_the_question_s_skill_attribute():
    question = Question("7 × 8", "7 * 8", 56, "multiplication", 4)
    assert skill_of(question) == "multiplication"
    assert skill_of(SimpleNamespace(skill="fractions", topic="x")) == "fractions"
    assert skill_of(SimpleNamespace(skill="", topic="addition")) == "addition"


def test_thresholds_fact_three_seconds_skill_by_level():
    right = Evidence("7 × 8", "multiplication", 4, True, 3.0, T0)
    assert [(k, r) for k, _, r in moves(right)] == [(FACT, FAST), (SKILL, FAST)]
    slow = Evidence("7 × 8", "multiplication", 4, True, 3.5, T0)
    assert [r for _, _, r in moves(slow)] == [SLOW, FAST]  # a skill at level 4 has 4 s
    slower = Evidence("7 × 8", "multiplication", 4, True, 4.5, T0)
    assert [r for _, _, r in moves(slower)] == [SLOW, SLOW]
    two_steps = Evidence("4 + 3 × 5", "priority", 6, True, 7.0, T0)
    assert moves(two_steps) == [(SKILL, "priority:6", FAST)]  # 8 s at level 6, no fact
    assert skill_seconds("fractions", 2) == 10.0
    from_a_set = Evidence("7 × 8", "my topic", 1, False, 1.0, T0, counts_for_skill=False)
    assert moves(from_a_set) == [(FACT, "7*8", WRONG)]


def test_the_first_answer_attempted_or_familiar():
    assert play(WRONG)[0].level == ATTEMPTED
    assert play(SLOW)[0].level == FAMILIAR
    assert play(FAST)[0].level == FAMILIAR


def test_familiar_to_proficient_when_fast_in_two_of_the_last_three():
    assert [i.level for i in play("fsf")] == [FAMILIAR, FAMILIAR, PROFICIENT]
    assert [i.level for i in play("ff")] == [FAMILIAR, PROFICIENT]
    assert [i.level for i in play("fss")] == [FAMILIAR, FAMILIAR, FAMILIAR]


def test_proficient_to_mastered_only_after_the_spaced_reviews():
    crammed = play("ffffff")  # the same day: proficient, never mastered
    assert crammed[-1].level == PROFICIENT and crammed[-1].step == 1
    # Answered on day 0, then when due: day 1 (step 2), day 4 (step 3 → mastered).
    item = step(None, FACT, "7*8", FAST, days(0))
    item = step(item, FACT, "7*8", FAST, days(1))
    assert (item.level, item.step, item.due) == (PROFICIENT, 2, days(4))
    item = step(item, FACT, "7*8", FAST, days(4))
    assert (item.level, item.step, item.due) == (MASTERED, 3, days(11))


def test_levels_drop_a_wrong_answer_one_level_a_slow_one_from_mastered():
    mastered = step(step(step(None, FACT, "k", FAST, days(0)), FACT, "k", FAST, days(1)),
                    FACT, "k", FAST, days(4))
    assert mastered.level == MASTERED
    slow = step(mastered, FACT, "k", SLOW, days(11))
    assert (slow.level, slow.step, slow.due) == (PROFICIENT, 0, days(12))
    wrong = step(mastered, FACT, "k", WRONG, days(11))
    assert (wrong.level, wrong.step, wrong.due) == (PROFICIENT, 0, days(11))
    assert step(wrong, FACT, "k", WRONG, days(11)).level == FAMILIAR
    bottom = play("www")[-1]
    assert bottom.level == ATTEMPTED and (bottom.answers, bottom.correct, bottom.fast) == (3, 0, 0)
    with pytest.raises(ValueError):
        step(None, FACT, "k", "x", T0)


def test_the_review_schedule_one_three_seven_twenty_one_days_on_a_replaced_clock():
    item, now, dues = None, T0, []
    for _ in range(6):
        item = step(item, FACT, "7*8", FAST, now)
        dues.append((item.due - now).days)
        now = item.due  # the member comes back exactly when it is due
    assert dues == [1, 3, 7, 21, 21, 21]
    early = step(item, FACT, "7*8", FAST, now - timedelta(days=2))  # before due: no review
    assert (early.step, early.due) == (item.step, item.due)
    wrong = step(item, FACT, "7*8", WRONG, now)
    assert wrong.is_due(now) and wrong.step == 0  # the next round
    again = step(wrong, FACT, "7*8", FAST, now + timedelta(minutes=5))
    assert again.due == now + timedelta(days=1, minutes=5)


def test_the_model_round_trips_through_json_with_its_format():
    model = Mastery()
    model.record(Evidence("8 × 7", "multiplication", 4, True, 1.2, T0))
    model.record(Evidence("13 − 5", "subtraction", 2, False, 4.0, days(1)))
    data = model.to_json()
    assert data["format"] == 1 and len(data["items"]) == 4
    assert Mastery.from_json(data) == model
    assert Mastery.from_json({"items": data["items"]}) == model  # before versions: format 0
    with pytest.raises(DomainError) as newer:
        Mastery.from_json({**data, "format": 2})
    assert newer.value.code == "state.too_new"


def test_a_question_for_a_fact_asks_it_in_both_orders():
    rng = random.Random(5)
    texts = {question_for_fact("7*8", rng).text for _ in range(40)}
    assert texts == {"7 × 8", "8 × 7"}
    q = question_for_fact("13-5", rng)
    assert (q.text, q.answer, q.topic, q.level) == ("13 − 5", 8, "subtraction", 2)
    assert question_for_fact("56/8", rng).answer == 7
    assert [fact_level(f) for f in ("5+8", "13-5", "3*9", "7*8", "11*12")] == [1, 2, 3, 4, 5]


def test_a_round_mostly_the_level_plus_the_due_facts_plus_one_of_the_next_level():
    model = Mastery()
    for fact in ("3 × 4", "6 × 9", "8 × 7"):  # three facts answered wrong yesterday: due
        model.record(Evidence(fact, "multiplication", 4, False, 2.0, days(-1)))
    totals = {"review": 0, "level": 0, "next": 0}
    for seed in range(200):
        questions = choose_round(model, 4, random.Random(seed), T0, next_level=5)
        assert len(questions) == 6 and len({q.text for q in questions}) == 6
        assert questions[-1].level == 5
        for kind, n in round_shares(questions, model, 4, T0).items():
            totals[kind] += n
    # Two review slots a round (a pool question may be a due fact too), one above, the rest.
    assert totals["next"] == 200
    assert 2 * 200 <= totals["review"] <= 2 * 200 + 60
    assert totals["level"] == 6 * 200 - totals["review"] - totals["next"]
    top = choose_round(model, 4, random.Random(1), T0, next_level=None)
    assert all(q.level <= 4 for q in top)
    assert REVIEW_SLOTS == 2


def test_a_round_prefers_what_the_member_does_not_know_yet():
    model = Mastery()
    known = [f"{a} × {b}" for a in range(2, 11) for b in range(a, 11) if (a + b) % 3]
    for text in known:  # known facts, not due (answered well a moment ago)
        model.record(Evidence(text, "multiplication", 4, True, 1.0, T0))
    def known_asked(questions: list[Question]) -> int:
        return sum(model.fact(fact_of(q.ascii) or "") is not None for q in questions)

    later = T0 + timedelta(hours=1)
    chosen = sum(known_asked(choose_round(model, 4, random.Random(s), later)) for s in range(100))
    drawn = sum(known_asked(generate_questions(4, 6, random.Random(s))) for s in range(100))
    assert chosen * 4 < drawn, (chosen, drawn)  # the pool's unknown facts come first


def test_the_model_decides_the_level_the_pin_wins():
    model = Mastery()
    history = [Answer("q", "addition", 1, 5, 5, True, 1.0) for _ in range(6)]
    for n in range(6):
        model.record(Evidence(f"{n + 2} + 3", "addition", 1, True, 1.0, T0))
    advice = model_level(model, history, current=1)
    assert (advice.level, advice.reason, advice.weak_topics) == (2, "up", ())
    assert model_level(model, history, current=1, pin=4).reason == "pinned"
    two = Mastery()
    wrong = [Answer("q", "subtraction", 2, 5, 4, False, 1.0) for _ in range(6)]
    for n in range(6):
        two.record(Evidence(f"{n + 9} - 3", "subtraction", 2, False, 1.0, T0))
    down = model_level(two, wrong, current=2)
    assert (down.level, down.reason, down.weak_topics) == (1, "down", ("subtraction",))
    few = model_level(model, history[:4], current=1)
    assert few.reason == "not_enough_answers"
    # Proficient, but three of the last five wrong: not up (the answers' share too).
    mixed = history[:2] + [Answer("q", "addition", 1, 5, 4, False, 1.0)] * 3
    assert model_level(model, mixed, current=1).reason == "stay"
    # Addition proficient, subtraction never seen at level 2: not up yet.
    stay = Mastery()
    for n in range(6):
        stay.record(Evidence(f"{n + 2} + 3", "addition", 2, True, 1.0, T0))
    level_two = [Answer("q", "addition", 2, 5, 5, True, 1.0) for _ in range(6)]
    assert model_level(stay, level_two, current=2).reason == "stay"


def test_the_map_draws_the_tables_facts_and_each_skill_at_its_highest_level():
    model = Mastery()
    for text, topic, level, right in (("8 × 7", "multiplication", 4, True),
                                      ("11 × 12", "multiplication", 5, True),
                                      ("13 − 5", "subtraction", 2, False),
                                      ("9 + 9", "addition", 1, True),
                                      ("3 × 4", "multiplication", 3, False)):
        model.record(Evidence(text, topic, level, right, 1.0, T0))
    data = map_data(model, T0 + timedelta(hours=1))
    assert data["facts"] == {"7*8": FAMILIAR, "9+9": FAMILIAR, "3*4": ATTEMPTED}
    assert data["skills"] == [{"skill": "addition", "level": 1, "mastery": FAMILIAR},
                              {"skill": "subtraction", "level": 2, "mastery": ATTEMPTED},
                              {"skill": "multiplication", "level": 5, "mastery": FAMILIAR}]
    # 110 cells' facts (55 a side), none mastered; due: the two wrong facts (the map's or not).
    assert (data["table"], data["seen"], data["mastered"], data["due"]) == (110, 3, 0, 2)


def test_at_a_pinned_level_only_that_levels_facts_come_back():
    model = Mastery()
    model.record(Evidence("8 + 5", "addition", 1, False, 2.0, days(-1)))
    model.record(Evidence("7 × 8", "multiplication", 4, False, 2.0, days(-1)))
    for seed in range(30):
        mixed = {fact_of(q.ascii) for q in choose_round(model, 4, random.Random(seed), T0)}
        assert {"5+8", "7*8"} <= mixed
        pinned = choose_round(model, 4, random.Random(seed), T0, only_level=True)
        assert "7*8" in {fact_of(q.ascii) for q in pinned} and {q.level for q in pinned} == {4}
