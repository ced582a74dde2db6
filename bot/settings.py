"""The bot's configuration (``Config``): read once at start from the environment and an optional
``.env`` file. (Named apart from a server's settings, ``/settings`` and ``db.ServerSettings``, and
from a Rithmomachia game's ``bot.rithmo.Settings``.)

| variable | meaning | default |
| --- | --- | --- |
| ``DISCORD_TOKEN`` | the bot's token from the Discord Developer Portal | none: local play |
| ``ARDOISE_DB`` | SQLite file, or ``postgresql://…`` URL | ``data/ardoise.sqlite3`` |
| ``ARDOISE_TEST_GUILD`` | a server id: sync the commands there only (instant) | global sync |
| ``ARDOISE_SHARDED`` | ``1``/``true``/``yes``/``on``: run an ``AutoShardedBot`` | not sharded |
| ``ARDOISE_SHARDS`` | the shards this process runs: ``0,1`` or ``0-3`` (sharded) | all shards |
| ``ARDOISE_SHARD_COUNT`` | how many shards all the processes run together (sharded) | Discord's |
| ``ARDOISE_LOG_LEVEL`` | ``DEBUG``, ``INFO``, ``WARNING``, ``ERROR`` | ``INFO`` |
| ``ARDOISE_STRONG_SEARCHES`` | strong searches of Ardoise at once (``bot.limits``) | ``1`` |
| ``ARDOISE_PRIVACY_URL`` | where members read the privacy page (``/privacy`` links it) | none |
| ``ARDOISE_SHARD_LEASE`` | seconds a process's hold on its shards lasts unrenewed | ``30`` |
| ``ARDOISE_WEB`` | the class rooms' web server: ``host:port`` (``127.0.0.1:8080``) | off |
| ``ARDOISE_WEB_URL`` | the rooms' public address (``https://…``) behind a proxy | the listen one |

The environment wins over ``.env``, so a value set for one run overrides the file. The ``.env``
file is parsed by hand (``KEY=value`` lines, ``#`` comments, optional ``export`` and quotes): no
dependency for six lines of parsing. The token never appears in ``repr()`` or in a log line.

Several processes (docs/deploy.md): each runs its own ``ARDOISE_SHARDS`` of the same
``ARDOISE_SHARD_COUNT``, on one shared database. Setting either runs an ``AutoShardedBot``; without
``ARDOISE_SHARD_COUNT`` the count is Discord's recommendation (``GET /gateway/bot``), read at start
(``bot.app.ShardedArdoise.served_shards``), which several processes must not each guess: set it.
Each process holds a lease on its shards in the database (``bot.app.Ardoise.take_shards``): a
second process for the same shards waits for them; ``ARDOISE_SHARD_LEASE`` is how long a lease
lasts unrenewed, so how long the shards of a process that died wait for the next one.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from db import default_path, location_of, shown_location

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}
# Shown as it is in an embed, where Discord links it: what would end the link early or be read
# as markdown around it is refused.
_WEB_ADDRESS = re.compile(r"https?://[^\s()<>\[\]\"'`]{1,500}")


class ConfigError(ValueError):
    """A setting that cannot be read; the message names the variable and what it expects."""


def parse_env_file(text: str) -> dict[str, str]:
    """The ``KEY=value`` pairs of a ``.env`` file's text.

    Blank lines and ``#`` comments are skipped, a leading ``export`` is allowed, and a value in
    matching single or double quotes is taken verbatim inside them (so ``#`` may appear there);
    an unquoted value ends at `` #``.
    """
    values: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export "):].lstrip()
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep or not key.replace("_", "").isalnum():
            raise ConfigError(f".env line {number}: expected KEY=value, got {raw.strip()!r}")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        else:
            value = value.split(" #", 1)[0].rstrip()
        values[key] = value
    return values


def _seconds(values: Mapping[str, str], name: str, default: str, low: float, high: float
             ) -> float:
    """The setting ``name``, a number of seconds from ``low`` to ``high`` (``default`` when
    unset); anything else refused with one line naming the range."""
    text = values.get(name, "").strip() or default
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")  # refused below, as out of the range
    if not low <= seconds <= high:
        raise ConfigError(f"{name} must be a number of seconds from {low:g} to {high:g}, "
                          f"not {text!r}")
    return seconds


@dataclass(frozen=True, slots=True)
class Config:
    token: str | None = field(default=None, repr=False)
    #: A SQLite file, or a ``postgresql://…`` URL (a ``str``: a ``Path`` would fold its ``//``).
    db_path: Path | str = field(default_factory=default_path)
    test_guild: int | None = None
    sharded: bool = False
    #: The shards this process runs (``ARDOISE_SHARDS``); None: every shard of the count.
    shard_ids: tuple[int, ...] | None = None
    #: The shards of all the processes together (``ARDOISE_SHARD_COUNT``); None: Discord's
    #: recommendation.
    shard_count: int | None = None
    log_level: str = "INFO"
    #: One: a search is pure Python, two at once only share the interpreter (bot/limits.py).
    strong_searches: int = 1
    #: Seconds the strong level thinks a turn (``ARDOISE_STRONG_SECONDS``; master thinks 2 s).
    strong_seconds: float = 0.5
    #: Sync the slash commands at start even if they did not change since the last sync
    #: (``ARDOISE_SYNC=1`` or ``python -m bot --sync``; see bot/app.py).
    force_sync: bool = False
    #: Where the operator publishes their copy of docs/privacy.md (``ARDOISE_PRIVACY_URL``), for
    #: ``/privacy`` to link; None: ``/privacy`` says to ask the operator for it.
    privacy_url: str | None = None
    #: Seconds the lease on this process's shards lasts if it is not renewed
    #: (``ARDOISE_SHARD_LEASE``): how long the next process waits after one that died.
    shard_lease: float = 30.0
    #: Where the class rooms' web server listens (``ARDOISE_WEB``: host and port); None: no web
    #: server (local play turns it on at 127.0.0.1 and a free port).
    web_listen: tuple[str, int] | None = None
    #: The address students open (``ARDOISE_WEB_URL``, no trailing slash): the public one behind
    #: a reverse proxy; None: ``http://`` and the listen address.
    web_url: str | None = None

    def __repr__(self) -> str:
        token = "<set>" if self.token else None
        return (
            f"Config(token={token}, db_path={shown_location(self.db_path)!r}, "
            f"test_guild={self.test_guild!r}, sharded={self.sharded!r}, "
            f"shard_ids={self.shard_ids!r}, shard_count={self.shard_count!r}, "
            f"log_level={self.log_level!r}, strong_searches={self.strong_searches!r}, "
            f"strong_seconds={self.strong_seconds!r}, force_sync={self.force_sync!r}, "
            f"privacy_url={self.privacy_url!r}, "
            f"shard_lease={self.shard_lease!r})"
        )

    @property
    def runs_shards(self) -> bool:
        """Whether the bot is an ``AutoShardedBot``: asked for, or some shards named."""
        return self.sharded or self.shard_ids is not None or self.shard_count is not None

    @property
    def log_level_number(self) -> int:
        return logging.getLevelName(self.log_level)

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
    ) -> Config:
        """Config from ``environ`` (default ``os.environ``) over the ``env_file`` if it exists."""
        values: dict[str, str] = {}
        if env_file is not None and env_file.is_file():
            values.update(parse_env_file(env_file.read_text(encoding="utf-8")))
        values.update(os.environ if environ is None else environ)

        token = values.get("DISCORD_TOKEN", "").strip() or None

        db_text = values.get("ARDOISE_DB", "").strip()
        # The storage package owns the default location (data/ardoise.sqlite3).
        db_path = location_of(db_text) if db_text else default_path()

        guild_text = values.get("ARDOISE_TEST_GUILD", "").strip()
        test_guild: int | None = None
        if guild_text:
            if not guild_text.isdigit():
                raise ConfigError(
                    f"ARDOISE_TEST_GUILD must be a server id (digits only), not {guild_text!r}"
                )
            test_guild = int(guild_text)

        sharded_text = values.get("ARDOISE_SHARDED", "").strip().lower()
        if sharded_text not in _TRUE | _FALSE:
            raise ConfigError(
                f"ARDOISE_SHARDED must be one of 1/0, true/false, yes/no, on/off, "
                f"not {sharded_text!r}"
            )

        shard_count = _shard_count(values.get("ARDOISE_SHARD_COUNT", ""))
        shard_ids = _shard_ids(values.get("ARDOISE_SHARDS", ""), shard_count)

        level = values.get("ARDOISE_LOG_LEVEL", "").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise ConfigError(
                f"ARDOISE_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}"
            )

        searches_text = values.get("ARDOISE_STRONG_SEARCHES", "").strip() or "1"
        if not searches_text.isdigit() or int(searches_text) < 1:
            raise ConfigError(
                f"ARDOISE_STRONG_SEARCHES must be a whole number, 1 or more, not {searches_text!r}"
            )

        strong_seconds = _seconds(values, "ARDOISE_STRONG_SECONDS", "0.5", 0.05, 10)

        sync_text = values.get("ARDOISE_SYNC", "").strip().lower()
        if sync_text not in _TRUE | _FALSE:
            raise ConfigError(
                f"ARDOISE_SYNC must be one of 1/0, true/false, yes/no, on/off, not {sync_text!r}"
            )

        privacy_url = values.get("ARDOISE_PRIVACY_URL", "").strip() or None
        if privacy_url is not None and not _WEB_ADDRESS.fullmatch(privacy_url):
            raise ConfigError(
                "ARDOISE_PRIVACY_URL must be a web address (https://…, no spaces, brackets or "
                f"quotes), not {privacy_url!r}"
            )
        shard_lease = _seconds(values, "ARDOISE_SHARD_LEASE", "30", 1, 600)
        web_listen = _listen(values.get("ARDOISE_WEB", ""))
        web_url = values.get("ARDOISE_WEB_URL", "").strip().rstrip("/") or None
        if web_url is not None and not _WEB_ADDRESS.fullmatch(web_url):
            raise ConfigError(
                "ARDOISE_WEB_URL must be a web address (https://…, no spaces, brackets or "
                f"quotes), not {web_url!r}"
            )

        return cls(
            token=token,
            db_path=db_path,
            test_guild=test_guild,
            sharded=sharded_text in _TRUE,
            shard_ids=shard_ids,
            shard_count=shard_count,
            log_level=level,
            strong_searches=int(searches_text),
            strong_seconds=strong_seconds,
            force_sync=sync_text in _TRUE,
            privacy_url=privacy_url,
            shard_lease=shard_lease,
            web_listen=web_listen,
            web_url=web_url,
        )


def _shard_count(text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise ConfigError(f"ARDOISE_SHARD_COUNT must be a whole number, 1 or more, not {text!r}")
    return int(text)


def _shard_ids(text: str, count: int | None) -> tuple[int, ...] | None:
    """``0,1``, ``2-3`` or ``0,2-4``: the shard ids, sorted, each once; checked against the count
    when it is known (else at start, against Discord's: ``check_shard_ids``)."""
    text = text.strip()
    if not text:
        return None
    ids: list[int] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        low, high = low.strip(), high.strip()
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ConfigError("ARDOISE_SHARDS must be shard ids like 0,1 or 0-3, "
                              f"not {text!r}")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ConfigError(f"ARDOISE_SHARDS: the range {part.strip()!r} goes backwards")
        ids.extend(range(first, last + 1))
    if len(set(ids)) != len(ids):
        raise ConfigError(f"ARDOISE_SHARDS names a shard twice: {text!r}")
    found = tuple(sorted(ids))
    if count is not None:
        check_shard_ids(found, count, "ARDOISE_SHARD_COUNT")
    return found


def check_shard_ids(ids: tuple[int, ...], count: int, source: str) -> None:
    """Refuse a shard id that the count has not (shards are 0 to count - 1)."""
    beyond = [i for i in ids if i >= count]
    if beyond:
        raise ConfigError(
            f"ARDOISE_SHARDS names shard {beyond[0]}, but {source} is {count}: the shards are "
            f"0 to {count - 1}")


def _listen(text: str) -> tuple[str, int] | None:
    """``ARDOISE_WEB``: ``host:port``, ``:port`` (every address) or a bare port; empty: off."""
    text = text.strip()
    if not text or text.lower() in ("0", "off", "no", "false"):
        return None
    host, _, port_text = text.rpartition(":")
    host = host.strip("[]") if host else "0.0.0.0"
    if not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise ConfigError(
            f"ARDOISE_WEB must be host:port (127.0.0.1:8080) or a port, not {text!r}")
    return host, int(port_text)
