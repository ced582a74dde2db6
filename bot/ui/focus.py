"""The Focus presentation: the buttons of the public messages (the daily post, a live round's),
the live answer modal, and the embeds of a finished practice or daily round and of a live round.

The ephemeral round itself (a question, its "Answer" button and modal) is ``bot.ui.focus_run``.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import discord
from discord import ui

from bot.domain import DomainError
from bot.focus import LiveRound, Question
from bot.focus.adaptive import Advice
from bot.i18n import month_name, t
from bot.limits import hit
from bot.play.focus import DailyResult
from bot.play.focus_live import Closed, LiveState
from bot.replies import shown_name
from bot.ui.focus_run import (
    VIEW_TIMEOUT,
    AnswerForm,
    FocusRun,
    action_button,
    level_text,
    summary_embed,
)
from bot.views import GameButton, cog_of, invalid_component

LIVE_MODAL_PREFIX = "focus.livem:"
LIVE_MODAL_TIMEOUT = 900.0
RANKING_LINES = 10
FINAL_LINES = 25
MEDALS = ("🥇", "🥈", "🥉")


def date_text(day: date, lang: str) -> str:
    """``30 November 2026``, ``1er décembre 2026``."""
    return t("focus.date_first" if day.day == 1 else "focus.date", lang, day=day.day,
             month=month_name(day.month, lang), year=day.year)


# --- The cog --------------------------------------------------------------------------------



def daily_key(guild_id: int, day: date, user_id: int) -> str:
    """The key of a member's daily round in the registry of open rounds."""
    return f"daily:{guild_id}:{day.isoformat()}:{user_id}"


def _cog(interaction: discord.Interaction) -> Any:
    # The Focus cog runs what these buttons start (its clocks and seeds are its own).
    return cog_of(interaction, "Focus")


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
        await _cog(interaction).take_daily(interaction, posted_day(self.arg))


class LiveAnswerButton(GameButton, action="focus.live_answer"):
    """``focus.live_answer:<live id>:<question number from 1>``: opens the answer modal."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).open_live_answer(interaction, int(self.game_id), self.version)


class LiveNextButton(GameButton, action="focus.live_next"):
    """``focus.live_next:<live id>:<question number from 1>``: the teacher moves on."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).live_next(interaction, int(self.game_id), self.version)


class LiveAnswerModal(AnswerForm):
    """The answer to a live question: ``focus.livem:<live id>:<question number from 1>``. What is
    typed in it is taken by ``Focus.take_live_submission`` (the same one route as the practice
    modals, see ``bot.ui.focus_run``): the modal does nothing itself."""

    def __init__(self, live_id: int, number: int, question: Question, lang: str) -> None:
        super().__init__(t("focus.live.modal_title", lang, n=number),
                         f"{LIVE_MODAL_PREFIX}{live_id}:{number}", question, lang,
                         LIVE_MODAL_TIMEOUT)


def again_view(interaction: discord.Interaction, lang: str, window: float = VIEW_TIMEOUT
               ) -> ui.View:
    """Under a finished practice round: another round at the (new) level, waiting as long as the
    round did (``window``: longer for a student with extra time)."""

    async def again(clicked: discord.Interaction) -> None:
        await _cog(clicked).start_practice(clicked, None, in_place=True)

    view = ui.View(timeout=None)  # only a dynamic item: discord.py keeps nothing of it
    view.add_item(action_button(interaction, kind="practice",
                                label=t("focus.practice.again", lang), on_click=again,
                                window=window))
    return view



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


def closed_embed(closed: Closed, lang: str) -> discord.Embed:
    """A live question once closed: its answer and how many found it."""
    embed = discord.Embed(
        title=t("focus.live.closed_title", lang, n=closed.number, size=closed.size),
        description=t("focus.live.closed_question", lang, question=closed.question.text,
                      expected=closed.question.answer),
        colour=0x6C757D)
    embed.add_field(name="\u200b", value=t(
        "focus.live.closed_count", lang, count=closed.right, right=closed.right,
        answered=closed.answered), inline=False)
    return embed


def _teacher_mention(live: LiveState) -> str:
    return f"<@{live.teacher_id}>"

def ranking_lines(live: LiveState, game: LiveRound, asked: int, limit: int,
                   lang: str) -> str:
    """The ranking after ``asked`` questions, best first."""
    lines = []
    for standing in game.ranking()[:limit]:
        place = MEDALS[standing.rank - 1] if standing.rank <= len(MEDALS) else \
            f"{standing.rank}."
        lines.append(t("focus.live.line", lang, place=place,
                       name=(shown_name(live.names[standing.player])
                             if standing.player in live.names else t("focus.someone", lang)),
                       points=standing.points, correct=standing.correct, size=asked))
    return "\n".join(lines)

def live_embed(live: LiveState) -> discord.Embed:
    game = live.game
    assert game is not None and game.current is not None and live.shown_at is not None
    lang = live.lang
    number, size = game.index + 1, len(game.questions)
    embed = discord.Embed(title=t("focus.live.title", lang, n=number, size=size),
                          description=t("focus.live.question", lang,
                                        question=game.current.text),
                          colour=0x457B9D)
    deadline = f"<t:{int(live.shown_at + game.time_limit)}:T>"
    embed.add_field(name=t("focus.live.until_name", lang),
                    value=t("focus.live.until", lang, deadline=deadline,
                            seconds=f"{game.time_limit:g}"), inline=False)
    if game.index > 0:
        # The ranking after the previous question (the current one has just opened).
        embed.add_field(name=t("focus.live.ranking_name", lang, n=game.index),
                        value=ranking_lines(live, game, game.index, RANKING_LINES, lang)
                        or t("focus.live.nobody", lang), inline=False)
    last = game.index == size - 1
    embed.set_footer(text=t("focus.live.footer", lang, level=level_text(live.level, lang),
                            teacher=(shown_name(live.names[live.teacher_id])
                                     if live.teacher_id in live.names else ""),
                            next=t("focus.live.finish" if last else "focus.live.next", lang)))
    return embed

def live_view(live: LiveState) -> ui.View:
    game = live.game
    assert game is not None
    lang = live.lang
    number = game.index + 1
    last = number == len(game.questions)
    view = ui.View(timeout=None)
    view.add_item(LiveAnswerButton(live.live_id, number, label=t("focus.live.answer", lang),
                                   style=discord.ButtonStyle.primary))
    view.add_item(LiveNextButton(live.live_id, number,
                                 label=t("focus.live.finish" if last else "focus.live.next",
                                         lang),
                                 style=discord.ButtonStyle.secondary))
    return view

def final_rows(live: LiveState, game: LiveRound) -> list[dict[str, Any]]:
    """The final ranking for the picture: points, and right answers out of all."""
    size = len(game.questions)
    return [{"rank": s.rank, "name": live.names.get(s.player, t("focus.someone", live.lang)),
             "score": s.points, "time": f"{s.correct}/{size}"} for s in game.ranking()]

def final_embed(live: LiveState, game: LiveRound) -> discord.Embed:
    lang = live.lang
    lines = ranking_lines(live, game, len(game.questions), FINAL_LINES, lang)
    return discord.Embed(title=t("focus.live.final_title", lang),
                         description=lines or t("focus.live.final_empty", lang),
                         colour=0xE9C46A)


