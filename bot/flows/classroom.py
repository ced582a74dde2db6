"""The conductor of ``/class`` (``cogs/classroom.py`` and its mixins ``cogs/_class_*.py``): the
teacher's tools.

- the class report (``bot.play.class_report``: a picture of a page and the CSV, privately; the
  pages live in ``bot.ui.class_report.report_windows``) and an assignment's report;
- one student's own settings (``bot.play.students``);
- question sets: upload (with "Keep the good questions" when lines are refused), list, show,
  delete (``bot.play.question_sets``), and the clicks of their buttons (``QUESTION_FLOWS``);
- homework (``bot.play.assignments``): the post and its "Do the assignment" button, the student's
  round (``ASSIGNMENT_FLOWS``, a Focus window of ``bot.ui.focus_run`` whose answers are stored as
  they are given, so an interrupted attempt goes on where it stopped), the list, a student's own
  list (``/focus homework``, handed over by the Focus flow), and the background task that closes
  the posts past their due date and posts the reminders (restart-safe: the database says which
  are still open, and which reminder is claimed);
- the end of the school year: the private question, then (``END_OF_YEAR_FLOWS``) the zip sent to
  the teacher and the students' data erased.

Only teachers: ``check`` is the cog's ``interaction_check``, ``bot.ui.teachers`` says who is one.
Clocks and chance are methods tests replace on the class (``assign_now``: an aware datetime;
``assign_seed``: the draw of an assignment's questions); ``assign_autoclose`` stops the closing
task's work (tests call ``close_due_assignments`` themselves).
"""

from __future__ import annotations

import asyncio
import io
import logging
import secrets
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot import replies
from bot.domain import DomainError
from bot.flows import Flow
from bot.flows import focus as focus_flow
from bot.flows import placement as placement_flow
from bot.flows import web_rooms as room_flow
from bot.i18n import lang_for, lang_from_locale, t
from bot.play import assignments as homework
from bot.play import class_report as reports
from bot.play import digest as digests
from bot.play import question_sets as questions
from bot.play import retention, year_skills
from bot.play import student_page as student_pages
from bot.play import students as student_rules
from bot.play import web_rooms as web_students
from bot.play.class_report import ClassReport
from bot.play.settings import server_settings
from bot.replies import shown_name
from bot.services import ServicedBot, Services
from bot.texts import decimal
from bot.ui import question_report
from bot.ui import student_page as student_picture
from bot.ui.assignments import (
    ASSIGNMENT_FLOWS,
    goal_text,
    homework_embed,
    homework_view,
    list_embed,
    not_finished,
    post_embed,
    post_view,
    reminder_messages,
    report_embed,
    report_people,
    when_text,
)
from bot.ui.class_report import ReportWindow, fetch_students, filter_lines, report_windows
from bot.ui.digest import DIGEST_FLOWS, digest_embed, digest_names, digest_view
from bot.ui.focus_run import (
    MODAL_PREFIX,
    take_submission,
)
from bot.ui.members import display_names, names_of, web_names
from bot.ui.question_sets import (
    QUESTION_FLOWS,
    QuestionsButton,
    delete_reply,
    pending_uploads,
    set_choices,
    show_reply,
    shown_text,
    stored_embed,
    upload_reply,
)
from bot.ui.question_sets import list_embed as sets_embed
from bot.ui.retention import END_OF_YEAR_FLOWS, current_members, end_of_year_question
from bot.ui.students import student_embed
from bot.ui.teachers import NotATeacher, is_teacher, member_teaches, role_ids, teachers_only
from bot.ui.web_rooms import web_name
from bot.views import Route, ensure_player
from db import Database

log = logging.getLogger(__name__)

#: How often the closing task looks for posts past their due date (on the minute).
CLOSE_CHECK_SECONDS = 60.0


def _choices(names: Sequence[str], current: str) -> list[app_commands.Choice[str]]:
    folded = current.casefold().strip()
    return replies.fit_choices(app_commands.Choice(name=name, value=name)
                               for name in names if folded in name.casefold())


class ClassroomFlow(Flow):
    """Every ``/class`` subcommand, the buttons they post, and the closing of past-due posts."""

    #: Whether the background task closes the past-due posts.
    assign_autoclose = True

    def __init__(self, bot: ServicedBot, services: Services) -> None:
        super().__init__(bot, services)
        self._close_task: asyncio.Task[None] | None = None
        # What the buttons posted by /class call back into (bot/ui never imports a flow).
        services.kept.put(ASSIGNMENT_FLOWS, self)
        services.kept.put(QUESTION_FLOWS, self)
        services.kept.put(END_OF_YEAR_FLOWS, self)
        services.kept.put(DIGEST_FLOWS, self)

    # --- Clocks, the task, the routes -----------------------------------------------------------

    def assign_now(self) -> datetime:
        """Homework's clock: due dates, answers' times, closing (a method, so that a test
        replaces it on the class for every bot it starts, restarted ones included)."""
        return datetime.now(UTC)

    def assign_seed(self) -> int:
        """The draw of a new assignment's questions (drawn once, at creation)."""
        return secrets.randbits(64)

    def start(self) -> None:
        self._close_task = asyncio.create_task(self._close_loop(), name="class-assign-close")

    def stop(self) -> None:
        if self._close_task is not None:
            self._close_task.cancel()
            self._close_task = None

    def routes(self) -> Sequence[Route]:
        # The answers of an assignment's rounds (the Focus rounds' modals, whichever cog runs
        # the round: one route, bot.ui.focus_run.take_submission).
        return (Route("modal", MODAL_PREFIX, take_submission),)

    async def check(self, interaction: discord.Interaction) -> bool:
        """Teachers only: anyone else is refused with a sentence naming what was asked."""
        if not await is_teacher(interaction):
            raise NotATeacher(teachers_only(interaction),
                              "only teachers (Manage Server or a teacher role) may do this")
        return True

    # --- /class report ----------------------------------------------------------------------------

    async def report(self, interaction: discord.Interaction, period: str, topic: str | None,
                     role: discord.Role | None, pseudonym: bool, assignment: str | None,
                     student: discord.Member | None = None,
                     web_student: str | None = None) -> None:
        """The class's report, or one assignment's when one is named, or one student's page: a
        member's, or a browser student's (``web_student``: their player id, as the choices
        give it) (one command, as teachers look for it)."""
        if student is not None and web_student is not None:
            raise DomainError("web_rooms.one_student", "a member or a web student, not both")
        if student is not None:
            await self.student_report(interaction, student.id, student.display_name, period,
                                      pseudonym=pseudonym)
        elif web_student is not None:
            assert interaction.guild_id is not None  # the group is guild-only
            lang = await lang_for(interaction)
            user_id, nickname = await web_students.student_named(
                self.services.db, interaction.guild_id, web_student)
            await self.student_report(interaction, user_id, web_name(nickname, lang), period,
                                      pseudonym=pseudonym)
        elif assignment is not None:
            await self.assignment_report(interaction, assignment, pseudonym=pseudonym)
        else:
            await self.class_report(interaction, period, topic, role, pseudonym=pseudonym)

    async def class_report(self, interaction: discord.Interaction, period: str,
                           topic: str | None, role: discord.Role | None, *,
                           pseudonym: bool) -> None:
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None  # the group is guild-only
        reports.check_period(period)  # before the deferral: refused privately, nothing done
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await reports.answered(self.services.db, guild_id, period, topic,
                                           pseudonym=pseudonym)
        students = await fetch_students(interaction.guild, data.user_ids, self.services.db,
                                        lang)
        keep = None if role is None else {
            uid for uid, student in students.items() if role.id in student.role_ids}
        report = reports.build(data, {uid: s.name for uid, s in students.items()}, lang,
                                    keep=keep, pseudonym=pseudonym)
        await self._send_report(interaction, report, lang, filter_lines(topic, role, lang))

    async def student_report(self, interaction: discord.Interaction, user_id: int, name: str,
                             period: str, *, pseudonym: bool) -> None:
        """One student's page (``bot.play.student_page``), a member's or a browser student's
        (``name``: their display name, or "Léa (web)"): a picture and a CSV, privately."""
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None  # the group is guild-only
        reports.check_period(period)
        await interaction.response.defer(ephemeral=True, thinking=True)
        if pseudonym:
            rank = await student_pages.pseudonym_rank(self.services.db, guild_id, user_id)
            name = t("class.report.pseudonym", lang, number=rank)
        page = await student_pages.student_page(self.services.db, guild_id, user_id, name,
                                                period)
        picture = await asyncio.to_thread(student_picture.png, page, lang)
        sheet = student_pages.page_csv(page, lang)
        title = t("reports.student.title", lang, name=name)
        await replies.followup(
            interaction, t("reports.student.text", lang, name=shown_name(name)),
            files=[discord.File(io.BytesIO(picture), filename="student.png", description=title),
                   discord.File(io.BytesIO(sheet), filename=student_pages.csv_name(page, lang),
                                description=t("alt.csv", lang, what=title))],
            ephemeral=True)

    async def _send_report(self, interaction: discord.Interaction,
                           report: ClassReport, lang: str,
                           filters: tuple[str, ...]) -> None:
        # After the command's deferral; the pages of a long report live in report_windows.
        csv = await asyncio.to_thread(reports.report_csv, report, lang)
        extra = await asyncio.to_thread(question_report.class_files, report, lang,
                                        t(f"class.periods.{report.period}", lang))
        window = ReportWindow(report, lang, interaction.user.id, interaction.user.display_name,
                              filters, csv, extra=extra)
        shown = await window.message()
        if shown["view"] is None:  # a follow-up takes no view rather than None
            del shown["view"]
        sent = await replies.followup(interaction, **shown, ephemeral=True)
        if report.pages > 1 and sent is not None:
            report_windows(interaction.client).show(sent.id, window)

    async def topic_choices(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        lang = await lang_for(interaction)
        found = await reports.topic_choices(self.services.db, interaction.guild_id,
                                                 current, lang)
        return replies.fit_choices(app_commands.Choice(name=name, value=value)
                                   for name, value in found)

    async def web_student_choices(self, interaction: discord.Interaction, current: str
                                  ) -> list[app_commands.Choice[str]]:
        """The server's browser students whose nickname holds what is typed: "Léa (web) · 5e B",
        the value their player id."""
        assert interaction.guild_id is not None
        return await room_flow.student_choices(self.services, interaction.guild_id, current,
                                               await lang_for(interaction))

    async def assignment_choices(self, interaction: discord.Interaction, current: str
                                 ) -> list[app_commands.Choice[str]]:
        assert interaction.guild_id is not None
        return _choices(await homework.assignment_names(self.services.db, interaction.guild_id),
                        current)

    async def assignment_report(self, interaction: discord.Interaction, name: str, *,
                                pseudonym: bool) -> None:
        lang = await lang_for(interaction)
        guild = interaction.guild
        assert guild is not None
        report = await homework.report(self.services.db, guild.id, name)
        await interaction.response.defer(ephemeral=True, thinking=True)
        names, missing = await report_people(guild, report, lang, pseudonym=pseudonym,
                                             db=self.services.db)
        sheet = await asyncio.to_thread(homework.report_csv, report, names, missing, lang)
        number = report.assignment.assignment_id
        filename = t("class.assign.report.filename", lang, id=number)
        stats = report.question_stats()
        title = t("reports.assignment_title", lang, name=report.assignment.name)
        subtitle = t("reports.subtitle", lang,
                     questions=t("reports.questions", lang, count=len(stats)),
                     answers=t("reports.answers", lang, count=sum(s.answers for s in stats)))
        if report.goal is not None:  # the picture says the goal and who reached it
            subtitle = t("homework.report.picture", lang, subtitle=subtitle,
                         goal=goal_text(report.goal, lang),
                         reached=sum(report.reached(a.user_id) for a in report.finished),
                         count=len(report.finished))
        picture = await asyncio.to_thread(question_report.png, stats, title, subtitle, lang)
        questions = question_report.questions_csv(stats, lang)
        await replies.followup(interaction, embed=report_embed(report, names, missing, lang),
                               files=[discord.File(io.BytesIO(sheet), filename=filename,
                                                   description=t("alt.csv", lang, what=name)),
                                      discord.File(io.BytesIO(picture),
                                                   filename=f"assignment-{number}-questions.png",
                                                   description=title),
                                      discord.File(io.BytesIO(questions),
                                                   filename=f"assignment-{number}-questions.csv",
                                                   description=t("alt.csv", lang, what=title))],
                               ephemeral=True)

    # --- /class assign, /class assignments ------------------------------------------------------

    async def assign(self, interaction: discord.Interaction, name: str, due: str,
                     level: int | None, topic: str | None, set_name: str | None, count: int,
                     role: discord.Role | None, skill: str | None = None,
                     reminder: int = homework.DEFAULT_REMINDER, goal: str | None = None
                     ) -> None:
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None and interaction.channel_id is not None
        # @everyone is everyone
        role_id = None if role is None or role.id == guild_id else role.id
        draft = homework.Draft(name=name, due=due, level=level, topic=topic, set_name=set_name,
                               skills=skill, count=count, role_id=role_id, lang=lang,
                               reminder=reminder, goal=goal)
        made = await homework.create_assignment(self.services.db, guild_id, interaction.user.id,
                                                draft, self.assign_now(), self.assign_seed())
        zone = await homework.server_zone(self.services.db, guild_id)
        try:
            sent = await replies.respond(interaction, embed=post_embed(made, zone, lang),
                                         view=post_view(made, lang))
        except discord.HTTPException:
            await homework.withdraw(self.services.db, made.assignment_id)
            raise
        await homework.posted(self.services.db, made.assignment_id, interaction.channel_id,
                              sent.message_id)

    async def due_choices(self, interaction: discord.Interaction, current: str
                          ) -> list[app_commands.Choice[str]]:
        """The due dates read from what was typed, said in the server's time zone."""
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        zone = await homework.server_zone(self.services.db, interaction.guild_id)
        return replies.fit_choices(
            app_commands.Choice(name=when_text(due, zone, lang), value=value)
            for due, value in homework.due_choices(current, zone, self.assign_now()))

    async def assign_set_choices(self, interaction: discord.Interaction, current: str
                                 ) -> list[app_commands.Choice[str]]:
        assert interaction.guild_id is not None
        return _choices(await homework.set_names(self.services.db, interaction.guild_id),
                        current)

    async def assign_skill_choices(self, interaction: discord.Interaction, current: str
                                   ) -> list[app_commands.Choice[str]]:
        """``skill:``'s continuations: the server's school year's skills, in the member's
        language (``bot.play.year_skills``)."""
        assert interaction.guild_id is not None
        offers = await year_skills.skill_offers(self.services.db, interaction.guild_id, current,
                                                await lang_for(interaction))
        return replies.fit_choices(app_commands.Choice(name=name, value=value)
                                   for name, value in offers)

    async def assign_topic_choices(self, interaction: discord.Interaction, current: str
                                   ) -> list[app_commands.Choice[str]]:
        """``topic:``: the eight levels' topics, or the school year's (its skills' topics)."""
        assert interaction.guild_id is not None
        offers = await year_skills.topic_offers(self.services.db, interaction.guild_id, current,
                                                await lang_for(interaction))
        return replies.fit_choices(app_commands.Choice(name=name, value=value)
                                   for name, value in offers)

    async def assignments(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        found = await homework.server_assignments(self.services.db, interaction.guild_id)
        zone = await homework.server_zone(self.services.db, interaction.guild_id)
        await replies.respond(interaction, embed=list_embed(found, self.assign_now(), zone, lang),
                              ephemeral=True)

    async def take_assignment(self, interaction: discord.Interaction, assignment_id: int
                              ) -> None:
        """A student's click on "Do the assignment" (``bot.ui.assignments.AssignmentFlows``):
        their round, new or where they left it — a Focus round, conducted by the Focus flow
        (its owner ``AssignmentRound``), on this classroom's clock (the due dates are ours)."""
        await focus_flow.take_assignment(self.services, interaction, assignment_id,
                                         self.assign_now)

    async def homework(self, interaction: discord.Interaction) -> None:
        """``/focus homework`` (``bot.ui.assignments.AssignmentFlows``): the member's open
        assignments on this server, privately, each not done with its button (the post's path:
        ``take_assignment``), on this classroom's clock."""
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None  # the Focus group is played in a server
        db = self.services.db
        items = await homework.homework_of(db, guild_id, interaction.user.id,
                                           role_ids(interaction.user), self.assign_now())
        zone = await homework.server_zone(db, guild_id)
        view = homework_view(items, interaction.user.id, lang)
        shown: dict[str, Any] = {"embed": homework_embed(items, zone, lang)}
        if view is not None:
            shown["view"] = view
        await replies.respond(interaction, ephemeral=True, **shown)

    async def _close_loop(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                if self.assign_autoclose:
                    await self.close_due_assignments(self.assign_now())
            except Exception:
                log.exception("closing the past-due assignments failed")
            try:
                if self.assign_autoclose:  # the reminders too: tests call them themselves
                    await self.remind_due_assignments(self.assign_now())
            except Exception:
                log.exception("posting the assignments' reminders failed")
            try:
                if self.assign_autoclose:  # and the weekly digests
                    await self.post_due_digests(self.assign_now())
            except Exception:
                log.exception("posting the weekly digests failed")
            await asyncio.sleep(CLOSE_CHECK_SECONDS - time.time() % CLOSE_CHECK_SECONDS)

    async def close_due_assignments(self, now: datetime) -> list[int]:
        """Turn the button of every post past its due date into a disabled "Closed" (the
        database remembers which are done); the assignments closed."""
        done: list[int] = []
        for made in await homework.to_close(self.services.db, now, self.services.owns):
            if self.bot.get_guild(made.guild_id) is None:
                continue  # another process's server, or one the bot left
            assert made.channel_id is not None and made.message_id is not None
            zone = await homework.server_zone(self.services.db, made.guild_id)
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
            await homework.closed(self.services.db, made.assignment_id, now)
            done.append(made.assignment_id)
        return done

    async def remind_due_assignments(self, now: datetime) -> list[int]:
        """Post each reminder whose moment has come, once (claimed in the database first:
        another process, or this one before a restart, may have posted it), naming the students
        who have not finished and pinging exactly them; none missing, nothing is posted. The
        assignments reminded."""
        done: list[int] = []
        db = self.services.db
        for made in await homework.to_remind(db, now, self.services.owns):
            guild = self.bot.get_guild(made.guild_id)
            if guild is None or made.channel_id is None:
                continue  # another process's server, or one the bot left
            if not await homework.claim_reminder(db, made.assignment_id, now):
                continue
            students = await not_finished(guild, await homework.report_of(db, made))
            if students:
                zone = await homework.server_zone(db, made.guild_id)
                channel = self.bot.get_partial_messageable(made.channel_id,
                                                           guild_id=made.guild_id)
                sent = 0
                try:
                    for text in reminder_messages(made, students, zone, made.lang):
                        await replies.post(channel, text, allowed_mentions=replies.pings(
                            *[uid for uid in students if f"<@{uid}>" in text]))
                        sent += 1
                except (discord.NotFound, discord.Forbidden) as gone:
                    log.warning("cannot remind assignment %s: %s", made.assignment_id, gone)
                except discord.HTTPException:
                    log.exception("reminding assignment %s failed; trying again later",
                                  made.assignment_id)
                    if sent == 0:  # nothing was posted: the next look tries again
                        await homework.release_reminder(db, made.assignment_id)
                    continue
            done.append(made.assignment_id)
        return done

    # --- The weekly digest ------------------------------------------------------------------------

    async def _digest_message(self, guild: discord.Guild, lang: str, pseudonym: bool
                              ) -> dict[str, Any]:
        db = self.services.db
        digest = await digests.week_digest(db, guild.id, self.assign_now(), pseudonym=pseudonym)
        settings = await server_settings(db, guild.id)
        names, idle = await digest_names(guild, digest, settings, lang, db)
        shown: dict[str, Any] = {"embed": digest_embed(digest, names, idle, settings.tz(), lang)}
        view = digest_view(digest, lang)
        if view is not None:
            shown["view"] = view
        return shown

    async def digest(self, interaction: discord.Interaction) -> None:
        """``/class digest``: this week's digest now, in the teachers' channel when one is set
        (``/settings class``), else privately to the teacher who asked."""
        lang = await lang_for(interaction)
        guild = interaction.guild
        assert guild is not None
        chosen = await digests.digest_settings(self.services.db, guild.id)
        if chosen is None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await replies.followup(interaction, ephemeral=True,
                                   **await self._digest_message(guild, lang, False))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        channel = self.bot.get_partial_messageable(chosen.channel_id, guild_id=guild.id)
        await replies.post(channel, **await self._digest_message(
            guild, await self._server_lang(guild), chosen.pseudonym))
        await replies.followup(interaction, t("digest.posted", lang,
                                              channel=f"<#{chosen.channel_id}>"),
                               ephemeral=True)

    async def _server_lang(self, guild: discord.Guild) -> str:
        settings = await server_settings(self.services.db, guild.id)
        return settings.language or lang_from_locale(guild.preferred_locale)

    async def digest_report(self, interaction: discord.Interaction, pseudonym: bool) -> None:
        """The digest's "Full report" (``bot.ui.digest.DigestFlows``): the week's class report,
        privately, for a teacher only."""
        if not await is_teacher(interaction):
            raise NotATeacher("class.teachers_only.report", "only teachers see the report")
        await self.class_report(interaction, "week", None, None, pseudonym=pseudonym)

    async def post_due_digests(self, now: datetime) -> list[int]:
        """Post each digest due now in its channel, once on its day (claimed in the database
        first); the servers posted to."""
        done: list[int] = []
        db = self.services.db
        for chosen, day in await digests.due_digests(db, now, self.services.owns):
            guild = self.bot.get_guild(chosen.guild_id)
            if guild is None or not await digests.claim(db, chosen.guild_id, day):
                continue
            channel = self.bot.get_partial_messageable(chosen.channel_id, guild_id=guild.id)
            try:
                await replies.post(channel, **await self._digest_message(
                    guild, await self._server_lang(guild), chosen.pseudonym))
            except (discord.NotFound, discord.Forbidden) as gone:
                log.warning("cannot post the digest of server %s: %s", guild.id, gone)
            except discord.HTTPException:
                log.exception("posting the digest of server %s failed; trying again later",
                              guild.id)
                await digests.release(db, chosen.guild_id, day, chosen.posted_for)
                continue
            done.append(chosen.guild_id)
        return done

    # --- /class questions -------------------------------------------------------------------------

    async def upload_questions(self, interaction: discord.Interaction,
                               file: discord.Attachment, name: str | None) -> None:
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None
        questions.file_kind(file.filename)
        questions.check_size(file.size)  # refused before it is downloaded
        chosen = await questions.free_name(self.services.db, guild_id,
                                           name or questions.default_name(file.filename))
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            data = await file.read()
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError):
            # Discord's CDN failed, not the bot: the teacher only has to send the file again.
            raise DomainError("class.questions.download_failed",
                              "the file could not be downloaded") from None
        read = questions.read_file(file.filename, data)
        if not read.refused:
            stored = await questions.store_set(self.services.db, guild_id, chosen,
                                               interaction.user.id, read.items)
            await replies.followup(interaction, embed=stored_embed(stored, lang), ephemeral=True)
            return
        token = None
        if read.items:
            token = pending_uploads(interaction.client).put(guild_id, interaction.user.id,
                                                            chosen, read.items)
        await replies.followup(interaction, ephemeral=True,
                               **upload_reply(read, chosen, lang, token, interaction))

    async def list_questions(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        assert interaction.guild is not None
        sets = await questions.server_sets(self.services.db, interaction.guild.id)
        # A teacher gone from the server is absent: "a former teacher".
        authors = await display_names(interaction.guild, [s.set.author_id for s in sets
                                                          if s.set.author_id is not None])
        await replies.respond(interaction, embed=sets_embed(sets, authors, lang), ephemeral=True)

    async def show_questions(self, interaction: discord.Interaction, name: str) -> None:
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        found, items = await questions.set_with_items(self.services.db, interaction.guild_id,
                                                      name)
        await replies.respond(interaction, ephemeral=True, **show_reply(found, items, lang))

    async def delete_questions(self, interaction: discord.Interaction, name: str) -> None:
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        found = await questions.find_set(self.services.db, interaction.guild_id, name)
        await replies.respond(interaction, ephemeral=True, **delete_reply(found, lang))

    async def question_set_choices(self, interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
        return await set_choices(interaction, current)

    async def questions_clicked(self, interaction: discord.Interaction,
                                button: QuestionsButton) -> None:
        """A click on a button of ``/class questions`` (``bot.ui.question_sets.QuestionFlows``):
        keep or cancel an upload with refused lines, delete or spare a set."""
        lang = await lang_for(interaction)
        if button.arg in ("keep", "cancel"):
            await self._upload_clicked(interaction, button, lang)
            return
        if not await is_teacher(interaction):
            raise NotATeacher("class.teachers_only.questions_delete",
                              "only teachers may delete a set")
        if button.arg == "spare":
            await replies.update(interaction, content=t("class_questions.delete.spared", lang),
                                 embed=None, view=None)
            return
        assert interaction.guild_id is not None
        gone = await questions.delete_set(self.services.db, interaction.guild_id,
                                          button.arg_id())
        await replies.update(interaction, content=t("class_questions.delete.done", lang,
                                                    name=shown_text(gone.name)),
                             embed=None, view=None)

    async def _upload_clicked(self, interaction: discord.Interaction, button: QuestionsButton,
                              lang: str) -> None:
        waiting = pending_uploads(interaction.client)
        pending = waiting.get(button.game_id)
        if pending is None:
            await replies.update(interaction, content=t("class_questions.upload.expired", lang),
                                 embed=None, view=None, attachments=[])
            return
        ensure_player(interaction, [pending.author_id])
        if button.arg == "cancel":
            waiting.drop(button.game_id)
            await replies.update(interaction, content=t("class_questions.upload.cancelled", lang),
                                 embed=None, view=None, attachments=[])
            return
        stored = await questions.store_set(self.services.db, pending.guild_id, pending.name,
                                           pending.author_id, pending.items)
        waiting.drop(button.game_id)
        await replies.update(interaction, content=None, embed=stored_embed(stored, lang),
                             view=None, attachments=[])

    # --- /class student ---------------------------------------------------------------------------

    async def student(self, interaction: discord.Interaction, member: discord.Member,
                      level: str | None, min_level: str | None, max_level: str | None,
                      extra_time: str | None, rankings: str | None, school_year: str | None,
                      reset: bool) -> None:
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None
        if not isinstance(member, discord.Member) or member.guild.id != guild_id:
            raise DomainError("class.student.not_member", "not a member of this server")
        if member.bot:
            raise DomainError("class.student.bot", "a bot is no student",
                              name=shown_name(member.display_name))
        view = await student_rules.change_student(
            self.services.db, guild_id, member.id, level=level, min_level=min_level,
            max_level=max_level, extra_time=extra_time, rankings=rankings,
            school_year=school_year, reset=reset)
        content = (t("class_students.saved", lang, name=shown_name(member.display_name))
                   if view.changed else None)
        await replies.respond(interaction, content,
                              embed=student_embed(view, member.display_name, lang),
                              ephemeral=True)

    # --- /class placement ----------------------------------------------------------------

    async def placement(self, interaction: discord.Interaction, results: bool,
                        pseudonym: bool) -> None:
        """``/class placement``: the post with "Find my level" for every student in the
        channel, or (``results``) the levels it chose, privately (``bot.flows.placement``)."""
        if results:
            await placement_flow.results(self.services, interaction, pseudonym)
        else:
            await placement_flow.post(interaction, self.assign_now())

    # --- /class room (bot.flows.web_rooms) ---------------------------------------------------

    async def room_open(self, interaction: discord.Interaction, name: str | None,
                        hours: int) -> None:
        await room_flow.open_room(self.services, interaction, name, hours)

    async def room_close(self, interaction: discord.Interaction, room: str | None,
                         erase: bool) -> None:
        await room_flow.close_room(self.services, interaction, room, erase)

    async def room_list(self, interaction: discord.Interaction) -> None:
        await room_flow.list_rooms(self.services, interaction)

    async def room_choices(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        return await room_flow.room_choices(self.services, interaction, current)

    # --- /class end-of-year -----------------------------------------------------------------------

    async def ask_end_of_year(self, interaction: discord.Interaction) -> None:
        """The question, first, privately: nothing is sent or erased before "Confirm"."""
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        await replies.respond(interaction, ephemeral=True, **end_of_year_question(
            interaction.guild_id, interaction.user.id, lang))

    async def end_of_year(self, interaction: discord.Interaction) -> None:
        """Confirmed (``bot.ui.retention.EndOfYearFlows``): the zip to the teacher alone, then
        the students erased; too large to send, nothing is erased."""
        if not await is_teacher(interaction):  # no longer one since the question
            raise NotATeacher("class.teachers_only.end-of-year", "only teachers may do this")
        lang = await lang_for(interaction)
        guild = interaction.guild
        assert guild is not None
        await replies.update(interaction, view=None, content=t("class.end_of_year.working", lang))
        db = self.services.db
        settings = await server_settings(db, guild.id)
        found = await current_members(guild, await retention.members(db, guild.id))
        students = [uid for uid, member in found.items()
                    if member is None or not member_teaches(member, settings)]
        if not students:
            await replies.followup(interaction, t("class.end_of_year.nobody", lang),
                                   ephemeral=True)
            return
        names = names_of(found) | await web_names(db, guild.id, students, lang)
        bundle = await self.class_archive(db, guild, students, names, lang)
        limit = interaction.filesize_limit
        if len(bundle) > limit:
            await replies.followup(interaction, t(
                "class.end_of_year.too_large", lang, size=decimal(len(bundle) / 2**20, lang),
                limit=decimal(limit / 2**20, lang)), ephemeral=True)
            return
        filename = t("class.end_of_year.filename", lang, day=datetime.now(
            settings.tz()).date().isoformat())
        await replies.followup(
            interaction, t("class.end_of_year.sent", lang, count=len(students)),
            file=discord.File(io.BytesIO(bundle), filename=filename,
                              description=t("class.end_of_year.alt", lang)),
            ephemeral=True)
        await retention.erase(db, guild.id, students)
        await replies.followup(interaction, t("class.end_of_year.erased", lang,
                                              count=len(students)), ephemeral=True)

    async def class_archive(self, db: Database, guild: discord.Guild, students: list[int],
                            names: dict[int, str], lang: str) -> bytes:
        """The zip: the class report since the start, each assignment's report, each student's
        data."""
        data = await reports.answered(db, guild.id, "all")
        report = reports.build(data, names, lang)
        files = [(reports.csv_name(report, lang),
                  await asyncio.to_thread(reports.report_csv, report, lang))]
        for assignment in await homework.server_assignments(db, guild.id):
            found = await homework.report(db, guild.id, assignment.name)
            shown, missing = await report_people(guild, found, lang, pseudonym=False, db=db)
            files.append((t("class.assign.report.filename", lang, id=assignment.assignment_id),
                          await asyncio.to_thread(homework.report_csv, found, shown, missing,
                                                  lang)))
        for uid, exported in await retention.exports(db, guild.id, students):
            files.append((t("class.end_of_year.student_file", lang, id=uid),
                          retention.export_json(exported)))
        return await asyncio.to_thread(retention.archive, files)
