"""The slate, alone or two facing each other for a battle.

One slate: front row (cells 1–4) on top, nearer the opponent, back row (5–8) below, as on the rules
page. A battle: the left player's slate on the left, the right player's on the right, each front
row towards the middle, column c of both sides on one line (column c faces column c).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from images import style as st
from images.cards import CardPainter, Unit, read_slate
from images.words import Words

# ---------------------------------------------------------------------------------------------
# One slate

SLATE_CARD = (172, 118)
_M = 18
_GAP = 12
_TITLE_H = 36
_LABEL_H = 24


def render_slate(slate: Mapping[str, Any] | None, words: Words,
                 title: str | None = None) -> bytes:
    """PNG of one player's slate: front row on top, back row below, empty cells dashed."""
    return st.to_png(slate_image(slate, words, title))


def slate_image(slate: Mapping[str, Any] | None, words: Words, title: str | None = None,
                card: tuple[int, int] = SLATE_CARD) -> Image.Image:
    units = read_slate(slate)
    cw, ch = card
    width = 2 * _M + 4 * cw + 3 * _GAP
    height = _M + _TITLE_H + 2 * (_LABEL_H + ch) + _GAP + _M - 6
    im, d = st.canvas(width, height)
    st.text(d, (_M, _M + _TITLE_H / 2 - 4), title or words("slate"), st.font(22, True),
            st.CHALK, "lm")
    st.text(d, (width - _M, _M + _TITLE_H / 2 - 4), f"{words.count('digits', len(units))} / 8",
            st.font(15), st.CHALK_DIM, "rm")
    painter = CardPainter(words, cw, ch)
    y = _M + _TITLE_H
    paste_rows(im, d, painter, units, _M, y, words)
    return im


def paste_rows(im: Image.Image, d: ImageDraw.ImageDraw, painter: CardPainter,
               units: Mapping[int, Unit], x: int, y: int, words: Words,
               gap: int = _GAP, label_h: int = _LABEL_H) -> int:
    """The two rows of a slate with their labels, from (x, y); returns the y below them."""
    cw, ch = painter.w, painter.h
    row_w = 4 * cw + 3 * gap
    for row, cells in enumerate(((1, 2, 3, 4), (5, 6, 7, 8))):
        label = (f"▲ {words('front')} · {words('facing')}" if row == 0
                 else words("back"))
        s, f = st.fit_text(label, row_w, 15, 10, bold=row == 0)
        st.text(d, (x + 2, y + label_h / 2), s, f, st.CHALK if row == 0 else st.CHALK_DIM,
                "lm")
        y += label_h
        for i, cell in enumerate(cells):
            unit = units.get(cell)
            card = painter.card(unit, cell) if unit else painter.empty(cell)
            im.paste(card, (x + i * (cw + gap), y))
        y += ch + gap
    return y - gap


# ---------------------------------------------------------------------------------------------
# Two slates facing each other


@dataclass(frozen=True, slots=True)
class BattleLayout:
    """Where everything stands in a battle picture: the two slates drawn as the shop draws one
    (rows of four, cell numbers), facing each other across a strip in the middle. The right
    player sits on top, its back row (5–8) at the top and its front row (1–4) above the strip;
    the left player below, front row under the strip, back row at the bottom. Column c of both
    sides is on one vertical line: column c faces column c.

    Nothing is ever drawn on a card: the hits run in the strip and, from or to a back row, in
    the gaps between the columns; what a digit lost or gained is written in the band on the
    card's far side (between its two rows, or outside the back row)."""

    card_w: int = 156
    card_h: int = 92
    margin: int = 16
    col_gap: int = 28  # between two columns: room for the lanes to and from the back rows
    header_h: int = 40
    name_h: int = 28
    band_h: int = 24  # outside each back row: what its digits lost or gained
    row_gap: int = 28  # between a side's two rows: what its front digits lost, move-ups
    strip_h: int = 116  # between the two front rows: the hits
    footer_h: int = 30

    @property
    def width(self) -> int:
        return 2 * self.margin + 4 * self.card_w + 3 * self.col_gap

    @property
    def height(self) -> int:
        return (self.header_h + 2 * (self.name_h + self.band_h + 2 * self.card_h
                                     + self.row_gap) + self.strip_h + self.footer_h)

    @property
    def strip_top(self) -> int:
        """The lower edge of the top player's front row."""
        return self.header_h + self.name_h + self.band_h + 2 * self.card_h + self.row_gap

    @property
    def strip_bottom(self) -> int:
        """The upper edge of the bottom player's front row."""
        return self.strip_top + self.strip_h

    def column_x(self, col: int) -> int:
        return self.margin + (col - 1) * (self.card_w + self.col_gap)

    def gap_x(self, k: int) -> float:
        """The middle of the gap between columns k and k + 1 (1–3)."""
        return self.column_x(k) + self.card_w + self.col_gap / 2

    def row_y(self, side: str, front: bool) -> int:
        if side == "right":
            back = self.header_h + self.name_h + self.band_h
            return back + self.card_h + self.row_gap if front else back
        front_y = self.strip_bottom
        return front_y if front else front_y + self.card_h + self.row_gap

    def cell_box(self, side: str, cell: int) -> st.Box:
        front = cell <= 4
        x = self.column_x(cell if front else cell - 4)
        y = self.row_y(side, front)
        return (x, y, x + self.card_w, y + self.card_h)

    def near_y(self, side: str, cell: int) -> int:
        """The y of the card's edge that faces the strip."""
        box = self.cell_box(side, cell)
        return box[3] if side == "right" else box[1]

    def band(self, side: str, cell: int) -> st.Box:
        """The band on the card's far side, where what it lost or gained is written."""
        x0, y0, x1, y1 = self.cell_box(side, cell)
        h = self.row_gap if cell <= 4 else self.band_h
        return (x0, y0 - h, x1, y0) if side == "right" else (x0, y1, x1, y1 + h)

    def name_y(self, side: str) -> float:
        if side == "right":
            return self.header_h + self.name_h / 2
        return self.height - self.footer_h - self.name_h / 2

    @property
    def centre_x(self) -> float:
        return self.width / 2


def battle_frame(layout: BattleLayout, painter: CardPainter,
                 left: Mapping[int, Unit], right: Mapping[int, Unit],
                 names: Sequence[str], status: str, substatus: str | None = None,
                 winner: str | None = None, standing: tuple[int, int] | None = None
                 ) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """Both slates facing each other with the names, the digits each side has standing
    (``standing``, else those drawn) and a status line on top. The replay draws its arrows and
    marks on the returned image."""
    words = painter.words
    im, d = st.canvas(layout.width, layout.height)
    nl, nr = standing if standing is not None else (len(left), len(right))
    counts = {"left": words.count("digits", nl), "right": words.count("digits", nr)}
    _header(d, layout, status, substatus)
    for side, name in zip(("left", "right"), names, strict=True):
        won = winner == side
        cy = layout.name_y(side)
        x = layout.margin
        side_marker(d, side, x + 10, cy, 9)
        label = f"{name} ★" if won else name
        s, f = st.fit_text(label, layout.width * 0.6, 20, 11, bold=True)
        st.text(d, (x + 26, cy), s, f, st.YELLOW if won else st.CHALK, "lm")
        st.text(d, (x + 26 + f.getlength(s) + 12, cy + 1), counts[side], st.font(14),
                st.CHALK_DIM, "lm")
        # Where this side's front row is: towards the middle, facing the other side.
        rows = f"▲ {words('front')}" if side == "left" else f"{words('front')} ▼"
        st.text(d, (layout.width - layout.margin, cy), rows, st.font(13), st.CHALK_DIM, "rm")
    for side, units in (("left", left), ("right", right)):
        for cell in range(1, 9):
            box = layout.cell_box(side, cell)
            unit = units.get(cell)
            im.paste(painter.card(unit, cell) if unit else painter.empty(cell), box[:2])
    return im, d


def side_marker(d: ImageDraw.ImageDraw, side: str, cx: float, cy: float, r: int) -> None:
    """Left is a blue disc, right an orange diamond: two shapes, not only two colours."""
    if side == "left":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=st.SIDE[side], outline=st.CHALK,
                  width=2)
    else:
        d.polygon([(cx, cy - r - 1), (cx + r + 1, cy), (cx, cy + r + 1), (cx - r - 1, cy)],
                  fill=st.SIDE[side], outline=st.CHALK, width=2)


def _header(d: ImageDraw.ImageDraw, layout: BattleLayout, status: str, substatus: str | None
            ) -> None:
    """The status across the top: what the frame shows ("Exchange 3 of 12") and a detail."""
    m = layout.margin
    cy = layout.header_h / 2 + 2
    box = (m, 6, layout.width - m, layout.header_h - 2)
    st.rounded(d, box, 10, fill=st.SLATE_LIGHT)
    if substatus:
        f = st.font(19, True)
        s, f = st.fit_text(status, (box[2] - box[0]) * 0.45, 19, 11, bold=True)
        st.text(d, (box[0] + 12, cy), s, f, st.CHALK, "lm")
        x = box[0] + 12 + f.getlength(s) + 16
        st.text_in_box(d, (round(x), box[1], box[2] - 12, box[3]), substatus, 15,
                       st.CHALK_DIM, min_size=9, align="l")
    else:
        st.text_in_box(d, (box[0] + 12, box[1], box[2] - 12, box[3]), status, 19, st.CHALK,
                       bold=True, min_size=10)


def result_status(result: Mapping[str, Any], names: Sequence[str], words: Words
                  ) -> tuple[str, str]:
    """("Alice wins", "after 7 exchanges") for a battle result."""
    winner = result.get("winner")
    n = int(result.get("exchanges", 0))
    if winner in ("left", "right"):
        head = words("wins", name=names[0 if winner == "left" else 1])
    else:
        head = words("draw")
    return head, words("after", exchanges=words.count("exchanges", n))


def render_battle(result: Mapping[str, Any], words: Words,
                  names: Sequence[str] = ("Left", "Right")) -> bytes:
    """PNG of a battle's final state: the survivors of both sides facing each other, with the
    result on top."""
    return st.to_png(battle_still(result, words, names))


def battle_still(result: Mapping[str, Any], words: Words, names: Sequence[str],
                 layout: BattleLayout | None = None, painter: CardPainter | None = None
                 ) -> Image.Image:
    """The final state: the survivors of both sides, and the result written large in the
    middle (the winner's name, or the draw) with the number of exchanges under it."""
    layout = layout or BattleLayout()
    painter = painter or CardPainter(words, layout.card_w, layout.card_h)
    survivors = result.get("survivors") or {}
    left = read_slate(survivors.get("left"))
    right = read_slate(survivors.get("right"))
    head, sub = result_status(result, names, words)
    winner = result.get("winner")
    im, d = battle_frame(layout, painter, left, right, names, words("final"), None, winner)
    top, bottom = layout.strip_top, layout.strip_bottom
    box = (layout.margin + 40, top + 10, layout.width - layout.margin - 40, bottom - 10)
    colour = st.SIDE.get(str(winner), st.SLATE_LIGHT)
    st.rounded(d, box, 16, fill=colour, outline=st.CHALK, width=3)
    label = f"★ {head} ★" if winner in st.SIDE else head
    ink = st.INK if winner == "right" else st.PAPER
    st.text_in_box(d, (box[0] + 16, box[1] + 6, box[2] - 16, box[1] + 62), label, 40, ink,
                   bold=True, min_size=14)
    st.text_in_box(d, (box[0] + 16, box[1] + 62, box[2] - 16, box[3] - 6), sub, 18, ink,
                   min_size=10)
    return im
