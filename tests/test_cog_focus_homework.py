"""``/focus homework`` end to end: a student's open assignments on the server (due date, to do,
in progress at question n, done with the score), only theirs (a role's only with the role),
each with a persistent button that opens it where they left it, after a restart too; another
member's click refused."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.ui.assignments import MAX_BUTTONS
from tests.classroom_helpers import Moment, classroom_clock
from tests.french import fr

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
BUTTON = "Do the assignment"


@pytest.fixture
def moment(monkeypatch: pytest.MonkeyPatch) -> Moment:
    return classroom_clock(monkeypatch, NOW)


async def questions_of(bot: Any, standin: Any, name: str) -> list[dict[str, Any]]:
    found = await bot.db.assignments.get(standin.guild.id, name)
    assert found is not None
    return found.questions


async def all_posted(bot: Any, standin: Any, count: int) -> None:
    """Wait until the bot has stored where each assignment was posted (after Discord answered):
    only posted assignments are listed."""
    for _ in range(250):
        made = await bot.db.assignments.of_server(standin.guild.id)
        if len(made) == count and all(a.message_id is not None for a in made):
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the assignments were not all posted")


async def play(standin: Any, member: Any, window: Any, answers: list[Any], clock: Any) -> None:
    for typed in answers:
        clock.now += 2.0
        [button] = window.buttons()
        opened = await standin.click(member, window, button["custom_id"])
        await standin.submit_modal(member, opened, {"answer": str(typed)})


async def test_the_list_says_each_state_and_reopens_where_they_left_off_after_a_restart(
        standin, start_bot, restart_bot, moment, clock):
    bot = await start_bot()
    six_b = standin.add_role("6B")
    roux = standin.add_member("Roux", teacher=True)
    await standin.slash(roux, "class assign", name="Sums", due="2026-12-08 18:00", level=1,
                        count=4)
    await standin.slash(roux, "class assign", name="Tables", due="2026-12-03 18:00", level=4,
                        count=2)
    await standin.slash(roux, "class assign", name="Only 6B", due="2026-12-05", level=2,
                        count=2, role=six_b)
    await standin.slash(roux, "class assign", name="Gone", due="2026-11-30 12:00", level=1,
                        count=1)
    await all_posted(bot, standin, 4)
    posts = {m.embeds[0]["title"].removeprefix("Assignment: "): m
             for m in standin.channel_messages()}
    sums, tables = await questions_of(bot, standin, "Sums"), await questions_of(
        bot, standin, "Tables")

    ana = standin.add_member("Ana")
    window = (await standin.click(ana, posts["Tables"], label=BUTTON)).reply
    await play(standin, ana, window, [tables[0]["answer"], 0], clock)
    window = (await standin.click(ana, posts["Sums"], label=BUTTON)).reply
    await play(standin, ana, window, [q["answer"] for q in sums[:2]], clock)
    moment.now = NOW + timedelta(hours=4)  # "Gone" is past its due moment

    listed = (await standin.slash(ana, "focus homework")).reply
    assert listed.ephemeral_to == ana.id
    text = listed.text()
    assert "Your homework: 2 open assignments" in text
    # The soonest due first; Only 6B is not Ana's; Gone is closed.
    assert text.index("**Tables**") < text.index("**Sums**")
    assert "Only 6B" not in text and "Gone" not in text
    assert "**Tables** · due Thursday 3 December 2026 at 18:00\nDone: **1/2**" in text
    assert "**Sums** · due Tuesday 8 December 2026 at 18:00\nIn progress: at question 3 of 4" \
        in text
    made = await bot.db.assignments.get(standin.guild.id, "Sums")
    # A button for what is not done only, for Ana.
    assert [(b["label"], b["custom_id"]) for b in listed.buttons()] == [
        ("Sums", f"focus.homework:{made.assignment_id}:1:{ana.id}")]

    # Another member's click on Ana's button is refused, nothing begun (only Ana sees her
    # list: the stand-in is made to show it to Sam, as a modified client would).
    sam = standin.add_member("Sam", roles=[six_b])
    listed.ephemeral_to = None
    refused = await standin.click(sam, listed, label="Sums")
    listed.ephemeral_to = ana.id
    assert refused.reply.ephemeral_to == sam.id
    assert refused.reply.content == ("This list is another student's. /focus homework shows "
                                     "yours.")
    assert await bot.db.assignments.attempt(made.assignment_id, sam.id) is None
    sams = (await standin.slash(sam, "focus homework")).reply.text()
    assert "**Only 6B** · due Saturday 5 December 2026 at 23:59\nTo do" in sams
    assert "Your homework: 3 open assignments" in sams

    # After a restart, the list's button (persistent) opens Sums at question 3.
    bot = await restart_bot(bot)
    resumed = (await standin.click(ana, listed, label="Sums")).reply
    assert resumed.ephemeral_to == ana.id
    assert "question 3/4" in resumed.text() and f"{sums[2]['text']} = ?" in resumed.text()
    await play(standin, ana, resumed, [q["answer"] for q in sums[2:]], clock)
    assert "Assignment · Sums: 4/4" in resumed.text()
    again = (await standin.slash(ana, "focus homework")).reply
    assert "**Sums** · due Tuesday 8 December 2026 at 18:00\nDone: **4/4**" in again.text()
    assert again.buttons() == []
    assert standin.take_errors() == []


async def test_in_french_empty_then_many_bounded_to_discords_limits(standin, start_bot,
                                                                    moment):
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    lea = standin.add_member("Léa", locale="fr")
    empty = (await standin.slash(lea, "focus devoirs")).reply
    assert "Tu n'as aucun devoir ouvert sur ce serveur." in empty.text()
    for n in range(MAX_BUTTONS + 3):
        await standin.slash(roux, "class assign", name=f"Devoir {n:02}",
                            due=f"2026-12-{1 + n % 28:02} 18:00", level=1, count=1)
    await all_posted(bot, standin, MAX_BUTTONS + 3)
    listed = (await standin.slash(lea, "focus devoirs")).reply
    text = listed.text()
    assert fr("Tes devoirs : 28 devoirs ouverts") in text
    assert "à rendre le mardi 1er décembre 2026 à 18\u00a0h\nÀ faire" in text
    assert len(listed.buttons()) == MAX_BUTTONS
    assert fr("Des boutons pour les 25 à rendre le plus tôt ; les 3 autres") in text
    assert standin.take_errors() == []
