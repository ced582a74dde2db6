"""Ardoise's drawing vocabulary: one palette, one font, one card, one way to fit text, one set of
shapes and marks. Every picture is built from these, so the slate, the shop, the board and the
charts look like one product.

Colour is never the only carrier of meaning (students may be colour-blind): a tier also shows as
pips, a side as a label, a position and a fill (light or dark), a frozen offer as a hatch and a
word, a fall as a cross. The colours are from the Okabe–Ito palette, which stays distinct under the
common forms of colour blindness.

Thread safety: nothing here is shared and mutable across threads. Font objects are cached per
thread (FreeType faces are not meant to be shared between threads); everything else is constants
or pure functions.
"""

from __future__ import annotations

import io
import math
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

Colour = tuple[int, int, int]
Box = tuple[int, int, int, int]

# ---------------------------------------------------------------------------------------------
# Palette

SLATE: Colour = (38, 50, 56)  # the background: a school slate (ardoise)
SLATE_LIGHT: Colour = (55, 71, 79)  # panels and empty cells on the slate
SLATE_LINE: Colour = (96, 115, 124)  # lines and dashed outlines on the slate
CHALK: Colour = (240, 240, 232)  # text on the slate
CHALK_DIM: Colour = (168, 180, 184)  # secondary text on the slate
PAPER: Colour = (250, 247, 240)  # cards
PAPER_DIM: Colour = (226, 222, 212)  # stat boxes on cards
INK: Colour = (28, 32, 36)  # text on cards
INK_SOFT: Colour = (92, 96, 100)  # secondary text on cards

# Okabe–Ito colours
BLUE: Colour = (0, 114, 178)
ORANGE: Colour = (230, 159, 0)
SKY: Colour = (86, 180, 233)
GREEN: Colour = (0, 158, 115)
YELLOW: Colour = (240, 228, 66)
VERMILLION: Colour = (213, 94, 0)
PURPLE: Colour = (204, 121, 167)

TIER: dict[int, Colour] = {1: SKY, 2: GREEN, 3: PURPLE, 4: ORANGE}
SIDE: dict[str, Colour] = {"left": BLUE, "right": ORANGE}
DAMAGE: Colour = VERMILLION
GOOD: Colour = GREEN
HIGHLIGHT: Colour = YELLOW
ICE: Colour = (178, 218, 240)
ICE_LINE: Colour = (70, 140, 190)
SHIELD: Colour = (70, 110, 160)

# The Rithmomachia board and its pieces
LIGHT_SQ: Colour = (224, 208, 174)
DARK_SQ: Colour = (186, 156, 114)
HALF_LINE: Colour = (60, 40, 24)
WHITE_FILL: Colour = (252, 250, 244)
BLACK_FILL: Colour = (30, 30, 36)
BLACK_INK: Colour = (246, 246, 240)
BLACK_RING: Colour = (150, 150, 160)

# Medals of the leaderboard (each also carries its rank's number)
MEDALS: dict[int, Colour] = {1: (230, 190, 40), 2: (190, 196, 204), 3: (196, 128, 72)}

BASE_COLOURS: tuple[Colour, ...] = (
    SLATE, SLATE_LIGHT, SLATE_LINE, CHALK, CHALK_DIM, PAPER, PAPER_DIM, INK, INK_SOFT, BLUE,
    ORANGE, SKY, GREEN, YELLOW, VERMILLION, PURPLE, ICE, ICE_LINE, SHIELD, LIGHT_SQ, DARK_SQ,
    HALF_LINE, WHITE_FILL, BLACK_FILL, BLACK_INK, BLACK_RING, *MEDALS.values(),
)

# ---------------------------------------------------------------------------------------------
# Fonts: DejaVu Sans, shipped in images/fonts (no system font needed).

FONT_DIR = Path(__file__).resolve().parent / "fonts"
_FONT_FILES = {False: FONT_DIR / "DejaVuSans.ttf", True: FONT_DIR / "DejaVuSans-Bold.ttf"}
_local = threading.local()


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at ``size`` pixels. Loaded once per thread and size. The basic layout engine
    is used everywhere, so the same text gives the same pixels with or without libraqm."""
    cache: dict[tuple[int, bool], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    key = (size, bold)
    f = cache.get(key)
    if f is None:
        f = ImageFont.truetype(str(_FONT_FILES[bold]), size,
                               layout_engine=ImageFont.Layout.BASIC)
        cache[key] = f
    return f


def text_width(text: str, f: ImageFont.FreeTypeFont) -> float:
    return f.getlength(text)


def _thread_cache(name: str, limit: int = 4096) -> dict[Any, Any]:
    """A dict of this thread's own (no lock needed, nothing shared), emptied when it grows past
    ``limit`` entries."""
    cache: dict[Any, Any] | None = getattr(_local, name, None)
    if cache is None or len(cache) >= limit:
        cache = {}
        setattr(_local, name, cache)
    return cache


def _fit(text: str, max_width: float, size: int, min_size: int, bold: bool) -> tuple[str, int]:
    """The text (cut if need be) and the size that fit; remembered, since the same names and
    numbers are fitted again and again."""
    cache = _thread_cache("fits")
    key = (text, max_width, size, min_size, bold)
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = _fit_now(text, max_width, size, min_size, bold)
    return hit


def _fit_now(text: str, max_width: float, size: int, min_size: int, bold: bool
             ) -> tuple[str, int]:
    s = size
    while s > min_size:
        f = font(s, bold)
        width = f.getlength(text)
        if width <= max_width:
            return text, s
        # Width is close to proportional to size: jump near the answer, then step.
        s = min(s - 1, max(min_size, int(s * max_width / max(1.0, width))))
    f = font(min_size, bold)
    if f.getlength(text) <= max_width:
        return text, min_size
    cut = text
    while cut and f.getlength(cut + "…") > max_width:
        cut = cut[:-1]
    return ((cut.rstrip() + "…") if cut else "…"), min_size


def fit_font(text: str, max_width: float, size: int, min_size: int = 9,
             bold: bool = False) -> ImageFont.FreeTypeFont:
    """The largest font, from ``size`` down to ``min_size``, in which ``text`` fits
    ``max_width``. Long French names ("Puissance", "Diviseur") shrink instead of overflowing."""
    return font(_fit(text, float(max_width), size, min_size, bold)[1], bold)


def fit_text(text: str, max_width: float, size: int, min_size: int = 9,
             bold: bool = False) -> tuple[str, ImageFont.FreeTypeFont]:
    """``text`` and the font to draw it in so that it fits ``max_width``: shrunk first, then cut
    with an ellipsis when even ``min_size`` is too wide."""
    s, size_used = _fit(text, float(max_width), size, min_size, bold)
    return s, font(size_used, bold)


_OPERATORS = frozenset("+−-×÷/=<>≤≥")
_NBSP = "\u00a0"


def _math_words(text: str) -> list[str]:
    """Words for wrapping, with a lone operator glued to its neighbours by non-breaking
    spaces, so that "(N − 1)" or "⌊hit / 2⌋" never breaks across lines."""
    words: list[str] = []
    glue_next = False
    for word in text.split():
        if word in _OPERATORS and words:
            words[-1] += _NBSP + word
            glue_next = True
        elif glue_next:
            words[-1] += _NBSP + word
            glue_next = False
        else:
            words.append(word)
    return words


def wrap(text: str, f: ImageFont.FreeTypeFont, max_width: float) -> list[str]:
    """Greedy word wrap that keeps short formulas whole; a word wider than the line is left
    whole (the caller shrinks)."""
    lines: list[str] = []
    line = ""
    for word in _math_words(text):
        trial = f"{line} {word}" if line else word
        if line and f.getlength(trial) > max_width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def fit_paragraph(text: str, width: float, height: float, size: int, min_size: int = 9,
                  bold: bool = False, spacing: float = 1.2
                  ) -> tuple[list[str], ImageFont.FreeTypeFont, int]:
    """Wrapped lines, font and line height so that ``text`` fits a ``width`` × ``height`` box;
    lines that still do not fit at ``min_size`` are dropped and the last one ends in "…"."""
    s = size
    while True:
        f = font(s, bold)
        lh = math.ceil(s * spacing)
        lines = wrap(text, f, width)
        fits_w = all(f.getlength(ln) <= width for ln in lines)
        if fits_w and len(lines) * lh <= height:
            return lines, f, lh
        if s <= min_size:
            keep = max(1, int(height // lh))
            if len(lines) > keep:
                lines = lines[:keep]
                last = lines[-1]
                while last and f.getlength(last + "…") > width:
                    last = last[:-1]
                lines[-1] = last.rstrip() + "…"
            return lines, f, lh
        s -= 1


_MAX_MASKS = 4096


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], s: str,
         f: ImageFont.FreeTypeFont, fill: Colour, anchor: str = "la",
         stroke: int = 0, stroke_fill: Colour | None = None) -> None:
    """Draw ``s`` at ``xy`` (rounded to whole pixels) with a text ``anchor`` ("la", "mm"…).

    The same few words and numbers come back on every card and square, so each rendered text
    is kept (per thread, like the fonts) and stamped again, which is several times quicker than
    letting FreeType render it anew."""
    x, y = round(xy[0]), round(xy[1])
    core = getattr(draw, "draw", None)
    if not s or core is None or not hasattr(core, "draw_bitmap"):  # nothing, or an odd Pillow
        draw.text((x, y), s, font=f, fill=fill, anchor=anchor, stroke_width=stroke,
                  stroke_fill=stroke_fill)
        return
    cache = _thread_cache("masks", _MAX_MASKS)
    ink = core.draw_ink(fill)
    if stroke:
        # Pillow draws stroked text as the glyphs widened by the stroke, in the stroke's colour,
        # then the plain glyphs on top in ``fill``: the same two stamps, each rendered once.
        key: tuple[object, ...] = (s, str(f.path), f.size, anchor, stroke)
        hit = cache.get(key)
        if hit is None:
            try:
                hit = cache[key] = f.getmask2(s, "L", stroke_width=stroke, anchor=anchor,
                                              stroke_filled=True)
            except TypeError:  # a Pillow before 11.1: let it draw
                draw.text((x, y), s, font=f, fill=fill, anchor=anchor, stroke_width=stroke,
                          stroke_fill=stroke_fill)
                return
        mask, (ox, oy) = hit
        stroke_ink = ink if stroke_fill is None else core.draw_ink(stroke_fill)
        core.draw_bitmap((x + ox, y + oy), mask, stroke_ink)
        if stroke_ink == ink:
            return
    key = (s, str(f.path), f.size, anchor)
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = f.getmask2(s, "L", anchor=anchor)
    mask, (ox, oy) = hit
    core.draw_bitmap((x + ox, y + oy), mask, ink)


def text_in_box(draw: ImageDraw.ImageDraw, box: Box, s: str, size: int, fill: Colour,
                bold: bool = False, min_size: int = 9, align: str = "m",
                stroke: int = 0, stroke_fill: Colour | None = None) -> None:
    """``s`` fitted to the width of ``box`` and centred on its height; ``align`` is "l", "m"
    or "r" for left, centre or right."""
    x0, y0, x1, y1 = box
    s, f = fit_text(s, x1 - x0, size, min_size, bold)
    x = {"l": x0, "m": (x0 + x1) / 2, "r": x1}[align]
    text(draw, (x, (y0 + y1) / 2), s, f, fill, align + "m", stroke, stroke_fill)


# ---------------------------------------------------------------------------------------------
# Primitives


def blend(a: Colour, b: Colour, t: float) -> Colour:
    """``a`` moved a fraction ``t`` of the way towards ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


def canvas(width: int, height: int, bg: Colour = SLATE) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    im = Image.new("RGB", (width, height), bg)
    return im, ImageDraw.Draw(im)


def rounded(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], radius: int,
            fill: Colour | None = None, outline: Colour | None = None, width: int = 1) -> None:
    if fill is None and outline is None:
        return  # Pillow would draw a default white outline
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def dashed_line(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float],
                fill: Colour, width: int = 2, dash: int = 8, gap: int = 6) -> None:
    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    pos = 0.0
    while pos < length:
        end = min(pos + dash, length)
        draw.line((x0 + ux * pos, y0 + uy * pos, x0 + ux * end, y0 + uy * end),
                  fill=fill, width=width)
        pos = end + gap


def dashed_rect(draw: ImageDraw.ImageDraw, box: Box, fill: Colour, width: int = 2,
                dash: int = 8, gap: int = 6) -> None:
    x0, y0, x1, y1 = box
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)),
                 ((x0, y1), (x0, y0))):
        dashed_line(draw, a, b, fill, width, dash, gap)


def hatch(draw: ImageDraw.ImageDraw, box: Box, fill: Colour, spacing: int = 10,
          width: int = 2) -> None:
    """Diagonal lines (45°, rising to the right) clipped to ``box``: a pattern, so that "frozen"
    or "taken" reads without colour."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    # Each line is x - x0 + (y - y0) = k for k along the diagonal of the box.
    for k in range(spacing // 2, (x1 - x0) + h, spacing):
        # Start on the top edge or the left edge, end on the right edge or the bottom edge.
        sx, sy = (x0 + k, y0) if k <= x1 - x0 else (x1, y0 + k - (x1 - x0))
        ex, ey = (x0, y0 + k) if k <= h else (x0 + k - h, y1)
        draw.line((sx, sy, ex, ey), fill=fill, width=width)


def cross(draw: ImageDraw.ImageDraw, box: Box, fill: Colour, width: int = 6) -> None:
    x0, y0, x1, y1 = box
    draw.line((x0, y0, x1, y1), fill=fill, width=width)
    draw.line((x0, y1, x1, y0), fill=fill, width=width)


def pips(draw: ImageDraw.ImageDraw, x: float, cy: float, n: int, total: int, r: int,
         fill: Colour, empty: Colour) -> float:
    """``n`` filled pips out of ``total`` (tier 2 → ●●○○), left to right from ``x``; the
    tier's number reads without its colour. Returns the x after the last pip."""
    for i in range(total):
        cx = x + r + i * (2 * r + 3)
        box = (cx - r, cy - r, cx + r, cy + r)
        if i < n:
            draw.ellipse(box, fill=fill)
        else:
            draw.ellipse(box, outline=empty, width=max(1, r // 3))
    return x + total * (2 * r + 3) - 3


def pill(draw: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int,
         fill: Colour, ink: Colour, anchor: str = "mm", bold: bool = True, pad: int | None = None,
         outline: Colour | None = None) -> Box:
    """A rounded label (a level, a cost, a damage figure). ``anchor`` places the pill like a
    text anchor ("mm" centre, "rt" top right…). Returns the pill's box."""
    f = font(size, bold)
    pad = pad if pad is not None else max(3, size // 3)
    w = math.ceil(f.getlength(s)) + 2 * pad
    h = size + pad + 2
    x, y = xy
    x0 = {"l": x, "m": x - w / 2, "r": x - w}[anchor[0]]
    y0 = {"t": y, "m": y - h / 2, "b": y - h}[anchor[1]]
    box = (round(x0), round(y0), round(x0 + w), round(y0 + h))
    draw.rounded_rectangle(box, radius=h // 2, fill=fill, outline=outline,
                           width=2 if outline else 0)
    text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1), s, f, ink, "mm")
    return box


def arrow(draw: ImageDraw.ImageDraw, points: Sequence[tuple[float, float]], fill: Colour,
          width: int = 4, head: int = 14, outline: Colour | None = None) -> None:
    """A polyline ending in a filled arrowhead at its last point; with ``outline``, a thin halo
    first so that the arrow reads over cards and slate alike."""
    pts = list(points)
    (ax, ay), (bx, by) = pts[-2], pts[-1]
    ang = math.atan2(by - ay, bx - ax)
    # Stop the shaft inside the head so that its square end does not poke out of the tip.
    base = (bx - math.cos(ang) * head * 0.8, by - math.sin(ang) * head * 0.8)
    shaft = [*pts[:-1], base]
    tip = [(bx, by),
           (bx - head * math.cos(ang - 0.45), by - head * math.sin(ang - 0.45)),
           (bx - head * math.cos(ang + 0.45), by - head * math.sin(ang + 0.45))]
    if outline is not None:
        draw.line(shaft, fill=outline, width=width + 4, joint="curve")
        draw.polygon(tip, fill=outline, outline=outline, width=3)
    draw.line(shaft, fill=fill, width=width, joint="curve")
    draw.polygon(tip, fill=fill)


# ---------------------------------------------------------------------------------------------
# Shapes (the board's pieces, the charts' markers): supersampled for smooth edges.

SUPERSAMPLE = 3


def shape_sprite(shape: str, size: int, fill: Colour, outline: Colour, width: int
                 ) -> Image.Image:
    """An RGBA image ``size`` × ``size`` of a round, triangle or square (or, for the charts, a
    diamond), drawn at 3× and reduced, so that its edges are smooth."""
    s = size * SUPERSAMPLE
    w = width * SUPERSAMPLE
    im = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    m = w // 2 + 1
    if shape == "round":
        d.ellipse((m, m, s - 1 - m, s - 1 - m), fill=(*fill, 255), outline=(*outline, 255),
                  width=w)
    elif shape == "square":
        d.rectangle((m, m, s - 1 - m, s - 1 - m), fill=(*fill, 255), outline=(*outline, 255),
                    width=w)
    elif shape == "triangle":
        poly = triangle_points((0, 0, s - 1, s - 1), inset=m)
        d.polygon(poly, fill=(*outline, 255))
        inner = triangle_points((0, 0, s - 1, s - 1), inset=m + w)
        d.polygon(inner, fill=(*fill, 255))
    elif shape == "diamond":
        c = (s - 1) / 2
        d.polygon([(c, m), (s - 1 - m, c), (c, s - 1 - m), (m, c)], fill=(*fill, 255),
                  outline=(*outline, 255), width=w)
    else:
        raise ValueError(f"unknown shape: {shape!r}")
    return im.reduce(SUPERSAMPLE)


def triangle_points(box: tuple[float, float, float, float], inset: float = 0
                    ) -> list[tuple[float, float]]:
    """An upward equilateral-looking triangle filling ``box``, shrunk by ``inset`` on every
    side (measured perpendicular to each edge, so outlines keep an even thickness)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    # Sides slope by h / (w / 2); an inset d moves the apex down d / sin(half-angle) and the
    # base corners in by d / tan(half base angle).
    half = math.atan2(w / 2, h)
    apex_drop = inset / math.sin(half) if inset else 0
    base_angle = math.atan2(h, w / 2)
    side_in = inset / math.tan(base_angle / 2) if inset else 0
    return [((x0 + x1) / 2, y0 + apex_drop), (x1 - side_in, y1 - inset),
            (x0 + side_in, y1 - inset)]


# ---------------------------------------------------------------------------------------------
# Encoding


def _build_palette() -> bytes:
    """The 256 colours every picture is saved in: the palette's own colours exactly, then the
    in-between shades that smooth edges and text make, and the dimmed shades of the replay's
    fallen cards, reduced to what is left of 256 by median cut. Built once, from constants."""
    base = list(dict.fromkeys(BASE_COLOURS))
    extras = [blend(c, HIGHLIGHT, 0.7) for c in (LIGHT_SQ, DARK_SQ)]
    extras += [blend(c, SLATE, 0.55) for c in base]
    for i, a in enumerate(base):
        for b in base[i + 1:]:
            extras += [blend(a, b, k / 4) for k in (1, 2, 3)]
    swatch = Image.new("RGB", (len(extras), 1))
    swatch.putdata(extras)
    room = 256 - len(base)
    reduced = swatch.quantize(room, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    shades = (reduced.getpalette() or [])[: 3 * room]
    flat = [v for c in base for v in c] + shades
    flat += [0] * (768 - len(flat))
    return bytes(flat)


PALETTE: bytes = _build_palette()


def palette_image() -> Image.Image:
    """A fresh "P" image holding PALETTE, to quantise against (never shared between threads)."""
    p = Image.new("P", (1, 1))
    p.putpalette(PALETTE)
    return p


def paletted(im: Image.Image) -> Image.Image:
    """``im`` mapped onto PALETTE, nearest colour, no dithering: flat colours stay flat. Saving
    256 colours instead of 16 million makes the PNG three times smaller and quicker to write,
    and lets every frame of a replay share one palette."""
    return im.quantize(palette=palette_image(), dither=Image.Dither.NONE)


def to_png(im: Image.Image) -> bytes:
    """PNG bytes (256 colours). No metadata and a fixed compression level, so the same image
    always gives the same bytes."""
    buf = io.BytesIO()
    paletted(im).save(buf, format="PNG", compress_level=PNG_LEVEL)
    return buf.getvalue()


PNG_LEVEL = 3
