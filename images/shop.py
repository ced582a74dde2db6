"""The shop: the five offers, the player's gold, round and lives, and the slate being built.

The shop state is a plain dict (the bot builds it from the match engine's shop)::

    {"offers": [{"digit": "Power", "frozen": false}, ... 5 entries; null for an empty slot],
     "gold": 7, "round": 7, "lives": 8,
     "slate": {"1": {"digit": "Odd", "level": 2}, ...},   # as render_slate takes it
     "lang": "fr"}                                          # ignored: ``words`` says it

Each offer shows its number (1–5, for the buy command), the tier as colour and pips, the name, the
cost in gold, ATK and HP at N1, the role and what it does at N1, in numbers
(``bot.digits.effects``). A frozen offer has a frosted, hatched strip with the word "frozen" and a
thick outline; an offer that costs more than the gold there is has its cost outlined instead of
filled. An offer that merges with an N1 copy on the slate has a green strip saying onto which cell;
on a full slate, the others are dimmed with a strip saying "slate full" (the rule is the bot's,
``bot.digits.placement.merge_cell``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from bot.digits.catalogue import DigitKind, find
from bot.digits.effects import effect
from bot.digits.placement import merge_cell
from bot.digits.slate import Slate
from images import style as st
from images.cards import ROLE_MARK, CardPainter, read_slate
from images.slate import paste_rows
from images.words import Words

_M = 18
_GAP = 12
_OFFER = (176, 256)
_SLATE_CARD = (206, 104)
_HEADER_H = 52


def render_shop(shop: Mapping[str, Any], words: Words) -> bytes:
    """PNG of a shop turn (see the module docstring for the ``shop`` dict)."""
    return st.to_png(shop_image(shop, words))


def shop_image(shop: Mapping[str, Any], words: Words) -> Image.Image:
    offers = list(shop.get("offers") or [])
    gold = int(shop.get("gold", 0))
    ow, oh = _OFFER
    width = 2 * _M + 5 * ow + 4 * _GAP
    sw, sh = _SLATE_CARD
    slate_h = 2 * (24 + sh) + _GAP
    height = _M + _HEADER_H + oh + 30 + 30 + slate_h + _M
    im, d = st.canvas(width, height)
    _header(d, width, words, shop)
    slate = Slate.from_json(shop.get("slate") or {})

    y = _M + _HEADER_H
    for i in range(5):
        x = _M + i * (ow + _GAP)
        offer = offers[i] if i < len(offers) else None
        if offer:
            onto = merge_cell(slate, find(str(offer["digit"])).key)
            mark = (words("offer_merges", cell=onto) if onto is not None
                    else words("offer_full") if slate.is_full() else None)
            im.paste(_offer_card(offer, i + 1, gold, words, mark, onto is not None), (x, y))
        else:
            _empty_offer(d, (x, y, x + ow, y + oh), i + 1, words)

    y += oh + 26
    st.text(d, (_M, y + 12), words("your_slate"), st.font(20, True), st.CHALK, "lm")
    y += 30
    painter = CardPainter(words, sw, sh)
    x = (width - (4 * sw + 3 * _GAP)) // 2
    paste_rows(im, d, painter, read_slate(shop.get("slate")), x, y, words)
    return im


def _header(d: ImageDraw.ImageDraw, width: int, words: Words, shop: Mapping[str, Any]) -> None:
    cy = _M + 16
    title = f"{words('shop')} · {words('round', n=int(shop.get('round', 1)))}"
    st.text(d, (_M, cy), title, st.font(24, True), st.CHALK, "lm")
    f = st.font(20, True)
    # Right to left: lives, then gold.
    x: float = width - _M
    lives = words.count("lives", int(shop.get("lives", 0)))
    x -= f.getlength(lives)
    st.text(d, (x, cy), lives, f, st.CHALK, "lm")
    _heart(d, x - 16, cy, 10)
    x -= 44
    gold = words.count("gold", int(shop.get("gold", 0)))
    x -= f.getlength(gold)
    st.text(d, (x, cy), gold, f, st.CHALK, "lm")
    coin(d, x - 16, cy, 10)


def coin(d: ImageDraw.ImageDraw, cx: float, cy: float, r: int) -> None:
    """Gold: a yellow disc with a dark ring and a dot, never shown without its number."""
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=st.YELLOW, outline=st.INK, width=2)
    d.ellipse((cx - r / 3, cy - r / 3, cx + r / 3, cy + r / 3), outline=st.INK, width=2)


def _heart(d: ImageDraw.ImageDraw, cx: float, cy: float, r: int) -> None:
    d.ellipse((cx - r, cy - r * 0.8, cx, cy + r * 0.2), fill=st.VERMILLION)
    d.ellipse((cx, cy - r * 0.8, cx + r, cy + r * 0.2), fill=st.VERMILLION)
    d.polygon([(cx - r + 0.5, cy - r * 0.15), (cx + r - 0.5, cy - r * 0.15), (cx, cy + r)],
              fill=st.VERMILLION)


def _offer_card(offer: Mapping[str, Any], number: int, gold: int, words: Words,
                note: str | None = None, merges: bool = False) -> Image.Image:
    """One offer; ``note``: the strip that says it merges (``merges``) or cannot be bought."""
    kind: DigitKind = find(str(offer["digit"]))
    frozen = bool(offer.get("frozen"))
    w, h = _OFFER
    im, d = st.canvas(w, h)
    r = 12
    st.rounded(d, (0, 0, w - 1, h - 1), r, fill=st.PAPER)
    band_h = 34
    st.rounded(d, (0, 0, w - 1, band_h + r), r, fill=st.TIER[kind.tier])
    d.rectangle((0, band_h, w - 1, band_h + r), fill=st.PAPER)
    d.line((0, band_h, w - 1, band_h), fill=st.INK, width=1)

    pad = 10
    cy = band_h / 2 + 1
    cr = 11
    d.ellipse((pad, cy - cr, pad + 2 * cr, cy + cr), fill=st.PAPER, outline=st.INK, width=2)
    st.text(d, (pad + cr, cy), str(number), st.font(14, True), st.INK, "mm")
    st.pips(d, pad + 2 * cr + 6, cy, kind.tier, 4, 4, st.INK, st.INK)
    # The cost, filled when the player can pay it, outlined when not.
    affordable = kind.cost <= gold
    label = str(kind.cost)
    f = st.font(17, True)
    pw = f.getlength(label) + 34
    box = (round(w - pad - pw), round(cy - 12), w - pad, round(cy + 12))
    st.rounded(d, box, 12, fill=st.INK if affordable else st.PAPER, outline=st.INK, width=2)
    coin(d, box[0] + 13, cy, 7)
    st.text(d, (box[2] - 9, cy + 1), label, f, st.PAPER if affordable else st.INK, "rm")

    y = band_h + 6
    name, nf = st.fit_text(kind.name(words.lang), w - 2 * pad, 22, 11, bold=True)
    st.text(d, (pad, y + 14), name, nf, st.INK, "lm")
    y += 30
    sub = words("tier", n=kind.tier)
    mark = ROLE_MARK.get(kind.role)
    if mark:
        sub += f" · {mark} {words(kind.role.value)}"
    st.text_in_box(d, (pad, y, w - pad, y + 16), sub, 13, st.INK_SOFT, min_size=9, align="l")
    y += 22
    # ATK and HP at N1.
    bw = (w - 2 * pad - 6) / 2
    for i, (lab, val) in enumerate(((words("atk"), kind.atk(1)), (words("hp"), kind.hp(1)))):
        bx = round(pad + i * (bw + 6))
        sbox = (bx, y, round(bx + bw), y + 40)
        st.rounded(d, sbox, 5, fill=st.PAPER_DIM)
        st.text(d, (bx + 5, y + 20), lab, st.font(12, True), st.INK_SOFT, "lm")
        st.text(d, (sbox[2] - 8, y + 21), str(val), st.font(24, True), st.INK, "rm")
    y += 48
    bottom = h - (34 if frozen else 10) - (26 if note else 0)
    lines, pf, lh = st.fit_paragraph(effect(kind.key, 1, words.lang), w - 2 * pad, bottom - y,
                                     15, 9)
    for i, line in enumerate(lines):
        st.text(d, (pad, y + i * lh), line, pf, st.INK, "la")
    if note:
        top = bottom + 2
        strip = (3, top, w - 4, top + 22)
        if merges:
            d.rectangle(strip, fill=st.GREEN)
            st.text_in_box(d, strip, note, 13, st.PAPER, bold=True, min_size=9)
        else:  # nowhere to go: the card is dimmed and says why
            im = Image.blend(im, Image.new(im.mode, im.size, st.SLATE), 0.45)
            d = ImageDraw.Draw(im)
            d.rectangle(strip, fill=st.INK)
            st.text_in_box(d, strip, note, 13, st.PAPER, bold=True, min_size=9)

    if frozen:
        strip = (3, h - 30, w - 4, h - 4)
        d.rectangle(strip, fill=st.ICE)
        st.hatch(d, strip, st.ICE_LINE, spacing=9, width=2)
        st.pill(d, (w / 2, (strip[1] + strip[3]) / 2), f"❄ {words('frozen')}", 14,
                st.PAPER, st.INK, outline=st.ICE_LINE)
        st.rounded(d, (0, 0, w - 1, h - 1), r, outline=st.ICE_LINE, width=5)
    else:
        st.rounded(d, (0, 0, w - 1, h - 1), r, outline=st.INK, width=2)
    return im


def _empty_offer(d: ImageDraw.ImageDraw, box: st.Box, number: int, words: Words) -> None:
    x0, y0, x1, y1 = box
    st.rounded(d, box, 12, fill=st.SLATE_LIGHT)
    st.dashed_rect(d, (x0 + 1, y0 + 1, x1 - 2, y1 - 2), st.SLATE_LINE)
    st.text(d, ((x0 + x1) / 2, (y0 + y1) / 2 - 14), str(number), st.font(26, True),
            st.CHALK_DIM, "mm")
    st.text(d, ((x0 + x1) / 2, (y0 + y1) / 2 + 16), words("bought"), st.font(14),
            st.CHALK_DIM, "mm")
