"""Question by question, for the teacher: the three that went worst first, then every question
with how many answered, the share right, the median time and the commonest wrong answers.

The caller gives every text already in the teacher's words (a question set's text is drawn as
typed: a picture renders no mention, link or markdown). The share right is said in words and
drawn as a bar, so that it reads without colour.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from images import style as st
from images.words import Words

WIDTH = 1180
HEAD_H, SECTION_H, COLS_H, LINE_H, PAD = 70, 36, 30, 17, 12
NUMBER_W, TEXT_W, ANSWERS_W, SHARE_W, MEDIAN_W = 56, 330, 92, 150, 92
#: The most questions drawn (a live round has at most 20; the class report is bounded so).
MAX_ROWS = 20
#: The known mistakes listed under the questions (the commonest).
MAX_MISTAKES = 8


def _row_height(row: Mapping[str, Any]) -> int:
    return PAD + LINE_H * max(2, len(row.get("wrong", []))) + PAD


def _draw_rows(d: Any, rows: Sequence[Mapping[str, Any]], y: float, words: Words) -> float:
    x = 20
    body, small, bold = st.font(15), st.font(13), st.font(15, True)
    for i, row in enumerate(rows):
        h = _row_height(row)
        if i % 2 == 0:
            st.rounded(d, (14, y + 2, WIDTH - 14, y + h - 2), 8,
                       fill=st.blend(st.SLATE, st.SLATE_LIGHT, 0.5))
        mid = y + h / 2
        st.text(d, (x + 4, mid), str(row.get("label", "")), bold, st.CHALK_DIM, "lm")
        text, tf = st.fit_text(str(row.get("text", "")), TEXT_W - 12, 16, 10)
        left = x + NUMBER_W
        st.text(d, (left, mid), text, tf, st.CHALK, "lm")
        left += TEXT_W
        st.text(d, (left + ANSWERS_W / 2, mid), str(row.get("answers", "")), body, st.CHALK,
                "mm")
        left += ANSWERS_W
        share = float(row.get("share", 0.0))
        bar = (left + 8, mid + 8, left + SHARE_W - 14, mid + 14)
        st.rounded(d, bar, 3, fill=st.SLATE_LIGHT)
        if share > 0:
            st.rounded(d, (bar[0], bar[1], bar[0] + (bar[2] - bar[0]) * share, bar[3]), 3,
                       fill=st.GREEN if share >= 0.5 else st.VERMILLION)
        st.text(d, (left + (SHARE_W - 6) / 2, mid - 6), words.percent(share), bold, st.CHALK,
                "mm")
        left += SHARE_W
        st.text(d, (left + MEDIAN_W / 2, mid), str(row.get("median", "")), body, st.CHALK,
                "mm")
        left += MEDIAN_W
        wrong = list(row.get("wrong", []))
        room = WIDTH - 24 - left
        if not wrong:
            st.text(d, (left + 6, mid), words("question_report.no_wrong"), small, st.CHALK_DIM,
                    "lm")
        top = y + PAD + (h - 2 * PAD - LINE_H * len(wrong)) / 2
        for n, line in enumerate(wrong):
            shown, lf = st.fit_text(str(line), room - 8, 13, 9)
            st.text(d, (left + 6, top + LINE_H * n + LINE_H / 2), shown, lf, st.CHALK, "lm")
        y += h
    return y


def _columns(d: Any, y: float, words: Words) -> None:
    head = st.font(13, True)
    left = 20 + NUMBER_W
    st.text(d, (left, y + COLS_H / 2), words("question_report.question"), head, st.CHALK_DIM,
            "lm")
    left += TEXT_W
    for key, w in (("answers", ANSWERS_W), ("right", SHARE_W), ("median", MEDIAN_W)):
        st.text(d, (left + w / 2, y + COLS_H / 2), words(f"question_report.{key}"), head,
                st.CHALK_DIM, "mm")
        left += w
    st.text(d, (left + 6, y + COLS_H / 2), words("question_report.wrong"), head, st.CHALK_DIM,
            "lm")


def render_question_report(report: Mapping[str, Any], words: Words) -> bytes:
    """PNG of ``report``: {"title", "subtitle", "worst": [row], "questions": [row], "more":
    text or "", and optionally "mistakes": [text, …] (the known mistakes, a section of their
    own, which says so when the list is empty)}; a row is {"label", "text", "answers", "share"
    (0–1), "median" (text), "wrong": [text, …]}, every text in the teacher's words. At most
    ``MAX_ROWS`` questions are drawn."""
    worst = list(report.get("worst", []))
    rows = list(report.get("questions", []))[:MAX_ROWS]
    more = str(report.get("more", ""))
    mistakes = [str(line) for line in report.get("mistakes", [])]
    height = HEAD_H + (SECTION_H + COLS_H) * 2 + sum(map(_row_height, worst)) \
        + sum(map(_row_height, rows)) + (SECTION_H if more else 0) + 20 \
        + ((SECTION_H + 8 + round(LINE_H * 1.4 * max(1, len(mistakes))))
           if "mistakes" in report else 0)
    im, d = st.canvas(WIDTH, height)
    title, tf = st.fit_text(str(report.get("title", "")), WIDTH - 40, 22, 14, bold=True)
    st.text(d, (20, 26), title, tf, st.CHALK, "lm")
    sub, sf = st.fit_text(str(report.get("subtitle", "")), WIDTH - 40, 14, 10)
    st.text(d, (20, 52), sub, sf, st.CHALK_DIM, "lm")
    y: float = HEAD_H
    section = st.font(17, True)
    for key, shown in (("worst", worst), ("all", rows)):
        st.text(d, (20, y + SECTION_H / 2), words(f"question_report.section_{key}"), section,
                st.CHALK, "lm")
        y += SECTION_H
        _columns(d, y, words)
        y = _draw_rows(d, shown, y + COLS_H, words)
    if more:
        st.text(d, (20, y + SECTION_H / 2), more, st.font(13), st.CHALK_DIM, "lm")
        y += SECTION_H
    if "mistakes" in report:
        st.text(d, (20, y + 8 + SECTION_H / 2), words("question_report.section_mistakes"),
                section, st.CHALK, "lm")
        y += SECTION_H + 8
        if not mistakes:
            st.text(d, (32, y + LINE_H / 2), words("question_report.no_mistakes"), st.font(14),
                    st.CHALK_DIM, "lm")
        for line in mistakes:
            said, lf = st.fit_text(line, WIDTH - 64, 14, 10)
            st.text(d, (32, y + LINE_H * 0.7), said, lf, st.CHALK, "lm")
            y += LINE_H * 1.4
    return st.to_png(im)
