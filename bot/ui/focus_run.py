"""A Focus round for one member, in an ephemeral message: the question, an "Answer" button, a
modal to type the answer, the next question, and the round's owner told of each answer and of
the end.

Used by the Focus conductor (``bot.flows.focus``: practice, a teacher's set, the daily challenge,
an assignment) and by The 20 Digits' (each match round's Focus). Not a conductor: the window the
kinds share (``bot.ui``), which calls nothing but its round's owner.

API
---
Every kind of round has one owner (``RoundOwner``): ``answered(run, answer)`` stores a marked
answer before the member sees it, ``finished(interaction, run)`` ends the round (the score, the
corrections, the follow-ups)::

    from bot.ui.focus_run import FocusRun, start_focus, summary_embed

    class MatchRound:                   # a RoundOwner
        async def answered(self, run: FocusRun, answer: Answer) -> None:
            ...                         # stored with the match's progress, one transaction

        async def finished(self, interaction: discord.Interaction, run: FocusRun) -> None:
            # run.round is the finished bot.focus.FocusRound: run.round.score (0-6), .answers…
            # ``interaction`` is the submission of the last answer, NOT answered yet: answer it
            # (within 3 s), e.g. by showing the corrections in the same ephemeral message:
            await replies.update(interaction, embed=summary_embed(run.round, run.lang),
                                 view=None)

    await start_focus(interaction, questions, lang, owner=MatchRound(), kind="match",
                      title="Round 3 · Focus", data={"match": 42})

``start_focus(interaction, questions, lang, *, owner=None, on_done=None, kind="match",
title=None, record=True, key=None, in_place=False, feedback=True, on_answer=None, data=None,
round_key=None, time_factor=1.0, size=None) -> FocusRun``

- ``owner``: the round's ``RoundOwner``. Callers written before it pass ``on_done(interaction,
  run)`` (its ``finished``), ``on_answer(run, answer)`` (its ``answered``) and ``record``
  instead, made into one owner (``Callbacks``); an owner and callbacks together are refused.
- ``interaction``: not answered yet (or deferred ephemerally); the first question is its answer,
  a new ephemeral message (``in_place=True``: the component's own message is edited instead).
- ``questions``: ``list[bot.focus.Question]`` (e.g. ``generate_questions(level, 6, rng)``), or a
  ``FocusRound`` already begun (resumed: it goes on at its first unanswered question; a finished
  one calls ``owner.finished`` at once).
- ``kind``: "practice", "daily", "match" or "assignment". It is the ``source`` under which each
  answer is stored in ``db.focus`` (when ``record``) and picks the sentence a member reads when
  they click a round whose window has expired (10 minutes idle, longer for a student with extra
  time, or the bot restarted): for "match", "open your Focus again from the match message".
- ``record`` (callbacks only): store each answer in ``db.focus`` as soon as it is given (before
  the reply shows it), with its time in milliseconds; the round's start must have made the member
  a player: an answer never makes them one again once their data was erased (``focus.erased``,
  which closes the window, as it does when the owner raises it). An owner that keeps the round's
  progress in a table of its own stores ``stored_answer(run, answer, index)`` in the same
  transaction as that progress (a crash between two writes would otherwise store an answer
  twice).
- ``round_key``: the round's name among the member's stored answers (default
  ``"<kind>:<token>"``); ``db.focus`` keeps one answer per question of a round, so a second write
  of the same question is a no-op. A resumable round names it (``"daily:2026-12-01"``).
- ``key``: while a round started under the same key is still open in this process, it is reopened
  (a new ephemeral message at its current question, its clock still running) instead of a new one;
  e.g. ``f"digits:{match_id}:{round}:{user_id}"`` when the "Take my Focus" button is clicked twice.
- ``feedback``: say "right" or "wrong, it was 15" after each answer.
- ``data``: a dict for the caller (``run.data``), e.g. the match id.
- ``time_factor``: the student's extra time (``bot.play.students``: 1.5, 2, ``None`` for no
  timer): the idle window is ``idle_window(time_factor)`` (15 and 20 minutes; an hour without
  timer) instead of 10 minutes. Nothing else changes: no question has a timer of its own.
- ``size``: the number a question is shown out of, for a round whose owner appends its next
  question as each answer comes (a placement: "question 3/12", 12 at most); default the
  round's size.

``get_run(bot, key)`` is the round open under ``key`` (None once finished or expired).
``action_button(interaction, label, kind, on_click)`` is any other button of a Focus window (e.g.
"Another round" under a finished practice round): live as long as a question would be, used once,
and after that the kind's sentence.

Each answer's time is taken by this module, never by the engine: from the moment the question was
sent (a new message or an edit) to the moment the modal was submitted, on a monotonic clock
(``bot.ui.focus_run.clock``, which tests may replace). A wrong *format* ("douze", "3+4") changes
nothing: the same question is shown again with the reason, and its clock keeps running.

Only the member sees the message (ephemeral) and only they may use it. How clicks and answers
find their round (public discord.py only):

- The buttons are ``RoundButton``s, a ``ui.DynamicItem`` registered once with the cogs that use
  this module (``persistent_items``): discord.py routes every click whose custom id matches
  ``focus.run:<kind>:<token>:<what>`` to it, on any message, even one it never stored (sent a
  moment ago by a busy bot, or before a restart). ``from_custom_id`` reads the custom id; the
  button finds its round in this bot's registry and, when the round is gone (finished, replaced,
  idle for ``VIEW_TIMEOUT``, or the bot restarted), says so itself: ``focus.expired.<kind>``.
  No view is stored per message, so a click can never come "before discord.py registered it".
- discord.py has no such item for modals (it routes a submission to the modal stored under its
  exact custom id, or to nothing). So the answer modal does nothing itself
  (``AnswerModal.interaction_check`` says no and forgets it), and every submission of a
  ``focus.runm:`` modal is taken by ``take_submission``, the route the cogs that run rounds
  list (``routes()``, read by the bot's one listener): it finds the round the same way, answers
  it if it is open (a submission read before discord.py stored the modal included), and says
  "expired" otherwise.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, Self

import discord
from discord import ui

from bot import replies
from bot.corrections import is_missing, worked_line
from bot.domain import DomainError
from bot.focus import Answer, FocusRound, Question
from bot.focus.answers import read_for
from bot.focus.exact import ANSWER_BAR, DECIMAL, LOWEST, WHOLE, Exact, exact_text
from bot.focus.round import mark
from bot.focus.skills import MINUS, level_of
from bot.i18n import decimal, error_text, lang_for, t
from bot.play.focus import record_answer
from bot.replies import EMBED_DESCRIPTION, interaction_data
from bot.services import Key, services_of, services_of_client
from bot.texts import (
    NNBSP,
    decimal_symbol,
    digit_groups,
    kept_per_load,
    lang_of,
    question_text,
    skill_level_name,
    skill_name,
)
from bot.tree import report_error
from bot.views import ArdoiseModal, button_of, ensure_player
from db import Database, FocusAnswer

log = logging.getLogger(__name__)

KINDS = ("practice", "daily", "match", "assignment")
#: How long a question waits for a click, and an opened modal for its answer, before the round
#: expires (Discord keeps an ephemeral message's buttons working for 15 minutes at most).
VIEW_TIMEOUT = 600.0
MODAL_TIMEOUT = 900.0
#: The idle window of a student with no timer (``/class student extra_time: untimed``). Each
#: click and each question shown is a new interaction, whose reply edits the ephemeral message
#: anew: the window is bounded by the bot's memory rather than by Discord's 15 minutes, and an
#: hour is "no timer" for a round of six questions (a daily attempt is resumable after that).
UNTIMED_WINDOW = 3600.0


def idle_window(time_factor: float | None) -> float:
    """A round's idle window for a student with ``time_factor`` (``StudentSettings``: 1.0 as
    usual, 1.5, 2.0, ``None`` for no timer): ``VIEW_TIMEOUT`` scaled, never shorter."""
    if time_factor is None:
        return UNTIMED_WINDOW
    return VIEW_TIMEOUT * max(1.0, time_factor)

#: Custom ids of this module's ephemeral components: an unknown one is an expired round.
BUTTON_PREFIX = "focus.run:"
MODAL_PREFIX = "focus.runm:"
#: A question's number in a custom id as the bot writes it (ASCII digits: isdigit() would take
#: "²", which int() refuses); anything else is no window of this bot's, hence expired.
_INDEX = re.compile(r"0|[1-9][0-9]{0,2}")
GREEN, RED, AMBER, BLUE = 0x2A9D8F, 0xE76F51, 0xE9C46A, 0x457B9D

#: The clock of the answer times, in seconds (monotonic); tests replace it.
clock: Callable[[], float] = time.monotonic

DoneCallback = Callable[[discord.Interaction, "FocusRun"], Awaitable[None]]
AnswerCallback = Callable[["FocusRun", Answer], Awaitable[None]]


class RoundOwner(Protocol):
    """Who a round belongs to — practice, a set, the daily challenge, an assignment, a match
    round (``bot.flows``): the one thing the run calls. The run asks the questions, reads and
    marks the answers, measures the times and shows the window; what an answer means (where it
    is stored, in which transaction) and what the end does (the score, the follow-up post, the
    next stage of a match) are the owner's, each kind in one place."""

    async def answered(self, run: FocusRun, answer: Answer) -> None:
        """A readable answer is marked, before the member sees it (``run.round`` does not hold
        it yet: it is question ``len(run.round.answers)``): store it, or raise to refuse it
        (``focus.erased`` closes the window)."""
        ...

    async def finished(self, interaction: discord.Interaction, run: FocusRun) -> None:
        """The last answer is in (or the round was over when it started): ``interaction`` is not
        answered yet; answer it within 3 s (the corrections in the same window, typically)."""
        ...


@dataclass(frozen=True)
class Callbacks:
    """A round owner made of two callbacks, for the callers of ``start_focus(on_done=…,
    on_answer=…, record=…)`` (a match round's Focus, the tests' cog): ``record`` stores each
    answer in ``db.focus`` first, then ``on_answer`` runs."""

    on_done: DoneCallback
    on_answer: AnswerCallback | None = None
    db: Database | None = None

    async def answered(self, run: FocusRun, answer: Answer) -> None:
        if self.db is not None:
            await record_answer(self.db, stored_answer(run, answer, len(run.round.answers)),
                                newcomer=False)
        if self.on_answer is not None:
            await self.on_answer(run, answer)

    async def finished(self, interaction: discord.Interaction, run: FocusRun) -> None:
        await self.on_done(interaction, run)


@dataclass(eq=False)
class FocusRun:
    """One member's round in progress (kept in memory while its window is open)."""

    token: str
    kind: str
    guild_id: int
    user_id: int
    lang: str
    round: FocusRound
    owner: RoundOwner
    title: str | None = None
    feedback: bool = True
    key: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    shown_at: float | None = None  # clock() when the current question was shown
    notice: str | None = None  # the line above the question: last answer's mark, or a refusal
    notice_colour: int = BLUE
    #: The message showing the current question (None while it is being sent).
    shown_in: int | None = None
    #: ``clock()`` after which the round has expired (pushed back by each question and click).
    expires_at: float = 0.0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    registry: Registry | None = None
    #: The round's name among the member's stored answers (``db.focus`` keeps one answer per
    #: question of a round): ``"<kind>:<token>"`` unless the caller names it.
    round_key: str = ""
    #: How long the round waits idle (``idle_window``: longer for a student with extra time).
    window: float = VIEW_TIMEOUT
    #: The size a question's number is shown out of ("question 3/12"), when the round's
    #: questions are not all known at its start (a placement's, drawn one at a time: the owner
    #: appends the next to ``round.questions`` in ``answered``); None: the round's size.
    size: int | None = None

    @property
    def shown_size(self) -> int:
        return self.size if self.size is not None else len(self.round.questions)

    @property
    def open(self) -> bool:
        return (self.registry is not None and self.registry.runs.get(self.token) is self
                and clock() <= self.expires_at)

    def touch(self, seconds: float | None = None) -> None:
        """Keep the round open ``seconds`` more (default: its window; a question shown, a modal
        opened)."""
        self.expires_at = max(self.expires_at, clock() + (self.window if seconds is None
                                                          else seconds))


def stored_answer(run: FocusRun, answer: Answer, index: int) -> FocusAnswer:
    """``answer`` to question ``index`` of ``run`` as ``db.focus`` stores it: keyed by the round
    and the question, so that storing it a second time (after a crash between two writes) is a
    no-op."""
    return FocusAnswer(
        guild_id=run.guild_id, user_id=run.user_id, topic=answer.topic, level=answer.level,
        question=answer.question, expected=answer.expected, given=answer.given,
        time_ms=round(answer.seconds * 1000), source=run.kind, round_key=run.round_key,
        question_no=index, skill=answer.skill, form=answer.form)


@dataclass(eq=False)
class Action:
    """Another button of a Focus window (``action_button``): one member, one use, a deadline."""

    kind: str
    user_id: int
    on_click: Callable[[discord.Interaction], Awaitable[None]]
    expires_at: float


@dataclass
class Registry:
    """The open rounds of one bot (a restarted bot starts with none)."""

    runs: dict[str, FocusRun] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)
    actions: dict[str, Action] = field(default_factory=dict)

    def sweep(self) -> None:
        """Forget the rounds and buttons whose time is over (nothing else would)."""
        now = clock()
        for run in [r for r in self.runs.values() if r.expires_at < now]:
            _close(run)
        for token in [k for k, a in self.actions.items() if a.expires_at < now]:
            del self.actions[token]


# One registry per bot, in its services (nothing is added to discord.py's objects).
_REGISTRY: Key[Registry] = Key("focus.runs", Registry)


def _registry(client: discord.Client) -> Registry:
    return services_of_client(client).kept.get(_REGISTRY)


def get_run(client: discord.Client, key: str) -> FocusRun | None:
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


def close_run(run: FocusRun) -> None:
    """Forget an open round (what its owner's ``answered`` does when it cannot go on): its
    buttons then say the window expired, and a new start reads the database again."""
    _close(run)


# --- Texts ---------------------------------------------------------------------------------


def seconds_text(seconds: float, lang: str) -> str:
    """``3.2 s`` / ``3,2 s``."""
    return f"{decimal(seconds, lang, 1)} s"


def level_text(level: int, lang: str, skill: str | None = None) -> str:
    """``Level 5 · Squares and tables to 12`` (the level's name); with ``skill``, the skill's
    name instead (``Level 5 · adding fractions``)."""
    if skill is not None:
        return t("focus.level_line", lang, level=level, name=skill_name(skill, lang))
    return t("focus.level_line", lang, level=level, name=t(f"focus.levels.{level}", lang))


def question_level_text(question: Question, lang: str) -> str:
    """The footer's ``Level 1 · Tables to 12`` of one question: its Focus level and the name of
    the level of its own skill it practises (``12 × 12`` at level 1 of a school year is not
    "Sums within 20"), else its skill's name."""
    found = level_of(question)
    if found is None:
        return level_text(question.level, lang, question.skill)
    return t("focus.level_line", lang, level=question.level,
             name=skill_level_name(question.skill, found.number, lang))


def value_text(value: Exact, form: str, lang: str) -> str:
    """An exact answer as the member reads it: ``15``, ``−3``, ``3/4``, ``0.75`` (``0,75`` in
    French) — the school's minus sign, a decimal in the language's own way."""
    text = exact_text(value, form)
    if lang_of(lang) == "fr":
        # French groups the thousands (« 2 500 », a narrow no-break space), as the typography
        # of every French text does (bot.texts.typography).
        whole, point, rest = text.partition(".")
        text = _THOUSANDS.sub(NNBSP, whole) + point + rest
    if form == DECIMAL and "." in text:
        text = text.replace(".", decimal_symbol(lang))
    return text.replace("-", MINUS)


#: Where a whole number's groups of three digits meet (``12500``: after the ``12``).
_THOUSANDS = re.compile(r"(?<=\d)(?=(?:\d{3})+(?!\d))")


def written_text(written: str, lang: str) -> str:
    """A teacher's accepted answers (``Question.written``) as the member reads them, as the
    teacher wrote them: ``1/2 or 0.5`` (``1/2 ou 0,5`` in French), the school's minus sign."""
    parts = [question_text(part.strip(), lang).replace("-", MINUS)
             for part in written.split(ANSWER_BAR)]
    text = parts[0]
    for part in parts[1:]:
        text = t("question_set_numbers.either", lang, first=text, second=part)
    return text


def expected_text(question: Question, lang: str) -> str:
    """A question's right answer as the member reads it (a teacher's, all its accepted ones)."""
    if question.written:
        return written_text(question.written, lang)
    return value_text(question.answer, question.form, lang)


def answer_expected_text(answer: Answer, lang: str) -> str:
    """The right answer of an answer as the member writes it (a teacher's accepted answers, or
    the value in its form)."""
    if answer.written:
        return written_text(answer.written, lang)
    return value_text(answer.expected, answer.form, lang)


def answer_given_text(answer: Answer, lang: str) -> str:
    """What the member typed, written the same way ("" when they typed nothing)."""
    return "" if answer.given is None else value_text(answer.given, answer.form, lang)


def answer_line(index: int, answer: Answer, lang: str, steps: bool = True) -> str:
    """``✅ 7 + 8 = 15 · 3.2 s`` or ``❌ 15 − 9 = 6 · you typed 7 · 4.0 s`` and, under a wrong
    or missed answer, its worked steps (``steps``)."""
    time_text = seconds_text(answer.seconds, lang)
    question = shown_question(answer.question, lang)
    # A missing-number question says "12 × ? = 96 → ? = 8", never "12 × ? = 96 = 8".
    prefix = "focus_steps.summary_" if is_missing(answer.question) else "focus.summary."
    suffix = "_missing" if is_missing(answer.question) else ""
    if answer.correct:
        return t(f"{prefix}right{suffix}", lang, n=index + 1, question=question,
                 expected=answer_expected_text(answer, lang), time=time_text)
    if answer.given is None:
        line = t(f"{prefix}skipped{suffix}", lang, n=index + 1, question=question,
                 expected=answer_expected_text(answer, lang), time=time_text)
    else:
        line = t(f"{prefix}wrong{suffix}", lang, n=index + 1, question=question,
                 expected=answer_expected_text(answer, lang),
                 given=answer_given_text(answer, lang), time=time_text)
    return _with_steps(line, answer, lang) if steps else line


def _corrections(round: FocusRound, lang: str) -> str:
    """Each answer's line, with the worked steps of the wrong ones while they fit in an embed
    (a long assignment's last corrections keep their line, without steps, rather than be
    cut)."""
    lines = [answer_line(i, a, lang, steps=False) for i, a in enumerate(round.answers)]
    room = EMBED_DESCRIPTION - len("\n".join(lines))
    for i, answer in enumerate(round.answers):
        full = answer_line(i, answer, lang)
        if len(full) - len(lines[i]) <= room:
            room -= len(full) - len(lines[i])
            lines[i] = full
    return "\n".join(lines)


def summary_embed(round: FocusRound, lang: str, title: str | None = None) -> discord.Embed:
    """The end of a round: the score, the time, and each answer with its correction."""
    size = len(round.questions)
    colour = GREEN if round.score * 2 >= size else AMBER
    embed = discord.Embed(
        title=t("focus.summary.title", lang, title=title or t("focus.run.title", lang),
                score=round.score, size=size),
        description=_corrections(round, lang),
        colour=colour,
    )
    embed.set_footer(text=t("focus.summary.footer", lang,
                            time=seconds_text(round.total_seconds, lang)))
    return embed


def _numbered(run: FocusRun, what: str) -> str:
    """The key of a question's number: "question 3/6", or "question 3" in a round whose
    questions come as it goes (``data["open_ended"]``: homework with a goal)."""
    return f"homework.run.{what}" if run.data.get("open_ended") else f"focus.run.{what}"


def question_embed(run: FocusRun) -> discord.Embed:
    question = run.round.current
    assert question is not None
    lang = run.lang
    embed = discord.Embed(
        title=t(_numbered(run, "question_title"), lang,
                title=run.title or t("focus.run.title", lang),
                n=run.round.index + 1, size=run.shown_size),
        description=question_line(question, lang),
        colour=run.notice_colour if run.notice else BLUE,
    )
    if run.notice:
        embed.add_field(name="\u200b", value=run.notice, inline=False)
    # A teacher's set (``data["set"]``) has no level to show.
    level = "" if run.data.get("set") is not None else \
        question_level_text(question, lang) + " · "
    embed.set_footer(text=level + t("focus.run.how", lang))
    return embed


def question_line(question: Question, lang: str) -> str:
    """``## 7 + 8 = ?``; a teacher's question that asks itself (``How much is 3 × 4?``,
    ``3 × 4 =``) is shown as written (``bot.replies.shown_name``: a teacher's own question may
    hold ``*`` for a product)."""
    text = question.text.rstrip()
    shown = shown_question(text, lang)
    if question.form == LOWEST:
        return t("focus.run.simplify", lang, question=shown)
    if asks_itself(text):
        return t("class_questions.asked", lang, question=shown)
    return t("focus.run.question", lang, question=shown)


@kept_per_load
def question_label(question: Question, lang: str) -> str:
    """The answer field's label: ``7 + 8 =``, ``? × 7 = 42``, ``Simplify 12/16``."""
    text = question_text(question.text.rstrip(), lang)
    if question.form == LOWEST:
        return t("focus.run.simplify", lang, question=text).removeprefix("## ")
    return text if asks_itself(text) else f"{text} ="


def placeholder(question: Question, lang: str) -> str:
    """What to type: a whole number, a decimal, a fraction (in lowest terms)."""
    key = "focus.run.placeholder" if question.form == WHOLE else \
        f"focus.run.placeholder_{question.form}"
    return t(key, lang)


def asks_itself(text: str) -> bool:
    """Whether a question's text already asks (``How much is 3 × 4?``, ``3 × 4 =``): then no
    "= ?" is added to it."""
    text = text.rstrip()
    return "?" in text or "？" in text or "=" in text or text.endswith((":", "…"))


@kept_per_load
def shown_question(text: str, lang: str) -> str:
    """A question's text as the member reads it: in their language's way
    (``bot.texts.question_text``: ``22,4 − 5,3``, « 2/3 de 18 »), its markdown made harmless
    (a teacher's own question may hold ``*``)."""
    return replies.shown_name(digit_groups(question_text(text, lang), lang), None)


def _mark_text(answer: Answer, lang: str) -> str:
    """``✅ 7 + 8 = 15: right!``, or ``❌ 3/4 − 1/4 = 1/2 (you typed 2/8)`` with the worked steps
    under it; a missing-number question says ``12 × ? = 96 → ? = 8``."""
    missing = is_missing(answer.question)
    question = shown_question(answer.question, lang)
    if answer.correct:
        return t("focus_steps.right_missing" if missing else "focus.run.right", lang,
                 question=question, expected=answer_expected_text(answer, lang))
    line = t("focus_steps.wrong_missing" if missing else "focus.run.wrong", lang,
             question=question, expected=answer_expected_text(answer, lang),
             given=answer_given_text(answer, lang))
    return _with_steps(line, answer, lang)


def _with_steps(line: str, answer: Answer, lang: str) -> str:
    """``line`` and, under it, the worked steps of the answer's question (when it has some)."""
    steps = worked_line(answer.skill, answer.question, answer.expected, lang)
    return f"{line}\n{replies.shown_name(steps, None)}" if steps else line


# --- The window: a question, an Answer button, a modal --------------------------------------


class RoundButton(ui.DynamicItem[ui.Button[Any]],
                  template=r"focus\.run:(?P<kind>[^:]*):(?P<token>[^:]*)(?::(?P<what>.*))?"):
    """A button of a Focus window: ``focus.run:<kind>:<token>:<question index>`` ("Answer"), or
    ``focus.run:<kind>:<token>:<name>`` (``action_button``). See the module's docstring: every
    click reaches it, and it finds the round, or says the window expired."""

    def __init__(self, kind: str, token: str, what: str | None, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.primary) -> None:
        custom_id = f"{BUTTON_PREFIX}{kind}:{token}" + ("" if what is None else f":{what}")
        super().__init__(ui.Button(label=label, style=style, custom_id=custom_id))
        self.kind = kind
        self.token = token
        self.what = what

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: re.Match[str], /) -> Self:
        button = button_of(item)
        return cls(match["kind"], match["token"], match["what"], label=button.label,
                   style=button.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        # discord.py only logs what a DynamicItem raises: the member reads it here instead.
        try:
            if not await self._clicked(interaction):
                await say_expired(interaction, self.kind)
        except Exception as error:
            await report_error(interaction, error)

    async def _clicked(self, interaction: discord.Interaction) -> bool:
        registry = _registry(interaction.client)
        what = self.what or ""
        if _INDEX.fullmatch(what) is None:
            action = registry.actions.get(self.token)
            if (action is None or action.kind != self.kind or action.expires_at < clock()
                    or action.user_id != interaction.user.id):
                return False
            del registry.actions[self.token]  # used once, like the window it belonged to
            await action.on_click(interaction)
            return True
        index = int(what)
        run = registry.runs.get(self.token)
        if run is None or not run.open or run.kind != self.kind or run.round.index != index:
            return False
        message = interaction.message
        if run.shown_in is not None and (message is None or message.id != run.shown_in):
            return False  # an older window of the round (reopened since): expired
        ensure_player(interaction, [run.user_id])
        run.touch()
        await replies.modal(interaction, AnswerModal(run, index))
        return True


def action_button(interaction: discord.Interaction, *, kind: str, label: str,
                  on_click: Callable[[discord.Interaction], Awaitable[None]],
                  style: discord.ButtonStyle = discord.ButtonStyle.primary,
                  window: float = VIEW_TIMEOUT) -> RoundButton:
    """A button of a Focus window for the member of ``interaction``: ``on_click(interaction)``
    runs on their first click within ``window`` (the round's: longer for a student with extra
    time); later (or after a restart) the click gets the sentence of ``kind``."""
    registry = _registry(interaction.client)
    registry.sweep()
    token = secrets.token_hex(6)
    registry.actions[token] = Action(kind=kind, user_id=interaction.user.id, on_click=on_click,
                                     expires_at=clock() + window)
    return RoundButton(kind, token, "go", label=label, style=style)


def question_view(run: FocusRun) -> ui.View:
    """The "Answer" button under the current question. Only a ``RoundButton``: discord.py keeps
    nothing of the view (no timeout, nothing but dynamic items)."""
    view = ui.View(timeout=None)
    view.add_item(RoundButton(run.kind, run.token, str(run.round.index),
                              label=t("focus.run.answer", run.lang)))
    return view


class AnswerForm(ArdoiseModal):
    """A form asking one question's answer ("7 + 8 =" and a field), which does nothing itself:
    the one route of submissions takes what is typed (``take_submission``; for live rounds
    ``LiveFlow.take_live_submission``), whether discord.py stored the form yet or not."""

    def __init__(self, title: str, custom_id: str, question: Question, lang: str,
                 timeout: float) -> None:
        super().__init__(title=title[:45], timeout=timeout, custom_id=custom_id)
        self.typed: ui.TextInput[AnswerForm] = ui.TextInput(
            label=question_label(question, lang)[:45], custom_id="answer",
            placeholder=placeholder(question, lang)[:100], max_length=40)
        self.add_item(self.typed)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        self.stop()  # its one submission came: discord.py may forget it
        return False


class AnswerModal(AnswerForm):
    """The modal of one answer of a round (see the module's docstring), before a restart or
    after."""

    def __init__(self, run: FocusRun, index: int) -> None:
        super().__init__(
            t(_numbered(run, "modal_title"), run.lang, n=index + 1, size=run.shown_size),
            f"{MODAL_PREFIX}{run.kind}:{run.token}:{index}", run.round.questions[index],
            run.lang, MODAL_TIMEOUT)


async def submit(run: FocusRun, index: int, typed: str, interaction: discord.Interaction
                 ) -> None:
    """Mark ``typed`` as the answer to question ``index`` and show what comes next."""
    submitted = clock()
    async with run.lock:
        if not run.open:
            await say_expired(interaction, run.kind)
            return
        if run.round.index != index:
            # A second modal for a question already answered: show where the round is.
            await _show(interaction, run, edit=True)
            return
        question = run.round.current
        assert question is not None
        seconds = max(0.0, submitted - (run.shown_at if run.shown_at is not None else submitted))
        try:
            given = read_for(question, typed)
        except DomainError as refusal:
            # Nothing recorded: the same question again, with the reason, its clock running.
            run.notice = t("focus.run.unreadable", run.lang, reason=error_text(refusal, run.lang))
            run.notice_colour = AMBER
            await _show(interaction, run, edit=True, restart_clock=False)
            return
        answer = mark(question, given, seconds)
        try:
            await run.owner.answered(run, answer)
        except DomainError as refusal:
            if refusal.code == "focus.erased":
                _close(run)  # the member's data is gone: so are the answers this window holds
            raise
        run.round.submit(given, seconds)
        if run.feedback:
            run.notice = _mark_text(answer, run.lang)
            run.notice_colour = GREEN if answer.correct else RED
        else:
            run.notice = None
        if run.round.finished:
            _close(run)
            await run.owner.finished(interaction, run)
            return
        await _show(interaction, run, edit=True)


async def _show(interaction: discord.Interaction, run: FocusRun, *, edit: bool,
                restart_clock: bool = True) -> None:
    """Show the current question as the answer to ``interaction``; start its clock."""
    view = question_view(run)
    run.touch()
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
    owner: RoundOwner | None = None,
    on_done: DoneCallback | None = None,
    kind: str = "match",
    title: str | None = None,
    record: bool = True,
    key: str | None = None,
    in_place: bool = False,
    feedback: bool = True,
    on_answer: AnswerCallback | None = None,
    data: dict[str, Any] | None = None,
    round_key: str | None = None,
    time_factor: float | None = 1.0,
    size: int | None = None,
) -> FocusRun:
    """Show the round's current question to the member of ``interaction``; see the module doc.
    ``owner``: who the round belongs to (``RoundOwner``); or, as before, ``on_done`` with
    ``on_answer`` and ``record`` (made into one, ``Callbacks``). ``time_factor``: the student's
    extra time (``StudentSettings.time_factor``), which scales the round's idle window
    (``idle_window``); the answer times are measured as usual."""
    if owner is None:
        if on_done is None:
            raise ValueError("a round needs its owner (or on_done)")
        owner = Callbacks(on_done, on_answer, services_of(interaction).db if record else None)
    elif on_done is not None or on_answer is not None:
        raise ValueError("an owner's round takes no callbacks: the owner answers and ends it")
    if kind not in KINDS:
        raise ValueError(f"kind is one of {KINDS}, not {kind!r}")
    if interaction.guild_id is None:
        raise ValueError("a Focus round is played in a server")
    registry = _registry(interaction.client)
    registry.sweep()
    existing = get_run(interaction.client, key) if key is not None else None
    if existing is not None and existing.user_id == interaction.user.id:
        # Reopened (the member dismissed the message, or clicked twice): same round, same clock.
        run = existing
        run.lang = lang
        run.notice = None
        run.window = idle_window(time_factor)
    else:
        round = questions if isinstance(questions, FocusRound) else FocusRound(list(questions))
        token = secrets.token_hex(6)
        run = FocusRun(token=token, kind=kind, guild_id=interaction.guild_id,
                       user_id=interaction.user.id, lang=lang, round=round, owner=owner,
                       title=title, feedback=feedback, key=key,
                       data=dict(data or {}), registry=registry,
                       round_key=round_key or f"{kind}:{token}",
                       window=idle_window(time_factor),
                       expires_at=clock() + idle_window(time_factor), size=size)
        if round.finished:
            await owner.finished(interaction, run)
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


async def say_expired(interaction: discord.Interaction, kind: str) -> None:
    """Tell the member that the Focus window of ``kind`` they used has expired."""
    lang = await lang_for(interaction)
    key = f"focus.expired.{kind if kind in KINDS else 'practice'}"
    if interaction.response.is_done():
        await replies.followup(interaction, t(key, lang), ephemeral=True)
    else:
        await replies.respond(interaction, t(key, lang), ephemeral=True)


def typed_value(data: Any, custom_id: str) -> str | None:
    """The text typed in the text input ``custom_id`` of a modal submission's data."""
    for row in (data or {}).get("components", []):
        for component in [*row.get("components", []), row.get("component") or {}]:
            if component.get("custom_id") == custom_id:
                return str(component.get("value", ""))
    return None


async def say_button_expired(interaction: discord.Interaction) -> None:
    """A click on a Focus round's button its message does not show (a modified client): the
    expired sentence of the kind its custom id names."""
    custom_id = str(interaction_data(interaction).get("custom_id", ""))
    await say_expired(interaction, custom_id[len(BUTTON_PREFIX):].split(":", 1)[0])


async def take_submission(interaction: discord.Interaction) -> bool:
    """Take the submission of a Focus round's answer modal (``focus.runm:<kind>:<token>:<index>``);
    whether it was one. The round's answer if it is open, else the kind's "expired" sentence.

    The one route of these submissions (see the module's docstring): the route ``MODAL_PREFIX``
    that every cog running rounds gives (the Focus, 20 Digits and class cogs: ``routes()``), so
    that each works without the others; the bot's one listener calls it (bot.views.Route)."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return False
    custom_id = str(interaction_data(interaction).get("custom_id", ""))
    if not custom_id.startswith(MODAL_PREFIX):
        return False
    parts = custom_id[len(MODAL_PREFIX):].split(":")
    kind = parts[0]
    try:
        run = _registry(interaction.client).runs.get(parts[1]) if len(parts) == 3 else None
        if (run is None or not run.open or run.kind != kind or _INDEX.fullmatch(parts[2]) is None
                or run.user_id != interaction.user.id):
            await say_expired(interaction, kind)
            return True
        # A modified client may leave the field out: read as nothing typed, hence refused.
        await submit(run, int(parts[2]), typed_value(interaction.data, "answer") or "", interaction)
    except Exception as error:  # as a modal would: the member reads what happened
        await report_error(interaction, error)
    return True
