"""The shop window's words: what an action did (``move_text``, from the use case's result as
data), where a bought digit went, which offers merge, why the others cannot be bought on a full
slate, and what a digit on the slate does at its level.

``bot/ui/digits.py`` draws the window; this module says (issue 15, "A shop that does not trap").
The placement itself is the engine's pure rule ``bot.digits.placement``; a click on an offer the
window shows as not buyable (a forged click, or a window drawn before the slate changed) still goes
to the engine, which refuses it with the real reason and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.digits.catalogue import BY_KEY
from bot.digits.effects import effect
from bot.digits.placement import How, merge_cell
from bot.digits.shop import Shop
from bot.digits.slate import Piece, Slate
from bot.i18n import t
from bot.play.digits import Arranged, Frozen, Placed, Rerolled, ShopDone, Sold


def piece_text(piece: Piece, lang: str) -> str:
    return t("digits.piece", lang, digit=BY_KEY[piece.key].name(lang), level=piece.level)


def placed_text(placed: Placed, lang: str, slate: Slate) -> str:
    """Where the digit bought (or picked) went and why, and how to move it; ``slate`` is the
    slate after the buy (the digit the reason names stands there)."""
    piece, cell = placed.piece, placed.cell
    digit = piece_text(piece, lang)
    if placed.merged:
        return t("digits.shop.bought_merged", lang, digit=digit, cell=cell)
    ally = slate[placed.ally] if placed.ally is not None else None
    params: dict[str, Any] = {"digit": digit, "cell": cell, "ally_cell": placed.ally,
                              "ally": piece_text(ally, lang) if ally is not None else ""}
    key = {How.BEHIND: "behind", How.WAITING: "waiting", How.SUPPORT_FRONT: "support_front",
           How.RESERVE: "reserve"}.get(placed.how)
    if key is None:  # in the front row, with or without a support behind it
        key = "front_support" if ally is not None else "front"
    return " ".join([t(f"digits.place.{key}", lang, **params),
                     t("digits.place.move", lang, cell=cell)])


@dataclass(frozen=True)
class OfferState:
    """How the window shows one offer: its button's label and whether it can be clicked."""

    label: str
    disabled: bool
    merges: int | None  # the cell of the N1 copy it would merge onto


def offer_state(shop: Shop, slot: int, label: str, lang: str) -> OfferState:
    """The offer in ``slot`` (its plain button ``label``), marked when it merges with a digit of
    the slate, disabled and labelled "slate full" when it cannot go anywhere."""
    offer = shop.offers[slot - 1]
    if offer is None:
        return OfferState(label, True, None)
    onto = merge_cell(shop.slate, offer.key)
    if onto is not None:
        return OfferState(t("digits.offer.merges", lang, label=label), False, onto)
    if shop.slate.is_full():
        return OfferState(t("digits.offer.full", lang, label=label), True, None)
    return OfferState(label, False, None)


def full_note(shop: Shop, lang: str) -> str | None:
    """On a full slate, what can still be bought and how to make room; None otherwise."""
    if not shop.slate.is_full():
        return None
    slots = [slot for slot, offer in enumerate(shop.offers, 1)
             if offer is not None and merge_cell(shop.slate, offer.key) is not None]
    if not slots:
        return t("digits.offer.full_none", lang)
    return t("digits.offer.full_merging", lang, count=len(slots),
             slots=", ".join(map(str, slots)))


def cell_description(piece: Piece, lang: str) -> str:
    """A digit of the slate in the cells menu: what it does at its level, in numbers."""
    return effect(piece.key, piece.level, lang)[:100]


def move_text(done: ShopDone, lang: str, slate: Slate) -> str:
    """What a shop action did (``bot.play.digits.shop_move``'s result), for the window's first
    line; ``slate`` is the player's slate after it."""
    if isinstance(done, Placed):
        return placed_text(done, lang, slate)
    if isinstance(done, Rerolled):
        return t("digits.shop.rerolled", lang)
    if isinstance(done, Frozen):
        return t("digits.shop.frozen" if done.frozen else "digits.shop.unfrozen", lang,
                 slot=done.slot, digit=BY_KEY[done.key].name(lang))
    if isinstance(done, Sold):
        return t("digits.shop.sold", lang, digit=piece_text(done.piece, lang), gold=done.gold)
    assert isinstance(done, Arranged)
    if done.kind == "swapped" or done.piece is None:
        a, b = done.picked
        return t("digits.shop.swapped", lang, a=a, b=b)
    key = "digits.shop.merged" if done.kind == "merged" else "digits.shop.moved"
    return t(key, lang, digit=piece_text(done.piece, lang), cell=done.cell)
