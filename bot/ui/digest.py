"""The weekly digest's presentation (``bot.play.digest``): the channel check (teachers only), the
embed, and its persistent "Full report" button."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Protocol
from zoneinfo import ZoneInfo

import discord
from discord import app_commands, ui

from bot.i18n import t
from bot.play.assignments import NAME_LENGTH
from bot.play.class_report import topic_name
from bot.play.digest import DEFAULT_HOUR, DEFAULT_WEEKDAY, WeekDigest
from bot.replies import shown_name
from bot.services import Key, services_of
from bot.texts import WEEKDAY_NO_YEAR, date_text, percent, skill_name
from bot.ui.assignments import when_text
from bot.ui.members import fetch_members, web_names
from bot.views import GameButton
from db import Database, ServerSettings

__all__ = ["DEFAULT_HOUR", "DEFAULT_WEEKDAY"]  # the cog's defaults (cogs import no use case)

COLOUR = 0x457B9D
FIELD_LIMIT, MORE_ROOM = 1024, 60

#: ``/settings class day:`` [``jour``]: 0 is Monday.
DAY_OPTIONS = [app_commands.Choice(name=app_commands.locale_str(
    t(f"digest.days.{n}", "en"), key=f"digest.days.{n}"), value=n) for n in range(7)]


def students_reading(channel: discord.abc.GuildChannel, settings: ServerSettings
                     ) -> discord.Role | None:
    """A role of students who can read ``channel`` (@everyone first), or None when only
    teachers can: a role is a teachers' one when it is one of the server's teacher roles
    (``/settings teachers``) or has Manage Server or Administrator; the bots' roles (Ardoise's
    own included) are no students'."""
    me = channel.guild.me
    bots = {r.id for r in me.roles if not r.is_default()} if me is not None else set()
    for role in [channel.guild.default_role, *channel.guild.roles]:
        if role.id in settings.admin_role_ids or role.permissions.manage_guild \
                or role.permissions.administrator or role.is_bot_managed() or role.id in bots:
            continue
        if channel.permissions_for(role).view_channel:
            return role
    return None


class DigestFlows(Protocol):
    async def digest_report(self, interaction: discord.Interaction, pseudonym: bool) -> None:
        """The full class report of the week (the digest's button), for a teacher."""
        ...


#: Where the services keep the digest's flow (put there by the classroom's conductor).
DIGEST_FLOWS: Key[DigestFlows] = Key("class.digest.flows")


class DigestReportButton(GameButton, action="class.digest"):
    """Under a digest: ``class.digest:<guild id>:1:<p or n>``, the week's class report, privately
    (pseudonyms when the digest had them)."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        flows = services_of(interaction).kept.get(DIGEST_FLOWS)
        await flows.digest_report(interaction, self.arg == "p")


def _bounded(lines: Sequence[str], lang: str, sep: str = "\n") -> str:
    shown: list[str] = []
    used = 0
    for n, line in enumerate(lines):
        if used + len(line) + len(sep) > FIELD_LIMIT - MORE_ROOM:
            shown.append(t("digest.more", lang, count=len(lines) - n))
            break
        shown.append(line)
        used += len(line) + len(sep)
    return sep.join(shown) or t("digest.none", lang)


async def digest_names(guild: discord.Guild, digest: WeekDigest, settings: ServerSettings,
                       lang: str, db: Database) -> tuple[dict[int, str], list[int]]:
    """The names the digest shows (display names, or "Student N" as the class report numbers
    them) and who of the idle known players is still a member and a student (no bot, no
    teacher)."""
    wanted = [p.user_id for p in digest.practised] + digest.idle
    members = await fetch_members(guild, wanted)

    def student(member: discord.Member | None) -> bool:
        return (member is not None and not member.bot
                and not member.guild_permissions.manage_guild
                and {r.id for r in member.roles}.isdisjoint(settings.admin_role_ids))

    web = await web_names(db, guild.id, wanted, lang)  # "Léa (web)": a student, no member
    idle = [uid for uid in digest.idle if uid in web or student(members.get(uid))]
    if digest.pseudonym:
        rank = {uid: n for n, uid in enumerate(digest.order, 1)}
        return {uid: t("class.report.pseudonym", lang, number=rank.get(uid, len(rank) + 1))
                for uid in wanted}, idle
    gone = t("class.assign.report.former_member", lang)
    return {uid: web.get(uid) or (member.display_name if (member := members.get(uid))
                                  is not None else gone)
            for uid in wanted}, idle


def _day(day: date, lang: str) -> str:
    return date_text(day, lang, WEEKDAY_NO_YEAR)


def digest_embed(digest: WeekDigest, names: Mapping[int, str], idle: Sequence[int],
                 zone: ZoneInfo, lang: str) -> discord.Embed:
    embed = discord.Embed(title=t("digest.title", lang, first=_day(digest.first_day, lang),
                                  last=_day(digest.last_day, lang)), colour=COLOUR)
    if digest.empty:
        embed.description = t("digest.empty", lang)
        return embed
    practised = [t("digest.practised_line", lang, name=shown_name(names[p.user_id]),
                   count=p.answers, share=percent(p.right / p.answers, lang))
                 for p in digest.practised]
    embed.add_field(name=t("digest.practised", lang, count=len(practised)),
                    value=_bounded(practised, lang), inline=False)
    embed.add_field(name=t("digest.idle", lang, count=len(idle)),
                    value=_bounded([shown_name(names[uid]) for uid in idle], lang, ", "),
                    inline=False)
    moved = [t("digest.moved_up" if m.now > m.before else "digest.moved_down", lang,
               topic=shown_name(topic_name(m.topic, lang), 60),
               before=percent(m.before, lang),
               now=percent(m.now, lang)) for m in digest.moved]
    embed.add_field(name=t("digest.moved", lang), value=_bounded(moved, lang), inline=False)
    mastery = [t("digest.mastery_line", lang, skill=skill_name(m.skill, lang), up=m.up,
                 down=m.down) for m in digest.mastery]
    embed.add_field(name=t("digest.mastery", lang), value=_bounded(mastery, lang), inline=False)
    due = [t("digest.due_line", lang, name=shown_name(a.name, NAME_LENGTH),
             due=when_text(a.due_at, zone, lang), done=a.finished,
             started=a.started - a.finished) for a in digest.due]
    embed.add_field(name=t("digest.due", lang), value=_bounded(due, lang), inline=False)
    found = [t("digest.mistake_line", lang, mistake=t(f"misconceptions.{name}", lang),
               count=count) for name, count in digest.mistakes]
    embed.add_field(name=t("digest.mistakes", lang), value=_bounded(found, lang), inline=False)
    embed.set_footer(text=t("digest.footer", lang))
    return embed


def digest_view(digest: WeekDigest, lang: str) -> ui.View | None:
    """The "Full report" button (none under an empty week)."""
    if digest.empty:
        return None
    view = ui.View(timeout=None)
    view.add_item(DigestReportButton(digest.guild_id, 1, "p" if digest.pseudonym else "n",
                                     label=t("digest.button", lang),
                                     style=discord.ButtonStyle.secondary))
    return view
