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
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.domain import DomainError
from bot.focus import LiveRound
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
