"""The Focus presentation: the daily post and its button, the embeds of a finished practice or
daily round, and the protocol by which the buttons call the Focus conductor (``FOCUS_FLOWS``).

The ephemeral round itself (a question, its "Answer" button and modal) is ``bot.ui.focus_run``;
the live class round's is ``bot.ui.focus_live``.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Protocol

import discord
from discord import ui

from bot import texts
from bot.domain import DomainError
from bot.focus.adaptive import Advice
from bot.i18n import t
from bot.limits import hit
from bot.play.focus import DailyBoard, DailyResult
from bot.replies import shown_name
from bot.services import Key, services_of
from bot.ui.focus_run import (
    VIEW_TIMEOUT,
    FocusRun,
    action_button,
    summary_embed,
)
from bot.views import GameButton, invalid_component

RANKING_LINES = 10


def date_text(day: date, lang: str) -> str:
    """``30 November 2026``, ``1er décembre 2026``: a day, as every text says one."""
    return texts.date_text(day, lang, texts.DAY)


# --- The flow the buttons call back ---------------------------------------------------------


def daily_key(guild_id: int, day: date, user_id: int) -> str:
    """The key of a member's daily round in the registry of open rounds."""
    return f"daily:{guild_id}:{day.isoformat()}:{user_id}"


class FocusFlows(Protocol):
    """What the daily post's and a round's buttons start: the Focus conductor
    (``bot.flows.focus.FocusFlow``)."""

    async def take_daily(self, interaction: discord.Interaction, posted: date | None
                         ) -> None: ...
    async def start_practice(self, interaction: discord.Interaction, level: int | None,
                             *, in_place: bool = False) -> None: ...


#: Where the services keep the Focus flows (put there by the Focus conductor).
FOCUS_FLOWS: Key[FocusFlows] = Key("focus.flows")


def _flow(interaction: discord.Interaction) -> FocusFlows:
    return services_of(interaction).kept.get(FOCUS_FLOWS)


# --- Persistent buttons ------------------------------------------------------------------


def posted_day(text: str) -> date:
    """The day of a daily post's button, as the bot writes it (YYYY-MM-DD); anything else was
    not written by the bot."""
    try:
        if len(text) == 10:
            return date.fromisoformat(text)
    except ValueError:
        pass
    raise invalid_component("day")


class TakeDaily(GameButton, action="focus.daily"):
    """On the daily post: ``focus.daily:<server id>:1:<YYYY-MM-DD>``."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        if str(interaction.guild_id) != self.game_id:
            raise DomainError("game.not_found", "this post belongs to another server")
        hit(interaction, "round")
        await _flow(interaction).take_daily(interaction, posted_day(self.arg))


def daily_post(guild_id: int, day: date, lang: str, low: int, high: int) -> dict[str, Any]:
    """The daily challenge's post in its channel: the day, the levels from ``low`` to ``high``,
    and the persistent "Take today's challenge" button."""
    embed = discord.Embed(title=t("focus.daily.post_title", lang, date=date_text(day, lang)),
                          description=t("focus.daily.post_text", lang, low=low, high=high),
                          colour=0xE9C46A)
    view = ui.View(timeout=None)
    view.add_item(TakeDaily(guild_id, 1, day.isoformat(), label=t("focus.daily.button", lang),
                            style=discord.ButtonStyle.success))
    return {"embed": embed, "view": view}


def again_view(interaction: discord.Interaction, lang: str, window: float = VIEW_TIMEOUT
               ) -> ui.View:
    """Under a finished practice round: another round at the (new) level, waiting as long as the
    round did (``window``: longer for a student with extra time)."""

    async def again(clicked: discord.Interaction) -> None:
        await _flow(clicked).start_practice(clicked, None, in_place=True)

    view = ui.View(timeout=None)  # only a dynamic item: discord.py keeps nothing of it
    view.add_item(action_button(interaction, kind="practice",
                                label=t("focus.practice.again", lang), on_click=again,
                                window=window))
    return view



# --- The leaderboard ----------------------------------------------------------------------


def streak_line(board: DailyBoard, user_id: int, name: str, lang: str) -> str:
    """Under ``/focus leaderboard``: the member's streak, and whether they played today."""
    player, day = board.player, board.day
    current = player.current_daily_streak(day) if player else 0
    best = player.best_daily_streak if player else 0
    if board.row_of(user_id) is not None:
        return t("focus.leaderboard.streak", lang, count=current, name=shown_name(name),
                 current=current, best=best)
    return t("focus.leaderboard.not_played", lang, name=shown_name(name), current=current,
             best=best)


def own_place(board: DailyBoard, user_id: int, lang: str) -> str | None:
    """A student anonymous or hidden in public rankings: their own place, in words only they
    read (never in the picture); ``None`` for everyone else."""
    secret = board.private_rank(user_id)
    if secret is None:
        return None
    anonymous = any(p.user_id == user_id for p in board.public)
    return t("class_students.private_rank.anonymous" if anonymous
             else "class_students.private_rank.hidden", lang, rank=secret)


# --- Embeds ----------------------------------------------------------------------------------


def practice_embed(run: FocusRun, advice: Advice | None) -> discord.Embed:
    """A finished practice round: the corrections, and the next level (at the member's own
    level) or the reminder of it (at a level they chose)."""
    lang = run.lang
    level, own = run.data["level"], run.data["own"]
    embed = summary_embed(run.round, lang, t("focus.practice.title", lang))
    if advice is None:
        embed.add_field(name=t("focus.practice.advice_name", lang),
                        value=t("focus.practice.chosen", lang, level=level, own=own),
                        inline=False)
        return embed
    embed.add_field(name=t("focus.practice.advice_name", lang),
                    value=t(f"focus.practice.advice.{advice.reason}", lang,
                            level=advice.level), inline=False)
    if advice.weak_topics:
        topics = ", ".join(t(f"focus.topics.{topic}", lang) for topic in advice.weak_topics)
        embed.add_field(name=t("focus.practice.weak_name", lang),
                        value=t("focus.practice.weak", lang, topics=topics), inline=False)
    return embed


def daily_embed(run: FocusRun, day: date, result: DailyResult) -> discord.Embed:
    """A finished daily attempt: the corrections, the streak, the rank."""
    lang = run.lang
    embed = summary_embed(run.round, lang,
                          t("focus.daily.title", lang, date=date_text(day, lang)))
    streak = result.player.current_daily_streak(day)
    embed.add_field(name=t("focus.daily.streak_name", lang),
                    value=t("focus.daily.streak", lang, count=streak, current=streak,
                            best=result.player.best_daily_streak))
    mine = result.mine
    if mine is not None:
        embed.add_field(name=t("focus.daily.rank_name", lang),
                        value=t("focus.daily.rank_first" if mine.rank == 1
                                else "focus.daily.rank", lang, rank=mine.rank,
                                total=result.total))
    return embed
