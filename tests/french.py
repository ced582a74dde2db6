"""French as the bot sends it, for tests that compare its texts to an expected sentence.

The catalogue writes plain spaces before « : ; ! ? » and inside « »; the bot typesets every French
text (``bot.texts.typography``: no-break spaces, groups of digits). A test about something else
than typography writes its expected French as the catalogue does and compares with ``fr(…)``: the
same words, typeset the same way. The typography itself is tested in tests/test_typography.py.
"""

from __future__ import annotations

from bot.texts import typography


def fr(text: str) -> str:
    """``text`` typeset as French (idempotent: a text already typeset is unchanged)."""
    return typography(text, "fr")
