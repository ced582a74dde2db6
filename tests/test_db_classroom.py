"""The classroom's storage: a student's own settings and the question sets."""

from __future__ import annotations

import pytest

from db import Database
from db.question_sets import SetItem
from db.students import StudentSettings

G, U = 10, 20


async def test_a_student_without_settings_has_the_servers(db: Database) -> None:
    got = await db.students.get(G, U)
    assert got.is_default and got.time_factor == 1.0


async def test_a_students_settings_are_kept_changed_and_cleared(db: Database) -> None:
    await db.students.save(StudentSettings(G, U, level_pinned=4, extra_time="x2"))
    got = await db.students.get(G, U)
    assert (got.level_pinned, got.extra_time, got.time_factor) == (4, "x2", 2.0)
    await db.students.save(StudentSettings(G, U, extra_time="untimed", rankings="hidden"))
    got = await db.students.get(G, U)
    assert (got.level_pinned, got.time_factor, got.rankings) == (None, None, "hidden")
    assert list(await db.students.of_server(G)) == [U]
    await db.students.save(StudentSettings(G, U))
    assert (await db.students.get(G, U)).is_default
    assert await db.students.of_server(G) == {}


async def test_a_setting_outside_the_choices_is_refused(db: Database) -> None:
    with pytest.raises(ValueError):
        await db.students.save(StudentSettings(G, U, extra_time="x3"))


async def test_a_question_set_keeps_its_items_in_order_and_its_name_in_any_case(
        db: Database) -> None:
    items = [SetItem("7 × 8", 56, "tables"), SetItem("Half of 90", 45)]
    made = await db.question_sets.create(G, "Tables de 7", 1, items)
    assert made.size == 2
    found = await db.question_sets.get(G, "tables DE 7")
    assert found is not None and found.set_id == made.set_id
    assert await db.question_sets.items(made.set_id) == items
    assert [s.name for s in await db.question_sets.of_server(G)] == ["Tables de 7"]
    assert await db.question_sets.delete(G, "TABLES de 7")
    assert await db.question_sets.get(G, "Tables de 7") is None
    assert not await db.question_sets.delete(G, "Tables de 7")


async def test_erasing_a_member_erases_their_settings_and_unnames_their_sets(
        db: Database) -> None:
    await db.students.save(StudentSettings(G, U, level_pinned=2))
    await db.question_sets.create(G, "Mine", U, [SetItem("1 + 1", 2)])
    exported = await db.export_player(G, U)
    assert exported["student_settings"][0]["level_pinned"] == 2
    assert exported["question_sets"][0]["name"] == "Mine"
    counts = await db.delete_player(G, U)
    assert counts["student_settings"] == 1 and counts["question_sets_anonymised"] == 1
    assert (await db.students.get(G, U)).is_default
    kept = await db.question_sets.get(G, "Mine")
    assert kept is not None and kept.author_id is None


async def test_a_set_name_taken_meanwhile_stores_nothing(db: Database) -> None:
    first = await db.question_sets.create_if_free(G, "Tables", U, [SetItem("1 + 1", 2)])
    assert first is not None and first.size == 1
    assert await db.question_sets.create_if_free(G, "TABLES", U, [SetItem("2 + 2", 4)]) is None
    assert await db.question_sets.items(first.set_id) == [SetItem("1 + 1", 2)]
    assert len(await db.question_sets.of_server(G)) == 1
