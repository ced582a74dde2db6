"""`/focus practice`, `/focus daily`, `/focus live`, `/focus leaderboard`, and the daily post.

- Practice: six questions at the member's level (the adaptive level of ``bot.focus.next_level``,
  or the teacher's pinned level, within the server's range), one at a time in an ephemeral
  message (``cogs._focus_ui``); each answer stored as it is given; at the end the corrections and
  the level of the next round.
- The daily challenge: the same six questions for every member of a server on a date
  (``bot.focus.daily_questions``), one attempt each (``db.daily`` refuses a second), answers stored
  as they are given (the last one with the score, in one transaction), each keyed by the day and
  its question, so that an attempt interrupted (window closed, bot restarted) goes on where it
  stopped and no question is stored twice; the streak and the rank at the end.
- The daily post: ``post_due_dailies(now)`` posts each due server's challenge in its channel with
  a persistent "Take today's challenge" button; a background task calls it every minute.
- Live class rounds: a teacher posts questions one at a time in the channel; everyone answers
  through a modal; points for correctness and speed (``bot.focus.LiveRound``); the ranking after
  each question; the state is saved in ``db.focus_live`` after every change, so the public buttons
  work after a restart.
- The leaderboard: today's ranking as an image (``images.render_leaderboard``) and the member's
  streak.

Clocks and chance are attributes that tests replace: ``seed()`` (the practice and live
questions), ``now()`` (an aware datetime: the server's date, the posting hour) and ``wall()``
(seconds, for the live rounds' answer times, which must survive a restart); the practice and daily
answer times come from ``cogs._focus_ui.clock``.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

import discord
from discord import app_commands, ui
from discord.ext import commands

from bot import replies
from bot.domain import DomainError
from bot.focus import (
    MAX_LEVEL,
    MIN_LEVEL,
    ROUND_SIZE,
    Answer,
    FocusRound,
    LiveRound,
    Question,
    daily_questions,
    generate_questions,
    next_level,
)
from bot.focus.daily import daily_levels
from bot.formats import FORMAT_KEY, upgrade
from bot.i18n import error_text, image_words, lang_for, lang_from_locale, month_name, t
from bot.limits import hit, limited
from bot.replies import shown_name
from bot.tree import report_error
from bot.views import ArdoiseModal, GameButton, invalid_component, routed_nowhere
from cogs import ArdoiseCog
from cogs._focus_ui import (
    BUTTON_PREFIX,
    FocusRun,
    RoundButton,
    action_button,
    get_run,
    level_text,
    say_expired,
    start_focus,
    stored_answer,
    summary_embed,
    take_submission,
    typed_value,
)
from cogs._teachers import teaches
from db import FocusAnswer, ServerSettings
from images import render_leaderboard

log = logging.getLogger(__name__)

#: The daily challenge's levels when the server's range allows them (one question at each of
#: 2, 3, 4, 5, 6, 7): the engine's default.
DAILY_LEVELS = (2, 7)
DAILY_CHECK_SECONDS = 60.0
#: Answer-reading refusals: the member may type again.
FORMAT_CODES = frozenset({"focus.empty", "focus.not_a_number", "focus.not_whole",
                          "focus.bad_grouping", "focus.too_long"})
LIVE_MODAL_PREFIX = "focus.livem:"
LIVE_MODAL_TIMEOUT = 900.0
#: A number as the bot writes one in a custom id (ASCII digits, no leading zero).
_NUMBER = re.compile(r"0|[1-9][0-9]{0,18}")
RANKING_LINES = 10
FINAL_LINES = 25
MEDALS = ("🥇", "🥈", "🥉")


# --- Levels --------------------------------------------------------------------------------


def level_range(settings: ServerSettings) -> tuple[int, int]:
    """The server's practice levels (no ceiling set: up to the last level)."""
    low = min(max(settings.focus_level_min, MIN_LEVEL), MAX_LEVEL)
    high = min(settings.focus_level_max or MAX_LEVEL, MAX_LEVEL)
    return low, max(low, high)


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


def date_text(day: date, lang: str) -> str:
    """``30 November 2026``, ``1er décembre 2026``."""
    return t("focus.date_first" if day.day == 1 else "focus.date", lang, day=day.day,
             month=month_name(day.month, lang), year=day.year)


def daily_round_key(day: date) -> str:
    """The name of a daily attempt among a member's stored answers (see ``db.focus``)."""
    return f"daily:{day.isoformat()}"


def _history(answers: list[FocusAnswer]) -> list[Answer]:
    """Stored answers (latest first) as the engine's, oldest first."""
    return [Answer(question=a.question, topic=a.topic, level=a.level, expected=a.expected,
                   given=a.given, correct=a.correct, seconds=a.time_ms / 1000)
            for a in reversed(answers)]


# --- Live rounds: the state kept between clicks ----------------------------------------------

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


def _live_or_over(live: LiveState) -> LiveRound:
    if live.status != "active" or live.game is None or live.game.finished:
        raise DomainError("focus.live_finished", "this live round is over")
    return live.game


def _cog(interaction: discord.Interaction) -> Focus:
    cog = interaction.client.get_cog("Focus")  # type: ignore[attr-defined]
    assert isinstance(cog, Focus)
    return cog


# --- Persistent buttons ------------------------------------------------------------------


def posted_day(text: str) -> date:
    """The day of a daily post's button, as the bot writes it (YYYY-MM-DD); anything else was
    not written by the bot."""
    try:
        if len(text) == 10:
            return date.fromisoformat(text)
    except ValueError:
        pass
    raise invalid_component("day")


class TakeDaily(GameButton, action="focus.daily"):
    """On the daily post: ``focus.daily:<server id>:1:<YYYY-MM-DD>``."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        if str(interaction.guild_id) != self.game_id:
            raise DomainError("game.not_found", "this post belongs to another server")
        hit(interaction, "round")
        await _cog(interaction).take_daily(interaction, posted_day(self.arg))


class LiveAnswerButton(GameButton, action="focus.live_answer"):
    """``focus.live_answer:<live id>:<question number from 1>``: opens the answer modal."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).open_live_answer(interaction, int(self.game_id), self.version)


class LiveNextButton(GameButton, action="focus.live_next"):
    """``focus.live_next:<live id>:<question number from 1>``: the teacher moves on."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).live_next(interaction, int(self.game_id), self.version)


class LiveAnswerModal(ArdoiseModal):
    """The answer to a live question: ``focus.livem:<live id>:<question number from 1>``. What is
    typed in it is taken by ``Focus.take_live_submission`` (the same one route as the practice
    modals, see ``cogs._focus_ui``): the modal does nothing itself."""

    def __init__(self, live_id: int, number: int, question: Question, lang: str) -> None:
        super().__init__(title=t("focus.live.modal_title", lang, n=number)[:45],
                         timeout=LIVE_MODAL_TIMEOUT,
                         custom_id=f"{LIVE_MODAL_PREFIX}{live_id}:{number}")
        self.typed: ui.TextInput[LiveAnswerModal] = ui.TextInput(
            label=f"{question.text} ="[:45], custom_id="answer",
            placeholder=t("focus.run.placeholder", lang)[:100], max_length=40)
        self.add_item(self.typed)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        self.stop()  # its one submission came: discord.py may forget it
        return False


def again_view(interaction: discord.Interaction, lang: str) -> ui.View:
    """Under a finished practice round: another round at the (new) level."""

    async def again(clicked: discord.Interaction) -> None:
        await _cog(clicked).start_practice(clicked, None, in_place=True)

    view = ui.View(timeout=None)  # only a dynamic item: discord.py keeps nothing of it
    view.add_item(action_button(interaction, kind="practice",
                                label=t("focus.practice.again", lang), on_click=again))
    return view


# --- The cog --------------------------------------------------------------------------------


class Focus(ArdoiseCog, commands.GroupCog, group_name="focus",
            group_description="Focus: quick arithmetic rounds and the daily challenge"):
    persistent_items = (TakeDaily, LiveAnswerButton, LiveNextButton, RoundButton)

    def __init__(self, bot: Any) -> None:
        super().__init__(bot)
        self.now: Callable[[], datetime] = lambda: datetime.now(UTC)
        self.wall: Callable[[], float] = time.time
        #: Seeds of the practice and live questions (tests fix it).
        self.seed: Callable[[], int] = lambda: secrets.randbits(64)
        self._post_lock = asyncio.Lock()
        self._post_failed: set[tuple[int, date]] = set()
        self._live: dict[int, LiveState] = {}
        self._live_locks: dict[int, asyncio.Lock] = {}
        self._names: dict[tuple[int, int], str] = {}
        #: The live answer modals opened in this process, by (live id, question number, member):
        #: until when their submission is taken (later, or after a restart: "expired").
        self._live_modals: dict[tuple[int, int, int], float] = {}
        self._daily_task: asyncio.Task[None] | None = None
        #: Whether the background task posts the daily challenges (tests call
        #: ``post_due_dailies`` themselves and turn it off).
        self.autopost = True

    @property
    def db(self) -> Any:
        return self.bot.db

    async def cog_load(self) -> None:
        self._daily_task = asyncio.create_task(self._daily_loop(), name="focus-daily-posts")

    async def cog_unload(self) -> None:
        if self._daily_task is not None:
            self._daily_task.cancel()
            self._daily_task = None

    @commands.Cog.listener("on_interaction")
    async def take_unrouted(self, interaction: discord.Interaction) -> None:
        # Clicks reach their DynamicItems (RoundButton, the GameButtons); discord.py has no such
        # route for modals, only the `interaction` event. So this takes what it routes nowhere,
        # and only that: the submissions of the Focus modals (practice, daily, live; the 20
        # Digits cog takes the match rounds'), and a click on a Focus button its message does not
        # show (a modified client), which gets the sentence of an expired window as before.
        if interaction.type is discord.InteractionType.modal_submit:
            if not await take_submission(interaction, lambda kind: kind != "match"):
                await self.take_live_submission(interaction)
        elif routed_nowhere(interaction, BUTTON_PREFIX):
            await say_expired(interaction, str((interaction.data or {}).get("custom_id", ""))
                              [len(BUTTON_PREFIX):].split(":", 1)[0])

    async def take_live_submission(self, interaction: discord.Interaction) -> None:
        """Take a live answer modal's submission: the answer, if this process opened that modal
        for this member and its time is not over; else the "expired" sentence."""
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if not custom_id.startswith(LIVE_MODAL_PREFIX):
            return
        try:
            parts = custom_id[len(LIVE_MODAL_PREFIX):].split(":")
            key = None
            if len(parts) == 2 and all(_NUMBER.fullmatch(part) for part in parts):
                key = (int(parts[0]), int(parts[1]), interaction.user.id)
            deadline = None if key is None else self._live_modals.pop(key, None)
            if key is None or deadline is None or deadline < time.monotonic():
                lang = await lang_for(interaction)
                await replies.respond(interaction, t("focus.expired.live", lang), ephemeral=True)
                return
            await self.live_answer(interaction, key[0], key[1],
                                   typed_value(interaction.data, "answer") or "")
        except Exception as error:  # as a modal would: the member reads what happened
            await report_error(interaction, error)

    def _remember_name(self, interaction: discord.Interaction) -> str:
        name = interaction.user.display_name
        if interaction.guild_id is not None:
            self._names[(interaction.guild_id, interaction.user.id)] = name
        return name

    async def member_name(self, guild: discord.Guild, user_id: int, lang: str) -> str:
        known = self._names.get((guild.id, user_id))
        if known is not None:
            return known
        try:
            member = await guild.fetch_member(user_id)
        except discord.HTTPException:
            return t("focus.someone", lang)
        self._names[(guild.id, user_id)] = member.display_name
        return member.display_name

    def today(self, settings: ServerSettings) -> date:
        return self.now().astimezone(settings.tz()).date()

    # --- /focus practice ------------------------------------------------------------------

    @app_commands.command(name="practice", description="A round of six questions at your level")
    @limited("round")
    @app_commands.describe(level="The level to practise (1 to 8); by default, yours")
    async def practice(self, interaction: discord.Interaction,
                       level: app_commands.Range[int, 1, 8] | None = None) -> None:
        await self.start_practice(interaction, level)

    async def start_practice(self, interaction: discord.Interaction, level: int | None,
                             *, in_place: bool = False) -> None:
        lang = await lang_for(interaction)
        guild_id, user_id = interaction.guild_id, interaction.user.id
        assert guild_id is not None
        settings = await self.db.servers.get(guild_id)
        player = await self.db.players.get(guild_id, user_id)
        low, high = level_range(settings)
        pinned = settings.focus_level_pinned
        own = clamp(pinned if pinned is not None else (player.focus_level if player else low),
                    settings)
        if level is not None and level != own:
            if pinned is not None:
                raise DomainError("focus.level_pinned", "the teacher pinned the level",
                                  level=own)
            if not low <= level <= high:
                raise DomainError("focus.level_out_of_range", "level outside the server's range",
                                  level=level, min=low, max=high)
        chosen = own if level is None else level
        questions = generate_questions(chosen, ROUND_SIZE, random.Random(self.seed()))
        await start_focus(interaction, questions, lang, on_done=self._practice_done,
                          kind="practice", title=t("focus.practice.title", lang),
                          in_place=in_place, data={"level": chosen, "own": own})

    async def _practice_done(self, interaction: discord.Interaction, run: FocusRun) -> None:
        lang = run.lang
        settings = await self.db.servers.get(run.guild_id)
        level, own = run.data["level"], run.data["own"]
        embed = summary_embed(run.round, lang, t("focus.practice.title", lang))
        if level == own:
            low, high = level_range(settings)
            history = _history(await self.db.focus.recent(run.guild_id, run.user_id, limit=100))
            advice = next_level(history, current=own, pin=settings.focus_level_pinned,
                                min_level=low, max_level=high)
            player = await self.db.players.get(run.guild_id, run.user_id)
            if player is None or player.focus_level != advice.level:
                await self.db.players.set_focus_level(run.guild_id, run.user_id, advice.level)
            embed.add_field(name=t("focus.practice.advice_name", lang),
                            value=t(f"focus.practice.advice.{advice.reason}", lang,
                                    level=advice.level), inline=False)
            if advice.weak_topics:
                topics = ", ".join(t(f"focus.topics.{topic}", lang)
                                   for topic in advice.weak_topics)
                embed.add_field(name=t("focus.practice.weak_name", lang),
                                value=t("focus.practice.weak", lang, topics=topics),
                                inline=False)
        else:
            embed.add_field(name=t("focus.practice.advice_name", lang),
                            value=t("focus.practice.chosen", lang, level=level, own=own),
                            inline=False)
        await replies.update(interaction, embed=embed,
                             view=again_view(interaction, lang))

    # --- The daily challenge ----------------------------------------------------------------

    @app_commands.command(name="daily", description="Today's challenge: the same six questions "
                                                    "for everyone, one attempt a day")
    @limited("round")
    async def daily(self, interaction: discord.Interaction) -> None:
        await self.take_daily(interaction, None)

    async def ensure_challenge(self, settings: ServerSettings, day: date) -> list[Question]:
        """The server's questions of ``day``, drawn (and stored) on first use."""
        challenge = await self.db.daily.get(settings.guild_id, day)
        if challenge is None:
            low, high = daily_range(settings)
            questions = daily_questions(settings.guild_id, day, low, high)
            challenge, _ = await self.db.daily.create(
                settings.guild_id, day, [q.to_json() for q in questions], now=self.now())
        return [Question.from_json(q) for q in challenge.questions]

    async def take_daily(self, interaction: discord.Interaction, posted: date | None) -> None:
        lang = await lang_for(interaction)
        guild_id, user_id = interaction.guild_id, interaction.user.id
        assert guild_id is not None
        settings = await self.db.servers.get(guild_id)
        day = self.today(settings)
        if posted is not None and posted != day:
            raise DomainError("focus.daily_old_post", "that post is another day's challenge",
                              day=date_text(posted, lang))
        questions = await self.ensure_challenge(settings, day)
        self._remember_name(interaction)
        key = f"daily:{guild_id}:{day.isoformat()}:{user_id}"
        attempt = await self.db.daily.attempt(guild_id, day, user_id)
        if attempt is not None and attempt.finished_at is not None:
            raise DomainError("focus.daily_already_played", "already played today",
                              day=day.isoformat())
        if attempt is None:
            await self.db.daily.start_attempt(guild_id, day, user_id, now=self.now())
            focus_round = FocusRound(questions)
        else:
            open_run = get_run(self.bot, key)
            focus_round = open_run.round if open_run is not None else await self._resumed(
                guild_id, user_id, questions, day)
        await start_focus(interaction, focus_round, lang, on_done=self._daily_done, kind="daily",
                          key=key, title=t("focus.daily.title", lang, date=date_text(day, lang)),
                          record=False, on_answer=self._record_daily_answer,
                          data={"day": day.isoformat()}, round_key=daily_round_key(day))

    async def _record_daily_answer(self, run: FocusRun, answer: Answer) -> None:
        # Stored at once (not only at the end) so that an interrupted attempt goes on where it
        # stopped; stamped with the cog's clock. The last answer is stored with the attempt's
        # score instead (_daily_done), in one transaction.
        index = len(run.round.answers)
        if index + 1 < len(run.round.questions):
            await self.db.focus.record(stored_answer(run, answer, index), now=self.now())

    async def _resumed(self, guild_id: int, user_id: int, questions: list[Question],
                       day: date) -> FocusRound:
        """An attempt begun earlier (its window closed, or the bot restarted): the answers
        already stored, in order, then the rest."""
        stored = await self.db.focus.round_answers(guild_id, user_id, daily_round_key(day))
        done: list[Answer] = []
        for answer in _history(stored[::-1]):
            if len(done) < len(questions) and answer.question == questions[len(done)].text:
                done.append(answer)
        return FocusRound(questions, done)

    async def _daily_done(self, interaction: discord.Interaction, run: FocusRun) -> None:
        lang = run.lang
        day = date.fromisoformat(run.data["day"])
        time_ms = sum(round(a.seconds * 1000) for a in run.round.answers)
        # Every answer goes with the score, in one transaction: the last one is stored only here,
        # the others were already (each is keyed by its question: a second write is a no-op).
        answers = [stored_answer(run, a, i) for i, a in enumerate(run.round.answers)]
        player = await self.db.daily.finish_attempt(run.guild_id, day, run.user_id,
                                                    run.round.score, time_ms, answers,
                                                    now=self.now())
        board = await self.db.daily.leaderboard(run.guild_id, day, limit=100_000)
        mine = next((row for row in board if row.user_id == run.user_id), None)
        embed = summary_embed(run.round, lang,
                              t("focus.daily.title", lang, date=date_text(day, lang)))
        streak = player.current_daily_streak(day)
        embed.add_field(name=t("focus.daily.streak_name", lang),
                        value=t("focus.daily.streak", lang, count=streak, current=streak,
                                     best=player.best_daily_streak))
        if mine is not None:
            embed.add_field(name=t("focus.daily.rank_name", lang),
                            value=t("focus.daily.rank_first" if mine.rank == 1
                                    else "focus.daily.rank", lang, rank=mine.rank,
                                    total=len(board)))
        await replies.update(interaction, embed=embed, view=None)

    # --- The daily post -------------------------------------------------------------------

    async def _daily_loop(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                if self.autopost:
                    await self.post_due_dailies(self.now())
            except Exception:
                log.exception("posting the daily challenges failed")
            # Wake at the start of the next minute: hours come on the minute.
            await asyncio.sleep(DAILY_CHECK_SECONDS - time.time() % DAILY_CHECK_SECONDS)

    async def post_due_dailies(self, now: datetime) -> list[tuple[int, date]]:
        """Post the daily challenge of every server whose hour has come and whose challenge of
        the day is not posted yet (the database remembers the post); the (server, day) posted."""
        posted: list[tuple[int, date]] = []
        async with self._post_lock:  # the loop and a caller never post the same day twice
            for settings in await self.db.servers.all_with_daily():
                guild = self.bot.get_guild(settings.guild_id)
                local = now.astimezone(settings.tz())
                day = local.date()
                if guild is None or local.hour < settings.daily_hour:
                    continue
                if (guild.id, day) in self._post_failed:
                    continue
                challenge = await self.db.daily.get(guild.id, day)
                if challenge is not None and challenge.message_id is not None:
                    continue
                try:
                    message = await self._post_daily(guild, settings, day)
                except (discord.HTTPException, LookupError) as failure:
                    # No channel, no permission: say it once, not every minute.
                    self._post_failed.add((guild.id, day))
                    log.warning("cannot post the daily challenge in server %s: %s", guild.id,
                                failure)
                    continue
                await self.db.daily.set_message(guild.id, day, message.channel.id, message.id)
                posted.append((guild.id, day))
        return posted

    async def _post_daily(self, guild: discord.Guild, settings: ServerSettings, day: date
                          ) -> discord.Message:
        assert settings.daily_channel_id is not None
        await self.ensure_challenge(settings, day)
        lang = settings.language or lang_from_locale(guild.preferred_locale)
        channel = guild.get_channel(settings.daily_channel_id) or await guild.fetch_channel(
            settings.daily_channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            raise LookupError(f"channel {settings.daily_channel_id} takes no messages")
        low, high = daily_range(settings)
        levels = daily_levels(low, high)
        embed = discord.Embed(title=t("focus.daily.post_title", lang, date=date_text(day, lang)),
                              description=t("focus.daily.post_text", lang, low=levels[0],
                                            high=levels[-1]),
                              colour=0xE9C46A)
        view = ui.View(timeout=None)
        view.add_item(TakeDaily(guild.id, 1, day.isoformat(), label=t("focus.daily.button", lang),
                                style=discord.ButtonStyle.success))
        return await replies.post(channel, embed=embed, view=view)

    # --- /focus leaderboard -----------------------------------------------------------------

    @app_commands.command(name="leaderboard",
                          description="Today's daily challenge ranking, and your streak")
    @limited("picture")
    @app_commands.describe(show="Show the ranking to the whole channel")
    async def leaderboard(self, interaction: discord.Interaction, show: bool = False) -> None:
        lang = await lang_for(interaction)
        guild = interaction.guild
        assert guild is not None
        await interaction.response.defer(ephemeral=not show, thinking=True)
        settings = await self.db.servers.get(guild.id)
        day = self.today(settings)
        me = interaction.user.id
        name = self._remember_name(interaction)
        board = await self.db.daily.leaderboard(guild.id, day, limit=100_000)
        player = await self.db.players.get(guild.id, me)
        current = player.current_daily_streak(day) if player else 0
        best = player.best_daily_streak if player else 0
        mine = next((row for row in board if row.user_id == me), None)
        shown_as = shown_name(name)
        line = (t("focus.leaderboard.streak", lang, count=current, name=shown_as, current=current,
                       best=best) if mine else
                t("focus.leaderboard.not_played", lang, name=shown_as, current=current,
                  best=best))
        if not board:
            await replies.followup(interaction, t("focus.leaderboard.empty", lang) + "\n" + line)
            return
        shown = board[:RANKING_LINES] + ([mine] if mine and mine not in
                                          board[:RANKING_LINES] else [])
        names = await asyncio.gather(*(self.member_name(guild, row.user_id, lang)
                                       for row in shown))
        rows = [{"rank": row.rank, "name": who, "score": row.score, "time": row.time_ms / 1000}
                for row, who in zip(shown, names, strict=True)]
        png = await asyncio.to_thread(render_leaderboard, rows, image_words(lang), None, day,
                                      mine.rank if mine else None, RANKING_LINES, ROUND_SIZE)
        await replies.followup(
            interaction,
            line, file=discord.File(io.BytesIO(png), filename="leaderboard.png"))

    # --- /focus live --------------------------------------------------------------------------

    @app_commands.command(name="live",
                          description="Run a Focus for the whole channel, live (teachers)")
    @app_commands.describe(count="How many questions (1 to 20, 6 by default)",
                           level="The questions' level (1 to 8)",
                           seconds="Time to answer each question (5 to 300, 20 by default)")
    async def live(self, interaction: discord.Interaction,
                   count: app_commands.Range[int, 1, 20] = ROUND_SIZE,
                   level: app_commands.Range[int, 1, 8] | None = None,
                   seconds: app_commands.Range[int, 5, 300] = 20) -> None:
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None
        settings = await self.db.servers.get(guild_id)
        if not teaches(interaction, settings):
            raise DomainError("focus.live_teachers_only", "teachers only")
        if level is None:
            level = settings.focus_level_pinned or level_range(settings)[0]
        game = LiveRound.new(level, random.Random(self.seed()), count, float(seconds))
        game.next_question()
        live = LiveState(live_id=0, guild_id=guild_id, channel_id=interaction.channel_id,
                         teacher_id=interaction.user.id, version=1, status="active", game=game,
                         level=level, lang=lang, shown_at=self.wall())
        live.names[interaction.user.id] = self._remember_name(interaction)
        row = await self.db.focus_live.create(guild_id, interaction.channel_id,
                                              interaction.user.id, live.to_json(), now=self.now())
        live.live_id, live.version = row.live_id, row.version
        self._live[live.live_id] = live
        await replies.respond(interaction, embed=self._live_embed(live),
                              view=self._live_view(live))

    def _lock(self, live_id: int) -> asyncio.Lock:
        return self._live_locks.setdefault(live_id, asyncio.Lock())

    async def _load_live(self, live_id: int) -> LiveState:
        live = self._live.get(live_id)
        if live is None:
            live = LiveState.from_row(await self.db.focus_live.require(live_id))
            self._live[live_id] = live
        return live

    async def _save_live(self, live: LiveState, answer: FocusAnswer | None = None) -> None:
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

    def _teacher_mention(self, live: LiveState) -> str:
        return f"<@{live.teacher_id}>"

    def _ranking_lines(self, live: LiveState, game: LiveRound, asked: int, limit: int,
                       lang: str) -> str:
        """The ranking after ``asked`` questions, best first."""
        lines = []
        for standing in game.ranking()[:limit]:
            place = MEDALS[standing.rank - 1] if standing.rank <= len(MEDALS) else \
                f"{standing.rank}."
            lines.append(t("focus.live.line", lang, place=place,
                           name=(shown_name(live.names[standing.player])
                                 if standing.player in live.names else t("focus.someone", lang)),
                           points=standing.points, correct=standing.correct, size=asked))
        return "\n".join(lines)

    def _live_embed(self, live: LiveState) -> discord.Embed:
        game = live.game
        assert game is not None and game.current is not None and live.shown_at is not None
        lang = live.lang
        number, size = game.index + 1, len(game.questions)
        embed = discord.Embed(title=t("focus.live.title", lang, n=number, size=size),
                              description=t("focus.live.question", lang,
                                            question=game.current.text),
                              colour=0x457B9D)
        deadline = f"<t:{int(live.shown_at + game.time_limit)}:T>"
        embed.add_field(name=t("focus.live.until_name", lang),
                        value=t("focus.live.until", lang, deadline=deadline,
                                seconds=f"{game.time_limit:g}"), inline=False)
        if game.index > 0:
            # The ranking after the previous question (the current one has just opened).
            embed.add_field(name=t("focus.live.ranking_name", lang, n=game.index),
                            value=self._ranking_lines(live, game, game.index, RANKING_LINES, lang)
                            or t("focus.live.nobody", lang), inline=False)
        last = game.index == size - 1
        embed.set_footer(text=t("focus.live.footer", lang, level=level_text(live.level, lang),
                                teacher=(shown_name(live.names[live.teacher_id])
                                         if live.teacher_id in live.names else ""),
                                next=t("focus.live.finish" if last else "focus.live.next", lang)))
        return embed

    def _live_view(self, live: LiveState) -> ui.View:
        game = live.game
        assert game is not None
        lang = live.lang
        number = game.index + 1
        last = number == len(game.questions)
        view = ui.View(timeout=None)
        view.add_item(LiveAnswerButton(live.live_id, number, label=t("focus.live.answer", lang),
                                       style=discord.ButtonStyle.primary))
        view.add_item(LiveNextButton(live.live_id, number,
                                     label=t("focus.live.finish" if last else "focus.live.next",
                                             lang),
                                     style=discord.ButtonStyle.secondary))
        return view

    async def open_live_answer(self, interaction: discord.Interaction, live_id: int,
                               number: int) -> None:
        live = await self._load_live(live_id)
        game = _live_or_over(live)
        if number != game.index + 1 or not game.open:
            raise DomainError("focus.live_no_question", "that question is closed")
        if interaction.user.id == live.teacher_id:
            raise DomainError("focus.live_teacher_answers", "the teacher runs the game")
        if any(a.player == interaction.user.id and a.index == game.index for a in game.answers):
            raise DomainError("focus.live_already_answered", "already answered")
        question = game.current
        assert question is not None
        lang = await lang_for(interaction)
        now = time.monotonic()
        self._live_modals = {k: v for k, v in self._live_modals.items() if v >= now}
        self._live_modals[(live_id, number, interaction.user.id)] = now + LIVE_MODAL_TIMEOUT
        await replies.modal(interaction, LiveAnswerModal(live_id, number, question, lang))

    async def live_answer(self, interaction: discord.Interaction, live_id: int, number: int,
                          typed: str) -> None:
        submitted = self.wall()
        lang = await lang_for(interaction)
        user_id = interaction.user.id
        async with self._lock(live_id):
            live = await self._load_live(live_id)
            game = _live_or_over(live)
            if number != game.index + 1:
                raise DomainError("focus.live_no_question", "that question is closed")
            shown = live.shown_at if live.shown_at is not None else submitted
            try:
                scored = game.answer(user_id, typed, max(0.0, submitted - shown))
            except DomainError as refusal:
                if refusal.code not in FORMAT_CODES:
                    raise
                await replies.respond(
                    interaction,
                    t("focus.live.unreadable", lang, reason=error_text(refusal, lang)),
                    ephemeral=True)
                return
            live.names[user_id] = self._remember_name(interaction)
            a = scored.answer
            await self._save_live(live, FocusAnswer(
                guild_id=live.guild_id, user_id=user_id, topic=a.topic, level=a.level,
                question=a.question, expected=a.expected, given=a.given,
                time_ms=round_ms(a.seconds), source="live", round_key=f"live:{live.live_id}",
                question_no=number - 1))
        text = (t("focus.live.right", lang, points=scored.points) if a.correct
                else t("focus.live.wrong", lang))
        await replies.respond(interaction, text, ephemeral=True)

    async def live_next(self, interaction: discord.Interaction, live_id: int, number: int
                        ) -> None:
        async with self._lock(live_id):
            live = await self._load_live(live_id)
            game = _live_or_over(live)
            if interaction.user.id != live.teacher_id:
                raise DomainError("focus.live_next_teacher_only", "only the teacher moves on")
            if number != game.index + 1:
                raise DomainError("game.stale", "an older question's button",
                                  clicked=number, current=game.index + 1)
            if game.open:
                game.close_question()
            question = game.current
            assert question is not None
            answers = game.answers_to(game.index)
            closed_embed = discord.Embed(
                title=t("focus.live.closed_title", live.lang, n=number, size=len(game.questions)),
                description=t("focus.live.closed_question", live.lang, question=question.text,
                              expected=question.answer),
                colour=0x6C757D)
            right = sum(a.answer.correct for a in answers)
            closed_embed.add_field(name="\u200b", value=t(
                "focus.live.closed_count", live.lang, count=right, right=right,
                answered=len(answers)),
                inline=False)
            final_rows: list[dict[str, Any]] = []
            if game.finished:
                final = self._final_embed(live, game)
                final_rows = self._final_rows(live, game)
                live.game = None
                live.names = {}
                await self._save_live(live)
                self._live.pop(live.live_id, None)  # later clicks read "finished" from the db
            else:
                game.next_question()
                live.shown_at = self.wall()
                await self._save_live(live)
            await replies.update(interaction, embed=closed_embed, view=None)
            if live.game is None:
                if not final_rows:
                    await replies.followup(interaction, embed=final)
                    return
                title = t("focus.live.final_title", live.lang)
                png = await asyncio.to_thread(
                    render_leaderboard, final_rows, image_words(live.lang), title, None, None,
                    FINAL_LINES, None,
                    (t("focus.live.points_column", live.lang),
                     t("focus.live.right_column", live.lang)))
                final.set_image(url="attachment://ranking.png")
                await replies.followup(
                    interaction,
                    embed=final, file=discord.File(io.BytesIO(png), filename="ranking.png"))
            else:
                await replies.followup(interaction, embed=self._live_embed(live),
                                       view=self._live_view(live))

    def _final_rows(self, live: LiveState, game: LiveRound) -> list[dict[str, Any]]:
        """The final ranking for the picture: points, and right answers out of all."""
        size = len(game.questions)
        return [{"rank": s.rank, "name": live.names.get(s.player, t("focus.someone", live.lang)),
                 "score": s.points, "time": f"{s.correct}/{size}"} for s in game.ranking()]

    def _final_embed(self, live: LiveState, game: LiveRound) -> discord.Embed:
        lang = live.lang
        lines = self._ranking_lines(live, game, len(game.questions), FINAL_LINES, lang)
        return discord.Embed(title=t("focus.live.final_title", lang),
                             description=lines or t("focus.live.final_empty", lang),
                             colour=0xE9C46A)


def round_ms(seconds: float) -> int:
    return round(seconds * 1000)


async def setup(bot: Any) -> None:
    await bot.add_cog(Focus(bot))
