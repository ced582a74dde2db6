"""Rate limits: per-member cooldowns, caps on open games, and the strong opponent's searches.

One place for what a member may ask of the bot, and how often:

- ``RATES``: the cooldown buckets, one per kind of cost (a text, a picture, a new game…), each
  counted per member and server. Slash commands take one with the ``@limited("picture")``
  check; buttons and menus call ``hit(interaction, "shop")`` (a view's ``interaction_check`` or
  a button's ``on_click``). A refusal raises discord.py's ``app_commands.CommandOnCooldown``,
  which ``bot.tree.report_error`` says as ``errors.cooldown`` ("try again in 4 s") for commands
  and components alike.
- ``OPEN_GAMES``: how many games of each kind a member may have open at once; the cogs count
  them (they know how a game is left) and refuse with the list of those open.
- ``SearchGate``: at most ``Settings.strong_searches`` searches of Ardoise's strong and master
  levels at once in this bot, servers taking turns; the others wait their turn, and a new strong
  or master game is refused on a server while its searches already wait.

Why not ``app_commands.checks.cooldown``: its buckets live in a closure of the decorator, shared by
every bot of the process (the tests start many), it reads the interaction's creation time (which
a test cannot move without sleeping), and a button cannot use it. The buckets here are
discord.py's own ``app_commands.Cooldown`` objects, owned by the bot (``bot.limits``), read on a
clock the tests replace (``bot.limits.clock``).

Teachers' live rounds are never limited: no bucket on ``/focus live``, its buttons, its answers,
nor on the Focus answers of any round (a class answers at once, and the load benchmark's members
answer every 0.2 s).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.rithmo.ai import SECONDS

T = TypeVar("T")


@dataclass(frozen=True)
class Rate:
    """``uses`` in a window of ``per`` seconds that opens at the first use (discord.py's
    ``Cooldown``: a burst of ``uses``, then nothing until the window is over)."""

    uses: int
    per: float


#: The cooldown buckets, per member and server. Costs measured in docs/benchmarks.md.
RATES: dict[str, Rate] = {
    # /help, /digits card, /digits rules, /rithmo rules: an embed of text, about 1 ms of CPU.
    # A member reading cards one after another looks at one every second or two: a burst of 8
    # in 10 s never stops them (nor the card benchmark's 5 rounds), and caps a script at under
    # one a second.
    "text": Rate(8, 10.0),
    # /rithmo board, /progress, /leaderboard, /focus leaderboard: a picture (15-60 ms of CPU in
    # a thread, one board drawn at a time for every game) and a message. Nobody needs the same
    # picture twice in a few seconds: 3 in 30 s.
    "picture": Rate(3, 30.0),
    # A turn: /rithmo move and the board's "Play a turn" button. Each turn posts a new board
    # picture, but turns alternate, so a player moves at most every second or two even against
    # the beginner level; 10 in 10 s stops only a script (the rithmo benchmark's players move
    # about every 2 s).
    "turn": Rate(10, 10.0),
    # The shop window's buttons and menus, and "Open my shop": each redraws the shop and slate
    # pictures. A quick child's shop turn is 40 actions, one every half second, then Ready (41
    # in 20.5 s, issue 28): 45 in 30 s never stops them, and caps a script at 1.5 a second
    # (about a tenth of a core of pictures).
    "shop": Rate(45, 30.0),
    # /digits odds and the shop's Odds button: up to 2,000 battles in a thread (2-100 ms).
    # The odds change only with the slate: 3 in 30 s.
    "odds": Rate(3, 30.0),
    # Starting a round of Focus practice or the daily challenge: six questions and a window
    # kept in memory for 10 minutes. A round takes a minute; 5 in 60 s allows changing level.
    "round": Rate(5, 60.0),
    # Starting a game or a challenge (/digits challenge, /digits solo, /rithmo challenge,
    # /rithmo solo): a stored game and a public message (for Rithmomachia, a board picture).
    # The caps on open games bound how many stay open; this bounds the churn: 3 in 60 s.
    "start": Rate(3, 60.0),
    # /rithmo solo at the strong or master level, on top of "start": each of Ardoise's turns is
    # then a 0.5 s or 2 s search (see SearchGate): one new such game a minute.
    "strong": Rate(1, 60.0),
    # /rithmo review's step buttons: each redraws the board after a turn (the review itself is
    # kept: docs/benchmarks.md, issue 28). A child reading a game clicks Next every second or
    # so, or twice a second to skip ahead: 30 in 15 s never stops them, and caps a script at two
    # boards a second.
    "review_step": Rate(30, 15.0),
}

#: Open games a member may have at once, by kind (a server's games only).
OPEN_GAMES: dict[str, int] = {
    # Solo matches of The 20 Digits: no one plays more than a few at once, and there is no
    # way to leave one but to play it out, so the cap is small and the refusal lists them.
    "digits_solo": 3,
    # Challenges made and not yet answered (each game's own Cancel or Decline withdraws one).
    "digits_challenges": 3,
    "rithmo_challenges": 3,
    # Rithmomachia games against Ardoise (one per channel already; /rithmo resign leaves one).
    "rithmo_computer": 3,
}


@dataclass
class _ServerSearches:
    """One server's strong searches: those running and those waiting for a slot."""

    free: asyncio.Semaphore
    running: int = 0
    waiting: int = 0

    @property
    def count(self) -> int:
        return self.running + self.waiting


class SearchGate:
    """At most ``bound`` strong or master searches run at once in this bot, and servers take
    turns.

    A search is pure Python for its budget (``bot.rithmo.ai.SECONDS``: 0.5 s strong, 2 s master;
    ``seconds`` here is the longest, for the wait's estimate). It runs in a worker process
    (``bot.play.rithmo_search``), so the event loop keeps its core; the bound keeps the searches
    to the cores the machine has, so that each gets the thinking its budget promises. So a
    turn already accepted waits for a free search instead of being refused or played weaker.

    Each server queues its own searches first (at most ``bound`` of a server go on to the bot's
    queue), so one class playing twelve strong games makes another school wait one search, not
    twelve. A new strong game is refused on a server whose searches already fill the bound and
    wait (``saturated``); another server is not refused for it.
    """

    def __init__(self, bound: int, seconds: float = max(SECONDS.values())) -> None:
        if bound < 1:
            raise ValueError(f"the bound on strong searches is at least 1, not {bound}")
        self.bound = bound
        self.seconds = seconds
        self.running = 0
        self.waiting = 0
        self._free = asyncio.Semaphore(bound)
        self._servers: dict[int | None, _ServerSearches] = {}

    def saturated(self, guild_id: int | None) -> bool:
        """This server's searches fill the bound and some wait: a new game would wait longer."""
        server = self._servers.get(guild_id)
        return server is not None and server.count > self.bound

    def wait_estimate(self) -> int:
        """Seconds, at most, until the searches running and waiting now are all done."""
        return max(1, math.ceil(self.seconds * (self.running + self.waiting) / self.bound))

    @contextlib.asynccontextmanager
    async def slot(self, guild_id: int | None) -> AsyncIterator[None]:
        server = self._servers.get(guild_id)
        if server is None:
            server = self._servers[guild_id] = _ServerSearches(asyncio.Semaphore(self.bound))
        server.waiting += 1
        self.waiting += 1
        try:
            await server.free.acquire()
            try:
                await self._free.acquire()
            except BaseException:
                server.free.release()
                raise
        except BaseException:
            self._forget_if_idle(guild_id, server)
            raise
        finally:
            server.waiting -= 1
            self.waiting -= 1
        server.running += 1
        self.running += 1
        try:
            yield
        finally:
            server.running -= 1
            self.running -= 1
            self._free.release()
            server.free.release()
            self._forget_if_idle(guild_id, server)

    def _forget_if_idle(self, guild_id: int | None, server: _ServerSearches) -> None:
        if server.count == 0 and self._servers.get(guild_id) is server:
            del self._servers[guild_id]


BucketKey = tuple[str, int | None, int]


class Limits:
    """The bot's buckets (``bot.limits``) and its gate on strong searches.

    ``clock`` (seconds, monotonic) may be replaced, e.g. by a test's fake clock: the buckets read
    it at every use. Never 0: discord.py's ``Cooldown`` reads a time of 0 as "now"."""

    #: Dead buckets are swept every so many uses (a sweep reads them all).
    SWEEP_EVERY = 256

    def __init__(self, *, strong_searches: int = 1,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.rates = dict(RATES)
        self.open_games = dict(OPEN_GAMES)
        self.searches = SearchGate(strong_searches)
        self._buckets: dict[BucketKey, app_commands.Cooldown] = {}
        self._uses = 0

    def take(self, bucket: str, guild_id: int | None, user_id: int) -> None:
        """Use one of the member's ``bucket``; ``CommandOnCooldown`` when there is none left."""
        rate = self.rates[bucket]
        now = self.clock()
        self._uses += 1
        if self._uses % self.SWEEP_EVERY == 0:
            self._sweep(now)
        key = (bucket, guild_id, user_id)
        cooldown = self._buckets.get(key)
        if cooldown is None:
            cooldown = self._buckets[key] = app_commands.Cooldown(rate.uses, rate.per)
        retry_after = cooldown.update_rate_limit(now)
        if retry_after is not None:
            raise app_commands.CommandOnCooldown(cooldown, retry_after)

    def reset(self) -> None:
        """Forget every bucket: everyone starts afresh (as after a restart)."""
        self._buckets.clear()

    def _sweep(self, now: float) -> None:
        # A bucket whose window is over has all its tokens again: it is as good as new.
        dead = [key for key, cooldown in self._buckets.items()
                if cooldown.get_tokens(now) == cooldown.rate]
        for key in dead:
            del self._buckets[key]


def limits_of(interaction: discord.Interaction) -> Limits | None:
    """The bot's limits (None for a client without them, e.g. a test's bare client)."""
    limits = getattr(interaction.client, "limits", None)
    return limits if isinstance(limits, Limits) else None


def hit(interaction: discord.Interaction, bucket: str) -> None:
    """Use one of the member's ``bucket`` for this interaction, or raise ``CommandOnCooldown``
    (for buttons, menus and modals; commands use ``@limited``)."""
    limits = limits_of(interaction)
    if limits is not None:
        limits.take(bucket, interaction.guild_id, interaction.user.id)


def limited(bucket: str) -> Callable[[T], T]:
    """A slash command's cooldown: ``@limited("picture")`` under ``@app_commands.command``."""
    if bucket not in RATES:
        raise KeyError(f"no cooldown bucket {bucket!r}; add it to bot.limits.RATES")

    async def predicate(interaction: discord.Interaction[Any]) -> bool:
        hit(interaction, bucket)
        return True

    return app_commands.check(predicate)


def retry_seconds(retry_after: float) -> int:
    """The whole seconds a member is told to wait: rounded up, so that trying again then works."""
    return max(1, math.ceil(retry_after))
