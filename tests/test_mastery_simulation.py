"""The simulation of tools/experiments/mastery_review.py in small: its student learns at the
third correction, the table needs the spaced reviews (days, not only rounds), and rounds chosen
from the model master it sooner than rounds drawn at random (figures: docs/benchmarks.md).
tools/bench/mastery.py runs in small in test_tools.py."""

from __future__ import annotations

from bot.focus import Question
from tools.experiments.mastery_review import TABLE, Student, main, simulate


def test_the_student_learns_a_fact_at_its_third_correction() -> None:
    student = Student(known={"2*3"})
    asked = Question("8 × 7", "8 * 7", 56, "multiplication", 4)
    assert [student.answer(asked)[0] for _ in range(4)] == [False, False, False, True]
    assert student.answer(Question("3 × 2", "3 * 2", 6, "multiplication", 4)) == (True, 1.5)
    assert student.answer(Question("56 ÷ 8", "56 / 8", 7, "division", 4))[0]  # not the table
    assert len(TABLE) == 45


def test_a_student_who_knows_it_all_still_needs_the_reviews_days() -> None:
    run = simulate(review=True, seed=2, known=1.0, max_rounds=300)
    assert run.rounds is not None and run.days >= 5  # day 1, then +1 day, then +3 days


def test_review_masters_the_table_in_fewer_rounds_than_random_rounds() -> None:
    for seed in (1, 2):
        reviewed = simulate(review=True, seed=seed, known=0.6)
        drawn = simulate(review=False, seed=seed, known=0.6)
        assert reviewed.rounds is not None and drawn.rounds is not None
        assert reviewed.rounds < drawn.rounds, (reviewed, drawn)
    short = simulate(review=False, seed=1, max_rounds=5)
    assert short.rounds is None and short.mastered < len(TABLE)


def test_the_command_prints_both_runs_side_by_side(capsys) -> None:
    main(["--seeds", "1"])
    out = capsys.readouterr().out
    assert "with review" in out and "without review" in out and "rounds," in out

