"""Issue 16: ``/rithmo rules``' pictures are real engine positions. Each capture page shows a
capture the engine allows, by the method the page names; each move page dots the moves the engine
plays; the victories page shows an arrangement the engine counts as an excellent victory. The
names are the rules page's (the six captures, the victories), in both languages."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.i18n import image_words, t
from bot.rithmo import Board, Move, parse_square
from bot.ui import rithmo_rules as rules
from images.board import Geometry
from images.rithmo_rules import render_lesson

CAPTURES = ("encounter", "ambush", "assault", "power", "progression", "emprisonment")
FRENCH = ("rencontre", "embuscade", "assaut", "puissance", "progression", "emprisonnement")


def test_the_pages_cover_the_moves_the_six_captures_and_the_victories() -> None:
    assert ("board", "round", "triangle", "square", "leaps", *CAPTURES, "turn",
                           "victories") == rules.PAGES


@pytest.mark.parametrize("page", CAPTURES)
def test_each_capture_page_shows_a_capture_the_engine_allows_by_that_method(page: str) -> None:
    lesson = rules.BY_PAGE[page]
    assert lesson.method == page
    board = lesson.board()
    options = [o for o in board.capture_options()
               if o["victim"] == lesson.victim and o["method"] == page]
    assert options, board.capture_options()
    capturers = lesson.marks()["capturers"]
    assert capturers and set(capturers) == {s for o in options for s in o["by"]}
    assert lesson.victim in {str(c)[1:] for c in board.captures()}
    # The capture is played: taken, and the taker's side has the piece.
    victim = board.piece_at(lesson.victim)
    assert victim is not None and victim.side != board.turn
    board.play(f"x{lesson.victim}")
    assert board.piece_at(lesson.victim) is None


@pytest.mark.parametrize("page", ["round", "triangle", "square", "leaps"])
def test_each_move_page_dots_exactly_the_moves_the_engine_plays(page: str) -> None:
    lesson = rules.BY_PAGE[page]
    board = lesson.board()
    kind = "moves" if lesson.regular else "leaps"
    dotted = rules.Lesson.marks(lesson)[kind]
    assert dotted
    played = set()
    for mover in lesson.movers:
        for target in lesson.targets(board, mover):
            turn = board.push(f"{mover}-{target}")  # legal: the engine plays it
            assert isinstance(turn.move, Move) and turn.move.irregular == (page == "leaps")
            board.pop()
            played.add(target)
    assert played == set(dotted)
    # And nothing else of that kind: every other square refuses (or is the other kind).
    others = {m for m in board.legal_moves() if m.frm in {parse_square(s) for s in lesson.movers}
              and m.irregular == (page == "leaps")}
    assert {str(m).split("-")[1] for m in others} == set(dotted)
    text = rules.page_text(page, "en")
    assert all(sq in text for sq in dotted)


def test_the_victories_page_shows_an_excellent_proper_victory() -> None:
    assert rules.arrangement_wins()
    assert set(rules.BY_PAGE["victories"].line) == set(rules.ARRANGEMENT)


@pytest.mark.parametrize(("lang", "names"), [("en", CAPTURES), ("fr", FRENCH)])
def test_the_captures_are_named_as_the_rules_page_names_them(lang: str, names: tuple) -> None:
    for number, (page, said) in enumerate(zip(CAPTURES, names, strict=True), start=1):
        title = t(f"rithmo.rules.pages.{page}.title", lang).lower()
        assert title.endswith(said) and f"{number} " in title
    victories = rules.page_text("victories", lang).lower()
    words = (["body", "goods", "proceeds", "lawsuit", "honour", "mediocre", "great",
              "excellent"] if lang == "en" else
             ["corps", "biens", "revenus", "procès", "honneur", "petite", "grande",
              "excellente"])
    assert all(w in victories for w in words)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_page_has_its_text_and_its_picture_described(lang: str) -> None:
    for lesson in rules.LESSONS:
        assert rules.page_text(lesson.page, lang)
        if lesson.picture:
            assert rules.page_alt(lesson.page, lang)
            image = Image.open(io.BytesIO(rules.draw_picture(lesson.page, lang)))
            assert image.width == Geometry().width


def test_a_victim_is_framed_on_its_own_square() -> None:
    """The marks land on the squares the engine named (the same geometry as every board)."""
    lesson = rules.BY_PAGE["power"]
    png = render_lesson(lesson.board().to_json(), image_words("en"),
                        {"victims": ["b3"]})
    image = Image.open(io.BytesIO(png)).convert("RGB")
    x0, y0, _, _ = Geometry().square_box("b3")
    red = image.getpixel((x0 + 3, y0 + 30))
    assert red[0] > 180 and red[2] < 80, red
    with pytest.raises(ValueError):
        render_lesson(Board.start().to_json(), image_words("en"),
                      {"arrows": ["b3"]})
