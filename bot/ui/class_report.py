"""The ``/class report`` presentation: the students' names and roles from Discord, the embed, the
picture of a page (``images.render_class_report``), the CSV file, and the page buttons.

The reply is ephemeral (it holds students' results; ``bot.flows.classroom`` sends it). Its
Previous/Next buttons are ``ReportPage`` dynamic items (see ``bot.views.Windows``): the report
itself stays in ``report_windows`` under the message's id for 15 minutes after its last use; a
click on an older one (or after a restart) says it expired, and only the teacher who asked may
turn the pages.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import ui

import images
from bot.i18n import date_text, image_words, percent, skill_name, t
from bot.play.class_report import (
    ClassReport,
    StudentRow,
    band,
    csv_name,
    own_skill,
    topic_name,
)
from bot.replies import shown_name
from bot.services import Key
from bot.texts import SHORT_DAY, SHORT_DAY_NO_YEAR
from bot.ui.members import fetch_members, web_names
from bot.ui.pages import PageTurner, page_view, windows_of
from bot.views import Windows
from db import Database
from db.class_report import Tally

EXPIRY = 15 * 60.0  # seconds a report's pages stay live after their last use
PREFIX = "class.report:page:"
PICTURE = "class-report.png"


# --- Names and roles ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Student:
    name: str
    role_ids: frozenset[int]


async def fetch_students(guild: discord.Guild | None, user_ids: Sequence[int],
                         db: Database, lang: str) -> dict[int, Student]:
    """The display names and roles of these members, fetched together (a few at a time); a
    member who left (or whom Discord would not give) is absent. A web student is named
    "Léa (web)" and has only the @everyone role (its id is the server's)."""
    if guild is None:
        return {}
    found = {uid: Student(member.display_name, frozenset(role.id for role in member.roles))
             for uid, member in (await fetch_members(guild, user_ids)).items()
             if member is not None}
    for uid, name in (await web_names(db, guild.id, user_ids, lang)).items():
        found[uid] = Student(name, frozenset({guild.id}))
    return found


# --- The picture, the CSV, the embed -----------------------------------------------------------


def _cell(tally: Tally | None) -> dict[str, Any] | None:
    if tally is None or tally.answers == 0:
        return None
    median = tally.median_ms
    return {"band": band(tally), "accuracy": tally.accuracy, "answers": tally.answers,
            "median_s": None if median is None else median / 1000}


def _with_mastery(cell: dict[str, Any] | None, student: StudentRow, topic: str
                  ) -> dict[str, Any] | None:
    """The cell with the student's mastery of the topic's skill (pips), when the topic is one
    skill and they have a mastery of it."""
    own = own_skill(topic)
    known = None if own is None else student.mastery.get(own)
    if known is None:
        return cell
    return {**(cell or {"band": None}), "mastery": known.mastery}


def columns(report: ClassReport) -> list[tuple[str, str | None]]:
    """The picture's columns, in order: (topic, None) for a topic's figures, then (topic, skill)
    for each of its skills shown one by one (a topic of several skills)."""
    return [column for topic in report.topics
            for column in [(topic, None), *((topic, s) for s in report.skills.get(topic, ()))]]


def _row(student: StudentRow, shown: Sequence[tuple[str, str | None]]) -> dict[str, Any]:
    cells: list[dict[str, Any] | None] = []
    for topic, skill in shown:
        if skill is None:
            cells.append(_with_mastery(_cell(student.cells.get(topic)), student, topic))
        else:
            known = student.mastery.get(skill)
            cells.append(None if known is None else {"band": None, "mastery": known.mastery})
    return {"name": student.name, "cells": cells}


def days_text(report: ClassReport, lang: str) -> str:
    last = date_text(report.today, lang, SHORT_DAY)
    if report.first_day is None:
        return t("class.report.since_start", lang, last=last)
    if report.first_day == report.today:
        return t("class.report.one_day", lang, last=last)
    return t("class.report.days", lang, first=date_text(report.first_day, lang, SHORT_DAY_NO_YEAR),
             last=last)


def title(report: ClassReport, lang: str) -> str:
    return t("class.report.title", lang, period=t(f"class.periods.{report.period}", lang))


def table(report: ClassReport, lang: str, page: int) -> dict[str, Any]:
    """What ``images.render_class_report`` draws of page ``page`` (from 0)."""
    shown = columns(report)
    return {"title": title(report, lang), "subtitle": days_text(report, lang),
            "topics": [topic_name(topic, lang) if skill is None else skill_name(skill, lang)
                       for topic, skill in shown],
            "skills": [skill is not None for _, skill in shown],
            "rows": [_row(s, shown) for s in report.page(page)],
            "class": {"cells": [_cell(report.class_cells[topic]) if skill is None else None
                                for topic, skill in shown]},
            "page": page + 1, "pages": report.pages}


def picture(report: ClassReport, lang: str, page: int) -> bytes:
    """The PNG of one page; slow: run it in a thread."""
    return images.render_class_report(table(report, lang, page), image_words(lang))


@dataclass
class ReportWindow:
    """A report shown to a teacher: its pages, its filters' words, the CSV already made."""

    report: ClassReport
    lang: str
    owner_id: int
    owner_name: str
    filters: tuple[str, ...]  # "Topic: …", "Role: …", already escaped
    csv: bytes
    page: int = 0
    #: The question-level files (picture, CSVs) as (file name, bytes, description): made once,
    #: sent again with each page.
    extra: tuple[tuple[str, bytes, str], ...] = ()

    def embed(self) -> discord.Embed:
        report, lang = self.report, self.lang
        embed = discord.Embed(title=title(report, lang), colour=discord.Colour.blue())
        lines = [days_text(report, lang), *self.filters]
        if report.students:
            total = report.class_total
            lines.append(t("class.report.summary", lang,
                           students=t("class.report.students", lang,
                                      count=len(report.students)),
                           answers=t("class.report.answers", lang, count=total.answers),
                           percent=percent(round(100 * total.accuracy) / 100, lang)))
        else:
            lines.append(t("class.report.none", lang))
        if report.pseudonyms:
            lines.append(t("class.report.pseudonyms", lang))
        if report.pages > 1:
            lines.append(t("class.report.page", lang, page=self.page + 1, pages=report.pages))
        embed.description = "\n".join(lines)
        embed.set_image(url=f"attachment://{PICTURE}")
        embed.set_footer(text=t("class.report.footer", lang))
        return embed

    async def files(self) -> list[discord.File]:
        page = await asyncio.to_thread(picture, self.report, self.lang, self.page)
        pages = self.report.pages
        return [
            discord.File(io.BytesIO(page), PICTURE, description=t(
                "class.report.picture_alt", self.lang, page=self.page + 1, pages=pages)),
            discord.File(io.BytesIO(self.csv), csv_name(self.report, self.lang),
                         description=t("class.report.csv_alt", self.lang)),
            *(discord.File(io.BytesIO(data), name, description=about)
              for name, data, about in self.extra),
        ]

    @property
    def pages(self) -> int:
        return self.report.pages

    def view(self) -> ui.View | None:
        return page_view(self, ReportPage, PREFIX, "class.report.previous", "class.report.next")

    async def message(self) -> dict[str, Any]:
        return {"embed": self.embed(), "files": await self.files(), "view": self.view()}

    async def shown(self) -> dict[str, Any]:
        return {"embed": self.embed(), "attachments": await self.files(), "view": self.view()}


def filter_lines(topic: str | None, role: discord.Role | None, lang: str) -> tuple[str, ...]:
    lines = []
    if topic is not None:
        lines.append(t("class.report.topic_filter", lang,
                       topic=shown_name(topic_name(topic, lang), 60)))
    if role is not None:
        lines.append(t("class.report.role_filter", lang, role=shown_name(role.name, 60)))
    return tuple(lines)


# The live reports of each bot (a restarted bot has none: their clicks say "expired").
_WINDOWS: Key[Windows[ReportWindow]] = Key("class.report", lambda: Windows(EXPIRY))


def report_windows(client: discord.Client) -> Windows[ReportWindow]:
    return windows_of(_WINDOWS, client)


class ReportPage(PageTurner, ui.DynamicItem[ui.Button[Any]],
                 template=re.escape(PREFIX) + r"(?P<page>.+)"):
    """Previous or Next of a report: shows the page its custom id names, if the report is still
    live and the member is the teacher who asked."""

    prefix = PREFIX
    windows_key = _WINDOWS
    expired_key = "class.report.expired"
    not_yours_code = "class.report.not_yours"
