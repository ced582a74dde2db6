"""Format versions of the game states kept as JSON (in the database, or handed back and forth).

Every stored state carries ``"format": N``, its layout's version; each engine (and each cog that
stores a state of its own) says which version it writes in a constant (``MATCH_FORMAT``,
``GAME_FORMAT``, ``ROUND_FORMAT``, …). Reading a state goes through :func:`upgrade`:

- a state without ``"format"`` was written before versions existed: it is version 0;
- a state older than the code is brought up to date one version at a time, by the reader's
  ``steps`` (``steps[n]`` turns version n into n + 1), so that a change of layout keeps every
  saved game playable;
- a state newer than the code (written by a later Ardoise, read by an older one after a rollback)
  is refused with ``state.too_new``, never guessed at: a guess could drop what the newer layout
  added and save the loss.

Pure: no discord, no database; the engines use it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.domain import DomainError

__all__ = ["FORMAT_KEY", "Step", "format_of", "upgrade"]

FORMAT_KEY = "format"

#: One upgrade: a state of version n (without its format field) to the layout of version n + 1.
Step = Callable[[dict[str, Any]], dict[str, Any]]


def format_of(data: Mapping[str, Any], kind: str, current: int) -> int:
    """The version of a stored ``kind`` state (0 when it has none); a version this code cannot
    read (newer than ``current``, or not a whole number) is refused."""
    version = data.get(FORMAT_KEY, 0)
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise DomainError("state.bad_format",
                          f"the {kind}'s format is a whole number, not {version!r}",
                          kind=kind, format=version)
    if version > current:
        raise DomainError("state.too_new",
                          f"this {kind} was saved in format {version} by a newer Ardoise; this "
                          f"one reads formats up to {current}",
                          kind=kind, format=version, current=current)
    return version


def upgrade(data: Mapping[str, Any], kind: str, current: int,
            steps: Mapping[int, Step] | None = None) -> dict[str, Any]:
    """``data`` in the layout of version ``current``, with ``"format": current``. A version
    without a step in ``steps`` has the same layout as the next one (only the field is new)."""
    version = format_of(data, kind, current)
    out = {k: v for k, v in data.items() if k != FORMAT_KEY}
    for n in range(version, current):
        step = (steps or {}).get(n)
        if step is not None:
            out = step(out)
    return {FORMAT_KEY: current, **out}
