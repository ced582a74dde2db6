"""Who is a teacher in a server, for the commands that need one (settings, a student's progress).

A member is a teacher when they have the Manage Server permission (Administrator includes it) or
one of the server's teacher roles (``/settings teachers add``, stored in ``db.servers`` as
``admin_role_ids``). A refusal is a ``NotATeacher``: a check failure for discord.py (so the tree
reports it) that is also a ``DomainError`` (so the member reads ``errors.<code>``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.domain import DomainError
from bot.play.settings import server_settings
from bot.services import services_of
from bot.texts import has
from db import ServerSettings

#: Subcommands of the teachers' groups that any member may use: they read, change nothing.
EVERYONE = frozenset({"settings show"})


class NotATeacher(app_commands.CheckFailure, DomainError):
    """Refused: this needs a teacher. ``code`` says what was refused (its catalogue sentence)."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        DomainError.__init__(self, code, message, **params)


def teachers_only(interaction: discord.Interaction) -> str:
    """The refusal's code for a ``/class`` subcommand asked by a member who is no teacher: it
    names what was asked (``class.teachers_only.questions_upload``: "Only teachers can add a
    question set"), else the general ``class.teachers_only.any``."""
    command = interaction.command
    words = command.qualified_name.split(" ")[1:] if command else []
    while words:  # "report topics" is refused as "report" is: what it asks is the report
        code = f"class.teachers_only.{'_'.join(words)}"
        if has(f"errors.{code}", "en"):
            return code
        words.pop()
    return "class.teachers_only.any"


def role_ids(user: discord.abc.User) -> list[int]:
    """The roles of the member behind an interaction (none for a plain user)."""
    roles = getattr(user, "roles", None) or []
    return [role.id for role in roles]


def teaches(interaction: discord.Interaction, settings: ServerSettings) -> bool:
    """Whether the member behind ``interaction`` is a teacher, given the server's settings
    already read (``db.servers.get``)."""
    if interaction.permissions.manage_guild:
        return True
    return settings.may_manage(role_ids(interaction.user))


def member_teaches(member: discord.Member, settings: ServerSettings) -> bool:
    """Whether a member of the server, as Discord gives them now (not behind an interaction:
    ``/class end-of-year`` tells its teachers from its students), is one of its teachers."""
    return member.guild_permissions.manage_guild or settings.may_manage(
        role.id for role in member.roles)


async def is_teacher(interaction: discord.Interaction) -> bool:
    """Whether the member behind ``interaction`` is a teacher of its server."""
    if interaction.guild_id is None:
        return False
    if interaction.permissions.manage_guild:
        return True
    if not role_ids(interaction.user):
        return False  # no role can be a teacher role: spare the database
    settings = await server_settings(services_of(interaction).db, interaction.guild_id)
    return teaches(interaction, settings)


def teachers_choices(autocomplete: Callable[..., Any]) -> Callable[..., Any]:
    """For the autocomplete of a teachers-only command's option: a member who is not a teacher
    is offered nothing (discord.py runs a cog's ``interaction_check`` for the command, not for
    its autocompletes, which would list the class's sets, topics and assignments to anyone)."""
    return app_commands.check(is_teacher)(autocomplete)
