"""``/class assign``, ``/class assignments`` and ``/class report assignment:<name>``: homework.

A mixin of the ``/class`` group's cog (``cogs/classroom.py``). A teacher sets a Focus set (a
level, a topic or one of their question sets) due at a moment in the server's time zone, for
everyone or a role; the post carries a persistent "Do the assignment" button (``DoAssignment``);
each student takes it once, one question at a time (``bot.ui.focus_run``), each answer stored as
it is given, so that an attempt interrupted (window closed, bot restarted) goes on where it
stopped. A background task closes the posts' buttons after their due date (restart-safe: the
database says which posts are still open). The use cases are ``bot.play.assignments``.

Clocks and chance are methods that tests replace on the cog: ``assign_now()`` (an aware
datetime) and ``assign_seed()`` (the questions' draw).
"""

from __future__ import annotations

import asyncio
import io
import logging
import secrets
import time
from collections.abc import Sequence
from datetime import UTC, datetime

import discord
from discord import app_commands

from bot import replies
from bot.domain import DomainError
from bot.focus import TOPICS, Answer, FocusRound
from bot.i18n import lang_for, t
from bot.play import assignments as play
from bot.ui.assignments import (
    DoAssignment,
    assignment_key,
    list_embed,
    post_embed,
    post_view,
    report_embed,
    report_people,
    when_text,
)
from bot.ui.focus_run import (
    MODAL_PREFIX,
    FocusRun,
    RoundButton,
    close_run,
    get_run,
    start_focus,
    stored_answer,
    summary_embed,
    take_submission,
)
from bot.ui.teachers import role_ids, teachers_choices
from bot.views import Route
from cogs import ArdoiseCog

log = logging.getLogger(__name__)

CLOSE_CHECK_SECONDS = 60.0
#: The ``set`` option's texts (its Python name is ``question_set``: ``set`` is a builtin).
_SET_KEY = "commands.class.assign.params.set"


def _choices(pairs: Sequence[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    folded = current.casefold().strip()
    return replies.fit_choices(app_commands.Choice(name=name, value=value)
                               for name, value in pairs if folded in name.casefold())


class ClassAssign(ArdoiseCog):
    """The homework commands; ``Classroom`` inherits them (``self.bot`` is the cog's)."""

    #: The persistent items of homework (``Classroom.persistent_items`` lists them).
    ASSIGN_ITEMS = (DoAssignment, RoundButton)
    #: Whether the background task closes the past-due posts (tests call
    #: ``close_due_assignments`` themselves, or let a restarted bot's task do it).
    assign_autoclose = True
    _assign_task: asyncio.Task[None] | None = None

    def assign_now(self) -> datetime:
        return datetime.now(UTC)

    def assign_seed(self) -> int:
        return secrets.randbits(64)

    async def cog_load(self) -> None:
        await super().cog_load()
        self._assign_task = asyncio.create_task(self._close_loop(), name="class-assign-close")

    async def cog_unload(self) -> None:
        if self._assign_task is not None:
            self._assign_task.cancel()
            self._assign_task = None
        await super().cog_unload()

    def routes(self) -> Sequence[Route]:
        # The answers of an assignment's rounds (the Focus rounds' modals, whichever cog runs
        # the round: one route, bot.ui.focus_run.take_submission).
        return (*super().routes(), Route("modal", MODAL_PREFIX, take_submission))

    # --- /class assign --------------------------------------------------------------------

    @app_commands.command(name="assign", description="Set homework: Focus questions due at a "
                                                     "date, for everyone or a role")
    @app_commands.describe(
        name="Its name, unique on this server", due="Due date and time (server's time zone), "
        "e.g. 2026-12-08 18:00 or 08/12/2026 18h00; a date alone is 23:59",
        level="Questions of this level (1 to 8)", topic="Questions of this topic",
        question_set=app_commands.locale_str("Questions of one of your question sets",
                                             key=f"{_SET_KEY}.description"),
        count="How many questions (1 to 20, 6 by default)", role="Only for this role")
    @app_commands.rename(question_set=app_commands.locale_str("set", key=f"{_SET_KEY}.name"))
    @app_commands.choices(topic=[
        app_commands.Choice(name=app_commands.locale_str(t(f"focus.topics.{topic}", "en"),
                                                         key=f"focus.topics.{topic}"),
                            value=topic) for topic in TOPICS])
    async def assign(self, interaction: discord.Interaction,
                     name: app_commands.Range[str, 1, play.NAME_LENGTH], due: str,
                     level: app_commands.Range[int, 1, 8] | None = None,
                     topic: str | None = None, question_set: str | None = None,
                     count: app_commands.Range[int, 1, play.MAX_COUNT] = play.DEFAULT_COUNT,
                     role: discord.Role | None = None) -> None:
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None and interaction.channel_id is not None
        # @everyone is everyone
        role_id = None if role is None or role.id == guild_id else role.id
        draft = play.Draft(name=name, due=due, level=level, topic=topic, set_name=question_set,
                           count=count, role_id=role_id, lang=lang)
        made = await play.create_assignment(self.services.db, guild_id, interaction.user.id, draft,
                                            self.assign_now(), self.assign_seed())
        zone = await play.server_zone(self.services.db, guild_id)
        try:
            sent = await replies.respond(interaction, embed=post_embed(made, zone, lang),
                                         view=post_view(made, lang))
        except discord.HTTPException:
            await play.withdraw(self.services.db, made.assignment_id)
            raise
        await play.posted(self.services.db, made.assignment_id, interaction.channel_id,
                          sent.message_id)

    @assign.autocomplete("due")
    @teachers_choices
    async def assign_due(self, interaction: discord.Interaction, current: str
                         ) -> list[app_commands.Choice[str]]:
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        zone = await play.server_zone(self.services.db, interaction.guild_id)
        return replies.fit_choices(
            app_commands.Choice(name=when_text(due, zone, lang), value=value)
            for due, value in play.due_choices(current, zone, self.assign_now()))

    @assign.autocomplete("question_set")
    @teachers_choices
    async def assign_set(self, interaction: discord.Interaction, current: str
                         ) -> list[app_commands.Choice[str]]:
        assert interaction.guild_id is not None
        names = await play.set_names(self.services.db, interaction.guild_id)
        return _choices([(n, n) for n in names], current)

    # --- The button -----------------------------------------------------------------------

    async def take_assignment(self, interaction: discord.Interaction, assignment_id: int
                              ) -> None:
        lang = await lang_for(interaction)
        guild_id, user_id = interaction.guild_id, interaction.user.id
        assert guild_id is not None
        zone = await play.server_zone(self.services.db, guild_id)

        def open_round(aid: int) -> FocusRound | None:
            run = get_run(self.bot, assignment_key(aid, user_id))
            return None if run is None else run.round

        start = await play.take(self.services.db, assignment_id, guild_id, user_id,
                                role_ids(interaction.user), self.assign_now(),
                                lambda moment: when_text(moment, zone, lang), open_round)
        made = start.assignment
        await start_focus(interaction, start.round, lang, on_done=self._assignment_done,
                          kind="assignment", key=assignment_key(made.assignment_id, user_id),
                          title=t("class.assign.run_title", lang,
                                  name=replies.shown_name(made.name, play.NAME_LENGTH)),
                          record=False,
                          on_answer=self._record_assignment_answer,
                          data={"assignment": made.assignment_id},
                          round_key=play.round_key(made.assignment_id))

    async def _record_assignment_answer(self, run: FocusRun, answer: Answer) -> None:
        # Stored at once so that an interrupted attempt goes on where it stopped; the last one
        # is stored with the score instead (_assignment_done), in one transaction.
        index = len(run.round.answers)
        if index + 1 < len(run.round.questions):
            try:
                await play.record_answer(self.services.db, run.data["assignment"],
                                         stored_answer(run, answer, index), self.assign_now())
            except DomainError:
                # The attempt is gone (its member erased): the answers held here go too.
                close_run(run)
                raise

    async def _assignment_done(self, interaction: discord.Interaction, run: FocusRun) -> None:
        answers = [stored_answer(run, a, i) for i, a in enumerate(run.round.answers)]
        finished = await play.finish(self.services.db, run.data["assignment"], run.user_id,
                                     run.round.questions, answers, self.assign_now())
        run.round = finished.round  # what is stored, should another window have stored first
        await replies.update(interaction, embed=summary_embed(run.round, run.lang, run.title),
                             view=None)

    # --- Closing the posts after their due date -----------------------------------------------

    async def _close_loop(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                if self.assign_autoclose:
                    await self.close_due_assignments(self.assign_now())
            except Exception:
                log.exception("closing the past-due assignments failed")
            await asyncio.sleep(CLOSE_CHECK_SECONDS - time.time() % CLOSE_CHECK_SECONDS)

    async def close_due_assignments(self, now: datetime) -> list[int]:
        """Turn the button of every post past its due date into a disabled "Closed" (the
        database remembers which are done); the assignments closed."""
        done: list[int] = []
        for made in await play.to_close(self.services.db, now, self.services.owns):
            if self.bot.get_guild(made.guild_id) is None:
                continue  # another process's server, or one the bot left
            assert made.channel_id is not None and made.message_id is not None
            zone = await play.server_zone(self.services.db, made.guild_id)
            message = self.bot.get_partial_messageable(
                made.channel_id, guild_id=made.guild_id).get_partial_message(made.message_id)
            try:
                await replies.edit(message, embed=post_embed(made, zone, made.lang, closed=True),
                                   view=post_view(made, made.lang, closed=True))
            except (discord.NotFound, discord.Forbidden) as gone:
                log.warning("cannot close the post of assignment %s: %s", made.assignment_id,
                            gone)  # deleted, or no access: nothing left to close
            except discord.HTTPException:
                log.exception("closing the post of assignment %s failed; trying again later",
                              made.assignment_id)
                continue
            await play.closed(self.services.db, made.assignment_id, now)
            done.append(made.assignment_id)
        return done

    # --- /class assignments -----------------------------------------------------------------

    @app_commands.command(name="assignments", description="This server's assignments: due "
                                                          "dates, who has done them")
    async def assignments(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        found = await play.server_assignments(self.services.db, interaction.guild_id)
        zone = await play.server_zone(self.services.db, interaction.guild_id)
        await replies.respond(interaction, embed=list_embed(found, self.assign_now(), zone, lang),
                              ephemeral=True)

    # --- /class report assignment:<name> ------------------------------------------------------

    async def assignment_choices(self, interaction: discord.Interaction, current: str
                                 ) -> list[app_commands.Choice[str]]:
        assert interaction.guild_id is not None
        names = await play.assignment_names(self.services.db, interaction.guild_id)
        return _choices([(n, n) for n in names], current)

    async def assignment_report(self, interaction: discord.Interaction, name: str, *,
                                pseudonym: bool) -> None:
        lang = await lang_for(interaction)
        guild = interaction.guild
        assert guild is not None
        report = await play.report(self.services.db, guild.id, name)
        await interaction.response.defer(ephemeral=True, thinking=True)
        names, missing = await report_people(guild, report, lang, pseudonym=pseudonym)
        sheet = await asyncio.to_thread(play.report_csv, report, names, missing, lang)
        filename = t("class.assign.report.filename", lang, id=report.assignment.assignment_id)
        await replies.followup(interaction, embed=report_embed(report, names, missing, lang),
                               file=discord.File(io.BytesIO(sheet), filename=filename,
                                                 description=t("alt.csv", lang, what=name)),
                               ephemeral=True)
