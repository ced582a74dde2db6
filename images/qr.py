"""A QR code of a link, as a PNG (``/class room open`` shows its join link so): a phone's
camera opens the room without typing its address.

Drawn by segno (pure Python, no system library): error correction M (a code photographed off a
projected screen or a printed page still reads with a smudge), 10 pixels a module and the
4-module quiet zone the standard asks for, black on white. Pure and deterministic, safe in a
worker thread (``await asyncio.to_thread(images.qr.png, link)``).
"""

from __future__ import annotations

import io

import segno

#: Pixels per module: a room's link (a version 3 or 4 code) makes a picture of 330 to 370 pixels,
#: large on a phone or a projector, small to send.
SCALE = 10


def png(text: str, *, scale: int = SCALE) -> bytes:
    """The QR code of ``text`` as PNG bytes."""
    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="png", scale=scale, border=4, dark="#000000", light="#ffffff")
    return out.getvalue()
