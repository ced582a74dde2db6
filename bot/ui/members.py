"""The members a flow names, as Discord gives them.

The bot has no member list (no privileged intent, so ``guild.get_member`` finds nobody): a
member is known from an interaction they made, else fetched. ``fetch_members`` is the one
fetch of many at once; ``display_names`` the one way from members to the names shown (a member
Discord no longer gives named as the caller says, or left out); ``KnownNames`` keeps the display
names a flow has seen, so that a name is fetched once per process at most.

A student of a class room on the web (a negative player id, ``bot.play.web_rooms``) is no
member: Discord is never asked for them (``fetch_members`` gives ``None`` without a request), and
the reports name them by their nickname, marked "(web)" (``web_names``), never as a mention.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping

import discord

from bot.play.web_rooms import is_web_player, nicknames
from bot.texts import DEFAULT_LANG
from bot.ui.web_rooms import web_name
from db import Database

#: Fetches in flight at once: a report names a class (dozens), Discord's bucket is per route.
FETCHES = 16


async def fetch_members(guild: discord.Guild, user_ids: Iterable[int], *,
                        gone: type[Exception] | tuple[type[Exception], ...]
                        = discord.HTTPException,
                        at_once: int = FETCHES) -> dict[int, discord.Member | None]:
    """These members (each once, in order), ``None`` for one Discord did not give with a
    ``gone`` error (a member who left: ``discord.NotFound``; by default any refusal); another
    error stops the fetch (a caller who must not take a failure for a departure says so)."""
    gate = asyncio.Semaphore(at_once)

    async def fetch(uid: int) -> discord.Member | None:
        async with gate:
            try:
                return await guild.fetch_member(uid)
            except gone:
                return None

    ids = list(dict.fromkeys(user_ids))
    asked = [uid for uid in ids if not is_web_player(uid)]  # a web student has no account
    found = dict(zip(asked, await asyncio.gather(*(fetch(uid) for uid in asked)), strict=True))
    return {uid: found.get(uid) for uid in ids}


async def web_names(db: Database, guild_id: int | None, user_ids: Iterable[int], lang: str
                    ) -> dict[int, str]:
    """The web students among these players, named "Léa (web)" (raw: escaped where shown, as a
    display name is); one erased is left out."""
    wanted = [uid for uid in dict.fromkeys(user_ids) if is_web_player(uid)]
    if guild_id is None or not wanted:
        return {}
    found = await nicknames(db, guild_id, wanted)
    return {uid: web_name(found[uid], lang) for uid in wanted if uid in found}


def names_of(members: Mapping[int, discord.Member | None], *, absent: str | None = None
             ) -> dict[int, str]:
    """The display names of fetched members; one Discord did not give (``None``) is named
    ``absent`` ("a former member") when given, else left out."""
    names = {uid: member.display_name for uid, member in members.items() if member is not None}
    if absent is None:
        return names
    return {uid: names.get(uid, absent) for uid in members}


async def display_names(guild: discord.Guild | None, user_ids: Iterable[int], *,
                        absent: str | None = None) -> dict[int, str]:
    """The display names of these members (each once, in order), fetched together; outside a
    server nobody is fetched. One Discord does not give is named ``absent`` when given, else
    left out."""
    wanted = list(dict.fromkeys(user_ids))
    found = await fetch_members(guild, wanted) if guild is not None else {}
    return names_of({uid: found.get(uid) for uid in wanted}, absent=absent)


class KnownNames:
    """Display names by server and member, learnt from interactions and fetches; with a
    database, the web students' nicknames too (read each time: a seat erased is gone at once)."""

    def __init__(self, db: Database | None = None) -> None:
        self._names: dict[tuple[int, int], str] = {}
        self._db = db

    def learn(self, guild_id: int | None, user: discord.abc.User) -> str:
        """Remember the name of a member who just acted; gives it."""
        if guild_id is not None:
            self._names[(guild_id, user.id)] = user.display_name
        return user.display_name

    async def names(self, guild: discord.Guild | None, user_ids: Iterable[int],
                    lang: str = DEFAULT_LANG) -> dict[int, str]:
        """The names of these members: the known ones, the others fetched (together); a member
        Discord does not give (left, erased) is absent. A web student is named "Léa (web)" in
        ``lang`` when the names were given a database, else absent."""
        wanted = list(dict.fromkeys(user_ids))
        if guild is None:
            return {}
        web = (await web_names(self._db, guild.id, wanted, lang)
               if self._db is not None else {})
        missing = [uid for uid in wanted
                   if (guild.id, uid) not in self._names and not is_web_player(uid)]
        if missing:
            for uid, name in (await display_names(guild, missing)).items():
                self._names[(guild.id, uid)] = name
        return {uid: web[uid] if uid in web else self._names[(guild.id, uid)] for uid in wanted
                if uid in web or (guild.id, uid) in self._names}
