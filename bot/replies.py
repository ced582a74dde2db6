"""Everything the bot says goes out through here, and fits Discord's limits.

Discord refuses a message over its limits (2,000 characters of content, 4,096 of an embed's
description…) with a 400: the member is then left on "thinking…" and nothing says why. So:

- ``excerpt(text)`` is how a member's own text (a turn, a digit's name, a time zone, an answer)
  is quoted back: one line, at most ``EXCERPT`` characters, cut with an ellipsis ("c4-d5xx…");
- ``shown_name(text)`` is how a text a member chose (a display name, a question, an assignment's
  name) is shown: as typed, with nothing in it that renders (a member named ``[Click me](…)`` is
  not a link, ``<#id>`` no channel, ``<@id>`` pings no one), cut to ``NAME`` characters.
  Pictures draw names as pixels and take them raw;
- ``respond``, ``update``, ``edit_original``, ``followup``, ``post``, ``edit`` and ``modal``
  are the only calls that send (a test scans ``bot/`` and ``cogs/`` for direct ones): each runs
  ``fit`` first, which cuts whatever is still over a limit (content, every part of an embed, the
  6,000 characters of all embeds together, labels and options of components) with an ellipsis
  and logs a warning, since a cut reply is a bug to fix, but a cut reply still reaches the member;
- ``pings(*ids)``: the bot's default ``allowed_mentions`` pings nobody (``bot/app.py``); a
  message that must notify players (a challenge, "your turn") allows exactly their ids.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from typing import Any

import discord
from discord import app_commands, ui
from discord.ui.view import BaseView

log = logging.getLogger(__name__)

# Discord's limits (https://discord.com/developers/docs/resources/message, …/channel#embed-limits)
CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBEDS_TOTAL = 6000  # all the embeds of one message together
BUTTON_LABEL = 80
SELECT_PLACEHOLDER = 150
SELECT_OPTIONS = 25
OPTION_LABEL = 100
OPTION_DESCRIPTION = 100
MODAL_TITLE = 45
INPUT_PLACEHOLDER = 100
CHOICES = 25
CHOICE_NAME = 100

EXCERPT = 40  # characters of a member's own text quoted back to them
NAME = 32  # Discord's own bound on a display name; a stored name may be longer
ELLIPSIS = "…"


#: Line breaks and runs of blanks, which a one-line text makes one space; the no-break spaces of
#: French typography (« 18 h », « Bravo ! ») are kept, as they were written.
_BLANKS = re.compile(r"[^\S\u00a0\u202f]+")


def one_line(text: object) -> str:
    """``text`` on one line: each run of blanks (a line break included) one space."""
    return _BLANKS.sub(" ", str(text)).strip(" ")


def cut(text: str, limit: int) -> str:
    """``text`` if it fits in ``limit`` characters, else its beginning and an ellipsis."""
    if len(text) <= limit:
        return text
    return text[:max(limit - 1, 0)].rstrip() + ELLIPSIS


def excerpt(text: object, limit: int = EXCERPT) -> str:
    """A member's text as quoted back: one line, at most ``limit`` characters, no live mention.

    Markdown is left alone (these echoes are the member's own words, answered to them), but no
    channel, command, timestamp or link renders: a refusal may replace a public message."""
    flat = discord.utils.escape_mentions(cut(one_line(text), limit))
    return _SCHEME.sub(ZERO_WIDTH, _ANGLE.sub("<" + ZERO_WIDTH, flat))


# The parameters of a refusal (``DomainError``) that carry what a member typed: a turn, a
# square, a digit's or a setting's name, a time zone, an answer. The others are the bot's own.
USER_TEXT_PARAMS = frozenset({"text", "value", "name", "timezone", "move", "square", "setting",
                              "threshold", "turn"})


def quoted(params: dict[str, Any]) -> dict[str, Any]:
    """A refusal's parameters with each member's text cut to an excerpt."""
    return {key: excerpt(value) if key in USER_TEXT_PARAMS and isinstance(value, str) else value
            for key, value in params.items()}


# What Discord would render in a member's text, and how ``shown_name`` keeps it inert.
#
# Markdown is escaped with a backslash, which Discord honours wherever it renders markdown
# (content, embed titles, descriptions, field names and values) and shows as nothing. Every
# ``[`` is escaped, not only the first of a masked link (discord.py escapes one ``[`` and none
# of the markup inside the link), and line starts that Discord reads as a heading, a subtext, a
# quote or a list (``1.`` and ``+`` too) get one before them.
_MARKDOWN = re.compile(r"[\\*_~|`\[]|^[>#-]|^\+(?=\s)|^\d+(?=\.\s)", re.MULTILINE)
# Mentions, channels, commands, timestamps, custom emoji and ``<url>`` links all start with
# ``<``. A zero-width space after it rather than a backslash before it: a backslash is shown
# as typed where markdown is not read (a footer, an author's name, a button), the space is
# invisible everywhere and breaks the syntax everywhere. ``<@…>`` and ``@everyone`` get it
# after the ``@`` from discord.py's ``escape_mentions``, whose form the rest keeps.
ZERO_WIDTH = "\u200b"
_ANGLE = re.compile(r"<(?!@\u200b)")
# A bare link (``https://…``) is linked by Discord wherever it renders markdown; the zero-width
# space before ``://`` stops that, and the link still reads as typed.
_SCHEME = re.compile(r"(?<=[A-Za-z0-9])(?=://)")


def _escaped(mark: re.Match[str]) -> str:
    # An ordered list's "1." is escaped at its dot: a backslash before a digit is shown.
    found = mark.group(0)
    return found + "\\" if found[0].isdigit() else "\\" + found


def shown_name(text: object, limit: int | None = NAME, *, markup: bool = True) -> str:
    """A member-chosen text as it was typed, with nothing Discord would render in it.

    For display names, nicknames, question-set questions and names, assignment names, a role's
    or a topic's name, wherever Discord reads markdown (content, embed titles, descriptions,
    fields): one line, cut to ``limit`` characters (``None``: not cut), no mention of anyone
    (user, role, ``@everyone``/``@here``), no channel, command, timestamp or custom emoji, no
    markdown, no masked or bare link. What is left reads the same: the backslashes are not
    shown and the zero-width spaces have no width. Pings stay bounded by ``allowed_mentions``.
    Where Discord reads no markup (footers, authors' names, labels, options, alt texts:
    ``markup=False``) nothing renders and a backslash would be shown: the text is only cut."""
    flat = one_line(text)
    flat = (flat if limit is None else cut(flat, limit)) if flat.strip() else "?"
    if not markup:
        return flat
    flat = _MARKDOWN.sub(_escaped, flat)
    flat = discord.utils.escape_mentions(flat)
    flat = _ANGLE.sub("<" + ZERO_WIDTH, flat)
    return _SCHEME.sub(ZERO_WIDTH, flat)


def pings(*user_ids: int | str | None) -> discord.AllowedMentions:
    """Mentions that notify exactly these members (any other mention is shown, not pinged)."""
    users = [discord.Object(id=int(u)) for u in dict.fromkeys(user_ids) if u is not None]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=users or False)


NOBODY = discord.AllowedMentions.none()


# --------------------------------------------------------------------------------------------
# Fitting a message


class _Cuts:
    """What had to be cut in one message, for the warning."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def text(self, value: str, limit: int, where: str) -> str:
        if len(value) <= limit:
            return value
        self.parts.append(f"{where} {len(value)}>{limit}")
        return cut(value, limit)


def _embed_parts(data: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    # The parts Discord counts in the 6,000 characters, as (container, key).
    parts: list[tuple[dict[str, Any], str]] = [(data, "title"), (data, "description")]
    parts += [(item, key) for item in data.get("fields", []) for key in ("name", "value")]
    if isinstance(data.get("footer"), dict):
        parts.append((data["footer"], "text"))
    if isinstance(data.get("author"), dict):
        parts.append((data["author"], "name"))
    return [(box, key) for box, key in parts if isinstance(box.get(key), str)]


def _fit_embed(data: dict[str, Any], cuts: _Cuts, where: str) -> None:
    for key, limit in (("title", EMBED_TITLE), ("description", EMBED_DESCRIPTION)):
        if isinstance(data.get(key), str):
            data[key] = cuts.text(data[key], limit, f"{where}.{key}")
    fields = data.get("fields", [])
    if len(fields) > EMBED_FIELDS:
        cuts.parts.append(f"{where} {len(fields)} fields>{EMBED_FIELDS}")
        data["fields"] = fields = fields[:EMBED_FIELDS]
    for i, item in enumerate(fields):
        item["name"] = cuts.text(str(item.get("name", "")), FIELD_NAME, f"{where}.fields[{i}]")
        item["value"] = cuts.text(str(item.get("value", "")), FIELD_VALUE,
                                  f"{where}.fields[{i}]")
    for key, sub, limit in (("footer", "text", EMBED_FOOTER), ("author", "name", EMBED_AUTHOR)):
        box = data.get(key)
        if isinstance(box, dict) and isinstance(box.get(sub), str):
            box[sub] = cuts.text(box[sub], limit, f"{where}.{key}")


def _fit_total(datas: Sequence[dict[str, Any]], cuts: _Cuts) -> None:
    parts = [part for data in datas for part in _embed_parts(data)]
    total = sum(len(box[key]) for box, key in parts)
    if total <= EMBEDS_TOTAL:
        return
    cuts.parts.append(f"embeds {total}>{EMBEDS_TOTAL}")
    # The longest part gives up the excess, then the next longest, so short ones stay whole.
    while total > EMBEDS_TOTAL:
        box, key = max(parts, key=lambda p: len(p[0][p[1]]))
        text = box[key]
        box[key] = cut(text, max(len(text) - (total - EMBEDS_TOTAL), 1))
        total -= len(text) - len(box[key])


def _within(embed: discord.Embed) -> bool:
    """Whether every part of ``embed`` is within its limit, read from its public attributes:
    nearly every reply fits, and its dict (``to_dict``, which discord.py builds again to send
    it) is then built once, not twice."""
    fields = embed.fields
    return ((embed.title is None or len(embed.title) <= EMBED_TITLE)
            and (embed.description is None or len(embed.description) <= EMBED_DESCRIPTION)
            and len(fields) <= EMBED_FIELDS
            and all(len(str(f.name or "")) <= FIELD_NAME and len(str(f.value or "")) <= FIELD_VALUE
                    for f in fields)
            and len(embed.footer.text or "") <= EMBED_FOOTER
            and len(embed.author.name or "") <= EMBED_AUTHOR)


def fit_embeds(embeds: Iterable[discord.Embed], cuts: _Cuts | None = None) -> list[discord.Embed]:
    """The embeds within every limit of one message; those that fit are returned as they are."""
    cuts = _Cuts() if cuts is None else cuts
    embeds = list(embeds)
    if len(embeds) > EMBEDS:
        cuts.parts.append(f"{len(embeds)} embeds>{EMBEDS}")
        embeds = embeds[:EMBEDS]
    if all(_within(embed) for embed in embeds) and sum(map(len, embeds)) <= EMBEDS_TOTAL:
        return embeds
    before = len(cuts.parts)
    datas: list[dict[str, Any]] = [dict(embed.to_dict()) for embed in embeds]
    for i, data in enumerate(datas):
        _fit_embed(data, cuts, f"embeds[{i}]")
    _fit_total(datas, cuts)
    if len(cuts.parts) == before:
        return embeds
    # Rebuilt from their dicts only when cut: the images and colours go along unchanged.
    return [discord.Embed.from_dict(data) for data in datas]


def fit_view(view: BaseView | None, cuts: _Cuts | None = None) -> None:
    """Cut, in place, the labels and options of ``view``'s components that are too long."""
    if view is None:
        return
    cuts = _Cuts() if cuts is None else cuts
    for item in view.walk_children():
        if isinstance(item, ui.Button) and item.label:
            item.label = cuts.text(item.label, BUTTON_LABEL, "button label")
        elif isinstance(item, ui.Select):
            if item.placeholder:
                item.placeholder = cuts.text(item.placeholder, SELECT_PLACEHOLDER, "placeholder")
            if len(item.options) > SELECT_OPTIONS:
                cuts.parts.append(f"{len(item.options)} options>{SELECT_OPTIONS}")
                item.options = item.options[:SELECT_OPTIONS]
            for option in item.options:
                option.label = cuts.text(option.label, OPTION_LABEL, "option label")
                if option.description:
                    option.description = cuts.text(option.description, OPTION_DESCRIPTION,
                                                   "option description")
        elif isinstance(item, ui.TextInput) and item.placeholder:
            # Its label is left to the modal that sets it: reading it warns (deprecated since
            # discord.py 2.6, and the warning cannot be silenced), and the cogs cut it already.
            item.placeholder = cuts.text(item.placeholder, INPUT_PLACEHOLDER,
                                         "input placeholder")


def fit(where: str = "a message", **message: Any) -> dict[str, Any]:
    """``message`` (the keyword arguments of a send or an edit) within Discord's limits.

    Whatever is over a limit is cut with an ellipsis, and a warning logged: never dropped."""
    cuts = _Cuts()
    content = message.get("content")
    if isinstance(content, str):
        message["content"] = cuts.text(content, CONTENT, "content")
    embed = message.get("embed")
    if isinstance(embed, discord.Embed):
        message["embed"] = fit_embeds([embed], cuts)[0]
    embeds = message.get("embeds")
    if embeds:
        message["embeds"] = fit_embeds(embeds, cuts)
    view = message.get("view")
    if isinstance(view, BaseView):
        fit_view(view, cuts)
    if cuts.parts:
        log.warning("cut a reply that Discord would refuse, in %s: %s", where,
                    "; ".join(cuts.parts))
    return message


def fit_choices(choices: Iterable[app_commands.Choice[Any]]) -> list[app_commands.Choice[Any]]:
    """Autocomplete choices as Discord takes them: at most 25, names of 1 to 100 characters."""
    fitted = []
    for choice in list(choices)[:CHOICES]:
        name = choice.name
        if isinstance(name, str) and len(name) > CHOICE_NAME:
            choice = app_commands.Choice(name=cut(name, CHOICE_NAME), value=choice.value)
        fitted.append(choice)
    return fitted


# --------------------------------------------------------------------------------------------
# Sending: the only calls of discord.py's send and edit methods


def interaction_data(interaction: discord.Interaction) -> dict[str, Any]:
    """The raw payload of an interaction (``custom_id``, ``values``, ``components``…), as the
    client sent it: discord.py types it as one TypedDict per interaction kind, which a
    component's or a modal's fields are read from by name whichever kind it is."""
    return dict(interaction.data or {})


def _where(interaction: discord.Interaction) -> str:
    command = interaction.command
    if command is not None:
        return f"/{command.qualified_name}"
    data = interaction_data(interaction)
    return f"component {data.get('custom_id')!r}" if "custom_id" in data else "an interaction"


def _with_content(content: Any, kwargs: dict[str, Any]) -> dict[str, Any]:
    return kwargs if content is None else {"content": content, **kwargs}


async def respond(interaction: discord.Interaction, content: Any = None, /,
                  **kwargs: Any) -> Any:
    """``interaction.response.send_message``, fitted."""
    return await interaction.response.send_message(
        **fit(_where(interaction), **_with_content(content, kwargs)))


async def update(interaction: discord.Interaction, **kwargs: Any) -> Any:
    """``interaction.response.edit_message`` (the message whose component was used), fitted."""
    return await interaction.response.edit_message(**fit(_where(interaction), **kwargs))


async def edit_original(interaction: discord.Interaction, **kwargs: Any) -> Any:
    """``interaction.edit_original_response``, fitted."""
    return await interaction.edit_original_response(**fit(_where(interaction), **kwargs))


async def followup(interaction: discord.Interaction, content: Any = None, /,
                   **kwargs: Any) -> Any:
    """``interaction.followup.send``, fitted."""
    return await interaction.followup.send(
        **fit(_where(interaction), **_with_content(content, kwargs)))


async def post(channel: discord.abc.Messageable, content: Any = None, /, **kwargs: Any) -> Any:
    """``channel.send``, fitted."""
    return await channel.send(**fit(f"a post in channel {getattr(channel, 'id', '?')}",
                                    **_with_content(content, kwargs)))


async def edit(message: Any, **kwargs: Any) -> Any:
    """``message.edit`` (a message, a partial message, a follow-up), fitted."""
    return await message.edit(**fit(f"an edit of message {getattr(message, 'id', '?')}",
                                    **kwargs))


async def modal(interaction: discord.Interaction, form: ui.Modal) -> Any:
    """``interaction.response.send_modal``, its title and inputs fitted."""
    cuts = _Cuts()
    form.title = cuts.text(form.title, MODAL_TITLE, "modal title")
    fit_view(form, cuts)
    if cuts.parts:
        log.warning("cut a modal that Discord would refuse, in %s: %s", _where(interaction),
                    "; ".join(cuts.parts))
    return await interaction.response.send_modal(form)
