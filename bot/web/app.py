"""The class rooms' aiohttp application and the server the bot runs it in.

Every response carries a Content-Security-Policy of ``'self'`` (no inline script or style, no
outside origin), ``nosniff``, no referrer and no framing; pages are not cached (they hold a
student's seat). Request bodies are bounded (``MAX_BODY``). A refusal the pages did not catch is
one plain page, never a trace.

Several bot processes: each may run a web server (``ARDOISE_WEB``) on the same shared database;
rooms, seats, live rounds and answers are read and written there, so any process serves any
room (a live answer taken by one process is the same stored round the others read).
"""

from __future__ import annotations

import logging
import socket
from importlib import resources

from aiohttp import web

from bot.services import Key, Services
from bot.web import homework, join, live, pages, practice
from bot.web.limits import JoinLimiter

log = logging.getLogger(__name__)

#: The largest request body taken (an answer, a nickname, a code: a few hundred bytes).
MAX_BODY = 16 * 1024

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; "
       "object-src 'none'")

#: Modules adding their routes to the application (``routes``, an aiohttp RouteTableDef), and,
#: when they have one, their own part of it (``setup(app, services)``: what they keep, what
#: they stop as the server stops).
ROUTE_MODULES = (join, live, homework, practice)


@web.middleware
async def headers(request: web.Request, handler: pages.Handler) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as http:
        response = http
        if http.status >= 400 and http.content_type != "text/html" and not http.text:
            http.text = http.reason
    except Exception:
        log.exception("web page %s failed", request.path)
        response = pages.render(request, "message.html", status=500,
                                message=pages.text("web.failed", pages.lang_of(request)))
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Frame-Options"] = "DENY"
    if not request.path.startswith("/static/"):
        response.headers["Cache-Control"] = "no-store"
    if isinstance(response, web.HTTPException) and response.status >= 300:
        raise response
    return response


def build_app(services: Services, base_url: str = "") -> web.Application:
    """The application for ``services``' database and clocks; ``base_url`` is the public
    address (set again once the server is bound, ``WebServer.start``)."""
    app = web.Application(middlewares=[headers], client_max_size=MAX_BODY)
    app[pages.SERVICES] = services
    app[pages.SETTINGS] = pages.WebSettings(base_url)
    app[join.LIMITER] = JoinLimiter()
    for module in ROUTE_MODULES:
        app.router.add_routes(module.routes)
        setup = getattr(module, "setup", None)
        if setup is not None:
            setup(app, services)
    static = resources.files("bot.web") / "static"
    app.router.add_static("/static/", str(static), append_version=False)
    return app


class WebServer:
    """The web server the bot runs (``ARDOISE_WEB``): started in ``setup_hook``, stopped at
    ``close``. ``base_url`` is what the rooms' links and QR codes show."""

    def __init__(self, services: Services, host: str, port: int,
                 public_url: str | None = None) -> None:
        self.host = host
        self.port = port
        self.public_url = public_url
        self.app = build_app(services, public_url or "")
        self._runner: web.AppRunner | None = None

    @property
    def base_url(self) -> str:
        return self.app[pages.SETTINGS].base_url

    async def start(self) -> str:
        """Listen; the base address (with the port bound, when 0 asked for a free one)."""
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self._runner.setup()
        # A socket of our own, so that a port 0 (a free one, local play) is known once bound.
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host or "0.0.0.0", self.port))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        if not self.public_url:
            shown = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
            shown = f"[{shown}]" if ":" in shown else shown
            self.app[pages.SETTINGS].base_url = f"http://{shown}:{self.port}"
        log.info("class rooms' web server on %s", self.base_url)
        return self.base_url

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


#: The bot's web server, for the commands that show its address (``/class room open``).
WEB_SERVER: Key[WebServer] = Key("web.server")
