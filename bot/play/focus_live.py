"""Live class rounds without Discord: the state kept between clicks (``LiveState``, saved in
``db.focus_live`` after every change, so the public buttons work after a restart), its cache in
memory and the lock of each round (``LiveRounds``), and the teacher's start.

The cache is safe without reasoning about awaits: every change runs under the round's lock
(``LiveRounds.lock``), and a save that fails drops the cached state, so the next use reads the
database again rather than a memory gone ahead of it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from bot.domain import DomainError
from bot.focus import LiveRound, Question
from bot.formats import FORMAT_KEY, upgrade
from bot.play.focus import level_range
from db import Database, FocusAnswer, ServerSettings

#: Answer-reading refusals: the member may type again.
FORMAT_CODES = frozenset({"focus.empty", "focus.not_a_number", "focus.not_whole",
                          "focus.bad_grouping", "focus.too_long"})


#: The version of the live state's layout (``LiveState.to_json``; ``bot.formats``): a state
#: without one (saved before versions) is upgraded when read, a newer one refused. 1: the layout
#: of 2026-12 with the field; the live round inside carries its own (``LIVE_FORMAT``).
LIVE_STATE_FORMAT = 1


@dataclass
class LiveState:
    live_id: int
    guild_id: int
    channel_id: int | None
    teacher_id: int
    version: int
    status: str
    game: LiveRound | None  # None once finished (the answers hold the record)
    level: int
    lang: str  # the language of the public messages (the teacher's)
    shown_at: float | None  # wall() when the current question was posted
    names: dict[int, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {FORMAT_KEY: LIVE_STATE_FORMAT,
                "round": None if self.game is None else self.game.to_json(),
                "level": self.level, "lang": self.lang, "shown_at": self.shown_at,
                "names": {str(k): v for k, v in self.names.items()}}

    @classmethod
    def from_row(cls, row: Any) -> LiveState:
        state = upgrade(row.state, "live state", LIVE_STATE_FORMAT)
        return cls(live_id=row.live_id, guild_id=row.guild_id, channel_id=row.channel_id,
                   teacher_id=row.teacher_id, version=row.version, status=row.status,
                   game=None if state.get("round") is None
                   else LiveRound.from_json(state["round"]),
                   level=int(state.get("level", 1)), lang=str(state.get("lang", "en")),
                   shown_at=state.get("shown_at"),
                   names={int(k): str(v) for k, v in state.get("names", {}).items()})


def live_or_over(live: LiveState) -> LiveRound:
    if live.status != "active" or live.game is None or live.game.finished:
        raise DomainError("focus.live_finished", "this live round is over")
    return live.game



@dataclass(frozen=True)
class LiveAnswered:
    """A live answer taken (``unreadable`` None: marked and saved), or refused for its format
    (the member may type again; nothing changed)."""

    correct: bool = False
    points: int = 0
    unreadable: DomainError | None = None


@dataclass(frozen=True)
class Closed:
    """A live question as it closed: its answer and how many found it."""

    number: int
    size: int
    question: Question
    right: int
    answered: int


@dataclass(frozen=True)
class LiveStep:
    """The teacher moved on: the question closed, and the round at its next question (``live``)
    or over (``final``: the last state, its names kept for the final ranking)."""

    closed: Closed
    live: LiveState
    game: LiveRound
    final: LiveState | None


class LiveRounds:
    """The live rounds of one bot: read once from the database, then kept; saved after every
    change. ``now`` stamps the rows, ``wall`` (seconds) times the questions; both are read at
    each call, so a test may replace what they call."""

    def __init__(self, db: Database, now: Callable[[], datetime],
                 wall: Callable[[], float]) -> None:
        self.db = db
        self.now = now
        self.wall = wall
        self._live: dict[int, LiveState] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, live_id: int) -> asyncio.Lock:
        return self._locks.setdefault(live_id, asyncio.Lock())

    async def start(self, settings: ServerSettings, channel_id: int | None, teacher_id: int,
                    teacher_name: str, lang: str, *, teaches: bool, count: int,
                    level: int | None, seconds: float, seed: int) -> LiveState:
        """A new live round, its first question shown; for teachers only (``teaches``: the
        caller knows the member's permissions, given ``settings``)."""
        guild_id = settings.guild_id
        if not teaches:
            raise DomainError("focus.live_teachers_only", "teachers only")
        if level is None:
            level = settings.focus_level_pinned or level_range(settings)[0]
        game = LiveRound.new(level, random.Random(seed), count, float(seconds))
        game.next_question()
        live = LiveState(live_id=0, guild_id=guild_id, channel_id=channel_id,
                         teacher_id=teacher_id, version=1, status="active", game=game,
                         level=level, lang=lang, shown_at=self.wall())
        live.names[teacher_id] = teacher_name
        row = await self.db.focus_live.create(guild_id, channel_id, teacher_id, live.to_json(),
                                              now=self.now())
        live.live_id, live.version = row.live_id, row.version
        self._live[live.live_id] = live
        return live

    async def load(self, live_id: int) -> LiveState:
        live = self._live.get(live_id)
        if live is None:
            live = LiveState.from_row(await self.db.focus_live.require(live_id))
            self._live[live_id] = live
        return live

    async def save(self, live: LiveState, answer: FocusAnswer | None = None) -> None:
        """Save the state (and the answer just given, in the same transaction); a finished
        round is then forgotten here (later clicks read "finished" from the database)."""
        status = "finished" if live.game is None else None
        try:
            async with self.db.transaction():
                live.version = await self.db.focus_live.save(
                    live.live_id, live.to_json(), live.version, status=status, now=self.now())
                if answer is not None:
                    await self.db.focus.record(answer, now=self.now())
        except BaseException:
            # The memory went ahead of the database: read it again next time.
            self._live.pop(live.live_id, None)
            raise
        if status is not None:
            live.status = status
            self._live.pop(live.live_id, None)

    async def answerable(self, live_id: int, number: int, user_id: int) -> Question:
        """The question ``number`` (from 1) that ``user_id`` may answer now; refused: closed,
        the teacher, already answered."""
        live = await self.load(live_id)
        game = live_or_over(live)
        if number != game.index + 1 or not game.open:
            raise DomainError("focus.live_no_question", "that question is closed")
        if user_id == live.teacher_id:
            raise DomainError("focus.live_teacher_answers", "the teacher runs the game")
        if any(a.player == user_id and a.index == game.index for a in game.answers):
            raise DomainError("focus.live_already_answered", "already answered")
        assert game.current is not None
        return game.current

    async def answer(self, live_id: int, number: int, user_id: int, name: str, typed: str,
                     submitted: float) -> LiveAnswered:
        """Mark ``typed`` (submitted at ``wall()`` time ``submitted``) and save it with the state,
        in one transaction."""
        async with self.lock(live_id):
            live = await self.load(live_id)
            game = live_or_over(live)
            if number != game.index + 1:
                raise DomainError("focus.live_no_question", "that question is closed")
            shown = live.shown_at if live.shown_at is not None else submitted
            try:
                scored = game.answer(user_id, typed, max(0.0, submitted - shown))
            except DomainError as refusal:
                if refusal.code not in FORMAT_CODES:
                    raise
                return LiveAnswered(unreadable=refusal)
            live.names[user_id] = name
            a = scored.answer
            await self.save(live, FocusAnswer(
                guild_id=live.guild_id, user_id=user_id, topic=a.topic, level=a.level,
                question=a.question, expected=a.expected, given=a.given,
                time_ms=round(a.seconds * 1000), source="live",
                round_key=f"live:{live.live_id}", question_no=number - 1))
        return LiveAnswered(correct=a.correct, points=scored.points)

    async def next(self, live_id: int, number: int, user_id: int) -> LiveStep:
        """The teacher closes question ``number`` and opens the next one, or ends the round."""
        async with self.lock(live_id):
            live = await self.load(live_id)
            game = live_or_over(live)
            if user_id != live.teacher_id:
                raise DomainError("focus.live_next_teacher_only", "only the teacher moves on")
            if number != game.index + 1:
                raise DomainError("game.stale", "an older question's button",
                                  clicked=number, current=game.index + 1)
            if game.open:
                game.close_question()
            question = game.current
            assert question is not None
            answers = game.answers_to(game.index)
            closed = Closed(number=number, size=len(game.questions), question=question,
                            right=sum(a.answer.correct for a in answers), answered=len(answers))
            final = None
            if game.finished:
                final = replace(live)  # keeps the names for the final ranking
                live.game = None
                live.names = {}
            else:
                game.next_question()
                live.shown_at = self.wall()
            await self.save(live)
        return LiveStep(closed=closed, live=live, game=game, final=final)
