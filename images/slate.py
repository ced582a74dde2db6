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
    """Where everything stands in a battle picture. Rows are columns of the slates: row c holds
    both sides' column c, so that facing digits are on one line."""

    card_w: int = 150
    card_h: int = 104
    margin: int = 16
    inner_gap: int = 8  # between a side's back and front cells
    centre_gap: int = 92  # between the two front rows: room for the hit arrows
    row_gap: int = 16  # room for the reach arrows from the back row
    header_h: int = 66
    label_h: int = 24
    footer_h: int = 44

    @property
    def width(self) -> int:
        return 2 * self.margin + 4 * self.card_w + 2 * self.inner_gap + self.centre_gap

    @property
    def height(self) -> int:
        return (self.header_h + self.label_h + 4 * self.card_h + 3 * self.row_gap
                + self.footer_h)

    @property
    def top(self) -> int:
        return self.header_h + self.label_h

    def column_x(self, side: str, front: bool) -> int:
        m, w, g = self.margin, self.card_w, self.inner_gap
        if side == "left":
            return m + w + g if front else m
        x_front = m + 2 * w + g + self.centre_gap
        return x_front if front else x_front + w + g

    def cell_box(self, side: str, cell: int) -> st.Box:
        front = cell <= 4
        col = cell if front else cell - 4
        x = self.column_x(side, front)
        y = self.top + (col - 1) * (self.card_h + self.row_gap)
        return (x, y, x + self.card_w, y + self.card_h)

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
    counts = (words.count("digits", nl), words.count("digits", nr))
    _header(d, layout, names, counts, status, substatus, winner)
    # Row labels: back and front of each side.
    lf = st.font(13)
    for side in ("left", "right"):
        for front in (False, True):
            x = layout.column_x(side, front) + layout.card_w / 2
            label = words("front_short" if front else "back_short")
            st.text(d, (x, layout.header_h + layout.label_h / 2), label, lf, st.CHALK_DIM, "mm")
    for side, units in (("left", left), ("right", right)):
        for cell in range(1, 9):
            box = layout.cell_box(side, cell)
            unit = units.get(cell)
            im.paste(painter.card(unit) if unit else painter.empty(), box[:2])
    return im, d


def side_marker(d: ImageDraw.ImageDraw, side: str, cx: float, cy: float, r: int) -> None:
    """Left is a blue disc, right an orange diamond: two shapes, not only two colours."""
    if side == "left":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=st.SIDE[side], outline=st.CHALK,
                  width=2)
    else:
        d.polygon([(cx, cy - r - 1), (cx + r + 1, cy), (cx, cy + r + 1), (cx - r - 1, cy)],
                  fill=st.SIDE[side], outline=st.CHALK, width=2)


def _header(d: ImageDraw.ImageDraw, layout: BattleLayout, names: Sequence[str],
            counts: Sequence[str], status: str, substatus: str | None, winner: str | None
            ) -> None:
    """Each side's name (with a star for the winner) over the count of its digits standing,
    and the status in the middle."""
    m = layout.margin
    cy = 24
    name_w = layout.width / 2 - layout.centre_gap / 2 - layout.card_w * 0.55 - m - 30
    cf = st.font(14)
    for side, name, n in zip(("left", "right"), names, counts, strict=True):
        won = winner == side
        label = f"★ {name}" if won and side == "left" else f"{name} ★" if won else name
        s, f = st.fit_text(label, name_w, 22, 11, bold=True)
        if side == "left":
            side_marker(d, side, m + 10, cy, 9)
            st.text(d, (m + 26, cy), s, f, st.CHALK, "lm")
            st.text(d, (m + 26, cy + 24), n, cf, st.CHALK_DIM, "lm")
        else:
            side_marker(d, side, layout.width - m - 10, cy, 9)
            st.text(d, (layout.width - m - 26, cy), s, f, st.CHALK, "rm")
            st.text(d, (layout.width - m - 26, cy + 24), n, cf, st.CHALK_DIM, "rm")
    # The status sits in the middle, above the centre gap, over both columns' inner halves.
    sw = layout.centre_gap + layout.card_w * 1.1
    cx = layout.centre_x
    box = (round(cx - sw / 2), 8, round(cx + sw / 2), layout.header_h - 8)
    st.rounded(d, box, 10, fill=st.SLATE_LIGHT)
    if substatus:
        st.text_in_box(d, (box[0] + 6, box[1] + 2, box[2] - 6, box[1] + 30), status, 18,
                       st.CHALK, bold=True, min_size=10)
        st.text_in_box(d, (box[0] + 6, box[1] + 28, box[2] - 6, box[3] - 2), substatus, 13,
                       st.CHALK_DIM, min_size=9)
    else:
        st.text_in_box(d, (box[0] + 6, box[1], box[2] - 6, box[3]), status, 19, st.CHALK,
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
    layout = layout or BattleLayout()
    painter = painter or CardPainter(words, layout.card_w, layout.card_h)
    survivors = result.get("survivors") or {}
    left = read_slate(survivors.get("left"))
    right = read_slate(survivors.get("right"))
    head, sub = result_status(result, names, words)
    winner = result.get("winner")
    im, d = battle_frame(layout, painter, left, right, names, head, sub, winner)
    _footer(d, layout, words)
    return im


def _footer(d: ImageDraw.ImageDraw, layout: BattleLayout, words: Words) -> None:
    y = layout.height - layout.footer_h / 2
    st.text(d, (layout.centre_x, y), words("final"), st.font(15, True), st.CHALK, "mm")
