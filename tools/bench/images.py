"""How fast the pictures are drawn: ``taskset -c 0 .venv/bin/python -m tools.bench.images``.

Prints the median time to render a battle still, a single slate, the shop, the start and a crowded
Rithmomachia board, a 12-exchange replay and the progress pictures, warm (a thread that has drawn
the picture before: the bot's steady state) and cold (a fresh thread, nothing cached), and the
replay's size. The battle is the battle engine's (tools.samples.long_battle: 12 exchanges).
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

import images
from bot.i18n import image_words
from tools import samples

#: The words the pictures say, as the cogs pass them.
EN, FR = image_words("en"), image_words("fr")


def _median_ms(fn: Callable[[], Any], repeat: int) -> float:
    """Warm: the thread has drawn this picture before, so its fonts and rendered words are
    cached (the steady state of the bot's worker threads)."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def _cold_median_ms(fn: Callable[[], Any], repeat: int) -> float:
    """Cold: each time in a new thread, with nothing cached yet (fonts loaded, every word
    rendered anew)."""
    times: list[float] = []

    def once() -> None:
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)

    for _ in range(repeat):
        th = threading.Thread(target=once)
        th.start()
        th.join()
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.images",
                                     description=__doc__.split("\n\n")[0])
    parser.parse_args(argv)
    battle = samples.long_battle()
    opening = dict(battle, survivors=battle["opening"])  # a still with all 13 digits
    names = ("Camille", "Noé")
    crowded, turn = samples.crowded_position()
    start = samples.start_position()
    # A full class and the longest round: every cell drawn, a third wrong, some missing.
    live_report = {"title": "Focus en classe · bilan de la partie 1", "questions": 20, "rows": [
        {"name": f"Élève {n}", "right": 12, "answered": 18, "seconds": 120.0,
         "cells": [None if (n + q) % 10 == 0 else {"correct": (n * q) % 3 != 0,
                                                   "seconds": 2.0 + (n + q) % 17}
                   for q in range(20)]} for n in range(1, 31)]}
    rows = [
        ("battle still, final state", lambda: images.render_battle(battle, EN, names), 50,
         30),
        ("battle still, 13 digits", lambda: images.render_battle(opening, EN, names), 50,
         30),
        ("slate (one player)", lambda: images.render_slate(samples.FULL_N3_SLATE, FR), 50,
         None),
        ("shop", lambda: images.render_shop(samples.SHOP, FR), 30, None),
        ("board, start position", lambda: images.render_board(start, EN), 30, 60),
        ("board, crowded + last turn, flipped",
         lambda: images.render_board(crowded, FR, turn, True), 30, 60),
        (f"replay, {battle['exchanges']} exchanges",
         lambda: images.render_replay(battle, EN, names), 10, 500),
        ("progress chart", lambda: images.render_progress(samples.PROGRESS, EN), 30, None),
        ("streak calendar",
         lambda: images.render_streak(samples.STREAK_DAYS, 8, "2026-11-30", EN), 30, None),
        ("leaderboard", lambda: images.render_leaderboard(samples.LEADERBOARD, EN), 30, None),
        ("live report, 30 students × 20 questions",
         lambda: images.render_live_report(live_report, FR), 10, None),
    ]
    print(f"{'picture (median ms)':40} {'warm':>8} {'cold':>8} {'aim':>6}")
    for name, fn, repeat, aim in rows:
        warm = _median_ms(fn, repeat)
        cold = _cold_median_ms(fn, max(3, repeat // 5))
        print(f"{name:40} {warm:8.1f} {cold:8.1f} {aim if aim else '':>6}")
    size = len(images.render_replay(battle, EN, names))
    print(f"replay size: {size} bytes ({size / 1e6:.2f} MB; aim < 1 MB, limit 8 MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
