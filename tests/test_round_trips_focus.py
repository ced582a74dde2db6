"""The round trips of one ``/focus practice`` answer (a modal submission), counted: database
statements through aiosqlite and REST calls to Discord (the stand-in's ``requests``). Issue 13
measured 6 statements (4 execute + 2 executemany) and 1 Discord call before the use-case layer;
the redesign must not add any. Counts, not timings."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import aiosqlite
import pytest

from bot.focus import generate_questions

SEED = 42
BEFORE_STATEMENTS = 6
BEFORE_DISCORD_CALLS = 1


async def test_one_practice_answer_costs_no_more_round_trips_than_before(
        standin: Any, start_bot: Any, clock: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = await start_bot()
    bot.get_cog("Focus").seed = lambda: SEED
    ana = standin.add_member("Ana")
    questions = generate_questions(1, 6, random.Random(SEED))
    window = (await standin.slash(ana, "focus practice")).reply
    opened = await standin.click(ana, window, label="Answer")
    statements: Counter[str] = Counter()
    for name in ("execute", "execute_fetchall", "executemany"):
        original = getattr(aiosqlite.Connection, name)

        def counting(self: Any, *args: Any, _name: str = name, _original: Any = original,
                     **kwargs: Any) -> Any:
            statements[_name] += 1
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(aiosqlite.Connection, name, counting)
    calls = len(standin.requests)
    clock.now += 2.0
    await standin.submit_modal(ana, opened, {"answer": str(questions[0].answer)})
    discord_calls = len(standin.requests) - calls
    monkeypatch.undo()
    print(f"\none /focus practice answer: {sum(statements.values())} database statements "
          f"({dict(statements)}), {discord_calls} Discord call(s)")
    assert "question 2/6" in window.text()  # the answer was taken: the count is of a real one
    assert sum(statements.values()) <= BEFORE_STATEMENTS
    assert discord_calls <= BEFORE_DISCORD_CALLS
    assert sum(statements.values()) > 0  # the answer is stored: the counter sees the database
