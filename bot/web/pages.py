"""What every page of the class rooms shares: the templates and texts, the language, the
student's seat, the per-session form token and the refusals.

- **Language**: ``?lang=`` through ``/lang/<fr|en>`` (a cookie), else the seat's, else the
  browser's ``Accept-Language`` (``fr…`` → French), else English.
- **Seat**: the ``ardoise_seat`` cookie (HttpOnly, SameSite=Strict, Secure behind HTTPS) holds a
  random token; ``seat_of`` finds the seat by its hash. ``require_seat`` sends a student without
  one to the code page, and one whose room is closed to the "closed" page.
- **Form token**: every form carries ``csrf``: the seat's own token once seated, else the
  random one of the ``ardoise_form`` cookie (a double submit); ``check_form`` refuses a post
  without the right one (403), changing nothing.
- **Texts** come from the catalogues (``cogs/locales/*/web*.json``) through ``bot.texts.t``, with
  Discord's Markdown taken out (``plain``); the templates escape everything they show.
"""

from __future__ import annotations

import hmac
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import jinja2
from aiohttp import web

from bot.domain import DomainError
from bot.play import web_rooms
from bot.play.web_rooms import Seat
from bot.services import Services
from bot.texts import has, t

SEAT_COOKIE = "ardoise_seat"
FORM_COOKIE = "ardoise_form"
LANG_COOKIE = "ardoise_lang"
LANGS = ("en", "fr")
#: A seat's cookie lasts as long as a room may (a room lasts 72 h at most).
SEAT_MAX_AGE = 72 * 3600

SERVICES: web.AppKey[Services] = web.AppKey("services", Services)

_MARKDOWN = re.compile(r"\*\*|__|~~|`|\|\|")


@dataclass
class WebSettings:
    """How the web server was started: its public base (``ARDOISE_WEB_URL``, else the address
    it listens on, known once bound) and whether cookies are ``Secure`` (an https base)."""

    base_url: str = ""

    @property
    def secure(self) -> bool:
        return self.base_url.startswith("https://")


SETTINGS: web.AppKey[WebSettings] = web.AppKey("web_settings", WebSettings)
#: What a request learnt on its way (the seat read once, the anonymous form token).
SEAT: web.RequestKey[Seat | None] = web.RequestKey("seat")
FORM_TOKEN: web.RequestKey[str] = web.RequestKey("form_token", str)


def plain(text: str) -> str:
    """A catalogue text without Discord's Markdown (the page styles its own words)."""
    return _MARKDOWN.sub("", text)


def text(key: str, lang: str, /, *, count: float | None = None, **params: Any) -> str:
    return plain(t(key, lang, count=count, **params))


def error_text(error: DomainError, lang: str) -> str:
    """A refusal in ``lang``: its own sentence (``errors.<code>``), else the generic one."""
    key = f"errors.{error.code}"
    if has(key, lang) or has(key) or has(f"{key}.other"):
        params: dict[str, Any] = {k: v for k, v in error.params.items()
                                  if isinstance(v, str | int | float)}
        try:
            return text(key, lang, **params)
        except (KeyError, ValueError):
            pass
    return text("errors.refused", lang)


_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("bot.web", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def services(request: web.Request) -> Services:
    return request.app[SERVICES]


def web_settings(request: web.Request) -> WebSettings:
    return request.app[SETTINGS]


def lang_of(request: web.Request) -> str:
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGS:
        return chosen
    seat: Seat | None = request.get(SEAT)
    if seat is not None and seat.seat.lang in LANGS:
        return seat.seat.lang
    accepted = request.headers.get("Accept-Language", "")
    first = accepted.split(",")[0].strip().lower()
    return "fr" if first.startswith("fr") else "en"


async def load_seat(request: web.Request) -> Seat | None:
    """The student's seat from their cookie (kept on the request), or None."""
    if SEAT not in request:
        request[SEAT] = await web_rooms.seat_of(services(request).db,
                                                  request.cookies.get(SEAT_COOKIE))
    seat: Seat | None = request[SEAT]
    return seat


def form_token(request: web.Request) -> str:
    """The token this page's forms carry (see the module's docstring)."""
    seat: Seat | None = request.get(SEAT)
    if seat is not None:
        return seat.seat.csrf
    token = request.get(FORM_TOKEN) or request.cookies.get(FORM_COOKIE)
    if not token or len(token) > 100:
        token = secrets.token_urlsafe(24)
    request[FORM_TOKEN] = token
    return token


def check_form(request: web.Request, form: Any) -> None:
    """Refuse (403) a post whose form token is missing or wrong."""
    given = str(form.get("csrf", "")) if form is not None else ""
    seat: Seat | None = request.get(SEAT)
    expected = seat.seat.csrf if seat is not None else request.cookies.get(FORM_COOKIE, "")
    if not expected or not given or not hmac.compare_digest(given, expected):
        raise web.HTTPForbidden(
            text=text("web.form_expired", lang_of(request)), content_type="text/plain")


def _with_cookies(request: web.Request, response: web.StreamResponse) -> web.StreamResponse:
    token = request.get(FORM_TOKEN)
    if token and request.cookies.get(FORM_COOKIE) != token:
        response.set_cookie(FORM_COOKIE, token, httponly=True, samesite="Strict",
                            secure=web_settings(request).secure, path="/")
    return response


def render(request: web.Request, template: str, *, status: int = 200,
           **context: Any) -> web.Response:
    """A page: ``template`` with the texts, the language, the seat and the form token."""
    lang = lang_of(request)
    seat: Seat | None = request.get(SEAT)

    def say(key: str, /, count: float | None = None, **params: Any) -> str:
        return text(key, lang, count=count, **params)

    body = _ENV.get_template(template).render(
        lang=lang, t=say, seat=seat, csrf=form_token(request), path=request.path_qs,
        other_lang="fr" if lang == "en" else "en", **context)
    response = web.Response(text=body, status=status, content_type="text/html",
                            charset="utf-8")
    _with_cookies(request, response)
    return response


def refusal(request: web.Request, error: DomainError, *, status: int = 400,
            template: str = "message.html", **context: Any) -> web.Response:
    """One clear, localised refusal; nothing changed."""
    return render(request, template, status=status,
                  message=error_text(error, lang_of(request)), **context)


def set_seat_cookie(request: web.Request, response: web.StreamResponse, token: str) -> None:
    response.set_cookie(SEAT_COOKIE, token, httponly=True, samesite="Strict",
                        secure=web_settings(request).secure, path="/", max_age=SEAT_MAX_AGE)


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def require_seat(*, open_room: bool = True) -> Callable[[Handler], Handler]:
    """A page for a seated student: without a seat, to the code page; with ``open_room``, a
    closed (or expired) room's page says it is closed (410) and takes no answer."""

    def wrap(handler: Handler) -> Handler:
        async def page(request: web.Request) -> web.StreamResponse:
            seat = await load_seat(request)
            if seat is None:
                raise web.HTTPSeeOther("/")
            if open_room and not seat.room_open(services(request).clocks.now()):
                return render(request, "closed.html", status=410)
            return await handler(request)

        page.__name__ = handler.__name__
        page.__doc__ = handler.__doc__
        return page

    return wrap


def seat(request: web.Request) -> Seat:
    """The seat ``require_seat`` found."""
    found: Seat | None = request.get(SEAT)
    assert found is not None, "require_seat first"
    return found


class Posted(NamedTuple):
    """A seated student's form, its token checked, and what its handler reads beside it."""

    form: Any
    seat: Seat
    services: Services
    lang: str


async def posted(request: web.Request) -> Posted:
    """The form a seated student posted (after ``require_seat``), refused (403) without its
    token (``check_form``)."""
    form = await request.post()
    check_form(request, form)
    return Posted(form, seat(request), services(request), lang_of(request))


def local_path(target: str | None, default: str = "/") -> str:
    """A path of this site to go back to (never another site's: no ``//host``, no scheme)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return default
    return target[:500]
