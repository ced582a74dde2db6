"""``/rithmo rules``: Rithmomachia explained to a student, in pages to turn.

Each page is an embed with, for most, a picture of a real engine position: the board and how to
find a square; the moves of the round, the triangle and the square; the leaps; each of the six
captures as the rules page names them (encounter, ambush, assault, power, progression,
emprisonment); a turn and how to type it; the victories. The marks on a picture come from the
engine, not from the texts: the dots are the moves :meth:`Board.legal_moves` lists for the piece,
the frames the capturers :meth:`Board.capture_options` gives for that victim by that method, the
arrangement one that :class:`~bot.rithmo.Victory` says wins. A test checks each page's engine
facts, so a picture never shows what the engine would refuse.

The window itself (its Previous/Next buttons, who may turn the pages, their expiry, the pictures
drawn once) is ``bot/ui/rules_window.py``'s, shared with ``/digits rules``: this module gives its
pages. ``docs/rules/`` stays the precise document.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import ui

from bot.i18n import image_words, lang_for, t
from bot.rithmo import WHITE, Board, Victory, name
from bot.ui.rules_window import EXPIRY as EXPIRY
from bot.ui.rules_window import RulesBook
from images import render_lesson

PREFIX = "rithmo.rules:"
COLOUR = 0xC8A165
PICTURE = "rithmo-rules.png"


@dataclass(frozen=True)
class Lesson:
    """One page's position and what its picture marks: ``pieces`` for ``Board.from_pieces``
    (None: the set-up); the pieces whose moves are dotted (``regular`` moves, or leaps); the
    victim of a capture by ``method``; squares to outline (``line``) or to name."""

    page: str
    pieces: dict[str, str] | None = None
    to_move: str = "white"
    movers: tuple[str, ...] = ()
    regular: bool = True
    victim: str | None = None
    method: str | None = None
    line: tuple[str, ...] = ()
    named: tuple[str, ...] = ()
    picture: bool = True

    def board(self) -> Board:
        if self.pieces is None:
            return Board.start()
        return Board.from_pieces(self.pieces, to_move=self.to_move)

    def targets(self, board: Board, mover: str) -> list[str]:
        """The squares the piece on ``mover`` reaches (regular moves or leaps), as the engine
        lists them, in the board's order a1, b1, …"""
        return [name(m.to) for m in sorted(board.legal_moves(), key=lambda m: m.to)
                if name(m.frm) == mover and m.irregular != self.regular]

    def capturers(self, board: Board) -> list[str]:
        """The squares of the pieces that take ``victim`` by ``method``, as the engine says."""
        by: set[str] = set()
        for option in board.capture_options():
            if option["victim"] == self.victim and option["method"] == self.method:
                by.update(option["by"])
        return sorted(by)

    def marks(self) -> dict[str, list[str]]:
        board = self.board()
        marks: dict[str, list[str]] = {"named": list(self.named), "line": list(self.line)}
        kind = "moves" if self.regular else "leaps"
        marks[kind] = [sq for mover in self.movers for sq in self.targets(board, mover)]
        if self.victim is not None:
            marks["capturers"] = self.capturers(board)
            marks["victims"] = [self.victim]
        return marks


#: The arrangement of the victories' page: 4, 6, 9, 12 in Black's half, in a row.
ARRANGEMENT = {"c10": "R4", "d10": "R6", "e10": "T9", "f10": "T12"}

LESSONS: tuple[Lesson, ...] = (
    Lesson("board", named=("a1", "c4", "h16")),
    Lesson("round", {"e6": "R8", "f7": "R4"}, movers=("e6",)),
    Lesson("triangle", {"e6": "T20", "e7": "R4"}, movers=("e6",)),
    Lesson("square", {"e6": "S25", "f6": "R4"}, movers=("e6",)),
    Lesson("leaps", {"d4": "T20", "c4": "R2", "e4": "R4", "d3": "R6", "d5": "R8",
                     "e12": "S45", "e11": "R10", "e13": "R12"},
           movers=("d4", "e12"), regular=False),
    Lesson("encounter", {"c2": "R16", "d3": "s16"}, victim="d3", method="encounter"),
    Lesson("ambush", {"b1": "r8", "b3": "r4", "c2": "T12"}, to_move="black", victim="c2",
           method="ambush"),
    Lesson("assault", {"a4": "t6", "d1": "T12"}, to_move="black", victim="d1",
           method="assault", line=("b3", "c2")),
    Lesson("power", {"c2": "R3", "b3": "s81"}, victim="b3", method="power"),
    Lesson("progression", {"d1": "s15", "a3": "t20", "a1": "R25"}, to_move="black",
           victim="a1", method="progression"),
    Lesson("emprisonment", {"b2": "T30", "d2": "R5", "b4": "t72"}, to_move="black",
           victim="b2", method="emprisonment"),
    Lesson("turn", picture=False),
    Lesson("victories", ARRANGEMENT, line=tuple(ARRANGEMENT)),
)
PAGES = tuple(lesson.page for lesson in LESSONS)
BY_PAGE = {lesson.page: lesson for lesson in LESSONS}


def arrangement_wins() -> bool:
    """Whether the victories' picture shows what the engine counts as an excellent victory."""
    return Victory.make("excellent").achieved(BY_PAGE["victories"].board(), WHITE)


def page_params(lesson: Lesson) -> dict[str, Any]:
    """The squares a page's text names, from the engine (the moves of its pieces)."""
    board = lesson.board()
    params: dict[str, Any] = {}
    for i, mover in enumerate(lesson.movers):
        params["targets" if i == 0 else "targets_2"] = ", ".join(lesson.targets(board, mover))
    if lesson.victim is not None:
        params["by"] = ", ".join(lesson.capturers(board))
    return params


def page_text(page: str, lang: str) -> str:
    return t(f"rithmo.rules.pages.{page}.text", lang, **page_params(BY_PAGE[page]))


def page_alt(page: str, lang: str) -> str:
    return t(f"rithmo.rules.pages.{page}.alt", lang, **page_params(BY_PAGE[page]))


def draw_picture(page: str, lang: str) -> bytes:
    """The PNG of one page; slow (tens of milliseconds): run it in a thread."""
    lesson = BY_PAGE[page]
    return render_lesson(lesson.board().to_json(), image_words(lang), lesson.marks())


BOOK = RulesBook("rithmo.rules", keys="rithmo.rules",
                 not_yours="rithmo.rules_not_yours", prefix=PREFIX, pages=PAGES,
                 colour=COLOUR, picture_name=PICTURE, text=page_text, alt=page_alt,
                 draw=draw_picture, pictured=lambda page: BY_PAGE[page].picture)
rules_windows = BOOK.windows
PERSISTENT_ITEMS: Sequence[type[ui.DynamicItem[Any]]] = (BOOK.button,)


async def send_rules(interaction: discord.Interaction, show: bool) -> None:
    """The first page, in the member's language, privately unless ``show``."""
    await BOOK.open(interaction, await lang_for(interaction), show)
