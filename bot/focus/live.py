"""A live class round: the teacher shows one question at a time to the whole class; each player's
first readable answer is scored for correctness and speed; the ranking runs as answers come in.

Points for an answer (``live_points``): 0 when wrong; when right, 500 plus up to 500 for speed,
500 + ⌊500 × (limit − t) / limit⌋ with t and the limit counted in milliseconds: 1000 for an
instant answer, 750 at half the time, 500 at the last moment. Answers after the limit are refused.

A student with extra time (a ``factor``: 1.5 or 2 times the limit, or ``None`` for no timer) has
their own window, the limit × the factor, and their time counts divided by their factor, so the
extra time takes no speed points away (at ×2, 16 s of a 20 s question score as 8 s). A student
without a timer has no window of their own: they answer as long as the question is open, and
score as at ×2 (``UNTIMED_SCORE_FACTOR``). A question that closes by itself stays open for each
such student as for one at ×2 (``hold``), so that a round without its teacher still ends.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from bot.domain import DomainError
from bot.focus.answers import read_for
from bot.focus.daily import competition_ranks
from bot.focus.questions import ROUND_SIZE, Question, generate_questions
from bot.focus.round import Answer, check_seconds, mark
from bot.formats import FORMAT_KEY, upgrade

BASE_POINTS = 500
SPEED_POINTS = 500
DEFAULT_TIME_LIMIT = 20.0
MIN_TIME_LIMIT = 5.0
MAX_TIME_LIMIT = 300.0
#: A student without a timer has their time counted as at ×2, the longest extra time.
UNTIMED_SCORE_FACTOR = 2.0

#: The version of :meth:`LiveRound.to_json`'s layout (:mod:`bot.formats`). 1: today's layout with
#: the field; 0 (no field): the same, written before versions.
LIVE_FORMAT = 1


def _ms(seconds: float) -> int:
    return round(seconds * 1000)


def live_points(correct: bool, seconds: float, time_limit: float,
                factor: float | None = 1.0) -> int:
    """The points of an answer given ``seconds`` after the question showed, by a student with
    ``factor`` times the time (``None``: no timer): their time counts divided by it."""
    if not correct:
        return 0
    counted = seconds / (UNTIMED_SCORE_FACTOR if factor is None else factor)
    limit, taken = _ms(time_limit), min(_ms(counted), _ms(time_limit))
    return BASE_POINTS + SPEED_POINTS * (limit - taken) // limit


@dataclass(frozen=True, slots=True)
class LiveAnswer:
    player: int
    index: int  # the question's number, from 0
    answer: Answer
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "index": self.index, "answer": self.answer.to_json(),
                "points": self.points}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LiveAnswer:
        return cls(int(data["player"]), int(data["index"]), Answer.from_json(data["answer"]),
                   int(data["points"]))


@dataclass(frozen=True, slots=True)
class LiveStanding:
    rank: int  # equal points and equal right answers share a rank
    player: int
    points: int
    correct: int
    answered: int

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "player": self.player, "points": self.points,
                "correct": self.correct, "answered": self.answered}


def check_time_limit(time_limit: float) -> float:
    if isinstance(time_limit, bool) or not isinstance(time_limit, int | float) \
            or not math.isfinite(time_limit) \
            or not MIN_TIME_LIMIT <= time_limit <= MAX_TIME_LIMIT:
        raise DomainError("focus.bad_time_limit",
                          f"the time per question goes from {MIN_TIME_LIMIT:g} to "
                          f"{MAX_TIME_LIMIT:g} seconds", time_limit=time_limit,
                          min=MIN_TIME_LIMIT, max=MAX_TIME_LIMIT)
    return float(time_limit)


class LiveRound:
    """States: waiting (before the first question), a question open, a question closed, finished.

    ``index`` is the question shown (−1 before the first); ``open`` says whether it still takes
    answers. Players join at any time, also by answering; a late player has no points for the
    questions before.
    """

    __slots__ = ("answers", "index", "open", "players", "questions", "time_limit")

    def __init__(self, questions: list[Question], time_limit: float = DEFAULT_TIME_LIMIT,
                 players: list[int] | None = None, index: int = -1, open: bool = False,
                 answers: list[LiveAnswer] | None = None) -> None:
        if not questions:
            raise ValueError("a live round has at least one question")
        self.questions = list(questions)
        self.time_limit = check_time_limit(time_limit)
        self.players = list(players or [])  # in the order they joined
        self.index = index
        self.open = open
        self.answers = list(answers or [])

    @classmethod
    def new(cls, level: int, rng: random.Random, count: int = ROUND_SIZE,
            time_limit: float = DEFAULT_TIME_LIMIT) -> LiveRound:
        return cls(generate_questions(level, count, rng), check_time_limit(time_limit))

    @property
    def finished(self) -> bool:
        return self.index == len(self.questions) - 1 and not self.open

    @property
    def current(self) -> Question | None:
        """The question on show (open or just closed), None before the first."""
        return self.questions[self.index] if self.index >= 0 else None

    def join(self, player: int) -> bool:
        """Add a player; False when already in. Refused once the round is over."""
        if self.finished:
            raise DomainError("focus.live_finished", "this live round is over", player=player)
        if player in self.players:
            return False
        self.players.append(player)
        return True

    def next_question(self) -> Question:
        """Close the question on show (if open) and show the next one."""
        if self.index + 1 >= len(self.questions):
            raise DomainError("focus.live_finished", "this live round has no more questions",
                              count=len(self.questions))
        self.index += 1
        self.open = True
        return self.questions[self.index]

    def close_question(self) -> None:
        """Stop taking answers to the question on show (time is up, or the teacher moves on)."""
        if not self.open:
            raise DomainError("focus.live_no_question", "no question is taking answers")
        self.open = False

    def window(self, factor: float | None = 1.0) -> float:
        """A student's own answer time: the limit × their factor (``inf``: no timer)."""
        return math.inf if factor is None else self.time_limit * factor

    def hold(self, factor: float | None = 1.0) -> float:
        """How long a question that closes by itself stays open for a student: their window;
        without a timer, as long as at ×2 (a finite time, whoever is left to answer)."""
        return self.window(UNTIMED_SCORE_FACTOR if factor is None else factor)

    def check_in_time(self, player: int, seconds: float, factor: float | None = 1.0) -> None:
        """Refuse ``player`` ``seconds`` after the question showed, past their own window."""
        if seconds > self.window(factor):
            raise DomainError("focus.live_too_late",
                              f"too late: the answer time was {self.window(factor):g} seconds",
                              player=player, time_limit=self.window(factor))

    def answer(self, player: int, typed: str, seconds: float,
               factor: float | None = 1.0) -> LiveAnswer:
        """``seconds``: the time since the question was shown; ``factor``: the player's extra
        time (``None``: no timer). The first readable answer is final; unreadable text changes
        nothing and can be typed again (``bot.play.focus_live.FORMAT_CODES``)."""
        if not self.open:
            raise DomainError("focus.live_no_question", "no question is taking answers",
                              player=player)
        check_seconds(seconds)
        self.check_in_time(player, seconds, factor)
        if any(a.player == player and a.index == self.index for a in self.answers):
            raise DomainError("focus.live_already_answered",
                              "you have already answered this question", player=player)
        # Read as the question's form says (a teacher's set may ask for a decimal or a fraction).
        given = read_for(self.questions[self.index], typed)
        marked = mark(self.questions[self.index], given, seconds)
        if player not in self.players:
            self.players.append(player)
        live = LiveAnswer(player, self.index, marked,
                          live_points(marked.correct, seconds, self.time_limit, factor))
        self.answers.append(live)
        return live

    def everyone_answered(self) -> bool:
        """Whether the open question has an answer from every player who joined (and someone
        joined): nobody is left to wait for."""
        done = {a.player for a in self.answers if a.index == self.index}
        return self.open and bool(self.players) and all(p in done for p in self.players)

    def answers_to(self, index: int) -> list[LiveAnswer]:
        return [a for a in self.answers if a.index == index]

    def ranking(self) -> list[LiveStanding]:
        """Every player, most points first, then most right answers; ties in join order."""
        points = dict.fromkeys(self.players, 0)
        correct = dict.fromkeys(self.players, 0)
        answered = dict.fromkeys(self.players, 0)
        for a in self.answers:
            points[a.player] += a.points
            correct[a.player] += a.answer.correct
            answered[a.player] += 1
        order = sorted(self.players, key=lambda p: (-points[p], -correct[p]))  # stable: join order
        ranks = competition_ranks([(points[p], correct[p]) for p in order])
        return [LiveStanding(rank, p, points[p], correct[p], answered[p])
                for rank, p in zip(ranks, order, strict=True)]

    def to_json(self) -> dict[str, Any]:
        return {FORMAT_KEY: LIVE_FORMAT, "questions": [q.to_json() for q in self.questions],
                "time_limit": self.time_limit, "players": list(self.players),
                "index": self.index, "open": self.open,
                "answers": [a.to_json() for a in self.answers]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LiveRound:
        """The round of :meth:`to_json`: an older format upgraded, a newer one refused."""
        data = upgrade(data, "live round", LIVE_FORMAT)
        return cls([Question.from_json(q) for q in data["questions"]],
                   float(data["time_limit"]), [int(p) for p in data["players"]],
                   int(data["index"]), bool(data["open"]),
                   [LiveAnswer.from_json(a) for a in data["answers"]])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LiveRound) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # typeshed: object.__hash__ is a method
