"""A live round's report for its teacher: one row per student, one column per question.

Each cell says its answer three ways, so that it reads without colour: a mark (✓ right, ✗ wrong,
— no answer), a colour (green, vermillion, slate) and, for an answer, the time it took. The last
column totals the right answers and the time; a legend under the table says what the marks mean.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from images import style as st
from images.words import Words

NAME_W, CELL_W, TOTAL_W = 190, 78, 120
HEAD_H, COLS_H, ROW_H, LEGEND_H = 64, 34, 40, 44
#: The most columns drawn side by side (a live round has at most 20 questions).
MAX_COLUMNS = 20

MARKS = {True: "✓", False: "✗", None: "—"}
FILLS = {True: st.GREEN, False: st.VERMILLION, None: st.SLATE_LIGHT}


def render_live_report(report: Mapping[str, Any], words: Words) -> bytes:
    """PNG of ``report``: {"title": text, "questions": number of questions, "rows": [{"name",
    "cells": [{"correct": bool, "seconds": float} or null per question], "right", "answered",
    "seconds"}]} in the order to draw them."""
    rows: Sequence[Mapping[str, Any]] = report["rows"]
    size = min(int(report["questions"]), MAX_COLUMNS)
    width = NAME_W + CELL_W * size + TOTAL_W + 28
    height = HEAD_H + COLS_H + ROW_H * max(1, len(rows)) + LEGEND_H
    im, d = st.canvas(width, height)
    title, tf = st.fit_text(str(report.get("title", "")), width - 40, 22, 14, bold=True)
    st.text(d, (20, HEAD_H / 2), title, tf, st.CHALK, "lm")
    x0, y = 14, HEAD_H
    head = st.font(13, True)
    st.text(d, (x0 + 6, y + COLS_H / 2), words("live_report.student"), head, st.CHALK_DIM, "lm")
    for n in range(size):
        cx = x0 + NAME_W + CELL_W * n + CELL_W / 2
        st.text(d, (cx, y + COLS_H / 2), words("live_report.question", n=n + 1), head,
                st.CHALK_DIM, "mm")
    total_x = x0 + NAME_W + CELL_W * size + TOTAL_W / 2
    st.text(d, (total_x, y + COLS_H / 2), words("live_report.total"), head, st.CHALK_DIM, "mm")
    y += COLS_H
    if not rows:
        st.text(d, (width / 2, y + ROW_H / 2), words("nobody"), st.font(16), st.CHALK_DIM, "mm")
    mark_font, time_font = st.font(16, True), st.font(11)
    for i, row in enumerate(rows):
        if i % 2 == 0:
            st.rounded(d, (x0, y + 2, width - 14, y + ROW_H - 2), 8, fill=st.blend(
                st.SLATE, st.SLATE_LIGHT, 0.5))
        name, nf = st.fit_text(str(row.get("name", "")), NAME_W - 12, 15, 10)
        st.text(d, (x0 + 6, y + ROW_H / 2), name, nf, st.CHALK, "lm")
        cells = list(row.get("cells", []))[:size]
        for n in range(size):
            cell = cells[n] if n < len(cells) else None
            correct = None if cell is None else cell.get("correct")
            left = x0 + NAME_W + CELL_W * n
            box = (left + 3, y + 4, left + CELL_W - 3, y + ROW_H - 4)
            st.rounded(d, box, 6, fill=FILLS[correct])
            ink = st.CHALK_DIM if correct is None else st.WHITE_FILL
            if correct is None:
                st.text(d, (left + CELL_W / 2, y + ROW_H / 2), MARKS[None], mark_font, ink, "mm")
                continue
            st.text(d, (left + 20, y + ROW_H / 2), MARKS[bool(correct)], mark_font, ink, "mm")
            assert cell is not None  # a cell without an answer went on above
            seconds = words.decimal(float(cell.get("seconds") or 0.0), 1)
            st.text(d, (left + CELL_W - 8, y + ROW_H / 2), words("live_report.seconds",
                                                                  seconds=seconds),
                    time_font, ink, "rm")
        total = words("live_report.right", right=int(row.get("right", 0)), size=size)
        st.text(d, (total_x, y + ROW_H / 2 - 7), total, st.font(14, True), st.CHALK, "mm")
        spent = words("live_report.seconds",
                      seconds=words.decimal(float(row.get("seconds") or 0.0), 1))
        st.text(d, (total_x, y + ROW_H / 2 + 9), spent, time_font, st.CHALK_DIM, "mm")
        y += ROW_H
    legend = "   ".join(f"{MARKS[k]} {words(f'live_report.{w}')}"
                        for k, w in ((True, "legend_right"), (False, "legend_wrong"),
                                     (None, "legend_none")))
    st.text(d, (20, height - LEGEND_H / 2), legend, st.font(13), st.CHALK_DIM, "lm")
    return st.to_png(im)
