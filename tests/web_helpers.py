"""Helpers of the class rooms' web tests (issue 30): a bot started against the stand-in with its
web server on 127.0.0.1 and a free port, a room opened through the use case, and ``Student``, an
HTTP client with its own cookies that fills in the form token of the last page like a browser."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.app import Ardoise
from bot.local.server import StandIn
from bot.play import web_rooms
from db.web_rooms import RoomRow

_CSRF = re.compile(r'name="csrf" value="([^"]*)"')


async def start_web_bot(start_bot: Callable[..., Awaitable[Ardoise]], **overrides: Any
                        ) -> Ardoise:
    """A bot with its web server on (``ARDOISE_WEB=127.0.0.1:0``)."""
    bot = await start_bot(web_listen=("127.0.0.1", 0), **overrides)
    assert bot.web is not None
    return bot


async def open_room(bot: Ardoise, standin: StandIn, *, name: str | None = None,
                    lang: str = "en", hours: int = 12, teacher_id: int | None = None) -> RoomRow:
    """A room of the stand-in's server, opened as ``/class room open`` does."""
    services = bot.services
    teacher = teacher_id if teacher_id is not None else standin.owner.id
    return await web_rooms.open_room(services.db, standin.guild.id, standin.channel.id,
                                     teacher, name, lang, services.clocks.now(), teaches=True,
                                     hours=hours)


@dataclass
class Page:
    status: int
    text: str
    url: str
    headers: Any

    @property
    def csrf(self) -> str | None:
        found = _CSRF.search(self.text)
        return found.group(1) if found else None


class Student:
    """One browser: its own cookies; ``post`` sends the form token of the last page shown."""

    def __init__(self, base_url: str, *, lang: str = "en") -> None:
        self.base = base_url
        self.session = aiohttp.ClientSession(
            cookie_jar=aiohttp.CookieJar(unsafe=True),
            headers={"Accept-Language": "fr-FR,fr;q=0.9" if lang == "fr" else "en-GB,en"})
        self.last: Page | None = None

    async def __aenter__(self) -> Student:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.session.close()

    async def _page(self, response: aiohttp.ClientResponse) -> Page:
        page = Page(response.status, await response.text(), str(response.url), response.headers)
        if "text/html" in response.headers.get("Content-Type", ""):
            self.last = page
        return page

    async def get(self, path: str, **kwargs: Any) -> Page:
        async with self.session.get(self.base + path, **kwargs) as response:
            return await self._page(response)

    async def post(self, path: str, data: dict[str, str], *, csrf: bool = True,
                   **kwargs: Any) -> Page:
        form = dict(data)
        if csrf and "csrf" not in form and self.last is not None and self.last.csrf:
            form["csrf"] = self.last.csrf
        async with self.session.post(self.base + path, data=form, **kwargs) as response:
            return await self._page(response)

    async def join(self, code: str, nickname: str) -> Page:
        """Code, then nickname: the room's home page (or the refusal met on the way)."""
        await self.get("/")
        page = await self.post("/join", {"code": code})
        if page.status != 200 or "/join/" not in page.url:
            return page
        return await self.post(f"/join/{code}", {"nickname": nickname})
