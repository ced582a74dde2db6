"""The adaptive level: which Focus level a player should practise next.

The rule (also in ``docs/rules/focus.md``), on the player's last 12 answers at the current level:
- fewer than 6 such answers: stay (not enough to judge);
- at least 5 in 6 right (83 %) and no weak topic: one level up;
- fewer than half right: one level down;
- otherwise stay.
A topic is weak when it has at least 2 answers in those 12 and fewer than 2 in 3 right. A skipped
question counts as wrong. The result stays within the server's range; a teacher's pin wins over
the rule (kept within the range too).

Practice now follows :func:`model_level`, the same decision read from the member's mastery
(``bot.focus.mastery``); :func:`next_level` stays the rule of the answers alone (and gives the
window's figures the round's summary shows).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.focus.daily import check_level_range
from bot.focus.mastery import ATTEMPTED, PROFICIENT, SKILL, Mastery, skill_item
from bot.focus.questions import LEVELS, MAX_LEVEL, MIN_LEVEL, TOPICS, check_level
from bot.focus.round import Answer

WINDOW = 12
MIN_ANSWERS = 6
#: The answers at the level :func:`model_level` waits for: a practice round's, one of its six
#: questions being of the level above.
MODEL_MIN_ANSWERS = 5


@dataclass(frozen=True, slots=True)
class Advice:
    level: int
    reason: str  # start, pinned, not_enough_answers, up, down, stay, range
    right: int  # right answers in the window
    answers: int  # answers in the window
    weak_topics: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "reason": self.reason, "right": self.right,
                "answers": self.answers, "weak_topics": list(self.weak_topics)}


def _topic_order(topic: str) -> tuple[int, str]:
    return (TOPICS.index(topic) if topic in TOPICS else len(TOPICS), topic)


def next_level(history: Sequence[Answer], current: int | None = None, pin: int | None = None,
               min_level: int = MIN_LEVEL, max_level: int = MAX_LEVEL) -> Advice:
    """``history``: the player's answers, oldest first, at any levels. ``current``: the level
    practised now (None for a new player, who starts at the bottom of the range)."""
    low, high = check_level_range(min_level, max_level)

    def within(level: int) -> int:
        return min(max(level, low), high)

    if current is None:
        if pin is not None:
            return Advice(within(check_level(pin)), "pinned", 0, 0, ())
        return Advice(low, "start", 0, 0, ())
    check_level(current)
    window = [a for a in history if a.level == current][-WINDOW:]
    right = sum(a.correct for a in window)
    by_topic: dict[str, list[int]] = {}
    for a in window:
        tally = by_topic.setdefault(a.topic, [0, 0])
        tally[0] += a.correct
        tally[1] += 1
    weak = tuple(sorted((t for t, (r, n) in by_topic.items() if n >= 2 and 3 * r < 2 * n),
                        key=_topic_order))
    if pin is not None:
        return Advice(within(check_level(pin)), "pinned", right, len(window), weak)
    n = len(window)
    if n < MIN_ANSWERS:
        reason, level = "not_enough_answers", current
    elif 6 * right >= 5 * n and not weak:
        reason, level = "up", current + 1
    elif 2 * right < n:
        reason, level = "down", current - 1
    else:
        reason, level = "stay", current
    final = within(level)
    if final != level:
        # The range (or the last level) stops the move, or moves a player left outside it.
        reason = "stay" if final == current else "range"
    return Advice(final, reason, right, n, weak)


def model_level(mastery: Mastery, history: Sequence[Answer], current: int | None = None,
                pin: int | None = None, min_level: int = MIN_LEVEL,
                max_level: int = MAX_LEVEL) -> Advice:
    """The level decided by the member's mastery (``bot.focus.mastery``), the rule of
    ``docs/rules/focus.md`` ("Mastery"), on the last 12 answers at the level (at least
    ``MODEL_MIN_ANSWERS`` of them, else stay): one level up once every skill of the level is
    Proficient or Mastered and at least 5 in 6 of those answers were right; one level down when
    at least half of the level's skills practised are back at Attempted and fewer than half of
    those answers were right; else stay. The weak topics: the level's skills practised and not
    yet Proficient. The pin and the range as :func:`next_level`."""
    low, high = check_level_range(min_level, max_level)
    counted = next_level(history, current, pin, min_level, max_level)
    if current is None or pin is not None:
        return counted
    skills = LEVELS[check_level(current)].topics
    states = {s: mastery.level_of(SKILL, skill_item(s, current)) for s in skills}
    seen = [s for s in skills if states[s] is not None]
    weak = tuple(s for s in seen if (states[s] or 0) < PROFICIENT)
    n, right = counted.answers, counted.right
    if n < MODEL_MIN_ANSWERS:
        reason, level = "not_enough_answers", current
    elif all((states[s] or 0) >= PROFICIENT for s in skills) and 6 * right >= 5 * n:
        reason, level = "up", current + 1
    elif 2 * sum(states[s] == ATTEMPTED for s in seen) >= len(seen) and 2 * right < n:
        reason, level = "down", current - 1
    else:
        reason, level = "stay", current
    final = min(max(level, low), high)
    if final != level:
        reason = "stay" if final == current else "range"
    return Advice(final, reason, right, n, weak)
