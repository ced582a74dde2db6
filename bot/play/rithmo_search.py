"""Ardoise's searching levels in worker processes, off the event loop's core.

A search is pure Python for its whole budget (strong 0.5 s, master 2 s a turn). In a thread it
would hold the interpreter in turns with the event loop, which must answer every member within
Discord's 3 s: 50 games at once would wait behind it. So the middle, strong and master levels
search in a :class:`concurrent.futures.ProcessPoolExecutor` of their own: the game goes to the
worker as JSON (:meth:`bot.rithmo.Game.to_json`), the chosen turn comes back as its text, and the
event loop only awaits a future. ``bot.limits.SearchGate`` still bounds how many strong and master
searches run at once (and lets servers take turns); the pool is sized to the machine
(``os.cpu_count()`` workers, at least one) so that every search the gate lets through has a core.

The pool is made on the first search (a bot that never plays a searching level starts no process)
with the ``spawn`` start method (the bot runs threads; forking them is unsafe), and shut down with
the bot (the Rithmomachia cog's unload, which ``Bot.close`` runs).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bot.rithmo.opponents import search_in_worker
from bot.rithmo.review import review_in_worker


def pool_size() -> int:
    """Workers for the searches: one per core of the machine, at least one."""
    return max(1, os.cpu_count() or 1)


class SearchPool:
    """A lazily made process pool that chooses Ardoise's turns (see the module's docstring).
    ``seconds`` replaces a level's thinking time by level name (``{"strong": 0.5}``)."""

    def __init__(self, workers: int | None = None,
                 seconds: dict[str, float] | None = None) -> None:
        self.workers = workers if workers is not None else pool_size()
        if self.workers < 1:
            raise ValueError(f"a search pool has at least 1 worker, not {self.workers}")
        self.seconds = dict(seconds or {})
        self._executor: ProcessPoolExecutor | None = None

    @property
    def started(self) -> bool:
        return self._executor is not None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._executor

    async def choose(self, game_json: dict[str, Any], level: int, level_name: str,
                     seed: int | str, ply: int) -> str:
        """The turn (its text) Ardoise plays at ``level`` in the game ``game_json``, chosen in a
        worker with the rng of (``seed``, ``ply``); a refusal is raised again here."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), search_in_worker, game_json, level,
                                          seed, ply, self.seconds.get(level_name))

    async def review(self, settings: Any, turns: list[str]) -> dict[str, Any]:
        """A finished game's review (:func:`bot.rithmo.review.review`) worked out in a worker:
        its JSON."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), review_in_worker, settings, turns)

    def close(self) -> None:
        """Stop the workers (a search under way is abandoned: the bot is going away); a later
        search would start a new pool."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


__all__ = ["SearchPool", "pool_size"]
