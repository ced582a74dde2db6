"""Leaving a match of The 20 Digits on Discord: ``/digits resign``'s confirmation, the question
``/digits solo`` asks while a solo match is open, and what the shop clock posts.

The use cases are ``bot.play.digits_leave``; the command and the loop ``cogs/_digits_leave.py``;
what a click or a tick does (the use case called, the posts) is conducted by
``bot.flows.digits``, which the buttons here call back through ``LeaveFlows`` (registered under
``LEAVE_FLOWS`` in the services).

The confirmations are persistent buttons (``GameButton``) on an ephemeral message: their
custom id carries the match, the moment they were asked (as the version: a confirmation older
than ``CONFIRM_S`` is refused as expired, one from the future as forged) and the member who
asked (anyone else is told it is not theirs). What they do is checked again on the match as it
is then: a match over already says so, and nothing changes.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

import discord
from discord import ui

from bot.digits.levels import CHOICES, DEFAULT_LEVEL
from bot.i18n import t
from bot.play import digits_leave as leave
from bot.play.digits import StoredMatch
from bot.services import Key, services_of
from bot.ui.digits import bold, shown
from bot.views import AskedButton, invalid_component

#: How long a confirmation may be answered (Discord lets a bot edit an ephemeral answer 15 min).
CONFIRM_S = 15 * 60
#: The matches one question offers to resign (a message holds 25 buttons; "Keep playing" too).
MOST_OFFERED = 20


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


class LeaveFlows(Protocol):
    """What the confirmations' buttons call: The 20 Digits' conductor
    (``bot.flows.digits.DigitsFlow``, registered under ``LEAVE_FLOWS``)."""

    async def confirm_resign(self, interaction: discord.Interaction, match_id: int) -> None: ...
    async def keep_playing(self, interaction: discord.Interaction) -> None: ...
    async def go_on_solo(self, interaction: discord.Interaction, match_id: int) -> None: ...
    async def restart_solo(self, interaction: discord.Interaction, match_id: int,
                           level: str) -> None: ...


#: Where the services keep the flows of leaving a match (put there by the flow).
LEAVE_FLOWS: Key[LeaveFlows] = Key("digits.leave.flows")


def flows(interaction: discord.Interaction) -> LeaveFlows:
    return services_of(interaction).kept.get(LEAVE_FLOWS)


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


def resign_question(games: list[StoredMatch], user: int, lang: str) -> tuple[str, ui.View]:
    """The private question: one "Resign" button per open match (a choice when there are
    several), and "Keep playing"."""
    player = str(user)
    view = ui.View(timeout=None)
    for game in games[:MOST_OFFERED]:
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
    return (t(key, lang, match=game.id, round=game.match.round,
              opponent=opponent_text(game, player, lang), number=len(games)), view)


class ConfirmResign(Confirmation, action="digits.resign"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        self.check(interaction)
        await flows(interaction).confirm_resign(interaction, int(self.game_id))


class KeepPlaying(Confirmation, action="digits.keep"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        self.check(interaction)
        await flows(interaction).keep_playing(interaction)


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


def told(ended: leave.Ended) -> list[int]:
    """Whom the end of a match pings: the opponent of one who resigned; every player of a match
    lost on time."""
    return [m for m in ended.game.members if ended.how == "time" or str(m) not in ended.by]


def end_post(ended: leave.Ended, lang: str) -> str:
    """The channel's post of how a match ended, the players told (``told``) mentioned first."""
    pinged = told(ended)
    mentions = " ".join(f"<@{m}>" for m in pinged)
    return f"{mentions}\n{end_text(ended, lang)}" if pinged else end_text(ended, lang)


# --------------------------------------------------------------------------------------------
# /digits solo while a solo match is open


def solo_question(game: StoredMatch, user: int, level: str, lang: str) -> tuple[str, ui.View]:
    """The private question while the solo match ``game`` is open: go on with it, or resign it
    and start a new one at ``level`` (the one the command asked for)."""
    view = ui.View(timeout=None)
    view.add_item(GoOnSolo(**asked(game, user), style=discord.ButtonStyle.primary,
                           label=t("digits_leave.solo.go_on", lang, round=game.match.round)))
    restart = asked(game, user)
    restart["arg"] = f"{restart['arg']}.{level}"  # the new match's level, as the command asked
    view.add_item(RestartSolo(**restart, style=discord.ButtonStyle.danger,
                              label=t("digits_leave.solo.restart", lang)))
    return t("digits_leave.solo.ask", lang, match=game.id, round=game.match.round), view


class GoOnSolo(Confirmation, action="digits.go_on"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        self.check(interaction)
        await flows(interaction).go_on_solo(interaction, int(self.game_id))


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
        await flows(interaction).restart_solo(interaction, int(self.game_id), level)


# --------------------------------------------------------------------------------------------
# What the clock posts


def late_mentions(late: tuple[str, ...]) -> str:
    return " ".join(f"<@{p}>" for p in late)


def warning_text(event: leave.Warned, lang: str) -> str:
    game = event.game
    return t("digits_leave.clock.warning", lang, players=late_mentions(event.late),
             count=len(event.late), match=game.id, round=game.match.round,
             deadline=stamp(event.deadline))


def time_up_text(event: leave.TimeUp, lang: str) -> str:
    game = event.game
    round_ = event.record.round if event.record is not None else game.match.round
    return t("digits_leave.clock.time_up", lang, players=late_mentions(event.late),
             count=len(event.late), match=game.id, round=round_)


#: The confirmations' buttons (the cog registers them).
PERSISTENT_ITEMS = (ConfirmResign, KeepPlaying, GoOnSolo, RestartSolo)
