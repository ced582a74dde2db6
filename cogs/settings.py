"""``/settings``: what a teacher decides for the server, saved in ``db.servers``.

Who may use it: every member sees the group in Discord's list and may read the settings
(``/settings show``: students too should know the level they practise at, or when the daily
challenge comes); every other subcommand changes something and is for teachers: the cog's
``interaction_check`` accepts members with Manage Server and the members of the server's teacher
roles (``/settings teachers add``), and refuses anyone else with a sentence of their own, before
anything is read or saved. (Discord's ``default_permissions`` is per top-level command, so it
cannot hide the changing subcommands and show ``show``: the group has none.)

Every subcommand checks its values first (the ``check_*`` functions below, pure), saves them in
one ``servers.update`` and answers with the new settings; a refused value changes nothing. The
ranges come from the engines: Focus levels from ``bot.focus``, the match's from
``bot.digits.shop.MatchSettings``, the Rithmomachia victories and their thresholds from
``bot.rithmo.victory`` (a threshold no army can reach is refused).

Stored shapes other cogs read: ``rithmo_victories`` is a list of ``Victory.to_json()`` (read it
with ``bot.rithmo.Settings.from_json({"victories": ...})``; None is the engine's default, body and
mediocre); ``match_*`` are ``MatchSettings``' lives, base_gold, rounds and draft.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot import replies
from bot.domain import DomainError
from bot.focus import MAX_LEVEL, MIN_LEVEL
from bot.i18n import lang_for, lang_from_locale, t
from bot.play import settings as service
from bot.play.retention import DAYS, KINDS, check_retention
from bot.play.settings import (
    COMMON,
    GOLD,
    LANGUAGE_CHOICES,
    LIVES,
    NONE,
    ROUNDS,
    TIME_LIMIT_HOURS,
    check_daily,
    check_focus,
    check_match,
    check_school_year,
    timezone_choices,
)
from bot.rithmo.victory import PROPER
from bot.services import ServicedBot
from bot.texts import date_text
from bot.ui.retention import Eraser
from bot.ui.settings import (
    LANGUAGE_NAMES,
    PINNED_NAMES,
    RETENTION_NAMES,
    SCHOOL_YEAR_NAMES,
    VICTORY_NAMES,
    _choices,
    check_rithmo,
    settings_embed,
)
from bot.ui.teachers import EVERYONE, NotATeacher, is_teacher, teachers_choices
from cogs import ArdoiseCog
from db import ServerSettings


class Settings(ArdoiseCog):
    """The ``/settings`` group: ``show`` for everyone, every change for teachers
    (``interaction_check``)."""

    settings = app_commands.Group(
        name="settings", description="Ardoise's settings for this server (teachers change them)",
        guild_only=True)
    teachers = app_commands.Group(name="teachers", parent=settings,
                                  description="The roles that may change these settings")

    eraser: Eraser

    async def cog_load(self) -> None:
        self.eraser = Eraser(self.bot, self.services)  # the daily erasure by age (bot.ui.retention)
        self.eraser.start()

    async def cog_unload(self) -> None:
        self.eraser.stop()

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
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

    @settings.command(name="show", description="Show every setting of this server")
    async def show(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        settings = await self._current(interaction)
        await replies.respond(interaction, embed=settings_embed(settings, lang),
                              ephemeral=True)

    @settings.command(name="language", description="The language Ardoise speaks in this server")
    @app_commands.describe(language="English, French, or each member's own Discord language")
    @app_commands.choices(language=_choices(LANGUAGE_CHOICES, "settings.choices", LANGUAGE_NAMES))
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        assert interaction.guild_id is not None
        if language not in LANGUAGE_CHOICES:
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
                              embed=settings_embed(settings, lang),
                              ephemeral=True)

    @settings.command(name="daily", description="Where and when the daily challenge is posted")
    @app_commands.describe(channel="The channel of the daily challenge",
                           hour="The hour it is posted, 0 to 23",
                           timezone="The time zone of that hour, e.g. Europe/Paris (default: "
                                    "the one already set, UTC at first)")
    async def daily(self, interaction: discord.Interaction, channel: discord.TextChannel,
                    hour: app_commands.Range[int, 0, 23], timezone: str | None = None) -> None:
        lang = await lang_for(interaction)
        changes = check_daily(hour, timezone)
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

    @daily.autocomplete("timezone")
    @teachers_choices
    async def daily_timezone(self, interaction: discord.Interaction,
                             current: str) -> list[Choice[str]]:
        return replies.fit_choices(Choice(name=name, value=name)
                                   for name in timezone_choices(current, replies.CHOICES))

    @settings.command(name="daily-off", description="Stop posting the daily challenge")
    async def daily_off(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        await self._save(interaction, "settings.saved.daily_off", {"daily_channel_id": None}, lang)

    @settings.command(name="focus", description="The Focus levels students play at")
    @app_commands.describe(min_level=f"The lowest level a student goes down to ({MIN_LEVEL}–"
                                     f"{MAX_LEVEL})",
                           max_level=f"The highest level a student goes up to ({MIN_LEVEL}–"
                                     f"{MAX_LEVEL})",
                           pinned_level="One level for everyone, or none (each their own)",
                           school_year="The school year whose skills practice draws from")
    @app_commands.choices(pinned_level=_choices(PINNED_NAMES, "settings.choices.pinned",
                                                PINNED_NAMES),
                          school_year=_choices(SCHOOL_YEAR_NAMES, "settings.choices.school_year",
                                               SCHOOL_YEAR_NAMES))
    async def focus(self, interaction: discord.Interaction,
                    min_level: app_commands.Range[int, MIN_LEVEL, MAX_LEVEL] | None = None,
                    max_level: app_commands.Range[int, MIN_LEVEL, MAX_LEVEL] | None = None,
                    pinned_level: str | None = None, school_year: str | None = None) -> None:
        lang = await lang_for(interaction)
        changes = check_focus(await self._current(interaction), min_level, max_level,
                              pinned_level) | check_school_year(school_year)
        await self._save(interaction, "settings.saved.focus", changes, lang)

    @settings.command(name="match", description="The 20 Digits: defaults of new matches")
    @app_commands.describe(lives=f"Lives at the start ({LIVES[0]}–{LIVES[1]})",
                           gold=f"Base gold each round, before Focus ({GOLD[0]}–{GOLD[1]})",
                           rounds=f"Rounds at most ({ROUNDS[0]}–{ROUNDS[1]})",
                           draft="Draft variant: pick in turn from one shared row")
    async def match(self, interaction: discord.Interaction,
                    lives: app_commands.Range[int, LIVES[0], LIVES[1]] | None = None,
                    gold: app_commands.Range[int, GOLD[0], GOLD[1]] | None = None,
                    rounds: app_commands.Range[int, ROUNDS[0], ROUNDS[1]] | None = None,
                    draft: bool | None = None) -> None:
        lang = await lang_for(interaction)
        await self._save(interaction, "settings.saved.match",
                         check_match(lives, gold, rounds, draft), lang)

    @settings.command(name="rithmo", description="Rithmomachia: default victories, time limit")
    @app_commands.describe(
        victory="The common victory (or none)",
        proper="The proper victory (or none)",
        pieces="Pieces taken, for the victories that count them",
        value="Total value taken, for the victories that count it",
        digits="Digits taken, for the victories that count them",
        move_time_limit_hours=f"Hours a player has for a move or a turn ({TIME_LIMIT_HOURS[0]}–"
                              f"{TIME_LIMIT_HOURS[1]}), in both games")
    @app_commands.choices(
        victory=_choices((*COMMON, NONE), "settings.victories", VICTORY_NAMES),
        proper=_choices((*PROPER, NONE), "settings.victories", VICTORY_NAMES))
    async def rithmo(self, interaction: discord.Interaction, victory: str | None = None,
                     proper: str | None = None,
                     pieces: app_commands.Range[int, 1, None] | None = None,
                     value: app_commands.Range[int, 1, None] | None = None,
                     digits: app_commands.Range[int, 1, None] | None = None,
                     move_time_limit_hours: app_commands.Range[
                         int, TIME_LIMIT_HOURS[0], TIME_LIMIT_HOURS[1]] | None = None) -> None:
        lang = await lang_for(interaction)
        for name, kinds in (("victory", (*COMMON, NONE)), ("proper", (*PROPER, NONE))):
            chosen = victory if name == "victory" else proper
            if chosen is not None and chosen not in kinds:
                raise DomainError("settings.rithmo.unknown_victory", f"no victory {chosen!r}",
                                  value=chosen)
        changes = check_rithmo(await self._current(interaction), lang, victory, proper,
                               {"pieces": pieces, "value": value, "digits": digits},
                               move_time_limit_hours)
        await self._save(interaction, "settings.saved.rithmo", changes, lang)

    @settings.command(name="privacy", description="How long students' answers and games are kept")
    @app_commands.describe(
        retention="A number of days, until the end of the school year, or for ever",
        days=f"With \"a number of days\": {DAYS[0]} to {DAYS[1]}",
        until="With \"the end of the school year\": its last day, e.g. 2027-07-04")
    @app_commands.choices(retention=_choices(KINDS, "settings.choices.retention",
                                             RETENTION_NAMES))
    async def privacy(self, interaction: discord.Interaction, retention: str,
                      days: app_commands.Range[int, DAYS[0], DAYS[1]] | None = None,
                      until: str | None = None) -> None:
        if not interaction.permissions.manage_guild:  # the owners' choice, not a teacher role's
            raise DomainError("settings.retention.manage_server_only",
                              "the retention takes Manage Server")
        lang = await lang_for(interaction)
        current = await self._current(interaction)
        changes = check_retention(retention, days, until,
                                  self.eraser.now().astimezone(current.tz()).date())
        end = changes["retention_until"]
        await self._save(interaction, f"settings.saved.retention_{retention}", changes, lang,
                         count=days, day=None if end is None else date_text(end, lang))

    @teachers.command(name="add", description="Let the members of a role change these settings")
    @app_commands.describe(role="The teachers' role")
    async def teachers_add(self, interaction: discord.Interaction, role: discord.Role) -> None:
        lang = await lang_for(interaction)
        if role.is_default():
            raise DomainError("settings.everyone_role", "@everyone cannot be the teachers' role")
        current = await self._current(interaction)
        key = ("settings.saved.teacher_already" if role.id in current.admin_role_ids
               else "settings.saved.teacher_added")
        await self._set_roles(interaction, current.admin_role_ids | {role.id}, key, lang,
                              role.mention)

    @teachers.command(name="remove", description="Stop a role from changing these settings")
    @app_commands.describe(role="The role to remove")
    async def teachers_remove(self, interaction: discord.Interaction, role: discord.Role) -> None:
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
                              embed=settings_embed(settings, lang),
                              ephemeral=True)


async def setup(bot: ServicedBot) -> None:
    await bot.add_cog(Settings(bot, bot.services))
