"""The mastery map of ``/progress``: the multiplication table 1–10 and the addition table to 20
as grids coloured by each fact's state, and the skills with their level.

Colour is never alone: each state also has its number of filled pips (attempted 1 of 4 …
mastered 4 of 4) and a fact never answered has an empty cell; the legend names each state with
its colour and pips. ``7 × 8`` and ``8 × 7`` are one fact (``bot.focus.mastery``): both cells show
it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from images import style as st
from images.words import Words

#: The four states, 1 to 4 (``bot.focus.mastery``'s levels), their colour and their name's key.
STATES = {1: (st.VERMILLION, "attempted"), 2: (st.ORANGE, "familiar"),
          3: (st.SKY, "proficient"), 4: (st.GREEN, "mastered")}
CELL = 34
SIDE = 10
PIP = 3


def _fact(op: str, a: int, b: int) -> str:
    """The model's key of a cell's fact (the smaller operand first)."""
    return f"{min(a, b)}{op}{max(a, b)}"


def _grid(im: Image.Image, d: ImageDraw.ImageDraw, x0: int, y0: int, op: str, sign: str,
          facts: Mapping[str, int]) -> None:
    """A 10 × 10 table with its headers: row a, column b is ``a op b``."""
    head = st.font(13, bold=True)
    number = st.font(12)
    corner = (x0, y0, x0 + CELL - 2, y0 + CELL - 2)
    st.rounded(d, corner, 5, fill=st.SLATE_LINE)
    st.text(d, (x0 + CELL / 2 - 1, y0 + CELL / 2 - 1), sign, st.font(18, bold=True), st.CHALK,
            "mm")
    for i in range(1, SIDE + 1):
        st.text(d, (x0 + i * CELL + CELL / 2 - 1, y0 + CELL / 2), str(i), head, st.CHALK, "mm")
        st.text(d, (x0 + CELL / 2 - 1, y0 + i * CELL + CELL / 2), str(i), head, st.CHALK, "mm")
    for a in range(1, SIDE + 1):
        for b in range(1, SIDE + 1):
            x, y = x0 + b * CELL, y0 + a * CELL
            box = (x, y, x + CELL - 2, y + CELL - 2)
            state = facts.get(_fact(op, a, b))
            value = a * b if op == "*" else a + b
            if state is None:
                st.rounded(d, box, 4, fill=st.SLATE_LIGHT)
                st.text(d, (x + CELL / 2 - 1, y + CELL / 2 - 1), str(value), number,
                        st.CHALK_DIM, "mm")
                continue
            colour = STATES[state][0]
            st.rounded(d, box, 4, fill=colour)
            st.text(d, (x + CELL / 2 - 1, y + 12), str(value), number, st.INK, "mm")
            width = 4 * (2 * PIP + 3) - 3
            st.pips(d, x + (CELL - 2 - width) / 2, y + CELL - 9, state, 4, PIP, st.INK, st.INK)


def _label(d: ImageDraw.ImageDraw, x: float, y: float, s: str, f: Any, fill: st.Colour
           ) -> float:
    """Draw ``s`` from ``x`` (centred on ``y``); the x where it ends."""
    st.text(d, (x, y), s, f, fill, "lm")
    return x + st.text_width(s, f)


def _legend(d: ImageDraw.ImageDraw, x: float, y: float, words: Words) -> None:
    f = st.font(14)
    st.rounded(d, (round(x), round(y) - 10, round(x) + 20, round(y) + 10), 4,
               fill=st.SLATE_LIGHT)
    x += 28
    x = _label(d, x, y, words("mastery.not_seen"), f, st.CHALK_DIM) + 24
    for state, (colour, key) in STATES.items():
        st.rounded(d, (round(x), round(y) - 10, round(x) + 44, round(y) + 10), 4, fill=colour)
        st.pips(d, x + 4, y, state, 4, PIP, st.INK, st.INK)
        x = _label(d, x + 52, y, words(f"mastery.{key}"), f, st.CHALK) + 22


def mastery_image(data: Mapping[str, Any], words: Words) -> Image.Image:
    facts: Mapping[str, int] = data.get("facts", {})
    skills: list[Mapping[str, Any]] = list(data.get("skills", []))
    grid = (SIDE + 1) * CELL
    width = 20 + grid + 40 + grid + 20
    rows = (len(skills) + 1) // 2
    height = 64 + 30 + grid + 54 + 40 + max(1, rows) * 30 + 16
    im, d = st.canvas(width, height)
    title, tf = st.fit_text(data.get("title") or words("mastery.title"), width - 40, 24, 14,
                            bold=True)
    st.text(d, (20, 30), title, tf, st.CHALK, "lm")
    top = 64
    sub = st.font(16, bold=True)
    st.text(d, (20, top + 10), words("mastery.times_table"), sub, st.CHALK, "lm")
    st.text(d, (20 + grid + 40, top + 10), words("mastery.addition_table"), sub, st.CHALK, "lm")
    _grid(im, d, 20, top + 30, "*", "×", facts)
    _grid(im, d, 20 + grid + 40, top + 30, "+", "+", facts)
    y = top + 30 + grid + 26
    _legend(d, 20, y, words)
    y += 40
    st.text(d, (20, y), words("mastery.skills"), sub, st.CHALK, "lm")
    y += 30
    if not skills:
        st.text(d, (20, y), words("mastery.no_skill"), st.font(14), st.CHALK_DIM, "lm")
    column = (width - 40) // 2
    for i, skill in enumerate(skills):
        x = 20 + (i % 2) * column
        cy = y + (i // 2) * 30
        state = int(skill["mastery"])
        colour, key = STATES[state]
        st.rounded(d, (x, cy - 11, x + 44, cy + 11), 4, fill=colour)
        st.pips(d, x + 4, cy, state, 4, PIP, st.INK, st.INK)
        label = words("mastery.skill_line", topic=words.skill(str(skill["skill"])),
                      level=skill["level"], state=words(f"mastery.{key}"))
        text, lf = st.fit_text(label, column - 64, 14, 10)
        st.text(d, (x + 54, cy), text, lf, st.CHALK, "lm")
    return im


def render_mastery(data: Mapping[str, Any], words: Words) -> bytes:
    """PNG of a member's mastery map. ``data``: {"title": str or None, "facts": {"7*8": 3,
    "5+8": 1, …} (the model's fact keys and levels 1–4), "skills": [{"skill": "multiplication",
    "level": 4, "mastery": 3}, …] (each skill at the highest level practised)}."""
    return st.to_png(mastery_image(data, words))
