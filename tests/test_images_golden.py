"""Golden images: a few pictures compared with reference PNGs in tests/golden, within a small
tolerance (antialiasing may differ by a shade between FreeType or Pillow versions; a card, a
number or a line in the wrong place does not pass).

The inputs are frozen JSON in tests/golden too (a battle and a position the engines gave), so that
only a change in the drawing moves these pictures. After a deliberate change of the drawing, look
at the new pictures, then rewrite the references with
``ARDOISE_REGOLD=1 .venv/bin/python -m pytest tests/test_images_golden.py``.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops

import images
from bot.i18n import image_words
from tools import samples

EN, FR = image_words("en"), image_words("fr")
GOLDEN = Path(__file__).parent / "golden"
REGOLD = os.environ.get("ARDOISE_REGOLD") == "1"

# At most this mean difference per channel (0–255), and this share of pixels off by more than
# a shade in any channel.
MEAN_TOLERANCE = 1.5
PIXEL_TOLERANCE = 0.005
SHADE = 40


def _battle() -> dict:
    return json.loads((GOLDEN / "battle_long.json").read_text())


def _board() -> dict:
    return json.loads((GOLDEN / "board_crowded.json").read_text())


def _replay_frame(n: int) -> bytes:
    gif = Image.open(io.BytesIO(images.render_replay(_battle(), EN, ("Camille", "Noé"))))
    gif.seek(n)
    buf = io.BytesIO()
    gif.convert("RGB").save(buf, format="PNG")
    return buf.getvalue()


def _cell(band: str, accuracy: float, answers: int, median_s: float | None,
          mastery: int | None = None) -> dict:
    cell = {"band": band, "accuracy": accuracy, "answers": answers, "median_s": median_s}
    return cell if mastery is None else {**cell, "mastery": mastery}


#: A page of the class report: every band, a topic not answered, a teacher's own topic, a name
#: to cut, the class's line (the page's numbers as the bot's would be); each mastery (pips), and
#: one of a topic not answered in the period.
CLASS_REPORT = {
    "title": "Bilan de la classe · Les 7 derniers jours", "subtitle": "Du 25 nov. au 1 déc. 2026",
    "topics": ["addition", "multiplication", "priorités de calcul", "Fractions (Mme Roux)"],
    "rows": [
        {"name": "Anaïs", "cells": [_cell("top", 0.92, 13, 3.5, 4),
                                    _cell("good", 0.75, 8, 6.25, 3),
                                    {"band": None, "mastery": 2}, _cell("few", 1.0, 2, 12.0)]},
        {"name": "Zéphyrine Quarkwood-Delacroix de la Montagne",
         "cells": [_cell("fair", 0.5, 6, 4.0, 2), _cell("low", 0.2, 5, 9.5, 1),
                   _cell("top", 1.0, 3, 2.5, 3), None]},
        {"name": "Noé", "cells": [None, _cell("low", 0.0, 4, None, 1),
                                  _cell("fair", 0.6, 5, 8.0, 2),
                                  _cell("good", 0.8, 10, 30.5)]},
    ],
    "class": {"cells": [_cell("good", 0.79, 19, 3.8), _cell("fair", 0.53, 17, 7.0),
                        _cell("good", 0.75, 8, 5.5), _cell("good", 0.83, 12, 28.0)]},
    "page": 2, "pages": 2,
}

#: A full slate (issue 15): the offers with an N1 copy on the slate say onto which cell they merge,
#: the others are dimmed and say "slate full" (a frozen one too); one slot bought.
SHOP_FULL = {
    "offers": [{"digit": "Plus", "frozen": False}, {"digit": "Odd", "frozen": True},
               {"digit": "Fibo", "frozen": False}, None, {"digit": "Double", "frozen": False}],
    "gold": 4, "round": 7, "lives": 6,
    "slate": {"1": "Odd N2", "2": "Zero", "3": "Half", "4": "Fibo N2", "5": "Plus",
              "6": "Double", "7": "Power", "8": "Sigma"},
}

#: A mastery map (issue 17): every state in both tables (7 × 8 is one fact: both cells), a
#: fact never answered, the skills at their levels, a French title.
MASTERY = {
    "title": "Inès : carte de maîtrise",
    "facts": {**{f"{a}*{b}": 1 + (a * b + a) % 4 for a in range(1, 11) for b in range(a, 11)
                 if (a + 2 * b) % 5},
              **{f"{a}+{b}": 1 + (a + b) % 4 for a in range(1, 11) for b in range(a, 11)
                 if a * b % 3}},
    "skills": [{"skill": "addition", "level": 2, "mastery": 4},
               {"skill": "subtraction", "level": 2, "mastery": 3},
               {"skill": "multiplication", "level": 4, "mastery": 2},
               {"skill": "division", "level": 4, "mastery": 1},
               {"skill": "priority", "level": 6, "mastery": 1}],
}

CASES: dict[str, Callable[[], bytes]] = {
    "slate_fr_long_names.png": lambda: images.render_slate(
        {"1": {"digit": "Puissance", "level": 3, "atk": 25, "hp": 10, "shield": 0},
         "2": {"digit": "Diviseur", "level": 2}, "3": {"digit": "Carré", "level": 3,
                                                       "shield": 16},
         "6": {"digit": "Sigma", "level": 1, "atk": 3, "hp": 6}, "8": "Retenue N1"},
        FR, title="Camille"),
    "battle_final.png": lambda: images.render_battle(_battle(), EN, ("Camille", "Noé")),
    "replay_opening.png": lambda: _replay_frame(0),
    # Exchange 3's first frame (exchange 2 takes two: its hits would cross in one).
    "replay_exchange_3.png": lambda: _replay_frame(4),
    "shop_fr.png": lambda: images.render_shop(samples.SHOP, FR),
    "shop_full_en.png": lambda: images.render_shop(SHOP_FULL, EN),
    "board_crowded_black.png": lambda: images.render_board(
        _board()["position"], FR, _board()["last_turn"], flipped=True),
    "progress_bars_fr.png": lambda: images.render_progress(
        samples.PROGRESS_TWO_DAYS, FR, title="Inès : réussite par thème"),
    "progress_lines.png": lambda: images.render_progress(samples.PROGRESS, EN),
    "streak_new_student.png": lambda: images.render_streak(
        samples.NEW_STUDENT_DAYS, 2, "2026-11-30", FR, best=2, first_day="2026-11-24"),
    "class_report_fr.png": lambda: images.render_class_report(CLASS_REPORT, FR),
    "mastery_map_fr.png": lambda: images.render_mastery(MASTERY, FR),
    "leaderboard.png": lambda: images.render_leaderboard(
        samples.LEADERBOARD, EN, date="2026-11-30", highlight="Inès", out_of=6),
}


def _difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """Mean difference per channel, and the share of pixels off by more than SHADE."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    hist = diff.histogram()
    n = a.width * a.height
    mean = sum(i * c for band in range(3) for i, c in enumerate(hist[256 * band:256 * band + 256])
               ) / (3 * n)
    r, g, b = (band.point(lambda v: 255 if v > SHADE else 0) for band in diff.split())
    off = ImageChops.lighter(ImageChops.lighter(r, g), b).histogram()[255] / n
    return mean, off


@pytest.mark.parametrize("name", sorted(CASES))
def test_picture_matches_its_golden_image(name: str) -> None:
    data = CASES[name]()
    path = GOLDEN / name
    if REGOLD:
        path.write_bytes(data)
    expected = Image.open(path)
    actual = Image.open(io.BytesIO(data))
    assert actual.size == expected.size
    mean, off = _difference(actual, expected)
    assert mean <= MEAN_TOLERANCE, f"{name}: mean difference {mean:.2f}"
    assert off <= PIXEL_TOLERANCE, f"{name}: {off:.2%} of the pixels differ"


def test_the_comparison_sees_a_card_out_of_place() -> None:
    # The tolerance is meant for shades, not for a drawing that changed: moving one digit to
    # another cell must fail it.
    a = Image.open(io.BytesIO(images.render_slate({"1": "Odd"}, EN)))
    b = Image.open(io.BytesIO(images.render_slate({"2": "Odd"}, EN)))
    mean, off = _difference(a, b)
    assert mean > MEAN_TOLERANCE or off > PIXEL_TOLERANCE
