"""The number relations behind the captures and the proper victories.

Values are whole numbers from 1 up. The answers are memoised: a game only ever meets a few hundred
different values, and the capture scan asks the same questions again and again.
"""

from __future__ import annotations

ARITHMETIC, GEOMETRIC, HARMONIC = "arithmetic", "geometric", "harmonic"

_power_memo: dict[tuple[int, int], bool] = {}
_ambush_memo: dict[tuple[int, int, int], bool] = {}
_progression_memo: dict[tuple[int, int, int], str | None] = {}
_MEMO_LIMIT = 200_000  # a crafted position could ask about endless values; forget, don't grow


def _room(memo: dict[tuple[int, int], bool] | dict[tuple[int, int, int], bool]
          | dict[tuple[int, int, int], str | None]) -> None:
    if len(memo) > _MEMO_LIMIT:
        memo.clear()


def is_power_of(x: int, base: int) -> bool:
    """``x == base ** k`` for a whole ``k >= 2``. 1 = 1^k, so only a 1 is a power of 1."""
    if base == 1:
        return x == 1
    if base < 1:
        return False
    p = base * base
    while p < x:
        p *= base
    return p == x


def power_related(a: int, v: int) -> bool:
    """The Power: one number is a power (exponent 2 or more) of the other."""
    key = (a, v)
    r = _power_memo.get(key)
    if r is None:
        _room(_power_memo)
        r = _power_memo[key] = is_power_of(a, v) or is_power_of(v, a)
    return r


def ambush(a: int, b: int, v: int) -> bool:
    """The Ambush: v is the sum, difference, product or exact ratio (either way) of a and b."""
    key = (a, b, v)
    r = _ambush_memo.get(key)
    if r is None:
        _room(_ambush_memo)
        r = (v == a + b or v == abs(a - b) or v == a * b
             or (a % b == 0 and a // b == v) or (b % a == 0 and b // a == v))
        _ambush_memo[key] = r
    return r


def progression_kind(x: int, y: int, z: int) -> str | None:
    """The kind of progression three different numbers form once sorted, or None.

    Arithmetic 2m = l + h; geometric m² = l·h; harmonic m(l + h) = 2lh. Three different numbers
    form at most one kind (any two of the equations force l = m = h).
    """
    key = (x, y, z)
    if key in _progression_memo:
        return _progression_memo[key]
    _room(_progression_memo)
    kind = None
    if x != y and y != z and x != z:
        lo, m, hi = sorted(key)
        if 2 * m == lo + hi:
            kind = ARITHMETIC
        elif m * m == lo * hi:
            kind = GEOMETRIC
        elif m * (lo + hi) == 2 * lo * hi:
            kind = HARMONIC
    _progression_memo[key] = kind
    return kind


def digits(value: int) -> int:
    """How many digits a value is written with (121 counts 3)."""
    return len(str(value))
