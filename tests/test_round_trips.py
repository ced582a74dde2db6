"""The hot paths' round trips: database statements and Discord calls of one ``/focus practice``
answer, of one solo ``/rithmo move`` (with Ardoise's reply) and of the 20 Digits' "Ready" that
starts a battle, through the real bot (a failure lists the statements).

These are counts, not timings: each statement is a hop to aiosqlite's thread (several asked
together, ``db.connection.Connection.reads`` or ``runs``, are one), each Discord call an HTTP
request, so a change that adds one shows here. The bounds are the counts measured at
the end of issue 13's redesign (docs/architecture.md walks both paths): a change may lower
them, never raise them.
"""

from __future__ import annotations

import collections
from collections.abc import Iterator
from typing import Any

import aiosqlite
import pytest

from bot.local import StandIn

#: Before issue 13 (2026-12-01): 4 execute + 2 executemany, and the modal's one answer; 5
#: after issue 17 (BEGIN, the answer, the mastery read and written, COMMIT); 1 since issue 24
#: (the answer and its mastery in one statement, the round's model known).
FOCUS_ANSWER = {"statements": 1, "discord": 1}
#: ``/focus practice`` of a newcomer, the server's first command (issue 24): its language (the
#: server's settings, then kept: ``db.servers``), then in one hop the student's settings, the
#: player and the mastery (``db.focus.FocusRepository.for_round``), and one more for the
#: newcomer's two rows; 10 before, 7 until the reads became one hop. Its answer, the question.
FOCUS_START = {"statements": 3, "discord": 1}
#: A round's last answer (issue 24): the answer, then the round's end in one hop (the latest
#: answers, the student's settings, the mastery, the player; the server's settings kept); 12
#: before, 7, then 6 when the server's settings and admin roles became one read, 2 since the
#: end's reads are one hop. (The level stored is one more, when it moves.) The summary.
FOCUS_LAST_ANSWER = {"statements": 2, "discord": 1}
#: An answer of the daily challenge but its last (issue 24): 1 statement as a practice answer's,
#: the attempt's model read as it starts; 5 before. The last one is stored with the attempt.
DAILY_ANSWER = {"statements": 1, "discord": 1}
#: Before issue 13: 16 statements; after it 14 (the game is not read back after each of the two
#: turns: ``RithmoGame.after_turn``). The deferral, its follow-up, the old board's buttons taken
#: off, the new board posted.
RITHMO_MOVE = {"statements": 14, "discord": 4}
#: The 20 Digits (issue 25): the second player's "Ready", which starts the round's battle: the
#: match, a transaction of 6 (the match, its seats, the two ghosts), the battle message's id (the
#: server's settings, for the turn's deadline, from memory since issue 24). 12 when first counted
#: (the match read twice before, and again before each ghost's insert; the settings read). The
#: click's update, the shop's edit, the battle posted, the old board's buttons taken off.
DIGITS_READY = {"statements": 8, "discord": 4}


class Statements:
    """Counts the bot's hops to SQLite's thread: every statement of aiosqlite's methods, and
    every job of several statements (``db.connection.Connection.reads`` and ``runs``), is one
    function queued by ``aiosqlite.Connection._execute``; counted by the function's name."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.counts: collections.Counter[str] = collections.Counter()
        self.sql: list[str] = []
        original = aiosqlite.Connection._execute

        async def counted(connection: aiosqlite.Connection, fn: Any, *args: Any,
                          **kwargs: Any) -> Any:
            name = getattr(fn, "__name__", type(fn).__name__).lstrip("_")
            self.counts[name] += 1
            self.sql.append(f"{name}: {' '.join(str(args[0] if args else '').split())[:80]}")
            return await original(connection, fn, *args, **kwargs)

        monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)

    @property
    def total(self) -> int:
        return sum(self.counts.values())


class Window:
    """What one step cost: statements and Discord calls between ``start`` and ``stop``."""

    def __init__(self, statements: Statements, standin: StandIn) -> None:
        self.statements, self.standin = statements, standin
        self.db = 0
        self.kinds: dict[str, int] = {}
        self.calls: list[tuple[str, str]] = []

    def __enter__(self) -> Window:
        self.statements.counts.clear()
        self.statements.sql.clear()
        self._first = len(self.standin.requests)
        return self

    def __exit__(self, *exc: object) -> None:
        self.db = self.statements.total
        self.kinds = dict(self.statements.counts)
        self.sql = list(self.statements.sql)
        self.calls = self.standin.requests[self._first:]

    def describe(self) -> str:
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(self.kinds.items()))
        routes = "; ".join(f"{m} {p.split('/')[1]}" for m, p in self.calls)
        sql = "".join(f"\n  {line}" for line in self.sql)
        return f"{self.db} statements ({kinds}), {len(self.calls)} Discord calls ({routes}):{sql}"


def quiet(bot: Any) -> None:
    """Stop the bot's own background work (the daily posts, the assignments' closing, the
    clocks of Rithmomachia and of The 20 Digits): each wakes on the minute or so, and one waking
    inside a step would be counted as the step's (a loaded machine made 6 statements count 7)."""
    bot.get_cog("Focus").flow.autopost = False
    bot.get_cog("Classroom").flow.assign_autoclose = False
    bot.get_cog("Rithmo").deadline_loop.cancel()
    bot.get_cog("Digits").clock_loop.cancel()


def _practice_button(window: Any) -> str:
    return next(b["custom_id"] for b in window.buttons()
                if b["custom_id"].startswith("focus.run:practice:"))


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> Iterator[Statements]:
    yield Statements(monkeypatch)


@pytest.mark.sqlite_only  # the hops to aiosqlite's thread
async def test_a_focus_practice_answer(standin, start_bot, statements):
    quiet(await start_bot())
    ana = standin.add_member("Ana")
    window = (await standin.slash(ana, "focus practice")).reply
    opened = await standin.click(ana, window, _practice_button(window))
    assert opened.modal is not None
    await standin.idle()
    with Window(statements, standin) as step:
        answered = await standin.submit_modal(ana, opened, {"answer": "7"})
        await standin.idle()
    assert answered.reply is not None
    assert step.db <= FOCUS_ANSWER["statements"], step.describe()
    assert len(step.calls) <= FOCUS_ANSWER["discord"], step.describe()


@pytest.mark.sqlite_only
async def test_a_focus_practice_round_started_and_finished(standin, start_bot, statements):
    quiet(await start_bot())
    ana = standin.add_member("Ana")
    await standin.idle()
    with Window(statements, standin) as start:
        window = (await standin.slash(ana, "focus practice")).reply
        await standin.idle()
    assert start.db <= FOCUS_START["statements"], start.describe()
    assert len(start.calls) <= FOCUS_START["discord"], start.describe()
    for question in range(6):
        opened = await standin.click(ana, window, _practice_button(window))
        await standin.idle()
        with Window(statements, standin) as step:
            await standin.submit_modal(ana, opened, {"answer": "7"})
            await standin.idle()
        if question < 5:
            assert step.db <= FOCUS_ANSWER["statements"], step.describe()
    assert "/6" in window.text()
    assert step.db <= FOCUS_LAST_ANSWER["statements"], step.describe()
    assert len(step.calls) <= FOCUS_LAST_ANSWER["discord"], step.describe()


@pytest.mark.sqlite_only
async def test_a_daily_challenge_answer(standin, start_bot, statements):
    quiet(await start_bot())
    ana = standin.add_member("Ana")
    window = (await standin.slash(ana, "focus daily")).reply
    for _ in range(2):
        button = next(b["custom_id"] for b in window.buttons()
                      if b["custom_id"].startswith("focus.run:daily:"))
        opened = await standin.click(ana, window, button)
        assert opened.modal is not None, opened.reply.text()
        await standin.idle()
        with Window(statements, standin) as step:
            await standin.submit_modal(ana, opened, {"answer": "7"})
            await standin.idle()
        assert step.db <= DAILY_ANSWER["statements"], step.describe()
        assert len(step.calls) <= DAILY_ANSWER["discord"], step.describe()


@pytest.mark.sqlite_only
async def test_a_solo_rithmo_move_and_ardoises_reply(standin, start_bot, statements):
    bot = await start_bot()
    quiet(bot)
    ana = standin.add_member("Ana")
    started = await standin.slash(ana, "rithmo solo", level=1)
    assert started.reply.attachments, started.reply.text()
    await standin.idle()
    [turn, *_] = await standin.autocomplete(ana, "rithmo move", "turn", turn="")
    with Window(statements, standin) as step:
        moved = await standin.slash(ana, "rithmo move", turn=turn["value"])
        # Ardoise's reply, worked out in a thread, is the new board posted after the answer (on
        # a loaded machine a quiet spell is not enough to know it is done).
        await standin.wait_for_message(lambda m: bool(m.attachments), after=started.reply,
                                       timeout=30.0)
        await standin.idle()
    assert moved.reply is not None
    [after] = await bot.db.rithmo.open_games(standin.guild.id, ana.id)
    assert len(after.turns) == 2, "Ardoise answered the member's turn"
    assert step.db <= RITHMO_MOVE["statements"], step.describe()
    assert len(step.calls) <= RITHMO_MOVE["discord"], step.describe()


@pytest.mark.sqlite_only
async def test_a_digits_ready_that_starts_the_battle(standin, start_bot, statements):
    from tests.test_cog_digits import act, duel, take_focus

    bot, ana, sam, board = await duel(standin, start_bot, lives=2)
    quiet(bot)
    shop = await take_focus(standin, bot, ana, board, right=6)
    await act(standin, ana, shop, "digits:buy:1")
    await act(standin, ana, shop, "digits:ready")
    sam_shop = await take_focus(standin, bot, sam, board, right=6)
    await standin.idle()
    with Window(statements, standin) as step:
        await act(standin, sam, sam_shop, "digits:ready")
        battle = await standin.wait_for_message(lambda m: bool(m.attachments), after=board)
        await standin.wait_until(lambda: board.components == [])
        await standin.idle()
    assert "Round 2 of 15" in battle.text()
    assert step.db <= DIGITS_READY["statements"], step.describe()
    assert len(step.calls) <= DIGITS_READY["discord"], step.describe()
