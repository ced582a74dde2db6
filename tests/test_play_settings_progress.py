"""bot.play.settings and bot.play.progress directly, on a real Database in tmp_path: a save with
no change writes nothing, the teacher roles, a student's progress and the boards (a refused
board is coded)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.domain import DomainError
from bot.play import progress, settings
from db import Database, FocusAnswer

GUILD, ANA = 1, 10


async def test_settings_are_saved_checked_and_a_save_of_nothing_changes_nothing(
        db: Database) -> None:
    changes = settings.check_focus(await settings.server_settings(db, GUILD), 2, 5, "none")
    saved, changed = await settings.save_settings(db, GUILD, changes)
    assert changed and (saved.focus_level_min, saved.focus_level_max) == (2, 5)
    same, changed = await settings.save_settings(db, GUILD, {})
    assert not changed and same == saved
    with pytest.raises(DomainError) as reversed_range:
        settings.check_focus(saved, 6, None, None)
    assert reversed_range.value.code == "settings.level_range_reversed"
    roles = await settings.set_teacher_roles(db, GUILD, [7, 8])
    assert roles.admin_role_ids == {7, 8} and roles.may_manage([8])


async def test_a_student_s_progress_and_the_boards_come_from_the_database(db: Database) -> None:
    now = datetime.now(UTC)
    await db.focus.record(FocusAnswer(
        guild_id=GUILD, user_id=ANA, topic="addition", level=1, question="1 + 1",
        expected=2, given=2, time_ms=900, source="practice", round_key="practice:a",
        question_no=0), now=now)
    data = await progress.student_progress(db, GUILD, ANA, "Ana", now=now)
    assert data.name == "Ana" and data.player is not None
    assert [(r.topic, r.correct, r.answers) for r in data.rows] == [("addition", 1, 1)]
    assert progress.focus_level(data.player, data.levels) == (1, False)
    streaks = await progress.board(db, GUILD, "focus-streaks")
    assert streaks.game == "focus-streaks" and streaks.today == progress.local_today(
        data.settings)
    with pytest.raises(DomainError) as unknown:
        await progress.board(db, GUILD, "chess")
    assert unknown.value.code == "progress.unknown_board" and unknown.value.params == {
        "value": "chess"}
