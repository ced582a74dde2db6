"""The live round as a class room's page shows it (issue 30): which round is the room's, what a
browser student sees of it, and the "phase" the page is pushed when it changes.

A room belongs to a server and, when opened from a channel, to that channel's class: its round is
the server's running live round in that channel, else the most recent running one of the server.
Everything is read from the stored round (``db.focus_live``), never from one process's memory:
the round may be run by another bot process on the same database, and it is saved after every
change (``bot.play.focus_live``), so what is stored is what the class sees on Discord.

The phase (``LivePhase.key``) is what makes a page change: another question, a question closed or
paused, the round over, another round. An answer alone changes the stored version but not the
phase: 200 students answering do not make 200 pages reload 200 times.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.focus import LiveAnswer, LiveRound, Question
from bot.play.focus_live import LiveState, Standing, public_ranking
from db import Database

#: A room's round among the server's running ones: (live id, channel id, stored version).
Mark = tuple[int, int | None, int]


@dataclass(frozen=True)
class LivePhase:
    """Where a round is, as a page shows it: ``state`` is "open", "paused", "closed" (between
    two questions) or "over"; ``number`` the question on show (from 1)."""

    live_id: int
    number: int
    state: str

    @property
    def key(self) -> str:
        return f"{self.live_id}:{self.number}:{self.state}"


#: The phase of a room without a running round.
WAITING = "none"


def phase_of(live: LiveState) -> LivePhase:
    game = live.game
    if live.status != "active" or game is None:
        return LivePhase(live.live_id, 0 if game is None else game.index + 1, "over")
    if game.open:
        return LivePhase(live.live_id, game.index + 1,
                         "paused" if live.paused_at is not None else "open")
    return LivePhase(live.live_id, game.index + 1, "closed")


def room_mark(marks: Sequence[Mark], channel_id: int | None) -> Mark | None:
    """The room's round among its server's running ones: the one in the room's channel (the
    most recent there), else the server's most recent."""
    if not marks:
        return None
    here = [m for m in marks if channel_id is not None and m[1] == channel_id]
    return max(here or marks, key=lambda m: m[0])


async def marks_of(db: Database, guild_id: int) -> list[Mark]:
    """The server's running rounds, without their states (what a page's watcher polls)."""
    return await db.focus_live.marks_of_server(guild_id)


async def state_of(db: Database, live_id: int) -> LiveState | None:
    row = await db.focus_live.get(live_id)
    return None if row is None else LiveState.from_row(row)


@dataclass(frozen=True)
class RankLine:
    rank: int
    name: str | None  # None: shown as "a student" (the teacher's choice), or a former member
    anonymous: bool
    points: int
    correct: int
    me: bool


@dataclass(frozen=True)
class LiveView:
    """What a browser student sees of the room's round.

    ``seconds_left``: of the student's own window (their extra time counted), None without a
    timer; ``mine``: their answer to the question on show; ``ranking``: the public ranking after
    ``asked`` questions (hidden students left out), shown once the question closed."""

    phase: LivePhase
    size: int
    question: Question | None
    seconds_left: float | None
    mine: LiveAnswer | None
    ranking: tuple[RankLine, ...]
    asked: int
    next_in: float | None
    lang: str


def _ranking(live: LiveState, game: LiveRound, user_id: int) -> tuple[RankLine, ...]:
    lines: list[Standing] = public_ranking(live, game)
    return tuple(RankLine(rank=line.rank, name=None if line.anonymous else
                          live.names.get(line.standing.player),
                          anonymous=line.anonymous, points=line.standing.points,
                          correct=line.standing.correct, me=line.standing.player == user_id)
                 for line in lines)


def view_of(live: LiveState, user_id: int, wall: float) -> LiveView:
    """The student ``user_id``'s view of ``live`` at ``wall()`` time ``wall``."""
    phase = phase_of(live)
    game = live.game
    if phase.state == "over" or game is None:
        return LiveView(phase, live.size, None, None, None, (), 0, None, live.lang)
    mine = next((a for a in game.answers if a.player == user_id and a.index == game.index),
                None)
    left: float | None = None
    if phase.state == "open" and live.shown_at is not None:
        factor = live.factor(user_id)
        ends = [live.shown_at + game.window(factor)] if factor is not None else []
        close = live.close_at() if live.auto else None
        if close is not None:
            ends.append(close)
        left = max(0.0, min(ends) - wall) if ends else None
    elif phase.state == "paused" and live.shown_at is not None and live.paused_at is not None:
        factor = live.factor(user_id)
        if factor is not None:
            left = max(0.0, live.shown_at + game.window(factor) - live.paused_at)
    asked = game.index if game.open else game.index + 1
    next_in = None if live.next_at is None or game.open else max(0.0, live.next_at - wall)
    return LiveView(phase, len(game.questions), game.current, left, mine,
                    _ranking(live, game, user_id) if asked else (), asked, next_in, live.lang)


async def room_view(db: Database, guild_id: int, channel_id: int | None, user_id: int,
                    wall: float) -> LiveView | None:
    """The room's running round as the student sees it; None when none runs."""
    mark = room_mark(await marks_of(db, guild_id), channel_id)
    if mark is None:
        return None
    live = await state_of(db, mark[0])
    if live is None or live.guild_id != guild_id:
        return None
    return view_of(live, user_id, wall)


async def room_round(db: Database, guild_id: int, channel_id: int | None) -> int | None:
    """The id of the room's running round (None: none runs)."""
    mark = room_mark(await marks_of(db, guild_id), channel_id)
    return None if mark is None else mark[0]


#: How long after their last live answer a student's page still shows that round's result.
RESULT_SHOWN = timedelta(hours=2)


@dataclass(frozen=True)
class LastRound:
    """A browser student's own result in the live round they last took part in: what their
    page says once it is over (the stored round forgets its ranking when it ends; the class
    sees the final ranking on the teacher's screen)."""

    right: int
    answered: int
    size: int


async def last_round(db: Database, guild_id: int, user_id: int, now: datetime
                     ) -> LastRound | None:
    """The student's result in their latest live round of the server, over now, if they
    answered in it within ``RESULT_SHOWN``; None otherwise. Their own answers only."""
    recent = [a for a in await db.focus.recent(guild_id, user_id, limit=60)
              if a.source == "live" and a.round_key and a.round_key.startswith("live:")]
    if not recent:
        return None
    latest = recent[0]
    if latest.answered_at is None or now - latest.answered_at > RESULT_SHOWN:
        return None
    mine = [a for a in recent if a.round_key == latest.round_key]
    assert latest.round_key is not None
    live = await state_of(db, int(latest.round_key.partition(":")[2]))
    if live is None or live.guild_id != guild_id or live.status == "active":
        return None
    return LastRound(right=sum(a.correct for a in mine), answered=len(mine),
                     size=max(live.size, len(mine)))
