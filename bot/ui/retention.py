"""How long a server keeps its members' data, on Discord: the daily erasure by age (with the word
to the server's owner when a school year has ended), and ``/class end-of-year``.

The erasure runs in every process for its own shards' servers (``bot.owns``); two processes on
one shard erase the same rows at worst (the second finds them gone), and the owner is told once
(``db.retention.claim_told``).

``/class end-of-year`` asks first, privately (``AskedButton``: the teacher who asked, for 15
minutes). Confirmed, it sends that teacher alone one zip file, then erases the students: every
member the server holds data of (``bot.play.retention.members``) who is not a teacher, a teacher
being, as everywhere, a member with Manage Server or one of the server's teacher roles (a member
who left the server is no teacher any more: their data goes too). The zip holds the class report
since the start (``bot.play.class_report``'s CSV), each assignment's report (its CSV) and each
student's ``export-player`` JSON. A zip larger than the interaction's upload limit (Discord's: 10
MiB on most servers, more on boosted ones) is not sent, and then nothing is erased: the bot's
operator exports by hand (``python -m db export-player``) and erases with ``delete-player``.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

import discord
from discord import ui

from bot import replies
from bot.i18n import lang_for, lang_from_locale, t
from bot.play import assignments as homework
from bot.play import class_report, retention
from bot.play.settings import server_settings
from bot.services import Services, services_of
from bot.texts import date_text, decimal
from bot.ui.assignments import report_people
from bot.ui.members import fetch_members, names_of
from bot.ui.teachers import NotATeacher, is_teacher
from bot.views import AskedButton, invalid_component
from db import Database, ServerSettings

log = logging.getLogger(__name__)

#: The erasure by age runs once a day, the first time a few minutes after the start (not in the
#: rush of a start, nor inside a short test).
PURGE_EVERY_S = 24 * 3600
PURGE_FIRST_S = 5 * 60
#: How long the question may be answered (Discord lets a bot edit an ephemeral answer 15 min).
CONFIRM_S = 15 * 60
#: Members fetched from Discord at once (as the class report does).
FETCHES = 8


class Eraser:
    """The background task of the erasure by age, for one bot."""

    def __init__(self, bot: discord.Client, services: Services) -> None:
        self.bot = bot
        self.services = services
        self.now: Callable[[], datetime] = lambda: datetime.now(UTC)
        #: Whether the task erases (tests call ``purge_due`` themselves).
        self.enabled = True
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="retention-erasure")

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _loop(self) -> None:
        await self.bot.wait_until_ready()
        await asyncio.sleep(PURGE_FIRST_S)
        while True:
            try:
                if self.enabled:
                    await self.purge_due(self.now())
            except Exception:
                log.exception("erasing the data past the servers' retention failed")
            await asyncio.sleep(PURGE_EVERY_S)

    async def purge_due(self, now: datetime) -> list[retention.Purged]:
        """Erase, in this process's servers, what is older than their retention; tell a server's
        owner when its school year has ended."""
        done = await retention.purge_due(self.services.db, now, self.services.owns)
        for purged in done:
            erased = {table: count for table, count in purged.counts.items() if count}
            if erased:
                log.info("erased in server %s before %s: %s", purged.guild_id,
                         purged.before.isoformat(), erased)
            if purged.told is not None:
                await self._tell_owner(purged.guild_id, purged.told)
        return done

    async def _tell_owner(self, guild_id: int, day: date) -> None:
        guild = self.bot.get_guild(guild_id)
        if guild is None:
            return
        settings = await server_settings(self.services.db, guild_id)
        lang = settings.language or lang_from_locale(guild.preferred_locale)
        try:
            owner = guild.owner or await guild.fetch_member(guild.owner_id or 0)
            await replies.post(owner, t("settings.retention.told", lang, server=guild.name,
                                        day=date_text(day, lang)))
        except discord.HTTPException as failure:
            log.warning("cannot tell the owner of server %s that the school year ended: %s",
                        guild_id, failure)


# --- /class end-of-year ----------------------------------------------------------------------


def clock() -> float:
    """Unix seconds now (a test replaces it to age a question)."""
    return time.time()


class EndOfYearQuestion(AskedButton):
    """A button of the question: the server (as the game id), asked at, the teacher who asked."""

    max_age_s = CONFIRM_S
    not_yours_code = "class.end_of_year.not_yours"
    expired_code = "class.end_of_year.expired"

    def now(self) -> float:
        return clock()

    def check(self, interaction: discord.Interaction) -> None:
        super().check(interaction)
        if int(self.game_id) != interaction.guild_id:
            raise invalid_component("server")


async def ask_end_of_year(interaction: discord.Interaction) -> None:
    """The private question of ``/class end-of-year``."""
    lang = await lang_for(interaction)
    assert interaction.guild_id is not None
    asked: dict[str, Any] = {"game_id": interaction.guild_id, "version": int(clock()),
                             "arg": str(interaction.user.id)}
    view = ui.View(timeout=None)
    view.add_item(ConfirmEndOfYear(**asked, style=discord.ButtonStyle.danger,
                                   label=t("class.end_of_year.confirm", lang)))
    view.add_item(KeepEverything(**asked, style=discord.ButtonStyle.secondary,
                                 label=t("class.end_of_year.keep", lang)))
    await replies.respond(interaction, t("class.end_of_year.ask", lang), view=view,
                          ephemeral=True)


def teaches(member: discord.Member, settings: ServerSettings) -> bool:
    """Whether a member of the server is one of its teachers (``bot.ui.teachers``' rule)."""
    return member.guild_permissions.manage_guild or settings.may_manage(
        role.id for role in member.roles)


async def _members(guild: discord.Guild, user_ids: list[int]
                   ) -> dict[int, discord.Member | None]:
    """These members as Discord gives them now, None for one who left. Unlike the reports'
    ``fetch_students``, any other failure stops here: a teacher Discord failed to give must not
    be taken for a student and erased."""
    return await fetch_members(guild, user_ids, gone=discord.NotFound, at_once=FETCHES)


async def class_archive(db: Database, guild: discord.Guild, students: list[int],
                        names: dict[int, str], lang: str) -> bytes:
    """The zip: the class report since the start, each assignment's report, each student's
    data."""
    data = await class_report.answered(db, guild.id, "all")
    report = class_report.build(data, names, lang)
    files = [(class_report.csv_name(report, lang),
              await asyncio.to_thread(class_report.report_csv, report, lang))]
    for assignment in await homework.server_assignments(db, guild.id):
        found = await homework.report(db, guild.id, assignment.name)
        shown, missing = await report_people(guild, found, lang, pseudonym=False)
        files.append((t("class.assign.report.filename", lang, id=assignment.assignment_id),
                      await asyncio.to_thread(homework.report_csv, found, shown, missing, lang)))
    for uid, exported in await retention.exports(db, guild.id, students):
        files.append((t("class.end_of_year.student_file", lang, id=uid),
                      retention.export_json(exported)))
    return await asyncio.to_thread(retention.archive, files)


class ConfirmEndOfYear(EndOfYearQuestion, action="class.end_of_year"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        self.check(interaction)
        if not await is_teacher(interaction):  # no longer one since the question
            raise NotATeacher("settings.teachers_only", "only teachers may do this")
        lang = await lang_for(interaction)
        guild = interaction.guild
        assert guild is not None
        await replies.update(interaction, view=None, content=t("class.end_of_year.working", lang))
        db = services_of(interaction).db
        settings = await server_settings(db, guild.id)
        found = await _members(guild, await retention.members(db, guild.id))
        students = [uid for uid, member in found.items()
                    if member is None or not teaches(member, settings)]
        if not students:
            await replies.followup(interaction, t("class.end_of_year.nobody", lang),
                                   ephemeral=True)
            return
        names = names_of(found)
        bundle = await class_archive(db, guild, students, names, lang)
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


class KeepEverything(EndOfYearQuestion, action="class.end_of_year_keep"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        self.check(interaction)
        lang = await lang_for(interaction)
        await replies.update(interaction, view=None, content=t("class.end_of_year.kept", lang))


#: The question's buttons (the class cog registers them).
PERSISTENT_ITEMS = (ConfirmEndOfYear, KeepEverything)
