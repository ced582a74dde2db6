"""Ardoise's pictures: pure functions from engine state (plain JSON dicts) to image bytes.

No Discord, no database, no engine classes: each function reads the JSON shapes of
shared/design/engine-commands.md and returns the bytes of a PNG (256 colours; a GIF for the
replay). They share nothing mutable (fonts and rendered words are cached per thread), so the bot
may call them from worker threads with
``await asyncio.to_thread(images.render_board, position, words, turn, flipped)``. The same
arguments always give the same bytes. ``words`` is an ``images.Words`` (images/words.py): every
word, count, percentage and date a picture writes, already in the member's language; the bot
builds it from its one catalogue (``bot.i18n.image_words(lang)``), so images/ holds no text.
The text is set in DejaVu Sans, shipped in images/fonts with its licence.

The 20 Digits
-------------
``render_slate(slate, words, title=None) -> bytes`` (PNG, 760 × 362)
    One player's slate: {"1".."8": {"digit", "level", "atk", "hp", "shield"}}, cells absent or
    null when empty. "atk", "hp" and "shield" may be missing (a shop's slate): the catalogue's
    stats at that level and no shield are drawn. A digit may also be "Odd N2" or a French name.
    Front row (1–4) on top, facing the opponent; back row (5–8) below; empty cells dashed.

``render_battle(result, words, names=("Left", "Right")) -> bytes`` (PNG, 740 × 712)
    A still of a battle's final state from the battle result JSON (``fight(...).to_json()``):
    both sides' "survivors" facing each other (the right player on top, the left below, each
    slate drawn as the shop draws it, cell numbers and all), the result written large in the
    middle.

``render_replay(result, words, names=("Left", "Right")) -> bytes`` (animated GIF, looping)
    The whole battle: a frame for the opening (what each effect changed and why, from the
    result's optional "effects", ``bot.digits.battle.opening_effects``), one per exchange (hits
    as arrows labelled with the hit, none crossing another: an exchange whose hits would cross
    takes a frame per side, or per hitter; HP lost, falls and Carry gains written beside the
    cards, never over their numbers; move-ups as green arrows), then the final state. Reads
    "opening", "log", "survivors", "effects" and "snapshots" (state after the opening, then
    after each exchange: ``[{"left": {cell: unit}, "right": {...}}, ...]``); without
    "snapshots" the states are rebuilt from the log (see images/replay.py). About 0.4 MB for 12
    exchanges.

``render_shop(shop, words) -> bytes`` (PNG, 964 × 672)
    A shop turn: {"offers": [{"digit", "frozen"} or null ×5], "gold", "round", "lives",
    "slate": {...}}; a "lang" in it is ignored (``words`` says the language). See images/shop.py.

Rithmomachia
------------
``render_board(position, words, last_turn=None, flipped=False) -> bytes`` (PNG, 1072 wide)
    The position JSON ({"to_move", "pieces": [{"square", "side", "shape", "value" | "parts"}],
    "taken"}), lying down (White's rank 1 on the left), with ``last_turn`` {"from", "to",
    "captured": [squares], "explained": [sentences]} highlighted and each capture's arithmetic
    written under it (the caller's sentences), the pieces each side has taken, and every pyramid's
    components listed; ``flipped=True`` shows it from Black's side. See images/board.py.
``render_lesson(position, words, marks=None, half=False) -> bytes`` (PNG)
    A position for the rules pages, with marks on squares ({"moves", "leaps", "capturers",
    "victims", "line", "named": [squares]}); ``half`` keeps White's half. See
    images/rithmo_rules.py.

Focus
-----
``render_progress(records, words, title=None) -> bytes`` (PNG, 900 × 480)
    Accuracy per topic over time from [{"date": "2026-11-30", "topic", "correct", "total"}].

``render_mastery(data, words) -> bytes`` (PNG, 828 × 578 + 30 a line of two skills)
    The mastery map: {"title", "facts": {"7*8": 3, …}, "skills": [{"skill", "level",
    "mastery"}]}: the multiplication table 1–10 and the addition table to 20 coloured by each
    fact's state (with pips: colour never alone), a legend, the skills (images/mastery.py).

``render_streak(played, streak, today, words, weeks=12, best=None, title=None) -> bytes``
    (PNG) The streak calendar: ISO dates played (or ``datetime.date``), the current and best
    streaks as the Focus engine's Streak counts them (``streak.on(today)``, ``streak.best``; best
    defaults to the longest run in ``played``), and today's date (the picture never reads the
    clock).

``render_leaderboard(rows, words, title=None, date=None, highlight=None, limit=10,
out_of=None, columns=None) -> bytes`` (PNG, 640 wide)
    The daily challenge's ranking: [{"rank", "name", "score", "time"}] (time in seconds, or
    "seconds" as in the engine's DailyStanding), the viewer's row (by name or rank) framed, and
    shown after "…" when below ``limit``; ``out_of`` writes scores as "5/6". Other rankings
    (ratings, streaks) name the two columns with ``columns`` and may give "time" as a text.

Teachers
--------
``render_live_report(report, words) -> bytes`` (PNG)
    A live round's report for its teacher: {"title", "questions": N, "rows": [{"name", "cells":
    [{"correct", "seconds"} or null per question], "right", "answered", "seconds"}]}; each cell a
    mark (✓ ✗ —), a colour and the time; the totals on the right, a legend below.
``render_class_report(table, words) -> bytes`` (PNG, 560 wide or more: 200 + 136 per topic)
    One page of the class report: {"title", "subtitle", "topics", "rows": [{"name", "cells"}],
    "class": {"cells"}, "page", "pages"}, a cell {"band", "accuracy", "answers", "median_s"} or
    None; each band has a colour and a mark, explained in the legend. See images/class_report.py.

``render_question_report(report, words) -> bytes`` (PNG, 1180 wide)
    Question by question (a live round's, an assignment's, ``/class report``'s): the three that
    went worst, then every question (at most 20) with its answers, share right (a bar and its
    percentage), median time and commonest wrong answers; optionally the known mistakes. See
    images/question_report.py.

``render_student_page(page, words) -> bytes`` (PNG, 900 wide)
    One student's page for a parents' meeting: answers week by week, mastery by skill, known
    mistakes, assignments. See images/student_page.py.

Bad input (an unknown digit, a cell outside 1–8, a bad square) raises ``ValueError``.
Sample pictures: ``python -m tools.samples docs/images``; speed: ``python -m tools.bench.images``.
"""

from images.board import render_board
from images.class_report import render_class_report
from images.live_report import render_live_report
from images.mastery import render_mastery
from images.progress import render_leaderboard, render_progress, render_streak
from images.question_report import render_question_report
from images.replay import render_replay
from images.rithmo_rules import render_lesson
from images.shop import render_shop
from images.slate import render_battle, render_slate
from images.student_page import render_student_page
from images.words import Words

__all__ = [
    "Words",
    "render_battle",
    "render_board",
    "render_class_report",
    "render_leaderboard",
    "render_lesson",
    "render_live_report",
    "render_mastery",
    "render_progress",
    "render_question_report",
    "render_replay",
    "render_shop",
    "render_slate",
    "render_streak",
    "render_student_page",
]
