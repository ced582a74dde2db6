"""The presentation of ``/class end-of-year``: its question and buttons, and the members Discord
gives now (``bot.ui.teachers.member_teaches`` tells the teachers among them). The daily erasure
by age is ``bot.flows.settings.Eraser``: it runs in every process for its own shards' servers;
two processes on one shard erase the same rows at worst (the second finds them gone), and the
owner is told once (``db.retention.claim_told``).

``/class end-of-year`` asks first, privately (``AskedButton``: the teacher who asked, for 15
minutes). Confirmed, it sends that teacher alone one zip file, then erases the students: every
member the server holds data of (``bot.play.retention.members``) who is not a teacher, a teacher
being, as everywhere, a member with Manage Server or one of the server's teacher roles (a member
who left the server is no teacher any more: their data goes too). The zip holds the class report
since the start (``bot.play.class_report``'s CSV), each assignment's report (its CSV) and each
student's ``export-player`` JSON. A zip larger than the interaction's upload limit (Discord's: 10
MiB on most servers, more on boosted ones) is not sent, and then nothing is erased: the bot's
operator exports by hand (``python -m db export-player``) and erases with ``delete-player``.
The sending and the erasing are conducted by ``bot.flows.classroom`` (``END_OF_YEAR_FLOWS``).
"""

from __future__ import annotations

import time
from typing import Any, Protocol

import discord
from discord import ui

from bot import replies
from bot.i18n import lang_for, t
from bot.services import Key, services_of
from bot.ui.members import fetch_members
from bot.views import AskedButton, invalid_component

#: How long the question may be answered (Discord lets a bot edit an ephemeral answer 15 min).
CONFIRM_S = 15 * 60
#: Members fetched from Discord at once (as the class report does).
FETCHES = 8


# --- /class end-of-year ----------------------------------------------------------------------


def clock() -> float:
    """Unix seconds now (a test replaces it to age a question)."""
    return time.time()


class EndOfYearQuestion(AskedButton):
    """A button of the question: the server (as the game id), asked at, the teacher who asked."""

    max_age_s = CONFIRM_S
    not_yours_code = "class.end_of_year.not_yours"
    expired_code = "class.end_of_year.expired"

    def now(self) -> float:
        return clock()

    def check(self, interaction: discord.Interaction) -> None:
        super().check(interaction)
        if int(self.game_id) != interaction.guild_id:
            raise invalid_component("server")


class EndOfYearFlows(Protocol):
    """What "Confirm" of the question calls: the classroom's conductor
    (``bot.flows.classroom``), which sends the zip and erases."""

    async def end_of_year(self, interaction: discord.Interaction) -> None: ...


#: Where the services keep the end of the year's flow (put there by the classroom's conductor).
END_OF_YEAR_FLOWS: Key[EndOfYearFlows] = Key("class.end_of_year.flows")


def end_of_year_question(guild_id: int, user_id: int, lang: str) -> dict[str, Any]:
    """The private question of ``/class end-of-year``: the sentence and its two buttons, for
    the teacher who asked, for ``CONFIRM_S``."""
    asked: dict[str, Any] = {"game_id": guild_id, "version": int(clock()), "arg": str(user_id)}
    view = ui.View(timeout=None)
    view.add_item(ConfirmEndOfYear(**asked, style=discord.ButtonStyle.danger,
                                   label=t("class.end_of_year.confirm", lang)))
    view.add_item(KeepEverything(**asked, style=discord.ButtonStyle.secondary,
                                 label=t("class.end_of_year.keep", lang)))
    return {"content": t("class.end_of_year.ask", lang), "view": view}


async def current_members(guild: discord.Guild, user_ids: list[int]
                          ) -> dict[int, discord.Member | None]:
    """These members as Discord gives them now, None for one who left. Unlike the reports'
    ``fetch_students``, any other failure stops here: a teacher Discord failed to give must not
    be taken for a student and erased."""
    return await fetch_members(guild, user_ids, gone=discord.NotFound, at_once=FETCHES)


class ConfirmEndOfYear(EndOfYearQuestion, action="class.end_of_year"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        self.check(interaction)
        await services_of(interaction).kept.get(END_OF_YEAR_FLOWS).end_of_year(interaction)


class KeepEverything(EndOfYearQuestion, action="class.end_of_year_keep"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        self.check(interaction)
        lang = await lang_for(interaction)
        await replies.update(interaction, view=None, content=t("class.end_of_year.kept", lang))


#: The question's buttons (the class cog registers them).
PERSISTENT_ITEMS = (ConfirmEndOfYear, KeepEverything)
