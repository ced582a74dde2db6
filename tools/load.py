"""Benchmark: the real bot under many members at once, through the stand-in for Discord.

    .venv/bin/python -m tools.load focus              # 200 members, a Focus round each
    .venv/bin/python -m tools.load rithmo             # 50 Rithmomachia games
    .venv/bin/python -m tools.load mixed              # both at the same time
    .venv/bin/python -m tools.load card               # /digits card and its autocomplete
    .venv/bin/python -m tools.load focus rithmo mixed card --members 200 --games 50
    .venv/bin/python -m tools.load web --students 200  # a class room's live question

Scenarios. A member acts ``--reaction`` seconds (default 0.2, a quick human's reaction) after
seeing what the bot showed, plus a random 0 to 2 × ``--think`` seconds (default 0): far quicker
than a student reading a question and typing its answer, so the members keep the bot as busy as
they can (a stress test); ``--think 1`` is closer to a class at work. (``--reaction 0`` works
too: members then click a new button the very moment the stand-in has it, which found that the
Focus window called a round expired when the click beat discord.py's registering of its view.)

- ``card``: ``--members`` members run ``/digits card`` at the same moment, then an autocomplete
  of its option, ``--rounds`` times (no reaction time: each burst at the same instant).
- ``focus``: ``--members`` members each play ``--rounds`` whole ``/focus practice`` rounds: the
  command, then for each of the six questions a click on the question's button (which opens a
  modal) and the modal submitted. The member reads the question from the modal's label and works
  it out with a small reader of the question's arithmetic (never ``eval``); about one answer in
  three is deliberately wrong, and the round's score shown at the end is checked.
- ``rithmo``: ``--games`` games between pairs of members, each in its own channel: the challenge,
  the Accept button, then ``--turns`` turns each by ``/rithmo move`` (preceded by one autocomplete
  of the turn being typed), each turn a random legal one from the members' own copy of the game
  (``bot.rithmo.Board``, fed the same turns as the bot's); the next player waits for the board
  the bot posts after each turn, as a player would, and the posted turn is checked.
- ``mixed``: ``focus`` and ``rithmo`` at the same time.
- ``web`` (issue 30, alone): ``--students`` browser students (default 200), each an HTTP client
  of its own (aiohttp, its own cookies) on this machine, join a class room with its code and a
  nickname and open the live page's event stream (``/room/live/events``), as ``live.js`` does;
  the teacher starts ``/focus live`` on the stand-in; the question is pushed to every stream,
  each student reads it from the page and, once all have it, all answer at the same instant
  (``POST /room/live/answer`` as the page's script posts it, about one in three wrong). Figures:
  from the click (the POST sent) to the response saying right or wrong: count, median, p95,
  max; then every answer is checked counted, in the stored round and in ``focus_answers``.
  The bot's web server listens on 127.0.0.1 and a free port (``ARDOISE_WEB``).

Figures: for each interaction, the stand-in's ``InteractionRecord.answer_time``, from sending the
event on the gateway to the bot's first answer (what Discord's 3-second limit measures), by kind
(slash, autocomplete, click, modal) and overall: count, median, 95th percentile, maximum. An
answer later than 3 s is an error (the stand-in refuses it, as Discord would), as is anything the
stand-in refuses or a member could not do. ``rithmo`` also gives the time from a turn sent to its
board posted (the image drawn, the message sent), what the next player waits for. Before the
measure, a small warm-up of the same scenario runs (2 members or 1 game), not counted. For each
process: its CPU time per interaction, and how long its event loop's thread was ready to run
but waited for its core (``/proc/<pid>/task/<pid>/schedstat``), behind other processes (on a
machine shared with other work) or behind the process's own worker threads.

Two processes, two cores (the default). The bot runs in a process of its own pinned to one core
(``--bot-core``, default 0); the stand-in and the members run in this process, pinned to the
other core (``--driver-core``, default 1); they talk over loopback TCP, the REST calls and the
gateway websocket, as the bot talks to Discord. The bot process is this module again
(``--serve-bot``), told where the stand-in is by the environment variable
``ARDOISE_STANDIN_URL`` (with ``DISCORD_TOKEN``, ``ARDOISE_DB`` and ``ARDOISE_TEST_GUILD``); only
``--serve-bot`` reads that variable, so the bot itself has no hook for it. The bot's CPU time is
then its own (read from ``/proc``) and its core does nothing else of the benchmark: the figures are
the bot's, plus loopback, plus the stand-in's answer to each request on the other core.
``--one-process`` runs bot, stand-in and members in one process on one core (the first version of
this benchmark): everything competes for that core, so its figures are an upper bound.
``--profile FILE`` writes a cProfile of the bot's event loop's thread to ``FILE`` and, in the
two-process mode, one of its other threads (aiosqlite's database threads, the pictures' and
battles' workers) merged into ``FILE.threads``: cProfile sees one thread, so each thread gets its
own profiler as it starts (``threading.setprofile``). ``python -m tools.bench.focus_compare
--profile`` reads both into the cost of each step of a Focus answer.

Experiments on the bot process (two-process mode): ``--thread-nice N`` runs the bot's worker
threads (``asyncio.to_thread``: pictures, battles) N steps nicer than its event loop instead of
``bot.background.NICENESS`` (``0``: as before that module); ``--render-process N`` draws every
picture in a worker process N steps nicer; ``--switch-interval S`` sets the interpreter's
``sys.setswitchinterval``.

Several bot processes (issue 18): ``--processes 2`` runs two bot processes, bot i on core
``--bot-core`` + i, each on its own shard (``ARDOISE_SHARDS=i``, ``ARDOISE_SHARD_COUNT=2``) of one
shared database (``--db``, a file or a server's URL; default a SQLite file), the stand-in and
the members beside them; ``--guilds N`` spreads the members over N servers, alternating between
the two shards. ``capacity`` measures how far that scales::

    .venv/bin/python -m tools.load capacity --processes 1,2 --levels 20,40,80,120,160

plays ``focus`` rounds with more and more members at once (``--levels``, starting one after the
other over ``--ramp`` 2 s, so that the load is a rate rather than one burst of commands),
first against one bot process, then against two, in one run, over 4 servers: for each step
the interactions a second, the first answers' 95th percentile and maximum, the bots' CPU an
interaction; then, for each number of processes, the most interactions a second served with a
p95 under 250 ms. A step past that bound ends the steps of its count.

Figures and what they taught are in ``docs/benchmarks.md`` ("The bot under load").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import dataclasses
import functools
import html
import logging
import math
import os
import pstats
import random
import re
import signal
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
import discord

from bot.app import create_bot
from bot.digits.catalogue import DIGITS
from bot.focus.questions import work_out
from bot.local.server import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Channel,
    Guild,
    InteractionRecord,
    Member,
    Message,
    StandIn,
)
from bot.play import web_rooms
from bot.rithmo import Board
from bot.settings import Config
from db import Database

log = logging.getLogger(__name__)

SCENARIOS = ("card", "focus", "rithmo", "mixed")
CAPACITY = "capacity"
KINDS = {APPLICATION_COMMAND: "slash", AUTOCOMPLETE: "autocomplete", MESSAGE_COMPONENT: "click",
         MODAL_SUBMIT: "modal"}
LATE = 3.0  # seconds: Discord's limit for a first answer
WAIT = 30.0  # seconds a member waits for a board before giving up (an error)
STANDIN_URL_ENV = "ARDOISE_STANDIN_URL"
ROOT = Path(__file__).resolve().parents[1]  # the project's root, where ``tools`` is found


# --- The members' arithmetic: the modal's question, worked out by the Focus engine's reader ----
# (``bot.focus.questions.work_out``: the terminal's ``answer right`` uses it too; never ``eval``)


def modal_question(modal: dict[str, Any]) -> str:
    """The question of a Focus answer modal: its text input's label, "7 + 8 =" → "7 + 8"."""
    for row in modal.get("components", []):
        if row.get("type") == 18 and row.get("label"):
            return str(row["label"]).removesuffix("=").strip()
        for component in row.get("components", []):
            if component.get("type") == 4 and component.get("label"):
                return str(component["label"]).removesuffix("=").strip()
    raise ValueError("the modal has no labelled text input")


# --- Figures ----------------------------------------------------------------------------------


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (``fraction`` 0.95: the 95th)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered) - 1e-9) - 1)]


@dataclass
class Figures:
    """What one scenario measured."""

    name: str
    description: str = ""
    seconds: float = 0.0
    #: (scenario, kind) → first-answer times in seconds.
    times: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    #: A turn sent → its board posted, seconds (rithmo).
    boards: list[float] = field(default_factory=list)
    late: int = 0
    unanswered: int = 0
    failures: list[str] = field(default_factory=list)
    standin_errors: list[str] = field(default_factory=list)
    #: Seconds of CPU of the bot's process, and seconds its event loop's thread waited for its
    #: core while ready to run; None when the bot shares this process.
    bot_cpu: float | None = None
    bot_wait: float | None = None
    #: The same for this process (stand-in and members; the bot too in one process).
    driver_cpu: float = 0.0
    driver_wait: float | None = None
    interactions: int = 0

    @property
    def errors(self) -> int:
        return self.late + self.unanswered + len(self.failures) + len(self.standin_errors)

    def all_times(self) -> list[float]:
        return [t for values in self.times.values() for t in values]

    def report(self) -> str:
        lines = [f"{self.name}: {self.description} ({self.seconds:.1f} s)"]
        per = max(1, self.interactions)
        def cpu(what: str, used: float, waited: float | None) -> str:
            text = (f"  {what}: {used / per * 1000:.2f} ms of CPU an interaction ({used:.2f} s)")
            if waited is not None:
                text += f"; its event loop waited {waited:.2f} s for the core"
            return text

        if self.bot_cpu is not None:
            lines.append(cpu("bot", self.bot_cpu, self.bot_wait))
            lines.append(cpu("stand-in and members", self.driver_cpu, self.driver_wait))
        else:
            lines.append(cpu("bot, stand-in and members", self.driver_cpu, self.driver_wait))
        lines.append("  first answer    kind           n  median     p95     max")
        scenarios = sorted({s for s, _ in self.times})
        order = ["slash", "autocomplete", "click", "modal", "answer"]
        for scenario in scenarios:
            kinds = sorted({k for s, k in self.times if s == scenario}, key=order.index)
            for kind in kinds:
                lines.append(_row(f"  {scenario:15} {kind:12}", self.times[(scenario, kind)]))
        everything = self.all_times()
        if everything:
            lines.append(_row(f"  {'all':15} {'all':12}", everything))
        if self.boards:
            lines.append(_row(f"  {'turn → board':15} {'posted':12}", self.boards))
        lines.append(f"  errors: {self.errors} ({self.late} answered after {LATE:g} s, "
                     f"{self.unanswered} never answered, {len(self.standin_errors)} refused by "
                     f"the stand-in, {len(self.failures)} failed members)")
        lines.extend(f"    {text}" for text in [*self.standin_errors, *self.failures][:10])
        return "\n".join(lines)


def _row(label: str, seconds: Sequence[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return (f"{label} {len(ms):6} {statistics.median(ms):7.1f} {percentile(ms, 0.95):7.1f} "
            f"{max(ms):7.1f}  ms")


# --- The members ------------------------------------------------------------------------------


@dataclass
class Driver:
    """The members' side: the stand-in, who plays which scenario, what went wrong."""

    standin: StandIn
    think: float = 0.0
    reaction: float = 0.0
    #: Seconds over which the Focus members start, one after the other (0: all at once).
    ramp: float = 0.0
    rng: random.Random = field(default_factory=lambda: random.Random(2026))
    #: The servers the members join, in turn (default: the stand-in's first server).
    guilds: Sequence[Guild] = ()
    roles: dict[int, str] = field(default_factory=dict)  # member id → scenario
    failures: list[str] = field(default_factory=list)
    boards: list[float] = field(default_factory=list)
    counter: int = 0

    def members(self, scenario: str, count: int) -> list[Member]:
        made = []
        for _ in range(count):
            self.counter += 1
            guild = self.guilds[self.counter % len(self.guilds)] if self.guilds else None
            member = self.standin.add_member(
                f"{scenario.capitalize()} {self.counter}",
                locale="fr" if self.counter % 2 else "en-US", guild=guild)
            self.roles[member.id] = scenario
            made.append(member)
        return made

    async def pause(self) -> None:
        """A member's time between seeing the bot's answer and acting on it."""
        seconds = self.reaction + (self.rng.uniform(0, 2 * self.think) if self.think > 0 else 0)
        if seconds > 0:
            await asyncio.sleep(seconds)

    async def guarded(self, who: str, action: Any) -> None:
        try:
            await action
        except Exception as error:  # a member's failure is a figure, not the end of the bench
            self.failures.append(f"{who}: {type(error).__name__}: {error}")

    # card -------------------------------------------------------------------------------------

    async def card(self, members: Sequence[Member], rounds: int) -> None:
        for round_ in range(rounds):
            await asyncio.gather(*(
                self.guarded(m.name, self.standin.slash(
                    m, "digits card", digit=DIGITS[(i + round_) % len(DIGITS)].key))
                for i, m in enumerate(members)))
            await asyncio.gather(*(
                self.guarded(m.name, self.standin.autocomplete(m, "digits card", "digit",
                                                                digit="p"))
                for m in members))

    # focus ------------------------------------------------------------------------------------

    async def focus(self, members: Sequence[Member], rounds: int) -> None:
        async def started(member: Member, index: int) -> None:
            if self.ramp > 0:
                await asyncio.sleep(self.ramp * index / len(members))
            await self.focus_member(member, index, rounds)

        await asyncio.gather(*(self.guarded(m.name, started(m, i))
                               for i, m in enumerate(members)))

    async def focus_member(self, member: Member, index: int, rounds: int) -> None:
        standin = self.standin
        await self.pause()
        window = (await standin.slash(member, "focus practice")).reply
        for round_ in range(rounds):
            if round_:
                await self.pause()
                again = _button(window, lambda c: c == "focus.run:practice:again")
                await standin.click(member, window, again)
            right = 0
            for question in range(6):
                await self.pause()
                button = _button(window, lambda c: c.startswith("focus.run:practice:")
                                 and not c.endswith(":again"))
                opened = await standin.click(member, window, button)
                if opened.modal is None:
                    raise AssertionError(f"no modal: {opened.reply.text()}")
                answer = work_out(modal_question(opened.modal))
                wrong = (index + question + round_) % 3 == 0
                right += not wrong
                await self.pause()
                await standin.submit_modal(member, opened,
                                           {"answer": str(answer + 1 if wrong else answer)})
            if f"{right}/6" not in window.text():
                raise AssertionError(f"the summary should say {right}/6: {window.text()!r}")

    # rithmo -----------------------------------------------------------------------------------

    async def rithmo(self, pairs: Sequence[tuple[Member, Member, Channel]], turns: int) -> None:
        await asyncio.gather(*(self.guarded(f"{w.name} v {b.name}",
                                            self.rithmo_game(w, b, channel, turns, i))
                               for i, (w, b, channel) in enumerate(pairs)))

    async def rithmo_game(self, white: Member, black: Member, channel: Channel, turns: int,
                          seed: int) -> None:
        standin = self.standin
        rng = random.Random(seed)
        await self.pause()
        posted = await standin.slash(white, "rithmo challenge", member=black, colour="white",
                                     in_channel=channel)
        challenge = posted.reply
        await self.pause()
        await standin.click(black, challenge,
                            _button(challenge, lambda c: c.startswith("rithmo.accept:")))
        shown = await standin.wait_for_message(lambda m: bool(m.attachments), after=challenge,
                                               timeout=WAIT)
        board = Board.start()  # the members' own copy, fed the same turns
        for ply in range(2 * turns):
            if not any(b["custom_id"].startswith("rithmo.play:") for b in shown.buttons()):
                return  # the game is over (a victory, or no turn left)
            mover = (white, black)[ply % 2]
            depth = len(board.history)
            while len(board.history) == depth:  # a random legal turn, step by step
                board.push_step(rng.choice(board.legal_steps()))
            notation = str(board.history[-1])
            await self.pause()
            await standin.autocomplete(mover, "rithmo move", "turn", turn=notation[:2],
                                       in_channel=channel)
            sent = time.perf_counter()
            answer = await standin.slash(mover, "rithmo move", turn=notation, in_channel=channel)
            if not answer.reply.ephemeral:
                raise AssertionError(f"turn {notation}: {answer.reply.text()!r}")
            shown = await standin.wait_for_message(lambda m: bool(m.attachments), after=shown,
                                                   timeout=WAIT)
            self.boards.append(time.perf_counter() - sent)
            if f"`{notation}`" not in shown.content:
                raise AssertionError(f"turn {ply + 1} {notation} refused or changed: "
                                     f"{answer.reply.text()!r} / {shown.content!r}")


def _button(message: Message, wanted: Callable[[str], bool]) -> str:
    for button in message.buttons():
        custom_id = str(button.get("custom_id", ""))
        if wanted(custom_id) and not button.get("disabled"):
            return custom_id
    raise AssertionError(f"no such button on the message: {message.text()!r}")


# --- The bot: in this process, or in its own --------------------------------------------------


def point_discord_at(base_url: str) -> None:
    """Make discord.py (in this process) talk to the stand-in at ``base_url`` (its REST API and
    gateway), as ``StandIn.point_discord_here`` does for a stand-in in the same process."""
    import discord.gateway
    import discord.http
    import yarl

    from bot.local.server import API_VERSION

    discord.http.Route.BASE = f"{base_url}/api/v{API_VERSION}"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        base_url.replace("http://", "ws://", 1) + "/gateway")


def _pin(core: int | None) -> None:
    if core is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {core})


def process_times(pid: int, *, children: bool = False) -> tuple[float, float | None]:
    """Seconds of CPU that process ``pid`` (and its living descendants, with ``children``) used
    so far, and seconds its main thread (the event loop) spent ready to run but waiting for its
    core, behind other processes or the process's own other threads (Linux's schedstat; None
    where it cannot be read)."""
    try:
        used = 0
        waited = int((Path(f"/proc/{pid}/task/{pid}") / "schedstat").read_text().split()[1])
        pids = [pid]
        while pids:
            for task in Path(f"/proc/{pids.pop()}/task").iterdir():
                used += int((task / "schedstat").read_text().split()[0])
                if children:
                    pids += [int(p) for p in (task / "children").read_text().split()]
        return used / 1e9, waited / 1e9
    except OSError:
        return (time.process_time() if pid == os.getpid() else 0.0), None


@dataclass
class Options:
    members: int = 200
    rounds: int = 1
    games: int = 50
    turns: int = 10
    think: float = 0.0
    reaction: float = 0.2
    one_process: bool = False
    bot_core: int | None = 0
    driver_core: int | None = 1
    profile: str | None = None
    warm_up: bool = True
    switch_interval: float | None = None
    db_dir: str | None = None
    render_process: int | None = None
    thread_nice: int | None = None
    #: Bot processes (two-process mode), each on its own shard of this many: ``ARDOISE_SHARDS``
    #: i of ``ARDOISE_SHARD_COUNT`` n, all on one database.
    processes: int = 1
    #: Seconds over which the Focus members start (0: all at the same instant).
    ramp: float = 0.0
    #: Servers the members are spread over (spread over the shards of 2 as well).
    guilds: int = 1
    #: The bots' shared database (``ARDOISE_DB``: a file, or a server's URL); default: a
    #: SQLite file in the temporary folder.
    database: str | None = None
    #: The class rooms' web server of the bot (``ARDOISE_WEB``, host and port), for ``web``.
    web: tuple[str, int] | None = None
    #: The bot process runs ``tools.bench.floor_bot`` (discord.py alone) instead of Ardoise.
    floor: bool = False


@contextlib.asynccontextmanager
async def running_bot(standin: StandIn, folder: Path, options: Options
                      ) -> AsyncIterator[Callable[[], tuple[float, float | None]] | None]:
    """The bot connected to ``standin``; yields a reader of the bot's ``process_times`` (None
    when the bot shares this process)."""
    database = options.database or str(folder / "bench.sqlite3")
    # One server: the commands synced to it (instant, as a test server); several: globally.
    test_guild = standin.guild.id if options.guilds == 1 else None
    if options.one_process:
        _pin(options.bot_core)
        standin.point_discord_here()
        settings = Config(token=standin.token, db_path=Path(database), test_guild=test_guild,
                          web_listen=options.web)
        bot = create_bot(settings, guild_ready_timeout=0.02)
        profiler = cProfile.Profile() if options.profile else None
        task = asyncio.create_task(bot.start(standin.token))
        try:
            await asyncio.wait_for(bot.wait_until_ready(), 30)
            if profiler is not None:
                profiler.enable()
            yield None
        finally:
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(options.profile)
            await standin.idle(timeout=30)
            await bot.close()
            await task
        return
    count = options.processes
    # Several bot processes: bot i on core bot_core + i; this process (stand-in and members)
    # then runs where the kernel puts it, beside them (this machine has two cores).
    _pin(options.driver_core if count == 1 else None)
    env = {**os.environ, STANDIN_URL_ENV: standin.base_url, "DISCORD_TOKEN": standin.token,
           "ARDOISE_DB": database}
    env.pop("ARDOISE_TEST_GUILD", None)
    env.pop("ARDOISE_WEB", None)
    if options.web is not None:
        env["ARDOISE_WEB"] = f"{options.web[0]}:{options.web[1]}"
    if test_guild is not None:
        env["ARDOISE_TEST_GUILD"] = str(test_guild)
    processes: list[asyncio.subprocess.Process] = []
    try:
        for index in range(count):
            command = [sys.executable, "-m", "tools.load", "--serve-bot"]
            if options.bot_core is not None:
                command += ["--bot-core", str((options.bot_core + index) % (os.cpu_count() or 1))]
            else:
                command += ["--no-pin"]
            if options.profile:
                command += ["--profile", str(Path(options.profile).resolve())
                            + (f".{index}" if count > 1 else "")]
            if options.switch_interval is not None:
                command += ["--switch-interval", str(options.switch_interval)]
            if options.render_process is not None:
                command += ["--render-process", str(options.render_process)]
            if options.thread_nice is not None:
                command += ["--thread-nice", str(options.thread_nice)]
            if options.floor:
                command += ["--floor"]
            shards = ({"ARDOISE_SHARDS": str(index), "ARDOISE_SHARD_COUNT": str(count)}
                      if count > 1 else {})
            # ``tools`` is not installed: the bot's process imports it from the project's root,
            # whatever the folder this process was started in.
            process = await asyncio.create_subprocess_exec(*command, env={**env, **shards},
                                                           cwd=ROOT)
            processes.append(process)
            # One after the other: the first creates the database and syncs the commands.
            wanted = (0, 1) if count == 1 else (index, count)
            waiting = asyncio.create_task(standin.wait_until(
                lambda wanted=wanted: wanted in standin.connected_shards, timeout=60))
            exited = asyncio.create_task(process.wait())
            done, _ = await asyncio.wait({waiting, exited}, return_when=asyncio.FIRST_COMPLETED)
            if waiting not in done:
                waiting.cancel()
                raise SystemExit(f"the bot process ended before connecting ({process.returncode})")
            exited.cancel()
            waiting.result()

        def times() -> tuple[float, float | None]:
            used, waited = 0.0, 0.0
            for process in processes:
                cpu, wait = process_times(process.pid, children=True)
                used += cpu
                waited = None if wait is None or waited is None else waited + wait
            return used, waited

        yield times
    finally:
        if any(p.returncode is None for p in processes):
            with contextlib.suppress(Exception):
                await standin.idle(timeout=30)
        for process in processes:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                await asyncio.wait_for(process.wait(), 30)
            except TimeoutError:
                process.kill()
                await process.wait()


def render_in_a_process(niceness: int) -> None:
    """An experiment (``--render-process``): every ``images.render_*`` of this process runs in
    one worker process of its own, ``niceness`` below the bot, while the calling thread waits
    without the interpreter lock. The worker inherits the bot's core."""
    import concurrent.futures
    import multiprocessing

    import images

    pool = concurrent.futures.ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("spawn"), initializer=os.nice,
        initargs=(niceness,))
    def remote(draw: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            return pool.submit(draw, *args, **kwargs).result()
        return run

    for name in [n for n in dir(images) if n.startswith("render_")]:
        setattr(images, name, remote(getattr(images, name)))


async def serve_bot(profile: str | None, thread_nice: int | None = None,
                    floor: bool = False) -> None:
    """The bot process of the two-process mode: the real bot against the stand-in named by the
    environment, until SIGTERM; with ``floor``, ``tools.bench.floor_bot`` instead (discord.py
    alone, the same exchanges for ``focus`` and ``card``)."""
    base_url = os.environ[STANDIN_URL_ENV]
    point_discord_at(base_url)
    # The bot's own reading of the environment: ARDOISE_SHARDS and ARDOISE_SHARD_COUNT too.
    settings = Config.from_env(env_file=None)
    bot: discord.Client
    if floor:
        from tools.bench.floor_bot import FloorBot

        bot = FloorBot(settings.test_guild, guild_ready_timeout=0.02)
    else:
        bot = create_bot(settings, guild_ready_timeout=0.02)
    if thread_nice is not None:
        import concurrent.futures
        asyncio.get_running_loop().set_default_executor(concurrent.futures.ThreadPoolExecutor(
            initializer=os.nice, initargs=(thread_nice,)))
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    # The wall clock, as cProfile's default: a CPU clock (time.thread_time) is a system call per
    # event, which slowed the bot so much that its answers came after Discord's 3 s.
    profiler = cProfile.Profile() if profile else None
    threads: list[cProfile.Profile] = []
    if profile:
        # Before the database opens (in the bot's setup): its threads start after this.
        threading.setprofile(functools.partial(_profile_thread, threads))
    async with bot:  # sets the client up, so that wait_until_ready can be awaited at once
        task = asyncio.create_task(bot.start(settings.token or ""))
        stopping = asyncio.create_task(stop.wait())
        # A bot waiting for its shards' lease (another process holds them) may be stopped
        # before it is ever ready.
        ready = asyncio.create_task(bot.wait_until_ready())
        await asyncio.wait({ready, stopping, task}, return_when=asyncio.FIRST_COMPLETED)
        ready.cancel()
        if profiler is not None and not stopping.done():
            profiler.enable()
        await asyncio.wait({task, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(profile)
            _dump_threads(threads, f"{profile}.threads")
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def _profile_thread(profiles: list[cProfile.Profile], *_: Any) -> None:
    """``threading.setprofile``'s hook, called once as a new thread starts: that thread gets a
    profiler of its own, which replaces this hook."""
    sys.setprofile(None)
    profiler = cProfile.Profile()
    profiles.append(profiler)
    profiler.enable()


def _dump_threads(profiles: Sequence[cProfile.Profile], path: str) -> None:
    """The threads' profiles merged into one file. Read under the interpreter lock while the
    threads may still run: each profiler's table is copied whole."""
    merged: pstats.Stats | None = None
    for profiler in list(profiles):
        profiler.snapshot_stats()
        if not profiler.stats:  # type: ignore[attr-defined]
            continue
        if merged is None:
            merged = pstats.Stats(profiler)
        else:
            merged.add(profiler)
    if merged is not None:
        merged.dump_stats(path)


# --- web: a class room's live question (issue 30) ------------------------------------------------

WEB = "web"
_CSRF = re.compile(r'name="csrf" value="([^"]*)"')
_QUESTION = re.compile(r'id="question">([^<]*)<')
_NUMBER = re.compile(r'name="number" value="(\d+)"')


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class WebStudent:
    """One browser: its own cookies, its event stream, the live page it last read."""

    nickname: str
    session: aiohttp.ClientSession
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    stream: asyncio.Task[None] | None = None
    csrf: str = ""
    number: str = ""
    answer: str = ""
    right: bool = False
    seconds: float = 0.0
    said: dict[str, Any] = field(default_factory=dict)

    async def join(self, base: str, code: str) -> None:
        async with self.session.get(f"{base}/") as response:
            csrf = _CSRF.search(await response.text())
        assert csrf is not None, "no form token on the code page"
        async with self.session.post(f"{base}/join", data={"code": code,
                                                            "csrf": csrf.group(1)}) as response:
            csrf = _CSRF.search(await response.text())
            assert response.status == 200 and csrf is not None, response.status
        async with self.session.post(f"{base}/join/{code}", data={
                "nickname": self.nickname, "csrf": csrf.group(1)}) as response:
            assert response.status == 200 and str(response.url).endswith("/room"), (
                response.status, await response.text())

    async def listen(self, base: str) -> None:
        """The page's EventSource: sets ``opened`` when a question opens."""
        async with self.session.get(f"{base}/room/live/events",
                                    params={"phase": "none"}) as response:
            async for line in response.content:
                text = line.decode().strip()
                if text.startswith("data: ") and text.endswith(":open"):
                    self.opened.set()

    async def read(self, base: str, rng: random.Random) -> None:
        """The live page, as the pushed change makes the script fetch it: the question worked
        out (about one answer in three deliberately wrong)."""
        async with self.session.get(f"{base}/room/live") as response:
            page = await response.text()
        csrf, number, question = (_CSRF.search(page), _NUMBER.search(page),
                                  _QUESTION.search(page))
        assert csrf and number and question, "the live page shows no question"
        self.csrf, self.number = csrf.group(1), number.group(1)
        value = work_out(html.unescape(question.group(1)).removesuffix("=").strip())
        self.right = rng.random() >= 1 / 3
        self.answer = str(value if self.right else value + 1)

    async def click(self, base: str) -> None:
        """The answer as ``live.js`` posts it; the time from the click to "right" or "wrong"."""
        start = time.perf_counter()
        async with self.session.post(
                f"{base}/room/live/answer", headers={"Accept": "application/json"},
                data={"csrf": self.csrf, "number": self.number, "answer": self.answer}
                ) as response:
            self.said = await response.json()
        self.seconds = time.perf_counter() - start


async def web_live(options: Options, count: int) -> Figures:
    """The ``web`` scenario (see the module's docstring): its figures, errors included."""
    figures = Figures(WEB)
    standin = StandIn()
    await standin.start()
    options = dataclasses.replace(options, web=("127.0.0.1", free_port()))
    base = f"http://127.0.0.1:{options.web[1]}"  # type: ignore[index]
    rng = random.Random(2026)
    students: list[WebStudent] = []
    try:
        with tempfile.TemporaryDirectory(dir=options.db_dir) as folder:
            database = options.database or str(Path(folder) / "bench.sqlite3")
            options = dataclasses.replace(options, database=database)
            async with running_bot(standin, Path(folder), options) as bot_cpu:
                # The room opened as ``/class room open`` does, on the bot's own database.
                db = await Database.open(database)
                try:
                    teacher = standin.add_member("Teacher", teacher=True)
                    room = await web_rooms.open_room(
                        db, standin.guild.id, standin.channel.id, teacher.id, "Bench", "en",
                        datetime.now(UTC), teaches=True)
                    joining = asyncio.Semaphore(20)

                    async def join(student: WebStudent) -> None:
                        async with joining:
                            await student.join(base, room.code)
                        student.stream = asyncio.create_task(student.listen(base))

                    for n in range(count):
                        students.append(WebStudent(
                            f"Student {n + 1}", aiohttp.ClientSession(
                                cookie_jar=aiohttp.CookieJar(unsafe=True))))
                    await asyncio.gather(*(join(s) for s in students))
                    await asyncio.sleep(1.0)  # every stream open (its watcher polling)
                    started = await standin.slash(teacher, "focus live", count=2, level=4,
                                                  seconds=120)
                    async with asyncio.timeout(30):
                        await asyncio.gather(*(s.opened.wait() for s in students))
                    await asyncio.gather(*(s.read(base, rng) for s in students))
                    mine = process_times(os.getpid())
                    bots = bot_cpu() if bot_cpu else None
                    start = time.perf_counter()
                    await asyncio.gather(*(s.click(base) for s in students))
                    figures.seconds = time.perf_counter() - start
                    figures.driver_cpu, figures.driver_wait = _since(
                        mine, process_times(os.getpid()))
                    if bot_cpu and bots:
                        figures.bot_cpu, figures.bot_wait = _since(bots, bot_cpu())
                    figures.interactions = count
                    figures.times[(WEB, "answer")] = [s.seconds for s in students]
                    figures.failures += [f"{s.nickname}: {s.said}" for s in students
                                         if not s.said.get("ok")
                                         or s.said.get("correct") != s.right]
                    # Every answer counted: in the stored round and in focus_answers.
                    [live] = await db.focus_live.active_of_server(standin.guild.id)
                    answers = live.state["round"]["answers"]
                    stored = await db.focus.answers_of_round(standin.guild.id,
                                                             f"live:{live.live_id}")
                    right = sum(s.right for s in students)
                    figures.description = (
                        f"{count} browser students answering one live question at once "
                        f"({right} right, {count - right} wrong); counted: {len(answers)} in "
                        f"the round, {len(stored)} in focus_answers, "
                        f"{sum(a.correct for a in stored)} right")
                    if len(answers) != count or len(stored) != count \
                            or sum(a.correct for a in stored) != right:
                        figures.failures.append("not every answer was counted")
                    await standin.click(teacher, started.reply, label="End the round")
                    # The final ranking's picture drawn and posted before the bot stops.
                    await standin.wait_for_message(lambda m: "final ranking" in m.text(),
                                                   after=started.reply, timeout=60)
                finally:
                    await db.close()
    finally:
        for student in students:
            if student.stream is not None:
                student.stream.cancel()
            await student.session.close()
        await standin.close()
    return figures


# --- Running scenarios ------------------------------------------------------------------------


async def _play(driver: Driver, scenario: str, options: Options, size: float = 1.0) -> str:
    """Play ``scenario`` (``size`` < 1: a warm-up); its description."""
    standin = driver.standin
    members = max(2, round(options.members * size)) if size < 1 else options.members
    games = max(1, round(options.games * size)) if size < 1 else options.games
    turns = min(2, options.turns) if size < 1 else options.turns
    if scenario == "card":
        await driver.card(driver.members("card", members), options.rounds)
        return f"{members} members at once, {options.rounds} × (/digits card + autocomplete)"
    jobs: list[Any] = []
    parts = []
    if scenario in ("focus", "mixed"):
        jobs.append(driver.focus(driver.members("focus", members), options.rounds))
        parts.append(f"{members} members each playing {options.rounds} Focus practice "
                     f"round{'s' if options.rounds > 1 else ''}")
    if scenario in ("rithmo", "mixed"):
        pairs = []
        for _ in range(games):
            white = driver.members("rithmo", 1)[0]
            black = standin.add_member(f"{white.name} bis", guild=white.guild)
            driver.roles[black.id] = "rithmo"
            channel = standin.add_channel(f"rithmo-{white.id}", guild=white.guild)
            pairs.append((white, black, channel))
        jobs.append(driver.rithmo(pairs, turns))
        parts.append(f"{games} Rithmomachia games of {turns} turns a player")
    await asyncio.gather(*jobs)
    return " and ".join(parts) + ", all at once"


def servers(standin: StandIn, count: int) -> list[Guild]:
    """``count`` servers for the members: the stand-in's first and more, alternating between
    the shards of 2 (so that two bot processes share the members evenly)."""
    found = [standin.guild]
    while len(found) < count:
        guild = standin.add_guild(f"School {len(standin.guilds) + 1}")
        if standin.shard_of(guild, 2) != standin.shard_of(found[-1], 2):
            found.append(guild)
    return found


async def measure(standin: StandIn, guilds: Sequence[Guild], scenario: str, options: Options,
                  bot_cpu: Callable[[], tuple[float, float | None]] | None) -> Figures:
    """Play ``scenario`` once (after its warm-up) against the running bot; its figures."""
    driver = Driver(standin, think=options.think, reaction=options.reaction, guilds=guilds,
                    ramp=options.ramp)
    if options.warm_up:
        await _play(driver, scenario, options, size=0.01)
        await standin.idle(timeout=30)
        driver.failures.clear()
        driver.boards.clear()
    seen = set(standin.interactions)
    errors = len(standin.errors)
    mine = process_times(os.getpid())
    bots = bot_cpu() if bot_cpu else None
    start = time.perf_counter()
    description = await _play(driver, scenario, options)
    figures = Figures(scenario, description, time.perf_counter() - start)
    await standin.idle(timeout=30)  # the bot's last posts, counted in its CPU
    figures.driver_cpu, figures.driver_wait = _since(mine, process_times(os.getpid()))
    if bot_cpu and bots:
        figures.bot_cpu, figures.bot_wait = _since(bots, bot_cpu())
    _collect(figures, driver, standin, seen)
    figures.standin_errors = standin.errors[errors:]
    return figures


async def run(scenarios: Iterable[str], options: Options) -> list[Figures]:
    """Run each scenario against one bot (started once); the figures of each."""
    results = []
    standin = StandIn()
    await standin.start()
    try:
        guilds = servers(standin, options.guilds)
        with tempfile.TemporaryDirectory(dir=options.db_dir) as folder:
            async with running_bot(standin, Path(folder), options) as bot_cpu:
                for scenario in scenarios:
                    results.append(await measure(standin, guilds, scenario, options, bot_cpu))
    finally:
        await standin.close()
    return results


#: The first answers' 95th percentile under which a load counts as served (``capacity``).
P95_BOUND = 0.250


@dataclass
class Step:
    """One load of ``capacity``: bot processes, members at once, what was measured."""

    processes: int
    members: int
    figures: Figures

    @property
    def per_second(self) -> float:
        return self.figures.interactions / max(self.figures.seconds, 1e-9)

    @property
    def p95(self) -> float:
        return percentile(self.figures.all_times() or [math.inf], 0.95)

    @property
    def served(self) -> bool:
        return self.p95 < P95_BOUND and self.figures.errors == 0


async def capacity(process_counts: Sequence[int], levels: Sequence[int], options: Options
                   ) -> list[Step]:
    """For each number of bot processes (each on its own shard, one database), ``focus`` at
    each number of members in ``levels``, the same servers and bot processes throughout, in
    one run; the steps measured. A level past the p95 bound ends that count's steps."""
    steps: list[Step] = []
    for count in process_counts:
        counted = dataclasses.replace(options, processes=count)
        standin = StandIn()
        await standin.start()
        try:
            guilds = servers(standin, options.guilds)
            with tempfile.TemporaryDirectory(dir=options.db_dir) as folder:
                async with running_bot(standin, Path(folder), counted) as bot_cpu:
                    for index, members in enumerate(levels):
                        level = dataclasses.replace(counted, members=members,
                                                    warm_up=options.warm_up and index == 0)
                        step = Step(count, members,
                                    await measure(standin, guilds, "focus", level, bot_cpu))
                        steps.append(step)
                        print(capacity_row(step), flush=True)
                        if not step.served:
                            break
        finally:
            await standin.close()
    return steps


def capacity_row(step: Step) -> str:
    figures = step.figures
    cpu = "" if figures.bot_cpu is None else (
        f"{figures.bot_cpu / max(1, figures.interactions) * 1000:6.2f}")
    driver = f"{figures.driver_cpu / max(1, figures.interactions) * 1000:6.2f}"
    # How long the bots' event loops waited for a core, a share of the step's time (summed
    # over the processes): the machine's other work, or the bots' own threads.
    waited = "" if figures.bot_wait is None else (
        f"{figures.bot_wait / max(figures.seconds, 1e-9):6.0%}")
    return (f"  {step.processes:9} {step.members:7} {figures.interactions:12} "
            f"{step.per_second:14.1f} {step.p95 * 1000:8.1f} "
            f"{max(figures.all_times() or [0]) * 1000:8.1f} {cpu:>10} {driver:>13} "
            f"{waited:>11} {figures.errors:6}")


CAPACITY_HEADER = ("  processes members interactions  interactions/s  p95 ms   max ms  bot CPU ms "
                   "driver CPU ms loop waited errors")


def capacity_report(steps: Sequence[Step]) -> str:
    lines = [f"capacity: interactions a second with the first answers' p95 under "
             f"{P95_BOUND * 1000:g} ms", CAPACITY_HEADER]
    lines += [capacity_row(step) for step in steps]
    for count in sorted({s.processes for s in steps}):
        served = [s for s in steps if s.processes == count and s.served]
        best = max(served, key=lambda s: s.per_second, default=None)
        lines.append(f"  {count} process{'es' if count > 1 else ''}: "
                     + (f"{best.per_second:.0f} interactions/s at p95 {best.p95 * 1000:.0f} ms "
                        f"({best.members} members)" if best else "no load served under the bound"))
    return "\n".join(lines)


def _since(before: tuple[float, float | None], after: tuple[float, float | None]
           ) -> tuple[float, float | None]:
    waited = None if before[1] is None or after[1] is None else after[1] - before[1]
    return after[0] - before[0], waited


def _collect(figures: Figures, driver: Driver, standin: StandIn, seen: set[int]) -> None:
    for key, record in standin.interactions.items():
        if key in seen:
            continue
        figures.interactions += 1
        scenario = driver.roles.get(record.member.id, "?")
        seconds = record.answer_time
        if seconds is None:
            figures.unanswered += 1
            continue
        if seconds > LATE or record.late:
            figures.late += 1
        figures.times.setdefault((scenario, _kind(record)), []).append(seconds)
    figures.boards = list(driver.boards)
    figures.failures = list(driver.failures)


def _kind(record: InteractionRecord) -> str:
    return KINDS.get(record.type, str(record.type))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.load",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("scenarios", nargs="*", metavar="SCENARIO",
                        help=f"any of {', '.join(SCENARIOS)} (default: focus rithmo mixed)")
    parser.add_argument("--members", type=int, default=200,
                        help="members of the card and focus scenarios (default 200)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds each member plays (card, focus; default 1)")
    parser.add_argument("--games", type=int, default=50, help="Rithmomachia games (default 50)")
    parser.add_argument("--turns", type=int, default=10,
                        help="turns each player plays in a game (default 10)")
    parser.add_argument("--reaction", type=float, default=0.2,
                        help="seconds a member takes to act on what the bot showed (default 0.2)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a member thinks on top of --reaction (default 0)")
    parser.add_argument("--one-process", action="store_true",
                        help="bot, stand-in and members in this one process, on --bot-core")
    parser.add_argument("--bot-core", type=int, default=0)
    parser.add_argument("--driver-core", type=int, default=1)
    parser.add_argument("--no-pin", action="store_true", help="pin no process to a core")
    parser.add_argument("--no-warm-up", action="store_true")
    parser.add_argument("--profile", metavar="FILE", help="cProfile of the bot, into FILE")
    parser.add_argument("--switch-interval", type=float, metavar="SECONDS",
                        help="the bot's sys.setswitchinterval (an experiment; two processes)")
    parser.add_argument("--render-process", type=int, metavar="NICENESS",
                        help="draw the bot's pictures in a worker process this much nicer than "
                        "the bot (an experiment; two processes)")
    parser.add_argument("--thread-nice", type=int, metavar="NICENESS",
                        help="the bot's worker threads (asyncio.to_thread) this much nicer than "
                        "its event loop instead of bot.background's (0: as before it; two "
                        "processes)")
    parser.add_argument("--db-dir", metavar="DIR",
                        help="where the bot's database file goes (default: the temporary folder)")
    parser.add_argument("--processes", default="1", metavar="N[,N...]",
                        help="bot processes, each on its own shard of N, sharing the database "
                             "(default 1); capacity: the counts to compare, e.g. 1,2")
    parser.add_argument("--guilds", type=int, default=1,
                        help="servers the members are spread over, alternating between the "
                             "shards of 2 (default 1; capacity: 4)")
    parser.add_argument("--levels", default="20,40,80,120,160,240",
                        help="capacity: members at once, step by step (default "
                             "20,40,80,120,160,240)")
    parser.add_argument("--ramp", type=float, metavar="SECONDS",
                        help="the Focus members start one after the other over this time "
                             "(default: all at once; capacity: 2)")
    parser.add_argument("--db", metavar="PATH_OR_URL",
                        help="the bots' shared database (ARDOISE_DB; default: a SQLite file in "
                             "the temporary folder)")
    parser.add_argument("--students", type=int, default=200,
                        help="web: browser students answering one live question (default 200)")
    parser.add_argument("--serve-bot", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--floor", action="store_true",
                        help="the bot process runs tools.bench.floor_bot, discord.py alone with "
                        "the same exchanges, instead of Ardoise (focus and card only)")
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.processes.split(",")]
    if args.scenarios == [CAPACITY]:
        main_capacity(args, counts)
        return
    if args.scenarios == [WEB]:
        main_web(args)
        return
    if len(counts) != 1:
        parser.error("several --processes counts are for the capacity mode only")
    unknown = [s for s in args.scenarios if s not in SCENARIOS]
    if unknown:
        parser.error(f"unknown scenario {', '.join(unknown)}: choose among {', '.join(SCENARIOS)}")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(logging.ERROR)
    bot_core = None if args.no_pin else args.bot_core
    if args.serve_bot:
        _pin(bot_core)
        if args.switch_interval is not None:
            sys.setswitchinterval(args.switch_interval)
        if args.render_process is not None:
            render_in_a_process(args.render_process)
        asyncio.run(serve_bot(args.profile, args.thread_nice, args.floor))
        return
    options = Options(members=args.members, rounds=args.rounds, games=args.games,
                      turns=args.turns, think=args.think, reaction=args.reaction,
                      one_process=args.one_process,
                      bot_core=bot_core, driver_core=None if args.no_pin else args.driver_core,
                      profile=args.profile, warm_up=not args.no_warm_up,
                      switch_interval=args.switch_interval, db_dir=args.db_dir,
                      render_process=args.render_process, thread_nice=args.thread_nice,
                      processes=counts[0], guilds=args.guilds, database=args.db,
                      ramp=args.ramp or 0.0, floor=args.floor)
    scenarios = args.scenarios or ["focus", "rithmo", "mixed"]
    if args.floor and (args.one_process or set(scenarios) - {"focus", "card"}):
        parser.error("--floor: the focus and card scenarios only, in two processes")
    where = ("bot, stand-in and members in one process"
             + (f" on core {bot_core}" if bot_core is not None else "")) if args.one_process \
        else (f"bot process on core {bot_core}, stand-in and members on core "
              f"{options.driver_core}" if bot_core is not None else "two processes, unpinned")
    print(f"{where}; members act {args.reaction:g} s after seeing an answer"
          + (f", plus 0 to {2 * args.think:g} s of thought" if args.think else ""))
    failed = False
    for figures in asyncio.run(run(scenarios, options)):
        print(figures.report())
        failed = failed or figures.errors > 0
    if failed:
        raise SystemExit(1)


def main_web(args: argparse.Namespace) -> None:
    """``python -m tools.load web``: a class room's live question answered at once."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(logging.ERROR)
    options = Options(bot_core=None if args.no_pin else args.bot_core,
                      driver_core=None if args.no_pin else args.driver_core,
                      one_process=args.one_process, db_dir=args.db_dir, database=args.db,
                      profile=args.profile)
    where = ("bot, stand-in and students in one process" if args.one_process else
             "unpinned" if args.no_pin else
             f"bot process on core {args.bot_core}, stand-in and students on core "
             f"{args.driver_core}")
    print(f"web: {args.students} students of a class room, one live question; {where}; "
          f"load {Path('/proc/loadavg').read_text().strip()}", flush=True)
    figures = asyncio.run(web_live(options, args.students))
    lines = figures.report().splitlines()
    print("\n".join(line.replace("first answer", "click → shown") for line in lines))
    if figures.errors:
        raise SystemExit(1)


def main_capacity(args: argparse.Namespace, counts: Sequence[int]) -> None:
    """``python -m tools.load capacity``: one process, then two, over one database."""
    guilds = args.guilds if args.guilds > 1 else 4
    options = Options(rounds=args.rounds, think=args.think, reaction=args.reaction,
                      bot_core=None if args.no_pin else args.bot_core,
                      driver_core=None if args.no_pin else args.driver_core,
                      warm_up=not args.no_warm_up, db_dir=args.db_dir, guilds=guilds,
                      database=args.db, ramp=2.0 if args.ramp is None else args.ramp)
    levels = [int(n) for n in args.levels.split(",")]
    where = ("unpinned" if args.no_pin else
             f"bot process i on core {args.bot_core} + i, stand-in and members beside them")
    print(f"capacity: Focus rounds by {', '.join(map(str, levels))} members at once (starting "
          f"over {options.ramp:g} s), acting {args.reaction:g} s after each answer, over "
          f"{guilds} servers; "
          f"{' then '.join(map(str, counts))} bot process(es), each on its own shard, one "
          f"database ({args.db or 'a SQLite file'}); {where}", flush=True)
    print(CAPACITY_HEADER, flush=True)
    steps = asyncio.run(capacity(counts, levels, options))
    print(capacity_report(steps))


if __name__ == "__main__":
    main()
