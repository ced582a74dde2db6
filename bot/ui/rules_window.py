"""A game's rules as a window of pages to turn: ``/digits rules`` and ``/rithmo rules``.

Each page is an embed (its title, its text, a footer "Page n of N") with, where the game draws
one, a picture and its description (alt text); Previous/Next turn the pages. The window is a
``bot.views.Windows`` entry: its buttons are ``DynamicItem``s (``bot.ui.pages.PageTurner``), so a
click after the window's 15 minutes, or after a restart, gets a sentence saying so, and only the
member who asked turns the pages (with ``show``, the channel reads them too). The pictures never
change for a language: each is drawn once, in a thread, and its bytes kept.

A game's module says only what differs, as a :class:`RulesBook`: its pages, their texts and
pictures, its catalogue keys, the prefix of its buttons' custom ids (``digits.rules:3``: buttons
already posted keep that format, and so keep working after a restart), its colour.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import ui

from bot import replies
from bot.i18n import t
from bot.services import Key
from bot.ui.pages import PagePictures, PageTurner, page_view, windows_of
from bot.views import Windows

#: How long a member may turn the pages of one window.
EXPIRY = 15 * 60.0


class RulesBook:
    """One game's rules pages and what its window says of them.

    ``keys`` is the catalogue's prefix: ``{keys}.pages.{page}.title``, ``{keys}.footer``,
    ``{keys}.previous``, ``{keys}.next``, ``{keys}.expired``; ``not_yours`` is the code refusing
    another member's click (written out, so that a search for it finds where it is raised).
    ``text(page, lang)`` and ``alt(page, lang)`` word a page, ``draw(page, lang)`` draws its PNG
    (slow: run in a thread by :attr:`picture`), and ``pictured(page)`` says whether the page has
    a picture at all. ``name`` names the game's
    live windows in the services (``"digits.rules"``)."""

    def __init__(self, name: str, *, keys: str, not_yours: str, prefix: str,
                 pages: Sequence[str], colour: int, picture_name: str,
                 text: Callable[[str, str], str],
                 alt: Callable[[str, str], str], draw: Callable[[str, str], bytes],
                 pictured: Callable[[str], bool] = lambda page: True) -> None:
        self.keys = keys
        self.not_yours = not_yours
        self.prefix = prefix
        self.pages = tuple(pages)
        self.colour = colour
        self.picture_name = picture_name
        self.text = text
        self.alt = alt
        self.pictured = pictured
        self.windows_key: Key[Windows[RulesWindow]] = Key(name, lambda: Windows(EXPIRY))
        #: The pages' pictures, drawn once for each language.
        self.picture = PagePictures(draw).get
        self.button = _page_button(self)

    def windows(self, client: discord.Client) -> Windows[RulesWindow]:
        """The live rules windows of a bot (a restarted bot has none: their clicks say so)."""
        return windows_of(self.windows_key, client)

    async def open(self, interaction: discord.Interaction, lang: str, show: bool) -> None:
        """The first page, privately unless ``show``; its buttons turn the pages for the
        member."""
        await interaction.response.defer(ephemeral=not show, thinking=True)
        window = RulesWindow(self, lang, interaction.user.id, interaction.user.display_name)
        files = await window.files()
        more: dict[str, Any] = {"files": files} if files else {}
        sent = await replies.followup(interaction, embed=window.embed(),
                                      view=window.view() or discord.utils.MISSING,
                                      ephemeral=not show, wait=True, **more)
        if sent is not None:
            self.windows(interaction.client).show(sent.id, window)


@dataclass
class RulesWindow:
    """The rules shown to one member: the game's book, the language they asked in, the page
    they are on."""

    book: RulesBook
    lang: str
    owner_id: int
    owner_name: str
    page: int = 0

    @property
    def name(self) -> str:
        """The page's name in the book (``"slate"``, ``"emprisonment"``…)."""
        return self.book.pages[self.page]

    @property
    def pages(self) -> int:
        return len(self.book.pages)

    def embed(self) -> discord.Embed:
        book = self.book
        embed = discord.Embed(title=t(f"{book.keys}.pages.{self.name}.title", self.lang),
                              description=book.text(self.name, self.lang), colour=book.colour)
        if book.pictured(self.name):
            embed.set_image(url=f"attachment://{book.picture_name}")
        embed.set_footer(text=t(f"{book.keys}.footer", self.lang, page=self.page + 1,
                                pages=self.pages))
        return embed

    async def files(self) -> list[discord.File]:
        """The page's picture with its description, or nothing for a page without one."""
        book = self.book
        if not book.pictured(self.name):
            return []
        return [discord.File(io.BytesIO(await book.picture(self.name, self.lang)),
                             book.picture_name, description=book.alt(self.name, self.lang))]

    def view(self) -> ui.View | None:
        return page_view(self, self.book.button, self.book.prefix, f"{self.book.keys}.previous",
                         f"{self.book.keys}.next")

    async def shown(self) -> dict[str, Any]:
        return {"embed": self.embed(), "attachments": await self.files(), "view": self.view()}


def _page_button(book: RulesBook) -> type[ui.DynamicItem[ui.Button[Any]]]:
    """The Previous/Next button of one book: a ``DynamicItem`` of its own (discord.py routes a
    click by template), matching ``{prefix}{page}``."""

    class RulesPage(PageTurner, ui.DynamicItem[ui.Button[Any]],
                    template=re.escape(book.prefix) + r"(?P<page>.+)"):
        """Previous or Next: shows the page its custom id names, if the window is still live
        and the member is the one who asked for it."""

        prefix = book.prefix
        windows_key = book.windows_key
        expired_key = f"{book.keys}.expired"
        not_yours_code = book.not_yours

    return RulesPage
