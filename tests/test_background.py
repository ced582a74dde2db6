"""bot.background: the bot's worker threads (``asyncio.to_thread``: pictures, battles, Ardoise's
turns) run nicer than the event loop that answers the members, on Linux."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import sys

import pytest

from bot import background

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="a thread's own nice value is Linux's")


def this_threads_niceness() -> int:
    return os.getpriority(os.PRIO_PROCESS, 0)  # on Linux: the calling thread's


@linux_only
async def test_the_bots_worker_threads_are_nicer_than_its_event_loop(standin, start_bot):
    await start_bot()
    loop_niceness = this_threads_niceness()
    worker_niceness = await asyncio.to_thread(this_threads_niceness)
    assert worker_niceness == min(19, loop_niceness + background.NICENESS)
    assert this_threads_niceness() == loop_niceness  # the event loop's own is unchanged


async def test_an_executor_the_loop_was_given_is_kept():
    loop = asyncio.get_running_loop()
    own = concurrent.futures.ThreadPoolExecutor(1)
    try:
        loop.set_default_executor(own)
        assert background.use_background_executor(loop) is False
        assert await asyncio.to_thread(lambda: "done") == "done"
        assert loop._default_executor is own  # type: ignore[attr-defined]
    finally:
        own.shutdown()


def test_elsewhere_than_linux_no_thread_changes_its_priority(monkeypatch):
    calls = []
    monkeypatch.setattr(background.sys, "platform", "darwin")
    monkeypatch.setattr(background.os, "nice", calls.append)
    background.lower_this_threads_priority()
    assert calls == []
    monkeypatch.setattr(background.sys, "platform", "linux")
    background.lower_this_threads_priority()
    assert calls == [background.NICENESS]
