"""What ``/privacy`` says of a server: how long its members' answers and finished games are kept.

A server's retention (``/settings privacy retention:``, docs/privacy.md "How long it is kept") is
a number of days, the end of the school year (a date its teacher set), or for ever. A server that
has not chosen keeps them for ever: ``UNCHOSEN`` is that default, the one line to change if the
project's default changes (the docs say the same in one sentence each).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from db import Database


@dataclass(frozen=True)
class Retention:
    """How long a server keeps its members' answers and finished games: ``days`` (erased once
    older), or until ``until`` (the end of its school year), or, with neither, for ever."""

    days: int | None = None
    until: date | None = None

    def __post_init__(self) -> None:
        if self.days is not None and self.until is not None:
            raise ValueError("a retention is a number of days or a date, not both")
        if self.days is not None and self.days < 1:
            raise ValueError(f"a retention of {self.days} days keeps nothing")

    @property
    def forever(self) -> bool:
        return self.days is None and self.until is None


FOREVER = Retention()
#: The retention of a server whose teachers have not chosen one.
UNCHOSEN = FOREVER


async def server_retention(db: Database, guild_id: int) -> Retention:
    """The retention of ``guild_id``: its teachers' choice, else ``UNCHOSEN``."""
    # The setting itself is stored by the retention work (issue 23), which re-points this read
    # at it; until then no server can have chosen, so every server has the default.
    return UNCHOSEN
