"""The command tree: every failure becomes a short, localised, private answer.

``report_error(interaction, error)`` is the one place that turns an exception into what the member
reads; the tree's ``on_error`` and the bases in ``bot.views`` all call it:

- a ``DomainError`` (a refused move, purchase or answer) → its sentence, ``errors.<code>``;
- a failed check (not a player of this game, missing permission, cooldown, not in a server) → its
  sentence;
- anything else is a bug: logged with its traceback, and the member gets a short apology.

It answers whether or not the interaction was already answered or deferred, always privately
(ephemeral) except after a public "thinking" deferral, whose placeholder it replaces.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.domain import DomainError
from bot.i18n import error_text, has, lang_for, t
from bot.limits import retry_seconds
from bot.replies import edit_original, excerpt, followup, interaction_data, respond

log = logging.getLogger(__name__)


class NotAPlayer(app_commands.CheckFailure):
    """Someone who is not a player of a game tried to act on it."""

    def __init__(self, user_id: int) -> None:
        super().__init__(f"user {user_id} is not a player of this game")
        self.user_id = user_id


_WRAPPERS = (app_commands.CommandInvokeError, commands.CommandInvokeError)


def unwrap(error: BaseException) -> BaseException:
    """The exception that really happened, under discord.py's invoke wrappers."""
    while isinstance(error, _WRAPPERS):
        error = error.original
    return error


def _permission_names(names: list[str], lang: str) -> str:
    # Discord shows permissions by their display names ("Manage Server"), so say them that way.
    return ", ".join(t(f"permissions.{name}", lang) if has(f"permissions.{name}")
                     else name.replace("_", " ") for name in names)


def describe_error(error: BaseException, lang: str) -> tuple[str, bool]:
    """What to tell the member about ``error``, and whether it is a bug to log as such."""
    error = unwrap(error)
    if isinstance(error, DomainError):
        return error_text(error, lang), False
    if isinstance(error, NotAPlayer):
        return t("errors.not_a_player", lang), False
    if isinstance(error, app_commands.MissingPermissions):
        return t("errors.missing_permissions", lang,
                 permissions=_permission_names(error.missing_permissions, lang)), False
    if isinstance(error, app_commands.BotMissingPermissions):
        return t("errors.bot_missing_permissions", lang,
                 permissions=_permission_names(error.missing_permissions, lang)), False
    if isinstance(error, app_commands.CommandOnCooldown):
        return t("errors.cooldown", lang, seconds=retry_seconds(error.retry_after)), False
    if isinstance(error, app_commands.NoPrivateMessage):
        return t("errors.guild_only", lang), False
    if isinstance(error, app_commands.CheckFailure):
        return t("errors.check_failed", lang), False
    if isinstance(error, app_commands.TransformerError):
        return t("errors.bad_value", lang, value=excerpt(error.value)), False
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return t("errors.outdated_command", lang), False
    return t("errors.unexpected", lang), True


async def send_private(interaction: discord.Interaction, text: str) -> None:
    """Tell ``text`` to the member behind ``interaction``, however far it was answered already."""
    response = interaction.response
    kind = response.type
    if not response.is_done():
        await respond(interaction, text, ephemeral=True)
    elif kind is discord.InteractionResponseType.deferred_channel_message:
        # A "thinking…" placeholder is waiting: the text replaces it (ephemeral if it was).
        await edit_original(interaction, content=text, embeds=[], attachments=[], view=None)
    elif kind in (discord.InteractionResponseType.modal,
                  discord.InteractionResponseType.autocomplete_result):
        return  # Nothing can follow a modal or a list of choices; the log has the error.
    else:
        await followup(interaction, text, ephemeral=True)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Log ``error`` as it deserves and tell the member about it in their language."""
    original = unwrap(error)
    try:
        lang = await lang_for(interaction)
    except Exception:
        lang = "en"
    text, is_bug = describe_error(original, lang)
    where = _where(interaction)
    if is_bug:
        log.error("unexpected error in %s", where, exc_info=original)
    else:
        log.debug("refused %s: %r", where, original)
    if interaction.type is discord.InteractionType.autocomplete:
        return
    try:
        await send_private(interaction, text)
    except discord.HTTPException as failure:
        log.warning("could not tell the member about an error in %s: %s", where, failure)


def _where(interaction: discord.Interaction) -> str:
    command = interaction.command
    if command is not None:
        what = f"/{command.qualified_name}"
    elif "custom_id" in (data := interaction_data(interaction)):
        what = f"component {data['custom_id']!r}"
    else:
        what = f"interaction {interaction.type.name}"
    return f"{what} (user {interaction.user.id}, server {interaction.guild_id})"


class ArdoiseTree(app_commands.CommandTree):
    """The bot's command tree: language once per interaction, servers only, errors localised."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        lang = await lang_for(interaction)
        if interaction.guild_id is None:
            # The commands are registered for servers only; this catches an old cached client.
            if interaction.type is not discord.InteractionType.autocomplete:
                await send_private(interaction, t("errors.guild_only", lang))
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        await report_error(interaction, error)
