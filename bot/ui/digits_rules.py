"""``/digits rules``: The 20 Digits explained to a student, in a few pages to turn.

Each page is an embed with a picture the game itself draws (cards, a shop, a slate, a battle),
short enough to read on a phone, and Previous/Next buttons. The numbers come from the engine
(``MatchSettings``' defaults, ``MAX_EXCHANGES``, the catalogue's roles), not from the texts, so
the pages say what the engine plays. ``docs/rules/`` stays the precise document for those who
work on the engine.

The pages are a window (``bot.views.Windows``): their buttons are ``DynamicItem``s, so a click
after the window's 15 minutes (or after a restart) gets a sentence saying so; only the member who
asked turns the pages (with ``show``, the channel reads them too). The pictures never change for
a language: each is drawn once, in a thread, and its bytes kept.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import ui

import images
from bot import replies
from bot.digits.battle import MAX_EXCHANGES, fight
from bot.digits.catalogue import BY_KEY, DIGITS, MAX_LEVEL, Role
from bot.digits.shop import FOCUS_MAX, MatchSettings
from bot.digits.slate import Slate
from bot.i18n import image_words, t
from bot.services import Key
from bot.ui.pages import PagePictures, PageTurner, page_view, windows_of
from bot.views import Windows
from images.rules import render_cards

PAGES = ("game", "round", "slate", "shop", "win")
PREFIX = "digits.rules:"
EXPIRY = 15 * 60.0
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


#: The pages' pictures, drawn once for each language.
picture = PagePictures(draw_picture).get


@dataclass
class RulesWindow:
    """The rules shown to one member: the language they asked in, the page they are on."""

    lang: str
    owner_id: int
    owner_name: str
    page: int = 0

    def embed(self) -> discord.Embed:
        name = PAGES[self.page]
        embed = discord.Embed(title=t(f"digits_info.rules.pages.{name}.title", self.lang),
                              description=page_text(name, self.lang), colour=COLOUR)
        embed.set_image(url=f"attachment://{PICTURE}")
        embed.set_footer(text=t("digits_info.rules.footer", self.lang, page=self.page + 1,
                                pages=len(PAGES)))
        return embed

    async def file(self) -> discord.File:
        name = PAGES[self.page]
        return discord.File(io.BytesIO(await picture(name, self.lang)), PICTURE,
                            description=page_alt(name, self.lang))

    @property
    def pages(self) -> int:
        return len(PAGES)

    def view(self) -> ui.View | None:
        return page_view(self, RulesPage, PREFIX, "digits_info.rules.previous",
                         "digits_info.rules.next")

    async def shown(self) -> dict[str, Any]:
        return {"embed": self.embed(), "attachments": [await self.file()], "view": self.view()}


_WINDOWS: Key[Windows[RulesWindow]] = Key("digits.rules", lambda: Windows(EXPIRY))


def rules_windows(client: discord.Client) -> Windows[RulesWindow]:
    """The live rules windows of a bot (a restarted bot has none: their clicks say so)."""
    return windows_of(_WINDOWS, client)


async def send_rules(interaction: discord.Interaction, lang: str, show: bool) -> None:
    """The first page, privately unless ``show``; its buttons turn the pages for the member."""
    await interaction.response.defer(ephemeral=not show, thinking=True)
    window = RulesWindow(lang, interaction.user.id, interaction.user.display_name)
    sent = await replies.followup(interaction, embed=window.embed(), file=await window.file(),
                                  view=window.view() or discord.utils.MISSING,
                                  ephemeral=not show)
    if sent is not None:
        rules_windows(interaction.client).show(sent.id, window)


class RulesPage(PageTurner, ui.DynamicItem[ui.Button[Any]],
                template=re.escape(PREFIX) + r"(?P<page>.+)"):
    """Previous or Next: shows the page its custom id names, if the window is still live and
    the member is the one who asked for it."""

    prefix = PREFIX
    windows_key = _WINDOWS
    expired_key = "digits_info.rules.expired"
    not_yours_code = "digits_info.rules_not_yours"


PERSISTENT_ITEMS: Sequence[type[ui.DynamicItem[Any]]] = (RulesPage,)
