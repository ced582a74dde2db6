"""Issue 16: one convention for squares everywhere, the contract's (files a–h, ranks 1–16,
White's first rank 1). Checked from the drawing's own geometry: the letter and the number
written beside each square name it, and a piece drawn on a square lands inside the rectangle of
the square the notation names."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

import images
from bot.i18n import image_words
from bot.rithmo import Board, name
from images.board import FILES, SQ, Geometry

EN = image_words("en")
ALL_SQUARES = [name(sq) for sq in range(128)]


def _inside(point: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    x, y = point
    return box[0] <= x < box[2] and box[1] <= y < box[3]


@pytest.mark.parametrize("flipped", [False, True])
def test_the_labels_beside_each_square_name_it(flipped: bool) -> None:
    g = Geometry(flipped)
    ranks, files = g.rank_labels(), g.file_labels()
    assert sorted({t for t, _ in ranks}, key=int) == [str(r) for r in range(1, 17)]
    assert sorted({t for t, _ in files}) == list(FILES)
    for square in ALL_SQUARES:
        x0, y0, x1, y1 = g.square_box(square)
        assert x1 - x0 == y1 - y0 == SQ
        # The number written above and below this square's column, the letter written left and
        # right of its row: together they are the square's name.
        numbers = {t for t, (x, _) in ranks if x0 <= x < x1}
        letters = {t for t, (_, y) in files if y0 <= y < y1}
        assert len(numbers) == len(letters) == 1, square
        assert f"{letters.pop()}{numbers.pop()}" == square
    # The labels are around the board, none on a square.
    board = (g.x0, g.y0, g.x0 + 16 * SQ, g.board_bottom)
    assert not any(_inside(p, board) for _, p in ranks + files)
    # Numbers along the long edges (top and bottom), letters along the short ones.
    assert all(y < g.y0 or y > g.board_bottom for _, (_, y) in ranks)
    assert all(x < g.x0 or x > board[2] for _, (x, _) in files)


def test_white_sees_its_first_rank_on_the_left_and_black_on_the_right() -> None:
    white, black = Geometry(False), Geometry(True)
    assert white.square_box("a1")[:2] == (white.x0, white.y0)
    assert black.square_box("h16")[:2] == (black.x0, black.y0)
    assert white.square_box("c4")[0] < white.square_box("c5")[0]  # ranks grow to the right
    assert black.square_box("c4")[0] > black.square_box("c5")[0]


def _png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.mark.parametrize("flipped", [False, True])
@pytest.mark.parametrize("square", ["a1", "c4", "h16", "f13", "b9"])
def test_a_piece_is_drawn_inside_the_square_the_notation_names(square: str,
                                                               flipped: bool) -> None:
    """The engine's position with one piece on ``square``, drawn: every pixel that changed
    from the empty board is inside ``square``'s rectangle (and its centre did change)."""
    board = Board.from_pieces({square: "R8"})
    position = board.to_json()
    assert [p["square"] for p in position["pieces"]] == [square]
    empty = _png(images.render_board({**position, "pieces": []}, EN, flipped=flipped))
    drawn = _png(images.render_board(position, EN, flipped=flipped))
    changed = ImageChops.difference(empty, drawn).getbbox()
    assert changed is not None
    box = Geometry(flipped).square_box(square)
    assert box[0] <= changed[0] and box[1] <= changed[1], (changed, box)
    assert changed[2] <= box[2] and changed[3] <= box[3], (changed, box)
    centre = ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
    assert empty.getpixel(centre) != drawn.getpixel(centre)


def test_the_picture_says_how_to_read_a_square_in_each_language() -> None:
    assert "c4" in EN("board_key") and "files a–h" in EN("board_key")
    fr = image_words("fr")("board_key")
    assert "c4" in fr and "colonnes a–h" in fr and "rangées 1–16" in fr
