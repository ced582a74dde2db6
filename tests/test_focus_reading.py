"""The one reader of a Focus question's text (``bot.focus.questions.work_out``), which local play's
``answer right`` and the load benchmark's members use: it reads back exactly what the engine
writes, in both its signs, and refuses anything else rather than guess (never ``eval``)."""

from __future__ import annotations

import random

import pytest

from bot.focus import MAX_LEVEL, MIN_LEVEL, Question, generate_questions
from bot.focus.questions import _ASCII, _SIGN, _render, read_question, work_out


def questions(level: int, rounds: int) -> list[Question]:
    return [q for seed in range(rounds) for q in generate_questions(level, 6, random.Random(seed))]


@pytest.mark.parametrize("level", range(MIN_LEVEL, MAX_LEVEL + 1))
def test_work_out_reads_every_kind_of_focus_question(level: int) -> None:
    # As local play's form label shows it ("… ="), the window ("… = ?"), and the stored texts.
    for question in questions(level, 40):
        assert work_out(f"{question.text} =") == question.answer, question.text
        assert work_out(f"{question.text} = ?") == question.answer, question.text
        assert work_out(question.text) == question.answer, question.text
        assert work_out(question.ascii) == question.answer, question.ascii


@pytest.mark.parametrize("level", range(MIN_LEVEL, MAX_LEVEL + 1))
def test_the_reader_reads_back_the_tree_the_engine_wrote(level: int) -> None:
    # Written again, the tree read is the same text: the parentheses and the left-to-right
    # order (15 − 6 + 2 is 11, 20 − (9 − 4) keeps its brackets) are read as they were written.
    for question in questions(level, 10):
        assert _render(read_question(question.text), _SIGN) == question.text
        assert _render(read_question(question.ascii), _ASCII) == question.ascii


@pytest.mark.parametrize(("text", "answer"), [
    ("15 − 6 + 2", 11), ("12 ÷ 3 × 2", 8), ("20 − 3 × 5", 5), ("35 ÷ (2 + 5) =", 5),
    ("20 − (9 − 4) = ?", 15), ("(4 + 3) × 5", 35), ("4 + 12 / 3", 8)])
def test_the_school_priorities(text: str, answer: int) -> None:
    assert work_out(text) == answer


# The terminal's refusals and the load benchmark's, now one reader's.
@pytest.mark.parametrize("text", ["", "7 +", "(3 + 4", "7 ÷ 2", "import os", "2 ** 3", "1e3",
                                  "douze", "3 + 4)", "5 ÷ 0", "-3 + 4", "2 3", "7 + 8 = 15",
                                  "٣ + 4"])
def test_work_out_refuses_what_is_not_a_plain_question(text: str) -> None:
    with pytest.raises(ValueError):
        work_out(text)
