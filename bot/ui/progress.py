"""The ``/progress`` and ``/leaderboard`` presentation: the embeds, the two pictures of a
student's progress (``images.render_progress``, ``images.render_streak``), the boards' choices."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord.app_commands import Choice, locale_str

import images
from bot.focus import ROUND_SIZE
from bot.i18n import image_words, percent, t
from bot.play.progress import (
    BOARDS,
    RATED_GAMES,
    WEEKS,
    Board,
    ProgressData,
    chart_records,
    focus_level,
)
from bot.replies import shown_name

BOARD_NAMES = {"digits": "The 20 Digits", "rithmo": "Rithmomachia",
               "focus-daily": "Focus: today's daily challenge",
               "focus-streaks": "Focus: daily challenge streaks"}


def progress_pictures(data: ProgressData, lang: str) -> tuple[bytes, bytes, bytes]:
    """The three pictures (accuracy chart, streak calendar, mastery map); slow: run it in a
    thread."""
    chart = images.render_progress(chart_records(data.rows, data.puzzles), image_words(lang),
                                   title=t("progress.chart_title", lang, name=data.name))
    player = data.player
    streak = player.current_daily_streak(data.today) if player else 0
    calendar = images.render_streak(data.played, streak, data.today, image_words(lang),
                                    weeks=WEEKS, best=player.best_daily_streak if player else 0,
                                    title=t("progress.streak_title", lang, name=data.name),
                                    first_day=data.first_day)
    mastery = images.render_mastery(
        {**(data.mastery or {}), "title": t("mastery.map_title", lang, name=data.name)},
        image_words(lang))
    return chart, calendar, mastery


def progress_files(pictures: tuple[bytes, bytes, bytes], data: ProgressData, lang: str
                   ) -> list[discord.File]:
    """The three pictures of ``progress_pictures`` as the attachments the embeds show, each
    with its alt text."""
    chart, calendar, mastery = pictures
    return [
        discord.File(io.BytesIO(chart), "progress.png",
                     description=t("progress.chart_title", lang, name=data.name)),
        discord.File(io.BytesIO(calendar), "streak.png",
                     description=t("progress.streak_title", lang, name=data.name)),
        discord.File(io.BytesIO(mastery), "mastery.png",
                     description=t("mastery.map_title", lang, name=data.name)),
    ]


def progress_embeds(data: ProgressData, lang: str) -> list[discord.Embed]:
    main = discord.Embed(title=t("progress.title", lang, name=shown_name(data.name)),
                         colour=discord.Colour.blue())
    level, pinned = focus_level(data.player, data.levels)
    key = ("progress.level_value" if not pinned else
           "progress.level_pinned_for_you" if data.levels.own else "progress.level_pinned")
    main.add_field(name=t("progress.level", lang), value=t(key, lang, level=level))
    player = data.player
    main.add_field(name=t("progress.daily", lang),
                   value=t("progress.daily_value", lang,
                           current=player.current_daily_streak(data.today) if player else 0,
                           best=player.best_daily_streak if player else 0))
    answers = sum(row.answers for row in data.rows)
    if answers:
        right = sum(row.correct for row in data.rows)
        summary = t("progress.answers_value", lang, count=answers,
                    percent=percent(round(100 * right / answers) / 100, lang), weeks=WEEKS)
    else:
        summary = t("progress.answers_none", lang, weeks=WEEKS)
    main.add_field(name=t("progress.answers", lang), value=summary, inline=False)
    streak = data.puzzle_streak
    if data.puzzles or streak.best:
        solved = sum(a.solved for a in data.puzzles)
        lines = [t("progress.puzzles_value", lang, count=len(data.puzzles), solved=solved,
                   weeks=WEEKS),
                 t("progress.puzzle_streak", lang, count=streak.current, best=streak.best)]
        main.add_field(name=t("progress.puzzles", lang), value="\n".join(lines), inline=False)
    for game in RATED_GAMES:
        rating = data.ratings.get(game)
        if rating is None or rating.games == 0:
            value = t("progress.unrated", lang)
        else:
            value = t("progress.rating_value", lang, rating=round(rating.rating.rating),
                      rd=round(rating.rating.rd), wins=rating.wins,
                      losses=rating.losses, draws=rating.draws)
        main.add_field(name=t(f"progress.choices.{game}", lang), value=value, inline=False)
    main.set_image(url="attachment://progress.png")
    calendar = discord.Embed(colour=discord.Colour.green())
    calendar.set_image(url="attachment://streak.png")
    mastery = discord.Embed(colour=discord.Colour.dark_green())
    known = data.mastery or {}
    mastery.add_field(name=t("mastery.field_name", lang),
                      value=t("mastery.summary", lang, mastered=known.get("mastered", 0),
                              facts=known.get("table", 0), due=known.get("due", 0)))
    mastery.set_image(url="attachment://mastery.png")
    return [main, calendar, mastery]


def board_choices() -> list[Choice[str]]:
    return [Choice(name=locale_str(BOARD_NAMES[b], key=f"progress.choices.{b}"), value=b)
            for b in BOARDS]


def board_options(ranking: Board, lang: str) -> dict[str, Any]:
    """How the picture draws a board: its columns' names, the day, the questions out of."""
    if ranking.game in RATED_GAMES:
        return {"columns": (t("progress.board.rating", lang), t("progress.board.games", lang))}
    if ranking.game == "focus-streaks":
        return {"columns": (t("progress.board.streak", lang), t("progress.board.best", lang)),
                "date": ranking.today}
    return {"date": ranking.today, "out_of": ROUND_SIZE}


def private_rank(ranking: Board, user_id: int, lang: str) -> str:
    """What a student anonymous or hidden in public rankings reads, privately, of their own place
    in ``ranking`` (counted among everyone)."""
    hidden = not any(row["user_id"] == user_id for row in ranking.rows)
    return t("class_students.private_rank.hidden" if hidden else
             "class_students.private_rank.anonymous", lang, rank=ranking.private[user_id])
