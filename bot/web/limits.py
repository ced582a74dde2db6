"""Join attempts, per address: a wrong code is said plainly; after ``FREE_MISSES`` wrong codes
in a row the address waits, longer at each further miss (``WAITS``), so that guessing a code
(22^6 of them) gets nowhere. Kept in this process's memory: with several processes behind one
proxy, each counts its own (a guesser gains at most that many times the attempts)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

FREE_MISSES = 3
#: Seconds to wait after the 4th, 5th, … wrong code in a row.
WAITS = (10.0, 30.0, 60.0, 300.0)
#: An address forgotten this long after its last miss.
FORGET = 3600.0
#: At most this many addresses remembered (the oldest forgotten first).
MAX_ADDRESSES = 10_000


@dataclass
class _Misses:
    count: int
    last: float
    until: float


class JoinLimiter:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._by_address: dict[str, _Misses] = {}

    def wait(self, address: str) -> float:
        """Seconds ``address`` must still wait before trying a code (0: it may try now)."""
        found = self._by_address.get(address)
        if found is None:
            return 0.0
        return max(0.0, found.until - self._clock())

    def missed(self, address: str) -> float:
        """A wrong code from ``address``; the seconds it now waits (0 for the first misses)."""
        now = self._clock()
        self._forget(now)
        found = self._by_address.pop(address, None) or _Misses(0, now, now)
        found.count += 1
        found.last = now
        if found.count > FREE_MISSES:
            found.until = now + WAITS[min(found.count - FREE_MISSES, len(WAITS)) - 1]
        self._by_address[address] = found  # last in the dict: the newest
        return max(0.0, found.until - now)

    def succeeded(self, address: str) -> None:
        self._by_address.pop(address, None)

    def _forget(self, now: float) -> None:
        while self._by_address:
            oldest = next(iter(self._by_address))
            misses = self._by_address[oldest]
            if len(self._by_address) < MAX_ADDRESSES and now - misses.last < FORGET:
                break
            del self._by_address[oldest]
