"""The live class round's presentation: its persistent buttons (answer; the teacher's pause,
close, end and "Next"; the report), the answer modal, and the embeds of a question, of a question
closed and of the final ranking.

Public rankings go through ``bot.play.focus_live.public_ranking``: a student the teacher set as
"anonymous" shows as "a student", a "hidden" one is left out; the teacher's report lists all.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from typing import Any, Protocol

import discord
from discord import ui

from bot.corrections import is_missing, worked_line
from bot.focus import LiveRound, Question
from bot.i18n import image_words, t
from bot.play.focus_live import Closed, LiveAnswered, LiveState, LiveStep, public_ranking
from bot.play.live_report import LiveReport, report_csv
from bot.play.question_sets import MAX_NAME_CHARS
from bot.replies import shown_name
from bot.services import Key, services_of
from bot.ui import alt_text, question_report
from bot.ui.focus_run import (
    AnswerForm,
    asks_itself,
    expected_text,
    level_text,
    question_level_text,
    question_line,
    shown_question,
)
from bot.views import GameButton
from images import render_leaderboard, render_live_report

LIVE_MODAL_PREFIX = "focus.livem:"
LIVE_MODAL_TIMEOUT = 900.0
RANKING_LINES = 10
FINAL_LINES = 25
MEDALS = ("🥇", "🥈", "🥉")


class LiveFlows(Protocol):
    """What the live round's buttons start: the live conductor (``bot.flows.focus_live``)."""

    async def open_live_answer(self, interaction: discord.Interaction, live_id: int,
                               number: int) -> None: ...
    async def live_next(self, interaction: discord.Interaction, live_id: int, number: int
                        ) -> None: ...
    async def live_pause(self, interaction: discord.Interaction, live_id: int, number: int
                         ) -> None: ...
    async def live_skip(self, interaction: discord.Interaction, live_id: int, number: int
                        ) -> None: ...
    async def live_end(self, interaction: discord.Interaction, live_id: int, number: int
                       ) -> None: ...
    async def live_report(self, interaction: discord.Interaction, live_id: int) -> None: ...
    async def web_answer(self, live_id: int, number: int, user_id: int, name: str,
                         typed: str) -> LiveAnswered: ...
    def watch_live(self, listener: Callable[[LiveState], None]) -> Callable[[], None]: ...


#: Where the services keep the live rounds' flows (put there by the live conductor).
LIVE_FLOWS: Key[LiveFlows] = Key("focus.live.flows")


def _flow(interaction: discord.Interaction) -> LiveFlows:
    return services_of(interaction).kept.get(LIVE_FLOWS)


# --- Persistent buttons ------------------------------------------------------------------
# ``focus.live_<verb>:<live id>:<question number from 1>``: a click on an older question's
# button is refused as stale (``game.stale``) by the use case.


class LiveAnswerButton(GameButton, action="focus.live_answer"):
    """Opens the answer modal."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        await _flow(interaction).open_live_answer(interaction, int(self.game_id), self.version)


class LiveNextButton(GameButton, action="focus.live_next"):
    """A manual round: the teacher moves on."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        await _flow(interaction).live_next(interaction, int(self.game_id), self.version)


class LivePauseButton(GameButton, action="focus.live_pause"):
    """The teacher pauses the question, or resumes it."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        await _flow(interaction).live_pause(interaction, int(self.game_id), self.version)


class LiveSkipButton(GameButton, action="focus.live_skip"):
    """The teacher closes the question now."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        await _flow(interaction).live_skip(interaction, int(self.game_id), self.version)


class LiveEndButton(GameButton, action="focus.live_end"):
    """The teacher ends the round now: the final ranking."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        await _flow(interaction).live_end(interaction, int(self.game_id), self.version)


class LiveReportButton(GameButton, action="focus.live_report"):
    """``focus.live_report:<live id>:0`` under the final ranking: the teacher's report."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        await _flow(interaction).live_report(interaction, int(self.game_id))


class LiveAnswerModal(AnswerForm):
    """The answer to a live question: ``focus.livem:<live id>:<question number from 1>``. What is
    typed in it is taken by ``LiveFlow.take_live_submission`` (the same one route as the practice
    modals, see ``bot.ui.focus_run``): the modal does nothing itself."""

    def __init__(self, live_id: int, number: int, question: Question, lang: str) -> None:
        super().__init__(t("focus.live.modal_title", lang, n=number),
                         f"{LIVE_MODAL_PREFIX}{live_id}:{number}", question, lang,
                         LIVE_MODAL_TIMEOUT)


# --- Embeds and views ----------------------------------------------------------------------


def public_name(live: LiveState, user_id: int, anonymous: bool) -> str:
    if anonymous:
        return t("live.a_student", live.lang)
    name = live.names.get(user_id)
    return t("focus.someone", live.lang) if name is None else shown_name(name)


def ranking_lines(live: LiveState, game: LiveRound, asked: int, limit: int) -> str:
    """The public ranking after ``asked`` questions, best first."""
    lines = []
    for line in public_ranking(live, game)[:limit]:
        place = MEDALS[line.rank - 1] if line.rank <= len(MEDALS) else f"{line.rank}."
        lines.append(t("focus.live.line", live.lang, place=place,
                       name=public_name(live, line.standing.player, line.anonymous),
                       points=line.standing.points, correct=line.standing.correct, size=asked))
    return "\n".join(lines)


def _level_line(live: LiveState, question: Question | None = None) -> str:
    """The footer's level: a set's name, else the level of the question's own skill (the
    round's level name would contradict a question of another skill)."""
    if live.set_name is not None:
        # In the footer, where nothing renders.
        return t("live.set_level", live.lang,
                 name=shown_name(live.set_name, MAX_NAME_CHARS, markup=False))
    if question is not None:
        return question_level_text(question, live.lang)
    return level_text(live.level, live.lang)


def _teacher(live: LiveState) -> str:
    name = live.names.get(live.teacher_id)
    return "" if name is None else shown_name(name, markup=False)  # in the footer


def live_embed(live: LiveState) -> discord.Embed:
    game = live.game
    assert game is not None and game.current is not None and live.shown_at is not None
    lang = live.lang
    number, size = game.index + 1, len(game.questions)
    embed = discord.Embed(title=t("focus.live.title", lang, n=number, size=size),
                          description=question_line(game.current, lang),
                          colour=0x6C757D if live.paused_at is not None else 0x457B9D)
    if live.paused_at is not None:
        embed.add_field(name=t("live.paused_name", lang), value=t("live.paused", lang),
                        inline=False)
    else:
        deadline = f"<t:{int(live.shown_at + game.time_limit)}:T>"
        embed.add_field(name=t("focus.live.until_name", lang),
                        value=t("focus.live.until", lang, deadline=deadline,
                                seconds=f"{game.time_limit:g}"), inline=False)
    close = live.close_at()
    if live.auto and live.paused_at is None and close is not None \
            and close > live.shown_at + game.time_limit:
        # The others see why the question stays open after their own time, and until when; from
        # the second question on it may close sooner (everyone taking part has answered).
        embed.add_field(name=t("live.extra_name", lang), value=t(
            "live.extra" if live.opened_with else "live.extra_first", lang,
            deadline=f"<t:{int(close)}:T>"), inline=False)
    if game.index > 0:
        # The ranking after the previous question (the current one has just opened).
        embed.add_field(name=t("focus.live.ranking_name", lang, n=game.index),
                        value=ranking_lines(live, game, game.index, RANKING_LINES)
                        or t("focus.live.nobody", lang), inline=False)
    last = game.index == size - 1
    if live.auto:
        footer = t("live.auto_footer", lang, level=_level_line(live, game.current),
                   teacher=_teacher(live))
    else:
        footer = t("focus.live.footer", lang, level=_level_line(live, game.current),
                   teacher=_teacher(live),
                   next=t("focus.live.finish" if last else "focus.live.next", lang))
    embed.set_footer(text=footer)
    return embed


def live_view(live: LiveState) -> ui.View:
    """The question's buttons: "Answer" for the class; the teacher's controls (a self-running
    round: pause or resume, close the question, end the round; a manual one: "Next")."""
    game = live.game
    assert game is not None
    lang, live_id = live.lang, live.live_id
    number = game.index + 1
    view = ui.View(timeout=None)
    view.add_item(LiveAnswerButton(live_id, number, label=t("focus.live.answer", lang),
                                   style=discord.ButtonStyle.primary,
                                   disabled=live.paused_at is not None))
    grey = discord.ButtonStyle.secondary
    if not live.auto:
        last = number == len(game.questions)
        view.add_item(LiveNextButton(live_id, number, style=grey, label=t(
            "focus.live.finish" if last else "focus.live.next", lang)))
        return view
    paused = live.paused_at is not None
    view.add_item(LivePauseButton(live_id, number, style=grey,
                                  label=t("live.resume" if paused else "live.pause", lang)))
    view.add_item(LiveSkipButton(live_id, number, style=grey, label=t("live.skip", lang)))
    view.add_item(LiveEndButton(live_id, number, style=discord.ButtonStyle.danger,
                                label=t("live.end", lang)))
    return view


def closed_embed(closed: Closed, live: LiveState, game: LiveRound,
                 final: LiveState | None) -> discord.Embed:
    """A live question once closed: its answer, how many found it and who, the ranking so far,
    and when the next question comes (a self-running round)."""
    shown = final or live
    lang = shown.lang
    question = closed.question
    text = question.text.rstrip()
    # A missing-number question says "12 × ? = 96 → ? = 8", never "12 × ? = 96 = 8"; the
    # worked steps under the answer show the class how it is found.
    key = ("focus_steps.closed_missing" if is_missing(text) else
           "live.closed_asked" if asks_itself(text) else "focus.live.closed_question")
    description = t(key, lang, question=shown_question(text, lang),
                    expected=expected_text(question, lang))
    steps = worked_line(question.skill, text, question.answer, lang)
    embed = discord.Embed(
        title=t("focus.live.closed_title", lang, n=closed.number, size=closed.size),
        description=description + (f"\n{shown_name(steps, None)}" if steps else ""),
        colour=0x6C757D)
    embed.add_field(name="\u200b", value=t(
        "focus.live.closed_count", lang, count=closed.right, right=closed.right,
        answered=closed.answered), inline=False)
    if not shown.auto:
        return embed
    found = [public_name(shown, p, shown.shown.get(p) == "anonymous") for p in closed.found_by
             if shown.shown.get(p) != "hidden"]
    embed.add_field(name=t("live.found_by_name", lang),
                    value=", ".join(found) if found else t("live.found_by_none", lang),
                    inline=False)
    embed.add_field(name=t("focus.live.ranking_name", lang, n=closed.number),
                    value=ranking_lines(shown, game, closed.number, RANKING_LINES)
                    or t("focus.live.nobody", lang), inline=False)
    if final is None and live.next_at is not None:
        embed.description = (embed.description or "") + "\n" + t(
            "live.next_soon", lang, when=f"<t:{int(live.next_at)}:R>")
    return embed


def final_rows(live: LiveState, game: LiveRound) -> list[dict[str, Any]]:
    """The final public ranking for the picture: points, and right answers out of all."""
    size = len(game.questions)
    return [{"rank": line.rank,
             "name": (t("live.a_student", live.lang) if line.anonymous else
                      live.names.get(line.standing.player, t("focus.someone", live.lang))),
             "score": line.standing.points, "time": f"{line.standing.correct}/{size}"}
            for line in public_ranking(live, game)]


def final_embed(live: LiveState, game: LiveRound) -> discord.Embed:
    lines = ranking_lines(live, game, len(game.questions), FINAL_LINES)
    return discord.Embed(title=t("focus.live.final_title", live.lang),
                         description=lines or t("focus.live.final_empty", live.lang),
                         colour=0xE9C46A)


def final_view(live: LiveState) -> ui.View:
    """Under the final ranking: the teacher's report (the button says who it is for)."""
    view = ui.View(timeout=None)
    view.add_item(LiveReportButton(live.live_id, 0, label=t("live.report_button", live.lang),
                                   style=discord.ButtonStyle.secondary))
    return view


# --- The final ranking and the teacher's report -------------------------------------------------


async def final_message(step: LiveStep) -> dict[str, Any]:
    """The round's final message: the ranking's embed and buttons, and its picture (drawn in a
    thread) when anyone answered."""
    final = step.final
    assert final is not None
    embed = final_embed(final, step.game)
    message: dict[str, Any] = {"embed": embed, "view": final_view(final)}
    ranked = final_rows(final, step.game)
    if ranked:
        lang = final.lang
        png = await asyncio.to_thread(
            render_leaderboard, ranked, image_words(lang), t("focus.live.final_title", lang),
            None, None, FINAL_LINES, None,
            (t("focus.live.points_column", lang), t("focus.live.right_column", lang)))
        embed.set_image(url="attachment://ranking.png")
        message["file"] = discord.File(io.BytesIO(png), filename="ranking.png",
                                       description=alt_text.ranking(
                                           t("focus.live.final_title", lang), ranked, lang))
    return message


def report_picture(report: LiveReport, names: dict[int, str], lang: str) -> dict[str, Any]:
    """The report as ``images.render_live_report`` reads it."""
    return {"title": t("live.report.title", lang, id=report.live_id),
            "questions": len(report.questions),
            "rows": [{"name": names.get(row.user_id, ""), "right": row.right,
                      "answered": row.answered, "seconds": row.seconds,
                      "cells": [None if c.correct is None else
                                {"correct": c.correct, "seconds": c.seconds} for c in row.cells]}
                     for row in report.rows]}


async def report_files(report: LiveReport, names: dict[int, str], lang: str
                       ) -> list[discord.File]:
    """The teacher's report of a round as two files: its picture (drawn in a thread) and its
    CSV."""
    live_id = report.live_id
    png = await asyncio.to_thread(render_live_report, report_picture(report, names, lang),
                                  image_words(lang))
    sheet = report_csv(report, names, lang)
    stats = report.question_stats()
    title = t("reports.live_title", lang, id=live_id)
    subtitle = t("reports.subtitle", lang,
                 questions=t("reports.questions", lang, count=len(stats)),
                 answers=t("reports.answers", lang, count=len(report.answers)))
    questions_png = await asyncio.to_thread(question_report.png, stats, title, subtitle, lang)
    questions_csv = question_report.questions_csv(stats, lang)
    return [discord.File(io.BytesIO(png), filename=f"live-{live_id}.png",
                         description=t("alt.live", lang, id=live_id)),
            discord.File(io.BytesIO(questions_png), filename=f"live-{live_id}-questions.png",
                         description=title),
            discord.File(io.BytesIO(sheet), filename=f"live-{live_id}.csv",
                         description=t("alt.csv", lang, what=t("alt.live", lang, id=live_id)
                                       .rstrip("."))),
            discord.File(io.BytesIO(questions_csv),
                         filename=f"live-{live_id}-questions.csv",
                         description=t("alt.csv", lang, what=title))]
