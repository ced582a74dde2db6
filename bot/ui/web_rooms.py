"""What ``/class room open|close|list`` show the teacher (``bot.flows.web_rooms`` conducts them,
``bot.play.web_rooms`` decides): the join code written large, the link, its QR code picture
(``images.qr``), when the room closes (a Discord timestamp, in the reader's own time), and the
server's rooms. Every reply is the teacher's alone (ephemeral): a room's code lets anyone in.

Also how a web student is named wherever a report names students: their nickname, marked
"(web)" (``web_name``), escaped like a display name where Discord reads markdown.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import discord

from bot.i18n import t
from bot.play import web_rooms as play
from bot.play.web_rooms import Closed, RoomSummary, room_link
from bot.replies import shown_name
from db.web_rooms import RoomRow

#: How long a room lasts by default and at most (``/class room open hours:``, declared to
#: Discord by the cog, which reads no use case).
DEFAULT_HOURS, MAX_HOURS = play.DEFAULT_HOURS, play.MAX_HOURS

#: The rooms ``/class room list`` shows, the open ones first (a server keeps its closed rooms
#: until the retention or the teacher erases them).
LISTED = 25
COLOUR = discord.Colour.teal()


def when(moment: datetime, style: str = "f") -> str:
    """A moment as Discord shows it in each reader's own zone and language."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def room_name(room: RoomRow) -> str:
    """The room's name as typed (escaped), else its code (a room without a name is known by
    it)."""
    if room.name:
        return shown_name(room.name, 60)
    return room.code


def opened_reply(room: RoomRow, base_url: str, qr_png: bytes, lang: str) -> dict[str, object]:
    """The teacher's private reply to ``/class room open``: the code, the link, the QR code."""
    link = room_link(base_url, room)
    content = "\n".join([
        t("web_rooms.opened", lang, name=room_name(room),
          closes=f"{when(room.expires_at)} ({when(room.expires_at, 'R')})"),
        t("web_rooms.code", lang, code=room.code),
        t("web_rooms.link", lang, link=link),
        t("web_rooms.how", lang, base=base_url),
    ])
    picture = discord.File(io.BytesIO(qr_png), filename=t("web_rooms.qr_file", lang,
                                                           code=room.code.lower()),
                           description=t("web_rooms.qr_alt", lang, link=link))
    return {"content": content, "file": picture}


def closed_text(closed: Closed, lang: str) -> str:
    name, code = room_name(closed.room), closed.room.code
    if closed.erased is None:
        return t("web_rooms.closed", lang, name=name, code=code)
    return t("web_rooms.closed_erased", lang, name=name, code=code, count=closed.erased)


def list_embed(rooms: Sequence[RoomSummary], now: datetime, lang: str) -> discord.Embed:
    """The server's rooms: the open ones, then the closed ones, newest first."""
    embed = discord.Embed(title=t("web_rooms.list.title", lang), colour=COLOUR)
    if not rooms:
        embed.description = t("web_rooms.list.empty", lang)
        return embed
    shown = rooms[:LISTED]
    for part, is_open in (("open", True), ("closed", False)):
        lines = [_line(r, now, lang) for r in shown if r.room.is_open(now) is is_open]
        if lines:
            embed.add_field(name=t(f"web_rooms.list.{part}", lang), value=_fit(lines),
                            inline=False)
    if len(rooms) > LISTED:
        embed.set_footer(text=t("web_rooms.list.more", lang, count=len(rooms) - LISTED))
    return embed


def _line(summary: RoomSummary, now: datetime, lang: str) -> str:
    room = summary.room
    words: dict[str, Any] = {"name": room_name(room), "code": room.code,
             "students": t("web_rooms.list.students", lang, count=summary.students),
             "opened": when(room.opened_at, "f")}
    if room.is_open(now):
        return t("web_rooms.list.open_line", lang, closes=when(room.expires_at, "f"), **words)
    return t("web_rooms.list.closed_line", lang, **words)


def _fit(lines: list[str], limit: int = 1000) -> str:
    # A field holds 1,024 characters: the newest rooms are kept, the others left to the footer's
    # count (the list has at most LISTED rooms).
    kept: list[str] = []
    for line in lines:
        if sum(len(k) + 1 for k in kept) + len(line) > limit:
            kept.append("…")
            break
        kept.append(line)
    return "\n".join(kept)


def room_choice_name(room: RoomRow, lang: str) -> str:
    """An open room in the close command's choices: "5e B · K7MXPA" (no markup is read there)."""
    if not room.name:
        return room.code
    return f"{shown_name(room.name, 60, markup=False)} · {room.code}"


def student_choice_name(nickname: str, room: str | None, lang: str) -> str:
    """A browser student in the report's choices: "Léa (web) · 5e B" (no markup is read
    there)."""
    name = shown_name(web_name(nickname, lang), 60, markup=False)
    return name if not room else f"{name} · {shown_name(room, 30, markup=False)}"


def web_name(nickname: str, lang: str) -> str:
    """A web student as a report names them: "Léa (web)" (raw: the caller escapes it where
    Discord reads markdown, as it does a display name)."""
    return t("web_rooms.student_name", lang, nickname=nickname)
