"""The live round in a class room (issue 30): ``GET /room/live`` shows the round running for the
room's class (``bot.play.web_live``), ``GET /room/live/events`` pushes its changes to the page
(Server-Sent Events, read by ``static/live.js``), ``POST /room/live/answer`` takes an answer.

**Answers** go through this process's live conductor (``LiveFlows.web_answer``): the same stored
round, timers, extra time and ranking as the answers typed on Discord. With JavaScript the form
posts with ``fetch`` (``Accept: application/json``) and the page shows "right"/"wrong" in place;
without it, the post answers with the page.

**Several processes: any process reads and writes through the shared database.** A page may be
served by a process that does not run the round (another shard's, or a web-only one): the round
is read from the database, and an answer is taken by this process's conductor on the stored
round (with several processes, ``ARDOISE_SHARDS``, ``LiveRounds.load`` reads the stored version
before using its copy, so no copy another process went past is saved over).
The push watches the stored rounds: one watcher per server with pages open, per process
(``ServerWatch``), polls the versions of the server's running rounds every ``POLL`` seconds
(one small query, whatever the number of pages), reads a round's state only when its version
moved, and tells every open stream of that server when the phase of a round changes (another
question, a question closed or paused, the round over, a new round). A change this process makes
itself wakes the watcher at once (``LiveFlows.watch_live``). A page without JavaScript has its
"refresh" link.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from aiohttp import web

from bot.domain import DomainError
from bot.focus import Question
from bot.play import web_live, web_rooms
from bot.play.focus_live import LiveState
from bot.play.web_live import LivePhase, LiveView, Mark
from bot.services import Services
from bot.texts import digit_groups
from bot.ui.focus_live import LIVE_FLOWS, LiveFlows
from bot.ui.focus_run import expected_text, placeholder, question_label, value_text
from bot.web import pages

log = logging.getLogger(__name__)

routes = web.RouteTableDef()

#: Seconds between two looks at the stored rounds (the push of a change made by another
#: process comes this late at most; this process's own changes come at once).
POLL = 0.5
#: Seconds between two keep-alive comments of an event stream when nothing changes (proxies
#: close a silent connection), and between two looks at whether the room was closed.
KEEPALIVE = 15.0
#: The longest answer read (an answer is a number: a few characters).
MAX_ANSWER = 100


# --- The push: one watcher per server, per process ---------------------------------------------


class ServerWatch:
    """A server's running rounds, watched for the pages open on it: their marks (id, channel,
    version) and each round's phase, kept up to date from the database and from this process's
    own changes; every open stream's event is set when a phase changes."""

    def __init__(self, hub: LiveWatch, guild_id: int) -> None:
        self.hub = hub
        self.guild_id = guild_id
        self.marks: list[Mark] = []
        self.phases: dict[int, tuple[int, LivePhase]] = {}
        self.streams: set[asyncio.Event] = set()
        self.wake = asyncio.Event()
        self.ready = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def key(self, channel_id: int | None) -> str:
        """The phase a room of that channel shows now (``web_live.WAITING``: no round)."""
        mark = web_live.room_mark(self.marks, channel_id)
        if mark is None:
            return web_live.WAITING
        known = self.phases.get(mark[0])
        return known[1].key if known is not None else f"{mark[0]}:?"

    def _signature(self) -> tuple[object, ...]:
        return (tuple(m[:2] for m in self.marks),
                tuple(sorted((k, v[1].key) for k, v in self.phases.items())))

    def _tell(self) -> None:
        for event in self.streams:
            event.set()

    async def poll(self) -> None:
        db = self.hub.services.db
        marks = await web_live.marks_of(db, self.guild_id)
        before = self._signature()
        for live_id, _, version in marks:
            known = self.phases.get(live_id)
            if known is None or known[0] < version:
                live = await web_live.state_of(db, live_id)
                if live is not None:
                    self._learn(live)
        running = {m[0] for m in marks}
        self.phases = {k: v for k, v in self.phases.items() if k in running}
        self.marks = marks
        if self._signature() != before:
            self._tell()

    def _learn(self, live: LiveState) -> bool:
        """Keep ``live``'s phase unless a newer version is known; whether the phase changed."""
        known = self.phases.get(live.live_id)
        if known is not None and known[0] >= live.version:
            return False
        phase = web_live.phase_of(live)
        self.phases[live.live_id] = (live.version, phase)
        return known is None or known[1] != phase

    def noticed(self, live: LiveState) -> None:
        """This process saved ``live``: its phase at once; a new or finished round is looked
        up in the database at once too (the marks change)."""
        new = live.live_id not in {m[0] for m in self.marks}
        if self._learn(live):
            self._tell()
        if new or live.status != "active":
            self.wake.set()

    async def run(self) -> None:
        while self.streams and not self.hub.closing:
            self.wake.clear()
            try:
                await self.poll()
            except Exception:  # the database busy or gone a moment: try again at the next look
                log.exception("watching the live rounds of server %s failed", self.guild_id)
            self.ready.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), POLL)


class LiveWatch:
    """The watchers of this process's web server, by server (``ServerWatch``)."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.servers: dict[int, ServerWatch] = {}
        self.closing = False
        self._unlisten: Callable[[], None] | None = None

    def _listen(self) -> None:
        if self._unlisten is not None:
            return
        try:
            flows: LiveFlows = self.services.kept.get(LIVE_FLOWS)
        except RuntimeError:
            return  # no live conductor in this process (yet): the polls alone see changes
        self._unlisten = flows.watch_live(self._noticed)

    def _noticed(self, live: LiveState) -> None:
        watch = self.servers.get(live.guild_id)
        if watch is not None:
            watch.noticed(live)

    async def join(self, guild_id: int) -> tuple[ServerWatch, asyncio.Event]:
        """A new stream of ``guild_id``'s pages: its watcher (started if need be, and read
        once) and the event set when a phase changes."""
        self._listen()
        watch = self.servers.get(guild_id)
        if watch is None or watch.task is None or watch.task.done():
            watch = ServerWatch(self, guild_id)
            self.servers[guild_id] = watch
        event = asyncio.Event()
        watch.streams.add(event)
        if watch.task is None:
            watch.task = asyncio.create_task(watch.run(), name=f"web-live-{guild_id}")
        await watch.ready.wait()
        return watch, event

    def leave(self, watch: ServerWatch, event: asyncio.Event) -> None:
        watch.streams.discard(event)
        if not watch.streams:
            watch.wake.set()  # its loop sees nobody is left, and ends
            if self.servers.get(watch.guild_id) is watch:
                del self.servers[watch.guild_id]

    async def close(self) -> None:
        """The server stops: every stream ends, every watcher with it."""
        self.closing = True
        for watch in list(self.servers.values()):
            for event in watch.streams:
                event.set()
            watch.wake.set()
            if watch.task is not None:
                watch.task.cancel()
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None


WATCH: web.AppKey[LiveWatch] = web.AppKey("live_watch", LiveWatch)


def setup(app: web.Application, services: Services) -> None:
    """This module's part of the application: its watchers, ended as the server stops."""
    app[WATCH] = LiveWatch(services)

    async def stop(app: web.Application) -> None:
        await app[WATCH].close()

    app.on_shutdown.append(stop)


# --- The page ----------------------------------------------------------------------------------


def _question(question: Question, lang: str) -> str:
    """``7 + 8 =``, ``Simplify 12/16``, a teacher's question as written: in the language's
    way (``bot.texts.question_text``: ``22,4 − 5,3``), digits grouped as French groups them."""
    return digit_groups(question_label(question, lang), lang)


def _context(view: LiveView | None, lang: str) -> dict[str, Any]:
    if view is None:
        return {"view": None, "phase": web_live.WAITING, "last": None}
    context: dict[str, Any] = {"view": view, "phase": view.phase.key, "question": None,
                               "expected": None, "given": None, "placeholder": "",
                               "seconds": None}
    if view.question is not None:
        context["question"] = _question(view.question, lang)
        context["placeholder"] = placeholder(view.question, lang)
        if view.phase.state == "closed":
            context["expected"] = expected_text(view.question, lang)
    given = None if view.mine is None else view.mine.answer.given
    if view.mine is not None and given is not None:
        context["given"] = value_text(given, view.mine.answer.form, lang)
    if view.seconds_left is not None:
        context["seconds"] = int(view.seconds_left + 0.999)
    if view.next_in is not None:
        context["next_in"] = int(view.next_in + 0.999)
    return context


async def _view(request: web.Request) -> LiveView | None:
    seat = pages.seat(request)
    services = pages.services(request)
    assert seat.room is not None
    return await web_live.room_view(services.db, seat.guild_id, seat.room.channel_id,
                                    seat.user_id, services.clocks.wall())


def _live_page(request: web.Request, view: LiveView | None, *, status: int = 200,
               result: str | None = None, result_class: str = "",
               last: web_live.LastRound | None = None) -> web.Response:
    lang = pages.lang_of(request)
    context = _context(view, lang)
    if view is None:
        context["last"] = last
    return pages.render(request, "live.html", status=status, result=result,
                        result_class=result_class, **context)


@routes.get("/room/live")
@pages.require_seat()
async def live_page(request: web.Request) -> web.StreamResponse:
    view = await _view(request)
    last = None
    if view is None:  # between rounds: the student's own result in the one just over
        seat, services = pages.seat(request), pages.services(request)
        last = await web_live.last_round(services.db, seat.guild_id, seat.user_id,
                                         services.clocks.now())
    return _live_page(request, view, last=last)


# --- The push ----------------------------------------------------------------------------------


async def _send(response: web.StreamResponse, text: str) -> None:
    await response.write(text.encode("utf-8"))


@routes.get("/room/live/events")
@pages.require_seat()
async def live_events(request: web.Request) -> web.StreamResponse:
    """The room's round phase (``LivePhase.key``), sent as it changes; ``?phase=`` is the one
    the page shows (a change since the page was drawn is sent at once). An event ``closed``
    when the room closes, then the stream ends."""
    seat = pages.seat(request)
    assert seat.room is not None
    channel_id = seat.room.channel_id
    services = pages.services(request)
    hub = request.app[WATCH]
    response = web.StreamResponse(headers={
        "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store",
        "X-Accel-Buffering": "no"})  # nginx: pass every event on at once
    await response.prepare(request)
    watch, event = await hub.join(seat.guild_id)
    last = request.query.get("phase", "")[:60]
    try:
        await _send(response, "retry: 3000\n\n")
        while not hub.closing:
            event.clear()
            key = watch.key(channel_id)
            if key != last:
                await _send(response, f"data: {key}\n\n")
                last = key
            try:
                await asyncio.wait_for(event.wait(), KEEPALIVE)
            except TimeoutError:
                now = services.clocks.now()
                still = await web_rooms.seat_of(services.db,
                                                request.cookies.get(pages.SEAT_COOKIE))
                if still is None or not still.room_open(now):
                    await _send(response, "event: closed\ndata: closed\n\n")
                    break
                await _send(response, ": still here\n\n")
    except (ConnectionResetError, ConnectionError):
        pass  # the page was closed
    finally:
        hub.leave(watch, event)
    return response


# --- Answers -----------------------------------------------------------------------------------


def _wants_json(request: web.Request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _refused(request: web.Request, message: str, status: int, view: LiveView | None,
             *, reload: bool = False) -> web.Response:
    if _wants_json(request):
        return web.json_response({"ok": False, "message": message, "reload": reload},
                                 status=status)
    return _live_page(request, view, status=status, result=message, result_class="error")


@routes.post("/room/live/answer")
@pages.require_seat(open_room=False)
async def live_answer(request: web.Request) -> web.StreamResponse:
    form, seat, services, lang = await pages.posted(request)
    if not seat.room_open(services.clocks.now()):
        if _wants_json(request):
            return web.json_response(
                {"ok": False, "message": pages.text("web.closed", lang), "reload": True},
                status=410)
        return pages.render(request, "closed.html", status=410)
    assert seat.room is not None
    try:
        number = int(str(form.get("number", "")))
    except ValueError:
        number = 0
    typed = str(form.get("answer", ""))[:MAX_ANSWER]
    live_id = await web_live.room_round(services.db, seat.guild_id, seat.room.channel_id)
    if live_id is None or not 1 <= number <= 1000:
        return _refused(request, pages.text("errors.focus.live_no_question", lang), 409,
                        await _view(request), reload=True)
    try:
        flows: LiveFlows = services.kept.get(LIVE_FLOWS)
    except RuntimeError:
        return _refused(request, pages.text("web.failed", lang), 503, None)
    try:
        answered = await flows.web_answer(live_id, number, seat.user_id, seat.seat.nickname,
                                          typed)
    except DomainError as refusal:
        return _refused(request, pages.error_text(refusal, lang), 409, await _view(request),
                        reload=refusal.code in ("focus.live_no_question", "focus.live_finished"))
    if answered.unreadable is not None:
        message = pages.text("web_live.unreadable", lang,
                             reason=pages.error_text(answered.unreadable, lang))
        return _refused(request, message, 400, await _view(request))
    if answered.correct:
        message, kind = pages.text("web_live.right", lang, points=answered.points), "right"
    else:
        message, kind = pages.text("web_live.wrong", lang), "wrong"
    if _wants_json(request):
        return web.json_response({"ok": True, "correct": answered.correct,
                                  "points": answered.points, "message": message})
    return _live_page(request, await _view(request), result=message, result_class=kind)
