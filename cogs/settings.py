"""``/settings``: what a teacher decides for the server, saved in ``db.servers``.

Who may use it: every member sees the group in Discord's list and may read the settings
(``/settings show``: students too should know the level they practise at, or when the daily
challenge comes); every other subcommand changes something and is for teachers: the cog's
``interaction_check`` (``SettingsFlow.check``) accepts members with Manage Server and the members
of the server's teacher roles (``/settings teachers add``), and refuses anyone else with a
sentence of their own, before anything is read or saved. (Discord's ``default_permissions`` is
per top-level command, so it cannot hide the changing subcommands and show ``show``: the group
has none.)

The conductor is ``bot.flows.settings.SettingsFlow``: every subcommand checks its values first
(``bot.play.settings``, pure), saves them in one update and answers with the new settings; a
refused value changes nothing. The ranges and choices declared here come from the rules through
``bot.ui.settings``: Focus levels from ``bot.focus``, the match's from
``bot.digits.shop.MatchSettings``, the Rithmomachia victories and their thresholds from
``bot.rithmo.victory`` (a threshold no army can reach is refused). The flow also runs the daily
erasure by age (``bot.flows.settings.Eraser``).

Stored shapes other cogs read: ``rithmo_victories`` is a list of ``Victory.to_json()`` (read it
with ``bot.rithmo.Settings.from_json({"victories": ...})``; None is the engine's default, body and
mediocre); ``match_*`` are ``MatchSettings``' lives, base_gold, rounds and draft.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.flows.settings import SettingsFlow
from bot.services import ServicedBot, Services
from bot.ui.digest import DAY_OPTIONS, DEFAULT_HOUR, DEFAULT_WEEKDAY
from bot.ui.settings import (
    DAYS,
    GOLD,
    LANGUAGE_OPTIONS,
    LIVES,
    MAX_LEVEL,
    MIN_LEVEL,
    PINNED_OPTIONS,
    PROPER_OPTIONS,
    RETENTION_OPTIONS,
    ROUNDS,
    SCHOOL_YEAR_OPTIONS,
    TIME_LIMIT_HOURS,
    VICTORY_OPTIONS,
)
from bot.ui.teachers import teachers_choices
from cogs import ArdoiseCog


class Settings(ArdoiseCog):
    """The ``/settings`` group: ``show`` for everyone, every change for teachers
    (``interaction_check``)."""

    settings = app_commands.Group(
        name="settings", description="Ardoise's settings for this server (teachers change them)",
        guild_only=True)
    teachers = app_commands.Group(name="teachers", parent=settings,
                                  description="The roles that may change these settings")

    def __init__(self, bot: ServicedBot, services: Services) -> None:
        super().__init__(bot, services)
        self.flow = SettingsFlow(bot, services)

    async def cog_load(self) -> None:
        self.flow.start()  # the daily erasure by age

    async def cog_unload(self) -> None:
        self.flow.stop()

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await self.flow.check(interaction)

    @settings.command(name="show", description="Show every setting of this server")
    async def show(self, interaction: discord.Interaction) -> None:
        await self.flow.show(interaction)

    @settings.command(name="language", description="The language Ardoise speaks in this server")
    @app_commands.describe(language="English, French, or each member's own Discord language")
    @app_commands.choices(language=LANGUAGE_OPTIONS)
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        await self.flow.language(interaction, language)

    @settings.command(name="daily", description="Where and when the daily challenge is posted")
    @app_commands.describe(channel="The channel of the daily challenge",
                           hour="The hour it is posted, 0 to 23",
                           timezone="The time zone of that hour, e.g. Europe/Paris (default: "
                                    "the one already set, UTC at first)")
    async def daily(self, interaction: discord.Interaction, channel: discord.TextChannel,
                    hour: app_commands.Range[int, 0, 23], timezone: str | None = None) -> None:
        await self.flow.daily(interaction, channel, hour, timezone)

    @daily.autocomplete("timezone")
    @teachers_choices
    async def daily_timezone(self, interaction: discord.Interaction,
                             current: str) -> list[Choice[str]]:
        return await self.flow.timezones(interaction, current)

    @settings.command(name="class", description="The weekly digest of the class, in a "
                                                "teachers' channel")
    @app_commands.describe(digest="The teachers' channel it is posted in (students must not "
                                  "read it); none: no digest",
                           day="The day it is posted (Friday by default)",
                           hour="The hour it is posted, 0 to 23, server time (17 by default)",
                           pseudonym="Students as \"Student 1…N\" instead of their names")
    @app_commands.choices(day=DAY_OPTIONS)
    async def class_digest(self, interaction: discord.Interaction,
                           digest: discord.TextChannel | None = None,
                           day: int = DEFAULT_WEEKDAY,
                           hour: app_commands.Range[int, 0, 23] = DEFAULT_HOUR,
                           pseudonym: bool = False) -> None:
        await self.flow.class_digest(interaction, digest, day, hour, pseudonym)

    @settings.command(name="daily-off", description="Stop posting the daily challenge")
    async def daily_off(self, interaction: discord.Interaction) -> None:
        await self.flow.daily_off(interaction)

    @settings.command(name="focus", description="The Focus levels students play at")
    @app_commands.describe(min_level=f"The lowest level a student goes down to ({MIN_LEVEL}–"
                                     f"{MAX_LEVEL})",
                           max_level=f"The highest level a student goes up to ({MIN_LEVEL}–"
                                     f"{MAX_LEVEL})",
                           pinned_level="One level for everyone, or none (each their own)",
                           school_year="The school year whose skills practice draws from")
    @app_commands.choices(pinned_level=PINNED_OPTIONS, school_year=SCHOOL_YEAR_OPTIONS)
    async def focus(self, interaction: discord.Interaction,
                    min_level: app_commands.Range[int, MIN_LEVEL, MAX_LEVEL] | None = None,
                    max_level: app_commands.Range[int, MIN_LEVEL, MAX_LEVEL] | None = None,
                    pinned_level: str | None = None, school_year: str | None = None) -> None:
        await self.flow.focus(interaction, min_level, max_level, pinned_level, school_year)

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
        await self.flow.match(interaction, lives, gold, rounds, draft)

    @settings.command(name="rithmo", description="Rithmomachia: default victories, time limit")
    @app_commands.describe(
        victory="The common victory (or none)",
        proper="The proper victory (or none)",
        pieces="Pieces taken, for the victories that count them",
        value="Total value taken, for the victories that count it",
        digits="Digits taken, for the victories that count them",
        move_time_limit_hours=f"Hours a player has for a move or a turn ({TIME_LIMIT_HOURS[0]}–"
                              f"{TIME_LIMIT_HOURS[1]}), in both games")
    @app_commands.choices(victory=VICTORY_OPTIONS, proper=PROPER_OPTIONS)
    async def rithmo(self, interaction: discord.Interaction, victory: str | None = None,
                     proper: str | None = None,
                     pieces: app_commands.Range[int, 1, None] | None = None,
                     value: app_commands.Range[int, 1, None] | None = None,
                     digits: app_commands.Range[int, 1, None] | None = None,
                     move_time_limit_hours: app_commands.Range[
                         int, TIME_LIMIT_HOURS[0], TIME_LIMIT_HOURS[1]] | None = None) -> None:
        await self.flow.rithmo(interaction, victory, proper,
                               {"pieces": pieces, "value": value, "digits": digits},
                               move_time_limit_hours)

    @settings.command(name="privacy", description="How long students' answers and games are kept")
    @app_commands.describe(
        retention="A number of days, until the end of the school year, or for ever",
        days=f"With \"a number of days\": {DAYS[0]} to {DAYS[1]}",
        until="With \"the end of the school year\": its last day, e.g. 2027-07-04")
    @app_commands.choices(retention=RETENTION_OPTIONS)
    async def privacy(self, interaction: discord.Interaction, retention: str,
                      days: app_commands.Range[int, DAYS[0], DAYS[1]] | None = None,
                      until: str | None = None) -> None:
        await self.flow.privacy(interaction, retention, days, until)

    @teachers.command(name="add", description="Let the members of a role change these settings")
    @app_commands.describe(role="The teachers' role")
    async def teachers_add(self, interaction: discord.Interaction, role: discord.Role) -> None:
        await self.flow.add_teachers(interaction, role)

    @teachers.command(name="remove", description="Stop a role from changing these settings")
    @app_commands.describe(role="The role to remove")
    async def teachers_remove(self, interaction: discord.Interaction, role: discord.Role) -> None:
        await self.flow.remove_teachers(interaction, role)


async def setup(bot: ServicedBot) -> None:
    await bot.add_cog(Settings(bot, bot.services))
