"""The images' caches give Pillow's own pixels: stroked text stamped from rendered masks, and
piece sprites reused from one board to the next (the bot draws a board after every turn)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

import images
from bot.i18n import image_words
from images import style as st
from tools import samples

EN, FR = image_words("en"), image_words("fr")


@pytest.mark.parametrize("stroke", [1, 2])
@pytest.mark.parametrize("anchor", ["la", "mm", "rm"])
@pytest.mark.parametrize("halo", [st.SLATE, st.CHALK, None])
def test_stamped_stroked_text_is_the_same_as_pillows_own(stroke: int, anchor: str,
                                                         halo: st.Colour | None) -> None:
    f = st.font(22, True)
    pictures = [st.canvas(160, 50) for _ in range(3)]
    for _, d in pictures[:2]:  # the second from the cache
        st.text(d, (80, 25), "T 36", f, st.CHALK, anchor, stroke=stroke, stroke_fill=halo)
    pictures[2][1].text((80, 25), "T 36", font=f, fill=st.CHALK, anchor=anchor,
                        stroke_width=stroke, stroke_fill=halo)
    first, cached, pillow = (im.tobytes() for im, _ in pictures)
    assert first == cached == pillow


def _in_a_new_thread(draw: Callable[[], bytes]) -> bytes:
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(draw).result()


def test_a_board_drawn_after_others_in_a_thread_is_the_same_as_one_drawn_afresh() -> None:
    crowded, turn = samples.crowded_position()
    start = samples.start_position()

    def after_others() -> bytes:
        images.render_board(start, EN)
        images.render_board(start, FR, None, True)
        return images.render_board(crowded, FR, turn, True)

    afresh = _in_a_new_thread(lambda: images.render_board(crowded, FR, turn, True))
    assert _in_a_new_thread(after_others) == afresh
