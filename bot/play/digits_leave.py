"""Leaving a match of The 20 Digits: resigning, and the shop clock (warning, time's up, lost on
time). No Discord here (``bot/ui/digits_leave.py`` says it; ``cogs/_digits_leave.py`` has the
command and the background loop).

- :func:`resign`: the member's match ends, the other side wins (the opponent, or the shadow of a
  solo match); rated as any loss (``db.digits.finish_match``: a duel is rated, a solo match is
  practice, as every solo match).
- :func:`tick`: the clock of every match whose time is near or past (``db.digits.clock_due``):
  a warning once, ``warn_lead`` before the deadline (``warned_at``); at the deadline each player
  whose turn is still open is made Ready as it stands (their Focus with the answers given so far,
  their slate as it is) and the battle follows as after any Ready; a player who missed the
  previous round too loses the match on time. Restart-safe: everything is in the database, and
  the loop's first run after a start finds what fell due meanwhile.

The stored state keeps the rounds missed (``"clock": {"missed": {player: last round missed}}``,
``bot.play.digits_clock``) and, once the match ended so, how (``"ended": {"how": "resigned" |
"time", "by": [players]}``).

Versions: every change is made on the match as read and saved at its version; a click or a tick
that lost the race is worked out again on the new state (a second "Resign" finds the match over
and says so; a turn ended by its player meanwhile is not ended twice).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.digits.match import RoundRecord
from bot.domain import DomainError
from bot.play.digits import (
    SAVE_ATTEMPTS,
    StoredMatch,
    load_active,
    load_game,
    mutate,
    scores,
    solo_pool,
)
from bot.play.digits_clock import CLOCK_KEY, limit_s, utcnow
from bot.shards import Owner, every_server
from db import Database, RatingChange, StaleVersion

log = logging.getLogger(__name__)

#: A warning comes this long before the deadline at most…
WARN_LEAD_MAX_S = 3600.0
#: …and at most this share of the time for a turn (a one-hour limit: 12 minutes before).
WARN_LEAD_SHARE = 0.2
#: Rounds missed in a row that lose the match.
MISSED_TO_LOSE = 2


def warn_lead(limit: int) -> timedelta:
    """How long before the deadline the late players are warned."""
    return timedelta(seconds=min(WARN_LEAD_MAX_S, WARN_LEAD_SHARE * limit))


@dataclass(frozen=True)
class Ended:
    """A match ended by resignation or on time: ``by`` left it (resigned, or missed too many
    rounds); the ratings it changed (none for a solo match)."""

    game: StoredMatch
    how: str  # "resigned" | "time"
    by: tuple[str, ...]
    ratings: dict[int, RatingChange]


@dataclass(frozen=True)
class Warned:
    """The players whose turn is still open were warned: it ends at ``deadline``."""

    game: StoredMatch
    late: tuple[str, ...]
    deadline: datetime


@dataclass(frozen=True)
class TimeUp:
    """The deadline passed: ``late`` were made Ready as they stood; ``record`` is the battle
    that followed (None only if a player's turn could stay open, which the engine does not
    allow at a deadline)."""

    game: StoredMatch
    late: tuple[str, ...]
    record: RoundRecord | None


# --------------------------------------------------------------------------------------------
# The end of a match without a battle


async def finish(db: Database, match_id: int, decide: Callable[[StoredMatch], tuple[str, ...]],
                 how: str, now: datetime | None = None) -> Ended:
    """End the active match: ``decide`` (refuses with a ``DomainError``) names who leave it; the
    other side wins (both leaving a duel: a draw). Saved at the version read, with the results
    and the ratings in one transaction; done again on the new state after a collision."""
    for attempt in range(SAVE_ATTEMPTS):
        game = await load_active(db, match_id)
        leaving = decide(game)
        match = game.match
        left, right = match.sides
        if set(leaving) >= {left, right}:
            match.winner = "draw"
        else:
            match.winner = match.opponent(leaving[0])
        match.over = True
        match.draft = None
        match.focus, match.ready = {}, []
        state = game.state()
        state["ended"] = {"how": how, "by": list(leaving)}
        try:
            ratings = await db.digits.finish_match(game.id, state, game.row.version,
                                                   scores(match), now=now)
        except StaleVersion:
            if attempt == SAVE_ATTEMPTS - 1:
                raise
            continue
        return Ended(await load_game(db, match_id), how, leaving, ratings)
    raise AssertionError("unreachable")


async def resign(db: Database, match_id: int, user_id: int) -> Ended:
    """``user_id`` resigns the match: the other side wins. Refused for a match over already
    (``digits.not_active``) or one they do not play."""

    def decide(game: StoredMatch) -> tuple[str, ...]:
        if user_id not in game.members:
            raise DomainError("digits_leave.not_yours", "you do not play this match")
        return (str(user_id),)

    return await finish(db, match_id, decide, "resigned")


async def open_matches(db: Database, guild_id: int, user_id: int, kind: str | None = None
                       ) -> list[StoredMatch]:
    """The member's matches being played on the server (not the pending challenges), oldest
    first; ``kind`` "duel" or "ghost" (solo) for one kind."""
    rows = await db.digits.open_matches(guild_id, user_id, kind=kind)
    return [StoredMatch.from_row(row) for row in rows if row.status == "active"]


async def to_resign(db: Database, guild_id: int, user_id: int) -> list[StoredMatch]:
    """The matches ``/digits resign`` offers (``open_matches``); refused when there is none."""
    games = await open_matches(db, guild_id, user_id)
    if not games:
        raise DomainError("digits_leave.no_match", "you play no match on this server")
    return games


# --------------------------------------------------------------------------------------------
# The clock


def late_players(game: StoredMatch) -> tuple[str, ...]:
    """The players whose turn of the round is still open (Focus or shop)."""
    return tuple(p for p in game.match.players if game.match.stage(p) in ("focus", "shop"))


def missed(game: StoredMatch) -> dict[str, int]:
    """Each player's last round ended by the clock."""
    return {str(k): int(v) for k, v in (game.extra.get(CLOCK_KEY) or {}).get("missed", {}).items()}


async def tick(db: Database, now: datetime | None = None, owns: Owner = every_server
               ) -> list[Warned | TimeUp | Ended]:
    """Warn, end the turns or the matches whose time has come; what happened, match by match
    (one that fails is logged and left for the next tick). Only the matches of the servers this
    process ``owns`` (its shards'): each match once."""
    now = now or utcnow()
    done: list[Warned | TimeUp | Ended] = []
    for match_id in await db.digits.clock_due(now, WARN_LEAD_MAX_S):
        try:
            event = await _tick_one(db, match_id, now, owns)
        except DomainError as error:
            log.info("clock of match %s: %s", match_id, error.code)
            continue
        except Exception:
            log.exception("clock of match %s", match_id)
            continue
        if event is not None:
            done.append(event)
    return done


async def _tick_one(db: Database, match_id: int, now: datetime, owns: Owner
                    ) -> Warned | TimeUp | Ended | None:
    game = await load_active(db, match_id)
    if not owns(game.row.guild_id):
        return None  # another process's server
    deadline = game.row.deadline
    late = late_players(game)
    if deadline is None or not late:
        return None
    if deadline <= now:
        return await time_up(db, match_id, deadline, now)
    lead = warn_lead(await limit_s(db, game.row.guild_id))
    if game.row.warned_at is not None or deadline - lead > now:
        return None
    if not await db.games.mark_warned("digits", match_id, now=now):
        return None  # another process warned them a moment ago
    return Warned(game, late, deadline)


async def time_up(db: Database, match_id: int, deadline: datetime, now: datetime
                  ) -> TimeUp | Ended | None:
    """The deadline of the round passed: a player who missed the round before too loses the
    match; the others still in their turn are made Ready as they stand."""
    game = await load_active(db, match_id)
    if game.row.deadline != deadline:
        return None  # a new round began since the list was read
    round_ = game.match.round
    losing = tuple(p for p in late_players(game)
                   if missed(game).get(p) == round_ - (MISSED_TO_LOSE - 1))

    if losing:
        def decide(fresh: StoredMatch) -> tuple[str, ...]:
            if fresh.match.round != round_:
                raise DomainError("digits.not_active", "the round was played meanwhile",
                                  status=fresh.row.status)
            return tuple(p for p in losing if p in late_players(fresh))

        return await finish(db, match_id, decide, "time", now=now)
    pools = {p: await solo_pool(db, game, p) for p in game.match.players}

    def change(fresh: StoredMatch) -> tuple[tuple[str, ...], RoundRecord | None]:
        ended = late_players(fresh)
        if fresh.match.round != round_ or fresh.row.deadline != deadline or not ended:
            # Played meanwhile: nothing to save (the tick is logged and left).
            raise DomainError("game.stale", "the round moved on meanwhile",
                              clicked=round_, current=fresh.match.round)
        record = None
        clock = dict(fresh.extra.get(CLOCK_KEY) or {})
        clock["missed"] = {**missed(fresh), **dict.fromkeys(ended, round_)}
        fresh.extra[CLOCK_KEY] = clock
        for player in ended:
            if fresh.match.stage(player) == "focus":
                fresh.match.submit_focus(player, fresh.focus_round(player).score)
                fresh.focus.pop(player, None)
            pool, owners = pools[player]
            record = fresh.match.end_turn(player, pool)
            fresh.bump(player)
            if record is not None:
                fresh.battle = record
                fresh.focus = {}
                if record.ghost is not None and record.ghost.owner in owners:
                    fresh.names[str(record.ghost.owner)] = owners[str(record.ghost.owner)]
        return ended, record

    stored, (ended, record) = await mutate(db, match_id, change, in_thread=True)
    return TimeUp(stored, ended, record)
