"""A row of digit cards for the rules pages of ``/digits rules``: one card as every picture draws
it (``images/cards.py``), or a merge written as a sum ("Odd N1 + Odd N1 → Odd N2").

The other pictures of the rules pages are the game's own (a slate, a shop, a battle); this one
is the card alone, larger, so that a student sees what ATK, HP and the marks are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from images import style as st
from images.cards import CardPainter, Unit
from images.words import Words

CARD = (200, 138)
_M = 18
_SIGN_W = 56
_GAP = 14  # between two cards with no sign between them
#: The signs a row may hold between its cards.
SIGNS = frozenset({"+", "→", "="})


def render_cards(items: Sequence[Mapping[str, Any] | str], words: Words) -> bytes:
    """PNG of cards left to right, each item a unit JSON ({"digit", "level", …}, as a slate's
    cell) or one of ``SIGNS`` drawn between them. Bad input raises ``ValueError``."""
    if not items:
        raise ValueError("a row of cards needs at least one item")
    cw, ch = CARD
    widths = []
    for item in items:
        if isinstance(item, str):
            if item not in SIGNS:
                raise ValueError(f"a sign between cards is one of {sorted(SIGNS)}, not {item!r}")
            widths.append(_SIGN_W)
        else:
            widths.append(cw)
    gaps = [_GAP if i and not isinstance(item, str) and not isinstance(items[i - 1], str) else 0
            for i, item in enumerate(items)]
    width = 2 * _M + sum(widths) + sum(gaps)
    height = 2 * _M + ch
    im, d = st.canvas(width, height)
    painter = CardPainter(words, cw, ch)
    x = _M
    for item, w, gap in zip(items, widths, gaps, strict=True):
        x += gap
        if isinstance(item, str):
            st.text(d, (x + w / 2, _M + ch / 2), item, st.font(34, True), st.CHALK, "mm")
        else:
            im.paste(painter.card(Unit.from_json(item)), (x, _M))
        x += w
    return st.to_png(im)
