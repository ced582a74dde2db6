"""``/rithmo hint`` and ``/rithmo puzzle``'s use cases, over a :class:`~db.Database` and the
engine's :mod:`bot.rithmo.puzzles`, without Discord (``bot.ui.rithmo_puzzles`` says the results).

Hints
    Open in a game against Ardoise, and in a challenge whose challenger allowed them (the
    challenge says so, and the challenged member accepts it with the rest of the terms: both
    players agreed). Asked on one's own turn only; every hint that shows a capture is counted
    for its side (``rithmo_games.hints_white`` / ``hints_black``); one that finds nothing to
    take helped no one and counts nothing (issue 28), nor does a refusal.

The daily puzzle
    One per server and day (the server's local day, its time zone, like the daily Focus
    challenge): drawn the first time a member asks that day and stored, so that it is the same
    for everyone. Its position comes from the server's own games finished before that day (a game
    chosen by the day's seed, then a position of that game), else from a game the bot plays
    against itself from the day's seed. A member's first legal turn counts (right or wrong, once
    a day); later answers are explained the same way but not counted. The turn is read as a
    game's (the engine's tolerant notation: ``C4 D5`` is ``c4-d5``); one the rules refuse is said
    with its reason and the nearest legal turns, as in a game, and counts nothing (bad input
    changes nothing).

The streak (issue 28)
    The days in a row whose puzzle the member solved (their counted answer right), worked out
    from the stored answers (:func:`streaks`): the current one runs to today, or to yesterday
    while today's puzzle is still open to them; the best is the longest run kept. A wrong
    counted answer, or a day without one, ends a run. Erased answers (the server's retention)
    leave the streak with them.

Practice
    ``/rithmo puzzle practice:True`` draws a puzzle that counts for nothing: one of the server's
    past daily puzzles, else (none yet, or one time in three) a generated one from a fresh seed.
    It is answered like the daily one (the same reading, the same refusals that never show the
    solution), and nothing is stored: neither the day's answer nor the streak changes.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from bot.domain import DomainError
from bot.play.rithmo import RithmoService, player_ref, require_active
from bot.rithmo.puzzles import Puzzle, Verdict, Way, check_answer, from_turns, generate, hint
from bot.rithmo.puzzles import refusal as puzzle_refusal
from db import DailyPuzzle, Database, PuzzleAnswer, RithmoGame, ServerSettings

#: How many of the server's finished games are looked at for the day's position (at most).
GAMES_LOOKED_AT = 3
#: Of how many of its latest finished games a server's daily puzzle is drawn.
RECENT_GAMES = 20
#: How often a practice puzzle is a generated one although the server has past puzzles.
GENERATED_SHARE = 1 / 3


def hints_allowed(row: RithmoGame) -> bool:
    """Against Ardoise always; in a challenge, as agreed (see the module's docstring)."""
    return row.computer_side is not None or row.hints_allowed


@dataclass(frozen=True)
class HintGiven:
    """A hint: the capture shown (None: no turn can take anything), the side that asked and
    how many hints it has used now (an empty hint not among them)."""

    row: RithmoGame
    side: str
    way: Way | None
    used: int


async def give_hint(service: RithmoService, row: RithmoGame, user_id: int) -> HintGiven:
    """One capture open to ``user_id`` this turn in ``row``, counted when there is one; refused
    with the reason when hints are not allowed there or it is not their turn."""
    require_active(row)
    side = row.side_of(user_id)
    if side is None:  # current_game found one of theirs: a stale row from elsewhere
        raise DomainError("rithmo.no_game", "you do not play this game")
    if not hints_allowed(row):
        raise DomainError("rithmo.hints_off", "hints were not allowed in this challenge")
    if row.to_move != side:
        raise DomainError("rithmo.not_your_turn", "it is not your turn",
                          player=player_ref(row, row.to_move))
    with service.engine(row) as game:
        way = hint(game.board)
    if way is None:
        return HintGiven(row, side, None, row.hints_used(side))
    used = await service.db.rithmo.count_hint(row.game_id, side)
    return HintGiven(row, side, way, used)


# ------------------------------------------------------------------------------ the daily puzzle


def puzzle_seed(guild_id: int, day: date) -> int:
    """The day's seed, the same in every process (Python's hash() changes between runs)."""
    key = f"ardoise/rithmo/puzzle/{guild_id}/{day.isoformat()}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:6], "big")


def local_day(settings: ServerSettings, now: datetime) -> date:
    return now.astimezone(settings.tz()).date()


def draw(games: list[Any], seed: int) -> Puzzle:
    """The day's puzzle: a position of one of ``games`` (finished games, chosen by ``seed``),
    else one from a game the bot plays against itself. Pure and CPU-bound: run in a thread."""
    rng = random.Random(seed)
    for game in rng.sample(games, min(GAMES_LOOKED_AT, len(games))):
        found = from_turns(game.victories, game.turns,
                           {"kind": "game", "game_id": game.game_id}, rng)
        if found is not None:
            return found
    return generate(seed)


@dataclass(frozen=True)
class Streak:
    """The days in a row solved: the current run and the best one."""

    current: int
    best: int


#: A member who has solved no puzzle yet.
NO_STREAK = Streak(0, 0)


def streaks(results: Iterable[tuple[date, bool]], today: date) -> Streak:
    """The puzzle streak from each day's counted answer (right or not; see the module's
    docstring): the current run ends today, or yesterday while today is not answered yet."""
    best = run = 0
    previous: date | None = None  # the last day solved of the run
    answered_today = False
    for day, solved in sorted(results):
        answered_today = answered_today or day == today
        if not solved:
            run, previous = 0, None
            continue
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    if previous is None or not (previous == today or (
            today - previous == timedelta(days=1) and not answered_today)):
        return Streak(0, best)
    return Streak(run, best)


async def puzzle_streak(db: Database, guild_id: int, user_id: int, today: date) -> Streak:
    return streaks(await db.rithmo_puzzles.results(guild_id, user_id), today)


@dataclass(frozen=True)
class Today:
    """The server's puzzle of the day, the member's counted answer if any, how many have
    answered it (how many right) and the member's streak."""

    stored: DailyPuzzle
    puzzle: Puzzle
    mine: PuzzleAnswer | None
    answered: int
    solved: int
    streak: Streak = NO_STREAK


async def daily(db: Database, guild_id: int, user_id: int, now: datetime | None = None) -> Today:
    """The server's puzzle of today (drawn and stored on the first call of the day)."""
    now = now or datetime.now(UTC)
    settings = await db.servers.get(guild_id)
    day = local_day(settings, now)
    stored = await db.rithmo_puzzles.daily(guild_id, day)
    if stored is None:
        start = datetime.combine(day, time(), settings.tz())
        games = await db.rithmo_puzzles.finished_games(guild_id, start, RECENT_GAMES)
        drawn = await asyncio.to_thread(draw, games, puzzle_seed(guild_id, day))
        stored = await db.rithmo_puzzles.create_daily(guild_id, day, drawn.to_json(), now)
    answered, solved = await db.rithmo_puzzles.solvers(stored.puzzle_id)
    return Today(stored, Puzzle.from_json(stored.puzzle),
                 await db.rithmo_puzzles.answer_of(stored.puzzle_id, user_id), answered, solved,
                 await puzzle_streak(db, guild_id, user_id, day))


@dataclass(frozen=True)
class Answered:
    """A member's answer checked: the verdict, whether it was the one counted, and the counted
    answer (this one, or their first)."""

    today: Today
    verdict: Verdict
    counted: bool
    first: PuzzleAnswer


async def answer(db: Database, guild_id: int, user_id: int, puzzle_id: int | None, text: str,
                 now: datetime | None = None) -> Answered:
    """Check ``text`` against the puzzle ``puzzle_id`` (the one shown; None: today's): a turn the
    rules refuse raises the engine's refusal and counts nothing; the first legal one is counted.
    A puzzle shown before the day changed is refused (``rithmo.puzzle_over``): its answer would
    count for a day already over."""
    now = now or datetime.now(UTC)
    today = await daily(db, guild_id, user_id, now)
    if puzzle_id is None:
        puzzle_id = today.stored.puzzle_id
    if today.stored.puzzle_id != puzzle_id:
        raise DomainError("rithmo.puzzle_over", "that puzzle was yesterday's: here is today's")
    verdict = checked(today.puzzle, text)
    counted = await db.rithmo_puzzles.record_answer(today.stored, user_id, verdict.turn,
                                                    verdict.right, now)
    first = await db.rithmo_puzzles.answer_of(puzzle_id, user_id)
    assert first is not None
    answered, solved = await db.rithmo_puzzles.solvers(puzzle_id)
    streak = await puzzle_streak(db, guild_id, user_id, today.stored.day)
    return Answered(Today(today.stored, today.puzzle, first, answered, solved, streak), verdict,
                    counted, first)


def checked(puzzle: Puzzle, text: str) -> Verdict:
    """``text`` as an answer to ``puzzle``: a turn the rules refuse raises the engine's refusal,
    said as a game says it but never with the solution among the suggestions."""
    try:
        return check_answer(puzzle, text)
    except DomainError as refused:
        error = puzzle_refusal(puzzle, text, refused)
        if error is refused:
            raise
        raise error from refused


# ------------------------------------------------------------------------------ practice


@dataclass(frozen=True)
class Practice:
    """A practice puzzle: ``kind`` "past" (``ref`` a daily puzzle's id of this server) or
    "generated" (``ref`` its seed): what the Answer button carries to find it again."""

    kind: str
    ref: int
    puzzle: Puzzle
    day: date | None = None


async def practice(db: Database, guild_id: int, rng: random.Random | None = None,
                   now: datetime | None = None) -> Practice:
    """A puzzle to practise on, counting for nothing (see the module's docstring)."""
    rng = rng or random.Random()
    now = now or datetime.now(UTC)
    settings = await db.servers.get(guild_id)
    past = await db.rithmo_puzzles.past_puzzle_ids(guild_id, local_day(settings, now))
    if past and rng.random() >= GENERATED_SHARE:
        found = await practice_puzzle(db, guild_id, "past", rng.choice(past))
        if found is not None:
            return found
    seed = rng.randrange(1, 2 ** 40)  # a button's id: 1 and up
    return Practice("generated", seed, await asyncio.to_thread(generate, seed))


async def practice_puzzle(db: Database, guild_id: int, kind: str, ref: int) -> Practice | None:
    """The practice puzzle a button names again (None: not this server's, or erased)."""
    if kind == "generated":
        return Practice(kind, ref, await asyncio.to_thread(generate, ref))
    stored = await db.rithmo_puzzles.past_puzzle(guild_id, ref)
    if stored is None:
        return None
    return Practice(kind, ref, Puzzle.from_json(stored.puzzle), stored.day)


@dataclass(frozen=True)
class PracticeAnswered:
    practice: Practice
    verdict: Verdict


async def answer_practice(db: Database, guild_id: int, kind: str, ref: int,
                          text: str) -> PracticeAnswered:
    """Check ``text`` against a practice puzzle: nothing stored, right or wrong."""
    found = await practice_puzzle(db, guild_id, kind, ref)
    if found is None:
        raise DomainError("rithmo.practice_gone", "that practice puzzle is no longer kept")
    return PracticeAnswered(found, checked(found.puzzle, text))
