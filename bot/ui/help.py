"""The ``/help`` embed: every command of the bot, in the member's language, built from the
command tree (a cog's new command shows up by being registered)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n import catalogues, command_key, t

FIELD_LIMIT = 1024


def _localised_path(command: app_commands.Command[Any, ..., Any] | app_commands.Group,
                    lang: str) -> str:
    """``/chiffres carte`` for ``/digits card`` in French; the code's names in English."""
    chain = []
    node: Any = command
    while node is not None:
        chain.append(node)
        node = node.parent
    names = []
    for item in reversed(chain):
        translated = catalogues().get(command_key(item.qualified_name, "name"), lang)
        names.append(translated if lang != "en" and translated else item.name)
    return "/" + " ".join(names)


def _localised_description(command: app_commands.Command[Any, ..., Any], lang: str) -> str:
    if lang != "en":
        translated = catalogues().get(command_key(command.qualified_name, "description"), lang)
        if translated:
            return translated
    return command.description


def help_embed(tree: app_commands.CommandTree, lang: str) -> discord.Embed:
    sections: dict[str, list[str]] = {}
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Group):
            continue
        root = command.root_parent
        title = _localised_path(root, lang) if root is not None else t("meta.help.other", lang)
        line = f"`{_localised_path(command, lang)}` — {_localised_description(command, lang)}"
        sections.setdefault(title, []).append(line)
    embed = discord.Embed(title=t("meta.help.title", lang), description=t("meta.help.intro", lang),
                          colour=discord.Colour.blurple())
    other = t("meta.help.other", lang)
    for title in sorted(sections, key=lambda s: (s == other, s)):
        value = "\n".join(sorted(sections[title]))
        if len(value) > FIELD_LIMIT:
            value = value[: FIELD_LIMIT - 1] + "…"
        embed.add_field(name=title, value=value, inline=False)
    embed.set_footer(text=t("meta.help.footer", lang))
    return embed
