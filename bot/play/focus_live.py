"""Live class rounds without Discord: the state kept between clicks (``LiveState``, saved in
``db.focus_live`` after every change, so the public buttons work after a restart), its cache in
memory and the lock of each round (``LiveRounds``), and the teacher's start.

A round runs itself (``auto``, the default): every moment is in the state (when the question
showed, when it was paused, when the next one comes), so ``due_at`` says when the round's next
step is due and ``step`` takes it (close the question; show the next one ``NEXT_DELAY`` seconds
later); the cog's timers call it, and re-arm from ``active_timers`` after a restart. A question
closes when the own window of every student of the server with extra time is over (the limit ×
their factor; without a timer, as at ×2), whether they took part yet or not: at the first
question nobody is known to take part, and a student's first click on "Answer" may come late in
their own window. It closes sooner, as soon as everyone taking part has answered, from the second
question on (``opened_with``). The others are refused as late after the usual window. A
manual round (``auto`` False, and every round saved before format 2) waits for the teacher's
"Next" as before.

The cache is safe without reasoning about awaits: every change runs under the round's lock
(``LiveRounds.lock``), and a save that fails drops the cached state, so the next use reads the
database again rather than a memory gone ahead of it.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from bot.domain import DomainError
from bot.focus import ROUND_SIZE, LiveRound, LiveStanding, Question
from bot.focus.daily import competition_ranks
from bot.formats import FORMAT_KEY, upgrade
from bot.play.focus import class_questions, level_range
from bot.play.question_sets import questions_of
from bot.play.year_skills import read_skills, server_year
from bot.shards import Owner, every_server
from db import Database, FocusAnswer, ServerSettings, StaleVersion

log = logging.getLogger(__name__)

#: Seconds between a question's close (its answer and the ranking shown) and the next question.
NEXT_DELAY = 5.0

#: Answer-reading refusals: the member may type again.
FORMAT_CODES = frozenset({"focus.empty", "focus.not_a_number", "focus.not_whole",
                          "focus.bad_grouping", "focus.too_long",
                          # a decimal or a fraction (``bot.focus.read_exact``): a set's question
                          "focus.empty_decimal", "focus.empty_fraction", "focus.not_a_decimal",
                          "focus.not_a_fraction", "focus.zero_denominator", "focus.empty_lowest",
                          "focus.lowest_expected", "focus.not_lowest"})


#: The version of the live state's layout (``LiveState.to_json``; ``bot.formats``): a state
#: without one (saved before versions) is upgraded when read, a newer one refused. 1: the layout
#: of 2026-12 with the field; 2: the self-running round's moments (``auto``, ``message_id``,
#: ``paused_at``, ``next_at``), the students' extra time and ranking choices read for the
#: round (``factors``, ``shown``), its question set and size; a state of format 1 is a manual
#: round. 3: the server's school year the questions were drawn from and the skills the teacher
#: chose (``year``, ``skills``, issue 26; a state of format 2 has neither).
#: The live round inside carries its own version (``LIVE_FORMAT``).
LIVE_STATE_FORMAT = 3


def _from_1(state: dict[str, Any]) -> dict[str, Any]:
    game = state.get("round")
    return {**state, "auto": False, "message_id": None, "paused_at": None, "next_at": None,
            "factors": {}, "shown": {}, "set": None, "opened_with": 0,
            "size": 0 if game is None else len(game["questions"])}


def _from_2(state: dict[str, Any]) -> dict[str, Any]:
    return {**state, "year": None, "skills": []}


_STEPS = {1: _from_1, 2: _from_2}


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
    shown_at: float | None  # wall() when the current question was posted (moved by a pause)
    names: dict[int, str] = field(default_factory=dict)
    #: Whether the round runs itself (False: the teacher's "Next" moves it on).
    auto: bool = False
    #: The message showing the current question (edited when it closes), once posted.
    message_id: int | None = None
    #: wall() when the teacher paused the open question (None: running).
    paused_at: float | None = None
    #: wall() when the next question shows (between two questions).
    next_at: float | None = None
    #: The students whose time is not the usual: their factor (None: no timer).
    factors: dict[int, float | None] = field(default_factory=dict)
    #: The students who are not shown by name in public rankings: "anonymous" or "hidden".
    shown: dict[int, str] = field(default_factory=dict)
    set_name: str | None = None
    size: int = 0  # the number of questions (kept once finished, for the report)
    #: How many students had joined when the question showed: a question closes early, when
    #: everyone answered, only if someone was there to wait for (not the first one's fastest).
    opened_with: int = 0
    #: The server's school year the questions were drawn from (None: the eight levels' or a
    #: set's) and the skills the teacher chose (``skill:``), in their order. The questions
    #: drawn are in the round already: these say what it asks, after a restart too.
    year: str | None = None
    skills: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {FORMAT_KEY: LIVE_STATE_FORMAT,
                "round": None if self.game is None else self.game.to_json(),
                "level": self.level, "lang": self.lang, "shown_at": self.shown_at,
                "names": {str(k): v for k, v in self.names.items()},
                "auto": self.auto, "message_id": self.message_id, "paused_at": self.paused_at,
                "next_at": self.next_at,
                "factors": {str(k): v for k, v in self.factors.items()},
                "shown": {str(k): v for k, v in self.shown.items()},
                "set": self.set_name, "size": self.size, "opened_with": self.opened_with,
                "year": self.year, "skills": list(self.skills)}

    @classmethod
    def from_row(cls, row: Any) -> LiveState:
        state = upgrade(row.state, "live state", LIVE_STATE_FORMAT, _STEPS)
        return cls(live_id=row.live_id, guild_id=row.guild_id, channel_id=row.channel_id,
                   teacher_id=row.teacher_id, version=row.version, status=row.status,
                   game=None if state.get("round") is None
                   else LiveRound.from_json(state["round"]),
                   level=int(state.get("level", 1)), lang=str(state.get("lang", "en")),
                   shown_at=state.get("shown_at"),
                   names={int(k): str(v) for k, v in state.get("names", {}).items()},
                   auto=bool(state["auto"]), message_id=state["message_id"],
                   paused_at=state["paused_at"], next_at=state["next_at"],
                   factors={int(k): None if v is None else float(v)
                            for k, v in state["factors"].items()},
                   shown={int(k): str(v) for k, v in state["shown"].items()},
                   set_name=state["set"], size=int(state["size"]),
                   opened_with=int(state["opened_with"]),
                   year=state["year"], skills=tuple(str(s) for s in state["skills"]))

    def factor(self, user_id: int) -> float | None:
        """The student's extra time for this round: 1.0, 1.5, 2.0, or None (no timer)."""
        return self.factors.get(user_id, 1.0)

    def close_at(self) -> float | None:
        """When the open question closes by itself: when the longest window of the server's
        students with extra time is over (``factors``, read as it showed), those who have not
        clicked "Answer" yet included; the usual window when none has extra time."""
        game = self.game
        if game is None or not game.open or self.shown_at is None:
            return None
        # The teacher may have a student's setting too, but never answers their own round.
        holds = [game.hold(f) for uid, f in self.factors.items() if uid != self.teacher_id]
        return self.shown_at + max([game.time_limit, *holds])

    def due_at(self) -> float | None:
        """When the self-running round's next step is due (wall() seconds), None if nothing
        is to come by itself (a manual round, paused, over)."""
        game = self.game
        if not self.auto or self.status != "active" or game is None or self.paused_at is not None:
            return None
        if game.open:
            if self.opened_with and game.everyone_answered():
                return self.shown_at
            return self.close_at()
        return None if game.finished else self.next_at


def live_or_over(live: LiveState) -> LiveRound:
    if live.status != "active" or live.game is None or live.game.finished:
        raise DomainError("focus.live_finished", "this live round is over")
    return live.game


@dataclass(frozen=True)
class Standing:
    """A line of a public ranking: ``anonymous`` students show as "a student"."""

    rank: int
    standing: LiveStanding
    anonymous: bool


def public_ranking(live: LiveState, game: LiveRound) -> list[Standing]:
    """The ranking as the class sees it: hidden students left out (the others ranked among
    themselves), anonymous ones flagged."""
    kept = [s for s in game.ranking() if live.shown.get(s.player) != "hidden"]
    ranks = competition_ranks([(s.points, s.correct) for s in kept])
    return [Standing(rank, s, live.shown.get(s.player) == "anonymous")
            for rank, s in zip(ranks, kept, strict=True)]


@dataclass(frozen=True)
class LiveAnswered:
    """A live answer taken (``unreadable`` None: marked and saved), or refused for its format
    (the member may type again; nothing changed)."""

    correct: bool = False
    points: int = 0
    unreadable: DomainError | None = None


@dataclass(frozen=True)
class Closed:
    """A live question as it closed: its answer, how many found it, and who."""

    number: int
    size: int
    question: Question
    right: int
    answered: int
    found_by: tuple[int, ...] = ()


@dataclass(frozen=True)
class LiveStep:
    """The round moved on. ``closed``: the question that closed (its message is
    ``message_id``), then the round waits for its next question (``live``) or is over
    (``final``: the last state, its names kept for the final ranking). ``opened``: the next
    question was shown (``live``), to be posted."""

    closed: Closed | None
    live: LiveState
    game: LiveRound
    final: LiveState | None
    message_id: int | None = None
    opened: bool = False


@dataclass
class _Waiting:
    """An answer waiting for its round's lock (``LiveRounds.answer``'s group commit)."""

    number: int
    user_id: int
    name: str
    typed: str
    submitted: float
    done: asyncio.Future[LiveAnswered]

    def fail(self, error: BaseException) -> None:
        if not self.done.done():
            self.done.set_exception(error)


class LiveRounds:
    """The live rounds of one bot: read once from the database, then kept; saved after every
    change. ``now`` stamps the rows, ``wall`` (seconds) times the questions; both are read at
    each call, so a test may replace what they call."""

    def __init__(self, db: Database, now: Callable[[], datetime],
                 wall: Callable[[], float], *, shared: bool = False) -> None:
        self.db = db
        self.now = now
        self.wall = wall
        #: Whether other bot processes share the database (``ARDOISE_SHARDS``): then any of
        #: them may change a round (a class room's answer is taken by whichever process serves
        #: the page), and ``load`` reads the stored version before using the copy kept here.
        self.shared = shared
        self._live: dict[int, LiveState] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        #: Told of every state saved by this process (``watch``): the class rooms' pages wake
        #: at once rather than at their next look at the database.
        self._listeners: list[Callable[[LiveState], None]] = []
        #: The members an erasure took out of each round while this copy knew them (``load``).
        self._erased: dict[int, set[int]] = {}
        #: The answers waiting for each round's lock, taken together (``answer``).
        self._waiting: dict[int, list[_Waiting]] = {}

    def watch(self, listener: Callable[[LiveState], None]) -> Callable[[], None]:
        """Call ``listener`` with every state this process saves (a round started, an answer, a
        step, a finish); the function that stops it."""
        self._listeners.append(listener)

        def stop() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return stop

    def _saved(self, live: LiveState) -> None:
        for listener in list(self._listeners):
            try:
                listener(live)
            except Exception:  # a page's trouble never stops a round
                log.exception("a live round's listener failed")

    def lock(self, live_id: int) -> asyncio.Lock:
        return self._locks.setdefault(live_id, asyncio.Lock())

    async def _read_students(self, live: LiveState) -> None:
        # Once per question: a change the teacher makes counts from the next question.
        students = await self.db.students.of_server(live.guild_id)
        live.factors = {uid: s.time_factor for uid, s in students.items()
                        if s.time_factor != 1.0}
        live.shown = {uid: s.rankings for uid, s in students.items() if s.rankings is not None}

    async def start(self, settings: ServerSettings, channel_id: int | None, teacher_id: int,
                    teacher_name: str, lang: str, *, teaches: bool, count: int | None,
                    level: int | None, seconds: float, seed: int, auto: bool = True,
                    set_name: str | None = None, skills: str | None = None) -> LiveState:
        """A new live round, its first question shown; for teachers only (``teaches``: the
        caller knows the member's permissions, given ``settings``). With ``set_name``, the
        questions are the teacher's set's (all in order, or ``count`` drawn). On a server with
        a school year, the year's questions at ``level``; ``skills`` (the ``skill:`` option,
        ``bot.play.year_skills.read_skills``) keeps only those skills, at ``level`` or, without
        one, climbing through the server's levels."""
        guild_id = settings.guild_id
        if not teaches:
            raise DomainError("focus.live_teachers_only", "teachers only")
        chosen = read_skills(skills)
        if chosen and set_name is not None:
            raise DomainError("focus_year.skill_and_set", "a set's questions have no skills")
        asked = level
        if level is None:
            level = settings.focus_level_pinned or level_range(settings)[0]
        rng = random.Random(seed)
        year = server_year(settings)
        if set_name is not None:
            questions = await questions_of(self.db, guild_id, set_name, count, rng)
            if not questions:
                raise DomainError("live.empty_set", "that set has no questions", name=set_name)
            game = LiveRound(questions, float(seconds))
            set_name = set_name.strip()
        elif year is None and not chosen:
            game = LiveRound.new(level, rng, count or ROUND_SIZE, float(seconds))
        else:
            climb = asked is None and bool(chosen)
            game = LiveRound(class_questions(year, None if climb else level, rng,
                                             count or ROUND_SIZE, chosen,
                                             level_range(settings)), float(seconds))
        game.next_question()
        live = LiveState(live_id=0, guild_id=guild_id, channel_id=channel_id,
                         teacher_id=teacher_id, version=1, status="active", game=game,
                         level=level, lang=lang, shown_at=self.wall(), auto=auto,
                         set_name=set_name, size=len(game.questions),
                         year=None if set_name is not None else year, skills=chosen)
        live.names[teacher_id] = teacher_name
        await self._read_students(live)
        row = await self.db.focus_live.create(guild_id, channel_id, teacher_id, live.to_json(),
                                              now=self.now())
        live.live_id, live.version = row.live_id, row.version
        self._live[live.live_id] = live
        self._saved(live)
        return live

    async def load(self, live_id: int) -> LiveState:
        """The round's state: the copy kept here. When several processes share the database
        (``shared``: a class room's answer may be taken by any of them), only while it is the
        stored one: the stored version is read first (one small query), and a copy another
        process has gone past is read again rather than saved over. Alone, the copy is the
        round (a ``delete-player`` run meanwhile makes its next save ``StaleVersion``, and the
        copy is read again then)."""
        cached = self._live.get(live_id)
        if cached is not None and (
                not self.shared
                or await self.db.focus_live.version_of(live_id) == cached.version):
            return cached
        live = LiveState.from_row(await self.db.focus_live.require(live_id))
        if cached is not None and cached.game is not None and live.game is not None:
            # Only an erasure (``delete-player``) takes a member out of a round: an answer from
            # the window they opened before it is refused (``focus.erased``), never a new join.
            gone = set(cached.game.players) - set(live.game.players)
            if gone:
                self._erased.setdefault(live_id, set()).update(gone)
        self._live[live_id] = live
        return live

    async def active_timers(self, owns: Owner = every_server) -> dict[int, float]:
        """The running self-running rounds of the servers this process ``owns`` (its shards'),
        each with when its next step is due (read from the database: after a restart, the
        timers are armed again from it)."""
        due: dict[int, float] = {}
        for row in await self.db.focus_live.active():
            if not owns(row.guild_id):
                continue  # another process's server: its own timers move it on
            live = self._live.get(row.live_id) or LiveState.from_row(row)
            self._live.setdefault(row.live_id, live)
            at = live.due_at()
            if at is not None:
                due[row.live_id] = at
        return due

    async def due(self, live_id: int) -> float | None:
        """When the round's next step is due, from the copy kept here when there is one (no
        look at the stored version: a timer armed from a copy another process went past only
        wakes ``step``, which reads the stored round and takes a step only if it is due)."""
        cached = self._live.get(live_id)
        return (cached or await self.load(live_id)).due_at()

    async def save(self, live: LiveState, answer: FocusAnswer | None = None, *,
                   answers: Sequence[FocusAnswer] = ()) -> None:
        """Save the state (and the answer just given, or the ``answers`` of a group commit, in
        the same transaction); a finished round is then forgotten here (later clicks read
        "finished" from the database)."""
        status = "finished" if live.game is None else None
        try:
            async with self.db.transaction():
                live.version = await self.db.focus_live.save(
                    live.live_id, live.to_json(), live.version, status=status, now=self.now())
                if answer is not None and not await self.db.focus.record(answer, now=self.now()):
                    # That question was answered already in a state this one has not seen
                    # (another copy of the round, in another process): the stored answer
                    # stands, and this copy is read again, so that the ranking counts what
                    # is stored.
                    raise DomainError("focus.live_already_answered", "already answered")
                if answers and not all(await self.db.focus.record_new(answers, now=self.now())):
                    raise DomainError("focus.live_already_answered", "already answered")
        except BaseException:
            # The memory went ahead of the database: read it again next time.
            self._live.pop(live.live_id, None)
            raise
        if status is not None:
            live.status = status
            self._live.pop(live.live_id, None)
        self._saved(live)

    def _since_shown(self, live: LiveState, at: float) -> float:
        shown = live.shown_at if live.shown_at is not None else at
        return max(0.0, at - shown)

    def _check_in_time(self, live: LiveState, game: LiveRound, user_id: int, at: float) -> None:
        """Refuse ``user_id`` at ``wall()`` time ``at`` past their own window; and anyone once a
        self-running question's time to close went by (its timer may come a moment later, or
        after a restart), a student without a timer too."""
        game.check_in_time(user_id, self._since_shown(live, at), live.factor(user_id))
        close = live.close_at() if live.auto else None
        if close is not None and at > close:
            raise DomainError("focus.live_no_question", "that question is closed")

    async def answerable(self, live_id: int, number: int, user_id: int,
                         name: str | None = None) -> Question:
        """The question ``number`` (from 1) that ``user_id`` may answer now, the member joined
        to the round (so that the question, closing once everyone taking part has answered,
        waits for their answer); refused: closed, paused, the teacher, already answered, their
        own window over."""
        async with self.lock(live_id):
            live = await self.load(live_id)
            game = live_or_over(live)
            if number != game.index + 1 or not game.open:
                raise DomainError("focus.live_no_question", "that question is closed")
            if user_id == live.teacher_id:
                raise DomainError("focus.live_teacher_answers", "the teacher runs the game")
            if any(a.player == user_id and a.index == game.index for a in game.answers):
                raise DomainError("focus.live_already_answered", "already answered")
            if live.paused_at is not None:
                raise DomainError("live.paused", "the teacher paused the question")
            self._check_in_time(live, game, user_id, self.wall())
            if game.join(user_id):
                if name is not None:  # the rankings name them before their first answer
                    live.names[user_id] = name
                await self.save(live)
                self._erased.get(live_id, set()).discard(user_id)  # a new window of theirs
            assert game.current is not None
            return game.current

    async def answer(self, live_id: int, number: int, user_id: int, name: str, typed: str,
                     submitted: float) -> LiveAnswered:
        """Mark ``typed`` (submitted at ``wall()`` time ``submitted``) and save it with the state,
        in one transaction. The student's own window is the limit × their extra time, and
        their time counts divided by it (``bot.focus.live_points``).

        A group commit: the answers that come while another is being saved wait for the
        round's lock together, then are marked one after the other in the order they came and
        saved together (the state written once, the answers in one transaction), each told its
        own result. A class of 200 answering at the same moment costs a few saves, not 200 (the
        state, which holds every answer, is not written 200 times either). Should that save
        fail (another process changed the round meanwhile), each answer is taken again on its
        own, on the stored round, as if it had come alone."""
        waiting = _Waiting(number, user_id, name, typed, submitted,
                           asyncio.get_running_loop().create_future())
        self._waiting.setdefault(live_id, []).append(waiting)
        async with self.lock(live_id):
            batch = self._waiting.pop(live_id, [])
            try:
                if batch:  # else an earlier holder of the lock took this answer with its own
                    await self._answer_batch(live_id, batch)
            finally:
                for other in batch:  # interrupted (cancelled): no answer waits for ever
                    other.fail(RuntimeError("the answer's save was interrupted"))
        return await waiting.done

    async def _answer_batch(self, live_id: int, batch: list[_Waiting]) -> None:
        """Take ``batch`` (under the round's lock): each ``done`` gets its result or refusal."""
        if len(batch) == 1:
            await self._settle(batch[0], self._answer_one(live_id, batch[0]))
            return
        try:
            live = await self.load(live_id)
        except Exception as error:
            for waiting in batch:
                waiting.fail(error)
            return
        marked: list[tuple[_Waiting, LiveAnswered, FocusAnswer]] = []
        for waiting in batch:
            try:
                answered, stored = self._mark(live, waiting)
            except DomainError as refusal:
                waiting.fail(refusal)
                continue
            if stored is None:
                waiting.done.set_result(answered)
            else:
                marked.append((waiting, answered, stored))
        if not marked:
            return
        try:
            await self.save(live, answers=[stored for _, _, stored in marked])
        except Exception:
            # The copy was dropped (``save``): each one alone, on the stored round.
            for waiting, _, _ in marked:
                await self._settle(waiting, self._answer_one(live_id, waiting))
            return
        for waiting, answered, _ in marked:
            waiting.done.set_result(answered)

    @staticmethod
    async def _settle(waiting: _Waiting, taking: Awaitable[LiveAnswered]) -> None:
        try:
            waiting.done.set_result(await taking)
        except Exception as error:
            waiting.fail(error)

    def _mark(self, live: LiveState, waiting: _Waiting
              ) -> tuple[LiveAnswered, FocusAnswer | None]:
        """Mark one answer on ``live`` (in memory): its result and the answer to store (None:
        unreadable, nothing changed); refused by a ``DomainError``."""
        game = live_or_over(live)
        number, user_id, submitted = waiting.number, waiting.user_id, waiting.submitted
        if user_id in self._erased.get(live.live_id, ()):
            raise DomainError("focus.erased", "the member's data was erased")
        if number != game.index + 1:
            raise DomainError("focus.live_no_question", "that question is closed")
        if live.paused_at is not None:
            raise DomainError("live.paused", "the teacher paused the question")
        if game.open:
            self._check_in_time(live, game, user_id, submitted)
        try:
            scored = game.answer(user_id, waiting.typed, self._since_shown(live, submitted),
                                 live.factor(user_id))
        except DomainError as refusal:
            if refusal.code not in FORMAT_CODES:
                raise
            return LiveAnswered(unreadable=refusal), None
        live.names[user_id] = waiting.name
        a = scored.answer
        return LiveAnswered(correct=a.correct, points=scored.points), FocusAnswer(
            guild_id=live.guild_id, user_id=user_id, topic=a.topic, level=a.level,
            question=a.question, expected=a.expected, given=a.given,
            time_ms=round(a.seconds * 1000), source="live",
            round_key=round_key(live.live_id), question_no=number - 1,
            skill=a.skill, form=a.form)

    async def _answer_one(self, live_id: int, waiting: _Waiting) -> LiveAnswered:
        """One answer alone (the caller holds the round's lock), saved with the state."""
        live = await self.load(live_id)
        game = live_or_over(live)
        joined = waiting.user_id in game.players
        answered, stored = self._mark(live, waiting)
        if stored is None:
            return answered
        try:
            await self.save(live, stored)
        except StaleVersion:
            # Only an erasure (``delete-player``) takes a member out of a round: then their
            # answer is said refused as theirs is, not as a click someone beat.
            fresh = LiveState.from_row(await self.db.focus_live.require(live_id))
            if joined and fresh.game is not None and waiting.user_id not in fresh.game.players:
                raise DomainError("focus.erased", "the member's data was erased") from None
            raise
        return answered

    def _teacher(self, live: LiveState, user_id: int, code: str = "live.teacher_only") -> None:
        if user_id != live.teacher_id:
            raise DomainError(code, "only the round's teacher runs it")

    def _current(self, live: LiveState, number: int) -> LiveRound:
        game = live_or_over(live)
        if number != game.index + 1:
            raise DomainError("game.stale", "an older question's button",
                              clicked=number, current=game.index + 1)
        return game

    def _close(self, live: LiveState, game: LiveRound, *, end: bool = False) -> LiveStep:
        """Close the question on show (if open); then the round is over (the last question,
        or ``end``) or waits ``NEXT_DELAY`` seconds for the next one (a self-running round)."""
        if game.open:
            game.close_question()
        question = game.current
        assert question is not None
        answers = game.answers_to(game.index)
        closed = Closed(number=game.index + 1, size=len(game.questions), question=question,
                        right=sum(a.answer.correct for a in answers), answered=len(answers),
                        found_by=tuple(a.player for a in answers if a.answer.correct))
        message_id, final = live.message_id, None
        live.paused_at = None
        if game.finished or end:
            final = replace(live)  # keeps the names and choices for the final ranking
            live.game = None
            live.names, live.factors, live.shown = {}, {}, {}
            live.next_at = None
        elif live.auto:
            live.next_at = self.wall() + NEXT_DELAY
        return LiveStep(closed=closed, live=live, game=game, final=final, message_id=message_id)

    async def next(self, live_id: int, number: int, user_id: int) -> LiveStep:
        """The teacher closes question ``number`` and opens the next one, or ends the round
        (a manual round's "Next")."""
        async with self.lock(live_id):
            live = await self.load(live_id)
            game = self._current(live, number)
            self._teacher(live, user_id, "focus.live_next_teacher_only")
            step = self._close(live, game)
            if step.final is None:
                await self._open_next(live, game)
            await self.save(live)
        return step

    async def _open_next(self, live: LiveState, game: LiveRound) -> None:
        """Show the next question: its students' settings read again (a teacher's change counts
        from it), its moments started, its message not known yet."""
        await self._read_students(live)
        game.next_question()
        live.shown_at, live.next_at, live.message_id = self.wall(), None, None
        live.opened_with = len(game.players)

    async def skip(self, live_id: int, number: int, user_id: int) -> LiveStep:
        """The teacher closes question ``number`` now (the next one comes as after the time)."""
        async with self.lock(live_id):
            live = await self.load(live_id)
            game = self._current(live, number)
            self._teacher(live, user_id)
            if not game.open:
                raise DomainError("focus.live_no_question", "that question is closed")
            step = self._close(live, game)
            await self.save(live)
        return step

    async def end(self, live_id: int, number: int, user_id: int) -> LiveStep:
        """The teacher ends the round now, at question ``number``: the final ranking."""
        async with self.lock(live_id):
            live = await self.load(live_id)
            game = self._current(live, number)
            self._teacher(live, user_id)
            step = self._close(live, game, end=True)
            await self.save(live)
        return step

    async def pause(self, live_id: int, number: int, user_id: int) -> LiveState:
        """The teacher pauses the open question ``number``, or resumes it: its windows go on
        from where they stopped (the time paused counts for nobody)."""
        async with self.lock(live_id):
            live = await self.load(live_id)
            game = self._current(live, number)
            self._teacher(live, user_id)
            if not game.open:
                raise DomainError("focus.live_no_question", "that question is closed")
            now = self.wall()
            if live.paused_at is None:
                live.paused_at = now
            else:
                if live.shown_at is not None:
                    live.shown_at += max(0.0, now - live.paused_at)
                live.paused_at = None
            await self.save(live)
        return live

    async def step(self, live_id: int) -> LiveStep | None:
        """The self-running round's step, if it is due now: close the open question, or show
        the next one. None when nothing is due (another step, a pause or a join came first):
        a timer and a teacher's click never close one question twice."""
        async with self.lock(live_id):
            live = await self.load(live_id)
            at = live.due_at()
            if at is None or at > self.wall():
                return None
            game = live.game
            assert game is not None
            if game.open:
                step = self._close(live, game)
            else:
                await self._open_next(live, game)
                step = LiveStep(closed=None, live=live, game=game, final=None, opened=True)
            await self.save(live)
        return step

    async def posted(self, live_id: int, number: int, message_id: int, *,
                     locked: bool = False) -> None:
        """Remember the message showing question ``number`` (the timer edits it as it closes).
        ``locked``: the caller holds the round's ``lock`` already (it posted under it, so that
        no step could come between the post and this)."""
        if not locked:
            async with self.lock(live_id):
                await self.posted(live_id, number, message_id, locked=True)
            return
        live = await self.load(live_id)
        if live.game is None or live.game.index + 1 != number or live.status != "active":
            return  # it moved on meanwhile: nothing to edit any more
        live.message_id = message_id
        await self.save(live)


async def set_names(db: Database, guild_id: int) -> list[str]:
    """The names of the server's question sets (the command's autocomplete), by name."""
    return [found.name for found in await db.question_sets.of_server(guild_id)]


def round_key(live_id: int) -> str:
    """The ``round_key`` of a live round's stored answers (``focus_answers``)."""
    return f"live:{live_id}"
