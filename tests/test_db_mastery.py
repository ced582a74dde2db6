"""Mastery stored with the answers (db/mastery.py through db/focus.py): in the answer's own
transaction, once per answer (a second write of the same question moves nothing), batched for a
whole round, worked out from older answers after an upgrade."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.focus.mastery import FACT, FAMILIAR, PROFICIENT, SKILL, Evidence, Mastery
from db import Database, FocusAnswer
from db.connection import to_db_time
from db.mastery import SkillLevel

G, ANA, BOB = 10, 21, 22
NOW = datetime(2026, 12, 1, 9, tzinfo=UTC)


def answer(user: int, question: str, expected: int, given: int | None, ms: int, at: datetime,
           no: int | None = None, topic: str = "multiplication", level: int = 4,
           key: str | None = None) -> FocusAnswer:
    return FocusAnswer(guild_id=G, user_id=user, topic=topic, level=level, question=question,
                       expected=expected, given=given, time_ms=ms, answered_at=at,
                       round_key=None if no is None else (key or "practice:r1"),
                       question_no=no)


async def test_an_answer_moves_its_fact_and_skill_once(db: Database) -> None:
    first = answer(ANA, "8 × 7", 56, 56, 1500, NOW, no=0)
    assert await db.focus.record(first)
    assert not await db.focus.record(first)  # the same question of the same round: nothing
    model = await db.mastery.load(G, ANA)
    fact, skill = model.get(FACT, "7*8"), model.get(SKILL, "multiplication:4")
    assert fact is not None and (fact.level, fact.answers, fact.due) == (
        FAMILIAR, 1, NOW + timedelta(days=1))
    assert skill is not None and skill.answers == 1
    await db.focus.record(answer(ANA, "7 × 8", 56, 56, 2000, NOW + timedelta(seconds=9), no=1))
    assert (await db.mastery.load(G, ANA)).fact("7*8").level == PROFICIENT


async def test_the_mastery_is_written_in_the_answers_transaction(db: Database) -> None:
    with pytest.raises(RuntimeError):
        async with db.transaction():
            await db.focus.record(answer(ANA, "3 × 4", 12, 12, 900, NOW, no=0))
            raise RuntimeError("the rest of the round failed")
    assert await db.focus.recent(G, ANA) == []
    assert (await db.mastery.load(G, ANA)).items == {}


async def test_a_round_stored_at_once_moves_only_the_answers_not_stored_yet(db: Database) -> None:
    # The daily challenge's way: answers stored one by one, the last with the whole round.
    round_ = [answer(ANA, "6 × 9", 54, 54, 1000, NOW + timedelta(seconds=i), no=i)
              if i % 2 == 0 else
              answer(ANA, "13 − 5", 8, 7, 1000, NOW + timedelta(seconds=i), no=i,
                     topic="subtraction", level=2)
              for i in range(4)]
    await db.focus.record(round_[0])
    await db.focus.record(round_[1])
    await db.focus.record_many([*round_, answer(BOB, "6 × 9", 54, None, 9000, NOW, no=0)])
    model = await db.mastery.load(G, ANA)
    assert (model.fact("9*6"), model.fact("6*9").answers, model.fact("13-5").answers) == (
        None, 2, 2)
    bob = await db.mastery.load(G, BOB)
    assert bob.fact("6*9").level == 1 and bob.fact("6*9").correct == 0


async def test_a_teachers_question_moves_its_fact_not_a_skill(db: Database) -> None:
    await db.focus.record(answer(ANA, "7 × 8", 56, 56, 1000, NOW, no=0, topic="Tables",
                                 level=1, key="practice-set:3:abc"))
    model = await db.mastery.load(G, ANA)
    assert model.fact("7*8") is not None and model.skills() == []


async def test_the_class_skills_at_the_highest_level_practised(db: Database) -> None:
    await db.focus.record_many([
        answer(ANA, "3 × 4", 12, 12, 1000, NOW, topic="multiplication", level=3),
        answer(ANA, "7 × 8", 56, 50, 1000, NOW, topic="multiplication", level=4),
        answer(BOB, "8 + 5", 13, 13, 1000, NOW, topic="addition", level=1)])
    assert await db.mastery.skill_levels(G, [ANA, BOB, 99]) == [
        SkillLevel(ANA, "multiplication", 4, 1), SkillLevel(BOB, "addition", 1, FAMILIAR)]


async def write_as_version_11(db: Database, answers: list[FocusAnswer]) -> None:
    """Answers as version 11 wrote them (today's repository writes the columns of later
    versions, which a database held at 11 does not have)."""
    for a in answers:
        await db.players.ensure(G, a.user_id)
        await db.connection.run(
            "INSERT INTO focus_answers (guild_id, user_id, answered_at, source, topic, level,"
            " question, expected, given, correct, time_ms, round_key, question_no)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (G, a.user_id, to_db_time(a.answered_at), a.source, a.topic, a.level, a.question,
             a.expected, a.given, int(a.correct), a.time_ms, a.round_key, a.question_no))


async def test_an_upgrade_works_the_model_out_from_the_answers_already_there(
        tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = await Database.open(path, target_version=11)
    given = [answer(ANA, "8 × 7", 56, 56, 1200, NOW - timedelta(days=2)),
             answer(ANA, "7 × 8", 56, 56, 2400, NOW - timedelta(days=1)),
             answer(ANA, "4 + 3 × 5", 19, 18, 5000, NOW - timedelta(days=1), topic="priority",
                    level=6)]
    await write_as_version_11(old, given)
    await old.close()
    new = await Database.open(path)
    try:
        # A new answer before the model is first read: the backfill replays it too.
        later = answer(ANA, "7 × 8", 56, None, 3000, NOW)
        await new.focus.record(later)
        expected = Mastery()
        for a in [*given, later]:
            expected.record(Evidence(a.question, a.topic, a.level, a.correct, a.time_ms / 1000,
                                     a.answered_at))
        assert await new.mastery.load(G, ANA) == expected
        assert await new.connection.all("SELECT * FROM focus_mastery_backfill") == []
        assert await new.mastery.load(G, ANA) == expected  # once only
    finally:
        await new.close()


async def test_the_class_report_works_out_a_student_waiting_for_the_backfill(
        tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = await Database.open(path, target_version=11)
    await write_as_version_11(old, [answer(ANA, "8 + 5", 13, 13, 1000, NOW, topic="addition",
                                           level=1)])
    await old.close()
    new = await Database.open(path)
    try:
        assert await new.mastery.skill_levels(G, [ANA]) == [
            SkillLevel(ANA, "addition", 1, FAMILIAR)]
        assert await new.connection.all("SELECT * FROM focus_mastery_backfill") == []
    finally:
        await new.close()


async def test_a_school_years_skill_is_mastered_as_its_own(db: Database) -> None:
    # A skill of the school years (fractions-add) moves its own model, not its topic's.
    await db.focus.record(FocusAnswer(guild_id=G, user_id=ANA, topic="fractions", level=1,
                                      question="1/2 + 1/4", expected=0, given=0, time_ms=2000,
                                      answered_at=NOW, skill="fractions-add"))
    model = await db.mastery.load(G, ANA)
    assert model.get(SKILL, "fractions-add:1") is not None
    assert model.get(SKILL, "fractions:1") is None


# --- Issue 24: the answer with a known model (a practice round's), one statement on SQLite -----


def _round(user: int, start: datetime, key: str = "practice:known") -> list[FocusAnswer]:
    """Six answers that move facts and skills again and again, one of them wrong, one slow."""
    texts = [("8 × 7", 56, 56, 1500), ("7 × 8", 56, 56, 2000), ("6 × 9", 54, 53, 1000),
             ("9 × 6", 54, 54, 4500), ("8 × 7", 56, 56, 1200), ("3 × 4", 12, 12, 900)]
    return [answer(user, q, e, g, ms, start + timedelta(seconds=10 * i), no=i, key=key)
            for i, (q, e, g, ms) in enumerate(texts)]


async def test_a_known_model_moves_the_mastery_exactly_as_the_answers_transaction(
        db: Database) -> None:
    await db.players.ensure(G, ANA)
    await db.players.ensure(G, BOB)
    # Ana's round with the model her round read; Bob's the long way, the same answers.
    known = await db.mastery.load(G, ANA)
    for ana, bob in zip(_round(ANA, NOW), _round(BOB, NOW), strict=True):
        assert await db.focus.record(ana, known=known)
        assert await db.focus.record(bob)
    stored = await db.mastery.load(G, ANA)
    assert stored == known  # the caller's model moved as the stored one
    assert {key: item for key, item in stored.items.items()} == (
        await db.mastery.load(G, BOB)).items
    assert len(await db.focus.round_answers(G, ANA, "practice:known")) == 6


async def test_a_known_model_that_went_stale_is_read_again_and_nothing_is_lost(
        db: Database) -> None:
    await db.players.ensure(G, ANA)
    await db.players.ensure(G, BOB)
    known = await db.mastery.load(G, ANA)
    [first, second, *_] = _round(ANA, NOW)
    assert await db.focus.record(first, known=known)
    # Meanwhile another round (a match's Focus) moves the same fact: the known model is stale.
    await db.focus.record(answer(ANA, "7 × 8", 56, 56, 1000, NOW + timedelta(seconds=5), no=0,
                                 key="match:1:1"))
    assert await db.focus.record(second, known=known)
    # Bob gives the same three answers in the same order, the long way.
    await db.focus.record(answer(BOB, "8 × 7", 56, 56, 1500, NOW, no=0, key="practice:known"))
    await db.focus.record(answer(BOB, "7 × 8", 56, 56, 1000, NOW + timedelta(seconds=5), no=0,
                                 key="match:1:1"))
    await db.focus.record(answer(BOB, "7 × 8", 56, 56, 2000, NOW + timedelta(seconds=10), no=1,
                                 key="practice:known"))
    ana, bob = await db.mastery.load(G, ANA), await db.mastery.load(G, BOB)
    assert ana.items == bob.items
    assert ana.fact("7*8").answers == 3
    assert known.fact("7*8") == ana.fact("7*8")  # the items this answer read, known again


async def test_a_known_model_stores_a_question_once_and_a_newcomer_gets_a_player(
        db: Database) -> None:
    known = Mastery()
    [first, *_] = _round(ANA, NOW)
    assert await db.focus.record(first, known=known)  # no player row yet: made on the way
    assert not await db.focus.record(first, known=known)
    assert (await db.mastery.load(G, ANA)).fact("7*8").answers == 1
    assert known.fact("7*8").answers == 1
    assert len(await db.focus.recent(G, ANA)) == 1


async def test_a_known_model_inside_a_callers_transaction_rolls_back_with_it(
        db: Database) -> None:
    await db.players.ensure(G, ANA)
    known = await db.mastery.load(G, ANA)
    with pytest.raises(RuntimeError):
        async with db.transaction():
            await db.focus.record(_round(ANA, NOW)[0], known=known)
            raise RuntimeError("the rest failed")
    assert await db.focus.recent(G, ANA) == []
    assert (await db.mastery.load(G, ANA)).items == {}
    # The model the caller kept is ahead of the database now: the next answer finds it out.
    assert await db.focus.record(_round(ANA, NOW)[1], known=known)
    stored = await db.mastery.load(G, ANA)
    assert stored.fact("7*8").answers == 1
    assert known.fact("7*8") == stored.fact("7*8")
