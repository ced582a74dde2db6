"""Background work below the event loop: the threads of ``asyncio.to_thread``, at a lower
priority than the thread that answers the members.

What runs in those threads is work nobody is waiting on within Discord's 3 seconds: pictures
(``images.render_*``), battles and odds of The 20 Digits, Ardoise's Rithmomachia turns; the
interaction that asked for it has been answered (or deferred) already. Under load that work
took the core from the event loop: a picture thread holding the core (and the interpreter)
made every other member's click wait behind it. With the worker threads ``NICENESS`` steps
nicer than the event loop, the kernel runs the event loop first whenever it has something to
do, and the pictures with the rest of the core; ``python -m tools.load mixed`` measured the
95th percentile of the first answers falling by about two thirds (docs/benchmarks.md, "The bot
under load").

Linux only: there a thread's nice value is its own (``os.nice`` changes the calling thread);
elsewhere it would slow the whole process, so the threads keep the process's priority.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import sys

log = logging.getLogger(__name__)

#: How much nicer (lower priority) the worker threads are than the event loop.
NICENESS = 10


def lower_this_threads_priority(niceness: int = NICENESS) -> None:
    """Make the calling thread ``niceness`` steps nicer, on Linux; elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError):  # a thread already at the bottom stays there
        os.nice(niceness)


class BackgroundExecutor(concurrent.futures.ThreadPoolExecutor):
    """A thread pool whose threads are ``NICENESS`` steps nicer than the thread that made it."""

    def __init__(self, max_workers: int | None = None) -> None:
        super().__init__(max_workers, thread_name_prefix="ardoise-background",
                         initializer=lower_this_threads_priority)


def use_background_executor(loop: asyncio.AbstractEventLoop) -> bool:
    """Make a ``BackgroundExecutor`` the default executor of ``loop`` (where
    ``asyncio.to_thread`` runs), unless the loop was given one already (local play counts the
    work in its own); whether it did."""
    # asyncio has no getter for the default executor; the attribute is CPython's since 3.4.
    if getattr(loop, "_default_executor", None) is not None:
        return False
    loop.set_default_executor(BackgroundExecutor())
    log.debug("background work in threads %d steps nicer than the event loop", NICENESS)
    return True
