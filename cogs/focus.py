"""`/focus practice`, `/focus daily`, `/focus live`, `/focus leaderboard`, and the daily post.

- Practice: six questions at the member's level (the adaptive level of ``bot.focus.next_level``,
  or the teacher's pinned level, within the server's range), one at a time in an ephemeral
  message (``bot.ui.focus_run``); each answer stored as it is given; at the end the corrections and
  the level of the next round.
- The daily challenge: the same six questions for every member of a server on a date
  (``bot.focus.daily_questions``), one attempt each (``db.daily`` refuses a second), answers stored
  as they are given (the last one with the score, in one transaction), each keyed by the day and
  its question, so that an attempt interrupted (window closed, bot restarted) goes on where it
  stopped and no question is stored twice; the streak and the rank at the end.
- The daily post: ``post_due_dailies(now)`` posts each due server's challenge in its channel with
  a persistent "Take today's challenge" button; a background task calls it every minute.
- Live class rounds (``cogs/_focus_live.py``, a mixin): a teacher posts questions one at a time
  in the channel; everyone answers through a modal; points for correctness and speed
  (``bot.focus.LiveRound``), a student's extra time counted; the round runs itself (timers close
  each question and post the next), the teacher's report at the end; the state is saved in
  ``db.focus_live`` after every change, so the buttons and timers go on after a restart.
- The leaderboard: today's ranking as an image (``images.render_leaderboard``) and the member's
  streak. Extra time counts fairly in it, and a student a teacher made anonymous or hidden
  (``/class student``, ``bot.play.students``) is "a student" or left out of the picture; asking,
  they read their own place in words only they see.

Clocks and chance are attributes that tests replace: ``seed()`` (the practice and live
questions), ``now()`` (an aware datetime: the server's date, the posting hour) and ``wall()``
(seconds, for the live rounds' answer times, which must survive a restart); the practice and daily
answer times come from ``bot.ui.focus_run.clock``.

The commands only: the use cases are ``bot.play.focus`` (levels, practice, daily) and
``bot.play.focus_live`` (the live rounds' state, cache and locks), the presentation ``bot.ui.focus``
and ``bot.ui.focus_run``.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from collections.abc import Callable, Sequence
from datetime import date, datetime

import discord
from discord import app_commands, ui
from discord.ext import commands

from bot import replies
from bot.focus import ROUND_SIZE, Answer, FocusRound
from bot.focus.daily import daily_levels
from bot.i18n import image_words, lang_for, lang_from_locale, t
from bot.limits import limited
from bot.play import focus as play
from bot.play.focus_live import LiveRounds
from bot.replies import shown_name
from bot.services import ServicedBot, Services
from bot.ui import alt_text
from bot.ui.focus import (
    FOCUS_FLOWS,
    RANKING_LINES,
    TakeDaily,
    again_view,
    daily_embed,
    daily_key,
    date_text,
    practice_embed,
)
from bot.ui.focus_live import (
    LIVE_FLOWS,
    LIVE_MODAL_PREFIX,
    LiveAnswerButton,
    LiveEndButton,
    LiveNextButton,
    LivePauseButton,
    LiveReportButton,
    LiveSkipButton,
)
from bot.ui.focus_run import (
    BUTTON_PREFIX,
    MODAL_PREFIX,
    FocusRun,
    RoundButton,
    get_run,
    say_button_expired,
    start_focus,
    stored_answer,
    take_submission,
)
from bot.ui.members import KnownNames
from bot.ui.question_sets import refuse_level_and_set, set_choices, start_set_round
from bot.views import Route
from cogs import ArdoiseCog
from cogs._focus_live import FocusLive
from db import ServerSettings
from images import render_leaderboard

log = logging.getLogger(__name__)

DAILY_CHECK_SECONDS = 60.0
#: A number as the bot writes one in a custom id (ASCII digits, no leading zero).
_NUMBER = re.compile(r"0|[1-9][0-9]{0,18}")


class Focus(FocusLive, ArdoiseCog, commands.GroupCog, group_name="focus",
            group_description="Focus: quick arithmetic rounds and the daily challenge"):
    persistent_items = (TakeDaily, LiveAnswerButton, LiveNextButton, LivePauseButton,
                        LiveSkipButton, LiveEndButton, LiveReportButton, RoundButton)

    def __init__(self, bot: ServicedBot, services: Services) -> None:
        super().__init__(bot, services)
        services.kept.put(FOCUS_FLOWS, self)
        services.kept.put(LIVE_FLOWS, self)
        self._post_lock = asyncio.Lock()
        self._post_failed: set[tuple[int, date]] = set()
        self.live_rounds = LiveRounds(services.db, now=lambda: self.now(), wall=lambda: self.wall())
        self._names = KnownNames()
        #: The live answer modals opened in this process, by (live id, question number, member):
        #: until when their submission is taken (later, or after a restart: "expired").
        self._live_modals: dict[tuple[int, int, int], float] = {}
        #: The live rounds' timers, by round: when the next step is due, and its task.
        self._live_timers: dict[int, tuple[float, asyncio.Task[None]]] = {}
        self._daily_task: asyncio.Task[None] | None = None
        #: Whether the background task posts the daily challenges (tests call
        #: ``post_due_dailies`` themselves and turn it off).
        self.autopost = True

    # The services' clocks (bot/services.py Clocks), read and replaced here as well: a test
    # moves this cog's time or fixes its seed with ``focus.now = …``.
    @property
    def now(self) -> Callable[[], datetime]:
        return self.services.clocks.now

    @now.setter
    def now(self, clock: Callable[[], datetime]) -> None:
        self.services.clocks.now = clock

    @property
    def wall(self) -> Callable[[], float]:
        return self.services.clocks.wall

    @wall.setter
    def wall(self, clock: Callable[[], float]) -> None:
        self.services.clocks.wall = clock

    @property
    def seed(self) -> Callable[[], int]:
        return self.services.clocks.seed

    @seed.setter
    def seed(self, seed: Callable[[], int]) -> None:
        self.services.clocks.seed = seed

    async def cog_load(self) -> None:
        self._daily_task = asyncio.create_task(self._daily_loop(), name="focus-daily-posts")
        await self.arm_live_timers()  # the rounds running when the bot stopped go on

    async def cog_unload(self) -> None:
        self.stop_live_timers()
        if self._daily_task is not None:
            self._daily_task.cancel()
            self._daily_task = None

    def routes(self) -> Sequence[Route]:
        # Clicks reach their DynamicItems (RoundButton, the GameButtons); discord.py has no such
        # route for modals. So the bot's one listener brings here what it routes nowhere: the
        # submissions of the Focus rounds' modals (every kind's, whichever cog runs the round)
        # and of the live rounds', and a click on a Focus button its message does not show (a
        # modified client), which gets the sentence of an expired window as before.
        return (Route("modal", MODAL_PREFIX, take_submission),
                Route("modal", LIVE_MODAL_PREFIX, self.take_live_submission),
                Route("click", BUTTON_PREFIX, say_button_expired))

    # --- /focus practice ------------------------------------------------------------------

    @app_commands.command(name="practice", description="A round of six questions at your level")
    @limited("round")
    @app_commands.describe(level="The level to practise (1 to 8); by default, yours",
                           set="Your teacher's questions instead (a set has no level)")
    async def practice(self, interaction: discord.Interaction,
                       level: app_commands.Range[int, 1, 8] | None = None,
                       set: str | None = None) -> None:
        if set is None:
            await self.start_practice(interaction, level)
        elif level is not None:
            raise refuse_level_and_set()
        else:
            await start_set_round(interaction, set, self.seed)

    @practice.autocomplete("set")
    async def practice_sets(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        return await set_choices(interaction, current)

    async def start_practice(self, interaction: discord.Interaction, level: int | None,
                             *, in_place: bool = False) -> None:
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        start = await play.start_practice(self.services.db, interaction.guild_id,
                                          interaction.user.id, level, self.seed(), self.now())
        await start_focus(interaction, start.questions, lang, on_done=self._practice_done,
                          kind="practice", title=t("focus.practice.title", lang),
                          in_place=in_place,
                          data={"level": start.level, "own": start.own, "mastery": start.model},
                          time_factor=start.time_factor, record=False,
                          on_answer=self._record_practice_answer)

    async def _record_practice_answer(self, run: FocusRun, answer: Answer) -> None:
        # Stamped with the cog's clock, as the round was chosen by it: the mastery's reviews
        # (due after 1, 3, 7, 21 days) follow one clock, which a test can replace.
        await play.record_answer(self.services.db,
                                 stored_answer(run, answer, len(run.round.answers)),
                                 now=self.now(), newcomer=False,
                                 known=run.data.get("mastery"))

    async def _practice_done(self, interaction: discord.Interaction, run: FocusRun) -> None:
        level, own = run.data["level"], run.data["own"]
        end = await play.end_practice(self.services.db, run.guild_id, run.user_id, level, own,
                                      run.round.questions, run.round_key)
        run.round = end.round  # what is stored
        await replies.update(interaction, embed=practice_embed(run, end.advice),
                             view=again_view(interaction, run.lang, run.window))

    # --- The daily challenge ----------------------------------------------------------------

    @app_commands.command(name="daily", description="Today's challenge: the same six questions "
                                                    "for everyone, one attempt a day")
    @limited("round")
    async def daily(self, interaction: discord.Interaction) -> None:
        await self.take_daily(interaction, None)

    async def take_daily(self, interaction: discord.Interaction, posted: date | None) -> None:
        lang = await lang_for(interaction)
        guild_id, user_id = interaction.guild_id, interaction.user.id
        assert guild_id is not None
        self._remember_name(interaction)

        def open_round(day: date) -> FocusRound | None:
            run = get_run(self.bot, daily_key(guild_id, day, user_id))
            return None if run is None else run.round

        start = await play.start_daily(self.services.db, guild_id, user_id, self.now(), posted,
                                       lambda day: date_text(day, lang), open_round)
        day = start.day
        await start_focus(interaction, start.round, lang, on_done=self._daily_done,
                          kind="daily", key=daily_key(guild_id, day, user_id),
                          title=t("focus.daily.title", lang, date=date_text(day, lang)),
                          record=False, on_answer=self._record_daily_answer,
                          data={"day": day.isoformat(), "mastery": start.model},
                          round_key=play.daily_round_key(day),
                          time_factor=start.time_factor)

    async def _record_daily_answer(self, run: FocusRun, answer: Answer) -> None:
        # Stored at once (not only at the end) so that an interrupted attempt goes on where it
        # stopped; stamped with the cog's clock. The last answer is stored with the attempt's
        # score instead (_daily_done), in one transaction.
        index = len(run.round.answers)
        if index + 1 < len(run.round.questions):
            await play.record_answer(self.services.db, stored_answer(run, answer, index),
                                     now=self.now(), newcomer=False,
                                     known=run.data.get("mastery"))

    async def _daily_done(self, interaction: discord.Interaction, run: FocusRun) -> None:
        day = date.fromisoformat(run.data["day"])
        answers = [stored_answer(run, a, i) for i, a in enumerate(run.round.answers)]
        result = await play.finish_daily(self.services.db, run.guild_id, run.user_id, day,
                                         run.round.questions, answers, self.now())
        run.round = result.round  # what is stored, should another window have stored first
        await replies.update(interaction, embed=daily_embed(run, day, result), view=None)

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
            # Only this process's servers (its shards'), and each post claimed first: another
            # process on the same shard (a restart overlapping) never posts it too.
            for settings in await play.servers_with_daily(self.services.db, self.services.owns):
                guild = self.bot.get_guild(settings.guild_id)
                day = play.local_day(settings, now)
                if guild is None or now.astimezone(settings.tz()).hour < settings.daily_hour:
                    continue
                if (guild.id, day) in self._post_failed:
                    continue
                if await play.due_daily(self.services.db, settings, now) is None:
                    continue
                if not await play.claim_daily_post(self.services.db, settings, day,
                                                   self.services.worker_id, now):
                    continue
                try:
                    message = await self._post_daily(guild, settings, day)
                except (discord.HTTPException, LookupError) as failure:
                    # No channel, no permission: say it once, not every minute.
                    self._post_failed.add((guild.id, day))
                    log.warning("cannot post the daily challenge in server %s: %s", guild.id,
                                failure)
                    continue
                await play.daily_posted(self.services.db, guild.id, day, message.channel.id,
                                        message.id)
                posted.append((guild.id, day))
        return posted

    async def _post_daily(self, guild: discord.Guild, settings: ServerSettings, day: date
                          ) -> discord.Message:
        assert settings.daily_channel_id is not None
        await play.daily_challenge(self.services.db, settings, day, self.now())
        lang = settings.language or lang_from_locale(guild.preferred_locale)
        channel = guild.get_channel(settings.daily_channel_id) or await guild.fetch_channel(
            settings.daily_channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            raise LookupError(f"channel {settings.daily_channel_id} takes no messages")
        low, high = play.daily_range(settings)
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
        me = interaction.user.id
        name = self._remember_name(interaction)
        daily = await play.daily_board(self.services.db, guild.id, me, self.now())
        day, board, player = daily.day, daily.rows, daily.player
        current = player.current_daily_streak(day) if player else 0
        best = player.best_daily_streak if player else 0
        mine = next((row for row in board if row.user_id == me), None)
        shown_as = shown_name(name)
        line = (t("focus.leaderboard.streak", lang, count=current, name=shown_as, current=current,
                       best=best) if mine else
                t("focus.leaderboard.not_played", lang, name=shown_as, current=current,
                  best=best))
        public = daily.public  # anonymous students as "a student", hidden ones left out
        secret = daily.private_rank(me)
        if secret is not None:  # their place for them alone, never in the picture
            private = t("class_students.private_rank.anonymous" if any(
                p.user_id == me for p in public) else "class_students.private_rank.hidden",
                lang, rank=secret)
            line = line if show else f"{line}\n{private}"
        if not public:
            await replies.followup(interaction, t("focus.leaderboard.empty", lang) + "\n" + line)
        else:
            mine_shown = next((p for p in public if p.user_id == me and not p.anonymous), None)
            shown = public[:RANKING_LINES] + ([mine_shown] if mine_shown and mine_shown not in
                                              public[:RANKING_LINES] else [])
            anonymous = t("class_students.a_student", lang)
            names = await asyncio.gather(*(self.member_name(guild, p.user_id, lang)
                                           for p in shown if not p.anonymous))
            named = iter(names)
            rows = [{"rank": p.rank, "name": anonymous if p.anonymous else next(named),
                     "score": p.row.score, "time": p.row.time_ms / 1000} for p in shown]
            png = await asyncio.to_thread(render_leaderboard, rows, image_words(lang), None, day,
                                          mine_shown.rank if mine_shown else None, RANKING_LINES,
                                          ROUND_SIZE)
            await replies.followup(
                interaction,
                line, file=discord.File(io.BytesIO(png), filename="leaderboard.png",
                                        description=alt_text.ranking(
                                            t("images.daily", lang), rows, lang)))
        if secret is not None and show:
            await replies.followup(interaction, private, ephemeral=True)


async def setup(bot: ServicedBot) -> None:
    await bot.add_cog(Focus(bot, bot.services))
