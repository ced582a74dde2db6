"""One student's page, for a parents' meeting: answers week by week (a bar each, the share
right in words), mastery by skill (its level in words), known mistakes, assignments.

Every text comes from the caller in the teacher's words; the page is drawn in one column so that
it prints on A4 upright.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from images import style as st
from images.words import Words

WIDTH = 900
HEAD_H, SECTION_H, LINE_H = 76, 40, 26
LABEL_W = 300
#: The most lines of one section (a year of weeks; the skills all fit).
MAX_LINES = 40


def _lines(report: Mapping[str, Any], key: str) -> Sequence[Any]:
    return list(report.get(key, []))[:MAX_LINES]


def render_student_page(report: Mapping[str, Any], words: Words) -> bytes:
    """PNG of {"title", "subtitle", "weeks": [{"label", "answers", "share"}], "skills":
    [{"label", "mastery" (1–4), "text"}], "mistakes": [text], "homework": [text]}."""
    sections = ("weeks", "skills", "mistakes", "homework")
    height = HEAD_H + sum(SECTION_H + LINE_H * max(1, len(_lines(report, key)))
                          for key in sections) + 20
    im, d = st.canvas(WIDTH, height)
    title, tf = st.fit_text(str(report.get("title", "")), WIDTH - 40, 24, 14, bold=True)
    st.text(d, (20, 28), title, tf, st.CHALK, "lm")
    sub, sf = st.fit_text(str(report.get("subtitle", "")), WIDTH - 40, 15, 10)
    st.text(d, (20, 56), sub, sf, st.CHALK_DIM, "lm")
    y: float = HEAD_H
    body, head = st.font(14), st.font(17, True)
    most = max([int(w.get("answers", 0)) for w in _lines(report, "weeks")] or [1]) or 1
    for key in sections:
        st.text(d, (20, y + SECTION_H / 2), words(f"student_page.{key}"), head, st.CHALK, "lm")
        y += SECTION_H
        lines = _lines(report, key)
        if not lines:
            st.text(d, (36, y + LINE_H / 2), words(f"student_page.no_{key}"), body,
                    st.CHALK_DIM, "lm")
            y += LINE_H
            continue
        for line in lines:
            mid = y + LINE_H / 2
            if key == "weeks":
                st.text(d, (36, mid), str(line["label"]), body, st.CHALK, "lm")
                answers, share = int(line["answers"]), float(line["share"])
                full = (WIDTH - 240 - LABEL_W) * answers / most
                left = 20 + LABEL_W
                st.rounded(d, (left, mid - 7, left + max(4.0, full), mid + 7), 4,
                           fill=st.SLATE_LIGHT)
                st.rounded(d, (left, mid - 7, left + max(4.0, full * share), mid + 7), 4,
                           fill=st.GREEN)
                said = words("student_page.week_figures", answers=answers,
                             share=words.percent(share))
                st.text(d, (WIDTH - 24, mid), said, body, st.CHALK, "rm")
            elif key == "skills":
                name, nf = st.fit_text(str(line["label"]), LABEL_W - 24, 14, 10)
                st.text(d, (36, mid), name, nf, st.CHALK, "lm")
                mastery = int(line.get("mastery", 0))
                for n in range(4):
                    box = (20 + LABEL_W + 26 * n, mid - 8, 20 + LABEL_W + 26 * n + 20, mid + 8)
                    st.rounded(d, box, 4, fill=st.GREEN if n < mastery else st.SLATE_LIGHT)
                st.text(d, (20 + LABEL_W + 120, mid), str(line.get("text", "")), body,
                        st.CHALK, "lm")
            else:
                said, lf = st.fit_text(str(line), WIDTH - 60, 14, 10)
                st.text(d, (36, mid), said, lf, st.CHALK, "lm")
            y += LINE_H
    return st.to_png(im)
