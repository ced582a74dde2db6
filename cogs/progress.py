"""``/progress [member]`` and ``/leaderboard <game>``: how a student is doing, and the server's
rankings.

``/progress`` is private (ephemeral): the student's Focus accuracy per topic over the last weeks
(``images.render_progress`` from ``db.focus.progress``), the calendar of their daily challenges
(``images.render_streak`` from ``db.daily.days_played``), their Focus level as they play it (the
pinned level when the teacher set one) and their rating in each game. A student sees their own;
another member's is for teachers (Manage Server or a teachers' role, ``bot.ui.teachers``), who
follow each student that way.

``/leaderboard`` is public: the server's ranking by rating (The 20 Digits, Rithmomachia, from
``db.players.leaderboard``), today's daily challenge (``db.daily.leaderboard``) or the current
daily streaks (``db.players.streaks``), drawn by ``images.render_leaderboard``; the member who
asks is framed, and shown below the top ten when further down.

Days are the server's local days (its time zone, ``/settings daily``).
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

import images
from bot import replies
from bot.domain import DomainError
from bot.focus import MAX_LEVEL, ROUND_SIZE
from bot.i18n import image_words, lang_for, percent, t
from bot.limits import limited
from bot.replies import shown_name
from bot.ui.teachers import is_teacher
from cogs import ArdoiseCog
from db import Player, PlayerRating, ProgressRow, ServerSettings

WEEKS = 12  # the calendar's weeks, and the chart's span
MAX_DAILY_POINTS = 31  # beyond this many days with answers, the chart goes by week
TOP = 10
RATED_GAMES = ("digits", "rithmo")
BOARDS = ("digits", "rithmo", "focus-daily", "focus-streaks")
BOARD_NAMES = {"digits": "The 20 Digits", "rithmo": "Rithmomachia",
               "focus-daily": "Focus: today's daily challenge",
               "focus-streaks": "Focus: daily challenge streaks"}
# Enough rows to find the member who asks below the top ten in any class.
BOARD_ROWS = 1000


def local_today(settings: ServerSettings, now: datetime | None = None) -> date:
    return (now or datetime.now(UTC)).astimezone(settings.tz()).date()


def calendar_start(today: date, weeks: int = WEEKS) -> date:
    """The Monday the streak calendar starts on (as images.render_streak draws it)."""
    return today - timedelta(days=today.weekday() + 7 * (weeks - 1))


def focus_level(player: Player | None, settings: ServerSettings) -> tuple[int, bool]:
    """The level the student plays Focus at now, and whether the teacher pinned it."""
    if settings.focus_level_pinned is not None:
        return settings.focus_level_pinned, True
    low, high = settings.focus_level_min, settings.focus_level_max or MAX_LEVEL
    level = player.focus_level if player is not None else low
    return min(max(level, low), high), False


def chart_records(rows: Iterable[ProgressRow]) -> list[dict[str, Any]]:
    return [{"date": row.period.isoformat(), "topic": row.topic, "correct": row.correct,
             "total": row.answers} for row in rows if row.period is not None]


@dataclass(frozen=True)
class ProgressData:
    name: str
    settings: ServerSettings
    today: date
    player: Player | None
    ratings: dict[str, PlayerRating]
    rows: list[ProgressRow]
    played: list[date]


def progress_pictures(data: ProgressData, lang: str) -> tuple[bytes, bytes]:
    """The two pictures (accuracy chart, streak calendar); slow: run it in a thread."""
    chart = images.render_progress(chart_records(data.rows), image_words(lang),
                                   title=t("progress.chart_title", lang, name=data.name))
    player = data.player
    streak = player.current_daily_streak(data.today) if player else 0
    calendar = images.render_streak(data.played, streak, data.today, image_words(lang),
                                    weeks=WEEKS, best=player.best_daily_streak if player else 0,
                                    title=t("progress.streak_title", lang, name=data.name))
    return chart, calendar


def progress_embeds(data: ProgressData, lang: str) -> list[discord.Embed]:
    main = discord.Embed(title=t("progress.title", lang, name=shown_name(data.name)),
                         colour=discord.Colour.blue())
    level, pinned = focus_level(data.player, data.settings)
    main.add_field(name=t("progress.level", lang),
                   value=t("progress.level_pinned" if pinned else "progress.level_value", lang,
                           level=level))
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
    return [main, calendar]


def board_choices() -> list[Choice[str]]:
    return [Choice(name=locale_str(BOARD_NAMES[b], key=f"progress.choices.{b}"), value=b)
            for b in BOARDS]


class Progress(ArdoiseCog):
    @app_commands.command(name="progress",
                          description="Focus accuracy, daily streak, level and ratings")
    @limited("picture")
    @app_commands.describe(member="Whose progress: yours by default (someone else's: teachers)")
    @app_commands.guild_only()
    async def progress(self, interaction: discord.Interaction,
                       member: discord.Member | None = None) -> None:
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None and self.bot.db is not None
        target = member or interaction.user
        if target.id != interaction.user.id and not await is_teacher(interaction):
            raise DomainError("progress.teachers_only",
                              "only teachers may see another member's progress")
        await interaction.response.defer(ephemeral=True, thinking=True)
        db = self.bot.db
        settings = await db.servers.get(guild_id)
        now = datetime.now(UTC)
        today = local_today(settings, now)
        start = calendar_start(today)
        since = datetime.combine(start, time(), settings.tz())
        offset = settings.tz().utcoffset(now)
        minutes = int(offset.total_seconds() // 60) if offset is not None else 0
        rows = await db.focus.progress(guild_id, target.id, by="day", since=since,
                                       utc_offset_minutes=minutes)
        if len({row.period for row in rows}) > MAX_DAILY_POINTS:
            rows = await db.focus.progress(guild_id, target.id, by="week", since=since,
                                           utc_offset_minutes=minutes)
        data = ProgressData(
            name=target.display_name, settings=settings, today=today,
            player=await db.players.get(guild_id, target.id),
            ratings=await db.players.ratings(guild_id, target.id), rows=rows,
            played=await db.daily.days_played(guild_id, target.id, since=start))
        chart, calendar = await asyncio.to_thread(progress_pictures, data, lang)
        files = [
            discord.File(io.BytesIO(chart), "progress.png",
                         description=t("progress.chart_title", lang, name=data.name)),
            discord.File(io.BytesIO(calendar), "streak.png",
                         description=t("progress.streak_title", lang, name=data.name)),
        ]
        await replies.followup(interaction, embeds=progress_embeds(data, lang), files=files,
                               ephemeral=True)

    @app_commands.command(name="leaderboard", description="The server's leaderboard of a game")
    @limited("picture")
    @app_commands.describe(game="Which ranking")
    @app_commands.choices(game=board_choices())
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        lang = await lang_for(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None and self.bot.db is not None
        if game not in BOARDS:
            raise DomainError("progress.unknown_board", f"no leaderboard {game!r}", value=game)
        await interaction.response.defer(thinking=True)
        db = self.bot.db
        settings = await db.servers.get(guild_id)
        today = local_today(settings)
        options: dict[str, Any] = {}
        rows: list[dict[str, Any]]
        if game in RATED_GAMES:
            rows = [{"rank": r.rank, "user_id": r.user_id, "score": round(r.rating),
                     "time": str(r.games)}
                    for r in await db.players.leaderboard(guild_id, game, limit=BOARD_ROWS)]
            options["columns"] = (t("progress.board.rating", lang), t("progress.board.games",
                                                                      lang))
        elif game == "focus-streaks":
            rows = [{"rank": r.rank, "user_id": r.user_id, "score": r.streak,
                     "time": str(r.best_streak)}
                    for r in await db.players.streaks(guild_id, today, limit=BOARD_ROWS)]
            options["columns"] = (t("progress.board.streak", lang), t("progress.board.best",
                                                                      lang))
            options["date"] = today
        else:
            rows = [{"rank": r.rank, "user_id": r.user_id, "score": r.score,
                     "time": r.time_ms / 1000}
                    for r in await db.daily.leaderboard(guild_id, today, limit=BOARD_ROWS)]
            options.update(date=today, out_of=ROUND_SIZE)
        shown = rows[:TOP] + [r for r in rows[TOP:] if r["user_id"] == interaction.user.id]
        names = await self._names(interaction, [r["user_id"] for r in shown], lang)
        for row in shown:
            row["name"] = names[row["user_id"]]
        mine = next((r["name"] for r in shown if r["user_id"] == interaction.user.id), None)
        title = t(f"progress.board.title.{game}", lang)
        picture = await asyncio.to_thread(images.render_leaderboard, shown, image_words(lang),
                                          title=title, highlight=mine, limit=TOP, **options)
        await replies.followup(
            interaction,
            title, file=discord.File(io.BytesIO(picture), "leaderboard.png", description=title))

    async def _names(self, interaction: discord.Interaction, user_ids: Sequence[int],
                     lang: str) -> dict[int, str]:
        """Display names of these members (the member cache is empty: fetched, together)."""
        gone = t("progress.board.former_member", lang)
        guild = interaction.guild
        names = {interaction.user.id: interaction.user.display_name}
        wanted = [uid for uid in dict.fromkeys(user_ids) if uid not in names]

        async def fetch(uid: int) -> str:
            if guild is None:
                return gone
            try:
                return (await guild.fetch_member(uid)).display_name
            except discord.HTTPException:  # left the server, or Discord said no: no name
                return gone

        for uid, name in zip(wanted, await asyncio.gather(*(fetch(u) for u in wanted)),
                             strict=True):
            names[uid] = name
        return names


async def setup(bot: Any) -> None:
    await bot.add_cog(Progress(bot))
