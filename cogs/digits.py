"""``/digits challenge``, ``/digits solo`` and ``/digits odds``: The 20 Digits on Discord.

Thin: each command reads the interaction, calls one use case of ``bot.play.digits`` and says
the answer with ``bot.ui.digits`` (where the buttons, the shop windows and how a match runs on
Discord are). ``/digits card`` and ``/digits rules`` are in ``cogs/_digits_info.py``, a mixin.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.digits.levels import DEFAULT_LEVEL
from bot.domain import DomainError
from bot.i18n import lang_for, t
from bot.limits import limited
from bot.play import digits as play
from bot.replies import pings, shown_name
from bot.services import ServicedBot
from bot.ui import digits as digits_ui
from bot.ui import digits_leave as leave_ui
from bot.ui import digits_levels as levels_ui
from bot.ui import digits_rules as rules_ui
from bot.ui import focus_run as focus_ui
from bot.ui.pages import say_forged
from bot.views import Route
from cogs import ArdoiseCog
from cogs._digits_info import DigitsInfo
from cogs._digits_leave import DigitsLeave


class Digits(DigitsLeave, DigitsInfo, ArdoiseCog, commands.GroupCog, group_name="digits",
             group_description="The 20 Digits: the auto-battler of numbers"):
    persistent_items = (*digits_ui.PERSISTENT_ITEMS, *rules_ui.PERSISTENT_ITEMS,
                        *leave_ui.PERSISTENT_ITEMS)

    def routes(self) -> Sequence[Route]:
        # The answer modals of the match rounds' Focus (discord.py has no DynamicItem for
        # modals; see bot.ui.focus_run), a click on a shop control its message does not show
        # (a modified client: the sentence of an expired window), a rules page button it does
        # not show (refused).
        return (Route("modal", focus_ui.MODAL_PREFIX, focus_ui.take_submission),
                Route("click", digits_ui.SHOP_PREFIX, digits_ui.say_expired),
                Route("click", rules_ui.PREFIX, say_forged))

    @app_commands.command(name="challenge", description="Challenge a member to a match")
    @limited("start")
    @app_commands.describe(member="The member you challenge",
                           draft="Pick in turn from one shared row instead of private shops")
    async def challenge(self, interaction: discord.Interaction, member: discord.Member,
                        draft: bool | None = None) -> None:
        lang = await lang_for(interaction)
        user = interaction.user
        if member.bot and member.id != user.id:
            raise DomainError("digits.bot_challenge", "bots do not play",
                              name=shown_name(member.display_name))
        assert interaction.guild_id is not None
        game = await play.challenge(
            self.services.db, interaction.guild_id, interaction.channel_id,
            play.Member(user.id, user.display_name),
            play.Member(member.id, member.display_name), draft=draft, lang=lang,
            most=self.services.limits.open_games["digits_challenges"])
        settings = game.match.settings
        await replies.respond(
            interaction,
            t("digits.challenge.posted", lang, challenged=member.mention, challenger=user.mention,
              lives=settings.lives, rounds=settings.rounds,
              variant=digits_ui.variant_text(settings, lang)),
            view=digits_ui.challenge_view(game.id, game.row.version, lang),
            allowed_mentions=pings(member.id, user.id))

    @app_commands.command(name="solo", description="Play a match against other players' ghosts")
    @limited("start")
    @app_commands.describe(level="How strong the shadow plays: gentle (default), fair, strong, "
                                 "or adapted to your results")
    @app_commands.choices(level=levels_ui.LEVEL_CHOICES)
    async def solo(self, interaction: discord.Interaction, level: str = DEFAULT_LEVEL) -> None:
        if await self.solo_open_asked(interaction, level):
            return
        lang = await lang_for(interaction)
        user = interaction.user
        assert interaction.guild_id is not None
        db = self.services.db
        game = await play.solo(db, interaction.guild_id, interaction.channel_id,
                               play.Member(user.id, user.display_name), lang=lang,
                               most=self.services.limits.open_games["digits_solo"], level=level)
        sent = await replies.respond(
            interaction, t("digits.solo.started", lang, name=user.mention) + "\n"
            + levels_ui.started_text(game, lang),
            embed=digits_ui.match_embed(game, lang), view=digits_ui.match_view(game, lang),
            allowed_mentions=pings(user.id))
        if sent.message_id is not None:
            await play.set_message(db, game.id, sent.message_id)

    @app_commands.command(name="odds",
                          description="Your chances in this round's battle, with your slate as "
                                      "it stands")
    @limited("odds")
    async def odds(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        game = await play.odds_match(self.services.db, interaction.user.id,
                                     interaction.guild_id, interaction.channel_id)
        await digits_ui.show_odds(interaction, game, str(interaction.user.id), lang)


async def setup(bot: ServicedBot) -> None:
    await bot.add_cog(Digits(bot, bot.services))
