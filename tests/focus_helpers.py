"""The questions a practice round asks (``bot.focus.review.choose_round``), for tests that play
one through the bot and need the answers."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime
from typing import Any

from bot.focus import MAX_LEVEL, Question
from bot.focus.mastery import Mastery
from bot.focus.questions import work_out
from bot.focus.review import choose_round
from bot.focus.school import draw_round

#: Any time will do for a newcomer's model: nothing in it is due.
SOME_TIME = datetime(2026, 12, 1, tzinfo=UTC)


def practice_questions(level: int, seed: int, model: Mastery | None = None,
                       now: datetime = SOME_TIME, high: int = MAX_LEVEL,
                       school_year: str | None = None) -> list[Question]:
    """The round at ``level`` the bot's ``seed`` gives a member whose model is ``model`` (None:
    a newcomer's), their highest level being ``high``, practising ``school_year``'s skills
    (None: the eight levels' questions)."""
    generate = None
    if school_year is not None:
        def generate(lvl: int, count: int, rng: random.Random) -> list[Question]:
            return draw_round(school_year, lvl, count, rng)
    return choose_round(model or Mastery(), level, random.Random(seed), now,
                        next_level=level + 1 if level < high else None, generate=generate)


#: A question may open with a bracket (``(4 + 4) × 8``): the line is read whole, so the match
#: neither starts inside it nor picks a number off an earlier line.
_ASKED = re.compile(r"(?m)^(?:#+ )?([0-9(][0-9 +−×÷()]*?) = \?$")


def shown_question(text: str) -> str:
    """The question a Focus window shows (its ``… = ?`` line)."""
    found = _ASKED.search(text)
    assert found is not None, text
    return found[1]


async def answer_round_right(standin: Any, member: Any, window: Any) -> None:
    """Answer every question of the round ``window`` shows, right (read from the window, worked
    out by ``bot.focus.questions.work_out``)."""
    while " = ?" in window.text():
        opened = await standin.click(member, window, label="Answer")
        assert opened.modal is not None
        await standin.submit_modal(member, opened,
                                   {"answer": str(work_out(shown_question(window.text())))})
