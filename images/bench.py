"""How fast the pictures are drawn: ``taskset -c 0 .venv/bin/python -m images.bench``.

Prints the median time to render a battle still, a single slate, the shop, the start and a crowded
Rithmomachia board, a 12-exchange replay and the progress pictures, and the replay's size. The
battle is the battle engine's (images.samples.long_battle: 12 exchanges).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import images
from images import samples


def _median_ms(fn: Callable[[], Any], repeat: int) -> float:
    fn()  # warm the fonts and caches of this thread
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> None:
    battle = samples.long_battle()
    opening = dict(battle, survivors=battle["opening"])  # a still with all 13 digits
    names = ("Camille", "Noé")
    crowded, turn = samples.crowded_position()
    start = samples.start_position()
    rows = [
        ("battle still, final state", lambda: images.render_battle(battle, "en", names), 50,
         30),
        ("battle still, 13 digits", lambda: images.render_battle(opening, "en", names), 50,
         30),
        ("slate (one player)", lambda: images.render_slate(samples.FULL_N3_SLATE, "fr"), 50,
         None),
        ("shop", lambda: images.render_shop(samples.SHOP), 30, None),
        ("board, start position", lambda: images.render_board(start), 30, 60),
        ("board, crowded + last turn, flipped",
         lambda: images.render_board(crowded, turn, True, "fr"), 30, 60),
        (f"replay, {battle['exchanges']} exchanges",
         lambda: images.render_replay(battle, "en", names), 10, 500),
        ("progress chart", lambda: images.render_progress(samples.PROGRESS), 30, None),
        ("streak calendar",
         lambda: images.render_streak(samples.STREAK_DAYS, 8, "2026-11-30"), 30, None),
        ("leaderboard", lambda: images.render_leaderboard(samples.LEADERBOARD), 30, None),
    ]
    print(f"{'picture':40} {'median ms':>10} {'aim ms':>8}")
    for name, fn, repeat, aim in rows:
        ms = _median_ms(fn, repeat)
        print(f"{name:40} {ms:10.1f} {aim if aim else '':>8}")
    size = len(images.render_replay(battle, "en", names))
    print(f"replay size: {size} bytes ({size / 1e6:.2f} MB; aim < 1 MB, limit 8 MB)")


if __name__ == "__main__":
    main()
