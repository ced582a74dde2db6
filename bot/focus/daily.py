"""The daily challenge: one set of six questions per server and date, one scored attempt a day
for each member, a ranking by score then total time, and the streak of days played.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any

from bot.domain import DomainError
from bot.focus.questions import (
    MAX_LEVEL,
    MIN_LEVEL,
    ROUND_SIZE,
    Question,
    check_level,
    generate_for_levels,
)
from bot.focus.round import Answer, FocusRound
from bot.focus.school import draw_round

DEFAULT_DAILY_LEVELS = (2, 7)  # one question at each level 2, 3, 4, 5, 6, 7


def check_level_range(min_level: int, max_level: int) -> tuple[int, int]:
    check_level(min_level)
    check_level(max_level)
    if min_level > max_level:
        raise DomainError("focus.bad_level_range",
                          f"the lowest level ({min_level}) is above the highest ({max_level})",
                          min=min_level, max=max_level, low=MIN_LEVEL, high=MAX_LEVEL)
    return min_level, max_level


def competition_ranks(keys: list[Any]) -> list[int]:
    """Ranks of already sorted keys, equal keys sharing a rank: 1, 1, 3, 4."""
    ranks: list[int] = []
    for position, key in enumerate(keys, start=1):
        ranks.append(ranks[-1] if ranks and key == keys[position - 2] else position)
    return ranks


def daily_seed(server_id: int, day: date) -> int:
    """A seed that every process computes alike (Python's hash() changes between runs)."""
    key = f"ardoise/focus/daily/{server_id}/{day.isoformat()}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big")


def daily_levels(min_level: int, max_level: int, size: int = ROUND_SIZE) -> list[int]:
    """The levels of the daily questions: an even climb from min_level to max_level."""
    check_level_range(min_level, max_level)
    if size == 1:
        return [min_level]
    span, steps = max_level - min_level, size - 1
    # round half up, in integers: min + round(k × span / steps)
    return [min_level + (2 * k * span + steps) // (2 * steps) for k in range(size)]


def year_for_levels(year: str | None, levels: Sequence[int], rng: random.Random,
                    skills: Sequence[str] | None = None) -> list[Question]:
    """One question of ``year`` (only of ``skills`` when given; without a year, of ``skills``
    alone) per entry of ``levels``, each drawn at that Focus level as any round of the year is
    (``bot.focus.school.draw_round``), all different: the year's ``generate_for_levels``."""
    drawn: list[Question] = []
    seen: set[str] = set()
    for level in levels:
        # One more question than already drawn, all different: at least one of them is new,
        # so that a small pool (a skill with few questions) never loops.
        question = next(q for q in draw_round(year, level, len(drawn) + 1, rng, skills)
                        if q.ascii not in seen)
        seen.add(question.ascii)
        drawn.append(question)
    return drawn


def daily_questions(server_id: int, day: date, min_level: int = DEFAULT_DAILY_LEVELS[0],
                    max_level: int = DEFAULT_DAILY_LEVELS[1], year: str | None = None
                    ) -> list[Question]:
    """The server's questions of ``day``: one at each level of the climb ``daily_levels``, from
    the server's school ``year`` when it has one (its skills at those Focus levels), else the
    eight levels' own. The seed is the server's and the day's: the same for everyone."""
    rng = random.Random(daily_seed(server_id, day))
    levels = daily_levels(min_level, max_level)
    if year is None:
        return generate_for_levels(levels, rng)
    return year_for_levels(year, levels, rng)


@dataclass(frozen=True, slots=True)
class DailyStanding:
    rank: int  # equal score and equal time share a rank (1, 1, 3)
    player: int
    score: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "player": self.player, "score": self.score,
                "seconds": self.seconds}


class DailyChallenge:
    """The challenge of one server on one date, with every member's attempt."""

    __slots__ = ("attempts", "day", "max_level", "min_level", "questions", "server_id")

    def __init__(self, server_id: int, day: date, min_level: int, max_level: int,
                 questions: list[Question], attempts: dict[int, FocusRound] | None = None) -> None:
        self.server_id = server_id
        self.day = day
        self.min_level, self.max_level = check_level_range(min_level, max_level)
        self.questions = list(questions)
        self.attempts = dict(attempts or {})

    @classmethod
    def new(cls, server_id: int, day: date, min_level: int = DEFAULT_DAILY_LEVELS[0],
            max_level: int = DEFAULT_DAILY_LEVELS[1]) -> DailyChallenge:
        return cls(server_id, day, min_level, max_level,
                   daily_questions(server_id, day, min_level, max_level))

    def start(self, player: int) -> FocusRound:
        """The player's one attempt of the day; a second start is refused (no peeking twice)."""
        if player in self.attempts:
            raise DomainError("focus.daily_already_played",
                              f"you have already taken the daily challenge of {self.day}",
                              player=player, day=self.day.isoformat())
        attempt = FocusRound(self.questions)
        self.attempts[player] = attempt
        return attempt

    def attempt(self, player: int) -> FocusRound:
        try:
            return self.attempts[player]
        except KeyError:
            raise DomainError("focus.daily_not_started",
                              "start the daily challenge before answering",
                              player=player, day=self.day.isoformat()) from None

    def answer(self, player: int, typed: str, seconds: float) -> Answer:
        return self.attempt(player).answer(typed, seconds)

    def skip(self, player: int, seconds: float) -> Answer:
        return self.attempt(player).skip(seconds)

    def finished(self, player: int) -> bool:
        return player in self.attempts and self.attempts[player].finished

    def ranking(self) -> list[DailyStanding]:
        """Finished attempts: higher score first, then less total time; ties by player id."""
        done = sorted((-a.score, a.total_seconds, player)
                      for player, a in self.attempts.items() if a.finished)
        ranks = competition_ranks([(score, seconds) for score, seconds, _ in done])
        return [DailyStanding(rank, player, -score, seconds)
                for rank, (score, seconds, player) in zip(ranks, done, strict=True)]

    def to_json(self) -> dict[str, Any]:
        return {"server_id": self.server_id, "day": self.day.isoformat(),
                "min_level": self.min_level, "max_level": self.max_level,
                "questions": [q.to_json() for q in self.questions],
                "attempts": [{"player": player, "round": attempt.to_json()}
                             for player, attempt in self.attempts.items()]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DailyChallenge:
        return cls(int(data["server_id"]), date.fromisoformat(data["day"]),
                   int(data["min_level"]), int(data["max_level"]),
                   [Question.from_json(q) for q in data["questions"]],
                   {int(a["player"]): FocusRound.from_json(a["round"])
                    for a in data["attempts"]})


@dataclass(frozen=True, slots=True)
class Streak:
    """Consecutive days with a finished daily attempt (the caller says which day it is)."""

    current: int = 0
    best: int = 0
    last_day: date | None = None

    def record(self, day: date) -> Streak:
        """The streak after a finished attempt on ``day``.

        The next day extends it; the same day again counts once; a missed day starts it over at
        1; a day before the last one recorded changes nothing.
        """
        last = self.last_day
        if last is not None and day <= last:
            return self
        current = self.current + 1 if last is not None and day == last + timedelta(days=1) else 1
        return replace(self, current=current, best=max(self.best, current), last_day=day)

    def on(self, today: date) -> int:
        """The streak as shown on ``today``: still alive if the last day played is today or
        yesterday, 0 once a day has been missed."""
        if self.last_day is None or today - self.last_day > timedelta(days=1):
            return 0
        return self.current

    def to_json(self) -> dict[str, Any]:
        return {"current": self.current, "best": self.best,
                "last_day": None if self.last_day is None else self.last_day.isoformat()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Streak:
        last = data.get("last_day")
        return cls(int(data["current"]), int(data["best"]),
                   None if last is None else date.fromisoformat(last))
