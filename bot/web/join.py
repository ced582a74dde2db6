"""Joining a room: the code, then a nickname (typed, or a generated animal and number), then the
room's home page; and the language switch.

``GET /`` asks for the code; ``POST /join`` reads it (a wrong code is said plainly, then the
address waits: ``bot.web.limits``) and goes on to ``/join/<CODE>``, which is also the link and
the QR code a teacher shows. ``POST /join/<CODE>`` seats the student and sets their cookie.
A student already seated in that room goes straight to ``/room``.
"""

from __future__ import annotations

import ipaddress
import math

from aiohttp import web

from bot.domain import DomainError
from bot.play import web_rooms
from bot.web import pages
from bot.web.limits import JoinLimiter
from db.web_rooms import RoomRow

LIMITER: web.AppKey[JoinLimiter] = web.AppKey("join_limiter", JoinLimiter)

routes = web.RouteTableDef()

#: The room's home page: what a student does there (each page its own module's routes).
ROOM_MENU = (("web.menu_live", "/room/live"), ("web.menu_homework", "/room/homework"),
             ("web.menu_practice", "/room/practice"))


def address(request: web.Request) -> str:
    """Who is trying codes: the peer's address, or behind a reverse proxy on this machine the
    address it forwards (``X-Forwarded-For``'s last entry, the one the proxy added)."""
    peer = request.remote or "?"
    try:
        local = ipaddress.ip_address(peer).is_loopback
    except ValueError:
        local = False
    forwarded = request.headers.get("X-Forwarded-For", "")
    if local and forwarded:
        return forwarded.split(",")[-1].strip()[:64] or peer
    return peer


@routes.get("/")
async def code_page(request: web.Request) -> web.StreamResponse:
    seat = await pages.load_seat(request)
    if seat is not None and seat.room_open(pages.services(request).clocks.now()):
        raise web.HTTPSeeOther("/room")
    return pages.render(request, "code.html", code="", error=None)


@routes.post("/join")
async def code_posted(request: web.Request) -> web.StreamResponse:
    form = await request.post()
    await pages.load_seat(request)
    pages.check_form(request, form)
    typed = str(form.get("code", ""))[:64]
    limiter = request.app[LIMITER]
    who = address(request)
    lang = pages.lang_of(request)
    waiting = limiter.wait(who)
    if waiting > 0:
        return _wait(request, typed, waiting)
    code = web_rooms.read_code(typed)
    room = None if code is None else await web_rooms.room_by_code(
        pages.services(request).db, code)
    if room is None:
        waits = limiter.missed(who)
        if waits > 0:
            return _wait(request, typed, waits)
        return pages.render(request, "code.html", status=404, code=typed,
                            error=pages.text("web.code_wrong", lang))
    limiter.succeeded(who)
    raise web.HTTPSeeOther(f"/join/{room.code}")


def _wait(request: web.Request, typed: str, seconds: float) -> web.StreamResponse:
    lang = pages.lang_of(request)
    whole = max(1, math.ceil(seconds))
    response = pages.render(request, "code.html", status=429, code=typed,
                            error=pages.text("web.code_wait", lang, count=whole))
    response.headers["Retry-After"] = str(whole)
    return response


async def _room(request: web.Request) -> RoomRow | None:
    code = web_rooms.read_code(request.match_info["code"])
    if code is None:
        return None
    return await web_rooms.room_by_code(pages.services(request).db, code)


@routes.get("/join/{code}")
async def nickname_page(request: web.Request) -> web.StreamResponse:
    room = await _room(request)
    now = pages.services(request).clocks.now()
    if room is None:
        raise web.HTTPSeeOther("/")
    if not room.is_open(now):
        return pages.render(request, "closed.html", status=410)
    seat = await pages.load_seat(request)
    if seat is not None and seat.room is not None and seat.room.room_id == room.room_id:
        raise web.HTTPSeeOther("/room")
    lang = pages.lang_of(request)
    return pages.render(request, "nickname.html", room=room, error=None, nickname="",
                        suggestion=web_rooms.generated_nickname(lang))


@routes.post("/join/{code}")
async def nickname_posted(request: web.Request) -> web.StreamResponse:
    form = await request.post()
    await pages.load_seat(request)
    pages.check_form(request, form)
    room = await _room(request)
    services = pages.services(request)
    now = services.clocks.now()
    if room is None:
        raise web.HTTPSeeOther("/")
    lang = pages.lang_of(request)
    typed = str(form.get("nickname", ""))[:200]
    if form.get("generated") and not typed.strip():
        typed = str(form.get("suggestion", ""))[:200]
    try:
        _, token = await web_rooms.join(services.db, room, typed, lang, now)
    except DomainError as error:
        if error.code == "web.room_closed":
            return pages.render(request, "closed.html", status=410)
        return pages.render(request, "nickname.html", status=400, room=room,
                            error=pages.error_text(error, lang), nickname=typed[:40],
                            suggestion=web_rooms.generated_nickname(lang))
    response = web.HTTPSeeOther("/room")
    pages.set_seat_cookie(request, response, token)
    raise response


@routes.get("/room")
@pages.require_seat()
async def room_page(request: web.Request) -> web.StreamResponse:
    seat = pages.seat(request)
    await web_rooms.seen(pages.services(request).db, seat, pages.services(request).clocks.now())
    lang = pages.lang_of(request)
    menu = [{"href": href, "label": pages.text(key, lang)} for key, href in ROOM_MENU]
    return pages.render(request, "room.html", room=seat.room, menu=menu)


@routes.get("/lang/{lang}")
async def switch_language(request: web.Request) -> web.StreamResponse:
    lang = request.match_info["lang"]
    target = pages.local_path(request.query.get("next"))
    response = web.HTTPSeeOther(target)
    if lang in pages.LANGS:
        response.set_cookie(pages.LANG_COOKIE, lang, httponly=True, samesite="Strict",
                            secure=pages.web_settings(request).secure, path="/",
                            max_age=365 * 24 * 3600)
    raise response
