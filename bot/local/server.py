"""A stand-in for Discord that the real discord.py client talks to, on this machine.

It plays Discord's two faces:

- the REST API discord.py calls (current user, application, gateway, command sync, interaction
  callbacks, webhook follow-ups and edits, channel messages, multipart uploads), with Discord's
  own status codes and error bodies for the mistakes a bot can make (answering twice or late,
  an empty or oversized message, a follow-up before any answer);
- the gateway websocket: HELLO, IDENTIFY → READY (with ``shard``) and one GUILD_CREATE per server,
  heartbeat ACKs, RESUME, then the INTERACTION_CREATE events a test or a local player causes.

Its Python API acts as members and reads what they see::

    standin = StandIn()
    await standin.start()
    standin.point_discord_here()              # discord.py now talks to the stand-in
    ana = standin.add_member("Ana", locale="fr")
    ... start the bot with token standin.token ...
    record = await standin.slash(ana, "digits card", digit="Odd")
    record.reply.embeds[0]["title"]           # what Ana saw
    await standin.click(ana, record.reply, "digits.accept:12:3")

Every interaction's time to first answer is recorded (``answer_times``); an answer later than
Discord's 3 seconds is refused with Discord's "Unknown interaction" and recorded in ``errors``, as
is any other misuse. Tests assert that ``errors`` is empty.

Message dicts (embeds, components) are kept exactly as the bot sent them, Discord's JSON shape.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import hashlib
import itertools
import json
import logging
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

log = logging.getLogger(__name__)

DISCORD_EPOCH_MS = 1_420_070_400_000
API_VERSION = 10
ANSWER_DEADLINE = 3.0  # seconds Discord gives a bot to answer an interaction
MAX_FILE_SIZE = 10 * 1024 * 1024

# Permission bits (Discord's values) that the stand-in hands out.
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MEMBER_PERMISSIONS = (
    ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES
    | READ_MESSAGE_HISTORY | USE_EXTERNAL_EMOJIS | USE_APPLICATION_COMMANDS
)
TEACHER_PERMISSIONS = MEMBER_PERMISSIONS | MANAGE_GUILD | MANAGE_MESSAGES
BOT_PERMISSIONS = MEMBER_PERMISSIONS | MANAGE_MESSAGES

# Interaction types and callback types (Discord's numbers).
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE,
                        MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}
INTERACTION_NAMES = {APPLICATION_COMMAND: "command", MESSAGE_COMPONENT: "click",
                     AUTOCOMPLETE: "autocomplete", MODAL_SUBMIT: "modal"}

EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

# Option types.
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN = 1, 2, 3, 4, 5
USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 6, 7, 8, 9, 10, 11

NAME_RE = re.compile(r"^[-_\w]{1,32}$")
MENTION_RE = re.compile(r"<@!?(\d+)>")
SELECT_TYPES = {3, 5, 6, 7, 8}


class StandInError(Exception):
    """Something a member cannot do (unknown command, disabled button…); the message says why."""


class NoAnswer(StandInError):
    """The bot did not answer an interaction in time."""


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


def _fold(text: str) -> str:
    # "Règles", "regles" and "REGLES" are one name to a member typing it.
    decomposed = unicodedata.normalize("NFKD", text.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


# --------------------------------------------------------------------------------------------
# The world: users, members, channels, servers, messages


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "username": self.name.lower().replace(" ", "_"),
            "global_name": self.name, "discriminator": "0", "avatar": None, "bot": self.bot,
            "public_flags": 0, "flags": 0, "locale": self.locale,
        }


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "name": self.name, "color": 0, "hoist": False,
            "position": self.position, "permissions": str(self.permissions), "managed": False,
            "mentionable": False, "flags": 0, "icon": None, "unicode_emoji": None,
        }


@dataclass(eq=False)
class Member:
    user: User
    guild: Guild
    roles: list[Role] = field(default_factory=list)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def locale(self) -> str:
        return self.user.locale

    @property
    def mention(self) -> str:
        return self.user.mention

    @property
    def permissions(self) -> int:
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        if value & ADMINISTRATOR or self.id == self.guild.owner_id:
            return (1 << 53) - 1
        return value

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r.id) for r in self.roles], "joined_at": "2026-09-01T08:00:00+00:00",
            "deaf": False, "mute": False, "flags": 0, "pending": False, "nick": None,
            "avatar": None, "premium_since": None, "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


@dataclass(eq=False)
class Channel:
    id: int
    name: str
    guild: Guild | None
    type: int = 0  # 0 = text channel, 1 = direct message
    position: int = 0
    recipient: User | None = None
    messages: list[Message] = field(default_factory=list)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> dict[str, Any]:
        if self.type == 1:
            return {"id": str(self.id), "type": 1, "last_message_id": None,
                    "recipients": [self.recipient.payload()] if self.recipient else []}
        assert self.guild is not None
        return {
            "id": str(self.id), "type": self.type, "name": self.name,
            "guild_id": str(self.guild.id),
            "position": self.position, "permission_overwrites": [], "topic": None, "nsfw": False,
            "last_message_id": None, "rate_limit_per_user": 0, "parent_id": None, "flags": 0,
        }

    def visible(self) -> list[Message]:
        return [m for m in self.messages if not m.deleted]


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    everyone: Role
    locale: str = "en-US"
    roles: list[Role] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "name": self.name, "owner_id": str(self.owner_id), "icon": None,
            "splash": None, "discovery_splash": None, "banner": None, "description": None,
            "roles": [self.everyone.payload(), *(r.payload() for r in self.roles)],
            "channels": [c.payload() for c in self.channels],
            "members": [m.payload() for m in self.members.values()],
            "member_count": len(self.members), "large": False, "unavailable": False,
            "joined_at": "2026-09-01T08:00:00+00:00", "features": [], "emojis": [],
            "stickers": [], "voice_states": [], "presences": [], "threads": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "preferred_locale": self.locale, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0,
            "afk_timeout": 300, "afk_channel_id": None, "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None, "premium_tier": 0,
            "nsfw_level": 0, "mfa_level": 0, "application_id": None,
        }


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str = "application/octet-stream"
    description: str | None = None
    url: str = ""

    def payload(self) -> dict[str, Any]:
        data = {
            "id": str(self.id), "filename": self.filename, "size": len(self.data),
            "url": self.url, "proxy_url": self.url, "content_type": self.content_type,
        }
        if self.description:
            data["description"] = self.description
        return data


@dataclass(eq=False)
class Message:
    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    ephemeral_to: int | None = None  # member id when only that member sees it
    interaction: InteractionRecord | None = None  # the interaction this message answers
    webhook_id: int | None = None
    edited: bool = False
    deleted: bool = False
    created_at: str = field(default_factory=_now_iso)
    edited_at: str | None = None
    # As the bot last sent it (None: not given, and Discord then parses every mention).
    allowed_mentions: dict[str, Any] | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def payload(self) -> dict[str, Any]:
        channel = self.channel
        data: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(channel.id), "author": self.author.payload(),
            "content": self.content, "timestamp": self.created_at,
            "edited_timestamp": self.edited_at, "tts": False, "mention_everyone": False,
            "mentions": [], "mention_roles": [], "pinned": False, "type": self.type,
            "flags": self.flags, "embeds": self.embeds, "components": self.components,
            "attachments": [a.payload() for a in self.attachments],
        }
        if channel.guild is not None:
            data["guild_id"] = str(channel.guild.id)
            members = channel.guild.members
            data["mentions"] = [
                members[int(i)].user.payload() for i in MENTION_RE.findall(self.content)
                if int(i) in members
            ]
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction is not None:
            record = self.interaction
            data["interaction_metadata"] = {
                "id": str(record.id), "type": record.type, "user": record.member.user.payload(),
                "authorizing_integration_owners": {"0": str(record.member.guild.id)},
            }
        return data

    # Reading helpers for tests and the terminal -------------------------------------------

    def pinged(self) -> set[int]:
        """The members Discord would notify: the mentions of the content (embeds never ping)
        that ``allowed_mentions`` lets through; ``@everyone``/``@here`` and roles count their
        members."""
        allowed = self.allowed_mentions
        parse = {"users", "roles", "everyone"} if allowed is None else set(
            allowed.get("parse") or [])
        users = {int(u) for u in (allowed or {}).get("users") or []}
        roles = {int(r) for r in (allowed or {}).get("roles") or []}
        guild = self.channel.guild
        members = guild.members if guild is not None else {}
        found = {int(i) for i in MENTION_RE.findall(self.content)
                 if "users" in parse or int(i) in users}
        for role_id in map(int, re.findall(r"<@&(\d+)>", self.content)):
            if "roles" in parse or role_id in roles:
                found |= {m.id for m in members.values() if any(r.id == role_id
                                                                for r in m.roles)}
        if "everyone" in parse and re.search(r"@(everyone|here)\b", self.content):
            found |= set(members)
        return found

    def walk_components(self) -> Iterable[dict[str, Any]]:
        """Every component of the message, rows and containers included, depth first."""
        def walk(items: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
            for item in items:
                yield item
                yield from walk(item.get("components", []))
                if "component" in item:
                    yield from walk([item["component"]])
                if "accessory" in item:
                    yield from walk([item["accessory"]])
        return walk(self.components)

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.walk_components() if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.walk_components() if c.get("type") in SELECT_TYPES]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in self.walk_components() if c.get("custom_id") == custom_id), None)

    def button(self, label: str) -> dict[str, Any]:
        """The button whose label is ``label`` (case and spaces ignored)."""
        for button in self.buttons():
            if _fold(button.get("label") or "") == _fold(label):
                return button
        labels = ", ".join(repr(b.get("label")) for b in self.buttons()) or "none"
        raise StandInError(f"no button {label!r} on this message (buttons: {labels})")

    def text(self) -> str:
        """Everything readable in the message as plain text: content, embeds, components, files."""
        lines: list[str] = []
        if self.content:
            lines.append(self.content)
        for embed in self.embeds:
            for key in ("author", "title", "description"):
                value = embed.get(key)
                if isinstance(value, dict):
                    value = value.get("name")
                if value:
                    lines.append(str(value))
            for item in embed.get("fields", []):
                lines.append(f"{item.get('name', '')}: {item.get('value', '')}")
            footer = embed.get("footer", {}).get("text")
            if footer:
                lines.append(footer)
        for component in self.walk_components():
            kind = component.get("type")
            if kind == 2:
                mark = " (disabled)" if component.get("disabled") else ""
                label = component.get("label") or component.get("emoji", {}).get("name", "")
                lines.append(f"[{label}]{mark}")
            elif kind in SELECT_TYPES:
                options = ", ".join(o.get("label", "") for o in component.get("options", []))
                lines.append(f"<{component.get('placeholder') or 'menu'}: {options}>")
            elif kind == 10:
                lines.append(component.get("content", ""))
        lines.extend(f"📎 {a.filename}" for a in self.attachments)
        return "\n".join(lines)


@dataclass(eq=False)
class InteractionRecord:
    """One interaction sent to the bot, and everything the bot did with it."""

    id: int
    token: str
    type: int
    member: Member
    channel: Channel
    data: dict[str, Any]
    message: Message | None = None  # the message whose component was used
    label: str = ""  # "/digits card" or "click digits.accept:1:1", for error messages
    sent_at: float | None = None
    answered_at: float | None = None
    callback_type: int | None = None
    late: bool = False
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None

    @property
    def answered(self) -> bool:
        return self.answered_at is not None

    @property
    def answer_time(self) -> float | None:
        """Seconds from the event reaching the bot's socket to the bot's first answer."""
        if self.sent_at is None or self.answered_at is None:
            return None
        return self.answered_at - self.sent_at

    @property
    def settled(self) -> bool:
        """Answered, and a deferred "thinking" answer has been replaced by the real one."""
        return self.answered and not (self.original is not None and self.original.loading)

    @property
    def deferred(self) -> bool:
        return self.callback_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE)

    @property
    def messages(self) -> list[Message]:
        """The messages this interaction produced or updated, original first."""
        found = [self.original] if self.original is not None else []
        return [m for m in [*found, *self.followups] if not m.deleted]

    @property
    def reply(self) -> Message:
        """The message the member saw as the answer (the original, else the first follow-up)."""
        messages = self.messages
        if not messages:
            raise StandInError(f"{self.label}: the bot answered without a message "
                               f"(callback type {self.callback_type})")
        return messages[0]

    @property
    def ephemeral(self) -> bool:
        return self.reply.ephemeral


# --------------------------------------------------------------------------------------------
# Validation of what the bot sends (Discord's limits)


def _embed_problems(embed: Mapping[str, Any], where: str) -> list[str]:
    problems = []
    limits = {"title": 256, "description": 4096}
    total = 0
    for key, limit in limits.items():
        text = embed.get(key) or ""
        total += len(text)
        if len(text) > limit:
            problems.append(f"{where}.{key} is {len(text)} characters (max {limit})")
    fields = embed.get("fields", [])
    if len(fields) > 25:
        problems.append(f"{where} has {len(fields)} fields (max 25)")
    for i, item in enumerate(fields):
        name, value = item.get("name") or "", item.get("value") or ""
        total += len(name) + len(value)
        if not name or not value:
            problems.append(f"{where}.fields[{i}] needs a name and a value")
        if len(name) > 256 or len(value) > 1024:
            problems.append(f"{where}.fields[{i}] is too long (name 256, value 1024)")
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    total += len(footer) + len(author)
    if len(footer) > 2048 or len(author) > 256:
        problems.append(f"{where} footer or author too long")
    if total > 6000:
        problems.append(f"{where} holds {total} characters (max 6000)")
    return problems


def _component_problems(components: Sequence[Mapping[str, Any]], flags: int) -> list[str]:
    problems: list[str] = []
    ids: list[str] = []
    if flags & COMPONENTS_V2:
        # Layout components: only check custom ids below.
        rows: Sequence[Mapping[str, Any]] = []
    else:
        rows = components
        if len(rows) > 5:
            problems.append(f"{len(rows)} action rows (max 5)")
        for r, row in enumerate(rows):
            if row.get("type") != 1:
                problems.append(f"components[{r}] must be an action row (type 1)")
                continue
            items = row.get("components", [])
            if not items:
                problems.append(f"components[{r}] is an empty action row")
            has_select = any(i.get("type") in SELECT_TYPES for i in items)
            if has_select and len(items) > 1:
                problems.append(f"components[{r}]: a select menu must be alone in its row")
            if len(items) > 5:
                problems.append(f"components[{r}] has {len(items)} buttons (max 5)")

    def walk(items: Iterable[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
        for item in items:
            yield item
            yield from walk(item.get("components", []))

    for item in walk(components):
        kind = item.get("type")
        if kind == 2:
            if item.get("style") == 5:
                if not item.get("url"):
                    problems.append("a link button needs a url")
            elif not item.get("custom_id"):
                problems.append("a button needs a custom_id")
            if len(item.get("label") or "") > 80:
                problems.append(f"button label {item.get('label')!r} is over 80 characters")
            if not item.get("label") and not item.get("emoji"):
                problems.append("a button needs a label or an emoji")
        elif kind in SELECT_TYPES:
            options = item.get("options", [])
            if kind == 3 and not 1 <= len(options) <= 25:
                problems.append(f"select {item.get('custom_id')!r} has {len(options)} options "
                                f"(1 to 25)")
            for option in options:
                if len(option.get("label") or "") > 100 or len(str(option.get("value"))) > 100:
                    problems.append(f"select {item.get('custom_id')!r}: option over 100 chars")
        custom_id = item.get("custom_id")
        if custom_id is not None:
            if len(custom_id) > 100:
                problems.append(f"custom_id {custom_id!r} is over 100 characters")
            ids.append(custom_id)
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        problems.append(f"custom ids used twice in one message: {sorted(duplicates)}")
    return problems


def message_problems(data: Mapping[str, Any], files: int, *, creating: bool) -> list[str]:
    """What Discord would refuse in a message body (create or edit)."""
    problems = []
    content = data.get("content") or ""
    if len(content) > 2000:
        problems.append(f"content is {len(content)} characters (max 2000)")
    embeds = data.get("embeds") or []
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds (max 10)")
    for i, embed in enumerate(embeds):
        problems.extend(_embed_problems(embed, f"embeds[{i}]"))
    problems.extend(_component_problems(data.get("components") or [], data.get("flags") or 0))
    if files > 10:
        problems.append(f"{files} files (max 10)")
    if creating and not (content or embeds or files or data.get("components")
                         or data.get("poll")):
        problems.append("Cannot send an empty message")
    return problems


def command_problems(commands: Sequence[Mapping[str, Any]]) -> list[str]:
    """What Discord would refuse in a bulk command sync."""
    problems = []
    names = [c.get("name") for c in commands if c.get("type", 1) == 1]
    if len(names) > 100:
        problems.append(f"{len(names)} slash commands (max 100)")
    if len(set(names)) != len(names):
        problems.append(f"a command name is used twice: {names}")

    def check(item: Mapping[str, Any], where: str, depth: int) -> None:
        name = item.get("name", "")
        if not NAME_RE.match(name) or name != name.lower():
            problems.append(f"{where}: name {name!r} is not a valid lowercase command name")
        description = item.get("description", "")
        if not 1 <= len(description) <= 100:
            problems.append(f"{where}: description must be 1 to 100 characters")
        for locale, text in (item.get("name_localizations") or {}).items():
            if not NAME_RE.match(text) or text != text.lower():
                problems.append(f"{where}: {locale} name {text!r} is not a valid command name")
        for locale, text in (item.get("description_localizations") or {}).items():
            if not 1 <= len(text) <= 100:
                problems.append(f"{where}: {locale} description must be 1 to 100 characters")
        options = item.get("options") or []
        if len(options) > 25:
            problems.append(f"{where}: {len(options)} options (max 25)")
        seen_optional = False
        option_names = [o.get("name") for o in options]
        if len(set(option_names)) != len(option_names):
            problems.append(f"{where}: an option name is used twice")
        for option in options:
            kind = option.get("type")
            sub = f"{where} {option.get('name')}"
            if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
                if depth >= 2 or (kind == SUB_COMMAND_GROUP and depth >= 1):
                    problems.append(f"{sub}: nested too deep")
                check(option, sub, depth + 1)
                continue
            if option.get("required"):
                if seen_optional:
                    problems.append(f"{sub}: a required option after an optional one")
            else:
                seen_optional = True
            check(option, sub, depth + 1)
            for choice in option.get("choices") or []:
                if not 1 <= len(choice.get("name", "")) <= 100:
                    problems.append(f"{sub}: choice name must be 1 to 100 characters")

    for command in commands:
        check(command, f"/{command.get('name')}", 0)
    return problems


# --------------------------------------------------------------------------------------------
# The server


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py parses a body as JSON only when Content-Type is exactly application/json.
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json"})


def _error(status: int, code: int, message: str, **extra: Any) -> web.Response:
    return _json({"message": message, "code": code, **extra}, status=status)


def _no_content() -> web.Response:
    return web.Response(status=204)


@dataclass(eq=False)
class _Session:
    ws: web.WebSocketResponse
    session_id: str = ""
    shard: tuple[int, int] = (0, 1)
    sequence: int = 0
    ready: bool = False

    async def send(self, op: int, data: Any, event: str | None = None) -> None:
        payload: dict[str, Any] = {"op": op, "d": data, "s": None, "t": event}
        if op == 0:
            self.sequence += 1
            payload["s"] = self.sequence
        await self.ws.send_str(json.dumps(payload))


@dataclass
class _Upload:
    filename: str
    data: bytes
    content_type: str


class StandIn:
    """Discord on this machine. See the module's docstring for the tour."""

    def __init__(
        self,
        *,
        token: str | None = None,
        app_name: str = "Ardoise",
        shards: int = 1,
        answer_deadline: float = ANSWER_DEADLINE,
        settle_timeout: float = 10.0,
        guild_name: str = "Classroom",
        guild_locale: str = "en-US",
        stable_ids: bool = False,
    ) -> None:
        """``stable_ids``: the application, servers, channels, roles and members get ids derived
        from their names, the same on every run (local play keeps a member's progress in the
        database from one session to the next); messages and interactions never need it."""
        self.token = token or f"standin.{secrets.token_urlsafe(24)}"
        self.recommended_shards = shards
        self.answer_deadline = answer_deadline
        self.settle_timeout = settle_timeout
        self.errors: list[str] = []
        self.requests: list[tuple[str, str]] = []  # (method, path) of every REST call
        self.listeners: list[Callable[[str, Any], None]] = []  # (event, Message|record)

        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        self._ids = itertools.count(ms)
        self.stable_ids = stable_ids
        self.app_id = self._named_id("application", app_name)
        self.bot_user = User(self.app_id, app_name, bot=True)
        self.owner = User(self._named_id("user", "Owner"), "Owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        #: Files members attached to a command's option (``upload``), by id.
        self.uploads: dict[int, Attachment] = {}
        #: Uploads whose download fails, with the HTTP status the stand-in's CDN answers.
        self.failed_downloads: dict[int, int] = {}
        self.ephemerals: dict[int, list[Message]] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {None: []}
        #: Every bulk command sync received, in order: (guild id or None, the body as sent).
        self.syncs: list[tuple[int | None, list[dict[str, Any]]]] = []
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self._sessions: list[_Session] = []
        self._in_flight = 0
        # Waiters by the interaction they wait on (None: anything, e.g. a new message).
        self._waiters: dict[int | None, list[tuple[Callable[[], bool], asyncio.Future[None]]]] = {}
        self._runner: web.AppRunner | None = None
        self._restore: Callable[[], None] | None = None
        self.port = 0

        self.guild = self.add_guild(guild_name, locale=guild_locale)
        self.channel = self.guild.channels[0]

    # World building ---------------------------------------------------------------------

    def _next_id(self) -> int:
        # Timestamp-based snowflakes, one millisecond apart, so that servers spread over shards.
        return next(self._ids) << 22

    def _named_id(self, kind: str, *names: str) -> int:
        if not self.stable_ids:
            return self._next_id()
        # A snowflake from 2021–2024 (before any counted id) drawn from the names' hash.
        digest = int.from_bytes(hashlib.sha256(":".join((kind, *names)).encode()).digest()[:8],
                                "big")
        start = 1_609_459_200_000 - DISCORD_EPOCH_MS  # 2021-01-01
        span = 4 * 365 * 24 * 3600 * 1000
        return ((start + digest % span) << 22) | ((digest >> 48) & 0x3FFFFF)

    def add_guild(self, name: str, *, locale: str = "en-US", channel: str = "general") -> Guild:
        gid = self._named_id("guild", name)
        guild = Guild(gid, name, self.owner.id, Role(gid, "@everyone", MEMBER_PERMISSIONS),
                      locale=locale)
        guild.roles.append(Role(self._named_id("role", name, "Teacher"), "Teacher",
                                TEACHER_PERMISSIONS, position=1))
        guild.members[self.bot_user.id] = Member(self.bot_user, guild)
        self.guilds[gid] = guild
        self.commands.setdefault(gid, [])
        self.add_channel(channel, guild=guild)
        return guild

    def add_channel(self, name: str, *, guild: Guild | None = None) -> Channel:
        guild = guild or self.guild
        channel = Channel(self._named_id("channel", guild.name, name), name, guild,
                          position=len(guild.channels))
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        self._broadcast(guild, "CHANNEL_CREATE", channel.payload())
        return channel

    def add_role(self, name: str, *, permissions: int = 0, guild: Guild | None = None) -> Role:
        """A new role of ``guild`` (default: the first server), with these permission bits."""
        guild = guild or self.guild
        role = Role(self._named_id("role", guild.name, name), name, permissions,
                    position=len(guild.roles) + 1)
        guild.roles.append(role)
        self._broadcast(guild, "GUILD_ROLE_CREATE", {"guild_id": str(guild.id),
                                                     "role": role.payload()})
        return role

    def role(self, name: str, guild: Guild | None = None) -> Role:
        guild = guild or self.guild
        for role in guild.roles:
            if _fold(role.name) == _fold(name):
                return role
        raise StandInError(f"no role named {name!r}")

    def add_member(
        self,
        name: str,
        *,
        locale: str = "en-US",
        teacher: bool = False,
        roles: Sequence[Role] = (),
        guild: Guild | None = None,
        user: User | None = None,
    ) -> Member:
        """A member of ``guild`` (default: the first server); ``teacher`` gives the "Teacher"
        role (Manage Server); ``user`` makes an existing user join another server."""
        guild = guild or self.guild
        if user is None:
            user = User(self._named_id("user", name), name, locale=locale)
            self.users[user.id] = user
        member = Member(user, guild, list(roles))
        if teacher:
            member.roles.append(self.role("Teacher", guild))
        guild.members[user.id] = member
        self._broadcast(guild, "GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(guild.id)})
        return member

    def member(self, name: str, guild: Guild | None = None) -> Member:
        guild = guild or self.guild
        for member in guild.members.values():
            if _fold(member.name) == _fold(name):
                return member
        raise StandInError(f"no member named {name!r}")

    # Reading --------------------------------------------------------------------------------

    def channel_messages(self, channel: Channel | None = None) -> list[Message]:
        """The public messages of a channel (default: the first one), oldest first."""
        return (channel or self.channel).visible()

    def last_message(self, channel: Channel | None = None) -> Message:
        messages = self.channel_messages(channel)
        if not messages:
            raise StandInError("no message in the channel")
        return messages[-1]

    def ephemeral_messages(self, member: Member) -> list[Message]:
        """The messages only ``member`` sees, oldest first."""
        return [m for m in self.ephemerals.get(member.id, []) if not m.deleted]

    @property
    def answer_times(self) -> list[float]:
        return [r.answer_time for r in self.interactions.values() if r.answer_time is not None]

    def take_errors(self) -> list[str]:
        """The errors recorded so far, clearing them (for tests that cause one on purpose)."""
        errors, self.errors = self.errors, []
        return errors

    def _error(self, text: str) -> None:
        log.warning("stand-in: %s", text)
        self.errors.append(text)

    # Life cycle -------------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v{API_VERSION}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self, port: int = 0) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self._gateway)
        app.router.add_route("GET", "/attachments/{message_id}/{attachment_id}/{filename}",
                             self._get_attachment)
        app.router.add_route("GET", "/uploads/{attachment_id}/{filename}", self._get_upload)
        app.router.add_route("*", "/api/v{version}/{path:.*}", self._api)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        # A class clicking at once opens hundreds of connections: a short listen backlog would
        # drop some, and TCP retries them a full second later.
        site = web.TCPSite(self._runner, "127.0.0.1", port, backlog=2048)
        await site.start()
        server = site._server
        # aiohttp types it as an AbstractServer; a TCP site's is the asyncio.Server it opened.
        assert isinstance(server, asyncio.Server)
        self.port = server.sockets[0].getsockname()[1]

    def point_discord_here(self) -> Callable[[], None]:
        """Make discord.py talk to this stand-in; returns a function that undoes it."""
        import discord.gateway
        import discord.http
        import yarl

        route, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)

        def restore() -> None:
            discord.http.Route.BASE = route
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway

        self._restore = restore
        return restore

    async def close(self) -> None:
        for session in list(self._sessions):
            with contextlib.suppress(Exception):
                await session.ws.close(code=1001)
        self._sessions.clear()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._restore is not None:
            self._restore()
            self._restore = None

    async def __aenter__(self) -> StandIn:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def connected(self) -> bool:
        return any(s.ready for s in self._sessions)

    @property
    def connected_shards(self) -> set[tuple[int, int]]:
        """The (shard id, shard count) of every ready gateway connection: one per shard of each
        bot process connected (a process of ``ARDOISE_SHARDS=0,1`` has two)."""
        return {s.shard for s in self._sessions if s.ready}

    @property
    def shard_connections(self) -> list[tuple[int, int]]:
        """The (shard id, shard count) of every ready gateway connection, one entry per
        connection: two processes serving one shard show it twice."""
        return sorted(s.shard for s in self._sessions if s.ready)

    def shard_of(self, guild: Guild, shard_count: int) -> int:
        """The shard whose connection gets ``guild``'s events among ``shard_count`` (Discord's
        rule, ``(guild_id >> 22) % shard_count``)."""
        return self._shard_of(guild.id, shard_count)

    async def wait_connected(self, timeout: float = 5.0) -> None:
        await self._wait(lambda: self.connected, timeout, "the bot never connected to the gateway")

    def _notify(self, event: str | None = None, item: Any = None, key: int | None = None) -> None:
        """Tell the listeners about ``event`` and wake the waiters whose condition now holds:
        those on interaction ``key`` (when given) and those on anything."""
        if event is not None:
            for listener in list(self.listeners):
                try:
                    listener(event, item)
                except Exception:
                    log.exception("stand-in listener failed on %s", event)
        # Conditions are checked here, synchronously: with a class of waiters, waking every
        # waiting task on every change would cost a task switch per waiter per request.
        for group in {key, None}:
            waiting = []
            for predicate, future in self._waiters.get(group, []):
                if future.done():
                    continue
                try:
                    if predicate():
                        future.set_result(None)
                        continue
                except Exception as error:
                    future.set_exception(error)
                    continue
                waiting.append((predicate, future))
            if waiting:
                self._waiters[group] = waiting
            else:
                self._waiters.pop(group, None)

    async def _wait(self, predicate: Callable[[], bool], timeout: float, what: str,
                    key: int | None = None) -> None:
        if predicate():
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(key, []).append((predicate, future))
        try:
            async with asyncio.timeout(timeout):
                await future
        except TimeoutError:
            raise NoAnswer(what) from None
        finally:
            future.cancel()  # a done future ignores it; _notify drops cancelled ones

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
        """Wait until ``predicate()`` holds; it is checked after every change the bot makes."""
        await self._wait(predicate, timeout, f"still not true after {timeout} s")

    async def idle(self, quiet: float = 0.02, timeout: float = 5.0) -> None:
        """Wait until the bot has made no request for ``quiet`` seconds (its work is done)."""
        async with asyncio.timeout(timeout):
            while True:
                seen = len(self.requests)
                await asyncio.sleep(quiet)
                if self._in_flight == 0 and len(self.requests) == seen:
                    return

    async def wait_for_message(
        self,
        predicate: Callable[[Message], bool] | None = None,
        *,
        channel: Channel | None = None,
        after: Message | None = None,
        timeout: float = 5.0,
    ) -> Message:
        """The first public message of ``channel`` that matches ``predicate``, posted after
        ``after`` (by default: posted from now on)."""
        channel = channel or (after.channel if after is not None else self.channel)
        start = len(channel.messages) if after is None else channel.messages.index(after) + 1

        def found() -> Message | None:
            for message in channel.messages[start:]:
                if not message.deleted and (predicate is None or predicate(message)):
                    return message
            return None

        await self._wait(lambda: found() is not None, timeout,
                         f"no new message in #{channel.name} within {timeout} s")
        message = found()
        assert message is not None
        return message

    # Gateway ----------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = _Session(ws)
        self._sessions.append(session)
        try:
            await session.send(10, {"heartbeat_interval": 41250})
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                packet = json.loads(msg.data)
                op, data = packet.get("op"), packet.get("d")
                if op == 1:
                    await session.send(11, None)
                elif op == 2:
                    await self._identify(session, data)
                elif op == 6:
                    await self._resume(session, data)
                # Presence updates (3) and member requests (8) need no answer here.
        finally:
            if session in self._sessions:
                self._sessions.remove(session)
            self._notify()
        return ws

    def _shard_of(self, guild_id: int, count: int) -> int:
        return (guild_id >> 22) % count

    async def _identify(self, session: _Session, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard = data.get("shard") or [0, 1]
        session.shard = (int(shard[0]), int(shard[1]))
        session.session_id = secrets.token_hex(16)
        guilds = [g for g in self.guilds.values()
                  if self._shard_of(g.id, session.shard[1]) == session.shard[0]]
        ready = {
            "v": API_VERSION, "user": {**self.bot_user.payload(), "verified": True,
                                       "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id, "resume_gateway_url": self.gateway_url,
            "shard": list(session.shard), "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [], "relationships": [], "session_type": "normal",
        }
        await session.send(0, ready, "READY")
        for guild in guilds:
            await session.send(0, guild.payload(), "GUILD_CREATE")
        session.ready = True
        self._notify()

    async def _resume(self, session: _Session, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        # A resumed session starts afresh here: no event is ever queued while disconnected.
        await session.send(9, False)

    def _session_for(self, guild: Guild | None) -> _Session:
        for session in self._sessions:
            if not session.ready:
                continue
            if guild is None or self._shard_of(guild.id, session.shard[1]) == session.shard[0]:
                return session
        raise StandInError("the bot is not connected")

    def _broadcast(self, guild: Guild, event: str, data: dict[str, Any]) -> None:
        for session in self._sessions:
            if session.ready and self._shard_of(guild.id, session.shard[1]) == session.shard[0]:
                asyncio.get_running_loop().create_task(session.send(0, data, event))

    # Acting as members ---------------------------------------------------------------------------

    def command_names(self, guild: Guild | None = None) -> list[str]:
        """Every invocable slash command path, e.g. ``["digits card", "digits rules", "help"]``."""
        guild = guild or self.guild
        paths: list[str] = []

        def walk(prefix: str, options: Sequence[Mapping[str, Any]]) -> bool:
            subs = [o for o in options if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            for sub in subs:
                path = f"{prefix} {sub['name']}"
                if not walk(path, sub.get("options") or []):
                    paths.append(path)
            return bool(subs)

        for command in self._visible_commands(guild):
            if not walk(command["name"], command.get("options") or []):
                paths.append(command["name"])
        return sorted(paths)

    def _visible_commands(self, guild: Guild) -> list[dict[str, Any]]:
        local = [c for c in self.commands.get(guild.id, []) if c.get("type", 1) == 1]
        names = {c["name"] for c in local}
        return local + [c for c in self.commands[None]
                        if c.get("type", 1) == 1 and c["name"] not in names]

    @staticmethod
    def _matches(item: Mapping[str, Any], word: str) -> bool:
        word = _fold(word)
        return word == _fold(item["name"]) or word in {
            _fold(v) for v in (item.get("name_localizations") or {}).values()
        }

    def _resolve_command(
        self, guild: Guild, path: str
    ) -> tuple[dict[str, Any], list[str], list[dict[str, Any]]]:
        words = path.strip().lstrip("/").split()
        if not words:
            raise StandInError("type a command, e.g. /help")
        commands = self._visible_commands(guild)
        command = next((c for c in commands if self._matches(c, words[0])), None)
        if command is None:
            raise StandInError(self._unknown(guild, path))
        names = [command["name"]]
        options: list[dict[str, Any]] = command.get("options") or []
        for word in words[1:]:
            subs = [o for o in options if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            sub = next((o for o in subs if self._matches(o, word)), None)
            if sub is None:
                raise StandInError(self._unknown(guild, path))
            names.append(sub["name"])
            options = sub.get("options") or []
        if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in options):
            choices = ", ".join(p for p in self.command_names(guild)
                                if p.startswith(" ".join(names) + " "))
            raise StandInError(f"/{' '.join(names)} needs a subcommand: {choices}")
        return command, names, options

    def _unknown(self, guild: Guild, path: str) -> str:
        known = self.command_names(guild)
        close = difflib.get_close_matches(path.strip().lstrip("/"), known, n=1, cutoff=0.5)
        hint = f"; did you mean /{close[0]}?" if close else ""
        return f"unknown command /{path.strip().lstrip('/')}{hint}"

    def _option_value(
        self, option: Mapping[str, Any], value: Any, resolved: dict[str, dict[str, Any]],
        *, focused: bool, where: str,
    ) -> Any:
        kind = option["type"]
        name = option["name"]
        if focused:
            return str(value)
        if kind == STRING:
            text = str(value)
            choices = option.get("choices")
            if choices:
                for choice in choices:
                    if text == choice["value"] or _fold(text) == _fold(choice["name"]):
                        return choice["value"]
                names = ", ".join(c["name"] for c in choices)
                raise StandInError(f"{where}: {name} must be one of {names}")
            if len(text) < option.get("min_length", 0) or len(text) > option.get("max_length",
                                                                                   6000):
                raise StandInError(f"{where}: {name} has the wrong length")
            return text
        if kind in (INTEGER, NUMBER):
            try:
                number = int(value) if kind == INTEGER else float(value)
            except (TypeError, ValueError):
                raise StandInError(f"{where}: {name} must be a number, not {value!r}") from None
            choices = option.get("choices")
            if choices and number not in [c["value"] for c in choices]:
                raise StandInError(f"{where}: {name} must be one of "
                                   f"{', '.join(str(c['value']) for c in choices)}")
            low, high = option.get("min_value"), option.get("max_value")
            if (low is not None and number < low) or (high is not None and number > high):
                raise StandInError(f"{where}: {name} must be between {low} and {high}")
            return number
        if kind == BOOLEAN:
            if isinstance(value, bool):
                return value
            text = _fold(str(value))
            if text in {"true", "yes", "oui", "1", "on"}:
                return True
            if text in {"false", "no", "non", "0", "off"}:
                return False
            raise StandInError(f"{where}: {name} must be yes or no")
        if kind in (USER, MENTIONABLE) and isinstance(value, Member | User):
            member = value if isinstance(value, Member) else None
            user = value.user if isinstance(value, Member) else value
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if member is not None:
                resolved.setdefault("members", {})[str(user.id)] = member.payload(
                    with_user=False, with_permissions=True)
            return str(user.id)
        if kind == CHANNEL and isinstance(value, Channel):
            resolved.setdefault("channels", {})[str(value.id)] = {
                **value.payload(), "permissions": str(BOT_PERMISSIONS)}
            return str(value.id)
        if kind in (ROLE, MENTIONABLE) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if kind == ATTACHMENT and isinstance(value, Attachment):
            if value.id not in self.uploads:
                raise StandInError(f"{where}: attach a file made with upload(), not {value!r}")
            resolved.setdefault("attachments", {})[str(value.id)] = value.payload()
            return str(value.id)
        raise StandInError(f"{where}: cannot give {value!r} for {name} (option type {kind})")

    def _command_data(
        self, member: Member, path: str, options: Mapping[str, Any], focused: str | None,
    ) -> tuple[dict[str, Any], str]:
        guild = member.guild
        command, names, defs = self._resolve_command(guild, path)
        where = "/" + " ".join(names)
        resolved: dict[str, dict[str, Any]] = {}
        given: list[dict[str, Any]] = []
        by_name = {d["name"]: d for d in defs}
        for key, value in options.items():
            option = by_name.get(key) or next((d for d in defs if self._matches(d, key)), None)
            if option is None:
                known = ", ".join(by_name) or "none"
                raise StandInError(f"{where} has no option {key!r} (options: {known})")
            is_focused = focused is not None and option["name"] == by_name.get(
                focused, {"name": focused})["name"]
            entry: dict[str, Any] = {
                "name": option["name"], "type": option["type"],
                "value": self._option_value(option, value, resolved, focused=is_focused,
                                            where=where),
            }
            if is_focused:
                entry["focused"] = True
            given.append(entry)
        if focused is None:
            missing = [d["name"] for d in defs
                       if d.get("required") and d["name"] not in {g["name"] for g in given}]
            if missing:
                raise StandInError(f"{where}: missing {', '.join(missing)}")
        elif not any(g.get("focused") for g in given):
            raise StandInError(f"{where}: no value given for the focused option {focused!r}")
        nested: list[dict[str, Any]] = given
        for depth in range(len(names) - 1, 0, -1):
            kind = SUB_COMMAND if depth == len(names) - 1 else SUB_COMMAND_GROUP
            nested = [{"name": names[depth], "type": kind, "options": nested}]
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1,
                                "options": nested}
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data, where

    def _new_record(
        self, kind: int, member: Member, channel: Channel | None, data: dict[str, Any],
        label: str, message: Message | None = None,
    ) -> InteractionRecord:
        channel = channel or (message.channel if message else None) or member.guild.channels[0]
        record = InteractionRecord(
            id=self._next_id(), token=f"tok{secrets.token_urlsafe(40)}", type=kind,
            member=member, channel=channel, data=data, message=message,
            label=f"{label} by {member.name}",
        )
        self.interactions[record.id] = record
        self._by_token[record.token] = record
        return record

    def _interaction_payload(self, record: InteractionRecord) -> dict[str, Any]:
        member, channel = record.member, record.channel
        guild = member.guild
        payload: dict[str, Any] = {
            "id": str(record.id), "application_id": str(self.app_id), "type": record.type,
            "token": record.token, "version": 1, "data": record.data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
            "guild_locale": guild.locale, "channel_id": str(channel.id),
            "channel": channel.payload(), "member": member.payload(with_permissions=True),
            "locale": member.locale, "app_permissions": str(BOT_PERMISSIONS),
            "entitlements": [], "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0, "attachment_size_limit": MAX_FILE_SIZE,
        }
        if record.message is not None:
            payload["message"] = record.message.payload()
        return payload

    async def _send(self, record: InteractionRecord, wait: bool) -> InteractionRecord:
        session = self._session_for(record.member.guild)
        record.sent_at = time.perf_counter()
        await session.send(0, self._interaction_payload(record), "INTERACTION_CREATE")
        if not wait:
            return record
        try:
            await self._wait(lambda: record.answered, self.answer_deadline + 0.5,
                             f"{record.label}: no answer within {self.answer_deadline:g} s",
                             key=record.id)
        except NoAnswer as error:
            self._error(str(error))
            raise
        await self._wait(lambda: record.settled, self.settle_timeout,
                         f"{record.label}: deferred, then no answer within "
                         f"{self.settle_timeout:g} s", key=record.id)
        return record

    async def slash(
        self,
        member: Member,
        command: str,
        /,
        *,
        in_channel: Channel | None = None,
        wait: bool = True,
        options: Mapping[str, Any] | None = None,
        **more_options: Any,
    ) -> InteractionRecord:
        """``member`` runs ``/command`` with its options; waits for the bot's (final) answer.

        ``command`` is the path with spaces (``"digits card"``), English or localised names; an
        option (a keyword, or in ``options`` for a name like ``wait``) takes a text, a number, a
        bool, a ``Member``, a ``Channel`` or a ``Role``. ``in_channel`` is where the member types
        it (default: the server's first channel).
        """
        given = {**(options or {}), **more_options}
        data, where = self._command_data(member, command, given, focused=None)
        record = self._new_record(APPLICATION_COMMAND, member, in_channel, data, where)
        return await self._send(record, wait)

    async def autocomplete(
        self,
        member: Member,
        command: str,
        focused: str,
        /,
        *,
        in_channel: Channel | None = None,
        options: Mapping[str, Any] | None = None,
        **more_options: Any,
    ) -> list[dict[str, Any]]:
        """The choices the bot offers while ``member`` types the option ``focused``."""
        given = {**(options or {}), **more_options}
        data, where = self._command_data(member, command, given, focused=focused)
        record = self._new_record(AUTOCOMPLETE, member, in_channel, data,
                                  f"{where} (autocomplete)")
        await self._send(record, wait=True)
        return record.choices or []

    def upload(self, filename: str, data: bytes, content_type: str | None = None) -> Attachment:
        """A file a member attaches to a command's option: give it as the option's value
        (``slash(ana, "class questions upload", file=standin.upload("q.csv", b"..."))``); the
        bot's ``Attachment.read()`` downloads it from the stand-in, as from Discord's CDN."""
        attachment = Attachment(self._next_id(), filename, data,
                                content_type or _content_type(filename, "text/plain"))
        attachment.url = f"{self.base_url}/uploads/{attachment.id}/{filename}"
        self.uploads[attachment.id] = attachment
        return attachment

    def fail_download(self, attachment: Attachment, status: int = 503) -> None:
        """From now on, downloading ``attachment`` fails with ``status``, as Discord's CDN may
        (an outage, a file it no longer serves)."""
        self.failed_downloads[attachment.id] = status

    def _check_can_use(self, member: Member, message: Message) -> None:
        if message.deleted:
            raise StandInError("that message was deleted")
        if message.ephemeral_to is not None and message.ephemeral_to != member.id:
            raise StandInError(f"{member.name} cannot see that message (it is for someone else)")

    async def click(
        self,
        member: Member,
        message: Message,
        custom_id: str | None = None,
        /,
        *,
        label: str | None = None,
        wait: bool = True,
    ) -> InteractionRecord:
        """``member`` clicks a button of ``message``, found by custom id or by label."""
        self._check_can_use(member, message)
        if custom_id is None:
            if label is None:
                raise StandInError("click needs a custom id or a label")
            button = message.button(label)
        else:
            found = message.component(custom_id)
            if found is None or found.get("type") != 2:
                raise StandInError(f"no button {custom_id!r} on that message")
            button = found
        if button.get("disabled"):
            raise StandInError(f"the button {button.get('label')!r} is disabled")
        if button.get("style") == 5:
            raise StandInError("that is a link button: it opens a web page")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        record = self._new_record(MESSAGE_COMPONENT, member, None, data,
                                  f"click {button.get('label') or button['custom_id']!r}",
                                  message=message)
        return await self._send(record, wait)

    async def select(
        self,
        member: Member,
        message: Message,
        custom_id: str,
        values: Sequence[Any],
        /,
        *,
        wait: bool = True,
    ) -> InteractionRecord:
        """``member`` picks ``values`` in the select menu ``custom_id`` of ``message``."""
        self._check_can_use(member, message)
        menu = message.component(custom_id)
        if menu is None or menu.get("type") not in SELECT_TYPES:
            raise StandInError(f"no select menu {custom_id!r} on that message")
        if menu.get("disabled"):
            raise StandInError("that menu is disabled")
        low, high = menu.get("min_values", 1), menu.get("max_values", 1)
        if not low <= len(values) <= high:
            raise StandInError(f"pick between {low} and {high} values")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": menu["type"]}
        if menu["type"] == 3:
            allowed = {o["value"]: o for o in menu.get("options", [])}
            picked = []
            for value in values:
                option = allowed.get(str(value)) or next(
                    (o for o in allowed.values() if _fold(o["label"]) == _fold(str(value))), None)
                if option is None:
                    raise StandInError(f"{value!r} is not an option of that menu")
                picked.append(option["value"])
            data["values"] = picked
        else:
            resolved: dict[str, dict[str, Any]] = {}
            fake = {"type": {5: USER, 6: ROLE, 7: MENTIONABLE, 8: CHANNEL}[menu["type"]],
                    "name": custom_id}
            data["values"] = [self._option_value(fake, v, resolved, focused=False, where="menu")
                              for v in values]
            data["resolved"] = resolved
        record = self._new_record(MESSAGE_COMPONENT, member, None, data, f"menu {custom_id!r}",
                                  message=message)
        return await self._send(record, wait)

    async def forge(
        self,
        member: Member,
        message: Message,
        custom_id: str,
        /,
        *,
        values: Sequence[str] | None = None,
        wait: bool = True,
    ) -> InteractionRecord:
        """A modified client's interaction on ``message``: a click (or, with ``values``, a pick
        in a string menu) with any custom id and any values, checked against nothing. Discord
        does not check them either; ``click`` and ``select`` only send what a real client shows.
        """
        self._check_can_use(member, message)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        record = self._new_record(MESSAGE_COMPONENT, member, None, data,
                                  f"forged {custom_id!r}", message=message)
        return await self._send(record, wait)

    async def forge_modal(
        self,
        member: Member,
        custom_id: str,
        fields: Mapping[str, str],
        /,
        *,
        message: Message | None = None,
        wait: bool = True,
    ) -> InteractionRecord:
        """A modified client's modal submission: any modal custom id, any text inputs."""
        components = [{"type": 1, "components": [{"type": 4, "custom_id": key, "value": value}]}
                      for key, value in fields.items()]
        record = self._new_record(MODAL_SUBMIT, member, None,
                                  {"custom_id": custom_id, "components": components},
                                  f"forged modal {custom_id!r}", message=message)
        return await self._send(record, wait)

    async def submit_modal(
        self,
        member: Member,
        opened_by: InteractionRecord,
        values: Mapping[str, str],
        /,
        *,
        wait: bool = True,
    ) -> InteractionRecord:
        """``member`` fills the modal the bot opened in answer to ``opened_by`` and submits it.

        ``values`` maps each text input's custom id (or its label) to the typed text.
        """
        modal = opened_by.modal
        if modal is None:
            raise StandInError(f"{opened_by.label} did not open a modal")
        if opened_by.member is not member:
            raise StandInError("only the member who opened a modal can submit it")
        remaining = dict(values)

        def fill(component: dict[str, Any], label: str | None) -> dict[str, Any]:
            kind = component.get("type")
            if kind != 4:
                raise StandInError(f"the stand-in fills text inputs only, not type {kind}")
            custom_id = component["custom_id"]
            label = label or component.get("label") or custom_id
            value = remaining.pop(custom_id, None)
            if value is None:
                value = next((remaining.pop(k) for k in list(remaining)
                              if _fold(k) == _fold(label)), None)
            value = "" if value is None else str(value)
            if component.get("required", True) and not value:
                raise StandInError(f"{label!r} is required")
            low, high = component.get("min_length", 0), component.get("max_length", 4000)
            if value and not low <= len(value) <= high:
                raise StandInError(f"{label!r} must be {low} to {high} characters")
            return {"type": 4, "custom_id": custom_id, "value": value}

        submitted = []
        for row in modal.get("components", []):
            if row.get("type") == 1:
                submitted.append({"type": 1, "components": [fill(c, None)
                                                            for c in row["components"]]})
            elif row.get("type") == 18:
                submitted.append({"type": 18, "component": fill(row["component"],
                                                                row.get("label"))})
        if remaining:
            raise StandInError(f"the modal has no field {sorted(remaining)}")
        data = {"custom_id": modal["custom_id"], "components": submitted}
        record = self._new_record(MODAL_SUBMIT, member, opened_by.channel, data,
                                  f"modal {modal.get('title')!r}", message=opened_by.message)
        return await self._send(record, wait)

    # REST ---------------------------------------------------------------------------------------

    async def _api(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        method = request.method
        self.requests.append((method, path))
        parts = path.strip("/").split("/")
        self._in_flight += 1
        try:
            if parts[0] == "interactions":
                return await self._interactions(method, parts, request)
            if parts[0] == "webhooks":
                return await self._webhooks(method, parts, request)
            if request.headers.get("Authorization") != f"Bot {self.token}":
                return _error(401, 0, "401: Unauthorized")
            return await self._bot_route(method, parts, request)
        except web.HTTPException:
            raise
        except Exception as error:  # a bug in the stand-in must show in the test, not hang it
            log.exception("stand-in failed on %s %s", method, path)
            self._error(f"stand-in failure on {method} {path}: {error!r}")
            return _error(500, 0, "stand-in failure")
        finally:
            self._in_flight -= 1
            self._notify()  # waiters re-check after every request, errors included

    async def _bot_route(self, method: str, parts: list[str], request: web.Request
                         ) -> web.StreamResponse:
        route = (method, *parts)
        match route:
            case ("GET", "users", "@me"):
                return _json({**self.bot_user.payload(), "verified": True, "mfa_enabled": False})
            case ("GET", "users", user_id):
                user = self.users.get(int(user_id))
                return _json(user.payload()) if user else _error(404, 10013, "Unknown User")
            case ("POST", "users", "@me", "channels"):
                body = await request.json()
                return _json(self._dm_channel(int(body["recipient_id"])).payload())
            case ("GET", "oauth2", "applications", "@me") | ("GET", "applications", "@me"):
                return _json(self._application())
            case ("PATCH", "applications", "@me"):
                return _json(self._application())
            case ("GET", "gateway"):
                return _json({"url": self.gateway_url})
            case ("GET", "gateway", "bot"):
                return _json({"url": self.gateway_url, "shards": self.recommended_shards,
                              "session_start_limit": {"total": 1000, "remaining": 1000,
                                                      "reset_after": 0, "max_concurrency": 1}})
            case ("GET", "applications", _, "commands"):
                return _json(self.commands[None])
            case ("PUT", "applications", _, "commands"):
                return await self._sync(None, request)
            case ("GET", "applications", _, "guilds", guild_id, "commands"):
                return _json(self.commands.get(int(guild_id), []))
            case ("PUT", "applications", _, "guilds", guild_id, "commands"):
                return await self._sync(int(guild_id), request)
            case ("GET", "guilds", guild_id):
                guild = self.guilds.get(int(guild_id))
                return _json(guild.payload()) if guild else _error(404, 10004, "Unknown Guild")
            case ("GET", "guilds", guild_id, "channels"):
                guild = self.guilds.get(int(guild_id))
                if guild is None:
                    return _error(404, 10004, "Unknown Guild")
                return _json([c.payload() for c in guild.channels])
            case ("GET", "guilds", guild_id, "members", user_id):
                guild = self.guilds.get(int(guild_id))
                found = guild.members.get(int(user_id)) if guild else None
                return _json(found.payload()) if found else _error(404, 10007, "Unknown Member")
            case ("GET", "channels", channel_id):
                channel = self.channels.get(int(channel_id))
                return _json(channel.payload()) if channel else _error(404, 10003,
                                                                       "Unknown Channel")
            case ("POST", "channels", channel_id, "typing"):
                return _no_content()
            case ("GET", "channels", channel_id, "messages"):
                channel = self.channels.get(int(channel_id))
                if channel is None:
                    return _error(404, 10003, "Unknown Channel")
                limit = int(request.query.get("limit", 50))
                newest = list(reversed(channel.visible()))[:limit]
                return _json([m.payload() for m in newest])
            case ("POST", "channels", channel_id, "messages"):
                channel = self.channels.get(int(channel_id))
                if channel is None:
                    return _error(404, 10003, "Unknown Channel")
                body, uploads = await self._read_body(request)
                problems = message_problems(body, len(uploads), creating=True)
                if problems:
                    return self._invalid(f"POST /channels/{channel_id}/messages", problems)
                message = self._create_message(channel, self.bot_user, body, uploads)
                self._notify("message_create", message)
                return _json(message.payload())
            case ("GET" | "PATCH" | "DELETE", "channels", channel_id, "messages", message_id):
                stored = self.messages.get(int(message_id))
                if stored is None or stored.deleted or stored.channel.id != int(channel_id) \
                        or stored.ephemeral:
                    return _error(404, 10008, "Unknown Message")
                return await self._message_verb(method, stored, request,
                                                f"{method} /channels/{channel_id}/messages")
        self._error(f"unhandled route {method} /{'/'.join(parts)}")
        return _error(404, 0, "404: Not Found")

    def _application(self) -> dict[str, Any]:
        return {
            "id": str(self.app_id), "name": self.bot_user.name, "description": "", "icon": None,
            "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
            "owner": self.owner.payload(), "flags": 0, "team": None, "summary": "",
            "rpc_origins": [], "interactions_endpoint_url": None, "tags": [],
            "bot": self.bot_user.payload(),
        }

    def _dm_channel(self, user_id: int) -> Channel:
        for channel in self.channels.values():
            if channel.type == 1 and channel.recipient and channel.recipient.id == user_id:
                return channel
        user = self.users.get(user_id)
        if user is None:
            raise StandInError(f"unknown user {user_id}")
        channel = Channel(self._next_id(), f"dm-{user.name}", None, type=1, recipient=user)
        self.channels[channel.id] = channel
        return channel

    def dm_messages(self, member: Member) -> list[Message]:
        """The direct messages the bot sent to ``member``."""
        for channel in self.channels.values():
            if channel.type == 1 and channel.recipient is member.user:
                return channel.visible()
        return []

    def _invalid(self, where: str, problems: list[str]) -> web.Response:
        self._error(f"{where}: Discord would refuse this: {'; '.join(problems)}")
        return _error(400, 50035, "Invalid Form Body", errors={"_errors": [
            {"code": "INVALID", "message": p} for p in problems]})

    async def _sync(self, guild_id: int | None, request: web.Request) -> web.Response:
        if guild_id is not None and guild_id not in self.guilds:
            return _error(403, 50001, "Missing Access")
        body = await request.json()
        self.syncs.append((guild_id, body))
        problems = command_problems(body)
        if problems:
            return self._invalid("command sync", problems)
        previous = {c["name"]: c for c in self.commands.get(guild_id, [])}
        stored = []
        for command in body:
            old = previous.get(command["name"])
            item = {
                "id": old["id"] if old else str(self._next_id()),
                "application_id": str(self.app_id), "version": str(self._next_id()),
                "type": command.get("type", 1), "name": command["name"],
                "description": command.get("description", ""),
                "name_localizations": command.get("name_localizations"),
                "description_localizations": command.get("description_localizations"),
                "options": command.get("options") or [],
                "default_member_permissions": command.get("default_member_permissions"),
                "nsfw": command.get("nsfw", False),
                "contexts": command.get("contexts"),
                "integration_types": command.get("integration_types", [0]),
            }
            if guild_id is not None:
                item["guild_id"] = str(guild_id)
            stored.append(item)
        self.commands[guild_id] = stored
        self._notify("commands_synced", guild_id)
        return _json(stored)

    async def _read_body(self, request: web.Request) -> tuple[dict[str, Any], dict[str, _Upload]]:
        """The JSON body, from a JSON request or a multipart one (``payload_json`` + files)."""
        uploads: dict[str, _Upload] = {}
        if request.content_type.startswith("multipart/"):
            body: dict[str, Any] = {}
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                name = getattr(part, "name", None) or ""
                if name == "payload_json":
                    body = json.loads(await part.text())  # type: ignore[union-attr]
                    continue
                match = re.fullmatch(r"files\[(\d+)\]", name)
                if match:
                    data = await part.read()  # type: ignore[union-attr]
                    uploads[match.group(1)] = _Upload(
                        getattr(part, "filename", None) or f"file{match.group(1)}", bytes(data),
                        part.headers.get("Content-Type", "application/octet-stream"))
            return body, uploads
        text = await request.text()
        return (json.loads(text) if text else {}), uploads

    def _attachments(
        self, message: Message, body: Mapping[str, Any], uploads: Mapping[str, _Upload]
    ) -> list[Attachment]:
        """The attachments a create or edit leaves: kept ones by id, new ones by upload index."""
        entries = body.get("attachments")
        if entries is None:
            if not uploads:
                return message.attachments
            entries = [{"id": key} for key in sorted(uploads, key=int)]
        kept = {str(a.id): a for a in message.attachments}
        result = []
        for entry in entries:
            key = str(entry.get("id"))
            if key in uploads:
                upload = uploads[key]
                attachment = Attachment(
                    self._next_id(), entry.get("filename") or upload.filename, upload.data,
                    _content_type(upload.filename, upload.content_type),
                    entry.get("description"))
                attachment.url = (f"{self.base_url}/attachments/{message.id}/{attachment.id}/"
                                  f"{attachment.filename}")
                result.append(attachment)
            elif key in kept:
                result.append(kept[key])
        return result

    def _create_message(
        self,
        channel: Channel,
        author: User,
        body: Mapping[str, Any],
        uploads: Mapping[str, _Upload],
        *,
        record: InteractionRecord | None = None,
        flags: int | None = None,
    ) -> Message:
        message = Message(self._next_id(), channel, author)
        if record is not None:
            message.interaction = record
            message.webhook_id = self.app_id
            message.type = 20 if record.type == APPLICATION_COMMAND else 0
        message.flags = (body.get("flags") or 0) if flags is None else flags
        self._apply(message, body, uploads)
        self.messages[message.id] = message
        if message.ephemeral and record is not None:
            message.ephemeral_to = record.member.id
            self.ephemerals.setdefault(record.member.id, []).append(message)
        else:
            message.flags &= ~EPHEMERAL
            channel.messages.append(message)
        return message

    def _apply(self, message: Message, body: Mapping[str, Any],
               uploads: Mapping[str, _Upload]) -> None:
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body:
            message.embeds = list(body["embeds"] or [])
        if "components" in body:
            message.components = list(body["components"] or [])
        if "allowed_mentions" in body:
            message.allowed_mentions = body["allowed_mentions"]
        message.attachments = self._attachments(message, body, uploads)

    def _edit(self, message: Message, body: Mapping[str, Any],
              uploads: Mapping[str, _Upload]) -> None:
        self._apply(message, body, uploads)
        if message.loading:
            message.flags &= ~LOADING
        else:
            message.edited = True
            message.edited_at = _now_iso()
        if "flags" in body and body["flags"] is not None:
            # Only "suppress embeds" can change on an edit; ephemeral and loading cannot.
            keep = message.flags & (EPHEMERAL | COMPONENTS_V2)
            message.flags = keep | (body["flags"] & (1 << 2)) | (body["flags"] & COMPONENTS_V2)

    async def _message_verb(self, method: str, message: Message, request: web.Request,
                            where: str, key: int | None = None) -> web.Response:
        if method == "GET":
            return _json(message.payload())
        if method == "DELETE":
            message.deleted = True
            self._notify("message_delete", message, key)
            return _no_content()
        body, uploads = await self._read_body(request)
        problems = message_problems(body, len(uploads), creating=False)
        if problems:
            return self._invalid(where, problems)
        self._edit(message, body, uploads)
        self._notify("message_update", message, key)
        return _json(message.payload())

    async def _interactions(self, method: str, parts: list[str], request: web.Request
                            ) -> web.Response:
        if method != "POST" or len(parts) != 4 or parts[3] != "callback":
            self._error(f"unhandled route {method} /{'/'.join(parts)}")
            return _error(404, 0, "404: Not Found")
        record = self.interactions.get(int(parts[1])) if parts[1].isdigit() else None
        if record is None or record.token != parts[2]:
            self._error(f"callback for an unknown interaction {parts[1]}")
            return _error(404, 10062, "Unknown interaction")
        now = time.perf_counter()
        body, uploads = await self._read_body(request)
        kind = body.get("type")
        if record.late:
            return _error(404, 10062, "Unknown interaction")  # it expired; already recorded
        if record.answered:
            self._error(f"{record.label}: answered twice (callback type {kind})")
            return _error(400, 40060, "Interaction has already been acknowledged.")
        record.answered_at = now
        elapsed = record.answer_time or 0.0
        if elapsed > self.answer_deadline:
            record.late = True
            self._error(f"{record.label}: answered after {elapsed:.2f} s "
                        f"(Discord allows {self.answer_deadline:g} s)")
            self._notify(key=record.id)
            return _error(404, 10062, "Unknown interaction")
        if kind not in ALLOWED_CALLBACKS.get(record.type, set()):
            record.answered_at = None
            self._error(f"{record.label}: callback type {kind} is not allowed for a "
                        f"{INTERACTION_NAMES.get(record.type, record.type)}")
            return _error(400, 50035, "Invalid Form Body")
        data = body.get("data") or {}
        if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            problems = message_problems(data, len(uploads), creating=kind == CHANNEL_MESSAGE)
            if problems:
                record.answered_at = None
                return self._invalid(f"{record.label}: answer", problems)
        record.callback_type = kind
        message: Message | None = None
        event = None
        if kind == CHANNEL_MESSAGE:
            message = self._create_message(record.channel, self.bot_user, data, uploads,
                                           record=record)
            record.original, event = message, "message_create"
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            flags = LOADING | ((data.get("flags") or 0) & EPHEMERAL)
            message = self._create_message(record.channel, self.bot_user, {}, {}, record=record,
                                           flags=flags)
            record.original, event = message, "message_create"
        elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            if record.message is None:
                self._error(f"{record.label}: update of a message, but there is none")
                return _error(400, 50035, "Invalid Form Body")
            message = record.message
            record.original = message
            if kind == UPDATE_MESSAGE:
                self._edit(message, data, uploads)
                event = "message_update"
        elif kind == AUTOCOMPLETE_RESULT:
            choices = data.get("choices") or []
            if len(choices) > 25 or any(not 1 <= len(c.get("name", "")) <= 100
                                        for c in choices):
                self._error(f"{record.label}: choices must be 0 to 25, names 1 to 100 chars")
            record.choices, event = choices, "autocomplete"
        elif kind == MODAL:
            if not data.get("custom_id") or not data.get("title") or not data.get("components"):
                self._error(f"{record.label}: a modal needs a custom_id, a title and components")
            record.modal, event = data, "modal"
        self._notify(event, message if message is not None else record, record.id)
        if request.query.get("with_response") not in ("1", "true"):
            return _no_content()
        response: dict[str, Any] = {
            "interaction": {
                "id": str(record.id), "type": record.type,
                "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(message is not None and message.ephemeral),
            },
            "resource": {"type": kind},
        }
        if message is not None:
            response["interaction"]["response_message_id"] = str(message.id)
            if kind != DEFERRED_UPDATE:
                response["resource"]["message"] = message.payload()
        return _json(response)

    async def _webhooks(self, method: str, parts: list[str], request: web.Request
                        ) -> web.Response:
        # /webhooks/{app id}/{token}[/messages/{id or @original}]
        if len(parts) < 3 or parts[1] != str(self.app_id):
            self._error(f"unhandled route {method} /{'/'.join(parts)}")
            return _error(404, 10015, "Unknown Webhook")
        record = self._by_token.get(parts[2])
        where = f"{method} follow-up"
        if record is None:
            self._error(f"{where} for an unknown interaction token")
            return _error(404, 10015, "Unknown Webhook")
        where = f"{record.label}: {where}"
        if not record.answered or record.late:
            self._error(f"{where} before the interaction was answered in time")
            return _error(404, 10015, "Unknown Webhook")
        if len(parts) == 3 and method == "POST":
            body, uploads = await self._read_body(request)
            problems = message_problems(body, len(uploads), creating=True)
            if problems:
                return self._invalid(where, problems)
            original = record.original
            if original is not None and original.loading:
                # The first follow-up after a "thinking" deferral becomes the answer itself.
                self._edit(original, body, uploads)
                self._notify("message_update", original, record.id)
                message = original
            else:
                message = self._create_message(record.channel, self.bot_user, body, uploads,
                                               record=record)
                record.followups.append(message)
                self._notify("message_create", message, record.id)
            if request.query.get("wait") in ("1", "true"):
                return _json(message.payload())
            return _no_content()
        if len(parts) == 5 and parts[3] == "messages":
            if parts[4] == "@original":
                found = record.original
            else:
                found = next((m for m in [record.original, *record.followups]
                              if m is not None and str(m.id) == parts[4]), None)
            if found is None or found.deleted:
                self._error(f"{where}: no such message {parts[4]}")
                return _error(404, 10008, "Unknown Message")
            return await self._message_verb(method, found, request, where, record.id)
        self._error(f"unhandled route {method} /{'/'.join(parts)}")
        return _error(404, 0, "404: Not Found")

    async def _get_upload(self, request: web.Request) -> web.StreamResponse:
        upload = self.uploads.get(int(request.match_info["attachment_id"])) if request.match_info[
            "attachment_id"].isdigit() else None
        if upload is None or upload.filename != request.match_info["filename"]:
            return web.Response(status=404)
        if upload.id in self.failed_downloads:
            return web.Response(status=self.failed_downloads[upload.id])
        return web.Response(body=upload.data, headers={"Content-Type": upload.content_type})

    async def _get_attachment(self, request: web.Request) -> web.StreamResponse:
        message = self.messages.get(int(request.match_info["message_id"]))
        if message is not None:
            for attachment in message.attachments:
                if str(attachment.id) == request.match_info["attachment_id"]:
                    return web.Response(body=attachment.data,
                                        headers={"Content-Type": attachment.content_type})
        return web.Response(status=404)


_TYPES_BY_SUFFIX = {".png": "image/png", ".gif": "image/gif", ".webp": "image/webp",
                    ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".json": "application/json",
                    ".txt": "text/plain", ".csv": "text/csv"}


def _content_type(filename: str, given: str) -> str:
    # discord.py uploads everything as application/octet-stream; Discord sniffs the real type.
    suffix = filename[filename.rfind("."):].lower() if "." in filename else ""
    return _TYPES_BY_SUFFIX.get(suffix, given)
