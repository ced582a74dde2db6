"""The conductor of ``/settings`` (``cogs/settings.py``) and of the daily erasure by age.

Its own module rather than a part of ``bot/flows/classroom.py``: ``/settings`` is its own cog,
read by every member (``show``) where ``/class`` is for teachers alone, and it runs its own
background task (the erasure), so the two conductors share nothing but ``bot.ui.teachers``.

Every change is checked first by ``bot.play.settings`` (pure; a refusal changes nothing), saved
in one ``save_settings`` and answered with the new settings (``bot.ui.settings.settings_embed``),
privately. The erasure by age (``Eraser``) runs in every process for its own shards' servers
(``Services.owns``) and tells a server's owner when its school year has ended.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, date, datetime
from typing import Any

import discord
from discord.app_commands import Choice

from bot import replies
from bot.domain import DomainError
from bot.flows import Flow
from bot.i18n import lang_for, lang_from_locale, t
from bot.play import digest as digests
from bot.play import retention
from bot.play import settings as service
from bot.services import ServicedBot, Services
from bot.texts import date_text
from bot.ui.digest import students_reading
from bot.ui.settings import settings_embed, worded
from bot.ui.teachers import EVERYONE, NotATeacher, is_teacher
from db import ServerSettings

log = logging.getLogger(__name__)

#: The erasure by age runs once a day, the first time a few minutes after the start (not in the
#: rush of a start, nor inside a short test).
PURGE_EVERY_S = 24 * 3600
PURGE_FIRST_S = 5 * 60


class Eraser:
    """The background task of the erasure by age, for one bot: what is older than a server's
    retention goes, and the owner is told once when its school year has ended."""

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
        settings = await service.server_settings(self.services.db, guild_id)
        lang = settings.language or lang_from_locale(guild.preferred_locale)
        try:
            owner = guild.owner or await guild.fetch_member(guild.owner_id or 0)
            await replies.post(owner, t("settings.retention.told", lang, server=guild.name,
                                        day=date_text(day, lang)))
        except discord.HTTPException as failure:
            log.warning("cannot tell the owner of server %s that the school year ended: %s",
                        guild_id, failure)


class SettingsFlow(Flow):
    """``/settings``: ``show`` for everyone, every change for teachers (``check``)."""

    def __init__(self, bot: ServicedBot, services: Services) -> None:
        super().__init__(bot, services)
        self.eraser = Eraser(bot, services)

    def start(self) -> None:
        self.eraser.start()

    def stop(self) -> None:
        self.eraser.stop()

    async def check(self, interaction: discord.Interaction) -> bool:
        """Whether the member may use the subcommand: ``show`` is for everyone, the rest for
        teachers (``NotATeacher`` refuses anyone else before anything is read or saved)."""
        command = interaction.command
        if command is not None and command.qualified_name in EVERYONE:
            return True
        if not await is_teacher(interaction):
            raise NotATeacher("settings.teachers_only",
                              "only teachers (Manage Server or a teacher role) may do this")
        return True

    async def _save(self, interaction: discord.Interaction, saved_key: str,
                    changes: Mapping[str, Any], lang: str, **params: Any) -> None:
        assert interaction.guild_id is not None
        settings, changed = await service.save_settings(self.services.db, interaction.guild_id,
                                                        changes)
        text = t(saved_key, lang, **params) if changed else t("settings.saved.unchanged", lang)
        await replies.respond(interaction, text, embed=settings_embed(settings, lang),
                              ephemeral=True)

    async def _current(self, interaction: discord.Interaction) -> ServerSettings:
        assert interaction.guild_id is not None
        return await service.server_settings(self.services.db, interaction.guild_id)

    async def show(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        settings = await self._current(interaction)
        await replies.respond(interaction, embed=settings_embed(settings, lang), ephemeral=True)

    async def language(self, interaction: discord.Interaction, language: str) -> None:
        assert interaction.guild_id is not None
        if language not in service.LANGUAGE_CHOICES:
            raise DomainError("settings.unknown_language", f"no language {language!r}",
                              value=language)
        chosen = None if language == "auto" else language
        settings, _ = await service.save_settings(self.services.db, interaction.guild_id,
                                                  {"language": chosen})
        self.services.languages.set(interaction.guild_id, chosen, version=settings.version)
        # The answer is already in the new language.
        lang = chosen or lang_from_locale(interaction.locale)
        interaction.extras["lang"] = lang
        await replies.respond(interaction, t(f"settings.saved.language_{language}", lang),
                              embed=settings_embed(settings, lang), ephemeral=True)

    async def daily(self, interaction: discord.Interaction, channel: discord.TextChannel,
                    hour: int, timezone: str | None) -> None:
        lang = await lang_for(interaction)
        changes = service.check_daily(hour, timezone)
        me = channel.guild.me
        if me is not None:
            allowed = channel.permissions_for(me)
            if not (allowed.view_channel and allowed.send_messages and allowed.embed_links
                    and allowed.attach_files):
                raise DomainError("settings.daily_channel_closed",
                                  f"cannot post in channel {channel.id}", channel=channel.mention)
        changes["daily_channel_id"] = channel.id
        current = await self._current(interaction)
        await self._save(interaction, "settings.saved.daily", changes, lang,
                         channel=channel.mention, hour=hour,
                         timezone=changes.get("timezone", current.timezone))

    async def class_digest(self, interaction: discord.Interaction,
                           channel: discord.TextChannel | None, weekday: int, hour: int,
                           pseudonym: bool) -> None:
        """``/settings class``: the weekly digest in a teachers' channel (refused where a
        students' role, @everyone first, can read it, or where Ardoise cannot post), on a day
        and hour of the server's time zone; no channel: no digest."""
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        db = self.services.db
        if channel is None:
            gone = await digests.digest_off(db, interaction.guild_id)
            await replies.respond(interaction, t("digest.saved.off" if gone
                                                 else "digest.saved.was_off", lang),
                                  ephemeral=True)
            return
        digests.check_when(weekday, hour)
        me = channel.guild.me
        if me is not None:
            allowed = channel.permissions_for(me)
            if not (allowed.view_channel and allowed.send_messages and allowed.embed_links):
                raise DomainError("settings.daily_channel_closed",
                                  f"cannot post in channel {channel.id}", channel=channel.mention)
        current = await self._current(interaction)
        readers = students_reading(channel, current)
        if readers is not None:
            raise DomainError("digest.students_read", "students can read that channel",
                              channel=channel.mention,
                              role="@everyone" if readers.is_default() else readers.mention)
        await digests.set_digest(db, interaction.guild_id, channel.id, weekday, hour, pseudonym)
        await replies.respond(interaction, t(
            "digest.saved.on", lang, channel=channel.mention,
            day=t(f"digest.days.{weekday}", lang), hour=f"{hour:02}:00",
            timezone=current.timezone,
            names=t("digest.saved.pseudonyms" if pseudonym else "digest.saved.names", lang)),
            ephemeral=True)

    async def timezones(self, interaction: discord.Interaction, current: str
                        ) -> list[Choice[str]]:
        """The time zones containing what was typed (the ``timezone`` option's menu)."""
        return replies.fit_choices(Choice(name=name, value=name) for name
                                   in service.timezone_choices(current, replies.CHOICES))

    async def daily_off(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        await self._save(interaction, "settings.saved.daily_off", {"daily_channel_id": None}, lang)

    async def focus(self, interaction: discord.Interaction, min_level: int | None,
                    max_level: int | None, pinned_level: str | None,
                    school_year: str | None) -> None:
        lang = await lang_for(interaction)
        changes = service.check_focus(await self._current(interaction), min_level, max_level,
                                      pinned_level) | service.check_school_year(school_year)
        await self._save(interaction, "settings.saved.focus", changes, lang)

    async def match(self, interaction: discord.Interaction, lives: int | None, gold: int | None,
                    rounds: int | None, draft: bool | None) -> None:
        lang = await lang_for(interaction)
        await self._save(interaction, "settings.saved.match",
                         service.check_match(lives, gold, rounds, draft), lang)

    async def rithmo(self, interaction: discord.Interaction, victory: str | None,
                     proper: str | None, thresholds: Mapping[str, int | None],
                     hours: int | None) -> None:
        lang = await lang_for(interaction)
        try:
            changes = service.check_rithmo(await self._current(interaction), victory, proper,
                                           thresholds, hours)
        except DomainError as refused:
            raise worded(refused, lang) from None  # victories and thresholds by their names
        await self._save(interaction, "settings.saved.rithmo", changes, lang)

    async def privacy(self, interaction: discord.Interaction, kind: str, days: int | None,
                      until: str | None) -> None:
        if not interaction.permissions.manage_guild:  # the owners' choice, not a teacher role's
            raise DomainError("settings.retention.manage_server_only",
                              "the retention takes Manage Server")
        lang = await lang_for(interaction)
        current = await self._current(interaction)
        changes = retention.check_retention(kind, days, until,
                                            self.eraser.now().astimezone(current.tz()).date())
        end = changes["retention_until"]
        await self._save(interaction, f"settings.saved.retention_{kind}", changes, lang,
                         count=days, day=None if end is None else date_text(end, lang))

    async def add_teachers(self, interaction: discord.Interaction, role: discord.Role) -> None:
        lang = await lang_for(interaction)
        if role.is_default():
            raise DomainError("settings.everyone_role", "@everyone cannot be the teachers' role")
        current = await self._current(interaction)
        key = ("settings.saved.teacher_already" if role.id in current.admin_role_ids
               else "settings.saved.teacher_added")
        await self._set_roles(interaction, current.admin_role_ids | {role.id}, key, lang,
                              role.mention)

    async def remove_teachers(self, interaction: discord.Interaction, role: discord.Role
                              ) -> None:
        lang = await lang_for(interaction)
        current = await self._current(interaction)
        if role.id not in current.admin_role_ids:
            raise DomainError("settings.not_a_teacher_role", f"role {role.id} is not a teacher",
                              role=role.mention)
        await self._set_roles(interaction, current.admin_role_ids - {role.id},
                              "settings.saved.teacher_removed", lang, role.mention)

    async def _set_roles(self, interaction: discord.Interaction, roles: Iterable[int], key: str,
                         lang: str, mention: str) -> None:
        assert interaction.guild_id is not None
        settings = await service.set_teacher_roles(self.services.db, interaction.guild_id, roles)
        await replies.respond(interaction, t(key, lang, role=mention),
                              embed=settings_embed(settings, lang), ephemeral=True)
