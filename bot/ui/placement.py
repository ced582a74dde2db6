"""Placement's presentation (issue 26): the offer a new student reads before their first
practice round ("Find my level" / "Skip", for that member only), the end of a placement (the
level it chose, in a child's words), the teacher's class post ("Find my level" for every
student) and the teacher's private list of the levels chosen. The questions are asked in the
Focus window (``bot.ui.focus_run``); the conductor is ``bot.flows.focus``'s (``PLACEMENT_FLOWS``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol
from zoneinfo import ZoneInfo

import discord
from discord import ui

from bot.focus.placement import MAX_QUESTIONS, Placement
from bot.i18n import t
from bot.limits import hit
from bot.replies import shown_name
from bot.services import Key, services_of
from bot.ui.assignments import when_text
from bot.views import GameButton
from db.placements import PlacementRow

GREEN, BLUE, GREY = 0x2A9D8F, 0x457B9D, 0x8D99AE
#: The lines of the teacher's list that fit one embed (4,096 characters, names of 32).
RESULT_LINES = 40


class PlacementFlows(Protocol):
    """What placement's buttons start: the Focus conductor (``bot.flows.focus``)."""

    async def placement_offer(self, interaction: discord.Interaction, owner: int, go: bool
                              ) -> None: ...

    async def placement_from_post(self, interaction: discord.Interaction, posted: int
                                  ) -> None: ...


#: Where the services keep placement's flow (put there by the Focus conductor).
PLACEMENT_FLOWS: Key[PlacementFlows] = Key("focus.placement.flows")


class PlacementChoice(GameButton, action="placement.offer"):
    """The offer's buttons: ``placement.offer:<member>:1:go`` or ``…:skip``. Persistent: a click
    after a restart still works (a running placement goes on where it stopped)."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        hit(interaction, "round")
        flows = services_of(interaction).kept.get(PLACEMENT_FLOWS)
        await flows.placement_offer(interaction, int(self.game_id), self.arg == "go")


class ClassPlacementButton(GameButton, action="placement.class"):
    """The class post's button: ``placement.class:<post's Unix time>:1``; each click starts the
    clicking student's own placement, privately."""

    async def on_click(self, interaction: discord.Interaction) -> None:
        hit(interaction, "round")
        flows = services_of(interaction).kept.get(PLACEMENT_FLOWS)
        await flows.placement_from_post(interaction, int(self.game_id))


PERSISTENT_ITEMS = (PlacementChoice, ClassPlacementButton)


def offer_embed(lang: str, *, running: bool) -> discord.Embed:
    return discord.Embed(
        title=t("placement.offer.title", lang),
        description=t("placement.offer.resume_text" if running else "placement.offer.text",
                      lang, size=MAX_QUESTIONS),
        colour=BLUE)


def offer_view(user_id: int, lang: str, *, running: bool) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(PlacementChoice(user_id, 1, "go", style=discord.ButtonStyle.success,
                                  label=t("placement.offer.resume" if running
                                          else "placement.offer.go", lang, size=MAX_QUESTIONS)))
    view.add_item(PlacementChoice(user_id, 1, "skip", style=discord.ButtonStyle.secondary,
                                  label=t("placement.offer.skip", lang)))
    return view


def run_title(lang: str) -> str:
    return t("placement.run_title", lang)


def end_embed(placement: Placement, level: int, lang: str) -> discord.Embed:
    """The end of a placement: the level it chose, said to a child."""
    right = sum(step.correct for step in placement.steps)
    embed = discord.Embed(
        title=t("placement.end.title", lang, level=level),
        description="\n".join((
            t("placement.end.right", lang, n=len(placement.steps), right=right),
            t("placement.end.level", lang, level=level),
            t("placement.end.next", lang))),
        colour=GREEN)
    return embed


def post_embed(lang: str) -> discord.Embed:
    embed = discord.Embed(title=t("placement.post.title", lang),
                          description=t("placement.post.text", lang, size=MAX_QUESTIONS),
                          colour=BLUE)
    embed.set_footer(text=t("placement.post.footer", lang))
    return embed


def post_view(posted: int, lang: str) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(ClassPlacementButton(posted, 1, style=discord.ButtonStyle.success,
                                       label=t("placement.post.button", lang,
                                               size=MAX_QUESTIONS)))
    return view


def result_line(name: str, row: PlacementRow | None, zone: ZoneInfo, lang: str) -> str:
    shown = shown_name(name)
    if row is None:
        return t("placement.results.not_taken", lang, name=shown)
    if row.status == "finished" and row.level is not None and row.finished_at is not None:
        return t("placement.results.done", lang, name=shown, level=row.level,
                 when=when_text(row.finished_at, zone, lang))
    if row.status == "running":
        return t("placement.results.running", lang, name=shown)
    return t("placement.results.skipped", lang, name=shown)


def results_embed(order: Sequence[int], names: Mapping[int, str],
                  rows: Mapping[int, PlacementRow], zone: ZoneInfo, lang: str, *,
                  pseudonyms: bool) -> discord.Embed:
    """The teacher's list: each student's level chosen and when; those who have not taken
    one as such (the first ``RESULT_LINES``, then how many more)."""
    lines = [result_line(names[uid], rows.get(uid), zone, lang) for uid in order]
    shown = lines[:RESULT_LINES]
    if len(lines) > RESULT_LINES:
        shown.append(t("placement.results.more", lang, count=len(lines) - RESULT_LINES))
    done = sum(1 for uid in order if (row := rows.get(uid)) is not None
               and row.status == "finished")
    embed = discord.Embed(
        title=t("placement.results.title", lang),
        description="\n".join(shown) if shown else t("placement.results.nobody", lang),
        colour=GREY if not done else GREEN)
    footer = t("placement.results.footer", lang, done=done, total=len(order))
    if pseudonyms:
        footer += " " + t("placement.results.pseudonyms", lang)
    embed.set_footer(text=footer)
    return embed
