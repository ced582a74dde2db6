"""Focus's use cases over the database: the level rules (the adaptive level of
``bot.focus.next_level``, the teacher's pin, the server's range), a practice round's start and
end, the daily challenge (drawn once per server and day, one attempt a member, resumed where it
stopped), the daily post's bookkeeping and today's ranking. No Discord: the cogs and ``bot.ui``
call these and show what they return.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

from bot.domain import DomainError
from bot.focus import (
    ROUND_SIZE,
    Answer,
    FocusRound,
    Question,
    daily_questions,
    generate_questions,
)
from bot.focus.adaptive import Advice, model_level
from bot.focus.daily import daily_levels, year_for_levels
from bot.focus.exact import WHOLE
from bot.focus.mastery import Mastery
from bot.focus.review import choose_round
from bot.focus.school import YEARS, draw_round
from bot.play import students
from bot.play.question_sets import counts_for_level
from bot.play.students import PublicRow, public_rows, rank_daily
from bot.shards import Owner, every_server
from db import DailyRow, Database, FocusAnswer, Player, ServerSettings
from db.connection import utc
from db.daily import round_key as daily_key
from db.focus import RoundReads
from db.students import StudentSettings

#: The daily challenge's levels when the server's range allows them (one question at each of
#: 2, 3, 4, 5, 6, 7): the engine's default.
DAILY_LEVELS = (2, 7)
#: The stored answers the adaptive level reads.
HISTORY = 100


# --- Levels --------------------------------------------------------------------------------


def level_range(settings: ServerSettings) -> tuple[int, int]:
    """The server's practice levels (no ceiling set: up to the last level). A student's own
    levels are ``bot.play.students.focus_rules``'."""
    rules = students.server_rules(settings)
    return rules.low, rules.high


def clamp(level: int, settings: ServerSettings) -> int:
    low, high = level_range(settings)
    return min(max(level, low), high)


def daily_range(settings: ServerSettings) -> tuple[int, int]:
    """The levels of a server's daily challenge: a pinned level alone; else the default climb
    2 to 7 cut to the server's range; a range outside 2–7 (1 only, 8 only) as it is."""
    if settings.focus_level_pinned is not None:
        level = clamp(settings.focus_level_pinned, settings)
        return level, level
    low, high = level_range(settings)
    a, b = max(low, DAILY_LEVELS[0]), min(high, DAILY_LEVELS[1])
    return (a, b) if a <= b else (low, high)


def daily_round_key(day: date) -> str:
    """The name of a daily attempt among a member's stored answers (see ``db.focus``)."""
    return daily_key(day)


def history(answers: list[FocusAnswer]) -> list[Answer]:
    """Stored answers (latest first) as the engine's, oldest first."""
    return [Answer(question=a.question, topic=a.topic, level=a.level, expected=a.expected,
                   given=a.given, correct=a.correct, seconds=a.time_ms / 1000,
                   skill=a.skill or "", form=a.form or WHOLE)
            for a in reversed(answers)]


def local_day(settings: ServerSettings, now: datetime) -> date:
    """The server's date at ``now`` (its time zone)."""
    return now.astimezone(settings.tz()).date()


async def server_settings(db: Database, guild_id: int) -> ServerSettings:
    return await db.servers.get(guild_id)


async def record_answer(db: Database, answer: FocusAnswer, now: datetime | None = None, *,
                        newcomer: bool = True, known: Mastery | None = None) -> None:
    """Store one answer (a second write of the same question of a round is a no-op).
    ``newcomer=False`` for a round whose start made the member a player: an answer after their
    data was erased stores nothing and is refused (``focus.erased``, ``db.focus.record``).
    ``known``: the member's mastery as the round read it (``PracticeStart.model``), moved by the
    answer too, which makes the write one statement (``db.focus.record``)."""
    await db.focus.record(answer, now=now, newcomer=newcomer, known=known)


# --- Practice --------------------------------------------------------------------------------


def practice_year(server: ServerSettings, student: StudentSettings | None) -> str | None:
    """The school year a member's Focus draws from: the student's own, else the server's
    (``bot.play.students.school_year_of``); None without one (or with one no longer known): the
    eight levels' questions, as before school years."""
    year = students.school_year_of(server, student)
    return year if year in YEARS else None


def practice_questions(year: str | None, level: int, rng: random.Random,
                       count: int = ROUND_SIZE, skills: Sequence[str] | None = None
                       ) -> list[Question]:
    """``count`` questions at Focus ``level``: drawn from ``year``'s skills (only ``skills``
    of them when given), borrowing from the neighbouring levels of the year when the level's
    share is too small (``bot.focus.school.draw_round``); the level's own when ``year`` is
    None, or all the levels of ``skills`` when some are asked for without a year."""
    if year is None and not skills:
        return generate_questions(level, count, rng)
    return draw_round(year, level, count, rng, skills)


def class_questions(year: str | None, level: int | None, rng: random.Random, count: int,
                    skills: Sequence[str] | None, levels: tuple[int, int]) -> list[Question]:
    """What a teacher's live round or assignment asks (``practice_questions``): at ``level``;
    or, with ``skills`` and no level, climbing through the server's ``levels`` (lowest,
    highest) as the daily challenge does, easiest first, so that the skills are asked at all
    their levels the server allows."""
    if level is None and skills:
        return year_for_levels(year, daily_levels(*levels, size=count), rng, skills)
    return practice_questions(year, level if level is not None else levels[0], rng, count,
                              skills)


@dataclass(frozen=True)
class PracticeStart:
    questions: list[Question]
    level: int  # the level played
    own: int  # the member's level (adaptive or pinned), which only a round at it moves
    #: The student's extra time (``StudentSettings.time_factor``): the round's idle window.
    time_factor: float | None = 1.0
    #: The member's mastery as the round was chosen from it: given back to ``record_answer``
    #: with each answer (which moves it), so that no answer reads it again.
    model: Mastery | None = None


async def start_practice(db: Database, guild_id: int, user_id: int, level: int | None,
                         seed: int, now: datetime | None = None) -> PracticeStart:
    """A practice round at the member's level, or at ``level`` when their levels allow it (the
    student's own pin or range, else the server's: ``bot.play.students.focus_rules``), chosen
    from their mastery (``bot.focus.review.choose_round``: the facts due for review, one
    question of the next level their levels allow, the rest at the level; at a pinned level,
    only that level)."""
    moment = utc(now)
    # What the round needs, in one hop to the database (the server's settings from memory when
    # kept); a newcomer's rows made now, not at their first answer: that answer, stored with
    # the mastery it moves, then takes no more statements than another's.
    read = await db.focus.for_round(guild_id, user_id, moment, make_player=True)
    rules = _rules(read)
    levels = rules.focus
    player = read.player
    own = levels.level_of(player)
    if level is not None and level != own:
        if levels.pinned is not None:
            code = "focus.level_pinned_for_you" if levels.own else "focus.level_pinned"
            raise DomainError(code, "the teacher pinned the level", level=own)
        if not levels.low <= level <= levels.high:
            code = "focus.level_out_of_your_range" if levels.own else "focus.level_out_of_range"
            raise DomainError(code, "level outside the member's range",
                              level=level, min=levels.low, max=levels.high)
    chosen = own if level is None else level
    model = read.mastery
    # A level the teacher pinned is a lesson on one kind of question: nothing from above, and
    # only that level's facts to review.
    pinned = levels.pinned is not None
    above = chosen + 1 if chosen < levels.high and not pinned else None

    def generate(level: int, count: int, rng: random.Random) -> list[Question]:
        # The school year's share of skills at that level, or the level's own questions.
        return practice_questions(practice_year(rules.server, rules.settings), level, rng,
                                  count)

    questions = choose_round(model, chosen, random.Random(seed), moment, next_level=above,
                             size=ROUND_SIZE, only_level=pinned, generate=generate)
    return PracticeStart(questions, chosen, own, rules.time_factor, model)


async def finish_practice(db: Database, guild_id: int, user_id: int, level: int, own: int,
                          recent: list[FocusAnswer] | None = None) -> Advice | None:
    """After a round: at the member's own level, the next level (stored) and why, decided by
    their mastery (``bot.focus.adaptive.model_level``) within their levels (the student's own,
    else the server's; a teacher's pin wins); at a level they chose, nothing moves (None).
    ``recent``: their latest ``HISTORY`` answers, when the caller read them already."""
    if level != own:
        return None
    read = await db.focus.for_round(guild_id, user_id, recent=0 if recent else HISTORY)
    return await _move_level(db, read, own, read.recent if recent is None else recent)


def _rules(read: RoundReads) -> students.StudentRules:
    """``bot.play.students.rules_for``'s rules, from what the round read."""
    return students.StudentRules(read.student, students.focus_rules(read.settings, read.student),
                                 read.student.time_factor, read.settings)


async def _move_level(db: Database, read: RoundReads, own: int, recent: list[FocusAnswer]
                      ) -> Advice | None:
    """``finish_practice`` once the round's end is read: the level decided and stored."""
    levels = _rules(read).focus
    past = history([a for a in recent if counts_for_level(a.round_key, a.topic)])
    advice = model_level(read.mastery, past, current=own, pin=levels.pinned,
                         min_level=levels.low, max_level=levels.high)
    player = read.player
    if player is None:
        return None  # erased as the round ended: nothing of them is stored again
    if player.focus_level != advice.level:
        await db.players.set_focus_level(player.guild_id, player.user_id, advice.level)
    return advice


@dataclass(frozen=True)
class PracticeEnd:
    advice: Advice | None
    #: The round as stored (its score is the stored answers' right ones): what to show.
    round: FocusRound


async def end_practice(db: Database, guild_id: int, user_id: int, level: int, own: int,
                       questions: list[Question], round_key: str) -> PracticeEnd:
    """A practice round is over (each answer was stored as it was given): the level it moves
    (``finish_practice``) and the round as its stored answers say it. At the member's own level
    the latest answers read for the level hold the round's (its answers are the latest), so the
    round is not read again unless some of it is missing there."""
    if level != own:
        return PracticeEnd(None, await round_as_stored(db, guild_id, user_id, questions,
                                                       round_key))
    # The latest answers, the settings, the mastery and the player in one hop (as
    # ``finish_practice`` reads them).
    read = await db.focus.for_round(guild_id, user_id, recent=HISTORY)
    recent = read.recent
    advice = await _move_level(db, read, own, recent)
    mine = sorted((a for a in recent if a.round_key == round_key),
                  key=lambda a: a.question_no if a.question_no is not None else -1)
    if len(mine) < len(questions):
        mine = await db.focus.round_answers(guild_id, user_id, round_key)
    return PracticeEnd(advice, stored_round(questions, mine))


async def round_as_stored(db: Database, guild_id: int, user_id: int, questions: list[Question],
                          round_key: str) -> FocusRound:
    """The member's round ``round_key`` of ``questions`` as its stored answers say it."""
    return stored_round(questions, await db.focus.round_answers(guild_id, user_id, round_key))


# --- The daily challenge -----------------------------------------------------------------------


async def daily_challenge(db: Database, settings: ServerSettings, day: date, now: datetime
                          ) -> list[Question]:
    """The server's questions of ``day``, drawn (and stored) on first use: from the server's
    school year when it has one (the same questions for everyone, whatever a student's own
    year: the challenge is the server's), else from the eight levels."""
    challenge = await db.daily.get(settings.guild_id, day)
    if challenge is None:
        low, high = daily_range(settings)
        questions = daily_questions(settings.guild_id, day, low, high,
                                    year=practice_year(settings, None))
        challenge, _ = await db.daily.create(
            settings.guild_id, day, [q.to_json() for q in questions], now=now)
    return [Question.from_json(q) for q in challenge.questions]


@dataclass(frozen=True)
class DailyStart:
    day: date
    round: FocusRound
    #: The student's extra time: the round's idle window (the questions are everyone's).
    time_factor: float | None = 1.0
    #: The member's mastery, for ``record_answer`` (as ``PracticeStart.model``).
    model: Mastery | None = None


async def start_daily(db: Database, guild_id: int, user_id: int, now: datetime,
                      posted: date | None, day_text: Callable[[date], str],
                      open_round: Callable[[date], FocusRound | None]) -> DailyStart:
    """The member's attempt at today's challenge: new, or resumed (the round still open in this
    process, ``open_round(day)``, else the answers stored). Refused: a post of another day
    (``day_text`` says that day in the member's words), an attempt already finished."""
    settings = await db.servers.get(guild_id)
    day = local_day(settings, now)
    if posted is not None and posted != day:
        raise DomainError("focus.daily_old_post", "that post is another day's challenge",
                          day=day_text(posted))
    questions = await daily_challenge(db, settings, day, now)
    attempt = await db.daily.attempt(guild_id, day, user_id)
    if attempt is not None and attempt.finished_at is not None:
        raise DomainError("focus.daily_already_played", "already played today",
                          day=day.isoformat())
    factor = (await db.students.get(guild_id, user_id)).time_factor
    # Read once for the attempt: each answer then moves it in one statement.
    model = await db.mastery.load(guild_id, user_id, now)
    if attempt is None:
        await db.daily.start_attempt(guild_id, day, user_id, now=now)
        return DailyStart(day, FocusRound(questions), factor, model)
    return DailyStart(day, open_round(day) or await resumed(db, guild_id, user_id, questions, day),
                      factor, model)


def stored_round(questions: list[Question], stored: list[FocusAnswer]) -> FocusRound:
    """The round of ``questions`` as its stored answers (in question order) say it: the
    answers that follow the questions in order, then the rest to answer."""
    done: list[Answer] = []
    for answer in history(stored[::-1]):
        if len(done) < len(questions) and answer.question == questions[len(done)].text:
            # A teacher's accepted answers are the question's, not a stored answer's.
            done.append(replace(answer, written=questions[len(done)].written))
    return FocusRound(questions, done)


async def resumed(db: Database, guild_id: int, user_id: int, questions: list[Question],
                  day: date) -> FocusRound:
    """An attempt begun earlier (its window closed, or the bot restarted): the answers
    already stored, in order, then the rest."""
    return await round_as_stored(db, guild_id, user_id, questions, daily_round_key(day))


@dataclass(frozen=True)
class DailyResult:
    player: Player
    mine: DailyRow | None  # the member's row of the day's ranking
    total: int  # how many played
    #: The attempt as stored (its score is the stored answers' right ones): what to show, even
    #: if another window of the attempt stored some of them first.
    round: FocusRound


async def finish_daily(db: Database, guild_id: int, user_id: int, day: date,
                       questions: list[Question], answers: list[FocusAnswer], now: datetime
                       ) -> DailyResult:
    """Every answer, then the score and time counted from the answers stored, in one
    transaction (the last answer is stored only here, the others were already: each is keyed
    by its question, a second write is a no-op); the streak, the rank (extra time counted
    fairly: ``bot.play.students.rank_daily``) and the attempt as stored."""
    try:
        player = await db.daily.finish_attempt(guild_id, day, user_id, answers=answers, now=now)
    except DomainError as refusal:
        if refusal.code == "daily.not_started":  # it was, as its window opened: erased since
            raise DomainError("focus.erased", "the member's data was erased") from None
        raise
    board = rank_daily(await db.daily.leaderboard(guild_id, day, limit=100_000),
                       await students.ranked_students(db, guild_id))
    mine = next((row for row in board if row.user_id == user_id), None)
    return DailyResult(player, mine, len(board),
                       await resumed(db, guild_id, user_id, questions, day))


async def due_daily(db: Database, settings: ServerSettings, now: datetime) -> date | None:
    """The day whose challenge the server should post now, if its hour has come and it is not
    posted yet (the database remembers the post)."""
    local = now.astimezone(settings.tz())
    if local.hour < settings.daily_hour:
        return None
    challenge = await db.daily.get(settings.guild_id, local.date())
    if challenge is not None and challenge.message_id is not None:
        return None
    return local.date()


async def servers_with_daily(db: Database, owns: Owner = every_server) -> list[ServerSettings]:
    """The servers with a daily challenge channel that this process ``owns`` (its shards')."""
    return [s for s in await db.servers.all_with_daily() if owns(s.guild_id)]


#: How long a claim of a daily post holds: the claimer posts within seconds; a process that died
#: before posting leaves the post to another (or to itself, restarted) after this.
DAILY_CLAIM = timedelta(minutes=10)


async def claim_daily_post(db: Database, settings: ServerSettings, day: date, owner: str,
                           now: datetime) -> bool:
    """Whether ``owner`` (this process) is the one to post ``day``'s challenge: the challenge is
    drawn if need be, then claimed in one statement (``db.daily.claim_post``), so that two
    processes never both post it."""
    await daily_challenge(db, settings, day, now)
    return await db.daily.claim_post(settings.guild_id, day, owner, now + DAILY_CLAIM, now)


async def daily_posted(db: Database, guild_id: int, day: date, channel_id: int,
                       message_id: int) -> None:
    """Remember the post of ``day``'s challenge (bookkeeping: no version bump)."""
    await db.daily.set_message(guild_id, day, channel_id, message_id)


@dataclass(frozen=True)
class DailyBoard:
    day: date
    rows: list[DailyRow]  # best first (extra time counted fairly)
    player: Player | None
    #: The students with settings of their own (how public rankings show them).
    students: dict[int, StudentSettings]

    @property
    def public(self) -> list[PublicRow]:
        """The rows a ranking shown to others may show (``bot.play.students.public_rows``)."""
        return public_rows(self.rows, self.students)

    def private_rank(self, user_id: int) -> int | None:
        """The member's own place, when public rankings hide it (anonymous or hidden)."""
        mine = self.row_of(user_id)
        student = self.students.get(user_id)
        return mine.rank if mine is not None and student and student.rankings else None

    def row_of(self, user_id: int) -> DailyRow | None:
        return next((row for row in self.rows if row.user_id == user_id), None)


async def daily_board(db: Database, guild_id: int, user_id: int, now: datetime) -> DailyBoard:
    """Today's ranking of the server's daily challenge, and the member (their streaks)."""
    settings = await db.servers.get(guild_id)
    day = local_day(settings, now)
    own = await students.ranked_students(db, guild_id)
    rows = rank_daily(await db.daily.leaderboard(guild_id, day, limit=100_000), own)
    return DailyBoard(day, rows, await db.players.get(guild_id, user_id), own)
