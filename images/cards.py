"""The digit card: one digit of The 20 Digits as every picture shows it (slate, battle, replay,
shop), and the reading of the engines' JSON into units.

A card shows, from top to bottom: a band in the tier's colour with the tier as pips (●●○○ is tier
2) and the level (N1–N3); the digit's name in the player's language, shrunk to fit; ATK and HP (and
the shield when there is one); the role mark (✚ support, ➜ reach) when the digit is not a plain
fighter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.digits.catalogue import BY_KEY, DigitKind, Role
from bot.digits.slate import Piece
from images import style as st
from images.words import Words

ROLE_MARK = {Role.SUPPORT: "✚", Role.REACH: "➜"}


@dataclass(frozen=True, slots=True)
class Unit:
    """A digit as drawn: kind and level, and the ATK, HP and shield it has at that moment."""

    key: str
    level: int
    atk: int
    hp: int
    shield: int = 0

    @property
    def kind(self) -> DigitKind:
        return BY_KEY[self.key]

    @classmethod
    def from_json(cls, value: Any) -> Unit:
        """A unit from the engines' JSON: {"digit", "level", "atk", "hp", "shield"}; ATK and HP
        missing (a shop's slate) are the catalogue's stats at that level, shield missing is 0.
        A bare name or "Odd N2" is read as the battle command reads it."""
        piece = Piece.parse(value)
        kind = piece.kind
        atk = hp = shield = None
        if isinstance(value, Mapping):
            atk, hp, shield = value.get("atk"), value.get("hp"), value.get("shield")
        return cls(piece.key, piece.level,
                   int(atk) if atk is not None else kind.atk(piece.level),
                   int(hp) if hp is not None else kind.hp(piece.level),
                   int(shield) if shield else 0)


def read_slate(slate: Mapping[str, Any] | None) -> dict[int, Unit]:
    """Cells 1–8 → units, from a slate JSON object {"1": {...}, ...}; empty cells are absent."""
    units: dict[int, Unit] = {}
    for k, v in (slate or {}).items():
        if v is None:
            continue
        cell = int(k)
        if not 1 <= cell <= 8:
            raise ValueError(f"cells are 1 to 8, not {k!r}")
        units[cell] = Unit.from_json(v)
    return units


class CardPainter:
    """Draws cards of one size, remembering each card it has drawn during one picture (a replay
    redraws the same unchanged cards in many frames). Make one per picture: not shared."""

    def __init__(self, words: Words, width: int, height: int) -> None:
        self.words = words
        self.w = width
        self.h = height
        self._cache: dict[tuple[Any, ...], Image.Image] = {}

    def card(self, unit: Unit, cell: int | None = None) -> Image.Image:
        key = ("card", unit, cell)
        im = self._cache.get(key)
        if im is None:
            im = self._cache[key] = self._draw_card(unit, cell)
        return im

    def empty(self, cell: int | None = None) -> Image.Image:
        key = ("empty", cell)
        im = self._cache.get(key)
        if im is None:
            im = self._cache[key] = self._draw_empty(cell)
        return im

    # -- drawing ---------------------------------------------------------------------------

    def _geometry(self) -> dict[str, Any]:
        w, h = self.w, self.h
        band_h = max(18, round(h * 0.22))
        pad = max(8, w // 18)
        name_top = band_h + 3
        name_h = max(16, round(h * 0.22))
        return {"r": max(6, h // 11), "band_h": band_h, "pad": pad, "name_top": name_top,
                "name_h": name_h, "top": name_top + name_h + 3, "bottom": h - pad + 1}

    def _template(self, tier: int, shielded: bool, numbered: bool) -> Image.Image:
        """What all cards of one tier share: body, band with pips, outline, stat boxes and
        their labels. Drawn once per picture, then copied: rounded corners are slow to draw."""
        key = ("template", tier, shielded, numbered)
        im = self._cache.get(key)
        if im is not None:
            return im
        w, h, g = self.w, self.h, self._geometry()
        r, band_h, pad = g["r"], g["band_h"], g["pad"]
        im, d = st.canvas(w, h, st.SLATE)
        st.rounded(d, (0, 0, w - 1, h - 1), r, fill=st.PAPER)
        st.rounded(d, (0, 0, w - 1, band_h + r), r, fill=st.TIER[tier])
        d.rectangle((0, band_h, w - 1, band_h + r), fill=st.PAPER)
        d.line((0, band_h, w - 1, band_h), fill=st.INK, width=1)
        st.rounded(d, (0, 0, w - 1, h - 1), r, outline=st.INK, width=2)
        cy = band_h / 2 + 1
        x = pad + (2 * (band_h // 2 - 3) + 5 if numbered else 0)
        st.pips(d, x, cy, tier, 4, max(3, band_h // 6), st.INK, st.INK)
        top, bottom = g["top"], g["bottom"]
        label_f = st.font(max(8, round((bottom - top) * 0.24)), True)
        for box, label in self._stat_boxes(shielded):
            if label == "shield":
                st.rounded(d, box, 5, fill=st.SHIELD)
                self._shield_icon(d, (box[0] + 3, top + 3), round(label_f.size), st.PAPER)
            else:
                st.rounded(d, box, 5, fill=st.PAPER_DIM)
                st.text(d, (box[0] + 4, top + 2), label, label_f, st.INK_SOFT, "la")
        self._cache[key] = im
        return im

    def _stat_boxes(self, shielded: bool) -> list[tuple[st.Box, str]]:
        g = self._geometry()
        labels = [self.words("atk"), self.words("hp")] + (["shield"] if shielded else [])
        gap = 4
        bw = (self.w - 2 * g["pad"] - gap * (len(labels) - 1)) / len(labels)
        boxes = []
        for i, label in enumerate(labels):
            bx0 = round(g["pad"] + i * (bw + gap))
            boxes.append(((bx0, g["top"], round(bx0 + bw), g["bottom"]), label))
        return boxes

    def _draw_card(self, unit: Unit, cell: int | None) -> Image.Image:
        w, words = self.w, self.words
        kind = unit.kind
        g = self._geometry()
        band_h, pad = g["band_h"], g["pad"]
        im = self._template(kind.tier, unit.shield > 0, cell is not None).copy()
        d = ImageDraw.Draw(im)
        cy = band_h / 2 + 1
        if cell is not None:
            cr = band_h // 2 - 3
            d.ellipse((pad, cy - cr, pad + 2 * cr, cy + cr), fill=st.PAPER, outline=st.INK)
            st.text(d, (pad + cr, cy), str(cell), st.font(max(9, cr + 3), True), st.INK, "mm")
        st.pill(d, (w - pad + 2, cy), f"N{unit.level}", max(10, band_h // 2), st.INK, st.PAPER,
                anchor="rm", pad=4)

        # Name, with the role mark on its right when the digit is not a plain fighter.
        name_top, name_h = g["name_top"], g["name_h"]
        mark = ROLE_MARK.get(kind.role)
        name_right = w - pad
        if mark is not None:
            word = words(kind.role.value)
            rf = st.font(max(9, name_h // 2 - 1))
            mw = rf.getlength(word)
            mx = w - pad
            st.text(d, (mx, name_top + name_h * 0.70), word, rf, st.INK_SOFT, "rm")
            st.text(d, (mx - mw / 2, name_top + name_h * 0.22), mark,
                    st.font(max(9, name_h // 2), True), st.INK, "mm")
            name_right = mx - mw - 4
        name, nf = st.fit_text(kind.name(words.lang), name_right - pad,
                               max(12, round(self.h * 0.19)), min_size=9, bold=True)
        st.text(d, (pad, name_top + name_h / 2), name, nf, st.INK, "lm")

        # Stats: ATK, HP and the shield when there is one.
        top, bottom = g["top"], g["bottom"]
        label_size = max(8, round((bottom - top) * 0.24))
        values = [unit.atk, unit.hp] + ([unit.shield] if unit.shield > 0 else [])
        for (box, label), value in zip(self._stat_boxes(unit.shield > 0), values, strict=True):
            ink = st.PAPER if label == "shield" else st.INK
            num_box = (box[0] + 2, round(top + label_size * 0.7), box[2] - 2, bottom)
            st.text_in_box(d, num_box, str(value), round((bottom - top) * 0.62), ink,
                           bold=True, min_size=9)
        return im

    @staticmethod
    def _shield_icon(d: ImageDraw.ImageDraw, xy: tuple[float, float], size: int,
                     ink: st.Colour) -> None:
        x, y = xy
        s = size
        d.polygon([(x, y), (x + s, y), (x + s, y + s * 0.55), (x + s / 2, y + s * 1.05),
                   (x, y + s * 0.55)], outline=ink, width=2)

    def _draw_empty(self, cell: int | None) -> Image.Image:
        w, h = self.w, self.h
        im, d = st.canvas(w, h, st.SLATE)
        r = max(6, h // 11)
        st.rounded(d, (1, 1, w - 2, h - 2), r, fill=st.SLATE_LIGHT)
        st.dashed_rect(d, (2, 2, w - 3, h - 3), st.SLATE_LINE, width=2)
        cy = h / 2
        if cell is not None:
            st.text(d, (w / 2, cy - h * 0.12), str(cell), st.font(max(12, h // 4), True),
                    st.CHALK_DIM, "mm")
            st.text(d, (w / 2, cy + h * 0.18), self.words("empty"),
                    st.font(max(9, h // 8)), st.CHALK_DIM, "mm")
        else:
            st.text(d, (w / 2, cy), self.words("empty"), st.font(max(9, h // 8)),
                    st.CHALK_DIM, "mm")
        return im
