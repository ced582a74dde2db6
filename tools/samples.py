"""Sample states for the images' tests, benchmark and the README's pictures, from the real
engines: battles from ``bot.digits.battle.fight``, positions from ``bot.rithmo``.

``python -m tools.samples [DIR]`` writes every sample picture into DIR (default docs/images).
"""

from __future__ import annotations

import argparse
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

from bot.digits.battle import fight, opening_effects
from bot.digits.catalogue import BY_KEY
from bot.digits.slate import Slate
from bot.i18n import image_words
from bot.rithmo.board import Board
from bot.rithmo.squares import Move, name
from bot.rithmo.turns import Capture, Drop, EndTurn
from bot.texts import t

#: The words the pictures say, as the cogs pass them.
EN, FR = image_words("en"), image_words("fr")

Unit = dict[str, Any]


def unit(digit: str, level: int = 1, atk: int | None = None, hp: int | None = None,
         shield: int = 0) -> Unit:
    kind = BY_KEY[digit]
    return {"digit": digit, "level": level,
            "atk": kind.atk(level) if atk is None else atk,
            "hp": kind.hp(level) if hp is None else hp, "shield": shield}


# ---------------------------------------------------------------------------------------------
# Slates

FULL_N3_SLATE: dict[str, Unit] = {
    "1": unit("Square", 3, shield=16), "2": unit("Power", 3, atk=25),
    "3": unit("Splitter", 3), "4": unit("Modulo", 3, shield=9),
    "5": unit("Plus", 3), "6": unit("Sigma", 3, atk=21), "7": unit("Pi", 3),
    "8": unit("Average", 3),
}

SHOP_SLATE: dict[str, Any] = {
    "1": {"digit": "Odd", "level": 2}, "2": {"digit": "Square", "level": 1},
    "3": {"digit": "Half", "level": 1}, "5": {"digit": "Plus", "level": 1},
    "7": {"digit": "Double", "level": 1},
}

SHOP: dict[str, Any] = {
    "offers": [{"digit": "Puissance", "frozen": False}, {"digit": "Diviseur", "frozen": True},
               {"digit": "Twin", "frozen": False}, {"digit": "Abacus", "frozen": False},
               {"digit": "Moyenne", "frozen": True}],
    "gold": 7, "round": 7, "lives": 8, "slate": SHOP_SLATE, "lang": "fr",
}

# ---------------------------------------------------------------------------------------------
# Battles

# Twelve exchanges, won by the left in the last one: a Pi volley (exchange 3), a Carry giving its
# ATK (exchange 2), a Square's shield, a Sigma hitting from the back, move-ups, and a Prime left
# alone in a back row behind a cell empty from the start.
LONG_LEFT = {"1": "Double N1", "2": "Zero N2", "3": "Double N2", "4": "Square N3",
             "5": "Zero N2", "6": "Zero N1", "7": "Carry N2", "8": "Sigma N2"}
LONG_RIGHT = {"2": "Delta N3", "3": "Half N2", "4": "Plus N2", "5": "Prime N3", "7": "Pi N3"}

# The battle command's own example (docs: engine-commands.md).
SHORT_LEFT = {"1": "Odd", "5": "Plus N1"}
SHORT_RIGHT = {"1": {"digit": "Minus", "level": 2}}


def battle(left: dict[str, Any], right: dict[str, Any], left_focus: int = 0,
           right_focus: int = 0) -> dict[str, Any]:
    """The battle engine's full result JSON (with snapshots) for two slates, and what each
    opening effect did ("effects"), as the bot hands them to the replay."""
    a, b = Slate.from_json(left), Slate.from_json(right)
    result = fight(a, b, left_focus, right_focus).to_json(full=True)
    result["effects"] = opening_effects(a, b, left_focus, right_focus)
    return result


def long_battle() -> dict[str, Any]:
    return battle(LONG_LEFT, LONG_RIGHT)


def short_battle() -> dict[str, Any]:
    return battle(SHORT_LEFT, SHORT_RIGHT)


# ---------------------------------------------------------------------------------------------
# Rithmomachia


def start_position() -> dict[str, Any]:
    """The set-up, White to move (``python -m bot.rithmo start``)."""
    return Board.start().to_json()


def played_position(seed: int, turns: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The position after ``turns`` random turns from the set-up (captures taken when there are
    any, most of the time), and its last turn in the form render_board takes."""
    rng = random.Random(seed)
    board = Board.start()
    last: list[Any] = []
    for _ in range(turns):
        side = board.to_json()["to_move"]
        last = []
        while True:
            steps = board.legal_steps()
            caps = [s for s in steps if isinstance(s, Capture)]
            moves = [s for s in steps if isinstance(s, Move)]
            ends = [s for s in steps if isinstance(s, EndTurn)]
            if caps and rng.random() < 0.85:
                step = rng.choice(caps)
            elif moves:
                step = rng.choice(moves)
            elif ends:
                step = ends[0]
            else:
                step = rng.choice(steps)
            board.push_step(step)
            if isinstance(step, EndTurn):
                break
            last.append(step)
            if board.to_json()["to_move"] != side and not board.turn_in_progress:
                break
    return board.to_json(), last_turn_of(last)


def last_turn_of(steps: list[Any]) -> dict[str, Any]:
    """{"from", "to", "captured"} from the engine's steps of one turn."""
    turn: dict[str, Any] = {"captured": []}
    for s in steps:
        if isinstance(s, Move):
            turn["from"], turn["to"] = name(s.frm), name(s.to)
        elif isinstance(s, Drop):
            turn["to"] = name(s.square)
        elif isinstance(s, Capture):
            turn["captured"].append(name(s.square))
    return turn


def crowded_position() -> tuple[dict[str, Any], dict[str, Any]]:
    """A crowded middle game (44 pieces on the board, 6 taken, both pyramids whole) whose last
    turn took d7 first and stepped in from d10."""
    return played_position(59, 64)


# ---------------------------------------------------------------------------------------------
# Progress

PROGRESS = [
    {"date": f"2026-11-{day:02d}", "topic": topic, "correct": c, "total": 6}
    for day, topic, c in [
        (2, "addition", 4), (2, "subtraction", 3), (4, "addition", 5), (4, "multiplication", 2),
        (6, "subtraction", 4), (6, "multiplication", 3), (9, "addition", 6),
        (9, "division", 2), (11, "multiplication", 4), (11, "division", 3),
        (13, "subtraction", 5), (16, "priority", 2), (16, "division", 4),
        (18, "multiplication", 5), (20, "priority", 3), (23, "addition", 6),
        (23, "priority", 4), (25, "division", 5), (27, "multiplication", 6),
        (30, "priority", 5), (30, "subtraction", 6)]
]
STREAK_DAYS = ["2026-10-05", "2026-10-06", "2026-10-07", "2026-10-09", "2026-10-12",
               "2026-10-13", "2026-10-14", "2026-10-15", "2026-10-16", "2026-10-17",
               "2026-10-20", "2026-10-21", "2026-10-23", "2026-10-27", "2026-10-28",
               "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-06", "2026-11-09",
               "2026-11-10", "2026-11-11", "2026-11-13", "2026-11-16", "2026-11-17",
               "2026-11-18", "2026-11-20", "2026-11-23", "2026-11-24", "2026-11-25",
               "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29", "2026-11-30"]
#: Two days of answers, as a student has after a first week-end: drawn as bars.
PROGRESS_TWO_DAYS = [
    {"date": f"2026-11-{day:02d}", "topic": topic, "correct": c, "total": n}
    for day, topic, c, n in [
        (29, "addition", 5, 6), (29, "subtraction", 3, 6), (29, "multiplication", 4, 6),
        (29, "priority", 2, 6), (30, "addition", 6, 6), (30, "multiplication", 5, 6),
        (30, "division", 3, 6), (30, "priority", 4, 6)]
]
#: A student who started on 24 November: the calendar starts there.
NEW_STUDENT_DAYS = ["2026-11-24", "2026-11-25", "2026-11-27", "2026-11-29", "2026-11-30"]
#: A live round's final ranking (points, right answers out of the questions).
LIVE_RANKING = [
    {"rank": 1, "name": "Camille", "score": 5400, "time": "6/6"},
    {"rank": 2, "name": "Inès", "score": 4980, "time": "6/6"},
    {"rank": 3, "name": "Noé", "score": 3720, "time": "5/6"},
    {"rank": 4, "name": "Léa", "score": 2890, "time": "4/6"},
    {"rank": 5, "name": "Sacha", "score": 1450, "time": "2/6"},
]
LEADERBOARD = [
    {"rank": 1, "name": "Camille", "score": 6, "time": 41.2},
    {"rank": 2, "name": "Noé", "score": 6, "time": 58.9},
    {"rank": 3, "name": "Inès", "score": 5, "time": 37.5},
    {"rank": 4, "name": "Maxime-Alexandre de la Fontaine", "score": 5, "time": 63.0},
    {"rank": 5, "name": "Léa", "score": 4, "time": 45.1},
    {"rank": 6, "name": "Sacha", "score": 3, "time": 122.4},
]


# ---------------------------------------------------------------------------------------------
# The teacher's reports

#: A class of twelve over a week: per student, per topic, (answers, right, median seconds).
#: Every band is there (90 % and over, 70–89 %, 50–69 %, under 50 %, fewer than 3 answers),
#: topics a student did not answer, and a teacher's own topic ("Times tables", a question set).
CLASS_WEEK: dict[str, dict[str, tuple[int, int, float]]] = {
    "Camille": {"addition": (18, 17, 3.2), "subtraction": (12, 11, 4.1),
                "multiplication": (12, 10, 5.3), "division": (6, 5, 7.4),
                "Times tables": (10, 10, 2.4)},
    "Noé": {"addition": (12, 9, 4.6), "subtraction": (12, 7, 6.8),
            "multiplication": (6, 3, 9.1), "Times tables": (10, 8, 3.9)},
    "Inès": {"addition": (24, 23, 2.7), "multiplication": (18, 17, 3.6),
             "division": (12, 11, 5.2), "priority": (6, 5, 11.3)},
    "Oliver": {"addition": (6, 4, 6.9), "subtraction": (6, 2, 10.4),
               "Times tables": (10, 6, 5.7)},
    "Léa": {"addition": (12, 11, 3.8), "subtraction": (12, 10, 4.9),
            "multiplication": (6, 4, 7.7), "division": (2, 1, 12.6)},
    "Amara": {"addition": (18, 15, 4.4), "subtraction": (12, 9, 5.8),
              "multiplication": (12, 7, 8.2), "priority": (6, 2, 16.5),
              "Times tables": (10, 9, 3.1)},
    "Sacha": {"addition": (6, 2, 8.8), "multiplication": (2, 0, 14.1)},
    "Emily": {"addition": (12, 12, 2.9), "subtraction": (12, 12, 3.4),
              "multiplication": (12, 11, 4.2), "division": (6, 6, 5.5),
              "priority": (6, 6, 8.9), "Times tables": (10, 10, 1.9)},
    "Théo": {"subtraction": (6, 3, 7.5), "multiplication": (12, 6, 9.4),
             "Times tables": (10, 5, 6.2)},
    "Jack": {"addition": (12, 8, 5.1), "division": (6, 2, 13.7)},
    "Zoé": {"addition": (18, 16, 3.5), "subtraction": (6, 5, 4.7),
            "multiplication": (6, 5, 6.0), "Times tables": (10, 9, 2.8)},
    "Maxime-Alexandre de la Fontaine": {"addition": (6, 5, 4.3), "subtraction": (6, 4, 6.1),
                                        "priority": (1, 1, 20.0)},
}


def _times(answers: int, median_s: float) -> list[int]:
    """``answers`` times (ms) whose median, as the report reads it, is about ``median_s``: half
    a little under, half a little over."""
    centre = round(median_s * 1000)
    return [max(200, centre + (n - answers // 2) * 150) for n in range(answers)]


def class_report_table(lang: str = "en") -> dict[str, Any]:
    """Page 1 of ``/class report`` for CLASS_WEEK, as the bot makes it: the figures through
    ``bot.play.class_report.build`` (bands, topics' order, the class's line, the mastery's pips),
    the page through ``bot.ui.class_report.table`` (the title, the days, the topics' names)."""
    from datetime import date

    from bot.focus.skills import SKILLS
    from bot.play.class_report import Answered, build
    from bot.ui.class_report import table
    from db.class_report import StudentTally, tally_of_times
    from db.mastery import SkillLevel

    ids = {name: 1000 + n for n, name in enumerate(CLASS_WEEK)}
    tallies = [StudentTally(ids[name], topic, tally_of_times(_times(answers, median), right))
               for name, topics in CLASS_WEEK.items()
               for topic, (answers, right, median) in topics.items()]
    # Each student's mastery of the topics' skills (all time): here after their week's accuracy.
    mastery = {(ids[name], topic): SkillLevel(ids[name], topic, 4, 1 + sum(
        right >= share * answers for share in (0.5, 0.75, 0.9)))
        for name, topics in CLASS_WEEK.items()
        for topic, (answers, right, _) in topics.items() if topic in SKILLS}
    today = date(2026, 11, 30)
    data = Answered("week", date(2026, 11, 24), today, None, tallies, [], mastery)
    report = build(data, {uid: name for name, uid in ids.items()}, lang)
    return table(report, lang, 0)


#: A cycle 4 class over a week (``class_report_skills_table``): per student, per topic,
#: (answers, right, median seconds), and their mastery of each skill they practised (1–4).
CYCLE4_WEEK: dict[str, dict[str, tuple[int, int, float]]] = {
    "Camille": {"negatives": (18, 16, 4.1), "fractions": (12, 9, 7.3),
                "percentages": (6, 5, 6.2)},
    "Noé": {"negatives": (12, 7, 6.4), "fractions": (6, 2, 11.8)},
    "Inès": {"negatives": (24, 23, 3.0), "fractions": (18, 17, 5.1),
             "percentages": (6, 6, 4.9), "squares": (6, 6, 2.2)},
    "Oliver": {"negatives": (6, 3, 8.8), "percentages": (2, 1, 12.0)},
    "Léa": {"negatives": (12, 11, 4.4), "fractions": (12, 8, 8.0), "squares": (6, 5, 3.1)},
}
CYCLE4_MASTERY: dict[str, dict[str, int]] = {
    "Camille": {"negatives-add": 4, "negatives-subtract": 3, "negatives-multiply": 2,
                "fractions-add": 3, "fractions-of": 2, "percentages": 3},
    "Noé": {"negatives-add": 2, "negatives-subtract": 1, "fractions-add": 1},
    "Inès": {"negatives-add": 4, "negatives-subtract": 4, "negatives-multiply": 3,
             "fractions-add": 4, "fractions-subtract": 3, "fractions-of": 4, "percentages": 4,
             "squares": 4},
    "Oliver": {"negatives-add": 2, "percentages": 1},
    "Léa": {"negatives-add": 3, "negatives-subtract": 3, "negatives-multiply": 1,
            "fractions-add": 2, "fractions-subtract": 1, "squares": 3},
}


def class_report_skills_table(lang: str = "en") -> dict[str, Any]:
    """Page 1 of ``/class report`` for CYCLE4_WEEK: a topic of one skill with its pips in its
    cell (squares, percentages), the topics of several skills followed by a column per skill."""
    from datetime import date

    from bot.play.class_report import Answered, build
    from bot.ui.class_report import table
    from db.class_report import StudentTally, tally_of_times
    from db.mastery import SkillLevel

    ids = {name: 1100 + n for n, name in enumerate(CYCLE4_WEEK)}
    tallies = [StudentTally(ids[name], topic, tally_of_times(_times(answers, median), right))
               for name, topics in CYCLE4_WEEK.items()
               for topic, (answers, right, median) in topics.items()]
    mastery = {(ids[name], skill): SkillLevel(ids[name], skill, 5, level)
               for name, skills in CYCLE4_MASTERY.items() for skill, level in skills.items()}
    data = Answered("week", date(2026, 11, 24), date(2026, 11, 30), None, tallies, [], mastery)
    report = build(data, {uid: name for name, uid in ids.items()}, lang)
    return table(report, lang, 0)


def mastery_map_png(lang: str = "en") -> bytes:
    """A cycle 4 student's mastery map (``bot.focus.mastery.map_data``): part of the tables,
    and the skills by their names."""
    from datetime import UTC, datetime

    from bot.focus.mastery import FACT, SKILL, Item, Mastery, map_data, skill_item
    from bot.texts import t
    from images import render_mastery

    now = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)
    items = [Item(FACT, f"{a}*{b}", 1 + (a * b) % 4, 1, "f", 3, 3, 2, now, now)
             for a in range(2, 10) for b in range(a, 10) if (a + b) % 3]
    items += [Item(FACT, f"{a}+{b}", 2 + (a + b) % 3, 1, "f", 3, 3, 2, now, now)
              for a in range(1, 8) for b in range(a, 9)]
    items += [Item(SKILL, skill_item(skill, 5), level, 1, "f", 3, 3, 2, now, now)
              for skill, level in CYCLE4_MASTERY["Inès"].items()]
    data = {**map_data(Mastery(items), now), "title": t("mastery.map_title", lang, name="Inès")}
    return render_mastery(data, image_words(lang))


#: A live round of six questions: per student, per question, (right, seconds) or None.
LIVE_ROUND: dict[str, list[tuple[bool, float] | None]] = {
    "Inès": [(True, 3.1), (True, 4.0), (True, 5.2), (True, 2.8), (True, 6.3), (True, 4.4)],
    "Camille": [(True, 4.2), (True, 5.5), (False, 9.8), (True, 3.9), (True, 7.1), (True, 5.0)],
    "Oliver": [(True, 6.0), (False, 11.2), (True, 8.4), (True, 5.6), None, (True, 9.9)],
    "Noé": [(True, 7.7), (True, 12.1), (False, 14.0), (False, 6.2), (True, 10.5), None],
    "Amara": [(True, 9.5), (True, 17.3), (True, 24.8), (True, 13.0), (True, 28.6),
                  (True, 19.2)],
    "Sacha": [(False, 12.4), None, (True, 15.9), (False, 18.1), None, (False, 16.0)],
}


def live_report_table(lang: str = "en") -> dict[str, Any]:
    """The "Report (teacher)" picture of LIVE_ROUND, as the bot makes it: the rows in the
    report's order (most right, then least time) by ``bot.play.live_report``, the picture's data
    by ``bot.ui.focus_live.report_picture``. Amara has extra time (×2: her window is 40 s of the
    round's 20); the report names every student, also those public rankings leave out."""
    from bot.play.live_report import LiveReport, ReportCell, ReportQuestion, ReportRow
    from bot.ui.focus_live import report_picture

    ids = {name: 2000 + n for n, name in enumerate(LIVE_ROUND)}
    rows = [ReportRow(ids[name], tuple(
        ReportCell() if cell is None else ReportCell(cell[0], None, cell[1]) for cell in cells))
        for name, cells in LIVE_ROUND.items()]
    rows.sort(key=lambda r: (-r.right, r.seconds, r.user_id))
    questions = tuple(ReportQuestion(None, None) for _ in range(6))
    report = LiveReport(12, lang, questions, tuple(rows))
    return report_picture(report, {uid: name for name, uid in ids.items()}, lang)


#: A class's answers to five questions, as (question, skill, form, expected, answers given):
#: the question-level report's sample (``question_report_png``).
QUESTIONS: tuple[tuple[str, str, str, Any, tuple[Any, ...]], ...] = (
    ("2 + 3 × 4", "priority", "whole", 14, (14,) * 15 + (20,) * 9 + (24, 11)),
    ("3/4 + 1/4", "fractions-add", "fraction", 1,
     (1,) * 13 + (Fraction(1, 2),) * 7 + (Fraction(3, 4),) * 2),
    ("−3 − 5", "negatives-subtract", "whole", -8, (-8,) * 16 + (2,) * 4 + (-2,) * 5),
    ("0.3 × 0.2", "decimals-multiply", "decimal", Fraction(6, 100),
     (Fraction(6, 100),) * 12 + (Fraction(6, 10),) * 11 + (Fraction(5, 10),)),
    ("10 % × 190", "percentages", "whole", 19, (19,) * 22 + (Fraction(19, 10),) * 3),
)


def question_givens() -> list[Any]:
    from bot.focus.question_stats import Given

    made = []
    for number, (text, skill, form, expected, given) in enumerate(QUESTIONS, 1):
        for student, value in enumerate(given):
            made.append(Given(3000 + student, str(number), text, skill, form, expected, value,
                              value == expected, 2500 + 900 * ((student * 7 + number) % 11),
                              number))
    return made


def question_report_png(lang: str = "en") -> bytes:
    """The question-level picture of a live round of QUESTIONS, as the bot makes it
    (``bot.ui.question_report``: the figures, the worst three first, the known mistakes)."""
    from bot.focus.question_stats import mistakes, question_stats
    from bot.texts import t
    from bot.ui import question_report
    from images import render_question_report

    given = question_givens()
    stats = question_stats(given)
    title = t("reports.live_title", lang, id=12)
    subtitle = t("reports.subtitle", lang,
                 questions=t("reports.questions", lang, count=len(stats)),
                 answers=t("reports.answers", lang, count=len(given)))
    data = question_report.picture(stats, title, subtitle, lang)
    data["mistakes"] = question_report.mistake_lines(mistakes(given), lang)
    return render_question_report(data, image_words(lang))


def student_page_png(lang: str = "fr") -> bytes:
    """One student's page (``bot.play.student_page``) for a sample student: six weeks, six
    skills, two known mistakes, three assignments."""
    from datetime import date, datetime, timedelta

    from bot.play.student_page import Homework, StudentPage, Week
    from bot.ui.student_page import picture_data
    from images import render_student_page

    weeks = tuple(Week(date(2026, 10, 26) + timedelta(weeks=n), a, r) for n, (a, r) in
                  enumerate(((18, 11), (30, 21), (0, 0), (42, 33), (24, 20), (36, 31))))
    skills = (("addition", 2, 4), ("decimals-multiply", 1, 2), ("fractions-add", 2, 2),
              ("multiplication", 2, 3), ("negatives-subtract", 1, 1), ("priority", 1, 3))
    due = datetime(2026, 11, 20, 18, 0)
    page = StudentPage(1, "Inès", "term", None, date(2026, 11, 30), weeks, skills,
                       (("fraction-parts", 4), ("left-to-right", 2)),
                       (Homework("Fractions", due, 10, "done", 7),
                        Homework("Priorités", due + timedelta(days=7), 8, "started", None),
                        Homework("Négatifs", due + timedelta(days=14), 8, "missing", None)))
    return render_student_page(picture_data(page, lang), image_words(lang))


def write_samples(out: Path) -> list[Path]:
    """Every sample picture, written into ``out``; returns the paths."""
    import images

    out.mkdir(parents=True, exist_ok=True)
    long = long_battle()
    names = ("Camille", "Noé")
    crowded, turn = crowded_position()
    won, lost = odds_examples()
    files = {
        "slate.png": images.render_slate(FULL_N3_SLATE, EN, title="Camille"),
        "slate-fr.png": images.render_slate(SHOP_SLATE, FR, title="Camille"),
        "battle.png": images.render_battle(long, EN, names),
        "replay.gif": images.render_replay(long, EN, names),
        "replay-fr.gif": images.render_replay(short_battle(), FR, ("Inès", "Sacha")),
        "shop.png": images.render_shop(SHOP, FR),
        # The odds' "Show me a battle like that" (docs/rules/the-20-digits.md, les-20-chiffres.md).
        "odds-won.gif": images.render_replay(won, EN, ("You", "Them")),
        "odds-lost-fr.gif": images.render_replay(lost, FR, ("Toi", "En face")),
        "board.png": images.render_board(start_position(), EN),
        "board-crowded.png": images.render_board(crowded, EN, turn),
        "board-black.png": images.render_board(crowded, FR, turn, flipped=True),
        # The rules documents' picture of the coordinates (docs/rules/rithmomachia.md and
        # rithmomachie.md: it has no words, so one picture serves both).
        "rithmo-squares.png": coordinates_picture(EN),
        "progress.png": images.render_progress(PROGRESS, EN),
        "progress-days.png": images.render_progress(PROGRESS_TWO_DAYS, FR,
                                                    title="Inès : réussite par thème"),
        "streak.png": images.render_streak(STREAK_DAYS, 8, "2026-11-30", FR),
        "streak-new.png": images.render_streak(NEW_STUDENT_DAYS, 2, "2026-11-30", EN, best=2,
                                               first_day="2026-11-24",
                                               title="Inès: daily challenges"),
        "live-ranking.png": images.render_leaderboard(
            LIVE_RANKING, EN, title="Live Focus · final ranking", limit=10,
            columns=("Points", "Right")),
        "leaderboard.png": images.render_leaderboard(LEADERBOARD, EN, date="2026-11-30",
                                                     highlight="Inès", out_of=6),
        "class-report.png": images.render_class_report(class_report_table(), EN),
        "class-report-skills.png": images.render_class_report(class_report_skills_table(), EN),
        "mastery-fr.png": mastery_map_png("fr"),
        "live-report.png": images.render_live_report(live_report_table(), EN),
        "question-report.png": question_report_png("en"),
        "question-report-fr.png": question_report_png("fr"),
        "student-page-fr.png": student_page_png("fr"),
        # The French teachers' guide (docs/teachers.fr.md) shows these as a French teacher
        # gets them.
        "live-ranking-fr.png": images.render_leaderboard(
            LIVE_RANKING, FR, title=t("focus.live.final_title", "fr"), limit=10,
            columns=(t("focus.live.points_column", "fr"), t("focus.live.right_column", "fr"))),
        "live-report-fr.png": images.render_live_report(live_report_table("fr"), FR),
        "class-report-fr.png": images.render_class_report(class_report_table("fr"), FR),
        "class-report-skills-fr.png": images.render_class_report(
            class_report_skills_table("fr"), FR),
        "progress-fr.png": images.render_progress(PROGRESS, FR),
        "streak-new-fr.png": images.render_streak(
            NEW_STUDENT_DAYS, 2, "2026-11-30", FR, best=2, first_day="2026-11-24",
            title=t("progress.streak_title", "fr", name="Inès")),
        "leaderboard-fr.png": images.render_leaderboard(LEADERBOARD, FR, date="2026-11-30",
                                                        highlight="Inès", out_of=6),
    }
    paths = []
    for file, data in files.items():
        path = out / file
        path.write_bytes(data)
        paths.append(path)
    return paths


def odds_examples() -> tuple[dict[str, Any], dict[str, Any]]:
    """The battles "Show me a battle like that" replays for a slate at round 3 of a gentle solo
    match (the baseline player's buys): one it wins, one it loses."""
    from bot.digits.baseline import BotPlayer
    from bot.digits.forecast import example_battles
    from bot.digits.levels import solo_match

    match = solo_match("A", "gentle", seed=5)
    bot = BotPlayer("samples")
    while match.round < 3 or match.stage("A") != "shop":
        bot.act(match, "A")
    bot._shop_turn(match, "A")
    won, lost = example_battles(match, "A")
    assert won is not None and lost is not None
    return won.result, lost.result


def coordinates_picture(words: Any) -> bytes:
    """White's half of the set-up with a1, c4 and h8 named: how the notation reads a square."""
    from images.rithmo_rules import render_lesson

    return render_lesson(Board.start().to_json(), words, {"named": ["a1", "c4", "h8"]},
                         half=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.samples",
                                     description="Write every sample picture into a folder.")
    parser.add_argument("folder", nargs="?", type=Path, default=Path("docs/images"),
                        help="where to write them (default docs/images)")
    for p in write_samples(parser.parse_args(argv).folder):
        print(p, p.stat().st_size)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
