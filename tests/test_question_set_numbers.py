"""A question set's answers as Focus reads them (issue 26): what a teacher may write (whole,
decimal, fraction, negative, several accepted answers), what is refused and why, how a
student's answer is marked against them in a round and a live round, how they are kept (the
database's columns, the JSON of an assignment) and written back (the set's file)."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest

from bot.domain import DomainError
from bot.focus import FocusRound, LiveRound, Question, read_for
from bot.focus.exact import DECIMAL, FRACTION, WHOLE, accepted_values
from bot.focus.round import Answer, mark
from bot.play import question_sets as qs
from bot.play.focus import stored_round
from bot.play.question_sets import as_question, read_file, read_set_answer
from bot.ui.focus_run import expected_text
from db import Database, FocusAnswer
from db.question_sets import SetItem

G = 10


@pytest.mark.parametrize(("typed", "kept"), [
    ("12", 12), ("-3", -3), ("−3", -3), ("+3", 3), ("1 000", 1000), ("1,000", 1000),
    ("12,00", 12), ("9/3", 3), (12, 12), (1000.0, 1000),  # whole: read exactly as before
    ("4,5", "4.5"), ("4.5", "4.5"), ("−0,25", "-0.25"), ("0,50", "0.5"), (2.5, "2.5"),
    ("1/2", "1/2"), ("2/4", "1/2"), ("−3/4", "-3/4"), ("3 / 4", "3/4"),
    ("1/2 | 0,5", "1/2 | 0.5"), (" 2 |−2 ", "2 | -2"), ("0,5|1/2|2/4", "0.5 | 1/2 | 1/2"),
])
def test_what_a_teacher_may_write_as_an_answer(typed: object, kept: int | str) -> None:
    assert read_set_answer(typed) == kept


@pytest.mark.parametrize(("typed", "code"), [
    ("1/0", "focus.zero_denominator"), ("0,5 | ", "class.questions.empty_answer"),
    ("| 1", "class.questions.empty_answer"), ("1 || 2", "class.questions.empty_answer"),
    ("seven", "focus.not_a_fraction"), ("=1+1", "focus.not_a_fraction"),
    ("2+2", "focus.not_a_fraction"), ("1/2/3", "focus.not_a_fraction"),
    ("1" * 13, "focus.too_long"), ("1" * 6000, "focus.too_long"),
    ("1 | " * 30, "focus.too_long"), (True, "focus.not_a_number"), ([1], "focus.not_a_number"),
])
def test_what_is_not_an_answer_is_refused(typed: object, code: str) -> None:
    with pytest.raises(DomainError) as refused:
        read_set_answer(typed)
    assert refused.value.code == code


def test_a_file_names_the_line_and_the_reason() -> None:
    data = ("question;réponse\n"
            "a;4,5\nb;1/2\nc;-3\nd;1/2 | 0,5\ne;1/0\nf;0,5 | \ng;=1+1\n"
            f"h;{'9' * 6000}\n").encode()
    read = read_file("set.csv", data)
    assert read.items == [SetItem("a", "4.5"), SetItem("b", "1/2"), SetItem("c", -3),
                          SetItem("d", "1/2 | 0.5")]
    assert [(r.line, r.code) for r in read.refused] == [
        (6, "zero_denominator"), (7, "empty_answer"), (8, "not_a_number"),
        (9, "too_long_answer")]
    assert read.refused[1].params == {"question": "f", "answer": "0,5 |"}


@pytest.mark.parametrize(("answer", "form"), [
    (12, WHOLE), ("2 | -2", WHOLE), ("4.5", DECIMAL), ("1/2", FRACTION),
    ("1/2 | 0.5", FRACTION), ("0.5 | 1/2", DECIMAL), ("2 | 0.5", DECIMAL)])
def test_a_questions_form_is_whole_unless_an_answer_is_not(answer: int | str,
                                                          form: str) -> None:
    question = as_question(SetItem("q", answer), "Set")
    assert question.form == form
    assert question.written == ("" if isinstance(answer, int) else answer)


def right(question: Question, typed: str) -> bool:
    return mark(question, read_for(question, typed), 1.0).correct


def test_a_half_is_right_however_a_student_types_it() -> None:
    half = as_question(SetItem("Half of 1?", "1/2 | 0.5"), "Halves")
    assert half.answer == Fraction(1, 2) and half.accepted == (Fraction(1, 2), Fraction(1, 2))
    # Focus reads a fraction's answers as values: an equal fraction is right.
    assert [right(half, typed) for typed in ("0,5", "1/2", "0.5", "2/4", ",5", "0,4", "1/3")] \
        == [True, True, True, True, True, False, False]
    decimal = as_question(SetItem("Half of 9?", "4.5"), "Halves")
    assert [right(decimal, typed) for typed in ("4,5", "4.5", "9/2", "4")] == [
        True, True, True, False]
    with pytest.raises(DomainError):
        read_for(decimal, "four and a half")  # unreadable: typed again, never marked


def test_any_accepted_answer_is_right_and_stored_right() -> None:
    root = as_question(SetItem("x × x = 4", "2 | -2"), "Roots")
    answer = mark(root, read_for(root, "−2"), 3.0)
    assert answer.correct and answer.expected == -2 and answer.written == "2 | -2"
    stored = FocusAnswer(guild_id=G, user_id=1, topic=answer.topic, level=answer.level,
                         question=answer.question, expected=answer.expected, given=answer.given,
                         time_ms=3000, form=answer.form)
    assert stored.correct  # db.focus stores given == expected
    wrong = mark(root, read_for(root, "4"), 3.0)
    assert not wrong.correct and wrong.expected == 2


def test_an_old_sets_whole_answer_reads_as_before() -> None:
    old = as_question(SetItem("7 × 8", 56), "Tables")
    assert (old.form, old.written, old.accepted) == (WHOLE, "", (56,))
    assert old.to_json() == {"text": "7 × 8", "ascii": "7 × 8", "answer": 56,
                             "topic": "Tables", "level": 1}
    with pytest.raises(DomainError) as refused:
        read_for(old, "56,5")
    assert refused.value.code == "focus.not_whole"


def test_a_questions_accepted_answers_go_through_json_and_a_resumed_round() -> None:
    half = as_question(SetItem("Half of 1?", "1/2 | 0.5", "halves"), "Set")
    data = half.to_json()
    assert data["written"] == "1/2 | 0.5" and data["answer"] == "1/2"
    assert Question.from_json(data) == half
    game = FocusRound([half])
    answer = game.answer("0,5", 2.0)
    assert answer.correct
    assert Answer.from_json(answer.to_json()) == answer
    assert FocusRound.from_json(game.to_json()) == game
    with pytest.raises(ValueError):
        Question(text="q", ascii="q", answer=1, topic="t", level=1, written="1/2 | 0.5")
    stored = FocusAnswer(guild_id=G, user_id=1, topic="halves", level=1, question=half.text,
                         expected=Fraction(1, 2), given=Fraction(1, 2), time_ms=2000,
                         round_key="assignment:1", question_no=0, form=FRACTION)
    resumed = stored_round([half], [stored])
    assert resumed.answers[0].written == "1/2 | 0.5" and resumed.answers[0].correct


def test_a_live_round_reads_an_answer_by_the_questions_form() -> None:
    half = as_question(SetItem("Half of 1?", "1/2 | 0.5"), "Set")
    game = LiveRound([half], 20.0)
    game.next_question()
    assert [game.answer(p, typed, 1.0).answer.correct
            for p, typed in enumerate(("0,5", "1/2", "0.5", "0,4"))] == [True, True, True, False]


def test_the_answer_shown_is_as_the_teacher_wrote_it_in_the_members_language() -> None:
    half = as_question(SetItem("Half of 1?", "1/2 | 0.5"), "Set")
    assert expected_text(half, "en") == "1/2 or 0.5"
    assert expected_text(half, "fr") == "1/2 ou 0,5"
    negative = as_question(SetItem("q", "-0.25 | -1/4"), "Set")
    assert expected_text(negative, "fr") == "−0,25 ou −1/4"
    assert expected_text(as_question(SetItem("q", -3), "Set"), "fr") == "−3"


ITEMS = [SetItem("La moitié de 9 ?", "4.5", "moitiés"), SetItem("Un demi ?", "1/2"),
         SetItem("Trois de moins que 0 ?", -3), SetItem("La moitié de 1 ?", "1/2 | 0.5", "a; b"),
         SetItem("=1+1", "-1/2 | -0.5", "@here")]


@pytest.mark.parametrize(("lang", "separator", "header", "answers"), [
    ("fr", ";", ["question", "réponse", "thème"],
     ["4,5", "1/2", "-3", "1/2 | 0,5", "-1/2 | -0,5"]),
    ("en", ",", ["question", "answer", "topic"],
     ["4.5", "1/2", "-3", "1/2 | 0.5", "-1/2 | -0.5"])])
def test_the_sets_file_is_in_the_teachers_language_and_reads_back_the_same(
        lang: str, separator: str, header: list[str], answers: list[str]) -> None:
    text = qs.as_csv(ITEMS, lang)
    rows = list(csv.reader(io.StringIO(text), delimiter=separator))
    assert rows[0] == header
    # A formula is neutralised by the leading ', taken off again when read back.
    assert [row[1].removeprefix("'") for row in rows[1:]] == answers
    assert rows[5][0] == "'=1+1" and rows[5][2] == "'@here"
    again = read_file(f"set-{lang}.csv", ("\ufeff" + text).encode("utf-8"))
    assert again.refused == [] and again.items == ITEMS


async def test_the_database_keeps_the_written_answers_and_fills_the_old_column(
        db: Database) -> None:
    made = await db.question_sets.create(G, "Mixed", 1, [*ITEMS, SetItem("old", 56)])
    assert await db.question_sets.items(made.set_id) == [*ITEMS, SetItem("old", 56)]
    rows = await db.connection.all(
        "SELECT answer, answers FROM question_set_items ORDER BY position")
    assert [tuple(row) for row in rows] == [
        (4, "4.5"), (0, "1/2"), (-3, None), (0, "1/2 | 0.5"), (0, "-1/2 | -0.5"), (56, None)]


def test_every_written_answer_reads_back_as_values() -> None:
    for item in ITEMS:
        if isinstance(item.answer, str):
            assert accepted_values(item.answer)
