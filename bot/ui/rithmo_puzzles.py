"""``/rithmo hint`` and ``/rithmo puzzle``'s presentation: the hint's text, the daily puzzle's
message (the position drawn by ``images.render_board``, its question, an "Answer" button that
opens a form for the turn) and the verdict, each capture said with its arithmetic by
``bot.ui.rithmo_explain`` (the same sentences as a game's turns).

Decisions
    - Everything here is private (ephemeral): a hint is for the member who asked, and the daily
      puzzle's answer would spoil it for the others.
    - The puzzle is drawn from the side to move, as a game's board is for the player to move.
    - Showing the puzzle and answering it are conducted by ``bot.flows.rithmo`` (the command and
      the form call it; the form through ``RITHMO_FLOWS``); this module only says them.
    - The "Answer" button is persistent (``rithmo.puzzle_answer:<puzzle id>:0``): a click after
      a restart still opens the form. The form itself lives 15 minutes, as discord.py keeps it;
      ``/rithmo puzzle answer:…`` types the turn without it.
"""

from __future__ import annotations

import io

import discord
from discord import ui

import images
from bot import replies
from bot.i18n import date_text, image_words, lang_for, t
from bot.play.rithmo_puzzles import (
    Answered,
    HintGiven,
    Practice,
    PracticeAnswered,
    Streak,
    Today,
)
from bot.rithmo.puzzles import Puzzle, Verdict, Way
from bot.services import services_of
from bot.ui import alt_text
from bot.ui.rithmo import RITHMO_FLOWS, side_name
from bot.ui.rithmo_explain import capture_text
from bot.views import ArdoiseModal, GameButton, invalid_component

PUZZLE_FILE = "puzzle.png"
FORM_TIMEOUT = 900


def way_text(way: Way, lang: str) -> str:
    """``81 taken by power: 3⁴ = 81``: a capture's arithmetic, as the turns' messages say it."""
    return capture_text(way.explained(), lang)


# ------------------------------------------------------------------------------ hints


def hint_text(given: HintGiven, lang: str) -> str:
    game = given.row.game_id
    used = t("rithmo_puzzles.hint.used", lang, count=given.used)
    way = given.way
    if way is None:
        return f"{t('rithmo_puzzles.hint.none', lang, game=game)}\n{used}"
    if way.turn.startswith("x"):  # open at the start of the turn
        first = t("rithmo_puzzles.hint.take", lang, game=game, piece=way.piece, square=way.victim)
    else:  # a move (or a drop) opens it: the turn's first step, then the capture
        first = t("rithmo_puzzles.hint.take_after", lang, game=game, piece=way.piece,
                  square=way.victim, move=way.turn.rsplit(" ", 1)[0])
    return "\n".join([
        first,
        f"> {way_text(way, lang)}",
        t("rithmo_puzzles.hint.example", lang, turn=way.turn), used])


# ------------------------------------------------------------------------------ the puzzle


class AnswerForm(ArdoiseModal):
    """The turn, typed as ``/rithmo move`` reads it."""

    def __init__(self, puzzle_id: int, lang: str) -> None:
        super().__init__(title=t("rithmo_puzzles.form.title", lang), timeout=FORM_TIMEOUT)
        self.puzzle_id = puzzle_id
        self.turn: ui.TextInput[AnswerForm] = ui.TextInput(
            label=t("rithmo_puzzles.form.label", lang), custom_id="turn",
            placeholder=t("rithmo_puzzles.form.placeholder", lang), max_length=100)
        self.add_item(self.turn)

    async def on_submit(self, interaction: discord.Interaction, /) -> None:
        flows = services_of(interaction).kept.get(RITHMO_FLOWS)
        await flows.answer_puzzle(interaction, self.puzzle_id, self.turn.value)


class AnswerPuzzle(GameButton, action="rithmo.puzzle_answer"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        await replies.modal(interaction, AnswerForm(int(self.game_id),
                                                    await lang_for(interaction)))


class PracticeForm(AnswerForm):
    """The same form for a practice puzzle (``kind``, ``ref``: :class:`Practice`)."""

    def __init__(self, kind: str, ref: int, lang: str) -> None:
        super().__init__(0, lang)
        self.title = t("rithmo_puzzles.practice.form_title", lang)
        self.kind, self.ref = kind, ref

    async def on_submit(self, interaction: discord.Interaction, /) -> None:
        flows = services_of(interaction).kept.get(RITHMO_FLOWS)
        await flows.answer_practice(interaction, self.kind, self.ref, self.turn.value)


#: A practice button's version says what its id is: a past daily puzzle's id, or a seed.
PRACTICE_KINDS = ("past", "generated")


class AnswerPractice(GameButton, action="rithmo.practice_answer"):
    async def on_click(self, interaction: discord.Interaction) -> None:
        if self.version >= len(PRACTICE_KINDS):
            raise invalid_component("version")
        await replies.modal(interaction, PracticeForm(PRACTICE_KINDS[self.version],
                                                      int(self.game_id),
                                                      await lang_for(interaction)))


PERSISTENT_ITEMS = (AnswerPuzzle, AnswerPractice)


def streak_text(streak: Streak, lang: str) -> str:
    """``🔥 Puzzle streak: 3 days in a row (best: 5)``."""
    if streak.current == 0 and streak.best == 0:
        return t("rithmo_puzzles.streak.none", lang)
    return t("rithmo_puzzles.streak.value", lang, count=streak.current,
             best=t("rithmo_puzzles.streak.best", lang, count=streak.best))


def _question(today: Today, lang: str) -> list[str]:
    puzzle = today.puzzle
    lines = [t("rithmo_puzzles.puzzle.title", lang, day=date_text(today.stored.day, lang)),
             t("rithmo_puzzles.puzzle.ask", lang, side=side_name(puzzle.to_move, lang))]
    source = puzzle.source
    if source.get("kind") == "game":
        lines.append(t("rithmo_puzzles.puzzle.from_game", lang, game=source["game_id"],
                       turn=int(source["ply"]) + 1))
    else:
        lines.append(t("rithmo_puzzles.puzzle.from_bot", lang))
    return lines


def _solutions(puzzle: Puzzle, lang: str) -> list[str]:
    lines = [t("rithmo_puzzles.answer.best", lang, piece=puzzle.piece, square=puzzle.target)]
    ways = [t("rithmo_puzzles.answer.way", lang, turn=w.turn, why=way_text(w, lang))
            for w in puzzle.solutions]
    return lines + list(dict.fromkeys(ways))  # two capturers may make the same turn


def _counted(today: Today, lang: str) -> list[str]:
    mine = today.mine
    lines = []
    if mine is not None:
        result = t(f"rithmo_puzzles.result.{'right' if mine.solved else 'wrong'}", lang)
        lines.append(t("rithmo_puzzles.answer.yours", lang, turn=mine.answer, result=result))
    lines.append(t("rithmo_puzzles.puzzle.stats", lang, count=today.answered,
                   solved=today.solved))
    return lines


def puzzle_picture(puzzle: Puzzle, lang: str) -> discord.File:
    """The position, from the side to move (slow: the caller runs it in a thread)."""
    flipped = puzzle.to_move == "black"
    png = images.render_board(puzzle.position, image_words(lang), None, flipped)
    names = {side: side_name(side, lang) for side in ("white", "black")}
    said = alt_text.board(names, puzzle.to_move, None, flipped, lang)
    return discord.File(io.BytesIO(png), filename=PUZZLE_FILE, description=said)


def puzzle_message(today: Today, lang: str) -> tuple[str, ui.View | None]:
    """The day's puzzle's text beside its picture: the question and an Answer button, or, once
    answered, the counted answer and the solution."""
    lines = _question(today, lang)
    if today.mine is not None:
        return "\n".join(lines + _counted(today, lang) + _solutions(today.puzzle, lang)
                         + [streak_text(today.streak, lang)]), None
    lines += [t("rithmo_puzzles.puzzle.how", lang), streak_text(today.streak, lang)]
    view = ui.View(timeout=None)
    view.add_item(AnswerPuzzle(today.stored.puzzle_id, 0,
                               label=t("rithmo_puzzles.puzzle.answer_button", lang), emoji="🧩"))
    return "\n".join(lines), view


def verdict_text(answered: Answered, lang: str) -> str:
    """Right or wrong, with the arithmetic of what the turn took and of the expected capture."""
    verdict, puzzle = answered.verdict, answered.today.puzzle
    lines = _verdict_lines(verdict, puzzle, lang)
    if not answered.counted:
        first = answered.first
        result = t(f"rithmo_puzzles.result.{'right' if first.solved else 'wrong'}", lang)
        lines.append(t("rithmo_puzzles.answer.not_counted", lang, turn=first.answer,
                       result=result))
    lines.append(t("rithmo_puzzles.puzzle.stats", lang, count=answered.today.answered,
                   solved=answered.today.solved))
    lines.append(streak_text(answered.today.streak, lang))
    return "\n".join(lines)


def _verdict_lines(verdict: Verdict, puzzle: Puzzle, lang: str) -> list[str]:
    lines = []
    if verdict.right:
        way = next(w for w in verdict.taken if w.victim == puzzle.target and w.part == puzzle.part)
        lines += [t("rithmo_puzzles.answer.right", lang, turn=verdict.turn, piece=way.piece,
                    square=way.victim), f"> {way_text(way, lang)}"]
    elif verdict.taken:
        lines.append(t("rithmo_puzzles.answer.wrong_took", lang, turn=verdict.turn,
                       pieces=", ".join(w.piece for w in verdict.taken)))
        lines += [f"> {way_text(w, lang)}" for w in verdict.taken]
    else:
        lines.append(t("rithmo_puzzles.answer.wrong_nothing", lang, turn=verdict.turn))
    if not verdict.right:
        lines += _solutions(puzzle, lang)
    return lines


def practice_message(practice: Practice, lang: str) -> tuple[str, ui.View]:
    """A practice puzzle's question, said to count for nothing, with its Answer button."""
    puzzle = practice.puzzle
    lines = [t("rithmo_puzzles.practice.title", lang),
             t("rithmo_puzzles.puzzle.ask", lang, side=side_name(puzzle.to_move, lang))]
    if practice.day is not None:
        lines.append(t("rithmo_puzzles.practice.from_day", lang,
                       day=date_text(practice.day, lang)))
    else:
        lines.append(t("rithmo_puzzles.puzzle.from_bot", lang))
    lines.append(t("rithmo_puzzles.practice.how", lang))
    view = ui.View(timeout=None)
    view.add_item(AnswerPractice(practice.ref, PRACTICE_KINDS.index(practice.kind),
                                 label=t("rithmo_puzzles.puzzle.answer_button", lang),
                                 emoji="🧩"))
    return "\n".join(lines), view


def practice_verdict_text(answered: PracticeAnswered, lang: str) -> str:
    """Right or wrong, as for the daily puzzle, and that it counted for nothing."""
    lines = _verdict_lines(answered.verdict, answered.practice.puzzle, lang)
    lines.append(t("rithmo_puzzles.practice.not_counted", lang))
    return "\n".join(lines)
