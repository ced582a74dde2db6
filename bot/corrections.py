"""The words of a Focus correction, without Discord: the worked steps (``bot.focus.steps``) in
the member's language, and the line of a missing-number question (``12 × ? = 96 → ? = 8``,
never ``12 × ? = 96 = 8``, which reads as a wrong equation).

Every number and expression goes through ``bot.texts.question_text`` (French: a decimal comma,
« 2/3 de 18 »), like the question itself. The command line (``python -m bot.focus sample
--steps``) says the same steps in English.
"""

from __future__ import annotations

from typing import Any

from bot.focus.exact import Exact
from bot.focus.steps import Expr, Step, steps, write
from bot.texts import kept_per_load, question_text, t


def is_missing(question: str) -> bool:
    """Whether a question asks for the number in place of its ``?`` (``12 × ? = 96``), not for
    what follows its ``=`` (a teacher's ``3 × 4 = ?``)."""
    text = question.rstrip()
    return "?" in text and "=" in text and not text.endswith(("?", "？"))


def _shown(expr: Expr, lang: str) -> str:
    return question_text(write(expr), lang)


def step_text(step: Step, lang: str) -> str:
    """One step in ``lang``: ``3/4 − 1/4 = 2/4 = 1/2 (simplify by 2)``."""
    params: dict[str, Any] = {name: _shown(e, lang) for name, e in step.values}
    params["chain"] = " = ".join(_shown(e, lang) for e in step.chain)
    key = f"focus_steps.{step.key}"
    if step.count is not None:
        return t(key, lang, count=step.count, **params)
    return t(key, lang, **params)


def step_texts(found: tuple[Step, ...], lang: str) -> list[str]:
    return [step_text(step, lang) for step in found]


def worked(skill: str, question: str, answer: Exact, lang: str) -> str | None:
    """The worked steps of a question as one line (``2 + 3 × 4: first 3 × 4 = 12, then 2 + 12 =
    14``), or None when it has none (a teacher's own question that does not read)."""
    found = steps(skill, question, answer)
    if found is None:
        return None
    return t("focus_steps.join", lang).join(step_texts(found, lang))


@kept_per_load
def worked_line(skill: str, question: str, answer: Exact, lang: str) -> str:
    """``↳ …`` on the line under a correction, or "" when the question has no steps."""
    found = worked(skill, question, answer, lang)
    return "" if found is None else t("focus_steps.worked", lang, steps=found)
