"""The Rithmomachia board: 8 files × 16 ranks, drawn lying down so that it fills the width of a
chat window (a board standing up would be shown half as large).

The coordinates are the notation's (``docs/rules/rithmomachia.md``, the engine's contract): 8
files a–h, 16 ranks 1–16, White's first rank is 1. Lying down, the 16 ranks are the columns and
the 8 files the rows, so the ranks' numbers are written along the top and bottom edges and the
files' letters along the left and right edges: the piece on c4 stands in the row marked "c" and
the column marked "4". A line under the board says so ("c4 is where letter c (files a–h, left
and right) meets number 4 (ranks 1–16, top and bottom)"), for a child who knows chess and looks
for the letters along the bottom. (Standing up, files across as in chess, the board would be
shown half as large in Discord, its numbers hard to read on a phone.)
:class:`Geometry` gives each square's pixel rectangle and each label's position, the drawing uses
nothing else, and a test checks from them that the label beside every square names it.

Seen from White (the default), White's first rank is on the left, rank 16 on the right, file a at
the top: the usual diagram turned a quarter to the right, so a player sits on their own edge.
``flipped=True`` turns it half round, for Black: rank 16 on the left, file a at the bottom. A
thicker line parts White's half (ranks 1–8) from Black's (9–16).

Rounds are circles, triangles triangles, squares squares; a pyramid is its components stacked,
largest at the bottom, with its total written across, and listed in full under the board. White
(Even) pieces are light with dark numbers, Black (Odd) pieces dark with light numbers: the two sides
differ by lightness, which every eye tells apart, and the header names them.

The last turn, when given ({"from": "c3", "to": "c5", "captured": ["d7", ...]}), shows as yellow
on the squares it left and reached, an arrow between them, a cross on each square where a piece was
taken, and a line of text under the board. The pieces each side has taken are drawn beside the
board, in the colour they had, with their count and total value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from images import style as st
from images.words import Words

FILES = "abcdefgh"
RANKS = 16
SQ = 62
_M = 16
_COORD = 24
_HEADER_H = 50
#: The line under the board that says how to read a square's name.
KEY_H = 20

LIGHT_SQ = st.LIGHT_SQ
DARK_SQ = st.DARK_SQ
HALF_LINE = st.HALF_LINE
WHITE_FILL = st.WHITE_FILL
WHITE_INK = st.INK
BLACK_FILL = st.BLACK_FILL
BLACK_INK = st.BLACK_INK
BLACK_RING = st.BLACK_RING
SHAPE_GLYPH = {"round": "●", "triangle": "▲", "square": "■", "pyramid": "◭"}


class BoardError(ValueError):
    """A position the board cannot draw (a bad square, an unknown shape)."""


def parse_square(name: str) -> tuple[int, int]:
    """"c5" → (2, 5): file index 0–7 and rank 1–16."""
    s = str(name).strip().lower()
    if len(s) < 2 or s[0] not in FILES or not s[1:].isdigit() or not 1 <= int(s[1:]) <= RANKS:
        raise BoardError(f"bad square: {name!r}")
    return FILES.index(s[0]), int(s[1:])


def piece_value(piece: Mapping[str, Any]) -> int:
    """A piece's value: its number, or a pyramid's total."""
    if piece.get("shape") == "pyramid" or "parts" in piece:
        return sum(int(p["value"]) for p in piece.get("parts") or [])
    return int(piece["value"])


def render_board(position: Mapping[str, Any], words: Words,
                 last_turn: Mapping[str, Any] | None = None, flipped: bool = False) -> bytes:
    """PNG of a Rithmomachia position (the engine's position JSON), optionally with the last
    turn highlighted and seen from Black's side."""
    return st.to_png(board_image(position, words, last_turn, flipped))


class Geometry:
    """Where everything of the board is, in pixels: the squares, and the coordinates written
    around them (the drawing reads both from here, and so do the tests)."""

    def __init__(self, flipped: bool = False) -> None:
        self.flipped = flipped
        self.x0 = _M + _COORD
        self.y0 = _HEADER_H + _COORD
        self.width = 2 * (_M + _COORD) + RANKS * SQ
        self.board_bottom = self.y0 + 8 * SQ
        #: The width of the margins where the coordinates are written.
        self.coord = _COORD
        #: The bottom of the key under the board (what a picture of the board alone keeps).
        self.key_bottom = self.board_bottom + _COORD + KEY_H

    def cell(self, file: int, rank: int) -> st.Box:
        """The square of ``file`` (0–7, a–h) and ``rank`` (1–16): (x0, y0, x1, y1)."""
        col = RANKS - rank if self.flipped else rank - 1
        row = 7 - file if self.flipped else file
        x = self.x0 + col * SQ
        y = self.y0 + row * SQ
        return (x, y, x + SQ, y + SQ)

    def square_box(self, square: str) -> st.Box:
        """The pixel rectangle of the square the notation names (``"c4"``)."""
        return self.cell(*parse_square(square))

    def centre(self, file: int, rank: int) -> tuple[float, float]:
        x0, y0, x1, y1 = self.cell(file, rank)
        return (x0 + x1) / 2, (y0 + y1) / 2

    def rank_labels(self) -> list[tuple[str, tuple[float, float]]]:
        """Each rank's number and where its centre is written: above and below its column."""
        out = []
        for rank in range(1, RANKS + 1):
            x0, _, x1, _ = self.cell(0, rank)
            for y in (self.y0 - _COORD / 2 - 2, self.board_bottom + _COORD / 2 + 2):
                out.append((str(rank), ((x0 + x1) / 2, y)))
        return out

    def file_labels(self) -> list[tuple[str, tuple[float, float]]]:
        """Each file's letter and where its centre is written: left and right of its row."""
        out = []
        for file in range(8):
            _, y0, _, y1 = self.cell(file, 1)
            for x in (self.x0 - _COORD / 2 - 2, self.x0 + RANKS * SQ + _COORD / 2 + 2):
                out.append((FILES[file], (x, (y0 + y1) / 2)))
        return out


def board_image(position: Mapping[str, Any], words: Words,
                last_turn: Mapping[str, Any] | None = None, flipped: bool = False) -> Image.Image:
    g = Geometry(flipped)
    pieces = list(position.get("pieces") or [])
    placed: list[tuple[int, int, Mapping[str, Any]]] = []
    for p in pieces:
        file, rank = parse_square(p.get("square", ""))
        if p.get("side") not in ("white", "black"):
            raise BoardError(f"bad side: {p.get('side')!r}")
        if p.get("shape") not in SHAPE_GLYPH:
            raise BoardError(f"bad shape: {p.get('shape')!r}")
        placed.append((file, rank, p))
    taken = position.get("taken") or {}
    pyramids = [(f, r, p) for f, r, p in placed if p["shape"] == "pyramid"]

    strip_h = 54
    height = (g.board_bottom + _COORD + KEY_H + 8 + 2 * strip_h
              + (26 if last_turn else 0) + _EXPLAINED_H * len(_explained(last_turn))
              + 26 * len(pyramids) + _M)
    im, d = st.canvas(g.width, height)
    sprites = _Sprites()

    _header(d, g, position, words, sprites, im)
    _squares(d, g, last_turn)
    _coordinates(d, g)
    if last_turn:
        _last_turn_marks(d, g, last_turn)
    for file, rank, p in placed:
        x0, y0, x1, y1 = g.cell(file, rank)
        sprites.draw(im, d, p, (x0 + x1) / 2, (y0 + y1) / 2, SQ)

    _key(d, g, words)
    y = g.board_bottom + _COORD + KEY_H + 8
    for side in ("white", "black"):
        _taken_strip(im, d, sprites, side, list(taken.get(side) or []), y, strip_h, g.width,
                     words)
        y += strip_h
    if last_turn:
        _last_turn_text(d, last_turn, y, words)
        y += 26
        for line in _explained(last_turn):
            # Each capture's arithmetic, shrunk to the picture's width (the message has it whole).
            text, f = st.fit_text(line, g.width - 2 * _M - 16, 15, 10)
            st.text(d, (_M + 16, y + _EXPLAINED_H / 2), text, f, st.CHALK, "lm")
            y += _EXPLAINED_H
    for file, rank, p in pyramids:
        _pyramid_line(d, p, f"{FILES[file]}{rank}", y, words)
        y += 26
    return im


# ---------------------------------------------------------------------------------------------


def _squares(d: ImageDraw.ImageDraw, g: Geometry, last_turn: Mapping[str, Any] | None
             ) -> None:
    marked: set[tuple[int, int]] = set()
    if last_turn:
        for key in ("from", "to"):
            if last_turn.get(key):
                marked.add(parse_square(last_turn[key]))
    for file in range(8):
        for rank in range(1, RANKS + 1):
            base = LIGHT_SQ if (file + rank) % 2 else DARK_SQ
            if (file, rank) in marked:
                base = st.blend(base, st.HIGHLIGHT, 0.7)
            d.rectangle(g.cell(file, rank), fill=base)
    # The line between the two halves, and a frame.
    x_mid = g.x0 + 8 * SQ
    d.line((x_mid, g.y0 - 3, x_mid, g.board_bottom + 3), fill=HALF_LINE, width=4)
    d.rectangle((g.x0 - 3, g.y0 - 3, g.x0 + RANKS * SQ + 2, g.board_bottom + 2),
                outline=HALF_LINE, width=3)


def _coordinates(d: ImageDraw.ImageDraw, g: Geometry) -> None:
    f = st.font(15, True)
    for label, centre in g.rank_labels() + g.file_labels():
        st.text(d, centre, label, f, st.CHALK, "mm")


def _key(d: ImageDraw.ImageDraw, g: Geometry, words: Words) -> None:
    """The key to the coordinates under the board, for a child who knows chess and looks for
    the letters along the bottom: "c4 = the row of letter c, the column of number 4"."""
    key, f = st.fit_text(words("board_key"), g.width - 2 * _M, 14, 10)
    st.text(d, (g.x0, g.board_bottom + _COORD + KEY_H / 2 + 2), key, f, st.CHALK_DIM, "lm")


def _last_turn_marks(d: ImageDraw.ImageDraw, g: Geometry, turn: Mapping[str, Any]) -> None:
    """Frames on the squares left and reached, an arrow between them, a cross on each square
    where a piece was taken; drawn under the pieces, which stay readable on top."""
    src = parse_square(turn["from"]) if turn.get("from") else None
    dst = parse_square(turn["to"]) if turn.get("to") else None
    for sq, width in ((src, 3), (dst, 5)):
        if sq is not None:
            x0, y0, x1, y1 = g.cell(*sq)
            d.rectangle((x0 + 1, y0 + 1, x1 - 2, y1 - 2), outline=st.INK, width=width)
    for name in turn.get("captured") or []:
        x0, y0, x1, y1 = g.cell(*parse_square(name))
        st.cross(d, (x0 + 6, y0 + 6, x1 - 7, y1 - 7), st.DAMAGE, width=6)
    if src is not None and dst is not None and src != dst:
        (ax, ay), (bx, by) = g.centre(*src), g.centre(*dst)
        length = max(1.0, ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5)
        # Stop short of the destination's piece so that the head shows beside it.
        stop = SQ * 0.42
        end = (bx - (bx - ax) * stop / length, by - (by - ay) * stop / length)
        st.arrow(d, [(ax, ay), end], st.HIGHLIGHT, width=7, head=20, outline=st.INK)


def _header(d: ImageDraw.ImageDraw, g: Geometry, position: Mapping[str, Any], words: Words,
            sprites: _Sprites, im: Image.Image) -> None:
    cy = _HEADER_H / 2 + 2
    side = position.get("to_move", "white")
    sprites.draw(im, d, {"side": side, "shape": "round", "value": ""}, _M + 14, cy, 30)
    who = words("white_side" if side == "white" else "black_side")
    st.text(d, (_M + 36, cy), words("to_move", side=who), st.font(22, True), st.CHALK, "lm")
    # The key to the two sides, right-aligned on a plate of the board's colour (a black piece
    # would melt into the slate); and the viewpoint when it is Black's.
    f = st.font(15, True)
    labels = [words("white_side"), words("black_side")]
    plate_w = sum(f.getlength(lb) for lb in labels) + 2 * 30 + 30
    x = g.width - _M - plate_w
    st.rounded(d, (round(x), round(cy - 16), g.width - _M, round(cy + 16)), 8, fill=LIGHT_SQ)
    x += 10
    for s, label in zip(("white", "black"), labels, strict=True):
        sprites.draw(im, d, {"side": s, "shape": "round", "value": ""}, x + 11, cy, 24)
        st.text(d, (x + 26, cy), label, f, st.INK, "lm")
        x += 30 + f.getlength(label) + 10
    if g.flipped:
        label = f"({words('from_black')})"
        fx = g.width - _M - plate_w - 12
        st.text(d, (fx, cy), label, st.font(15), st.CHALK_DIM, "rm")


def _taken_strip(im: Image.Image, d: ImageDraw.ImageDraw, sprites: _Sprites, side: str,
                 taken: Sequence[Mapping[str, Any]], y: int, h: int, width: int,
                 words: Words) -> None:
    """The pieces ``side`` has taken, in their original (the opponent's) colour."""
    victim = "black" if side == "white" else "white"
    total = sum(piece_value(p) for p in taken)
    label = words("took", side=words(f"{side}_side"))
    f = st.font(15, True)
    st.text(d, (_M, y + 12), label, f, st.CHALK, "lm")
    info = (f"{words.count('pieces', len(taken))} · {words('value')} {total}" if taken
            else words("nothing_taken"))
    st.text(d, (_M, y + 32), info, st.font(13), st.CHALK_DIM, "lm")
    x0 = _M + 250
    avail = width - _M - x0 - 12
    if not taken:
        return
    size = max(20, min(44, int(avail / len(taken)) - 2))
    st.rounded(d, (x0, y + 2, round(x0 + 12 + len(taken) * (size + 2)), y + h - 6), 8,
               fill=LIGHT_SQ)
    for i, p in enumerate(taken):
        cx = x0 + 6 + i * (size + 2) + size / 2
        sprites.draw(im, d, dict(p, side=victim), cx, y + h / 2 - 2, size)


_EXPLAINED_H = 22


def _explained(last_turn: Mapping[str, Any] | None) -> list[str]:
    """The sentences the caller wrote for the last turn's captures ("12 taken by ambush: 8 + 4
    = 12"), at most 8 (a turn rarely takes more; the message lists them all)."""
    if not last_turn:
        return []
    return [str(s) for s in (last_turn.get("explained") or [])][:8]


def _last_turn_text(d: ImageDraw.ImageDraw, turn: Mapping[str, Any], y: int, words: Words
                    ) -> None:
    """"Last turn: b4 → c5 · taken on e7, d8", in words for those who read before they look."""
    parts = []
    if turn.get("from") and turn.get("to"):
        parts.append(f"{turn['from']} → {turn['to']}")
    elif turn.get("to"):
        parts.append(f"→ {turn['to']}")
    caps = list(turn.get("captured") or [])
    if caps:
        parts.append(words("taken_on", squares=", ".join(caps)))
    head = words("last_turn") + " "
    f = st.font(15, True)
    st.text(d, (_M, y + 12), head, f, st.HIGHLIGHT, "lm")
    st.text(d, (_M + f.getlength(head), y + 12), " · ".join(parts), st.font(15), st.CHALK,
            "lm")


def _pyramid_line(d: ImageDraw.ImageDraw, piece: Mapping[str, Any], square: str, y: int,
                  words: Words) -> None:
    """"Pyramid b2 · White (Even) · 91 = ■ 36 + ■ 25 + ▲ 16 + …": the components in full."""
    parts = sorted(piece.get("parts") or [], key=lambda p: -int(p["value"]))
    side = words(f"{piece['side']}_side")
    head = f"{words('pyramid')} {square} · {side} · {piece_value(piece)} = "
    f = st.font(15, True)
    st.text(d, (_M, y + 12), head, f, st.CHALK, "lm")
    body = " + ".join(f"{SHAPE_GLYPH[p['shape']]} {p['value']}" for p in parts)
    st.text(d, (_M + f.getlength(head), y + 12), body, st.font(15), st.CHALK, "lm")


# ---------------------------------------------------------------------------------------------
# Pieces


class _Sprites:
    """Smooth shapes, drawn once for each (shape, side, size) and pasted; kept per thread from
    one picture to the next, since the bot draws a board after every turn."""

    def __init__(self) -> None:
        self._cache: dict[tuple[Any, ...], Image.Image] = st._thread_cache("board_sprites", 1024)

    def _shape(self, shape: str, side: str, size: int) -> Image.Image:
        key = (shape, side, size)
        sp = self._cache.get(key)
        if sp is None:
            fill, line = (WHITE_FILL, WHITE_INK) if side == "white" else (BLACK_FILL, BLACK_RING)
            sp = st.shape_sprite(shape, size, fill, line, max(2, size // 22))
            self._cache[key] = sp
        return sp

    def _pyramid(self, parts: Sequence[Mapping[str, Any]], side: str, size: int
                 ) -> Image.Image:
        key = ("pyramid", tuple((p["shape"], int(p["value"])) for p in parts), side, size)
        sp = self._cache.get(key)
        if sp is None:
            sp = self._cache[key] = _pyramid_sprite(parts, side, size)
        return sp

    def draw(self, im: Image.Image, d: ImageDraw.ImageDraw, piece: Mapping[str, Any],
             cx: float, cy: float, cell: int) -> None:
        """``piece`` centred on (cx, cy) in a cell ``cell`` pixels wide, with its value."""
        side = piece["side"]
        shape = piece["shape"]
        ink = WHITE_INK if side == "white" else BLACK_INK
        if shape == "pyramid":
            size = round(cell * 0.94)
            parts = sorted(piece.get("parts") or [], key=lambda p: -int(p["value"]))
            sp = self._pyramid(parts, side, size)
            im.paste(sp, (round(cx - size / 2), round(cy - size / 2)), sp)
            # The total on a plate across the lower layers.
            value = str(piece_value(piece))
            f = st.fit_font(value, cell * 0.62, round(cell * 0.34), 7, bold=True)
            fill = WHITE_FILL if side == "white" else BLACK_FILL
            line = WHITE_INK if side == "white" else BLACK_RING
            pw, ph = f.getlength(value) + cell * 0.14, f.size + cell * 0.10
            py = cy + cell * 0.17
            d.rounded_rectangle((cx - pw / 2, py - ph / 2, cx + pw / 2, py + ph / 2),
                                radius=round(ph / 3), fill=fill, outline=line,
                                width=max(1, cell // 30))
            st.text(d, (cx, py + 1), value, f, ink, "mm")
            return
        size = round(cell * {"round": 0.88, "triangle": 0.98, "square": 0.82}[shape])
        sp = self._shape(shape, side, size)
        top = round(cy - size / 2) - (3 if shape == "triangle" else 0)
        im.paste(sp, (round(cx - size / 2), top), sp)
        value = str(piece.get("value", ""))
        if not value:
            return
        # The room for the number: most of a round or a square, the wide lower part of a
        # triangle (where a thin halo keeps it clear of the sloping sides).
        zone_w, ty = {"round": (0.70, cy), "square": (0.68, cy),
                      "triangle": (0.56, cy + cell * 0.16)}[shape]
        base = {"round": 0.42, "square": 0.40, "triangle": 0.36}[shape]
        f = st.fit_font(value, cell * zone_w, round(cell * base), 7, bold=True)
        halo = WHITE_FILL if side == "white" else BLACK_FILL
        st.text(d, (cx, ty), value, f, ink, "mm", stroke=1 if shape == "triangle" else 0,
                stroke_fill=halo)


def _pyramid_sprite(parts: Sequence[Mapping[str, Any]], side: str, size: int) -> Image.Image:
    """The components stacked, largest at the bottom: squares as slabs, triangles as
    trapezoids, rounds as discs."""
    ss = st.SUPERSAMPLE
    s = size * ss
    im = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    fill, line = (WHITE_FILL, WHITE_INK) if side == "white" else (BLACK_FILL, BLACK_RING)
    n = max(1, len(parts))
    lw = max(2, size // 26) * ss
    layer_h = (s - lw) / n
    for i, p in enumerate(parts):  # i = 0 is the bottom layer
        frac = i / max(1, n - 1) if n > 1 else 0
        w = s * (0.98 - 0.50 * frac)
        w_top = s * (0.98 - 0.50 * (i + 1) / n) if n > 1 else w * 0.8
        y1 = s - lw / 2 - i * layer_h
        y0 = y1 - layer_h
        cx = s / 2
        shape = p["shape"]
        if shape == "square":
            box = (cx - w / 2, y0, cx + w / 2, y1)
            d.rectangle(box, fill=(*fill, 255), outline=(*line, 255), width=lw)
        elif shape == "triangle":
            poly = [(cx - w / 2, y1), (cx + w / 2, y1), (cx + w_top / 2, y0),
                    (cx - w_top / 2, y0)]
            d.polygon(poly, fill=(*fill, 255), outline=(*line, 255), width=lw)
        else:
            ew = min(w, layer_h * 2.6)
            d.ellipse((cx - ew / 2, y0, cx + ew / 2, y1), fill=(*fill, 255),
                      outline=(*line, 255), width=lw)
    return im.reduce(ss)
