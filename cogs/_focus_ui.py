"""A Focus round for one member, in an ephemeral message: the question, an "Answer" button, a
modal to type the answer, the next question, and a callback at the end.

Used by ``cogs/focus.py`` (practice, the daily challenge) and by the 20 Digits cog (each match
round's Focus). Not a cog (the leading underscore keeps it from being loaded as one).

API
---
::

    from cogs._focus_ui import FocusRun, start_focus, summary_embed

    async def focus_done(interaction: discord.Interaction, run: FocusRun) -> None:
        # run.round is the finished bot.focus.FocusRound: run.round.score (0-6), .answers, ...
        # ``interaction`` is the submission of the last answer, NOT answered yet: answer it
        # (within 3 s), e.g. by showing the corrections in the same ephemeral message:
        await replies.update(interaction, embed=summary_embed(run.round, run.lang),
                             view=None)

    await start_focus(interaction, questions, lang, on_done=focus_done, kind="match",
                      title="Round 3 · Focus", data={"match": 42})

``start_focus(interaction, questions, lang, *, on_done, kind="match", title=None, record=True,
key=None, in_place=False, feedback=True, on_answer=None, data=None, round_key=None) -> FocusRun``

- ``interaction``: not answered yet (or deferred ephemerally); the first question is its answer,
  a new ephemeral message (``in_place=True``: the component's own message is edited instead).
- ``questions``: ``list[bot.focus.Question]`` (e.g. ``generate_questions(level, 6, rng)``), or a
  ``FocusRound`` already begun (resumed: it goes on at its first unanswered question; a finished
  one calls ``on_done`` at once).
- ``kind``: "practice", "daily" or "match". It is the ``source`` under which each answer is stored
  in ``db.focus`` (when ``record``) and picks the sentence a member reads when they click a round
  whose window has expired (10 minutes idle, or the bot restarted): for "match", "open your
  Focus again from the match message".
- ``record``: store each answer in ``db.focus`` as soon as it is given (before the reply shows it),
  with its time in milliseconds. A caller that keeps the round's progress in a table of its own
  passes ``record=False`` and stores ``stored_answer(run, answer, index)`` in the same transaction
  as that progress (a crash between two writes would otherwise store an answer twice).
- ``round_key``: the round's name among the member's stored answers (default
  ``"<kind>:<token>"``); ``db.focus`` keeps one answer per question of a round, so a second write
  of the same question is a no-op. A resumable round names it (``"daily:2026-12-01"``).
- ``key``: while a round started under the same key is still open in this process, it is reopened
  (a new ephemeral message at its current question, its clock still running) instead of a new one;
  e.g. ``f"digits:{match_id}:{round}:{user_id}"`` when the "Take my Focus" button is clicked twice.
- ``feedback``: say "right" or "wrong, it was 15" after each answer.
- ``on_answer(run, answer)``: awaited after each readable answer is marked, before the reply
  (``answer`` is a ``bot.focus.Answer``; ``run.round`` does not hold it yet).
- ``data``: a dict for the caller (``run.data``), e.g. the match id.

``get_run(bot, key)`` is the round open under ``key`` (None once finished or expired).
``FocusView`` is the base of any other ephemeral Focus view: its buttons' custom ids start with
``focus.run:<kind>:`` so that a click after it expired gets that kind's sentence.

Each answer's time is taken by this module, never by the engine: from the moment the question was
sent (a new message or an edit) to the moment the modal was submitted, on a monotonic clock
(``cogs._focus_ui.clock``, which tests may replace). A wrong *format* ("douze", "3+4") changes
nothing: the same question is shown again with the reason, and its clock keeps running.

Only the member sees the message (ephemeral) and only they may use it (``ArdoiseView``). A click
on an expired window is answered by ``answer_expired`` (the Focus cog listens for it): the texts
``focus.expired.<kind>``. A click or an answer of a round still open that no view or modal took
is not expired, only early: discord.py registers a view or modal once Discord has accepted the
answer showing it, and a busy bot may read a quick member's click first; ``answer_expired``
then does what the view or modal would have done.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import ui

from bot import replies
from bot.domain import DomainError
from bot.focus import Answer, FocusRound, Question, read_answer
from bot.focus.round import mark
from bot.i18n import decimal, error_text, lang_for, t
from bot.tree import report_error
from bot.views import ArdoiseModal, ArdoiseView
from db import FocusAnswer

log = logging.getLogger(__name__)

KINDS = ("practice", "daily", "match")
#: How long a question waits for a click before its window expires (Discord keeps an ephemeral
#: message's buttons working for 15 minutes at most).
VIEW_TIMEOUT = 600.0
MODAL_TIMEOUT = 900.0
#: Custom ids of this module's ephemeral components: an unknown one is an expired round.
BUTTON_PREFIX = "focus.run:"
MODAL_PREFIX = "focus.runm:"
#: ``interaction.extras`` key set when discord.py routes an interaction to a live view or modal.
HANDLED = "ardoise_handled"
GREEN, RED, AMBER, BLUE = 0x2A9D8F, 0xE76F51, 0xE9C46A, 0x457B9D

#: The clock of the answer times, in seconds (monotonic); tests replace it.
clock: Callable[[], float] = time.monotonic

DoneCallback = Callable[[discord.Interaction, "FocusRun"], Awaitable[None]]
AnswerCallback = Callable[["FocusRun", Answer], Awaitable[None]]


@dataclass(eq=False)
class FocusRun:
    """One member's round in progress (kept in memory while its window is open)."""

    token: str
    kind: str
    guild_id: int
    user_id: int
    lang: str
    round: FocusRound
    on_done: DoneCallback
    title: str | None = None
    record: bool = True
    feedback: bool = True
    key: str | None = None
    on_answer: AnswerCallback | None = None
    data: dict[str, Any] = field(default_factory=dict)
    shown_at: float | None = None  # clock() when the current question was shown
    notice: str | None = None  # the line above the question: last answer's mark, or a refusal
    notice_colour: int = BLUE
    view: QuestionView | None = None
    #: The message showing ``view`` (None while it is being sent).
    shown_in: int | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    registry: Registry | None = None
    #: The round's name among the member's stored answers (``db.focus`` keeps one answer per
    #: question of a round): ``"<kind>:<token>"`` unless the caller names it.
    round_key: str = ""

    @property
    def open(self) -> bool:
        return self.registry is not None and self.registry.runs.get(self.token) is self


def stored_answer(run: FocusRun, answer: Answer, index: int) -> FocusAnswer:
    """``answer`` to question ``index`` of ``run`` as ``db.focus`` stores it: keyed by the round
    and the question, so that storing it a second time (after a crash between two writes) is a
    no-op."""
    return FocusAnswer(
        guild_id=run.guild_id, user_id=run.user_id, topic=answer.topic, level=answer.level,
        question=answer.question, expected=answer.expected, given=answer.given,
        time_ms=round(answer.seconds * 1000), source=run.kind, round_key=run.round_key,
        question_no=index)


@dataclass
class Registry:
    """The open rounds of one bot (a restarted bot starts with none)."""

    runs: dict[str, FocusRun] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)


def _registry(client: Any) -> Registry:
    registry = getattr(client, "_focus_runs", None)
    if registry is None:
        registry = Registry()
        client._focus_runs = registry
    return registry


def get_run(client: Any, key: str) -> FocusRun | None:
    """The open round that ``client`` (the bot) started under ``key``, if any."""
    registry = _registry(client)
    token = registry.keys.get(key)
    return None if token is None else registry.runs.get(token)


def _close(run: FocusRun) -> None:
    registry = run.registry
    if registry is not None:
        if registry.runs.get(run.token) is run:
            del registry.runs[run.token]
        if run.key is not None and registry.keys.get(run.key) == run.token:
            del registry.keys[run.key]
    if run.view is not None:
        run.view.stop()
        run.view = None


# --- Texts ---------------------------------------------------------------------------------


def seconds_text(seconds: float, lang: str) -> str:
    """``3.2 s`` / ``3,2 s``."""
    return f"{decimal(seconds, lang, 1)} s"


def level_text(level: int, lang: str) -> str:
    return t("focus.level_line", lang, level=level, name=t(f"focus.levels.{level}", lang))


def answer_line(index: int, answer: Answer, lang: str) -> str:
    """``✅ 7 + 8 = 15 · 3.2 s`` or ``❌ 15 − 9 = 6 · you typed 7 · 4.0 s``."""
    time_text = seconds_text(answer.seconds, lang)
    if answer.correct:
        return t("focus.summary.right", lang, n=index + 1, question=answer.question,
                 expected=answer.expected, time=time_text)
    if answer.given is None:
        return t("focus.summary.skipped", lang, n=index + 1, question=answer.question,
                 expected=answer.expected, time=time_text)
    return t("focus.summary.wrong", lang, n=index + 1, question=answer.question,
             expected=answer.expected, given=answer.given, time=time_text)


def summary_embed(round: FocusRound, lang: str, title: str | None = None) -> discord.Embed:
    """The end of a round: the score, the time, and each answer with its correction."""
    size = len(round.questions)
    colour = GREEN if round.score * 2 >= size else AMBER
    embed = discord.Embed(
        title=t("focus.summary.title", lang, title=title or t("focus.run.title", lang),
                score=round.score, size=size),
        description="\n".join(answer_line(i, a, lang) for i, a in enumerate(round.answers)),
        colour=colour,
    )
    embed.set_footer(text=t("focus.summary.footer", lang,
                            time=seconds_text(round.total_seconds, lang)))
    return embed


def question_embed(run: FocusRun) -> discord.Embed:
    question = run.round.current
    assert question is not None
    lang = run.lang
    embed = discord.Embed(
        title=t("focus.run.question_title", lang, title=run.title or t("focus.run.title", lang),
                n=run.round.index + 1, size=len(run.round.questions)),
        description=t("focus.run.question", lang, question=question.text),
        colour=run.notice_colour if run.notice else BLUE,
    )
    if run.notice:
        embed.add_field(name="\u200b", value=run.notice, inline=False)
    embed.set_footer(text=level_text(question.level, lang) + " · "
                     + t("focus.run.how", lang))
    return embed


def _mark_text(answer: Answer, lang: str) -> str:
    if answer.correct:
        return t("focus.run.right", lang, question=answer.question, expected=answer.expected)
    return t("focus.run.wrong", lang, question=answer.question, expected=answer.expected,
             given=answer.given)


# --- The window: a question, an Answer button, a modal --------------------------------------


class FocusView(ArdoiseView):
    """An ephemeral Focus view: when discord.py routes a click to it, ``answer_expired`` knows.

    Give its buttons custom ids starting with ``focus.run:<kind>:`` so that a click after it
    expired gets the sentence of that kind.
    """

    def _dispatch_item(self, item: Any, interaction: discord.Interaction
                       ) -> asyncio.Task[None] | None:
        # Runs synchronously when discord.py routes the click here, before the listener that
        # answers expired windows: that listener then knows this click is taken care of.
        task = super()._dispatch_item(item, interaction)  # type: ignore[misc]
        if task is not None:
            interaction.extras[HANDLED] = True
        return task


class QuestionView(FocusView):
    """The "Answer" button under one question; only the member may use it."""

    def __init__(self, run: FocusRun) -> None:
        super().__init__(players=[run.user_id], timeout=VIEW_TIMEOUT)
        self.run = run
        self.index = run.round.index
        button: ui.Button[QuestionView] = ui.Button(
            label=t("focus.run.answer", run.lang), style=discord.ButtonStyle.primary,
            custom_id=f"{BUTTON_PREFIX}{run.kind}:{run.token}:{self.index}")
        button.callback = self.answer  # type: ignore[method-assign]
        self.add_item(button)

    async def answer(self, interaction: discord.Interaction) -> None:
        run = self.run
        if not run.open or run.view is not self or run.round.index != self.index:
            await _say_expired(interaction, run.kind)
            return
        await replies.modal(interaction, AnswerModal(run, self.index))

    async def on_timeout(self) -> None:
        # The window is gone (Discord forgets its buttons): so is the round, unless it was
        # reopened elsewhere meanwhile.
        if self.run.view is self:
            _close(self.run)


class AnswerModal(ArdoiseModal):
    def __init__(self, run: FocusRun, index: int) -> None:
        lang = run.lang
        super().__init__(
            title=t("focus.run.modal_title", lang, n=index + 1, size=len(run.round.questions))[:45],
            timeout=MODAL_TIMEOUT,
            custom_id=f"{MODAL_PREFIX}{run.kind}:{run.token}:{index}",
        )
        self.run = run
        self.index = index
        question = run.round.questions[index]
        self.typed: ui.TextInput[AnswerModal] = ui.TextInput(
            label=f"{question.text} ="[:45], custom_id="answer",
            placeholder=t("focus.run.placeholder", lang)[:100], max_length=40)
        self.add_item(self.typed)

    def _dispatch_submit(self, interaction: discord.Interaction, *args: Any) -> Any:
        interaction.extras[HANDLED] = True
        return super()._dispatch_submit(interaction, *args)  # type: ignore[misc]

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await submit(self.run, self.index, self.typed.value, interaction)


async def submit(run: FocusRun, index: int, typed: str, interaction: discord.Interaction
                 ) -> None:
    """Mark ``typed`` as the answer to question ``index`` and show what comes next."""
    submitted = clock()
    async with run.lock:
        if not run.open:
            await _say_expired(interaction, run.kind)
            return
        if run.round.index != index:
            # A second modal for a question already answered: show where the round is.
            await _show(interaction, run, edit=True)
            return
        question = run.round.current
        assert question is not None
        seconds = max(0.0, submitted - (run.shown_at if run.shown_at is not None else submitted))
        try:
            given = read_answer(typed)
        except DomainError as refusal:
            # Nothing recorded: the same question again, with the reason, its clock running.
            run.notice = t("focus.run.unreadable", run.lang, reason=error_text(refusal, run.lang))
            run.notice_colour = AMBER
            await _show(interaction, run, edit=True, restart_clock=False)
            return
        answer = mark(question, given, seconds)
        if run.record:
            await interaction.client.db.focus.record(  # type: ignore[attr-defined]
                stored_answer(run, answer, index))
        if run.on_answer is not None:
            await run.on_answer(run, answer)
        run.round.submit(given, seconds)
        if run.feedback:
            run.notice = _mark_text(answer, run.lang)
            run.notice_colour = GREEN if answer.correct else RED
        else:
            run.notice = None
        if run.round.finished:
            _close(run)
            await run.on_done(interaction, run)
            return
        await _show(interaction, run, edit=True)


async def _show(interaction: discord.Interaction, run: FocusRun, *, edit: bool,
                restart_clock: bool = True) -> None:
    """Show the current question as the answer to ``interaction``; start its clock."""
    old = run.view
    view = QuestionView(run)
    run.view = view
    if old is not None:
        old.stop()
    embed = question_embed(run)
    # The clock starts as the question is sent (Discord shows it a few milliseconds later, the
    # same for every member): the time is then known before anyone can answer.
    if restart_clock or run.shown_at is None:
        run.shown_at = clock()
    if edit:
        run.shown_in = interaction.message.id if interaction.message is not None else None
        await replies.update(interaction, embed=embed, view=view)
    elif interaction.response.is_done():
        run.shown_in = None
        sent = await replies.followup(interaction, embed=embed, view=view, ephemeral=True,
                                      wait=True)
        run.shown_in = sent.id
    else:
        run.shown_in = None
        response = await replies.respond(interaction, embed=embed, view=view,
                                         ephemeral=True)
        run.shown_in = response.message_id


async def start_focus(
    interaction: discord.Interaction,
    questions: Sequence[Question] | FocusRound,
    lang: str,
    *,
    on_done: DoneCallback,
    kind: str = "match",
    title: str | None = None,
    record: bool = True,
    key: str | None = None,
    in_place: bool = False,
    feedback: bool = True,
    on_answer: AnswerCallback | None = None,
    data: dict[str, Any] | None = None,
    round_key: str | None = None,
) -> FocusRun:
    """Show the round's current question to the member of ``interaction``; see the module doc."""
    if kind not in KINDS:
        raise ValueError(f"kind is one of {KINDS}, not {kind!r}")
    if interaction.guild_id is None:
        raise ValueError("a Focus round is played in a server")
    registry = _registry(interaction.client)
    existing = get_run(interaction.client, key) if key is not None else None
    if existing is not None and existing.user_id == interaction.user.id:
        # Reopened (the member dismissed the message, or clicked twice): same round, same clock.
        run = existing
        run.lang = lang
        run.notice = None
    else:
        round = questions if isinstance(questions, FocusRound) else FocusRound(list(questions))
        token = secrets.token_hex(6)
        run = FocusRun(token=token, kind=kind, guild_id=interaction.guild_id,
                       user_id=interaction.user.id, lang=lang, round=round, on_done=on_done,
                       title=title, record=record, feedback=feedback, key=key,
                       on_answer=on_answer, data=dict(data or {}), registry=registry,
                       round_key=round_key or f"{kind}:{token}")
        if round.finished:
            await on_done(interaction, run)
            return run
        if key is not None:
            previous = get_run(interaction.client, key)
            if previous is not None:
                _close(previous)
            registry.keys[key] = run.token
        registry.runs[run.token] = run
    async with run.lock:
        await _show(interaction, run, edit=in_place, restart_clock=run.shown_at is None)
    return run


# --- Expired windows ---------------------------------------------------------------------


async def _say_expired(interaction: discord.Interaction, kind: str) -> None:
    lang = await lang_for(interaction)
    key = f"focus.expired.{kind if kind in KINDS else 'practice'}"
    if interaction.response.is_done():
        await replies.followup(interaction, t(key, lang), ephemeral=True)
    else:
        await replies.respond(interaction, t(key, lang), ephemeral=True)


def _typed(data: Any, custom_id: str) -> str | None:
    """The text typed in the text input ``custom_id`` of a modal submission's data."""
    for row in (data or {}).get("components", []):
        for component in [*row.get("components", []), row.get("component") or {}]:
            if component.get("custom_id") == custom_id:
                return str(component.get("value", ""))
    return None


async def _take_unstored(interaction: discord.Interaction, custom_id: str) -> bool:
    """Handle a click or a submission of an open round that discord.py could not route yet;
    whether it did.

    discord.py registers the view of an answer (the next question's button) or a modal only
    once Discord has accepted that answer; when the bot is busy, a quick member's click or
    submission can be read first and finds nothing registered. The round is still open here,
    so it is done as the view or modal would have done it, not called expired."""
    for prefix in (BUTTON_PREFIX, MODAL_PREFIX):
        if custom_id.startswith(prefix):
            break
    else:
        return False
    parts = custom_id[len(prefix):].split(":")
    # The question's number as the bot writes it (ASCII digits: isdigit() would take "²", which
    # int() refuses); anything else is no window of this bot's, hence expired.
    if len(parts) != 3 or re.fullmatch(r"0|[1-9][0-9]{0,2}", parts[2]) is None:
        return False
    index = int(parts[2])
    run = _registry(interaction.client).runs.get(parts[1])
    if (run is None or not run.open or run.kind != parts[0]
            or run.user_id != interaction.user.id):
        return False
    try:
        if prefix == BUTTON_PREFIX:
            if run.view is None or run.view.index != index or run.round.index != index:
                return False
            message = interaction.message
            if run.shown_in is not None and (message is None or message.id != run.shown_in):
                return False  # an older window of the round (reopened since): expired
            await replies.modal(interaction, AnswerModal(run, index))
            return True
        typed = _typed(interaction.data, "answer")
        if typed is None:
            return False
        await submit(run, index, typed, interaction)
    except Exception as error:  # as the view or modal would: the member reads what happened
        await report_error(interaction, error)
    return True


async def answer_expired(interaction: discord.Interaction,
                         prefixes: dict[str, str] | None = None) -> bool:
    """Answer a click or a modal of a Focus window that nothing handles any more (its view timed
    out, or the bot restarted since it was shown) with a clear sentence; whether it did.

    ``prefixes`` maps more custom-id prefixes to a kind of text (the live rounds' modals).
    Call it from an ``on_interaction`` listener: discord.py routes live windows before it runs.
    """
    if interaction.type not in (discord.InteractionType.component,
                                discord.InteractionType.modal_submit):
        return False
    if interaction.extras.get(HANDLED):
        return False
    custom_id = str((interaction.data or {}).get("custom_id", ""))
    kind: str | None = None
    for prefix in (BUTTON_PREFIX, MODAL_PREFIX):
        if custom_id.startswith(prefix):
            kind = custom_id[len(prefix):].split(":", 1)[0]
    for prefix, their_kind in (prefixes or {}).items():
        if custom_id.startswith(prefix):
            kind = their_kind
    if kind is None:
        return False
    if interaction.response.is_done():
        return False
    if await _take_unstored(interaction, custom_id):
        return True
    try:
        lang = await lang_for(interaction)
        key = f"focus.expired.{kind}"
        await replies.respond(
            interaction,
            t(key if kind in (*KINDS, "live") else "focus.expired.practice", lang),
            ephemeral=True)
    except discord.HTTPException as failure:
        log.warning("could not say that a Focus window expired: %s", failure)
    return True
