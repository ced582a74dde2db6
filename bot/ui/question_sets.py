"""The presentation of ``/class questions`` and of a practice round from a set.

- An upload's answer: "N questions read, K refused", the refused lines (the first
  ``SHOWN_REFUSALS`` in the message, the whole list as a text file when longer), and, when some
  lines are refused but others are good, "Keep the N good questions" / "Cancel". The good
  questions wait in memory (``PendingUploads``, one per bot, ``PENDING_SECONDS``); after that, or
  after a restart, the click says that nothing was stored.
- The list, one set's questions (cut to one message, the whole set as a CSV attachment), the
  confirmation of a deletion.
- A practice round from a set (conducted by ``bot.flows.focus``): its title and its end
  (``set_round_title``, ``set_round_end``); the Focus window of ``bot.ui.focus_run``, kind
  "practice", its answers under a round key of their own (``practice-set:<set id>:…``).

The buttons are one ``QuestionsButton`` (``class.questions:<id>:0:<what>``), registered by the
``/class`` cog; a click goes to the classroom's conductor (``QUESTION_FLOWS``), which finds what
it confirms itself, so a click after a restart gets a sentence.
Question texts come from teachers: shown escaped (``shown_text``), stored as given.
"""

from __future__ import annotations

import io
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord import app_commands, ui

from bot import replies
from bot.domain import DomainError
from bot.i18n import t
from bot.play import question_sets as play
from bot.play.question_sets import ReadFile, Refused, SetSummary
from bot.replies import shown_name
from bot.services import Key, services_of, services_of_client
from bot.ui.focus_run import FocusRun, action_button, summary_embed
from bot.views import GameButton, invalid_component
from db.question_sets import QuestionSet, SetItem

#: Refused lines listed in the message itself; the rest are in the attached list.
SHOWN_REFUSALS = 15
#: Questions shown by ``show`` in the message (all of them are in the CSV attached).
SHOWN_QUESTIONS = 40
#: How long an upload with refused lines waits for "Keep" (an ephemeral window's life).
PENDING_SECONDS = 600.0
#: Characters of a teacher's question quoted in a refusal or a list.
QUOTED = 60
#: Characters of an embed's description the listed lines may take (Discord takes 4,096; the
#: count above them and the sentence below need the rest).
LINES_BUDGET = 3_400
COLOUR, WARN = 0x457B9D, 0xE9C46A


def shown_text(text: object, limit: int = QUOTED, *, markup: bool = True) -> str:
    """A teacher's text in an embed: one line, cut, as typed (``bot.replies.shown_name``)."""
    return shown_name(text, limit, markup=markup)


def within(lines: list[str], most: int, budget: int = LINES_BUDGET) -> list[str]:
    """The first lines, at most ``most`` of them and ``budget`` characters together."""
    kept: list[str] = []
    used = 0
    for line in lines[:most]:
        used += len(line) + 1
        if used > budget:
            break
        kept.append(line)
    return kept


# --- Uploads waiting for "Keep" -----------------------------------------------------------------


@dataclass(frozen=True)
class Pending:
    guild_id: int
    author_id: int
    name: str
    items: list[SetItem]
    expires_at: float


class PendingUploads:
    """The uploads with refused lines of one bot, by token, until ``PENDING_SECONDS`` pass."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._waiting: dict[str, Pending] = {}

    def put(self, guild_id: int, author_id: int, name: str, items: list[SetItem]) -> str:
        now = self.clock()
        self._waiting = {k: p for k, p in self._waiting.items() if p.expires_at >= now}
        token = secrets.token_hex(8)
        self._waiting[token] = Pending(guild_id, author_id, name, list(items),
                                       now + PENDING_SECONDS)
        return token

    def get(self, token: str) -> Pending | None:
        found = self._waiting.get(token)
        if found is None or found.expires_at < self.clock():
            self._waiting.pop(token, None)
            return None
        return found

    def drop(self, token: str) -> None:
        self._waiting.pop(token, None)


_PENDING: Key[PendingUploads] = Key("class.question_sets.uploads", PendingUploads)


def pending_uploads(client: discord.Client) -> PendingUploads:
    """The bot's waiting uploads (in its services: nothing is added to discord.py's objects);
    a new bot (a restart) has none."""
    return services_of_client(client).kept.get(_PENDING)


# --- The buttons --------------------------------------------------------------------------------


class QuestionFlows(Protocol):
    """What a ``QuestionsButton`` calls: the classroom's conductor (``bot.flows.classroom``),
    which keeps or cancels the upload, deletes or spares the set."""

    async def questions_clicked(self, interaction: discord.Interaction,
                                button: QuestionsButton) -> None: ...


#: Where the services keep the question sets' flow (put there by the classroom's conductor).
QUESTION_FLOWS: Key[QuestionFlows] = Key("class.questions.flows")


class QuestionsButton(GameButton, action="class.questions"):
    """``keep`` / ``cancel`` an upload (id: its token), ``delete`` / ``spare`` a set (id: its
    set id)."""

    numeric_id = False
    WHATS = ("keep", "cancel", "delete", "spare")

    def check_ids(self) -> None:
        super().check_ids()
        if self.arg not in self.WHATS:
            raise invalid_component("action")

    async def on_click(self, interaction: discord.Interaction) -> None:
        await services_of(interaction).kept.get(QUESTION_FLOWS).questions_clicked(interaction,
                                                                                  self)

    def arg_id(self) -> int:
        if not self.game_id.isascii() or not self.game_id.isdigit() or len(self.game_id) > 19:
            raise invalid_component("set id")
        return int(self.game_id)


# --- An upload's answer -------------------------------------------------------------------------


#: The refusals whose texts are ``question_set_numbers.refused.<code>``.
NUMBER_REFUSALS = frozenset({"empty_answer", "zero_denominator"})


def refusal_text(refused: Refused, kind: str, lang: str) -> str:
    """``Line 4: no answer (“How much is 3 × 4?”).``"""
    params: dict[str, Any] = {key: shown_text(value) if isinstance(value, str) else value
                              for key, value in refused.params.items()}
    # The refusals of issue 26's answers have their texts in a catalogue file of their own.
    prefix = "question_set_numbers" if refused.code in NUMBER_REFUSALS else "class_questions"
    reason = t(f"{prefix}.refused.{refused.code}", lang, **params)
    return t(f"class_questions.where.{kind}", lang, line=refused.line, reason=reason)


def stored_embed(stored: QuestionSet, lang: str) -> discord.Embed:
    name = shown_text(stored.name)
    return discord.Embed(
        title=t("class_questions.upload.stored_title", lang, name=name),
        description=t("class_questions.upload.stored", lang, count=stored.size, name=name),
        colour=COLOUR)


def upload_reply(read: ReadFile, name: str, lang: str, token: str | None,
                 interaction: discord.Interaction) -> dict[str, Any]:
    """What a teacher reads after an upload with refused lines: the count, the refusals, the
    buttons (``token``: the upload waiting for them; None when no line is good)."""
    lines = [refusal_text(r, read.kind, lang) for r in read.refused]
    shown = within(lines, SHOWN_REFUSALS)
    body = [t("class_questions.upload.read", lang, count=read.lines) + " "
            + t("class_questions.upload.refused_count", lang, count=len(read.refused)),
            *(f"• {line}" for line in shown)]
    message: dict[str, Any] = {}
    if len(lines) > len(shown):
        body.append(t("class_questions.upload.more", lang, count=len(lines) - len(shown)))
        report = "\r\n".join(lines) + "\r\n"
        message["file"] = discord.File(io.BytesIO(report.encode("utf-8-sig")),
                                       filename="refused-lines.txt",
                                       description=t("alt.refused", lang))
    if token is None:
        body.append(t("class_questions.upload.nothing_good", lang))
    else:
        body.append(t("class_questions.upload.confirm", lang, count=len(read.items)))
        view = ui.View(timeout=None)  # dynamic items only: discord.py keeps nothing of it
        view.add_item(QuestionsButton(token, 0, "keep", style=discord.ButtonStyle.success,
                                      label=t("class_questions.upload.keep", lang,
                                              count=len(read.items))))
        view.add_item(QuestionsButton(token, 0, "cancel", style=discord.ButtonStyle.secondary,
                                      label=t("class_questions.upload.cancel", lang)))
        message["view"] = view
    message["embed"] = discord.Embed(
        title=t("class_questions.upload.title", lang, name=shown_text(name)),
        description="\n".join(body), colour=WARN)
    return message


# --- List, show, delete -------------------------------------------------------------------------


def list_embed(sets: list[SetSummary], authors: dict[int, str], lang: str) -> discord.Embed:
    """The server's sets: name, size, topics, author (``authors``: display names by id)."""
    embed = discord.Embed(title=t("class_questions.list.title", lang), colour=COLOUR)
    if not sets:
        embed.description = t("class_questions.list.empty", lang)
        return embed
    lines: list[str] = []
    for summary in sets:
        found = summary.set
        author = (authors.get(found.author_id) if found.author_id is not None else None)
        topics = ", ".join(shown_text(topic, 30) for topic in summary.topics[:5]) or t(
            "class_questions.list.no_topic", lang)
        lines.append(t("class_questions.list.line", lang, name=shown_text(found.name),
                       count=found.size, topics=topics,
                       author=shown_name(author) if author else t(
                           "class_questions.list.former_teacher", lang)))
    shown = within(lines, len(lines))
    if len(shown) < len(lines):
        shown.append(t("class_questions.list.more", lang, count=len(lines) - len(shown)))
    embed.description = "\n".join(shown)
    return embed


def show_reply(found: QuestionSet, items: list[SetItem], lang: str) -> dict[str, Any]:
    """The set's questions and answers (the first ``SHOWN_QUESTIONS``) and the set as a CSV."""
    lines = within([t("class_questions.show.line", lang, n=n, question=shown_text(item.text, 120),
                      answer=play.answer_cell(item.answer, lang),
                      topic=f" · {shown_text(item.topic, 30)}" if item.topic else "")
                    for n, item in enumerate(items[:SHOWN_QUESTIONS], start=1)], SHOWN_QUESTIONS)
    if len(items) > len(lines):
        lines.append(t("class_questions.show.more", lang, count=len(items) - len(lines)))
    embed = discord.Embed(title=t("class_questions.show.title", lang, name=shown_text(found.name),
                                  count=len(items)),
                          description="\n".join(lines), colour=COLOUR)
    embed.set_footer(text=t("class_questions.show.footer", lang))
    data = play.as_csv(items, lang).encode("utf-8-sig")  # the BOM: Excel then reads it as UTF-8
    # An alt text renders nothing: the name as it is, not the title's escaped one.
    said = t("alt.csv", lang, what=t("class_questions.show.title", lang, count=len(items),
                                     name=shown_text(found.name, markup=False)))
    return {"embed": embed, "file": discord.File(io.BytesIO(data), filename=csv_name(found.name),
                                                 description=said)}


def csv_name(name: str) -> str:
    """A file name for the set's CSV: its name with only safe characters."""
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in name).strip("-")
    return f"{safe or 'questions'}.csv"


def delete_reply(found: QuestionSet, lang: str) -> dict[str, Any]:
    view = ui.View(timeout=None)
    view.add_item(QuestionsButton(found.set_id, 0, "delete", style=discord.ButtonStyle.danger,
                                  label=t("class_questions.delete.yes", lang)))
    view.add_item(QuestionsButton(found.set_id, 0, "spare", style=discord.ButtonStyle.secondary,
                                  label=t("class_questions.delete.no", lang)))
    return {"content": t("class_questions.delete.confirm", lang, name=shown_text(found.name),
                         count=found.size), "view": view}


# --- Practice from a set ------------------------------------------------------------------------


def set_round_title(name: str, lang: str) -> str:
    """The title of a practice round from the set ``name``."""
    return t("class_questions.practice.title", lang, name=shown_text(name, play.MAX_NAME_CHARS))


def set_round_end(interaction: discord.Interaction, run: FocusRun,
                  again: Callable[[discord.Interaction], Awaitable[None]]) -> dict[str, Any]:
    """A finished round from a set: the corrections, the reminder that the student's level does
    not move, and "another round from this set" (``again``, on the member's first click)."""
    embed = summary_embed(run.round, run.lang, run.title)
    embed.add_field(name=t("focus.practice.advice_name", run.lang),
                    value=t("class_questions.practice.level_kept", run.lang), inline=False)
    view = ui.View(timeout=None)
    view.add_item(action_button(interaction, kind="practice", on_click=again,
                                label=t("focus.practice.again", run.lang)))
    return {"embed": embed, "view": view}


def refuse_level_and_set() -> DomainError:
    return DomainError("focus.set_and_level", "a set has no level: choose one or the other")


async def set_choices(interaction: discord.Interaction,
                      current: str) -> list[app_commands.Choice[str]]:
    """The server's set names containing what was typed (the autocomplete of a set option)."""
    if interaction.guild_id is None:
        return []
    names = await play.set_names(services_of(interaction).db, interaction.guild_id, current)
    return replies.fit_choices(app_commands.Choice(name=n, value=n) for n in names)
