"""What Discord would render of a message, for the tests of names that inject.

A small reading of Discord's rules (its parser is simple-markdown's, with Discord's own rules):
where markup is read — content, embed titles, descriptions, field names and values, text
displays — a backslash before a punctuation character shows that character and nothing else; a
user, role or channel mention, a command, a timestamp and a custom emoji are ``<…>`` forms; a
link is ``[label](url)`` or a bare ``http(s)://…``; ``@everyone`` and ``@here`` are mentions
anywhere; ``**``, ``__``, ``~~``, ``||``, ``*``, ``_`` and backticks are markers, not
characters; a line starting with ``#``, ``-#``, ``>``, ``-``, ``*``, ``+`` or ``1.`` and a space
is a heading, a subtext, a quote or a list. A zero-width space is shown as nothing, and breaks
whatever syntax it falls in. Footers, authors' names, button labels, options and alt texts are
shown as they are: nothing renders in them, and a backslash there is shown.

``displayed(text)`` is what a reader sees (what renders becomes ``⟦…⟧``); ``active(text)`` is what
renders; ``check_shown(message, names)`` is what the name-injection tests require of a message.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

ZERO_WIDTH = "\u200b"

_INLINE = re.compile(r"""
    \\(?P<escaped>[^0-9A-Za-z\s])
  | (?P<mention><(?:@[!&]?\d+|\#\d+|/[^<>:\n]+:\d+|t:-?\d+(?::[tTdDfFR])?|a?:\w+:\d+
                   |id:\w+)>)
  | (?P<everyone>@(?:everyone|here))
  | (?P<link>\[(?P<label>(?:\\.|[^\]\\\n])*)\]\(\s*<?[a-z]+://[^)\s]*>?\s*\))
  | (?P<url><?(?:https?|steam)://[^\s<]+[^<.,:;"'\])\s]>?)
  | (?P<mark>\*\*|__|~~|\|\||[*_`])
""", re.VERBOSE)
_BLOCK = re.compile(r"^(?:#{1,3} |-# |>>> |> |[-*+] |\d+\. )")


def displayed(text: str) -> str:
    """``text`` as Discord shows it where it reads markup: markers gone, escapes read, every
    mention, link or timestamp that renders written ``⟦kind:source⟧``."""
    lines = []
    for line in text.split("\n"):
        block = _BLOCK.match(line)
        shown = [f"⟦block:{block[0]}⟧"] if block else []
        at = block.end() if block else 0
        while at < len(line):
            found = _INLINE.match(line, at)
            if found is None:
                shown.append(line[at])
                at += 1
                continue
            kind = found.lastgroup if found.lastgroup != "label" else "link"
            if found["escaped"] is not None:
                shown.append(found["escaped"])
            elif kind != "mark":
                shown.append(f"⟦{kind}:{found[0]}⟧")
            at = found.end()
        lines.append("".join(shown).replace(ZERO_WIDTH, ""))
    return "\n".join(lines)


def active(text: str) -> list[str]:
    """What renders in ``text`` as a mention, a link, a timestamp, an emoji or a block."""
    return re.findall(r"⟦([^⟧]*)⟧", displayed(text))


def parts(message: Any) -> tuple[list[str], list[str]]:
    """A stand-in message's texts: (those where Discord reads markup, those shown as they are)."""
    read: list[str] = [message.content] if message.content else []
    plain: list[str] = []
    for embed in message.embeds:
        read += [embed[key] for key in ("title", "description") if embed.get(key)]
        for item in embed.get("fields", []):
            read += [item.get("name", ""), item.get("value", "")]
        plain += [box.get(key, "") for box, key in (
            (embed.get("footer") or {}, "text"), (embed.get("author") or {}, "name"))]
    for component in message.walk_components():
        if component.get("type") == 10:
            read.append(component.get("content", ""))
        plain += [component.get("label") or "", component.get("placeholder") or ""]
        for option in component.get("options", []):
            plain += [option.get("label", ""), option.get("description") or ""]
    plain += [a.description or "" for a in message.attachments]
    return [p for p in read if p], [p for p in plain if p]


def check_shown(message: Any, names: Iterable[str], injected: Iterable[str]) -> None:
    """Each of ``names`` reads as typed in ``message`` (in a part that reads markup, or in one
    shown as it is), nothing of ``injected`` (the ids and hosts the names hold) renders, nor
    any ``@everyone``/``@here``, and no escape is shown where Discord shows backslashes."""
    read, plain = parts(message)
    seen = "\n".join(displayed(part) for part in read)
    seen_plain = "\n".join(part.replace(ZERO_WIDTH, "") for part in plain)
    for name in names:
        assert name in seen or name in seen_plain, (name, read, plain)
    injected = list(injected)
    for part in read:
        for rendered in active(part):
            assert not rendered.startswith("everyone"), (rendered, part)
            assert not any(mark in rendered for mark in injected), (rendered, part)
    for part in plain:
        assert not re.search(r"\\[^0-9A-Za-z\s]", part), part
