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
from images.texts import t

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

    def __init__(self, lang: str, width: int, height: int) -> None:
        self.lang = lang
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

    def _draw_card(self, unit: Unit, cell: int | None) -> Image.Image:
        w, h, lang = self.w, self.h, self.lang
        kind = unit.kind
        tier_colour = st.TIER[kind.tier]
        im, d = st.canvas(w, h, st.SLATE)
        r = max(6, h // 11)
        st.rounded(d, (0, 0, w - 1, h - 1), r, fill=st.PAPER)
        band_h = max(18, round(h * 0.22))
        st.rounded(d, (0, 0, w - 1, band_h + r), r, fill=tier_colour)
        d.rectangle((0, band_h, w - 1, band_h + r), fill=st.PAPER)
        d.line((0, band_h, w - 1, band_h), fill=st.INK, width=1)
        st.rounded(d, (0, 0, w - 1, h - 1), r, outline=st.INK, width=2)

        pad = max(8, w // 18)
        cy = band_h / 2 + 1
        x = pad
        if cell is not None:
            cr = band_h // 2 - 3
            d.ellipse((x, cy - cr, x + 2 * cr, cy + cr), fill=st.PAPER, outline=st.INK)
            st.text(d, (x + cr, cy), str(cell), st.font(max(9, cr + 3), True), st.INK, "mm")
            x += 2 * cr + 5
        st.pips(d, x, cy, kind.tier, 4, max(3, band_h // 6), st.INK, st.INK)
        st.pill(d, (w - pad + 2, cy), f"N{unit.level}", max(10, band_h // 2), st.INK, st.PAPER,
                anchor="rm", pad=4)

        # Name, with the role mark on its right when the digit is not a plain fighter.
        name_top = band_h + 3
        name_h = max(16, round(h * 0.22))
        mark = ROLE_MARK.get(kind.role)
        name_right = w - pad
        if mark is not None:
            word = t(lang, kind.role.value)
            rf = st.font(max(9, name_h // 2 - 1))
            mw = rf.getlength(word)
            mx = w - pad
            st.text(d, (mx, name_top + name_h * 0.70), word, rf, st.INK_SOFT, "rm")
            st.text(d, (mx - mw / 2, name_top + name_h * 0.22), mark,
                    st.font(max(9, name_h // 2), True), st.INK, "mm")
            name_right = mx - mw - 4
        name, nf = st.fit_text(kind.name(lang), name_right - pad, max(12, round(h * 0.19)),
                               min_size=9, bold=True)
        st.text(d, (pad, name_top + name_h / 2), name, nf, st.INK, "lm")

        # Stats: ATK, HP and the shield when there is one.
        top = name_top + name_h + 3
        bottom = h - pad + 1
        stats = [(t(lang, "atk"), unit.atk, st.PAPER_DIM, st.INK),
                 (t(lang, "hp"), unit.hp, st.PAPER_DIM, st.INK)]
        if unit.shield > 0:
            stats.append(("shield", unit.shield, st.SHIELD, st.PAPER))
        gap = 4
        bw = (w - 2 * pad - gap * (len(stats) - 1)) / len(stats)
        label_f = st.font(max(8, round((bottom - top) * 0.24)), True)
        for i, (label, value, bg, ink) in enumerate(stats):
            bx0 = round(pad + i * (bw + gap))
            box = (bx0, top, round(bx0 + bw), bottom)
            st.rounded(d, box, 5, fill=bg)
            if label == "shield":
                self._shield_icon(d, (box[0] + 3, top + 3), label_f.size, ink)
            else:
                st.text(d, (box[0] + 4, top + 2), label, label_f, st.INK_SOFT, "la")
            num_box = (box[0] + 2, top + label_f.size * 0.7, box[2] - 2, bottom)
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
            st.text(d, (w / 2, cy + h * 0.18), t(self.lang, "empty"),
                    st.font(max(9, h // 8)), st.CHALK_DIM, "mm")
        else:
            st.text(d, (w / 2, cy), t(self.lang, "empty"), st.font(max(9, h // 8)),
                    st.CHALK_DIM, "mm")
        return im
