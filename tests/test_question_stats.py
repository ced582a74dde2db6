"""Question by question, pure: the figures, the commonest wrong answers, the three worst."""

from __future__ import annotations

from fractions import Fraction

from bot.focus.question_stats import Given, answer_text, mistakes, question_stats, worst


def given(user: int, number: int, value: object, right: object, ms: int = 1000,
          text: str = "2 + 3 × 4", skill: str = "priority") -> Given:
    return Given(user, str(number), text, skill, "whole", right, value, value == right, ms,
                 number)


def test_each_questions_figures_and_its_commonest_wrong_answers_by_students() -> None:
    answers = [given(1, 1, 14, 14, 1000), given(2, 1, 20, 14, 3000), given(3, 1, 20, 14, 2000),
               given(4, 1, 11, 14, 9000), given(4, 2, 5, 5, 500, "2 + 3", "addition")]
    q1, q2 = question_stats(answers)
    assert (q1.number, q1.answers, q1.students, q1.right, q1.median_ms) == (1, 4, 4, 1, 2500.0)
    assert [(w.given, w.students, w.mistake) for w in q1.wrong] == [
        (20, 2, "left-to-right"), (11, 1, None)]
    assert (q2.share, q2.wrong) == (1.0, ())


def test_the_worst_are_the_smallest_share_then_the_most_answered_then_the_order() -> None:
    answers = [given(u, n, 0 if wrong else 1, 1, text=f"q{n}") for n, wrongs in
               ((1, (1,)), (2, (1, 2)), (3, (1,)), (4, ()), (5, (1, 2, 3)))
               for u in (1, 2, 3, 4) if n != 3 or u < 3 for wrong in [u in wrongs]]
    stats = question_stats(answers)
    # q5: 1/4 right; q2: 2/4; q3: 1/2 (two answers) after q2 (four): q1 (3/4) is fourth.
    assert [s.number for s in worst(stats)] == [5, 2, 3]
    assert [s.number for s in stats] == [1, 2, 3, 4, 5]


def test_a_repeated_wrong_answer_counts_its_students_once_and_its_mistakes_each_time() -> None:
    answers = [given(1, 1, 20, 14), given(1, 1, 20, 14), given(2, 1, 20, 14)]
    [stat] = question_stats(answers)
    assert [(w.students, w.answers) for w in stat.wrong] == [(2, 3)]
    found = mistakes(answers)
    assert found.total == {"left-to-right": 3}
    assert found.by_student == {1: {"left-to-right": 2}, 2: {"left-to-right": 1}}


def test_answers_are_written_as_the_school_writes_them() -> None:
    assert answer_text(-8, "whole") == "−8"
    assert answer_text(Fraction(3, 4), "fraction") == "3/4"
    assert answer_text(Fraction(3, 5), "decimal", ",") == "0,6"
    assert answer_text(Fraction(19, 10), "whole") == "1.9"  # 10 % × 190 divided by 100
    assert answer_text(Fraction(1, 3), "decimal") == "1/3"  # no decimal writing
    assert answer_text(None, "whole") == ""
