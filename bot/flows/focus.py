"""The Focus conductor: ``/focus practice`` (at the member's level, or from a teacher's set),
``/focus daily`` and the daily post, ``/focus leaderboard``, and the live class rounds
(``/focus live``: ``bot.flows.focus_live``, the base of this flow); and a student's round of an
assignment (``take_assignment``: the post and its button are the classroom's, ``/class assign``,
whose conductor hands the click over with its clock).

One protocol for a round's owner. A member's round is a ``bot.ui.focus_run`` window, whatever
its kind; the window calls nothing but its ``RoundOwner``: ``answered`` (store a marked answer
before the member sees it) and ``finished`` (the score, the corrections, the follow-ups). Each
kind is one owner here, its whole story in one place:

- ``PracticeRound``: each answer stored as it is given, with the mastery it updates; at the end
  the level it moves (``bot.focus.next_level``) and "another round".
- ``SetRound``: a teacher's set; each answer stored as it is given; the level does not move.
- ``DailyRound``: the same six questions for every member on a date, one attempt each; each
  answer stored as it is given, keyed by the day and its question (an attempt interrupted goes on
  where it stopped), the last one with the score in one transaction; the streak and the rank.
- ``AssignmentRound``: homework, taken once; the same way, with the assignment's attempt.
- A match round's Focus is The 20 Digits' owner (``bot.flows.digits``); a live round is no
  window of one member (``bot.flows.focus_live`` says why).

The daily post: ``post_due_dailies(now)`` posts each due server's challenge in its channel with a
persistent "Take today's challenge" button; a background task calls it every minute.

The leaderboard: today's ranking as an image (``images.render_leaderboard``) and the member's
streak. Extra time counts fairly in it, and a student a teacher made anonymous or hidden
(``/class student``, ``bot.play.students``) is "a student" or left out of the picture; asking,
they read their own place in words only they see.

Clocks and chance are the services' (``now``, ``wall``, ``seed`` here, which tests replace:
``focus.flow.now = …``); the practice and daily answer times come from
``bot.ui.focus_run.clock``. The use cases are ``bot.play.focus``, ``bot.play.question_sets`` and
``bot.play.assignments``; the presentation ``bot.ui.focus``, ``bot.ui.focus_run``,
``bot.ui.question_sets``.
"""

from __future__ import annotations

import asyncio
import io
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from datetime import date, datetime

import discord
from discord import app_commands

from bot import replies
from bot.domain import DomainError
from bot.flows.focus_live import LiveFlow
from bot.flows.placement import OFFER_PREFIX, PlacementConductor
from bot.focus import ROUND_SIZE, Answer, FocusRound
from bot.focus.daily import daily_levels
from bot.focus.mastery import Mastery
from bot.i18n import image_words, lang_for, lang_from_locale, t
from bot.play import assignments as assignments_play
from bot.play import focus as play
from bot.play import question_sets as sets_play
from bot.replies import shown_name
from bot.services import ServicedBot, Services
from bot.ui import alt_text
from bot.ui.assignments import (
    ASSIGNMENT_FLOWS,
    assignment_key,
    goal_progress,
    goal_summary_embed,
    when_text,
)
from bot.ui.focus import (
    FOCUS_FLOWS,
    RANKING_LINES,
    again_view,
    daily_embed,
    daily_key,
    daily_post,
    date_text,
    own_place,
    practice_embed,
    streak_line,
)
from bot.ui.focus_live import LIVE_MODAL_PREFIX
from bot.ui.focus_run import (
    BUTTON_PREFIX,
    MODAL_PREFIX,
    FocusRun,
    close_run,
    get_run,
    say_button_expired,
    start_focus,
    stored_answer,
    summary_embed,
    take_submission,
)
from bot.ui.placement import PLACEMENT_FLOWS
from bot.ui.question_sets import refuse_level_and_set, set_round_end, set_round_title
from bot.ui.teachers import role_ids
from bot.views import Route
from db import Database, ServerSettings
from images import render_leaderboard

log = logging.getLogger(__name__)

DAILY_CHECK_SECONDS = 60.0


# --- The rounds' owners (bot.ui.focus_run.RoundOwner) ---------------------------------------


class PracticeRound:
    """A practice round at a level: each answer stored at once, stamped with the flow's clock
    (the mastery's reviews, due after 1, 3, 7, 21 days, follow one clock, which a test can
    replace); at the end the level it moves and "another round"."""

    def __init__(self, flow: FocusFlow, level: int, own: int, mastery: Mastery | None) -> None:
        self.flow = flow
        self.level = level
        self.own = own
        self.mastery = mastery

    async def answered(self, run: FocusRun, answer: Answer) -> None:
        await play.record_answer(self.flow.services.db,
                                 stored_answer(run, answer, len(run.round.answers)),
                                 now=self.flow.now(), newcomer=False, known=self.mastery)

    async def finished(self, interaction: discord.Interaction, run: FocusRun) -> None:
        end = await play.end_practice(self.flow.services.db, run.guild_id, run.user_id,
                                      self.level, self.own, run.round.questions, run.round_key)
        run.round = end.round  # what is stored
        await replies.update(interaction, embed=practice_embed(run, end.advice),
                             view=again_view(interaction, run.lang, run.window))


class SetRound:
    """A practice round from a teacher's set: each answer stored at once; the level does not
    move (a set has none); at the end "another round from this set"."""

    def __init__(self, flow: FocusFlow, name: str) -> None:
        self.flow = flow
        self.name = name

    async def answered(self, run: FocusRun, answer: Answer) -> None:
        await play.record_answer(self.flow.services.db,
                                 stored_answer(run, answer, len(run.round.answers)),
                                 newcomer=False)

    async def finished(self, interaction: discord.Interaction, run: FocusRun) -> None:
        # What is stored (each answer was, as it was given), as every round's end shows.
        run.round = await play.round_as_stored(self.flow.services.db, run.guild_id, run.user_id,
                                               run.round.questions, run.round_key)

        async def again(clicked: discord.Interaction) -> None:
            await self.flow.start_set_round(clicked, self.name, in_place=True)

        await replies.update(interaction, **set_round_end(interaction, run, again))


class DailyRound:
    """A member's attempt at the daily challenge of ``day``."""

    def __init__(self, flow: FocusFlow, day: date, mastery: Mastery | None) -> None:
        self.flow = flow
        self.day = day
        self.mastery = mastery

    async def answered(self, run: FocusRun, answer: Answer) -> None:
        # Stored at once (not only at the end) so that an interrupted attempt goes on where it
        # stopped; stamped with the flow's clock. The last answer is stored with the attempt's
        # score instead (finished), in one transaction.
        index = len(run.round.answers)
        if index + 1 < len(run.round.questions):
            await play.record_answer(self.flow.services.db, stored_answer(run, answer, index),
                                     now=self.flow.now(), newcomer=False, known=self.mastery)

    async def finished(self, interaction: discord.Interaction, run: FocusRun) -> None:
        answers = [stored_answer(run, a, i) for i, a in enumerate(run.round.answers)]
        result = await play.finish_daily(self.flow.services.db, run.guild_id, run.user_id,
                                         self.day, run.round.questions, answers,
                                         self.flow.now())
        run.round = result.round  # what is stored, should another window have stored first
        await replies.update(interaction, embed=daily_embed(run, self.day, result), view=None)


class AssignmentRound:
    """A student's attempt at an assignment, on the classroom's clock (``now``: the due dates
    are the teacher's, ``/class assign``)."""

    def __init__(self, db: Database, assignment_id: int, now: Callable[[], datetime],
                 assignment: assignments_play.Assignment | None = None) -> None:
        self.db = db
        self.assignment_id = assignment_id
        self.now = now
        #: An assignment with a goal (``bot.focus.goals``): its questions come as it goes.
        self.assignment = assignment if assignment is not None and assignment.goal else None

    async def answered(self, run: FocusRun, answer: Answer) -> None:
        # Stored at once so that an interrupted attempt goes on where it stopped; the last one
        # is stored with the score instead (finished), in one transaction.
        index = len(run.round.answers)
        if self.assignment is not None:
            await self._towards_goal(run, answer, index)
            return
        if index + 1 < len(run.round.questions):
            try:
                await assignments_play.record_answer(self.db, self.assignment_id,
                                                     stored_answer(run, answer, index),
                                                     self.now())
            except DomainError:
                # The attempt is gone (its member erased): the answers held here go too.
                close_run(run)
                raise

    async def _towards_goal(self, run: FocusRun, answer: Answer, index: int) -> None:
        """An answer of a goal's attempt: the last (the goal reached, or the most answers) is
        stored with the score (finished); any other is stored now and the next question comes
        (a fresh one of the same skill after a wrong answer)."""
        assert self.assignment is not None
        correct = [a.correct for a in run.round.answers] + [answer.correct]
        following = assignments_play.next_question(self.assignment, run.user_id, correct)
        if following is None:
            return
        try:
            await assignments_play.record_answer(self.db, self.assignment_id,
                                                 stored_answer(run, answer, index), self.now())
        except DomainError:
            close_run(run)  # the attempt is gone (its member erased)
            raise
        run.round.questions.append(following)
        goal = assignments_play.goal_of(self.assignment)
        assert goal is not None
        run.title = t("homework.run.title", run.lang, title=run.data["title"],
                      progress=goal_progress(goal, correct, run.lang))

    async def finished(self, interaction: discord.Interaction, run: FocusRun) -> None:
        answers = [stored_answer(run, a, i) for i, a in enumerate(run.round.answers)]
        done = await assignments_play.finish(self.db, self.assignment_id, run.user_id,
                                             run.round.questions, answers, self.now())
        run.round = done.round  # what is stored, should another window have stored first
        goal = None if self.assignment is None else assignments_play.goal_of(self.assignment)
        embed = (summary_embed(run.round, run.lang, run.title) if goal is None else
                 goal_summary_embed(run.round, goal, run.lang, run.data["title"]))
        await replies.update(interaction, embed=embed, view=None)


async def take_assignment(services: Services, interaction: discord.Interaction,
                          assignment_id: int, now: Callable[[], datetime]) -> None:
    """A student's click on an assignment's post (``bot.ui.assignments.DoAssignment``): their
    attempt, new or resumed where it stopped (the round still open in this process, else the
    answers stored), in a Focus window owned by ``AssignmentRound``. ``now``: the classroom's
    clock, which says whether the assignment is still open."""
    lang = await lang_for(interaction)
    guild_id, user_id = interaction.guild_id, interaction.user.id
    assert guild_id is not None
    db = services.db
    zone = await assignments_play.server_zone(db, guild_id)

    def open_round(aid: int) -> FocusRound | None:
        run = get_run(interaction.client, assignment_key(aid, user_id))
        return None if run is None else run.round

    start = await assignments_play.take(db, assignment_id, guild_id, user_id,
                                        role_ids(interaction.user), now(),
                                        lambda moment: when_text(moment, zone, lang), open_round)
    made = start.assignment
    title = t("class.assign.run_title", lang,
              name=shown_name(made.name, assignments_play.NAME_LENGTH))
    goal = assignments_play.goal_of(made)
    if goal is not None:  # where they are on the way, from the first question
        title = t("homework.run.title", lang, title=title, progress=goal_progress(
            goal, [a.correct for a in start.round.answers], lang))
    await start_focus(interaction, start.round, lang,
                      owner=AssignmentRound(db, made.assignment_id, now, made),
                      kind="assignment", key=assignment_key(made.assignment_id, user_id),
                      title=title,
                      data={"assignment": made.assignment_id, "open_ended": goal is not None,
                            "title": t("class.assign.run_title", lang, name=shown_name(
                                made.name, assignments_play.NAME_LENGTH))},
                      round_key=assignments_play.round_key(made.assignment_id))


# --- The conductor ------------------------------------------------------------------------


class FocusFlow(LiveFlow):
    """The ``/focus`` group's conductor (``FocusFlows`` for the daily post's and a round's
    buttons; ``LiveFlows`` for the live rounds', by its base)."""

    def __init__(self, bot: ServicedBot, services: Services) -> None:
        super().__init__(bot, services)
        services.kept.put(FOCUS_FLOWS, self)
        #: Placement (``bot.flows.placement``): the offer, its buttons, the class post's.
        self.placements = PlacementConductor(self)
        services.kept.put(PLACEMENT_FLOWS, self.placements)
        self._post_lock = asyncio.Lock()
        # A class's burst of /focus practice (200 at once in tools.load) reads and draws a few
        # rounds at a time, first come first served: all at once, every start took its hops in
        # step with the others and every window came at the end (260 ms for all, against a
        # median of 155 ms so). Only the reads and the draw: the reply's HTTP is not held.
        self._starting = asyncio.Semaphore(8)
        self._post_failed: set[tuple[int, date]] = set()
        self._daily_task: asyncio.Task[None] | None = None
        #: Whether the background task posts the daily challenges (tests call
        #: ``post_due_dailies`` themselves and turn it off).
        self.autopost = True

    async def load(self) -> None:
        """The cog is loaded: the daily posts' task starts, and the live rounds running when
        the bot stopped go on."""
        self._daily_task = asyncio.create_task(self._daily_loop(), name="focus-daily-posts")
        await self.arm_live_timers()

    def unload(self) -> None:
        self.stop_live_timers()
        if self._daily_task is not None:
            self._daily_task.cancel()
            self._daily_task = None

    def routes(self) -> Sequence[Route]:
        """Clicks reach their DynamicItems (RoundButton, the GameButtons); discord.py has no such
        route for modals. So the bot's one listener brings here what it routes nowhere: the
        submissions of the Focus rounds' modals (every kind's, whichever cog runs the round)
        and of the live rounds', and a click on a Focus button its message does not show (a
        modified client), which gets the sentence of an expired window."""
        return (Route("modal", MODAL_PREFIX, take_submission),
                Route("modal", LIVE_MODAL_PREFIX, self.take_live_submission),
                Route("click", BUTTON_PREFIX, say_button_expired),
                Route("click", OFFER_PREFIX, self.placements.take_forged_offer))

    # --- /focus practice ------------------------------------------------------------------

    async def practice(self, interaction: discord.Interaction, level: int | None,
                       set_name: str | None) -> None:
        """A round at the member's level (or ``level``), or from the teacher's set
        ``set_name`` (which has no level: both together are refused)."""
        if set_name is None:
            await self.start_practice(interaction, level)
        elif level is not None:
            raise refuse_level_and_set()
        else:
            await self.start_set_round(interaction, set_name)

    async def practice_sets(self, interaction: discord.Interaction, current: str
                            ) -> list[app_commands.Choice[str]]:
        """The server's set names containing what was typed (the ``set`` option)."""
        if interaction.guild_id is None:
            return []
        names = await sets_play.set_names(self.services.db, interaction.guild_id, current)
        return replies.fit_choices(app_commands.Choice(name=n, value=n) for n in names)

    async def start_practice(self, interaction: discord.Interaction, level: int | None,
                             *, in_place: bool = False, offer: bool = True) -> None:
        """A practice round; a new student on a server with a school year is offered a
        placement first (``offer``: ``/focus practice`` at their own level)."""
        if (offer and level is None and not in_place
                and await self.placements.offer_if_new(interaction)):
            return
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        async with self._starting:
            start = await play.start_practice(self.services.db, interaction.guild_id,
                                              interaction.user.id, level, self.seed(), self.now())
        await start_focus(interaction, start.questions, lang,
                          owner=PracticeRound(self, start.level, start.own, start.model),
                          kind="practice", title=t("focus.practice.title", lang),
                          in_place=in_place, data={"level": start.level, "own": start.own},
                          time_factor=start.time_factor)

    async def start_set_round(self, interaction: discord.Interaction, name: str, *,
                              in_place: bool = False) -> None:
        """Six questions of the set ``name`` in a Focus window; at the end the corrections and
        "another round from this set". The student's level does not move."""
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        practice = await sets_play.start_set_practice(self.services.db, interaction.guild_id,
                                                      name, self.seed(), interaction.user.id)
        found = practice.set
        await start_focus(interaction, practice.questions, lang,
                          owner=SetRound(self, found.name), kind="practice",
                          title=set_round_title(found.name, lang), in_place=in_place,
                          data={"set": found.set_id},
                          round_key=sets_play.set_round_key(found.set_id, secrets.token_hex(6)))

    async def placement(self, interaction: discord.Interaction) -> None:
        """``/focus placement``: find my level (again: once a week at most)."""
        await self.placements.again(interaction)

    # --- The daily challenge ----------------------------------------------------------------

    async def daily(self, interaction: discord.Interaction) -> None:
        await self.take_daily(interaction, None)

    async def take_daily(self, interaction: discord.Interaction, posted: date | None) -> None:
        """The member's attempt at today's challenge (``posted``: the day of the post whose
        button they clicked), new or resumed."""
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
        await start_focus(interaction, start.round, lang,
                          owner=DailyRound(self, day, start.model), kind="daily",
                          key=daily_key(guild_id, day, user_id),
                          title=t("focus.daily.title", lang, date=date_text(day, lang)),
                          data={"day": day.isoformat()}, round_key=play.daily_round_key(day),
                          time_factor=start.time_factor)

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
        levels = daily_levels(*play.daily_range(settings))
        return await replies.post(channel, **daily_post(guild.id, day, lang, levels[0],
                                                        levels[-1]))

    # --- /focus homework ----------------------------------------------------------------------

    async def homework(self, interaction: discord.Interaction) -> None:
        """The member's open assignments: the classroom's (its clock says which are open, its
        buttons' path opens them)."""
        await self.services.kept.get(ASSIGNMENT_FLOWS).homework(interaction)

    # --- /focus leaderboard -----------------------------------------------------------------

    async def leaderboard(self, interaction: discord.Interaction, show: bool) -> None:
        """Today's ranking as a picture and the member's streak; ``show``: for the channel."""
        lang = await lang_for(interaction)
        guild = interaction.guild
        assert guild is not None
        await interaction.response.defer(ephemeral=not show, thinking=True)
        me = interaction.user.id
        name = self._remember_name(interaction)
        daily = await play.daily_board(self.services.db, guild.id, me, self.now())
        day = daily.day
        line = streak_line(daily, me, name, lang)
        public = daily.public  # anonymous students as "a student", hidden ones left out
        private = own_place(daily, me, lang)
        if private is not None and not show:
            line = f"{line}\n{private}"
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
        if private is not None and show:  # their place for them alone
            await replies.followup(interaction, private, ephemeral=True)
