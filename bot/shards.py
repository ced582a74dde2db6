"""Which process acts on which server: Discord's shard of a server, and the question every
background task asks before it acts (``owns``).

Discord sends a server's events to one shard only, ``(guild_id >> 22) % shard_count``; with
several processes, each running its own shards (``ARDOISE_SHARDS``, ``ARDOISE_SHARD_COUNT``), a
click can only reach the process of its server's shard. The background tasks (daily posts,
time limits, live rounds' timers, closing homework) read the shared database, which holds every
server's work: each process takes only the work of its own shards' servers, so that each is done
once (docs/architecture.md, "Several processes"). No Discord here: the use cases of ``bot/play``
take an ``Owner``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

#: Whether this process acts on the server with this id.
Owner = Callable[[int], bool]


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord gives the server ``guild_id`` among ``shard_count`` (Discord's rule)."""
    if shard_count < 1:
        raise ValueError(f"a shard count is 1 or more, not {shard_count}")
    return (guild_id >> 22) % shard_count


def every_server(guild_id: int) -> bool:
    """The owner of a process that runs every shard (one process: everything is its own)."""
    return True


def owner_of(shard_ids: Collection[int] | None, shard_count: int | None) -> Owner:
    """The ``Owner`` of a process running ``shard_ids`` of ``shard_count`` (None ids: all of
    them; None count, or one shard: everything)."""
    if shard_count is None or shard_count == 1 or shard_ids is None:
        return every_server
    mine = frozenset(shard_ids)
    if mine >= set(range(shard_count)):
        return every_server
    return lambda guild_id: shard_of(guild_id, shard_count) in mine
