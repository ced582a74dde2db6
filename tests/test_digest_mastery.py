"""The weekly digest's "Mastery that moved": each member's skills before the week and after it,
both replayed from their answers (``db.mastery.skills_then_and_now``), and the count of students
up and down per skill (``bot.play.digest.mastery_moves``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.focus.mastery import ATTEMPTED, FAMILIAR, MASTERED, PROFICIENT
from bot.play.digest import MasteryMoved, mastery_moves
from db import Database, FocusAnswer
from db.mastery import SkillLevel

G = 7
WEEK = datetime(2026, 11, 28, tzinfo=UTC)


def level(user: int, skill: str, question_level: int, mastery: int) -> SkillLevel:
    return SkillLevel(user, skill, question_level, mastery)


def test_up_down_and_a_first_try_are_told_apart() -> None:
    ana, bob, cy = 1, 2, 3
    moved = mastery_moves({
        # Better mastery at the same level; a higher level of it: both up.
        ana: ({"addition": level(ana, "addition", 1, FAMILIAR),
               "powers": level(ana, "powers", 2, MASTERED)},
              {"addition": level(ana, "addition", 1, PROFICIENT),
               "powers": level(ana, "powers", 3, ATTEMPTED)}),
        # Worse at the same level: down; unchanged: nothing.
        bob: ({"addition": level(bob, "addition", 1, MASTERED),
               "powers": level(bob, "powers", 1, FAMILIAR)},
              {"addition": level(bob, "addition", 1, PROFICIENT),
               "powers": level(bob, "powers", 1, FAMILIAR)}),
        # A skill met this week: up once familiar, nothing for a first try.
        cy: ({}, {"fractions-add": level(cy, "fractions-add", 2, FAMILIAR),
                  "squares": level(cy, "squares", 1, ATTEMPTED)}),
    })
    assert moved == [MasteryMoved("addition", 1, 1), MasteryMoved("fractions-add", 1, 0),
                     MasteryMoved("powers", 1, 0)]


async def test_the_week_is_compared_with_the_answers_before_it(db: Database) -> None:
    async def answer(user: int, at: datetime, n: int, right: bool) -> None:
        await db.players.ensure(G, user, at)
        await db.focus.record(FocusAnswer(G, user, "addition", 1, f"{n} + 1", n + 1,
                                          n + 1 if right else 0, 2000, answered_at=at), at)

    before, during = WEEK - timedelta(days=3), WEEK + timedelta(days=2)
    # Stored in the order they were answered, as the bot stores them.
    for n in range(6):
        await answer(1, before + timedelta(minutes=n), n, right=False)  # Ana: wrong, then right
        await answer(2, before + timedelta(minutes=n), n, right=True)  # Bob: right, then wrong
    for n in range(6):
        await answer(1, during + timedelta(minutes=n), n + 10, right=True)
        await answer(2, during + timedelta(minutes=n), n + 10, right=False)
    sides = await db.mastery.skills_then_and_now(G, [1, 2, 3], WEEK)
    ana_then, ana_now = sides[1]
    bob_then, bob_now = sides[2]
    assert ana_now["addition"].mastery > ana_then["addition"].mastery
    assert bob_now["addition"].mastery < bob_then["addition"].mastery
    assert sides[3] == ({}, {})  # no answer at all
    # The "now" side is the stored model's: replaying agrees with what the answers stored.
    stored = {s.user_id: s for s in await db.mastery.skill_levels(G, [1, 2])}
    assert ana_now["addition"] == stored[1] and bob_now["addition"] == stored[2]
    assert mastery_moves(sides) == [MasteryMoved("addition", 1, 1)]
