"""What the homework and practice pages show of a Focus question and of an answer: the same
words as the Discord window (``bot.ui.focus_run``'s catalogue keys and number writing, the
worked steps of ``bot.focus.steps`` in ``bot.corrections``' wording), as plain text for a page
(no Markdown, no Discord escaping: the templates escape everything).

The number writing and the question's level line are ``bot.ui.focus_run``'s own functions,
imported rather than copied: they are pure (no Discord call), and one writing of a number for
both places keeps a page and a Discord window saying the same thing (``bot.web`` runs in the
bot's process, which has discord.py loaded anyway). The steps come from ``bot.corrections``,
which needs no Discord.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bot.corrections import is_missing, step_texts
from bot.focus import Answer, FocusRound, Question
from bot.focus.exact import LOWEST
from bot.focus.steps import steps
from bot.texts import digit_groups, question_text
from bot.ui.focus_run import (
    answer_expected_text,
    answer_given_text,
    asks_itself,
    placeholder,
    question_level_text,
    seconds_text,
)
from bot.web.pages import plain, text

#: What is read of an answer field (Focus's reader refuses anything longer than 40 characters
#: with its own words), and what of it is shown back in the field after a refusal.
MAX_ANSWER = 200
MAX_SHOWN = 40

#: ``inputmode`` of an answer field: a phone's full keyboard, where a minus sign, a comma and a
#: slash are (``numeric``/``decimal`` keyboards lack some of them).
INPUT_MODE = "text"


def refusal_notice(reason: str, lang: str) -> str:
    """A text that is no number: Focus's own reason, and that nothing was counted."""
    return unmarked(text("focus.run.unreadable", lang, reason=reason))


def answer_form(form: Any) -> tuple[str, int]:
    """What a posted answer form says: the text typed (bounded) and the number of the question
    it answers (-1 when unreadable: it then answers none). Nothing else is read from it."""
    typed = str(form.get("answer", ""))[:MAX_ANSWER]
    try:
        index = int(str(form.get("n", ""))[:6])
    except ValueError:
        index = -1
    return typed, index


#: The marks Discord's lines begin with: a page says "Right!" or "Not quite" in words instead
#: (an emoji font is not on every school computer; a colour alone tells nothing to some).
_MARKS = re.compile(r"^(?:✅|❌|⌛|⚠️|⚠)\s*")


def unmarked(line: str) -> str:
    return _MARKS.sub("", line)


def shown_question(question: str, lang: str) -> str:
    """A question's text in the student's language's way (``22,4 − 5,3``, « 2/3 de 18 »)."""
    return digit_groups(question_text(question, lang), lang)


@dataclass(frozen=True)
class QuestionView:
    """A question on a page: ``prompt`` in big letters (the answer field's label), what to type
    (``hint``), and its level (None for a teacher's set)."""

    prompt: str
    hint: str
    level: str | None


def question_view(question: Question, lang: str, *, with_level: bool = True) -> QuestionView:
    shown = shown_question(question.text.rstrip(), lang)
    if question.form == LOWEST:
        prompt = text("focus.run.simplify", lang, question=shown)
    elif asks_itself(question.text):
        prompt = text("class_questions.asked", lang, question=shown)
    else:
        prompt = text("focus.run.question", lang, question=shown)
    return QuestionView(prompt.removeprefix("## ").strip(), plain(placeholder(question, lang)),
                        plain(question_level_text(question, lang)) if with_level else None)


def worked_steps(answer: Answer, lang: str) -> list[str]:
    """The worked steps of a question (``bot.corrections``), one a line; none when it has
    none."""
    found = steps(answer.skill, answer.question, answer.expected)
    return [] if found is None else [plain(line) for line in step_texts(found, lang)]


@dataclass(frozen=True)
class Correction:
    """One answer marked: ``right``, the word that says it (``verdict``), its line
    (``7 + 8 = 15: right!``, ``… (you typed 7)``), and under a wrong one the worked steps."""

    right: bool
    verdict: str
    line: str
    steps: list[str] = field(default_factory=list)


def _marked(right: bool, line: str, lang: str, steps: list[str] | None = None) -> Correction:
    return Correction(right, text("web_homework.right" if right else "web_homework.wrong",
                                  lang), unmarked(line), steps or [])


def correction(answer: Answer, lang: str) -> Correction:
    missing = is_missing(answer.question)
    question = shown_question(answer.question, lang)
    if answer.correct:
        return _marked(True, text("focus_steps.right_missing" if missing
                                  else "focus.run.right", lang, question=question,
                                  expected=answer_expected_text(answer, lang)), lang)
    line = text("focus_steps.wrong_missing" if missing else "focus.run.wrong", lang,
                question=question, expected=answer_expected_text(answer, lang),
                given=answer_given_text(answer, lang))
    return _marked(False, line, lang, worked_steps(answer, lang))


def summary_line(index: int, answer: Answer, lang: str) -> Correction:
    """An answer in the round's summary: ``✅ 1. 7 + 8 = 15 · 3.2 s``, ``❌ 2. … · you typed 7 ·
    4.0 s`` with the worked steps under a wrong one (``bot.ui.focus_run.answer_line``'s)."""
    time_text = seconds_text(answer.seconds, lang)
    question = shown_question(answer.question, lang)
    prefix, suffix = (("focus_steps.summary_", "_missing") if is_missing(answer.question)
                      else ("focus.summary.", ""))
    if answer.correct:
        return _marked(True, text(f"{prefix}right{suffix}", lang, n=index + 1,
                                  question=question, expected=answer_expected_text(answer, lang),
                                  time=time_text), lang)
    if answer.given is None:
        line = text(f"{prefix}skipped{suffix}", lang, n=index + 1, question=question,
                    expected=answer_expected_text(answer, lang), time=time_text)
    else:
        line = text(f"{prefix}wrong{suffix}", lang, n=index + 1, question=question,
                    expected=answer_expected_text(answer, lang),
                    given=answer_given_text(answer, lang), time=time_text)
    return _marked(False, line, lang, worked_steps(answer, lang))


def summary(round: FocusRound, lang: str) -> list[Correction]:
    return [summary_line(i, a, lang) for i, a in enumerate(round.answers)]


def total_time(round: FocusRound, lang: str) -> str:
    return text("focus.summary.footer", lang, time=seconds_text(round.total_seconds, lang))
