"""The ``/help`` embed: the commands a member may use, in their language, built from the command
tree (a cog's new command shows up by being registered; one not registered is never shown).

A student sees every command for everyone, grouped by game; a teacher (``bot.ui.teachers``) sees
them too, and then the teachers' commands, in "For teachers" sections. Who may use what comes
from the tree where Discord's own data says it (a group whose default permission is Manage
Server, as ``/class``, is for teachers), and from the tables below where a command checks it
when it runs (``/focus live``, the changes of ``/settings``, ``/progress member:``).

Each line is the command's localised path and options (``/chiffres carte <chiffre>``) and its
localised description (``commands.<path>.description`` in the French catalogue; the code's in
English). The sections fit Discord's limits (1,024 characters a field, 6,000 an embed): a section
too long for one field continues in the next.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands

from bot.i18n import catalogues, command_key, parameter_key, t, typography
from bot.ui.teachers import EVERYONE

FIELD_LIMIT = 1024

#: Commands (or groups) only teachers may use, which the command checks when it runs rather
#: than Discord's default permissions (a subcommand of a listed group too, but for EVERYONE's).
TEACHERS = frozenset({"focus live", "settings"})
#: Options only teachers may give: the command's line for teachers, described by
#: ``meta.help.options.<path>.<option>``.
TEACHER_OPTIONS: dict[str, tuple[str, ...]] = {"progress": ("member",)}

Command = app_commands.Command[Any, ..., Any]


def _localised(qualified_name: str, part: str, lang: str, english: str) -> str:
    if lang == "en":
        return english
    # Read from the catalogue as Discord's Translator reads it, so typeset the same way.
    return typography(catalogues().get(command_key(qualified_name, part), lang) or english, lang)


def _localised_path(command: Command | app_commands.Group, lang: str) -> str:
    """``/chiffres carte`` for ``/digits card`` in French; the code's names in English."""
    chain = []
    node: Any = command
    while node is not None:
        chain.append(node)
        node = node.parent
    return "/" + " ".join(_localised(item.qualified_name, "name", lang, item.name)
                          for item in reversed(chain))


def _option_name(command: Command, option: str, lang: str) -> str:
    # The name a member types: a renamed parameter (``question_set`` is typed ``set``, as
    # ``set`` is a builtin) by its shown name and that name's own catalogue key.
    parameter = next((p for p in command.parameters if p.name == option), None)
    shown = parameter.display_name if parameter is not None else option
    if lang == "en":
        return shown
    keys = [parameter_key(command.qualified_name, option, "name"),
            parameter_key(command.qualified_name, shown, "name")]
    if parameter is not None and parameter.locale_name is not None:
        keys.insert(0, parameter.locale_name.extras.get("key") or keys[0])
    return next((text for key in keys if (text := catalogues().get(key, lang))), shown)


def _option(command: Command, parameter: app_commands.Parameter, lang: str) -> str:
    name = _option_name(command, parameter.name, lang)
    return f"<{name}>" if parameter.required else f"[{name}]"


def _line(command: Command, lang: str, hidden: tuple[str, ...] = ()) -> str:
    options = " ".join(_option(command, p, lang) for p in command.parameters
                       if p.name not in hidden)
    usage = f"{_localised_path(command, lang)} {options}".strip()
    description = _localised(command.qualified_name, "description", lang, command.description)
    return f"`{usage}` — {description}"


def for_teachers(command: Command) -> bool:
    """Whether only teachers may use ``command``."""
    if command.qualified_name in EVERYONE:
        return False
    root = command.root_parent or command
    permissions = getattr(root, "default_permissions", None)
    if permissions is not None and permissions.manage_guild:
        return True
    node: Any = command
    while node is not None:
        if node.qualified_name in TEACHERS:
            return True
        node = node.parent
    return False


def _chunks(lines: list[str]) -> Iterator[str]:
    """The lines joined in values of at most FIELD_LIMIT characters."""
    chunk: list[str] = []
    for line in lines:
        if chunk and len("\n".join([*chunk, line])) > FIELD_LIMIT:
            yield "\n".join(chunk)
            chunk = []
        chunk.append(line[:FIELD_LIMIT])
    if chunk:
        yield "\n".join(chunk)


def help_sections(tree: app_commands.CommandTree, lang: str, *, teacher: bool,
                  in_server: bool = True) -> list[tuple[str, list[str]]]:
    """The sections of ``/help`` (title, lines), students' first, then the teachers'."""
    everyone: dict[str, list[str]] = {}
    teachers: dict[str, list[str]] = {}
    other = t("meta.help.other", lang)
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Group):
            continue
        root = command.root_parent
        if not in_server and (command.guild_only or (root is not None and root.guild_only)):
            continue
        title = _localised_path(root, lang) if root is not None else other
        hidden = TEACHER_OPTIONS.get(command.qualified_name, ())
        if not for_teachers(command):
            everyone.setdefault(title, []).append(_line(command, lang, hidden))
        elif teacher:
            teachers.setdefault(title, []).append(_line(command, lang))
        if teacher and hidden:
            for option in hidden:
                teachers.setdefault(other, []).append(
                    f"`{_localised_path(command, lang)} {_option_name(command, option, lang)}:`"
                    f" — {t(f'meta.help.options.{command.qualified_name}.{option}', lang)}")
    order = lambda title: (title == other, title)  # noqa: E731 - a sort key
    sections = [(title, sorted(everyone[title])) for title in sorted(everyone, key=order)]
    for title in sorted(teachers, key=order):
        named = (t("meta.help.teachers", lang) if title == other
                 else t("meta.help.teachers_group", lang, group=title))
        sections.append((named, sorted(teachers[title])))
    return sections


def help_embed(tree: app_commands.CommandTree, lang: str, *, teacher: bool = False,
               in_server: bool = True) -> discord.Embed:
    embed = discord.Embed(title=t("meta.help.title", lang),
                          description=t("meta.help.intro_teacher" if teacher
                                        else "meta.help.intro", lang),
                          colour=discord.Colour.blurple())
    for title, lines in help_sections(tree, lang, teacher=teacher, in_server=in_server):
        for number, value in enumerate(_chunks(lines)):
            name = title if number == 0 else t("meta.help.continued", lang, title=title)
            embed.add_field(name=name, value=value, inline=False)
    embed.set_footer(text=t("meta.help.footer", lang))
    return embed
