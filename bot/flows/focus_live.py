"""The live class round's conductor (``/focus live``): the teacher's command, the students'
answers, the teacher's controls, the report, and the timers that run the round. The base of
``bot.flows.focus.FocusFlow``, which the Focus cog builds; the flow of the live buttons
(``bot.ui.focus_live.LIVE_FLOWS``, registered here).

A round runs itself by default: when a question's time is up (the own window of every student of
the server with extra time over, or everyone taking part has answered), its timer closes it (the
question message shows the answer, who found it and the ranking), and ``NEXT_DELAY`` seconds
later posts the next question; after the last, the final ranking with the teacher's "Report"
button. The teacher pauses, closes the question or ends the round from the question message.
``auto: False`` keeps the manual round, moved on by the teacher's "Next".

The timers are asyncio tasks of the flow, one per running round, each sleeping until the round's
next step is due (``LiveState.due_at``, from the stored moments); ``arm_live_timers`` (at the
cog's load) arms them again from the database, so a restart mid-question closes it at its time,
or at once if that time went by while the bot was down. A timer and a click never take one step
twice: both go through the round's lock and its stored version (``LiveRounds.step`` takes a step
only when it is due). Tests replace the clock (``wall``) and take the due steps at once with
``run_due_live``.

A live round is no ``bot.ui.focus_run`` window and has no ``RoundOwner``: its questions are
posted in the channel for everyone, its state (answers, points, the clock of each question) is
the round's own row (``bot.play.focus_live``), saved after every change under the round's lock.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import datetime

import discord
from discord import app_commands

from bot import replies
from bot.domain import DomainError
from bot.flows import Flow
from bot.i18n import error_text, lang_for, t
from bot.play import focus as play
from bot.play.focus_live import (
    NEXT_DELAY,
    LiveAnswered,
    LiveRounds,
    LiveState,
    LiveStep,
    set_names,
)
from bot.play.live_report import live_report
from bot.play.year_skills import skill_offers
from bot.replies import interaction_data
from bot.services import ServicedBot, Services
from bot.tree import report_error
from bot.ui.focus_live import (
    LIVE_FLOWS,
    LIVE_MODAL_PREFIX,
    LIVE_MODAL_TIMEOUT,
    LiveAnswerModal,
    closed_embed,
    final_message,
    live_embed,
    live_view,
    report_files,
)
from bot.ui.focus_run import typed_value
from bot.ui.members import KnownNames
from bot.ui.teachers import teaches
from bot.views import component_int
from db import StaleVersion

log = logging.getLogger(__name__)


class LiveFlow(Flow):
    """The live rounds' conductor (``LiveFlows``), and what every Focus flow shares: the clocks
    and the names of the members seen."""

    def __init__(self, bot: ServicedBot, services: Services) -> None:
        super().__init__(bot, services)
        services.kept.put(LIVE_FLOWS, self)
        self.live_rounds = LiveRounds(services.db, now=lambda: self.now(),
                                      wall=lambda: self.wall(),
                                      shared=services.settings.runs_shards)
        # Names of the members seen, for every Focus round: the bot keeps no member cache
        # (docs/bot.md), so a name is remembered when its member acts, else fetched once.
        self._names = KnownNames(services.db)  # a web student: "Léa (web)"
        #: The live answer modals opened in this process, by (live id, question number, member):
        #: until when their submission is taken (later, or after a restart: "expired").
        self._live_modals: dict[tuple[int, int, int], float] = {}
        #: The live rounds' timers, by round: when the next step is due, and its task.
        self._live_timers: dict[int, tuple[float, asyncio.Task[None]]] = {}

    # The services' clocks (bot/services.py Clocks), read and replaced here as well: a test
    # moves the Focus's time or fixes its seed with ``focus.flow.now = …``.
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

    def _remember_name(self, interaction: discord.Interaction) -> str:
        return self._names.learn(interaction.guild_id, interaction.user)

    async def member_name(self, guild: discord.Guild, user_id: int, lang: str) -> str:
        known = await self._names.names(guild, [user_id], lang)
        return known.get(user_id, t("focus.someone", lang))

    # --- /focus live ------------------------------------------------------------------------

    async def live(self, interaction: discord.Interaction, count: int | None, level: int | None,
                   seconds: int, set_name: str | None, auto: bool, skill: str | None = None
                   ) -> None:
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None
        settings = await play.server_settings(self.services.db, guild_id)
        live = await self.live_rounds.start(
            settings, interaction.channel_id, interaction.user.id,
            self._remember_name(interaction), lang, teaches=teaches(interaction, settings),
            count=count, level=level, seconds=float(seconds), seed=self.seed(), auto=auto,
            set_name=set_name, skills=skill)
        # Every timer is armed before the answer that shows its change: what the member does
        # next (or a test moving the clock) comes after.
        await self._rearm(live.live_id)
        # Under the round's lock: its first step (the timer, or the teacher's click) waits until
        # the round knows which message to edit.
        async with self.live_rounds.lock(live.live_id):
            sent = await replies.respond(interaction, embed=live_embed(live),
                                         view=live_view(live))
            if live.auto:
                # Discord's answer names the message (no second request for it).
                message_id = getattr(sent, "message_id", None)
                if message_id is None:
                    message_id = (await interaction.original_response()).id
                await self.live_rounds.posted(live.live_id, 1, message_id, locked=True)

    async def live_sets(self, interaction: discord.Interaction, current: str
                        ) -> list[app_commands.Choice[str]]:
        """The server's question sets containing what was typed (for teachers: the cog's
        ``teachers_choices`` offers nothing to the others)."""
        assert interaction.guild_id is not None
        typed = current.strip().casefold()
        names = [n for n in await set_names(self.services.db, interaction.guild_id)
                 if typed in n.casefold()]
        return replies.fit_choices(app_commands.Choice(name=n, value=n) for n in names[:25])

    async def live_skills(self, interaction: discord.Interaction, current: str
                          ) -> list[app_commands.Choice[str]]:
        """``skill:``'s continuations, the server's school year's skills named in the member's
        language (``bot.play.year_skills``; for teachers, as ``live_sets``)."""
        assert interaction.guild_id is not None
        offers = await skill_offers(self.services.db, interaction.guild_id, current,
                                    await lang_for(interaction))
        return replies.fit_choices(app_commands.Choice(name=name, value=value)
                                   for name, value in offers)

    # --- Answers --------------------------------------------------------------------------

    async def open_live_answer(self, interaction: discord.Interaction, live_id: int,
                               number: int) -> None:
        question = await self.live_rounds.answerable(live_id, number, interaction.user.id,
                                                     self._remember_name(interaction))
        lang = await lang_for(interaction)
        now = time.monotonic()
        self._live_modals = {k: v for k, v in self._live_modals.items() if v >= now}
        self._live_modals[(live_id, number, interaction.user.id)] = now + LIVE_MODAL_TIMEOUT
        await self._rearm(live_id)  # a student who joined holds back an early close
        await replies.modal(interaction, LiveAnswerModal(live_id, number, question, lang))

    async def take_live_submission(self, interaction: discord.Interaction) -> None:
        """Take a live answer modal's submission: the answer, if this process opened that modal
        for this member and its time is not over; else the "expired" sentence."""
        custom_id = str(interaction_data(interaction).get("custom_id", ""))
        if not custom_id.startswith(LIVE_MODAL_PREFIX):
            return
        try:
            key = None
            parts = custom_id[len(LIVE_MODAL_PREFIX):].split(":")
            if len(parts) == 2:
                try:
                    key = (component_int(parts[0], 1, 2**63 - 1),
                           component_int(parts[1], 1, 1000), interaction.user.id)
                except DomainError:
                    key = None
            deadline = None if key is None else self._live_modals.pop(key, None)
            if key is None or deadline is None or deadline < time.monotonic():
                lang = await lang_for(interaction)
                await replies.respond(interaction, t("focus.expired.live", lang), ephemeral=True)
                return
            await self.live_answer(interaction, key[0], key[1],
                                   typed_value(interaction.data, "answer") or "")
        except Exception as error:  # as a modal would: the member reads what happened
            await report_error(interaction, error)

    async def live_answer(self, interaction: discord.Interaction, live_id: int, number: int,
                          typed: str) -> None:
        submitted = self.wall()
        lang = await lang_for(interaction)
        answered = await self.live_rounds.answer(live_id, number, interaction.user.id,
                                                 self._remember_name(interaction), typed,
                                                 submitted)
        if answered.unreadable is not None:
            text = t("focus.live.unreadable", lang, reason=error_text(answered.unreadable, lang))
        elif answered.correct:
            text = t("focus.live.right", lang, points=answered.points)
        else:
            text = t("focus.live.wrong", lang)
        await self._rearm(live_id)  # everyone answered: the question closes at once
        await replies.respond(interaction, text, ephemeral=True)

    async def web_answer(self, live_id: int, number: int, user_id: int, name: str,
                         typed: str) -> LiveAnswered:
        """A class room's answer (issue 30): the same round, timers, extra time and ranking as
        an answer typed in the modal. The modal's two steps are one here: the page's form is
        the modal, so the answer itself joins the student to the round (``LiveRound.answer``
        adds them) under the same refusals: the question closed or paused, already answered,
        their own window over (a web student is never the teacher: their id is negative). An
        unreadable answer changes nothing, not even a join. Then, as after the modal, the timer
        is armed again: everyone taking part has answered, the question closes at once."""
        submitted = self.wall()
        answered = await self.live_rounds.answer(live_id, number, user_id, name, typed,
                                                 submitted)
        if answered.unreadable is None:
            await self._rearm(live_id)
        return answered

    def watch_live(self, listener: Callable[[LiveState], None]) -> Callable[[], None]:
        """Call ``listener`` with every live state this process saves (``LiveRounds.watch``):
        the class rooms' pages are told at once."""
        return self.live_rounds.watch(listener)

    # --- The teacher's controls -----------------------------------------------------------

    async def live_next(self, interaction: discord.Interaction, live_id: int, number: int
                        ) -> None:
        """A manual round: close the question, show the next one (or the final ranking)."""
        step = await self.live_rounds.next(live_id, number, interaction.user.id)
        assert step.closed is not None
        await replies.update(interaction, view=None,
                             embed=closed_embed(step.closed, step.live, step.game, step.final))
        if step.final is None:
            await replies.followup(interaction, embed=live_embed(step.live),
                                   view=live_view(step.live))
            return
        await replies.followup(interaction, **await final_message(step))

    async def live_pause(self, interaction: discord.Interaction, live_id: int, number: int
                         ) -> None:
        live = await self.live_rounds.pause(live_id, number, interaction.user.id)
        await self._rearm(live_id)
        await replies.update(interaction, embed=live_embed(live), view=live_view(live))

    async def live_skip(self, interaction: discord.Interaction, live_id: int, number: int
                        ) -> None:
        await self._closed_by_teacher(
            interaction, await self.live_rounds.skip(live_id, number, interaction.user.id))

    async def live_end(self, interaction: discord.Interaction, live_id: int, number: int
                       ) -> None:
        await self._closed_by_teacher(
            interaction, await self.live_rounds.end(live_id, number, interaction.user.id))

    async def _closed_by_teacher(self, interaction: discord.Interaction, step: LiveStep) -> None:
        assert step.closed is not None
        await self._rearm(step.live.live_id)
        await replies.update(interaction, view=None,
                             embed=closed_embed(step.closed, step.live, step.game, step.final))
        if step.final is not None:
            await replies.followup(interaction, **await final_message(step))

    # --- The report -----------------------------------------------------------------------

    async def live_report(self, interaction: discord.Interaction, live_id: int) -> None:
        """The teacher's report of a round: the table as a picture, and the CSV (ephemeral)."""
        report = await live_report(self.services.db, live_id, interaction.user.id)
        lang = await lang_for(interaction)
        if not report.rows:
            await replies.respond(interaction, t("live.report.empty", lang), ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        guild = interaction.guild
        assert guild is not None
        names = dict(zip([r.user_id for r in report.rows], await asyncio.gather(
            *(self.member_name(guild, r.user_id, lang) for r in report.rows)), strict=True))
        await replies.followup(interaction, t("live.report.text", lang), ephemeral=True,
                               files=await report_files(report, names, lang))

    # --- Timers ---------------------------------------------------------------------------

    def live_timers(self) -> dict[int, float]:
        """The armed timers: each running round's next step, when it is due (``wall()``)."""
        return {live_id: at for live_id, (at, _) in self._live_timers.items()}

    async def arm_live_timers(self) -> dict[int, float]:
        """Arm a timer for every running self-running round, from its stored state (at start,
        after a restart)."""
        due = await self.live_rounds.active_timers(self.services.owns)
        for live_id, at in due.items():
            self._arm(live_id, at)
        return due

    def stop_live_timers(self) -> None:
        for _, task in self._live_timers.values():
            task.cancel()
        self._live_timers.clear()

    def _arm(self, live_id: int, at: float | None) -> None:
        old = self._live_timers.pop(live_id, None)
        if old is not None and old[1] is not asyncio.current_task():
            old[1].cancel()
        if at is not None:
            # The wait is measured now, on the event loop's own clock: a clock a test replaces
            # (wall) moves only when the test says, and the test then takes the due steps.
            wake = asyncio.get_running_loop().time() + max(0.0, at - self.wall())
            self._live_timers[live_id] = (at, asyncio.create_task(
                self._live_timer(live_id, wake), name=f"focus-live-{live_id}"))

    async def _rearm(self, live_id: int) -> None:
        self._arm(live_id, await self.live_rounds.due(live_id))

    async def _live_timer(self, live_id: int, wake: float) -> None:
        await self.bot.wait_until_ready()
        await asyncio.sleep(max(0.0, wake - asyncio.get_running_loop().time()))
        entry = self._live_timers.get(live_id)
        if entry is not None and entry[1] is asyncio.current_task():
            del self._live_timers[live_id]  # this task is done waiting: _arm must not cancel it
        await self.run_live_step(live_id)

    async def run_due_live(self) -> list[int]:
        """Take at once, once each, the steps of the armed rounds that are due by ``wall()``
        (what their timers do when the moment comes); the rounds that moved on."""
        moved = []
        for live_id, at in self.live_timers().items():
            if at <= self.wall() and await self.run_live_step(live_id):
                moved.append(live_id)
        return moved

    async def run_live_step(self, live_id: int) -> bool:
        """The round's step if it is due (close the question, or post the next one), shown in
        its channel; the timer armed again for the next step. Whether a step was taken."""
        try:
            step = await self.live_rounds.step(live_id)
            if step is not None:
                await self._show_step(step)
            await self._rearm(live_id)
        except StaleVersion:
            # Another process sharing the database (a class room's answer taken there, its
            # timer) took a step of this round at the same moment: the stored round stands.
            await self._rearm(live_id)
            return False
        except Exception:
            log.exception("the live round %s could not move on", live_id)
            # Try again a little later, from the stored state (a failed save dropped the copy
            # in memory), never at once in a loop.
            try:
                due = await self.live_rounds.due(live_id)
            except Exception:
                due = None
            self._arm(live_id, None if due is None else max(due, self.wall() + NEXT_DELAY))
            return False
        return step is not None

    def _channel(self, live: LiveState) -> discord.PartialMessageable:
        assert live.channel_id is not None
        return self.bot.get_partial_messageable(live.channel_id, guild_id=live.guild_id)

    async def _show_step(self, step: LiveStep) -> None:
        live = step.final or step.live
        if live.channel_id is None:
            return
        channel = self._channel(live)
        if step.closed is not None and step.message_id is not None:
            try:
                await replies.edit(channel.get_partial_message(step.message_id), view=None,
                                   embed=closed_embed(step.closed, step.live, step.game,
                                                      step.final))
            except discord.HTTPException as failure:  # deleted: the round goes on
                log.warning("cannot edit live round %s's question: %s", live.live_id, failure)
        if step.final is not None:
            await replies.post(channel, **await final_message(step))
        elif step.opened:
            message = await replies.post(channel, embed=live_embed(step.live),
                                         view=live_view(step.live))
            await self.live_rounds.posted(live.live_id, step.game.index + 1, message.id)
