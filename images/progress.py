"""A student's progress: accuracy per topic over time, the streak calendar, and the daily
challenge's leaderboard card.

Every series in the chart has its own colour, marker shape and line style (dashed lines are
hatched bars), and its name in the legend with its accuracy and number of answers; a played day
has a tick as well as its colour; a medal carries its rank's number.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from images import style as st
from images.words import Words

SERIES_COLOURS = (st.BLUE, st.ORANGE, st.GREEN, st.PURPLE, st.SKY, st.VERMILLION, st.YELLOW,
                  st.CHALK)
SERIES_MARKERS = ("round", "square", "triangle", "diamond")
SERIES_DASHED = (False, False, False, False, True, True, True, True)
MARKER_SIZES = {"round": 15, "square": 13, "triangle": 19, "diamond": 19}


def _date(value: str | dt.date) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value)[:10])


def _short_date(day: dt.date, words: Words) -> str:
    return words.date(day, "d MMM")


# ---------------------------------------------------------------------------------------------
# Accuracy per topic


def render_progress(records: Iterable[Mapping[str, Any]], words: Words,
                    title: str | None = None) -> bytes:
    """PNG chart of accuracy (%) per topic over time. ``records`` are
    {"date": "2026-11-30", "topic": "addition", "correct": 5, "total": 6}; records of one day
    and topic add up; records with no question are left out. Up to ``BAR_DAYS`` days with
    answers are drawn as bars (a line needs more points to be seen), more as lines; the legend
    gives each topic's accuracy and its number of answers."""
    return st.to_png(progress_image(records, words, title))


#: Up to this many days with answers, the chart draws bars (grouped by day, one per topic).
BAR_DAYS = 2
#: The engine's topics (``bot.focus.skills.ALL_TOPICS``: the eight levels', then the skills').
TOPIC_ORDER = ("addition", "subtraction", "multiplication", "division", "squares", "priority",
               "parentheses", "missing", "negatives", "decimals", "fractions", "percentages",
               "powers")


def _sums(records: Iterable[Mapping[str, Any]]) -> dict[str, dict[dt.date, list[int]]]:
    sums: dict[str, dict[dt.date, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for r in records:
        total = int(r.get("total", 0))
        if total <= 0:
            continue
        cell = sums[str(r["topic"])][_date(r["date"])]
        cell[0] += int(r.get("correct", 0))
        cell[1] += total
    return sums


class _Series:
    """One topic's look: colour, marker shape and line style, the same in the plot and in the
    legend."""

    def __init__(self, index: int, sprites: dict[tuple[Any, ...], Image.Image]) -> None:
        self.colour = SERIES_COLOURS[index % len(SERIES_COLOURS)]
        self.shape = SERIES_MARKERS[index % len(SERIES_MARKERS)]
        self.dashed = SERIES_DASHED[index % len(SERIES_DASHED)]
        key = (self.shape, self.colour)
        if key not in sprites:
            # Sizes that give the four shapes about the same weight.
            sprites[key] = st.shape_sprite(self.shape, MARKER_SIZES[self.shape], self.colour,
                                           self.colour, 1)
        self.sprite = sprites[key]
        # On a bar of its own colour the marker needs an outline to be seen.
        outlined = ("outlined", self.shape, self.colour)
        if outlined not in sprites:
            sprites[outlined] = st.shape_sprite(self.shape, MARKER_SIZES[self.shape] + 2,
                                                self.colour, st.SLATE, 2)
        self.on_bar = sprites[outlined]

    def paste(self, im: Image.Image, x: float, y: float, on_bar: bool = False) -> None:
        sprite = self.on_bar if on_bar else self.sprite
        half = sprite.width // 2
        im.paste(sprite, (round(x) - half, round(y) - half), sprite)


#: A label's text and the box it covers on the picture (left, top, right, bottom).
Label = tuple[str, tuple[float, float, float, float]]
#: The least room between two labels side by side, so that two never read as one word.
LABEL_GAP = 6


class _Labels:
    """Draws the chart's words and keeps the box of each (``boxes``), for the tests that check
    that no two labels overlap."""

    def __init__(self, d: ImageDraw.ImageDraw, boxes: list[Label] | None) -> None:
        self.d, self.boxes = d, boxes

    def __call__(self, xy: tuple[float, float], s: str, f: ImageFont.FreeTypeFont,
                 fill: st.Colour, anchor: str = "la") -> None:
        st.text(self.d, xy, s, f, fill, anchor)
        if self.boxes is not None and s:
            self.boxes.append((s, self.d.textbbox((round(xy[0]), round(xy[1])), s, font=f,
                                                   anchor=anchor)))


def progress_image(records: Iterable[Mapping[str, Any]], words: Words,
                   title: str | None = None,
                   boxes: list[Label] | None = None) -> Image.Image:
    """The chart of ``render_progress``; each word drawn is added to ``boxes`` with its box."""
    sums = _sums(records)
    width, height = 900, 480
    im, d = st.canvas(width, height)
    label = _Labels(d, boxes)
    head, hf = st.fit_text(title or words("accuracy"), width - 40, 24, 14, bold=True)
    label((20, 28), head, hf, st.CHALK, "lm")
    if not sums:
        label((width / 2, height / 2), words("no_data"), st.font(20), st.CHALK_DIM, "mm")
        return im

    # Topics in a stable order: the known ones as listed, then the others alphabetically.
    topics = sorted(sums, key=lambda k: (TOPIC_ORDER.index(k) if k in TOPIC_ORDER
                                         else len(TOPIC_ORDER), k))
    days = sorted({day for per in sums.values() for day in per})
    sprites: dict[tuple[Any, ...], Image.Image] = {}
    series = {key: _Series(i, sprites) for i, key in enumerate(topics)}
    bars = len(days) <= BAR_DAYS

    legend_w = 236
    # Bars write their percentage and count above them: room for two lines over 100 %.
    px0, py0, px1, py1 = 70, 100 if bars else 62, width - legend_w - 24, height - 56
    f = st.font(13)
    for pct in (0, 25, 50, 75, 100):
        y = py1 - (py1 - py0) * pct / 100
        d.line((px0, y, px1, y), fill=st.SLATE_LIGHT if pct else st.SLATE_LINE, width=1)
        label((px0 - 8, y), words.percent(pct / 100), f, st.CHALK_DIM, "rm")
    if bars:
        _bars(im, d, label, sums, topics, days, series, words, (px0, py0, px1, py1))
    else:
        _lines(im, d, label, sums, topics, days, series, words, (px0, py0, px1, py1))
    _legend(im, d, label, sums, topics, series, words, width - legend_w, width - 20, 66,
            height - 12)
    return im


def _y_of(ratio: float, box: tuple[float, float, float, float]) -> float:
    _, py0, _, py1 = box
    return py1 - (py1 - py0) * ratio


def _lines(im: Image.Image, d: ImageDraw.ImageDraw, label: _Labels,
           sums: dict[str, dict[dt.date, list[int]]],
           topics: list[str], days: list[dt.date], series: dict[str, _Series], words: Words,
           box: tuple[float, float, float, float]) -> None:
    px0, _, px1, py1 = box
    first, last = days[0], days[-1]
    span = max(1, (last - first).days)

    def x_of(day: dt.date) -> float:
        return px0 + 12 + (px1 - px0 - 24) * (day - first).days / span

    # Date labels: at most eight, evenly spread over the days that have answers.
    f = st.font(13)
    step = max(1, -(-len(days) // 8))
    shown = days[::step]
    if shown[-1] != last:
        shown = [*shown[:-1], last] if x_of(last) - x_of(shown[-1]) < 50 else [*shown, last]
    for day in shown:
        x = x_of(day)
        d.line((x, py1, x, py1 + 5), fill=st.SLATE_LINE, width=1)
        label((x, py1 + 16), _short_date(day, words), f, st.CHALK_DIM, "mm")
    for key in topics:
        look = series[key]
        pts = [(x_of(day), _y_of(c / n, box)) for day, (c, n) in sorted(sums[key].items())]
        for a, b in itertools.pairwise(pts):
            if look.dashed:
                st.dashed_line(d, a, b, look.colour, width=3, dash=9, gap=6)
            else:
                d.line((*a, *b), fill=look.colour, width=3)
        for x, y in pts:
            look.paste(im, x, y)


def _bars(im: Image.Image, d: ImageDraw.ImageDraw, label: _Labels,
          sums: dict[str, dict[dt.date, list[int]]],
          topics: list[str], days: list[dt.date], series: dict[str, _Series], words: Words,
          box: tuple[float, float, float, float]) -> None:
    """One group of bars per day, one bar per topic played that day, its percentage and its
    number of answers written above it, its topic's marker on it. A label gets its bar's width
    less a gap; one that cannot fit even shrunk is left out (the legend gives each topic's
    accuracy and answers): never cut, never a number without its unit."""
    px0, _, px1, py1 = box
    group_w = (px1 - px0) / len(days)
    for g, day in enumerate(days):
        played = [key for key in topics if day in sums[key]]
        pitch = min(64.0, (group_w - 16) / len(played))
        bar_w = pitch - 8
        left = px0 + g * group_w + (group_w - pitch * len(played)) / 2
        for i, key in enumerate(played):
            look = series[key]
            c, n = sums[key][day]
            x0 = left + i * pitch + 4
            top = _y_of(c / n, box)
            cx = x0 + bar_w / 2
            d.rectangle((x0, top, x0 + bar_w, py1), fill=look.colour)
            if look.dashed:  # the dashed series are hatched: told apart without colour
                for hx in range(int(x0) + 4, int(x0 + bar_w), 8):
                    d.line((hx, top + 2, hx, py1 - 1), fill=st.SLATE, width=2)
            label_y = top - 30
            if py1 - top >= 26:
                look.paste(im, cx, top + 13, on_bar=True)
            else:  # too short for its marker: the marker goes over the labels
                look.paste(im, cx, label_y - 16)
            room = pitch - LABEL_GAP
            pct = words.percent(round(100 * c / n) / 100)
            if st.font(10, True).getlength(pct) <= room:
                label((cx, label_y), *st.fit_text(pct, room, 13, 10, bold=True), st.CHALK, "mm")
            count = words.count("answers", n)
            if st.font(8).getlength(count) <= room:
                label((cx, label_y + 15), *st.fit_text(count, room, 11, 8), st.CHALK_DIM, "mm")
        label((px0 + (g + 0.5) * group_w, py1 + 16), _short_date(day, words), st.font(13),
              st.CHALK_DIM, "mm")


def _legend(im: Image.Image, d: ImageDraw.ImageDraw, label: _Labels,
            sums: dict[str, dict[dt.date, list[int]]], topics: list[str],
            series: dict[str, _Series], words: Words, lx: float, right: float, ly: float,
            bottom: float) -> None:
    """Per topic: line sample and marker, name, and on the next line its accuracy over the
    period and its number of answers, so a name never runs into its number; the rows share
    the height down to ``bottom``."""
    row_h = min(46.0 if len(topics) <= 8 else 36.0, (bottom - ly + 8) / max(1, len(topics)))
    second = min(19.0, row_h - 15)  # the accuracy's line, under the name
    for key in topics:
        look = series[key]
        if look.dashed:
            st.dashed_line(d, (lx, ly), (lx + 34, ly), look.colour, width=3, dash=7, gap=4)
        else:
            d.line((lx, ly, lx + 34, ly), fill=look.colour, width=3)
        look.paste(im, lx + 17, ly)
        name, nf = st.fit_text(words.topic(key), right - (lx + 44), 15, 10)
        label((lx + 44, ly), name, nf, st.CHALK, "lm")
        c_all = sum(c for c, _ in sums[key].values())
        n_all = sum(n for _, n in sums[key].values())
        pct = words.percent(round(100 * c_all / n_all) / 100)
        bold = st.font(14, True)
        label((lx + 44, ly + second), pct, bold, st.CHALK, "lm")
        answers, af = st.fit_text(words.count("answers", n_all),
                                  right - (lx + 44 + bold.getlength(pct) + 6), 13, 9)
        label((lx + 44 + bold.getlength(pct) + 6, ly + second), answers, af,
              st.CHALK_DIM, "lm")
        ly += row_h


# ---------------------------------------------------------------------------------------------
# Streak calendar


def render_streak(played: Iterable[str | dt.date], streak: int, today: str | dt.date,
                  words: Words, weeks: int = 12, best: int | None = None,
                  title: str | None = None, first_day: str | dt.date | None = None) -> bytes:
    """PNG calendar of the last ``weeks`` weeks (Monday first) up to ``today``: a tick on each
    day played, ``today`` framed, the current ``streak`` in large and the ``best`` one (both as
    the Focus engine's Streak counts them: ``streak.on(today)``, ``streak.best``; without
    ``best``, the longest run of consecutive days in ``played``). Days before ``first_day``
    (the student's first day with Ardoise) are left empty: they were not missed."""
    return st.to_png(streak_image(played, streak, today, words, weeks, best, title, first_day))


def best_run(days: Iterable[dt.date]) -> int:
    """The longest run of consecutive days in ``days``."""
    best = run = 0
    prev: dt.date | None = None
    for day in sorted(set(days)):
        run = run + 1 if prev is not None and (day - prev).days == 1 else 1
        best = max(best, run)
        prev = day
    return best


def streak_image(played: Iterable[str | dt.date], streak: int, today: str | dt.date,
                 words: Words, weeks: int = 12, best: int | None = None,
                 title: str | None = None, first_day: str | dt.date | None = None,
                 boxes: list[Label] | None = None) -> Image.Image:
    """The calendar of ``render_streak``; each word drawn is added to ``boxes`` with its box."""
    today_d = _date(today)
    days = {_date(p) for p in played}
    # A day played before the first day given still counts: the first day is never after it.
    begin = min([_date(first_day), *days]) if first_day is not None else None
    cell, gap = 30, 5
    left, top = 62, 84
    grid_w = weeks * (cell + gap) - gap
    panel_w = 230
    width = left + grid_w + 30 + panel_w + 20
    height = top + 7 * (cell + gap) - gap + 56
    im, d = st.canvas(width, height)
    label = _Labels(d, boxes)
    head, hf = st.fit_text(title or words("streak"), width - 40, 24, 14, bold=True)
    label((20, 28), head, hf, st.CHALK, "lm")

    start = today_d - dt.timedelta(days=today_d.weekday() + 7 * (weeks - 1))
    f = st.font(13)
    for row, name in enumerate(words.weekday(i) for i in range(7)):
        label((left - 10, top + row * (cell + gap) + cell / 2), name, f, st.CHALK_DIM, "rm")
    tick = st.font(18, True)
    last_month = None
    month_right: float = -LABEL_GAP  # where the last month's name ends: two never run together
    for week in range(weeks):
        x = left + week * (cell + gap)
        monday = start + dt.timedelta(days=7 * week)
        # A month's name over the first week that holds its first day (or the first column
        # drawn: no month over the empty weeks before the student's first day).
        if begin is not None and monday + dt.timedelta(days=6) < begin:
            continue
        first_column = last_month is None
        month_day = next((monday + dt.timedelta(days=k) for k in range(7)
                          if (monday + dt.timedelta(days=k)).day == 1
                          and monday + dt.timedelta(days=k) <= today_d
                          and (begin is None or monday + dt.timedelta(days=k) >= begin)), None)
        label_day = max(monday, begin or monday) if first_column else month_day
        if label_day is not None and label_day.month != last_month:
            name = words.month(label_day.month)
            if x >= month_right + LABEL_GAP:  # else the month before, a week wide, keeps it
                label((x, top - 14), name, f, st.CHALK_DIM, "lm")
                month_right = x + f.getlength(name)
            last_month = label_day.month
        for row in range(7):
            day = monday + dt.timedelta(days=row)
            y = top + row * (cell + gap)
            box = (x, y, x + cell, y + cell)
            if day > today_d or (begin is not None and day < begin):
                continue
            if day in days:
                st.rounded(d, box, 6, fill=st.GOOD)
                st.text(d, (x + cell / 2, y + cell / 2 + 1), "✓", tick, st.PAPER, "mm")
            else:
                st.rounded(d, box, 6, fill=st.SLATE_LIGHT, outline=st.SLATE_LINE, width=1)
            if day == today_d:
                st.rounded(d, (x - 3, y - 3, x + cell + 3, y + cell + 3), 8, outline=st.CHALK,
                           width=3)

    # The panel: the streak in large, the best run, the days played.
    px = left + grid_w + 30
    st.rounded(d, (px, top - 4, px + panel_w, top + 7 * (cell + gap) - gap + 4), 12,
               fill=st.SLATE_LIGHT)
    label((px + panel_w / 2, top + 52), str(int(streak)), st.font(64, True), st.CHALK, "mm")
    days_word = words("day_word", count=int(streak))
    label((px + panel_w / 2, top + 104), days_word, st.font(20, True), st.CHALK, "mm")
    label((px + panel_w / 2, top + 150),
          words("best", days=words.count("days", best if best is not None else best_run(days))),
          st.font(16), st.CHALK, "mm")
    label((px + panel_w / 2, top + 178), words.count("days_played", len(days)), st.font(16),
          st.CHALK_DIM, "mm")

    # Key.
    ky = height - 26
    st.rounded(d, (left, ky - 10, left + 20, ky + 10), 5, fill=st.GOOD)
    st.text(d, (left + 10, ky + 1), "✓", st.font(13, True), st.PAPER, "mm")
    label((left + 28, ky), words("played"), f, st.CHALK, "lm")
    kx = left + 40 + f.getlength(words("played"))
    st.rounded(d, (kx, ky - 10, kx + 20, ky + 10), 5, fill=st.SLATE_LIGHT, outline=st.SLATE_LINE)
    label((kx + 28, ky), words("missed"), f, st.CHALK, "lm")
    kx += 40 + f.getlength(words("missed"))
    st.rounded(d, (kx, ky - 10, kx + 20, ky + 10), 5, outline=st.CHALK, width=3)
    label((kx + 28, ky), words("today"), f, st.CHALK, "lm")
    return im


# ---------------------------------------------------------------------------------------------
# Leaderboard

MEDALS = st.MEDALS


def format_time(seconds: float, words: Words) -> str:
    """41.2 → "41.2 s"; 63 → "1:03.0" ("1 min 03,0 s" in French, where "1:03" reads as a time
    of day); the decimal separator is the language's ("41,2 s")."""
    tenths = round(float(seconds) * 10)
    minutes, rest = divmod(tenths, 600)
    if minutes:
        return words("minutes_seconds", minutes=minutes,
                     seconds=words.decimal(rest / 10, 1, whole_digits=2))
    return f"{words.decimal(rest / 10, 1)} s"


def render_leaderboard(rows: Sequence[Mapping[str, Any]], words: Words,
                       title: str | None = None, date: str | dt.date | None = None,
                       highlight: str | int | None = None, limit: int = 10,
                       out_of: int | None = None,
                       columns: tuple[str, str] | None = None) -> bytes:
    """PNG card of the daily challenge's ranking. ``rows`` are {"rank", "name", "score",
    "time"} (time in seconds; "seconds" as the Focus engine's DailyStanding has it is read too),
    best first. The first ``limit`` rows are shown; the row whose
    name or rank is ``highlight`` is framed, and shown after a gap when it is further down.
    ``out_of`` writes scores as "5/6". Other rankings (ratings, streaks) name their two columns
    with ``columns`` (instead of "Score" and "Time") and may give "time" as a text, written as
    it is."""
    return st.to_png(leaderboard_image(rows, words, title, date, highlight, limit, out_of,
                                       columns))


def leaderboard_image(rows: Sequence[Mapping[str, Any]], words: Words,
                      title: str | None = None, date: str | dt.date | None = None,
                      highlight: str | int | None = None, limit: int = 10,
                      out_of: int | None = None,
                      columns: tuple[str, str] | None = None,
                      boxes: list[Label] | None = None) -> Image.Image:
    """The picture of ``render_leaderboard``; each word drawn is added to ``boxes`` with its
    box. The title is fitted to the room the date leaves it."""

    def is_mine(r: Mapping[str, Any]) -> bool:
        if highlight is None:
            return False
        if isinstance(highlight, int) and not isinstance(highlight, bool):
            return int(r.get("rank", -1)) == highlight
        return str(r.get("name")) == str(highlight)

    shown: list[Mapping[str, Any] | None] = list(rows[:limit])
    mine = next((r for r in rows[limit:] if is_mine(r)), None)
    if mine is not None:
        shown += [None, mine]  # None: the gap ("…")
    row_h, head_h, cols_h = 46, 74, 30
    width = 640
    height = head_h + cols_h + max(1, len(shown)) * row_h + 20
    im, d = st.canvas(width, height)
    label = _Labels(d, boxes)
    day_text = words.date(_date(date), "d MMM y") if date is not None else ""
    room = width - 40 - (st.font(16).getlength(day_text) + 2 * LABEL_GAP if day_text else 0)
    label((20, 30), *st.fit_text(title or words("daily"), room, 24, 14, bold=True), st.CHALK,
          "lm")
    if day_text:
        label((width - 20, 30), day_text, st.font(16), st.CHALK_DIM, "rm")
    cf = st.font(13, True)
    y = head_h
    x_rank, x_name, x_score, x_time = 44, 84, width - 170, width - 24
    label((x_rank, y + cols_h / 2), "#", cf, st.CHALK_DIM, "mm")
    label((x_name, y + cols_h / 2), words("name"), cf, st.CHALK_DIM, "lm")
    score_head, time_head = columns or (words("score"), words("time"))
    label((x_score, y + cols_h / 2), score_head, cf, st.CHALK_DIM, "rm")
    label((x_time, y + cols_h / 2), time_head, cf, st.CHALK_DIM, "rm")
    y += cols_h
    if not rows:
        label((width / 2, y + row_h / 2), words("nobody"), st.font(17), st.CHALK_DIM, "mm")
        return im
    for i, r in enumerate(shown):
        box = (14, y + 3, width - 14, y + row_h - 3)
        if r is None:
            label((width / 2, y + row_h / 2), "…", st.font(20, True), st.CHALK_DIM, "mm")
            y += row_h
            continue
        mine_row = is_mine(r)
        st.rounded(d, box, 10, fill=st.SLATE_LIGHT if i % 2 == 0 or mine_row else None,
                   outline=st.YELLOW if mine_row else None, width=3)
        cy = y + row_h / 2
        rank = int(r.get("rank", i + 1))
        medal = MEDALS.get(rank)
        if medal is not None:
            d.ellipse((x_rank - 15, cy - 15, x_rank + 15, cy + 15), fill=medal, outline=st.INK,
                      width=2)
            label((x_rank, cy + 1), str(rank), st.font(16, True), st.INK, "mm")
        else:
            label((x_rank, cy), str(rank), st.font(16, True), st.CHALK, "mm")
        name, nf = st.fit_text(str(r.get("name", "")), x_score - 70 - x_name, 18, 12,
                               bold=mine_row)
        label((x_name, cy), name, nf, st.CHALK, "lm")
        score = str(r.get("score", ""))
        if out_of is not None:
            score = f"{score}/{out_of}"
        label((x_score, cy), score, st.font(18, True), st.CHALK, "rm")
        time = r.get("time", r.get("seconds"))
        if isinstance(time, str):
            shown_time = time
        else:
            shown_time = format_time(time, words) if time is not None else "—"
        label((x_time, cy), shown_time, st.font(16), st.CHALK_DIM, "rm")
        y += row_h
    return im
