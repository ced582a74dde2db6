"""``/digits rules``: The 20 Digits explained to a student, in a few pages to turn.

Each page is an embed with a picture the game itself draws (cards, a shop, a slate, a battle),
short enough to read on a phone, and Previous/Next buttons. The numbers come from the engine
(``MatchSettings``' defaults, ``MAX_EXCHANGES``, the catalogue's roles), not from the texts, so
the pages say what the engine plays. ``docs/rules/`` stays the precise document for those who
work on the engine.

The window itself (its buttons, who may turn the pages, their expiry, the pictures drawn once) is
``bot/ui/rules_window.py``'s, shared with ``/rithmo rules``: this module gives its pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import ui

import images
from bot.digits.battle import MAX_EXCHANGES, fight
from bot.digits.catalogue import BY_KEY, DIGITS, MAX_LEVEL, Role
from bot.digits.shop import FOCUS_MAX, MatchSettings
from bot.digits.slate import Slate
from bot.i18n import image_words, t
from bot.ui.rules_window import EXPIRY as EXPIRY
from bot.ui.rules_window import RulesBook
from images.rules import render_cards

PAGES = ("game", "round", "slate", "shop", "win")
PREFIX = "digits.rules:"
COLOUR = 0x2A9D8F
PICTURE = "rules.png"

# The examples the pictures draw: plain engine data, the same in every language.
CARDS: tuple[dict[str, Any], ...] = ({"digit": "Odd", "level": 1}, {"digit": "Plus", "level": 1},
                                      {"digit": "Sigma", "level": 1})
MERGE = ({"digit": "Odd", "level": 1}, "+", {"digit": "Odd", "level": 1}, "→",
         {"digit": "Odd", "level": 2})
SLATE = {"1": "Odd", "2": "Minus", "3": "Zero", "4": "Even", "5": "Plus", "7": "Sigma",
         "8": "Double"}
FOE = {"1": "Prime", "2": "Half", "3": "Odd N2", "4": "Minus", "6": "Plus"}
SHOP_ROUND = 3
SHOP = {"offers": [{"digit": "Prime", "frozen": False}, {"digit": "Plus", "frozen": False},
                   {"digit": "Half", "frozen": True}, {"digit": "Odd", "frozen": False},
                   {"digit": "Twin", "frozen": False}],
        "gold": 7, "round": SHOP_ROUND, "lives": 10,
        "slate": {"1": "Odd", "2": "Even", "5": "Plus"}}


def _names(role: Role, lang: str) -> str:
    return ", ".join(kind.name(lang) for kind in DIGITS if kind.role is role)


def _losses(settings: MatchSettings, lang: str) -> str:
    """What a lost battle costs, round by round: "1 life in rounds 1 and 2, …"."""
    spans: list[tuple[int, int, int]] = []  # lives, first round, last round
    for index, lives in enumerate(settings.life_loss, start=1):
        if spans and spans[-1][0] == lives:
            spans[-1] = (lives, spans[-1][1], index)
        else:
            spans.append((lives, index, index))
    parts = []
    for number, (lives, first, last) in enumerate(spans):
        said = t("digits.lives", lang, count=lives)
        if number == len(spans) - 1:
            key = "loss_from"
        else:
            key = "loss_one" if first == last else "loss_pair" if last == first + 1 else "loss_span"
        parts.append(t(f"digits_info.rules.{key}", lang, lives=said, first=first, last=last))
    return ", ".join(parts)


def _battle(lang: str) -> dict[str, Any]:
    return fight(Slate.from_json(SLATE), Slate.from_json(FOE)).to_json()


def _example_names(lang: str) -> tuple[str, str]:
    return t("digits_info.rules.left", lang), t("digits_info.rules.right", lang)


def page_text(page: str, lang: str) -> str:
    """The text of one page, its numbers from the engine's defaults."""
    s = MatchSettings()
    params: dict[str, Any] = {
        "focus": FOCUS_MAX, "base": s.base_gold, "offers": s.offers, "reroll": s.reroll_cost,
        "sell": s.sell_per_level, "max": MAX_LEVEL, "exchanges": MAX_EXCHANGES,
        "lives": s.lives, "rounds": s.rounds, "losses": _losses(s, lang),
        "reach": _names(Role.REACH, lang), "support": _names(Role.SUPPORT, lang),
        "tiers": "\n".join(t("digits_info.rules.tier", lang, tier=tier, gold=gold, round=round_)
                           for tier, (gold, round_) in enumerate(
                               zip(s.tier_costs, s.tier_rounds, strict=True), start=1)),
    }
    return t(f"digits_info.rules.pages.{page}.text", lang, **params)


def page_alt(page: str, lang: str) -> str:
    """The picture's description (alt text): what it shows, in words."""
    if page == "game":
        cards = ", ".join(BY_KEY[c["digit"]].name(lang) for c in CARDS)
        return t("digits_info.rules.pages.game.alt", lang, cards=cards)
    if page == "round":
        return t("digits_info.rules.pages.round.alt", lang, round=SHOP_ROUND,
                 offers=len(SHOP["offers"]))  # type: ignore[arg-type]
    if page == "slate":
        cells = ", ".join(
            t("digits_info.rules.cell", lang, cell=cell,
              digit=t("digits.piece", lang, digit=piece.kind.name(lang), level=piece.level))
            for cell, piece in Slate.from_json(SLATE).items())
        return t("digits_info.rules.pages.slate.alt", lang, cells=cells)
    if page == "shop":
        return t("digits_info.rules.pages.shop.alt", lang, digit=BY_KEY["Odd"].name(lang))
    result = _battle(lang)
    left, right = _example_names(lang)
    exchanges = t("digits.exchanges", lang, count=result["exchanges"])
    winner = result["winner"]
    outcome = (t("digits_info.rules.draw", lang, exchanges=exchanges) if winner == "draw" else
               t("digits_info.rules.won", lang, exchanges=exchanges,
                 name=left if winner == "left" else right))
    return t("digits_info.rules.pages.win.alt", lang, left=left, right=right, outcome=outcome)


def draw_picture(page: str, lang: str) -> bytes:
    """The PNG of one page; slow (tens of milliseconds): run it in a thread."""
    words = image_words(lang)
    if page == "game":
        return render_cards(CARDS, words)
    if page == "round":
        return images.render_shop(SHOP, words)
    if page == "slate":
        return images.render_slate(SLATE, words, title=words("your_slate"))
    if page == "shop":
        return render_cards(MERGE, words)
    return images.render_battle(_battle(lang), words, names=_example_names(lang))


BOOK = RulesBook("digits.rules", keys="digits_info.rules",
                 not_yours="digits_info.rules_not_yours", prefix=PREFIX, pages=PAGES,
                 colour=COLOUR, picture_name=PICTURE, text=page_text, alt=page_alt,
                 draw=draw_picture)
rules_windows = BOOK.windows
PERSISTENT_ITEMS: Sequence[type[ui.DynamicItem[Any]]] = (BOOK.button,)


async def send_rules(interaction: discord.Interaction, lang: str, show: bool) -> None:
    """The first page, in ``lang``, privately unless ``show``."""
    await BOOK.open(interaction, lang, show)
