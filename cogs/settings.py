"""``/settings``: what a teacher decides for the server, saved in ``db.servers``.

Who may use it: Discord shows the group to members with Manage Server (``default_permissions``);
the cog's ``interaction_check`` accepts them and the members of the server's teacher roles
(``/settings teachers add``), and refuses anyone else with a sentence of their own (a server
admin may let more people see the commands in Server Settings → Integrations: seeing is not
enough to change anything).

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

import functools
import zoneinfo
from collections.abc import Iterable, Mapping
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot import replies
from bot.domain import DomainError
from bot.focus import MAX_LEVEL, MIN_LEVEL
from bot.i18n import lang_for, lang_from_locale, number, t
from bot.rithmo import Board
from bot.rithmo.arith import digits as digit_count
from bot.rithmo.victory import KINDS, PROPER, Victory
from cogs import ArdoiseCog
from cogs._teachers import NotATeacher, is_teacher
from db import ServerSettings

LANGUAGE_CHOICES = ("en", "fr", "auto")
NONE = "none"

# Ranges of the match defaults: the database's own (1–99 lives and rounds, 0–99 gold).
LIVES = (1, 99)
GOLD = (0, 99)
ROUNDS = (1, 99)
# A player's time for a move or a shop turn, in hours: one hour to the database's 30 days.
TIME_LIMIT_HOURS = (1, 30 * 24)

COMMON = tuple(kind for kind in KINDS if kind not in PROPER)
THRESHOLDS = ("pieces", "value", "digits")
# "Fewer than" thresholds: fewer than 1 piece or 1 digit could never go with a value taken.
CEILINGS = {"lawsuit": ("digits",), "honour": ("pieces",), "honour_lawsuit": ("digits", "pieces")}


def _army_totals() -> dict[str, int]:
    """What the larger army holds (pyramid components one by one): no threshold can go beyond."""
    board = Board.start()
    most = {"pieces": 0, "value": 0, "digits": 0}
    for side in (0, 1):
        values = [v for p in board.pieces[side] for v in ([v for _, v in p.parts] or [p.value])]
        most["pieces"] = max(most["pieces"], len(values))
        most["value"] = max(most["value"], sum(values))
        most["digits"] = max(most["digits"], sum(digit_count(v) for v in values))
    return most


ARMY_MOST = _army_totals()


# ---------------------------------------------------------------------------------------------
# Checks: pure, raise a DomainError (errors.settings.*) before anything is saved


def _in_range(code: str, value: int, bounds: tuple[int, int], **extra: Any) -> None:
    low, high = bounds
    if not low <= value <= high:
        raise DomainError(code, f"{value} is outside {low}–{high}", value=value, low=low,
                          high=high, **extra)


@functools.cache
def _zones() -> dict[str, str]:
    return {name.casefold(): name for name in zoneinfo.available_timezones()}


def find_timezone(typed: str) -> str:
    """The time zone named ``typed``: exactly, in any case, or by its city alone ("paris")."""
    text = typed.strip().replace(" ", "_")
    zones = _zones()
    found = zones.get(text.casefold())
    if found is None:
        cities = [name for key, name in zones.items() if key.endswith("/" + text.casefold())]
        found = cities[0] if len(cities) == 1 else None
    if found is None:
        raise DomainError("settings.unknown_timezone", f"no time zone is called {typed!r}",
                          timezone=typed)
    return found


def timezone_choices(typed: str, limit: int = 25) -> list[str]:
    """Time zone names containing what was typed, those starting with it first."""
    text = typed.strip().replace(" ", "_").casefold()
    names = sorted(_zones().values())
    if not text:
        return [n for n in names if "/" in n and not n.startswith("Etc/")][:limit]
    hits = [n for n in names if text in n.casefold()]
    hits.sort(key=lambda n: (not (n.casefold().startswith(text)
                                  or n.casefold().split("/")[-1].startswith(text)), n))
    return hits[:limit]


def check_daily(hour: int, timezone: str | None) -> dict[str, Any]:
    _in_range("settings.hour_out_of_range", hour, (0, 23))
    changes: dict[str, Any] = {"daily_hour": hour}
    if timezone is not None:
        changes["timezone"] = find_timezone(timezone)
    return changes


def check_focus(current: ServerSettings, min_level: int | None, max_level: int | None,
                pinned: str | None) -> dict[str, Any]:
    """Changes to the Focus levels; an unset ceiling is the engine's top level."""
    changes: dict[str, Any] = {}
    for name, level in (("focus_level_min", min_level), ("focus_level_max", max_level)):
        if level is not None:
            _in_range("settings.level_out_of_range", level, (MIN_LEVEL, MAX_LEVEL))
            changes[name] = level
    low = changes.get("focus_level_min", current.focus_level_min)
    high = changes.get("focus_level_max", current.focus_level_max or MAX_LEVEL)
    if low > high:
        raise DomainError("settings.level_range_reversed", f"lowest {low} above highest {high}",
                          min=low, max=high)
    if pinned is not None:
        if pinned == NONE:
            changes["focus_level_pinned"] = None
        else:
            try:
                level = int(pinned)
            except ValueError:
                raise DomainError("settings.level_not_a_number", f"{pinned!r} is not a level",
                                  value=pinned) from None
            _in_range("settings.level_out_of_range", level, (MIN_LEVEL, MAX_LEVEL))
            changes["focus_level_pinned"] = level
    return changes


def check_match(lives: int | None, gold: int | None, rounds: int | None,
                draft: bool | None) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    if lives is not None:
        _in_range("settings.lives_out_of_range", lives, LIVES)
        changes["match_lives"] = lives
    if gold is not None:
        _in_range("settings.gold_out_of_range", gold, GOLD)
        changes["match_gold"] = gold
    if rounds is not None:
        _in_range("settings.rounds_out_of_range", rounds, ROUNDS)
        changes["match_rounds"] = rounds
    if draft is not None:
        changes["match_draft"] = draft
    return changes


def current_victories(settings: ServerSettings) -> list[Victory]:
    """The server's default victories (the engine's when never set)."""
    stored = settings.rithmo_victories
    if stored is None:
        return [Victory.make("body"), Victory.make("mediocre")]
    return [Victory.from_json(v) for v in stored]


def check_rithmo(current: ServerSettings, lang: str, victory: str | None, proper: str | None,
                 thresholds: Mapping[str, int | None], hours: int | None) -> dict[str, Any]:
    """Changes to the Rithmomachia defaults: one common victory (or none) with its thresholds,
    one proper victory (or none), and the time limit. Thresholds given alone change the current
    common victory's."""
    changes: dict[str, Any] = {}
    if hours is not None:
        _in_range("settings.time_limit_out_of_range", hours, TIME_LIMIT_HOURS)
        changes["move_time_limit_s"] = hours * 3600
    given = {name: value for name, value in thresholds.items() if value is not None}
    if victory is None and proper is None and not given:
        return changes
    now = current_victories(current)
    common = next((v for v in now if v.kind not in PROPER), None)
    proper_now = next((v for v in now if v.kind in PROPER), None)
    if victory is not None:
        common = None if victory == NONE else Victory.make(victory)
    if proper is not None:
        proper_now = None if proper == NONE else Victory.make(proper)
    if given:
        if common is None:
            raise DomainError("settings.rithmo.thresholds_without_victory",
                              "thresholds need a common victory")
        kind = common.kind
        for name, value in given.items():
            if name not in KINDS[kind]:
                uses = ", ".join(t(f"settings.thresholds.{n}", lang) for n in KINDS[kind])
                raise DomainError("settings.rithmo.threshold_unused",
                                  f"the victory {kind} has no {name} threshold",
                                  victory=t(f"settings.victories.{kind}", lang),
                                  threshold=t(f"settings.thresholds.{name}", lang), uses=uses)
            low = 2 if name in CEILINGS.get(kind, ()) else 1
            if not low <= value <= ARMY_MOST[name]:
                raise DomainError("settings.rithmo.threshold_unreachable",
                                  f"{name} {value} is outside {low}–{ARMY_MOST[name]}",
                                  threshold=t(f"settings.thresholds.{name}", lang), value=value,
                                  low=low, high=ARMY_MOST[name])
        keep = {n: getattr(common, n) for n in KINDS[kind]} if victory is None else {}
        common = Victory.make(kind, **{**keep, **given})
    chosen = [v for v in (common, proper_now) if v is not None]
    if not chosen:
        raise DomainError("settings.rithmo.no_victory", "a game needs at least one victory")
    changes["rithmo_victories"] = [v.to_json() for v in chosen]
    return changes


# ---------------------------------------------------------------------------------------------
# Saying the settings


def victory_text(victory: Victory, lang: str) -> str:
    name = t(f"settings.victories.{victory.kind}", lang)
    ceilings = CEILINGS.get(victory.kind, ())
    parts = [t(f"settings.show.{'fewer_than' if n in ceilings else 'at_least'}", lang,
               threshold=t(f"settings.thresholds.{n}", lang), value=getattr(victory, n))
             for n in KINDS[victory.kind]]
    return name if not parts else t("settings.show.victory_with", lang, victory=name,
                                    thresholds=", ".join(parts))


def _yes_no(value: bool, lang: str) -> str:
    return t("settings.show.yes" if value else "settings.show.no", lang)


def settings_embed(settings: ServerSettings, lang: str) -> discord.Embed:
    embed = discord.Embed(title=t("settings.show.title", lang), colour=discord.Colour.gold())
    language = settings.language or "auto"
    embed.add_field(name=t("settings.show.language", lang),
                    value=t(f"settings.choices.{language}", lang), inline=False)
    if settings.daily_channel_id is None:
        daily = t("settings.show.daily_off", lang)
    else:
        daily = t("settings.show.daily_value", lang, channel=f"<#{settings.daily_channel_id}>",
                  hour=settings.daily_hour, timezone=settings.timezone)
    embed.add_field(name=t("settings.show.daily", lang), value=daily, inline=False)
    low, high = settings.focus_level_min, settings.focus_level_max or MAX_LEVEL
    if settings.focus_level_pinned is None:
        focus = t("settings.show.focus_range", lang, min=low, max=high)
    else:
        focus = t("settings.show.focus_pinned", lang, level=settings.focus_level_pinned,
                  min=low, max=high)
    embed.add_field(name=t("settings.show.focus", lang), value=focus, inline=False)
    embed.add_field(name=t("settings.show.match", lang),
                    value=t("settings.show.match_value", lang, lives=settings.match_lives,
                            gold=settings.match_gold, rounds=settings.match_rounds,
                            draft=_yes_no(settings.match_draft, lang)), inline=False)
    victories = " · ".join(victory_text(v, lang) for v in current_victories(settings))
    embed.add_field(name=t("settings.show.rithmo", lang), value=victories, inline=False)
    hours = settings.move_time_limit_s / 3600
    embed.add_field(name=t("settings.show.time_limit", lang),
                    value=t("settings.show.time_limit_value", lang,
                            hours=number(hours, lang, max_places=6)),
                    inline=False)
    roles = sorted(settings.admin_role_ids)
    teachers = (t("settings.show.teachers_roles", lang,
                  roles=", ".join(f"<@&{role}>" for role in roles))
                if roles else t("settings.show.teachers_none", lang))
    embed.add_field(name=t("settings.show.teachers", lang), value=teachers, inline=False)
    return embed


def _choices(values: Iterable[str], key: str, english: Mapping[str, str]) -> list[Choice[str]]:
    return [Choice(name=locale_str(english[v], key=f"{key}.{v}"), value=v) for v in values]


LANGUAGE_NAMES = {"en": "English", "fr": "French",
                  "auto": "Each member's own Discord language"}
VICTORY_NAMES = {
    "body": "Body", "goods": "Goods", "proceeds": "Proceeds", "body_goods": "Body and goods",
    "body_proceeds": "Body and proceeds", "goods_proceeds": "Goods and proceeds",
    "body_goods_proceeds": "Body, goods and proceeds", "lawsuit": "Lawsuit", "honour": "Honour",
    "honour_lawsuit": "Honour and lawsuit", "mediocre": "Mediocre", "great": "Great",
    "excellent": "Excellent", NONE: "None",
}
PINNED_NAMES = {NONE: "None: each student's own level",
                **{str(level): str(level) for level in range(MIN_LEVEL, MAX_LEVEL + 1)}}


class Settings(ArdoiseCog):
    """The ``/settings`` group; every subcommand is for teachers (see ``interaction_check``)."""

    settings = app_commands.Group(
        name="settings", description="Ardoise's settings for this server (teachers)",
        guild_only=True, default_permissions=discord.Permissions(manage_guild=True))
    teachers = app_commands.Group(name="teachers", parent=settings,
                                  description="The roles that may change these settings")

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if not await is_teacher(interaction):
            raise NotATeacher("settings.teachers_only",
                              "only teachers (Manage Server or a teacher role) may do this")
        return True

    async def _save(self, interaction: discord.Interaction, saved_key: str,
                    changes: Mapping[str, Any], lang: str, **params: Any) -> None:
        assert interaction.guild_id is not None
        db = self.bot.db
        assert db is not None
        if changes:
            settings = await db.servers.update(interaction.guild_id, **changes)
            text = t(saved_key, lang, **params)
        else:
            settings = await db.servers.get(interaction.guild_id)
            text = t("settings.saved.unchanged", lang)
        await replies.respond(interaction, text, embed=settings_embed(settings, lang),
                              ephemeral=True)

    async def _current(self, interaction: discord.Interaction) -> ServerSettings:
        assert interaction.guild_id is not None and self.bot.db is not None
        return await self.bot.db.servers.get(interaction.guild_id)

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
        assert self.bot.db is not None
        settings = await self.bot.db.servers.update(interaction.guild_id, language=chosen)
        self.bot.languages.set(interaction.guild_id, chosen)
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
    async def daily_timezone(self, interaction: discord.Interaction,
                             current: str) -> list[Choice[str]]:
        return replies.fit_choices(Choice(name=name, value=name)
                                   for name in timezone_choices(current))

    @settings.command(name="daily-off", description="Stop posting the daily challenge")
    async def daily_off(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        await self._save(interaction, "settings.saved.daily_off", {"daily_channel_id": None}, lang)

    @settings.command(name="focus", description="The Focus levels students play at")
    @app_commands.describe(min_level=f"The lowest level a student goes down to ({MIN_LEVEL}–"
                                     f"{MAX_LEVEL})",
                           max_level=f"The highest level a student goes up to ({MIN_LEVEL}–"
                                     f"{MAX_LEVEL})",
                           pinned_level="One level for everyone, or none (each their own)")
    @app_commands.choices(pinned_level=_choices(PINNED_NAMES, "settings.choices.pinned",
                                                PINNED_NAMES))
    async def focus(self, interaction: discord.Interaction,
                    min_level: app_commands.Range[int, MIN_LEVEL, MAX_LEVEL] | None = None,
                    max_level: app_commands.Range[int, MIN_LEVEL, MAX_LEVEL] | None = None,
                    pinned_level: str | None = None) -> None:
        lang = await lang_for(interaction)
        changes = check_focus(await self._current(interaction), min_level, max_level,
                              pinned_level)
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
        assert interaction.guild_id is not None and self.bot.db is not None
        settings = await self.bot.db.servers.set_admin_roles(interaction.guild_id, roles)
        await replies.respond(interaction, t(key, lang, role=mention),
                              embed=settings_embed(settings, lang),
                              ephemeral=True)


async def setup(bot: Any) -> None:
    await bot.add_cog(Settings(bot))
