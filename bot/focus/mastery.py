"""Mastery: what a member knows, per fact (``7 × 8``, ``13 − 5``) and per skill, with spaced review.

Pure (no clock, no database): every function is told the time. The rules, also written in
``docs/rules/focus.md`` ("Mastery"), in short:

- Each answer is **fast** (right within the item's threshold: 3 s for a fact, as XtraMath; a
  threshold per level for a skill, whose questions are longer), **slow** (right, later) or
  **wrong** (a skipped question is wrong).
- An item climbs Attempted → Familiar → Proficient → Mastered and can drop back:
  wrong: one level down (never below Attempted); slow: Attempted → Familiar, Mastered →
  Proficient; fast: Attempted → Familiar, Familiar → Proficient once *fluent* (fast in two of
  its last three answers), Proficient → Mastered once it has passed the spaced reviews of
  1 and 3 days (``MASTERED_STEP``).
- Review: a fast answer at (or after) the item's due time is a review passed: it comes back
  after 1, then 3, 7 and 21 days (21 days again after that); a fast answer before its due time
  changes nothing (cramming is no review); a slow one comes back after a day; a wrong one is
  due at once (the next round).

Items are keyed by text: a fact as ``"7*8"`` (the smaller factor first: ``7 × 8`` and ``8 × 7``
are one fact, as a table's two cells show it), ``"5+8"`` (the same), ``"13-5"``, ``"56/8"``; a
skill as ``"multiplication:4"`` (a skill at a level: the tables to 10 are not those to 12).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Protocol, TypeVar

from bot.focus.questions import TOPICS
from bot.focus.skills import SKILLS
from bot.formats import FORMAT_KEY, upgrade

#: The version of :meth:`Mastery.to_json`'s layout (:mod:`bot.formats`).
MASTERY_FORMAT = 1

ATTEMPTED, FAMILIAR, PROFICIENT, MASTERED = 1, 2, 3, 4
LEVELS = (ATTEMPTED, FAMILIAR, PROFICIENT, MASTERED)
LEVEL_NAMES = {ATTEMPTED: "attempted", FAMILIAR: "familiar", PROFICIENT: "proficient",
               MASTERED: "mastered"}

FAST, SLOW, WRONG = "f", "s", "w"
#: How many of the latest outcomes an item keeps (fluent: fast in two of the last three).
RECENT = 3
FLUENT_FAST = 2

#: The spaced reviews, in days: after a first fast answer, then after each review passed.
INTERVALS = (1, 3, 7, 21)
#: Reviews passed (steps) that make a Proficient item Mastered: the first fast answer (step 1),
#: the review a day later (2) and the one three days after that (3).
MASTERED_STEP = 3

FACT, SKILL = "fact", "skill"

#: A fact's threshold, in seconds (XtraMath's).
FACT_SECONDS = 3.0
#: A skill's threshold by question level (``docs/rules/focus.md``): a two-step expression takes
#: longer to read than a table fact.
SKILL_SECONDS = {1: 3.0, 2: 3.0, 3: 5.0, 4: 4.0, 5: 5.0, 6: 8.0, 7: 10.0, 8: 15.0}
#: A skill whose levels this table does not know (a new skill's own levels).
DEFAULT_SKILL_SECONDS = 10.0

#: The facts: sums and differences within 20, tables to 12.
FACT_LIMIT = {"+": 20, "-": 20, "*": 12, "/": 12}


def skill_of(question: Any) -> str:
    """The skill a question (or a stored answer) trains: its ``skill`` when it has one, else its
    ``topic``. The one place to change when questions carry skills of their own."""
    skill = getattr(question, "skill", None)
    return skill if isinstance(skill, str) and skill else str(question.topic)


def skill_item(skill: str, level: int) -> str:
    return f"{skill}:{level}"


def split_skill(item: str) -> tuple[str, int]:
    """``"multiplication:4"`` → ``("multiplication", 4)``."""
    skill, _, level = item.rpartition(":")
    return skill, int(level)


_FACT = re.compile(r"^\s*(\d{1,3})\s*([-+*/×÷−])\s*(\d{1,3})\s*(?:=\s*\??\s*)?$")
_OPS = {"×": "*", "÷": "/", "−": "-"}


def fact_of(text: str) -> str | None:
    """The fact a question's text asks (``"8 × 7"`` → ``"7*8"``), or None: read with a pattern
    (never ``eval``), one operation on two whole numbers within the facts' limits."""
    found = _FACT.match(text)
    if found is None:
        return None
    a, op, b = int(found[1]), _OPS.get(found[2], found[2]), int(found[3])
    limit = FACT_LIMIT[op]
    if op == "+":
        if a + b > limit or min(a, b) < 0:
            return None
        a, b = min(a, b), max(a, b)
    elif op == "-":
        if a > limit or b > a:
            return None
    elif op == "*":
        if not (1 <= a <= limit and 1 <= b <= limit):
            return None
        a, b = min(a, b), max(a, b)
    else:
        if b == 0 or a % b or not (1 <= b <= limit and a // b <= limit):
            return None
    return f"{a}{op}{b}"


def fact_operands(fact: str) -> tuple[int, str, int]:
    """``"7*8"`` → ``(7, "*", 8)``."""
    found = re.fullmatch(r"(\d+)([-+*/])(\d+)", fact)
    if found is None:
        raise ValueError(f"not a fact key: {fact!r}")
    return int(found[1]), found[2], int(found[3])


def outcome(correct: bool, seconds: float, limit: float) -> str:
    if not correct:
        return WRONG
    return FAST if seconds <= limit else SLOW


@dataclass(frozen=True, slots=True)
class Item:
    """One fact or skill of one member."""

    kind: str  # FACT or SKILL
    key: str
    level: int
    step: int  # spaced reviews passed (0: none; a wrong or slow answer starts again)
    recent: str  # the latest outcomes, oldest first, at most RECENT of them
    answers: int
    correct: int
    fast: int
    due: datetime  # when it comes back for review
    last: datetime  # the latest answer

    @property
    def level_name(self) -> str:
        return LEVEL_NAMES[self.level]

    def is_due(self, now: datetime) -> bool:
        return self.due <= now

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "key": self.key, "level": self.level, "step": self.step,
                "recent": self.recent, "answers": self.answers, "correct": self.correct,
                "fast": self.fast, "due": self.due.isoformat(), "last": self.last.isoformat()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Item:
        return cls(kind=str(data["kind"]), key=str(data["key"]), level=int(data["level"]),
                   step=int(data["step"]), recent=str(data["recent"]),
                   answers=int(data["answers"]), correct=int(data["correct"]),
                   fast=int(data["fast"]), due=datetime.fromisoformat(data["due"]),
                   last=datetime.fromisoformat(data["last"]))


def _fluent(recent: str) -> bool:
    return recent.count(FAST) >= FLUENT_FAST


def step(item: Item | None, kind: str, key: str, result: str, now: datetime) -> Item:
    """The item after one answer (``result``: FAST, SLOW or WRONG) given at ``now``; ``item``
    None for the first answer to it."""
    if result not in (FAST, SLOW, WRONG):
        raise ValueError(f"an outcome is fast, slow or wrong, not {result!r}")
    if item is None:
        item = Item(kind, key, ATTEMPTED, 0, "", 0, 0, 0, now, now)
        first = True
    else:
        first = False
    recent = (item.recent + result)[-RECENT:]
    level, reviews, due = item.level, item.step, item.due
    if result == WRONG:
        level = max(ATTEMPTED, level - (0 if first else 1))
        reviews, due = 0, now
    elif result == SLOW:
        if level == ATTEMPTED:
            level = FAMILIAR
        elif level == MASTERED:
            level = PROFICIENT
        reviews, due = 0, now + timedelta(days=INTERVALS[0])
    else:
        if first or reviews == 0 or item.is_due(now):
            # A review passed (or the first good answer): the next one further away.
            reviews = min(reviews + 1, len(INTERVALS))
            due = now + timedelta(days=INTERVALS[reviews - 1])
        if level == ATTEMPTED:
            level = FAMILIAR
        elif level == FAMILIAR and _fluent(recent):
            level = PROFICIENT
        if level == PROFICIENT and reviews >= MASTERED_STEP and _fluent(recent):
            level = MASTERED
    return replace(item, level=level, step=reviews, recent=recent,
                   answers=item.answers + 1, correct=item.correct + (result != WRONG),
                   fast=item.fast + (result == FAST), due=due, last=now)


def skill_seconds(skill: str, level: int) -> float:
    """A skill's fast threshold at a question level (the engine's skills by the table; another
    skill's own levels have the default)."""
    if skill in TOPICS:
        return SKILL_SECONDS.get(level, DEFAULT_SKILL_SECONDS)
    return DEFAULT_SKILL_SECONDS


@dataclass(frozen=True, slots=True)
class Evidence:
    """What one answer says, whatever stored it: its question's text, skill and level, whether it
    was right and how long it took. ``counts_for_skill`` is false for a teacher's own question
    (a set has no level: its facts count, its topic does not)."""

    text: str
    skill: str
    level: int
    correct: bool
    seconds: float
    at: datetime
    counts_for_skill: bool = True


#: The round key of a practice round from a teacher's set begins so
#: (``practice-set:<set id>:<token>``): its answers move facts, not skills.
SET_ROUND_PREFIX = "practice-set:"


class Answer(Protocol):
    """What :func:`evidence` reads of an answer, however stored (``db.focus.FocusAnswer``, a
    stored row): the skill is read by :func:`skill_of`."""

    @property
    def question(self) -> str: ...
    @property
    def topic(self) -> str: ...
    @property
    def level(self) -> int: ...
    @property
    def time_ms(self) -> int: ...
    @property
    def round_key(self) -> str | None: ...
    @property
    def correct(self) -> bool: ...


def counts_for_skill(round_key: str | None, skill: str) -> bool:
    """A teacher's own question (a set's) trains no skill of the engine's: the adaptive level's
    rule (``bot.play.question_sets.counts_for_level``); every skill of the engine's does (the
    eight levels' topics and the school years' skills, ``bot.focus.skills.SKILLS``)."""
    return not (round_key or "").startswith(SET_ROUND_PREFIX) and skill in SKILLS


def evidence(answer: Answer, at: datetime) -> Evidence:
    """What ``answer``, given at ``at``, says to the model."""
    skill = skill_of(answer)
    return Evidence(text=answer.question, skill=skill, level=answer.level,
                    correct=answer.correct, seconds=answer.time_ms / 1000, at=at,
                    counts_for_skill=counts_for_skill(answer.round_key, skill))


K = TypeVar("K")


def moved_by(stored: Mapping[K, Iterable[Item]], found: Mapping[K, Sequence[Evidence]]
             ) -> dict[K, list[Item]]:
    """For each member (``K``), the items their new answers change (``found``, oldest first),
    from their ``stored`` items: what is written back, final states only."""
    return {member: list(Mastery(stored.get(member, ())).record_all(answers).values())
            for member, answers in found.items()}


def moves(evidence: Evidence) -> list[tuple[str, str, str]]:
    """The items one answer moves, as (kind, key, outcome)."""
    out: list[tuple[str, str, str]] = []
    fact = fact_of(evidence.text)
    if fact is not None:
        out.append((FACT, fact, outcome(evidence.correct, evidence.seconds, FACT_SECONDS)))
    if evidence.counts_for_skill:
        limit = skill_seconds(evidence.skill, evidence.level)
        out.append((SKILL, skill_item(evidence.skill, evidence.level),
                    outcome(evidence.correct, evidence.seconds, limit)))
    return out


def keys_of(evidence: Iterable[Evidence]) -> set[tuple[str, str]]:
    return {(kind, key) for e in evidence for kind, key, _ in moves(e)}


class Mastery:
    """A member's items, by (kind, key)."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[Item] = ()) -> None:
        self.items: dict[tuple[str, str], Item] = {(i.kind, i.key): i for i in items}

    def get(self, kind: str, key: str) -> Item | None:
        return self.items.get((kind, key))

    def fact(self, key: str) -> Item | None:
        return self.items.get((FACT, key))

    def skill(self, skill: str, level: int) -> Item | None:
        return self.items.get((SKILL, skill_item(skill, level)))

    def record(self, evidence: Evidence) -> list[Item]:
        """Apply one answer; the items it changed."""
        changed = []
        for kind, key, result in moves(evidence):
            item = step(self.items.get((kind, key)), kind, key, result, evidence.at)
            self.items[(kind, key)] = item
            changed.append(item)
        return changed

    def record_all(self, evidence: Iterable[Evidence]) -> dict[tuple[str, str], Item]:
        """Apply answers in order; every item changed (its final state)."""
        changed: dict[tuple[str, str], Item] = {}
        for e in evidence:
            for item in self.record(e):
                changed[(item.kind, item.key)] = item
        return changed

    def facts(self) -> list[Item]:
        return [i for i in self.items.values() if i.kind == FACT]

    def skills(self) -> list[Item]:
        return [i for i in self.items.values() if i.kind == SKILL]

    def due_facts(self, now: datetime, ops: str = "+-*/") -> list[Item]:
        """Facts due for review, the most overdue (then the weakest) first."""
        due = [i for i in self.facts() if i.is_due(now) and fact_operands(i.key)[1] in ops]
        return sorted(due, key=lambda i: (i.due, i.level, i.key))

    def level_of(self, kind: str, key: str) -> int | None:
        item = self.items.get((kind, key))
        return None if item is None else item.level

    def to_json(self) -> dict[str, Any]:
        return {FORMAT_KEY: MASTERY_FORMAT,
                "items": [i.to_json() for i in sorted(self.items.values(),
                                                       key=lambda i: (i.kind, i.key))]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Mastery:
        """The model of :meth:`to_json`: a newer format is refused (``state.too_new``)."""
        data = upgrade(data, "mastery", MASTERY_FORMAT)
        return cls(Item.from_json(i) for i in data["items"])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mastery) and self.items == other.items

    __hash__ = None  # type: ignore[assignment]  # typeshed: object.__hash__ is a method


#: The tables the mastery map draws: 1 to 10 each way.
MAP_SIDE = 10


def map_data(model: Mastery, now: datetime) -> dict[str, Any]:
    """What ``images.render_mastery`` draws of a model (JSON): the facts of the multiplication
    table 1–10 and the addition table to 20 with their levels, each skill at the highest level
    practised (in the order of ``bot.focus.skills.SKILLS``, then the others), and the table's
    counts: facts answered, mastered, due for review (every fact, not only the tables', for the
    last)."""
    shown = {f"{a}{op}{b}" for op in "*+" for a in range(1, MAP_SIDE + 1)
             for b in range(a, MAP_SIDE + 1)}
    facts = {i.key: i.level for i in model.facts() if i.key in shown}
    best: dict[str, Item] = {}
    for item in model.skills():
        skill, level = split_skill(item.key)
        if skill not in best or split_skill(best[skill].key)[1] < level:
            best[skill] = item

    listed = list(SKILLS)

    def order(skill: str) -> tuple[int, str]:
        # The engine's order: the eight levels' topics, then the skills topic by topic.
        return (listed.index(skill) if skill in listed else len(listed), skill)

    skills = [{"skill": s, "level": split_skill(best[s].key)[1], "mastery": best[s].level}
              for s in sorted(best, key=order)]
    return {"facts": facts, "skills": skills, "seen": len(facts),
            "mastered": sum(level == MASTERED for level in facts.values()),
            "table": len(shown), "due": len(model.due_facts(now))}
