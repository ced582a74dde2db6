"""Leaving a match of The 20 Digits on Discord: ``/digits resign``'s confirmation, the question
``/digits solo`` asks while a solo match is open, and what the shop clock posts.

The use cases are ``bot.play.digits_leave``; the command and the loop ``cogs/_digits_leave.py``.

The confirmations are persistent buttons (``GameButton``) on an ephemeral message: their
custom id carries the match, the moment they were asked (as the version: a confirmation older
than ``CONFIRM_S`` is refused as expired, one from the future as forged) and the member who
asked (anyone else is told it is not theirs). What they do is checked again on the match as it
is then: a match over already says so, and nothing changes.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

import discord
from discord import ui

from bot import replies
from bot.digits.levels import CHOICES, DEFAULT_LEVEL
from bot.domain import DomainError
from bot.i18n import lang_for, t
from bot.play import digits as play
from bot.play import digits_leave as leave
from bot.play.digits import StoredMatch
from bot.replies import pings
from bot.services import ServicedBot, services_of
from bot.ui.digits import (
    announce_battle,
    bold,
    channel_of,
    client,
    match_embed,
    match_view,
    public_lang,
    refresh_public,
    shown,
)
from bot.views import AskedButton, invalid_component

#: How long a confirmation may be answered (Discord lets a bot edit an ephemeral answer 15 min).
CONFIRM_S = 15 * 60


def clock() -> float:
    """Unix seconds now (a test replaces it to age a confirmation)."""
    return time.time()


def stamp(moment: Any) -> str:
    ts = int(moment.timestamp())
    return f"<t:{ts}:f> (<t:{ts}:R>)"


def opponent_text(game: StoredMatch, player: str, lang: str) -> str:
    """Whom the member plays: the other member, or (a solo match) the ghosts."""
    if game.match.solo:
        return t("digits_leave.resign.ghosts", lang)
    return shown(game, game.match.opponent(player), lang)


class Confirmation(AskedButton):
    """A button of a confirmation: match id, asked at (the version), the member who asked."""

    max_age_s = CONFIRM_S
    not_yours_code = "digits_leave.not_your_confirmation"
    expired_code = "digits_leave.expired"

    def now(self) -> float:
        return clock()


def asked(game: StoredMatch, user_id: int) -> dict[str, Any]:
    return {"game_id": game.id, "version": int(clock()), "arg": str(user_id)}


# --------------------------------------------------------------------------------------------
# /digits resign


async def ask_resign(interaction: discord.Interaction, games: list[StoredMatch]) -> None:
    """The private question: one "Resign" button per open match (a choice when there are
    several), and "Keep playing"."""
    lang = await lang_for(interaction)
    user = interaction.user.id
    if not games:
        raise DomainError("digits_leave.no_match", "you play no match on this server")
    player = str(user)
    view = ui.View(timeout=None)
    for game in games[:20]:
        view.add_item(ConfirmResign(
            **asked(game, user), style=discord.ButtonStyle.danger,
            label=t("digits_leave.resign.button", lang, match=game.id, round=game.match.round,
                    opponent=opponent_text(game, player, lang))))
    view.add_item(KeepPlaying(**asked(games[0], user), style=discord.ButtonStyle.secondary,
                              label=t("digits_leave.resign.keep", lang)))
    game = games[0]
    key = ("digits_leave.resign.ask_many" if len(games) > 1
           else "digits_leave.resign.ask_solo" if game.match.solo
           else "digits_leave.resign.ask_one")
    await replies.respond(
        interaction, t(key, lang, match=game.id, round=game.match.round,
                       opponent=opponent_text(game, player, lang), number=len(games)),
        view=view, ephemeral=True)


class ConfirmResign(Confirmation, action="digits.resign"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        self.check(interaction)
        ended = await leave.resign(services_of(interaction).db, int(self.game_id),
                                   interaction.user.id)
        lang = await lang_for(interaction)
        await replies.update(interaction, view=None,
                             content=t("digits_leave.resign.done", lang, match=ended.game.id))
        await announce_end(client(interaction), ended)


class KeepPlaying(Confirmation, action="digits.keep"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        self.check(interaction)
        lang = await lang_for(interaction)
        await replies.update(interaction, view=None, content=t("digits_leave.resign.kept", lang))


def end_text(ended: leave.Ended, lang: str) -> str:
    game = ended.game
    match = game.match
    names = ", ".join(bold(shown(game, p, lang)) for p in ended.by)
    if match.winner == "draw":
        line = t("digits_leave.end.time_draw", lang, names=names, match=game.id)
    else:
        assert match.winner is not None
        key = f"digits_leave.end.{ended.how}" + ("_solo" if match.solo else "")
        line = t(key, lang, name=names, match=game.id,
                 winner=bold(shown(game, match.winner, lang)))
    lines = [line]
    if ended.ratings:
        changes = " · ".join(
            t("digits.end.rating", lang, name=shown(game, str(user), lang),
              before=round(change.before.rating), after=round(change.after.rating))
            for user, change in ended.ratings.items())
        lines.append(t("digits.end.ratings", lang, changes=changes))
    return "\n".join(lines)


async def announce_end(bot: ServicedBot, ended: leave.Ended) -> None:
    """Say in the match's channel how it ended, pinging the players told (the opponent of one
    who resigned; every player of a match lost on time), and retire the match message's
    buttons."""
    game = ended.game
    lang = await public_lang(bot, game)
    channel = await channel_of(bot, game.row.channel_id)
    if channel is None:
        return
    told = [m for m in game.members if ended.how == "time" or str(m) not in ended.by]
    mentions = " ".join(f"<@{m}>" for m in told)
    text = f"{mentions}\n{end_text(ended, lang)}" if told else end_text(ended, lang)
    await replies.post(channel, text, allowed_mentions=pings(*told))
    if game.row.message_id is not None and hasattr(channel, "get_partial_message"):
        # A message gone: the post above says it all.
        with contextlib.suppress(discord.HTTPException):
            await replies.edit(channel.get_partial_message(game.row.message_id),
                               embed=match_embed(game, lang), view=None)


# --------------------------------------------------------------------------------------------
# /digits solo while a solo match is open


async def ask_open_solo(interaction: discord.Interaction, level: str = DEFAULT_LEVEL) -> bool:
    """Whether the member has a solo match open here; if so, the private question is asked
    (go on with it, or resign it and start a new one) and the command does nothing else."""
    assert interaction.guild_id is not None
    user = interaction.user.id
    games = await leave.open_matches(services_of(interaction).db, interaction.guild_id, user,
                                     "ghost")
    if not games:
        return False
    game = games[-1]
    lang = await lang_for(interaction)
    view = ui.View(timeout=None)
    view.add_item(GoOnSolo(**asked(game, user), style=discord.ButtonStyle.primary,
                           label=t("digits_leave.solo.go_on", lang, round=game.match.round)))
    restart = asked(game, user)
    restart["arg"] = f"{restart['arg']}.{level}"  # the new match's level, as the command asked
    view.add_item(RestartSolo(**restart, style=discord.ButtonStyle.danger,
                              label=t("digits_leave.solo.restart", lang)))
    await replies.respond(interaction, t("digits_leave.solo.ask", lang, match=game.id,
                                         round=game.match.round),
                          view=view, ephemeral=True)
    return True


class GoOnSolo(Confirmation, action="digits.go_on"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        self.check(interaction)
        game = await play.load_active(services_of(interaction).db, int(self.game_id))
        lang = await lang_for(interaction)
        await replies.update(interaction, content=t("digits_leave.solo.here", lang,
                                                    match=game.id, round=game.match.round),
                             embed=match_embed(game, lang), view=match_view(game, lang))


class RestartSolo(Confirmation, action="digits.restart"):
    """``digits.restart:<match>:<asked at>:<member>.<level>``: resign, then a new solo match at
    the level the command asked for."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        member, _, level = self.arg.partition(".")
        level = level or DEFAULT_LEVEL
        if level not in CHOICES:
            raise invalid_component("level")
        self.arg = member
        self.check(interaction)
        db = services_of(interaction).db
        bot = client(interaction)
        user = interaction.user
        ended = await leave.resign(db, int(self.game_id), user.id)
        lang = await lang_for(interaction)
        await replies.update(interaction, view=None,
                             content=t("digits_leave.resign.done", lang, match=ended.game.id))
        await announce_end(bot, ended)
        assert interaction.guild_id is not None
        game = await play.solo(db, interaction.guild_id, interaction.channel_id,
                               play.Member(user.id, user.display_name), lang=lang,
                               most=bot.services.limits.open_games["digits_solo"], level=level)
        sent = await replies.followup(
            interaction, t("digits.solo.started", lang, name=user.mention), wait=True,
            embed=match_embed(game, lang), view=match_view(game, lang),
            allowed_mentions=pings(user.id))
        await play.set_message(db, game.id, sent.id)


# --------------------------------------------------------------------------------------------
# What the clock posts


async def tell(bot: ServicedBot, event: leave.Warned | leave.TimeUp | leave.Ended) -> None:
    """Post a tick's event in the match's channel, pinging only the players concerned."""
    if isinstance(event, leave.Ended):
        await announce_end(bot, event)
        return
    game = event.game
    lang = await public_lang(bot, game)
    channel = await channel_of(bot, game.row.channel_id)
    late = " ".join(f"<@{p}>" for p in event.late)
    if isinstance(event, leave.Warned):
        if channel is not None:
            await replies.post(channel, t("digits_leave.clock.warning", lang, players=late,
                                          count=len(event.late), match=game.id,
                                          round=game.match.round,
                                          deadline=stamp(event.deadline)),
                               allowed_mentions=pings(*event.late))
        return
    round_ = event.record.round if event.record is not None else game.match.round
    if channel is not None:
        await replies.post(channel, t("digits_leave.clock.time_up", lang, players=late,
                                      count=len(event.late), match=game.id, round=round_),
                           allowed_mentions=pings(*event.late))
    if event.record is not None:
        await announce_battle(bot, game, event.record)
    else:
        await refresh_public(bot, game.id)


#: The confirmations' buttons (the cog registers them).
PERSISTENT_ITEMS = (ConfirmResign, KeepPlaying, GoOnSolo, RestartSolo)
