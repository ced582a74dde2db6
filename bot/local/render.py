"""What a Discord client would draw, as terminal text: messages, embeds, components, modals.

Used by local play (``bot.local.terminal``). It reads the stand-in's objects, which keep Discord's
JSON shapes, and draws them plainly (no colours), so that a transcript reads the same in a
terminal, a log file and a test:

    [#general] Ardoise · reply to /test game by Ana
      Tally 0
      [1] Add one   [2] Add ten

Buttons and select menus get numbers from a counter the caller passes in; the caller keeps what
each number stands for (``Numbered``), so that ``click 2`` finds the button again.
"""

from __future__ import annotations

import itertools
import re
import textwrap
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.local.server import SELECT_TYPES, Message, StandIn

INDENT = "  "
WIDTH = 100

_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")
_CHANNEL_MENTION = re.compile(r"<#(\d+)>")
_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")
_CUSTOM_EMOJI = re.compile(r"<a?:(\w+):\d+>")
_SLASH_MENTION = re.compile(r"</([-_\w ]+):\d+>")
# Bold and headings only make text louder: the words are the same without them. (Backticks
# stay: they mark what to type.)
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_HEADING = re.compile(r"^(?:#{1,3}|-#) ", re.MULTILINE)
# Discord writes a timestamp in the reader's language; numbers read the same in every one.
_TIME_FORMATS = {"t": "%H:%M", "T": "%H:%M:%S", "d": "%Y-%m-%d", "D": "%Y-%m-%d",
                 "f": "%Y-%m-%d %H:%M", "F": "%Y-%m-%d %H:%M", "R": "%Y-%m-%d %H:%M"}


@dataclass(frozen=True)
class Numbered:
    """A numbered component: a button or a select menu of ``message``."""

    number: int
    message: Message
    component: dict[str, Any]

    @property
    def is_menu(self) -> bool:
        return self.component.get("type") in SELECT_TYPES

    @property
    def label(self) -> str:
        if self.is_menu:
            return str(self.component.get("placeholder") or "menu")
        return button_label(self.component)


def button_label(button: Mapping[str, Any]) -> str:
    emoji = button.get("emoji") or {}
    emoji_text = emoji.get("name", "") if not emoji.get("id") else f":{emoji.get('name', '')}:"
    label = button.get("label") or ""
    return " ".join(part for part in (emoji_text, label) if part)


def plain(text: str, standin: StandIn) -> str:
    """Discord's markup that a terminal cannot show, as readable text (mentions by name…)."""

    def user(match: re.Match[str]) -> str:
        found = standin.users.get(int(match.group(1)))
        return f"@{found.name}" if found else "@unknown"

    def role(match: re.Match[str]) -> str:
        for guild in standin.guilds.values():
            for item in [guild.everyone, *guild.roles]:
                if item.id == int(match.group(1)):
                    return f"@{item.name}"
        return "@unknown-role"

    def channel(match: re.Match[str]) -> str:
        found = standin.channels.get(int(match.group(1)))
        return f"#{found.name}" if found else "#unknown"

    def timestamp(match: re.Match[str]) -> str:
        moment = datetime.fromtimestamp(int(match.group(1))).astimezone()
        return moment.strftime(_TIME_FORMATS[match.group(2) or "f"])

    text = _BOLD.sub(r"\1", text)
    text = _HEADING.sub("", text)
    text = _USER_MENTION.sub(user, text)
    text = _ROLE_MENTION.sub(role, text)
    text = _CHANNEL_MENTION.sub(channel, text)
    text = _TIMESTAMP.sub(timestamp, text)
    text = _SLASH_MENTION.sub(lambda m: f"/{m.group(1)}", text)
    return _CUSTOM_EMOJI.sub(lambda m: f":{m.group(1)}:", text)


def _wrap(text: str, prefix: str) -> list[str]:
    lines: list[str] = []
    for raw in text.splitlines() or [""]:
        wrapped = textwrap.wrap(raw, WIDTH - len(prefix), replace_whitespace=False,
                                drop_whitespace=True) or [""]
        lines.extend(prefix + piece for piece in wrapped)
    return lines


def embed_lines(embed: Mapping[str, Any], standin: StandIn) -> list[str]:
    bar = INDENT + "│ "
    lines: list[str] = []
    author = (embed.get("author") or {}).get("name")
    if author:
        lines.extend(_wrap(plain(author, standin), bar))
    if embed.get("title"):
        lines.extend(_wrap(plain(str(embed["title"]), standin), bar))
    if embed.get("description"):
        lines.extend(_wrap(plain(str(embed["description"]), standin), bar))
    for item in embed.get("fields") or []:
        name = plain(str(item.get("name") or ""), standin).strip("\u200b ")
        value = plain(str(item.get("value") or ""), standin)
        if name and "\n" not in value:
            lines.extend(_wrap(f"{name}: {value}", bar))
        else:
            if name:
                lines.extend(_wrap(name, bar))
            lines.extend(_wrap(value, bar))
    for key in ("image", "thumbnail"):
        url = (embed.get(key) or {}).get("url") or ""
        if url and not url.startswith("attachment://"):
            lines.append(f"{bar}{key}: {url}")
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        lines.extend(_wrap("— " + plain(footer, standin), bar))
    return lines


def _row(items: list[str]) -> list[str]:
    """Buttons side by side, on as many lines as the width needs."""
    lines = [INDENT]
    for item in items:
        if lines[-1].strip() and len(lines[-1]) + 3 + len(item) > WIDTH:
            lines.append(INDENT)
        lines[-1] += ("   " if lines[-1].strip() else "") + item
    return lines


def _select_lines(number: int, menu: Mapping[str, Any], standin: StandIn) -> list[str]:
    low, high = menu.get("min_values", 1), menu.get("max_values", 1)
    how = f"pick {low}" if low == high else f"pick {low} to {high}"
    disabled = ", disabled" if menu.get("disabled") else ""
    title = plain(str(menu.get("placeholder") or "menu"), standin)
    kind = {5: "a member", 6: "a role", 7: "a member or role", 8: "a channel"}.get(menu["type"])
    if kind is not None:
        return [f"{INDENT}[{number}] ▾ {title} ({how}{disabled}: {kind}, by name)"]
    lines = [f"{INDENT}[{number}] ▾ {title} ({how}{disabled}):"]
    options = []
    for index, option in enumerate(menu.get("options") or [], start=1):
        text = plain(str(option.get("label", "")), standin)
        if option.get("description"):
            text += f" ({plain(str(option['description']), standin)})"
        if option.get("default"):
            text += " ✓"
        options.append(f"{index}) {text}")
    lines.extend(textwrap.wrap("   ".join(options), WIDTH - 2 * len(INDENT),
                               initial_indent=INDENT * 3, subsequent_indent=INDENT * 3,
                               break_on_hyphens=False) or [INDENT * 3 + "(no options)"])
    return lines


def component_lines(
    message: Message, counter: Iterable[int] | None, numbered: list[Numbered],
    standin: StandIn,
) -> list[str]:
    """The message's buttons (a row a line) and menus, numbered from ``counter`` when given;
    each numbered one is appended to ``numbered``."""
    numbers = iter(counter) if counter is not None else None
    lines: list[str] = []

    def number_for(component: dict[str, Any]) -> int | None:
        if numbers is None:
            return None
        value = next(numbers)
        numbered.append(Numbered(value, message, component))
        return value

    def button_text(button: dict[str, Any]) -> str:
        value = number_for(button) if button.get("style") != 5 else None
        text = f"[{value}] {button_label(button)}" if value is not None else \
            f"[{button_label(button)}]"
        if button.get("style") == 5:
            text += f" (link: {button.get('url')})"
        if button.get("disabled"):
            text += " (disabled)"
        return text

    def walk(items: Iterable[dict[str, Any]]) -> None:
        for item in items:
            kind = item.get("type")
            if kind == 1:  # an action row: its buttons on one line, a menu on its own
                buttons = [c for c in item.get("components", []) if c.get("type") == 2]
                if buttons:
                    lines.extend(_row([button_text(b) for b in buttons]))
                for menu in (c for c in item.get("components", [])
                             if c.get("type") in SELECT_TYPES):
                    value = number_for(menu)
                    lines.extend(_select_lines(value or 0, menu, standin))
            elif kind == 2:
                lines.append(INDENT + button_text(item))
            elif kind in SELECT_TYPES:
                lines.extend(_select_lines(number_for(item) or 0, item, standin))
            elif kind == 10:  # text display (components v2)
                lines.extend(_wrap(plain(str(item.get("content", "")), standin), INDENT))
            elif kind == 14:  # separator
                lines.append(INDENT + "─" * 20)
            else:  # sections, containers, galleries: their children
                walk(item.get("components", []))
                if "accessory" in item:
                    walk([item["accessory"]])
    walk(message.components)
    return lines


def header(message: Message, viewer_id: int | None, standin: StandIn, *, edited: bool) -> str:
    """``[#general] Ardoise · reply to /digits card by Ana`` and the like."""
    if message.channel.type == 1:
        recipient = message.channel.recipient
        where = f"direct message to {recipient.name if recipient else 'someone'}"
    elif message.ephemeral_to is not None:
        owner = standin.users.get(message.ephemeral_to)
        name = owner.name if owner else "someone"
        where = (f"only you ({name}) can see this" if message.ephemeral_to == viewer_id
                 else f"only {name} can see this")
    else:
        where = f"#{message.channel.name}"
    text = f"[{where}] {message.author.name}"
    if message.interaction is not None:
        text += f" · reply to {message.interaction.label}"
    if edited:
        text += " · updated"
    return text


def message_lines(
    message: Message,
    viewer_id: int | None,
    standin: StandIn,
    *,
    counter: Iterable[int] | None = None,
    numbered: list[Numbered] | None = None,
    edited: bool = False,
    attachment_note: Callable[[Any], str] | None = None,
) -> list[str]:
    """The whole message as lines: header, text, embeds, files, components."""
    lines = [header(message, viewer_id, standin, edited=edited)]
    if message.loading:
        lines.append(f"{INDENT}{message.author.name} is thinking…")
        return lines
    if message.content:
        lines.extend(_wrap(plain(message.content, standin), INDENT))
    for embed in message.embeds:
        lines.extend(embed_lines(embed, standin))
    for attachment in message.attachments:
        note = attachment_note(attachment) if attachment_note else ""
        lines.append(f"{INDENT}🖼 {attachment.filename}{note}")
    lines.extend(component_lines(message, counter, numbered if numbered is not None else [],
                                 standin))
    return lines


@dataclass(frozen=True)
class Field:
    """A text input of a modal."""

    custom_id: str
    label: str
    required: bool
    min_length: int
    max_length: int
    placeholder: str
    style: int


def modal_fields(modal: Mapping[str, Any]) -> list[Field]:
    """The text inputs of a modal, in order (action rows, or label components)."""
    fields: list[Field] = []

    def add(component: Mapping[str, Any], label: str | None) -> None:
        if component.get("type") != 4:
            return
        fields.append(Field(
            custom_id=str(component["custom_id"]),
            label=str(label or component.get("label") or component["custom_id"]),
            required=bool(component.get("required", True)),
            min_length=int(component.get("min_length") or 0),
            max_length=int(component.get("max_length") or 4000),
            placeholder=str(component.get("placeholder") or ""),
            style=int(component.get("style") or 1),
        ))

    for row in modal.get("components", []):
        if row.get("type") == 1:
            for item in row.get("components", []):
                add(item, None)
        elif row.get("type") == 18:
            add(row.get("component") or {}, row.get("label"))
    return fields


def modal_lines(modal: Mapping[str, Any], standin: StandIn) -> list[str]:
    lines = [f"[form] {plain(str(modal.get('title', '')), standin)}"]
    for field in modal_fields(modal):
        notes = ["required" if field.required else "optional"]
        if field.max_length < 4000:
            notes.append(f"up to {field.max_length} characters")
        if field.placeholder:
            notes.append(f"hint: {plain(field.placeholder, standin)}")
        lines.append(f"{INDENT}{plain(field.label, standin)}  ({', '.join(notes)})")
    return lines


def numbers_from(start: int = 1) -> Iterable[int]:
    return itertools.count(start)
