"""The teacher's class report: one row per student, one column per topic, the class at the
bottom.

Each cell holds the accuracy (large), then the number of answers and the median time; its
colour AND its mark say its band (colour is never alone: ✓✓ 90 % and over, ✓ 70–89 %, ~ 50–69 %,
✗ under 50 %, • fewer than 3 answers, in grey), and the legend under the table says so. Under
the figures, the student's mastery of the skill (``bot.focus.mastery``) as pips: one of four
attempted … four of four mastered, named in the legend too. Made for
a phone: a narrow column per topic (so one topic is a narrow picture), names shrunk then cut
with "…", a page of at most 30 students (the caller pages), the page number in the corner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from images import style as st
from images.words import Words

#: A band's fill and mark, best first.
BANDS: dict[str, tuple[st.Colour, str]] = {
    "top": (st.GREEN, "✓✓"),
    "good": (st.SKY, "✓"),
    "fair": (st.YELLOW, "~"),
    "low": (st.VERMILLION, "✗"),
    "few": (st.SLATE_LINE, "•"),
}

NAME_W, CELL_W, ROW_H, HEAD_H, TOP_H, PAD = 200, 136, 58, 46, 78, 16
#: A column of one skill of a topic of several (its mastery only), and the lines of its head.
SKILL_W, SKILL_HEAD_LINES, SKILL_HEAD_LINE_H = 92, 3, 15
#: The mastery of a cell's skill (``bot.focus.mastery``'s levels 1–4) is its number of filled
#: pips out of four: a mark without colour, under the figures.
MASTERY_PIPS, PIP = 4, 3
MASTERY_KEYS = ("attempted", "familiar", "proficient", "mastered")
LEGEND_ROW_H = 30


def render_class_report(table: Mapping[str, Any], words: Words) -> bytes:
    """PNG of one page of the class report. ``table`` is {"title", "subtitle", "topics":
    [topic names as shown], "rows": [{"name", "cells": [cell or None, one per topic]}],
    "class": {"cells": [...]}, "page": 1, "pages": 2}; a cell is {"band": "top" | "good" |
    "fair" | "low" | "few", "accuracy": 0.92, "answers": 12, "median_s": 4.5 or None,
    "mastery": 1–4 (optional: the student's mastery of that skill, as pips)}, None where the
    student gave no answer in that topic (or {"band": None, "mastery": n}: none in the period,
    but a mastery). ``table["skills"]`` (optional, one bool per column): the columns that are
    one skill of the topic before them, narrow, holding only a mastery ({"band": None,
    "mastery": n}, or None) and headed by the skill's name over up to three lines."""
    return st.to_png(class_report_image(table, words))


def _legend(words: Words) -> list[tuple[st.Colour, str, str]]:
    return [(fill, mark, words(f"class_report.bands.{key}"))
            for key, (fill, mark) in BANDS.items()]


def _legend_lines(words: Words, width: int) -> list[list[tuple[st.Colour, str, str, float]]]:
    """The legend's items flowed into lines that fit ``width``."""
    f = st.font(14)
    lines: list[list[tuple[st.Colour, str, str, float]]] = [[]]
    used = 0.0
    for fill, mark, label in _legend(words):
        w = 44 + f.getlength(label) + 18
        if lines[-1] and used + w > width:
            lines.append([])
            used = 0.0
        lines[-1].append((fill, mark, label, w))
        used += w
    return lines


class _Figures:
    """The percentages and times of one picture, each formatted once (a page has hundreds, of
    a few values, and Babel's formatting is what takes the time)."""

    def __init__(self, words: Words) -> None:
        self.words = words
        self._percents: dict[int, str] = {}
        self._seconds: dict[float, str] = {}

    def percent(self, ratio: float) -> str:
        whole = round(100 * ratio)
        if whole not in self._percents:
            self._percents[whole] = self.words.percent(whole / 100)
        return self._percents[whole]

    def seconds(self, value: float | None) -> str:
        if value is None:
            return "—"
        tenths = round(value, 1)
        if tenths not in self._seconds:
            self._seconds[tenths] = self.words("class_report.seconds",
                                               value=self.words.decimal(tenths, 1))
        return self._seconds[tenths]


def _skill_cell(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int],
                cell: Mapping[str, Any] | None) -> None:
    """One skill's mastery: its pips alone, or a dim dash when the student has none."""
    x0, y0, x1, y1 = box
    st.rounded(d, box, 8, outline=st.SLATE_LINE, width=1)
    mastery = None if cell is None else cell.get("mastery")
    if mastery is None:
        st.text(d, ((x0 + x1) / 2, (y0 + y1) / 2), "—", st.font(16), st.CHALK_DIM, "mm")
        return
    width = MASTERY_PIPS * (2 * PIP + 3) - 3
    st.pips(d, (x0 + x1) / 2 - width / 2, (y0 + y1) / 2, int(mastery), MASTERY_PIPS, PIP,
            st.CHALK, st.CHALK_DIM)


def _skill_head(name: str) -> tuple[list[str], Any]:
    """A skill's name wrapped to its narrow column: at most three lines, the font shrunk (then
    the last line cut) until it fits."""
    for size in (13, 12, 11, 10):
        f = st.font(size)
        lines = st.wrap(name, f, SKILL_W - 8)
        if len(lines) <= SKILL_HEAD_LINES and all(f.getlength(x) <= SKILL_W - 8
                                                   for x in lines):
            return lines, f
    kept = [st.fit_text(x, SKILL_W - 8, 10, 10)[0] for x in lines[:SKILL_HEAD_LINES - 1]]
    last, _ = st.fit_text(" ".join(lines[SKILL_HEAD_LINES - 1:]), SKILL_W - 8, 10, 10)
    return [*kept, last], st.font(10)


def _cell(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], cell: Mapping[str, Any] | None,
          words: Words, figures: _Figures, bold: bool = False) -> None:
    x0, y0, x1, y1 = box
    mastery = None if cell is None else cell.get("mastery")
    pips_x = (x0 + x1) / 2 - (MASTERY_PIPS * (2 * PIP + 3) - 3) / 2
    if cell is None or cell.get("band") is None:
        # No answer in the period: a dash, and the skill's mastery if it has one.
        st.rounded(d, box, 8, outline=st.SLATE_LIGHT, width=1)
        dash_y = (y0 + y1) / 2 if mastery is None else y0 + (y1 - y0) * 0.36
        st.text(d, ((x0 + x1) / 2, dash_y), "—", st.font(16), st.CHALK_DIM, "mm")
        if mastery is not None:
            st.pips(d, pips_x, y1 - 9, int(mastery), MASTERY_PIPS, PIP, st.CHALK, st.CHALK_DIM)
        return
    fill, mark = BANDS[str(cell["band"])]
    ink = st.CHALK if cell["band"] == "few" else st.INK
    st.rounded(d, box, 8, fill=fill, outline=st.CHALK if bold else None, width=2)
    if mastery is not None:
        st.pips(d, pips_x, y1 - 8, int(mastery), MASTERY_PIPS, PIP, ink, ink)
    top = y0 + (y1 - y0) * 0.26
    st.text(d, (x0 + 8, top), mark, st.font(16, True), ink, "lm")
    st.text(d, (x1 - 8, top), figures.percent(float(cell["accuracy"])), st.font(17, True), ink,
            "rm")
    median = cell.get("median_s")
    shown = figures.seconds(None if median is None else float(median))
    line, f = st.fit_text(words("class_report.cell", answers=int(cell["answers"]),
                                median=shown), x1 - x0 - 12, 13, 10)
    st.text(d, ((x0 + x1) / 2, y0 + (y1 - y0) * 0.58), line, f, ink, "mm")


def class_report_image(table: Mapping[str, Any], words: Words) -> Image.Image:
    topics: Sequence[str] = list(table.get("topics", []))
    rows: Sequence[Mapping[str, Any]] = list(table.get("rows", []))
    narrow = [bool(n) for n in table.get("skills", [])] + [False] * len(topics)
    # Each column's left edge (from the name column's end) and width.
    lefts: list[int] = []
    widths: list[int] = []
    edge = PAD + NAME_W
    for i in range(len(topics)):
        lefts.append(edge)
        widths.append(SKILL_W if narrow[i] else CELL_W)
        edge += widths[-1]
    table_w = max(edge - PAD, NAME_W + CELL_W)
    heads = {i: _skill_head(str(topics[i])) for i in range(len(topics)) if narrow[i]}
    head_h = max([HEAD_H, *(8 + SKILL_HEAD_LINE_H * len(lines) for lines, _ in heads.values())])
    width = max(PAD * 2 + table_w, 560)
    legend = _legend_lines(words, width - 2 * PAD)
    body_h = ROW_H * (len(rows) + 1) + 12 if rows else ROW_H * 2
    skills_note = 26 if heads else 0
    height = TOP_H + head_h + body_h + 40 + skills_note + LEGEND_ROW_H * (len(legend) + 1) + PAD
    im, d = st.canvas(width, height)
    figures = _Figures(words)

    head, hf = st.fit_text(str(table.get("title", "")), width - 2 * PAD - 110, 24, 14, bold=True)
    st.text(d, (PAD, 28), head, hf, st.CHALK, "lm")
    sub, sf = st.fit_text(str(table.get("subtitle", "")), width - 2 * PAD, 15, 11)
    st.text(d, (PAD, 58), sub, sf, st.CHALK_DIM, "lm")
    pages = int(table.get("pages", 1))
    if pages > 1:
        st.text(d, (width - PAD, 28), words("class_report.page", page=int(table.get("page", 1)),
                                            pages=pages), st.font(15, True), st.CHALK, "rm")

    # Column heads: the topics' names, shrunk then cut to their column.
    y = TOP_H
    st.text(d, (PAD + 4, y + HEAD_H / 2), words("class_report.student"), st.font(14, True),
            st.CHALK_DIM, "lm")
    for i, name in enumerate(topics):
        x0, cw = lefts[i], widths[i]
        if i in heads:
            lines, f = heads[i]
            top = y + head_h / 2 - SKILL_HEAD_LINE_H * (len(lines) - 1) / 2
            for n, part in enumerate(lines):
                st.text(d, (x0 + cw / 2, top + n * SKILL_HEAD_LINE_H), part, f, st.CHALK_DIM,
                        "mm")
            continue
        label, f = st.fit_text(str(name), cw - 10, 15, 10, bold=True)
        st.text(d, (x0 + cw / 2, y + head_h / 2), label, f, st.CHALK, "mm")
    d.line((PAD, y + head_h - 2, PAD + table_w, y + head_h - 2), fill=st.SLATE_LINE, width=1)
    y += head_h

    if not rows:
        st.text(d, (width / 2, y + ROW_H), words("class_report.none"), st.font(18),
                st.CHALK_DIM, "mm")
        y += ROW_H * 2
    else:
        for n, row in enumerate(rows):
            if n % 2 == 0:
                st.rounded(d, (PAD - 6, y + 1, PAD + table_w + 6, y + ROW_H - 1), 8,
                           fill=st.SLATE_LIGHT)
            name, f = st.fit_text(str(row.get("name", "")), NAME_W - 16, 16, 13)
            st.text(d, (PAD + 4, y + ROW_H / 2), name, f, st.CHALK, "lm")
            for i, cell in enumerate(row.get("cells", [])):
                box = (lefts[i] + 3, y + 4, lefts[i] + widths[i] - 3, y + ROW_H - 4)
                if narrow[i]:
                    _skill_cell(d, box, cell)
                else:
                    _cell(d, box, cell, words, figures)
            y += ROW_H
        # The class, under a rule.
        y += 6
        d.line((PAD, y, PAD + table_w, y), fill=st.CHALK_DIM, width=2)
        y += 6
        st.text(d, (PAD + 4, y + ROW_H / 2), words("class_report.class"), st.font(17, True),
                st.CHALK, "lm")
        for i, cell in enumerate(table.get("class", {}).get("cells", [])):
            if narrow[i]:
                continue  # a skill's mastery is each student's; the class has no line of it
            _cell(d, (lefts[i] + 3, y + 4, lefts[i] + widths[i] - 3, y + ROW_H - 4), cell,
                  words, figures, bold=True)
        y += ROW_H

    # The legend: how to read a cell, then each band's swatch, mark and meaning.
    y += 8
    reading, rf = st.fit_text(words("class_report.reading"), width - 2 * PAD, 14, 10)
    st.text(d, (PAD, y + 10), reading, rf, st.CHALK_DIM, "lm")
    y += 26
    if heads:
        note, nf = st.fit_text(words("class_report.skills_reading"), width - 2 * PAD, 14, 10)
        st.text(d, (PAD, y + 10), note, nf, st.CHALK_DIM, "lm")
        y += skills_note
    f = st.font(14)
    for line in legend:
        x = float(PAD)
        for fill, mark, label, w in line:
            st.rounded(d, (round(x), y, round(x) + 36, y + 22), 6, fill=fill)
            st.text(d, (x + 18, y + 11), mark, st.font(14, True),
                    st.CHALK if fill == st.SLATE_LINE else st.INK, "mm")
            st.text(d, (x + 44, y + 11), label, f, st.CHALK, "lm")
            x += w
        y += LEGEND_ROW_H
    # The mastery's pips: how many of four, each state named.
    x = float(PAD)
    label, lf = st.fit_text(words("class_report.mastery"), width / 3, 14, 10)
    st.text(d, (x, y + 11), label, lf, st.CHALK_DIM, "lm")
    x += st.text_width(label, lf) + 12
    for n, key in enumerate(MASTERY_KEYS, 1):
        x = st.pips(d, x, y + 11, n, MASTERY_PIPS, PIP, st.CHALK, st.CHALK_DIM) + 6
        name = words(f"mastery.{key}")
        st.text(d, (x, y + 11), name, f, st.CHALK, "lm")
        x += st.text_width(name, f) + 16
    return im
