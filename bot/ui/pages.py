"""Private windows with pages: the Previous and Next buttons, and what a click on them does.

The rules pages, the class report and any other paged window share one behaviour: the buttons
survive a restart as :class:`~discord.ui.DynamicItem` (a click on a window the bot no longer
holds says it expired), only the member who opened the window turns its pages, the first page
has no Previous to click and the last no Next, and a forged page number is refused like any
forged component. A window class says only what differs: its pages, its texts, its message.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any, ClassVar, Protocol, Self

import discord
from discord import ui

from bot import replies
from bot.domain import DomainError
from bot.i18n import lang_for, t
from bot.replies import shown_name
from bot.services import Key, services_of_client
from bot.tree import report_error
from bot.views import W, Windows, button_of, component_int, invalid_component


class PagedWindow(Protocol):
    """What a paged window holds: who opened it, its language, the page shown, how many."""

    owner_id: int
    owner_name: str
    lang: str
    page: int

    @property
    def pages(self) -> int: ...

    async def shown(self) -> dict[str, Any]:
        """The message for the current page: ``embed``, ``attachments``, ``view``."""
        ...


def page_view(window: PagedWindow, button: type[ui.DynamicItem[Any]], prefix: str,
              previous_key: str, next_key: str) -> ui.View | None:
    """Previous and Next for ``window`` (None when it has one page): each button's custom id
    names the page it shows."""
    if window.pages <= 1:
        return None
    view = ui.View(timeout=None)
    for key, target in ((previous_key, window.page - 1), (next_key, window.page + 1)):
        view.add_item(button(ui.Button(
            label=t(key, window.lang), style=discord.ButtonStyle.secondary,
            custom_id=f"{prefix}{max(0, min(target, window.pages - 1))}",
            disabled=not 0 <= target < window.pages)))
    return view


def windows_of(key: Key[Windows[W]], client: discord.Client) -> Windows[W]:
    """The live windows of one bot under ``key`` in its services (a restarted bot has none)."""
    return services_of_client(client).kept.get(key)


class PagePictures:
    """The pictures of pages that never change for a language (rules pages): each drawn once,
    in a thread (``draw(page, lang) -> PNG``), then its bytes kept."""

    def __init__(self, draw: Callable[[str, str], bytes]) -> None:
        self._draw = draw
        self._drawn: dict[tuple[str, str], bytes] = {}

    async def get(self, page: str, lang: str) -> bytes:
        key = (page, lang)
        if key not in self._drawn:
            self._drawn[key] = await asyncio.to_thread(self._draw, page, lang)
        return self._drawn[key]


class PageTurner:
    """The behaviour of a Previous/Next button, mixed into a ``DynamicItem`` that gives the
    template: ``class RulesPage(PageTurner, ui.DynamicItem[ui.Button[Any]], template=…)``.

    A subclass says where its windows live (:attr:`windows_key`, in the services), the prefix of its
    custom ids, and the two refusals' keys: the window expired (``{minutes}``, also as
    ``count``), another member's window (a DomainError code, ``{name}`` given)."""

    prefix: ClassVar[str]
    windows_key: ClassVar[Key[Windows[Any]]]
    expired_key: ClassVar[str]
    not_yours_code: ClassVar[str]
    item: ui.Button[Any]

    def __init__(self, item: ui.Button[Any]) -> None:
        super().__init__(item)  # type: ignore[call-arg]  # DynamicItem's, next in the MRO

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any],
                             match: re.Match[str], /) -> Self:
        return cls(button_of(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        # discord.py only logs what a DynamicItem raises: the member reads it here instead.
        try:
            message = interaction.message
            windows = windows_of(type(self).windows_key, interaction.client)
            window = windows.get(None if message is None else message.id)
            if window is None:
                lang = await lang_for(interaction)
                minutes = int(windows.timeout // 60)  # said as a count where it has plurals
                await replies.respond(interaction, t(self.expired_key, lang, count=minutes,
                                                     minutes=minutes), ephemeral=True)
                return
            if interaction.user.id != window.owner_id:
                raise DomainError(self.not_yours_code, "another member's window",
                                  name=shown_name(window.owner_name))
            custom_id = self.item.custom_id or ""
            window.page = component_int(custom_id[len(self.prefix):], 0, window.pages - 1,
                                        "page")
            await replies.update(interaction, **await window.shown())
        except Exception as error:
            await report_error(interaction, error)


async def say_forged(interaction: discord.Interaction) -> None:
    """A page button its message does not show (only a modified client sends one): refused."""
    await report_error(interaction, invalid_component("page"))
