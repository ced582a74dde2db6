"""The pictures of ``/rithmo rules`` and of the rules documents: a Rithmomachia position drawn as
every board is (``images/board.py``), with marks that teach one thing.

- ``moves``: a green dot on each square a piece reaches by a regular move;
- ``leaps``: a blue ring on each square it reaches by a leap (an irregular move);
- ``capturers``: a thick green frame round each piece that takes;
- ``victims``: a thick red frame round the piece taken;
- ``line``: a dashed line through squares (the empty squares of an Assault, an arrangement);
- ``named``: a square's name written in its corner (``c4``), to show the coordinates.

The caller gives the squares (from the engine: the moves it lists, the capture it allows), so a
picture never shows a move or a capture the engine would refuse. ``half=True`` keeps White's half
only (ranks 1–8, for a small picture in a document), without the header.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import ImageDraw

from images import style as st
from images.board import SQ, Geometry, board_image
from images.words import Words

# The colour-blind-safe palette of every picture: green goes or takes, vermillion is taken.
MOVE_DOT = st.GREEN
LEAP_RING = st.BLUE
TAKER = st.GREEN
VICTIM = st.VERMILLION
LINE = st.YELLOW
MARKS = frozenset({"moves", "leaps", "capturers", "victims", "line", "named"})


def render_lesson(position: Mapping[str, Any], words: Words,
                  marks: Mapping[str, Sequence[str]] | None = None, half: bool = False) -> bytes:
    """PNG of ``position`` (the engine's position JSON) with ``marks`` ({kind: [squares]}, the
    kinds of :data:`MARKS`), cut under the board's key (no taken pieces, no pyramid lines)."""
    marks = dict(marks or {})
    unknown = set(marks) - MARKS
    if unknown:
        raise ValueError(f"unknown marks {sorted(unknown)}; marks are {sorted(MARKS)}")
    g = Geometry(False)
    im = board_image({**position, "taken": {}}, words)
    d = ImageDraw.Draw(im)
    for square in marks.get("line", ()):
        x0, y0, x1, y1 = g.square_box(square)
        d.rectangle((x0 + 4, y0 + 4, x1 - 5, y1 - 5), outline=LINE, width=3)
    for square in marks.get("moves", ()):
        cx, cy = _centre(g, square)
        r = SQ * 0.16
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=MOVE_DOT, outline=st.INK, width=2)
    for square in marks.get("leaps", ()):
        cx, cy = _centre(g, square)
        r = SQ * 0.22
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=LEAP_RING, width=5)
    for kind, colour in (("capturers", TAKER), ("victims", VICTIM)):
        for square in marks.get(kind, ()):
            x0, y0, x1, y1 = g.square_box(square)
            d.rectangle((x0 + 1, y0 + 1, x1 - 2, y1 - 2), outline=colour, width=6)
    f = st.font(12, True)
    for square in marks.get("named", ()):
        x0, y0, _, _ = g.square_box(square)
        d.rounded_rectangle((x0 + 2, y0 + 2, x0 + 30, y0 + 18), radius=4, fill=st.INK)
        st.text(d, (x0 + 16, y0 + 10), square, f, st.CHALK, "mm")
    if half:
        im = im.crop((0, g.y0 - g.coord, g.x0 + 8 * SQ + 6, g.board_bottom + g.coord))
    else:
        im = im.crop((0, 0, g.width, g.key_bottom + 4))
    return st.to_png(im)


def _centre(g: Geometry, square: str) -> tuple[float, float]:
    x0, y0, x1, y1 = g.square_box(square)
    return (x0 + x1) / 2, (y0 + y1) / 2
