"""Focus mastery: each member's facts and skills (``bot.focus.mastery``), kept with their answers.

``db.focus`` calls :meth:`MasteryRepository.apply` inside the transaction that stores the
answers, so the model never disagrees with them: one read of the items the answers touch and
one batched upsert, whatever the number of answers. A practice round keeps the model it was
chosen from and gives it back with each answer: then :meth:`MasteryRepository.moves` works the
items' new states out of it, and ``db.focus`` writes them with the answer in one statement that
checks each item is still at the count of answers it was known at (issue 24). A member who
answered before the table existed (``focus_mastery_backfill``) has their model worked out from
their stored answers the first time it is read (:meth:`MasteryRepository.load`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.focus.mastery import (
    SET_ROUND_PREFIX as SET_ROUND_PREFIX,  # the rule's, read by the callers here
)
from bot.focus.mastery import (
    SKILL,
    Evidence,
    Item,
    Mastery,
    keys_of,
    split_skill,
)
from bot.focus.mastery import counts_for_skill as counts_for_skill
from bot.focus.mastery import evidence as _evidence
from db.connection import Connection, Row, dumps, from_db_time, to_db_time, utc
from db.migrate import load_migrations

#: The schema version that made the tables (found by the migration's name, whatever its number):
#: a database opened at an older version (tests and tools that stop an upgrade there) stores its
#: answers without a model, and the backfill works it out after the upgrade.
SCHEMA = next(m.version for m in load_migrations() if m.name == "focus_mastery")
#: Keys a statement reads at most (four parameters each: well within SQLite's limit).
CHUNK = 2000

_COLUMNS = ("guild_id, user_id, kind, item, level, step, recent, answers, correct, fast,"
            " due_at, last_at")
_UPSERT = (
    f"INSERT INTO focus_mastery ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id, user_id, kind, item) DO UPDATE SET level = excluded.level,"
    " step = excluded.step, recent = excluded.recent, answers = excluded.answers,"
    " correct = excluded.correct, fast = excluded.fast, due_at = excluded.due_at,"
    " last_at = excluded.last_at"
)


class _Read(Protocol):
    """What :func:`evidence` reads of a stored answer (``db.focus.FocusAnswer``, a row's
    ``_Stored``); read-only, as a frozen dataclass's fields are."""

    @property
    def topic(self) -> str: ...
    @property
    def level(self) -> int: ...
    @property
    def question(self) -> str: ...
    @property
    def time_ms(self) -> int: ...
    @property
    def answered_at(self) -> datetime | None: ...
    @property
    def round_key(self) -> str | None: ...
    @property
    def correct(self) -> bool: ...


class _Answer(_Read, Protocol):
    """A new answer, whose member :meth:`MasteryRepository.apply` moves."""

    @property
    def guild_id(self) -> int: ...
    @property
    def user_id(self) -> int: ...


class _Stored:
    """A stored answer's row as :func:`evidence` reads it (its ``skill`` column when the table
    has one, else its topic: ``bot.focus.mastery.skill_of``)."""

    def __init__(self, row: Row) -> None:
        self.question: str = row["question"]
        self.topic: str = row["topic"]
        # A row's ``in`` looks at its values, not its columns.
        self.skill: str | None = row["skill"] if "skill" in row.keys() else None  # noqa: SIM118
        self.level: int = row["level"]
        self.time_ms: int = row["time_ms"]
        self.round_key: str | None = row["round_key"]
        self.answered_at = from_db_time(row["answered_at"])
        self.correct = bool(row["correct"])


def evidence(answer: _Read, now: datetime) -> Evidence:
    """A stored answer as the model reads it (``bot.focus.mastery.evidence``), at the moment
    it was stored, else ``now``."""
    return _evidence(answer, utc(answer.answered_at or now))


def _item(row: Row) -> Item:
    due, last = from_db_time(row["due_at"]), from_db_time(row["last_at"])
    assert due is not None and last is not None
    return Item(kind=row["kind"], key=row["item"], level=row["level"], step=row["step"],
                recent=row["recent"], answers=row["answers"], correct=row["correct"],
                fast=row["fast"], due=due, last=last)


def _values(guild_id: int, user_id: int, item: Item) -> tuple[object, ...]:
    return (guild_id, user_id, item.kind, item.key, item.level, item.step, item.recent,
            item.answers, item.correct, item.fast, to_db_time(item.due), to_db_time(item.last))


@dataclass(frozen=True)
class SkillLevel:
    """One member's level in one skill (at the highest question level they practised it)."""

    user_id: int
    skill: str
    level: int  # the question level
    mastery: int  # ATTEMPTED..MASTERED


def _then_and_now(user_id: int, rows: Sequence[Row], start: datetime
                  ) -> tuple[dict[str, SkillLevel], dict[str, SkillLevel]]:
    """The member's skills from the answers ``rows`` (oldest first) before ``start``, and from
    all of them."""
    model = Mastery()
    then: dict[str, SkillLevel] | None = None
    for row in rows:
        answered = from_db_time(row["answered_at"])
        if then is None and answered is not None and answered >= start:
            then = best_skills(user_id, model.skills())
        model.record(evidence(_Stored(row), start))
    now = best_skills(user_id, model.skills())
    return (now if then is None else then), now


def best_skills(user_id: int, items: Iterable[Item]) -> dict[str, SkillLevel]:
    """A member's level in each skill from their skill items: the mastery at the highest
    question level they practised it (as the class report shows it)."""
    best: dict[str, SkillLevel] = {}
    for item in items:
        skill, level = split_skill(item.key)
        if skill not in best or best[skill].level < level:
            best[skill] = SkillLevel(user_id, skill, level, item.level)
    return best


#: One (member, kind, item) in a VALUES list, typed: PostgreSQL would read the ids as text.
_TYPED_KEY = "(CAST(? AS BIGINT), CAST(? AS BIGINT), ?, ?)"


#: A member's items, and whether their backfill is due (none: one row of NULLs); parameters
#: (guild, user, guild, user).
_LOAD = ("SELECT pending.due AS backfill, m.* FROM (SELECT EXISTS (SELECT 1 FROM"
         " focus_mastery_backfill WHERE guild_id = ? AND user_id = ?) AS due) AS pending"
         " LEFT JOIN focus_mastery AS m ON m.guild_id = ? AND m.user_id = ?")


class MasteryRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    @property
    def ready(self) -> bool:
        """Whether the schema has the model (an older one, stopped by a test or a tool, not)."""
        return self._conn.version >= SCHEMA

    def moves(self, known: Mastery, answer: _Answer, now: datetime
              ) -> tuple[dict[tuple[str, str], Item], str]:
        """What ``answer`` does to the member's items as ``known`` has them, without changing
        ``known``: the items' new states, and the JSON that ``db.focus`` writes in the answer's
        own statement, each item as (kind, key, its answers as known or null when unknown, then
        its new columns). The answers count is the item's version: every move adds one, so the
        statement can tell that the item is still as known."""
        found = evidence(answer, now)
        trial = Mastery(item for key in sorted(keys_of([found]))
                        if (item := known.items.get(key)) is not None)
        changed = trial.record_all([found])
        rows = []
        for (kind, key), item in changed.items():
            was = known.items.get((kind, key))
            rows.append([kind, key, None if was is None else was.answers, item.level, item.step,
                         item.recent, item.answers, item.correct, item.fast,
                         to_db_time(item.due), to_db_time(item.last)])
        return changed, dumps(rows)

    async def apply(self, answers: Sequence[_Answer], now: datetime
                    ) -> dict[tuple[int, int], dict[tuple[str, str], Item]]:
        """Move the members' items by ``answers`` (new ones, oldest first), inside the caller's
        transaction: one read, one batched write. The items changed, by member."""
        moved: dict[tuple[int, int], dict[tuple[str, str], Item]] = {}
        if not self.ready:
            return moved
        by_member: dict[tuple[int, int], list[Evidence]] = {}
        for answer in answers:
            by_member.setdefault((answer.guild_id, answer.user_id), []).append(
                evidence(answer, now))
        keys = [(g, u, kind, key) for (g, u), found in by_member.items()
                for kind, key in sorted(keys_of(found))]
        if not keys:
            return moved
        stored: dict[tuple[int, int], list[Item]] = {}
        for start in range(0, len(keys), CHUNK):
            part = keys[start:start + CHUNK]
            rows = await self._conn.all(
                f"SELECT * FROM focus_mastery WHERE (guild_id, user_id, kind, item) IN"
                f" (VALUES {', '.join([_TYPED_KEY] * len(part))})",
                [value for key in part for value in key])
            for row in rows:
                stored.setdefault((row["guild_id"], row["user_id"]), []).append(_item(row))
        out: list[tuple[object, ...]] = []
        for (guild_id, user_id), found in by_member.items():
            model = Mastery(stored.get((guild_id, user_id), ()))
            changed = model.record_all(found)
            moved[(guild_id, user_id)] = changed
            out += [_values(guild_id, user_id, item) for item in changed.values()]
        if len(out) == 1:
            await self._conn.run(_UPSERT, out[0])
        else:
            await self._conn.many(_UPSERT, out)
        return moved

    async def load(self, guild_id: int, user_id: int, now: datetime | None = None) -> Mastery:
        """The member's model (worked out from their answers first if they answered before the
        model existed)."""
        # One statement: whether a backfill is due, and the items (none: one row of NULLs).
        rows = await self._conn.all(_LOAD, (guild_id, user_id, guild_id, user_id))
        if rows and rows[0]["backfill"]:
            await self._backfill(guild_id, user_id, utc(now))
            rows = await self._conn.all(
                "SELECT * FROM focus_mastery WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id))
        return Mastery(_item(row) for row in rows if row["kind"] is not None)

    async def _backfill(self, guild_id: int, user_id: int, now: datetime) -> None:
        """Replay every stored answer of the member, oldest first (those stored since the
        migration too: the model is made again from all of them)."""
        async with self._conn.transaction():
            rows = await self._conn.all(
                "SELECT * FROM focus_answers WHERE guild_id = ? AND user_id = ?"
                " ORDER BY answered_at, answer_id", (guild_id, user_id))
            model = Mastery()
            for row in rows:
                model.record(evidence(_Stored(row), now))
            await self._conn.run(
                "DELETE FROM focus_mastery WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id))
            await self._conn.many(_UPSERT, [_values(guild_id, user_id, item)
                                            for item in model.items.values()])
            await self._conn.run(
                "DELETE FROM focus_mastery_backfill WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id))

    async def skills_then_and_now(self, guild_id: int, user_ids: Iterable[int],
                                  since: datetime) -> dict[int, tuple[dict[str, SkillLevel],
                                                                      dict[str, SkillLevel]]]:
        """Each member's skills (``best_skills``) as their answers before ``since`` made them, and
        as all their answers make them: replayed from the answers in one pass each (the model is
        a function of the answers, so both sides are worked out the same way; the stored model
        keeps no history). What the weekly digest compares."""
        start = utc(since)
        out: dict[int, tuple[dict[str, SkillLevel], dict[str, SkillLevel]]] = {}
        for user_id in sorted(set(user_ids)):
            rows = await self._conn.all(
                "SELECT * FROM focus_answers WHERE guild_id = ? AND user_id = ?"
                " ORDER BY answered_at, answer_id", (guild_id, user_id))
            # A member's whole history: a class's replay takes seconds, off the event loop.
            out[user_id] = await asyncio.to_thread(_then_and_now, user_id, rows, start)
        return out

    async def skill_levels(self, guild_id: int, user_ids: Iterable[int]) -> list[SkillLevel]:
        """The class's skills (the class report): per member and skill, the mastery at the
        highest question level practised. Members waiting for their backfill are worked out
        first."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return []
        pending = await self._conn.all(
            "SELECT user_id FROM focus_mastery_backfill WHERE guild_id = ?", (guild_id,))
        for row in pending:
            if row["user_id"] in wanted:
                await self._backfill(guild_id, row["user_id"], utc())
        best: dict[tuple[int, str], SkillLevel] = {}
        for start in range(0, len(wanted), CHUNK):
            part = wanted[start:start + CHUNK]
            rows = await self._conn.all(
                "SELECT user_id, item, level FROM focus_mastery WHERE guild_id = ?"
                f" AND kind = ? AND user_id IN ({', '.join(['?'] * len(part))})",
                [guild_id, SKILL, *part])
            for row in rows:
                skill, level = split_skill(row["item"])
                key = (row["user_id"], skill)
                if key not in best or best[key].level < level:
                    best[key] = SkillLevel(row["user_id"], skill, level, row["level"])
        return sorted(best.values(), key=lambda s: (s.user_id, s.skill))


__all__ = ["MasteryRepository", "SkillLevel", "counts_for_skill", "evidence"]
