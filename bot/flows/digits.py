"""The 20 Digits' conductor: the Discord side of every ``/digits`` interaction.

What a member does — challenge, accept or decline, start a solo match (at a level), take the
round's Focus, shop, pick in a draft, say "Ready", ask the odds, resign, read a card or the rules
— comes here from a command of ``cogs/digits.py`` (and its mixins ``cogs/_digits_info.py``,
``cogs/_digits_leave.py``) or from a button or a shop control of ``bot/ui``, which calls back
through the protocols their modules declare (``bot.ui.digits.DigitsFlows``,
``bot.ui.digits_leave.LeaveFlows``): ``DigitsFlow`` implements both and registers itself under
their keys when it is built. Each method reads the member's language, defers before slow work,
calls the use cases (``bot.play.digits``, ``bot.play.digits_leave``: the rules, and what
happened as data), renders with ``bot/ui`` (the pictures drawn in threads there), posts through
``bot.replies`` and follows up: the match message refreshed, the battle announced with the next
round's buttons, the end of a match said in its channel — summed up with Rematch and, after two
solo wins in a row, Try the next level (``bot.ui.digits_end``). The odds come first as one line
in a child's words, with Details and "Show me a battle like that" (``bot.ui.digits_odds``).

The shop clock's loop lives in the cog (``cogs/_digits_leave.py``); each of its looks is
``check_clocks``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import discord
from discord import app_commands

from bot import replies
from bot.digits.match import RoundRecord
from bot.domain import DomainError
from bot.flows import Flow
from bot.focus import Answer, FocusRound
from bot.i18n import lang_for, t
from bot.limits import hit
from bot.play import digits as play
from bot.play import digits_leave as leave
from bot.play import students
from bot.play.digits import StoredMatch
from bot.play.focus import practice_year, stored_round
from bot.replies import pings
from bot.services import ServicedBot, Services
from bot.tree import NotAPlayer
from bot.ui import digits as ui
from bot.ui import digits_card as card_ui
from bot.ui import digits_end as end_ui
from bot.ui import digits_leave as leave_ui
from bot.ui import digits_levels as levels_ui
from bot.ui import digits_odds as odds_ui
from bot.ui import digits_rules as rules_ui
from bot.ui import digits_shop as shop_ui
from bot.ui import focus_run as focus_ui
from bot.ui.digits_odds import odds_text
from bot.ui.focus_run import FocusRun
from bot.ui.pages import say_forged
from bot.views import Route, ensure_player, ensure_version

log = logging.getLogger(__name__)

#: Seconds between two looks at the shop clocks.
CLOCK_CHECK_S = 60
#: Seconds the odds may take before the answer is deferred (Discord waits 3 s for an answer).
ODDS_DEFER_AFTER = 1.0


async def defer_update(interaction: discord.Interaction) -> None:
    if not interaction.response.is_done():
        await interaction.response.defer()


async def defer_thinking(interaction: discord.Interaction) -> None:
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


class DigitsFlow(Flow):
    """The conductor of ``/digits`` (see the module's docstring)."""

    def __init__(self, bot: ServicedBot, services: Services) -> None:
        super().__init__(bot, services)
        services.kept.put(ui.DIGITS_FLOWS, self)
        services.kept.put(leave_ui.LEAVE_FLOWS, self)

    def close(self) -> None:
        """Its cog is unloaded: the buttons no longer find it (they say the bot is not ready)."""
        self.services.kept.drop(ui.DIGITS_FLOWS, self)
        self.services.kept.drop(leave_ui.LEAVE_FLOWS, self)

    def routes(self) -> Sequence[Route]:
        # The answer modals of the match rounds' Focus (discord.py has no DynamicItem for
        # modals; see bot.ui.focus_run), a click on a shop control its message does not show
        # (a modified client: the sentence of an expired window), a rules page button it does
        # not show (refused).
        return (Route("modal", focus_ui.MODAL_PREFIX, focus_ui.take_submission),
                Route("click", ui.SHOP_PREFIX, self.say_expired),
                Route("click", rules_ui.PREFIX, say_forged))

    async def public_lang(self, game: StoredMatch) -> str:
        """The language of the match's public messages: the server's, else the challenger's."""
        return (await self.services.languages.of_guild(game.row.guild_id)) or game.lang

    # -- the commands -------------------------------------------------------------------------

    async def challenge(self, interaction: discord.Interaction, member: discord.Member,
                        draft: bool | None) -> None:
        lang = await lang_for(interaction)
        user = interaction.user
        assert interaction.guild_id is not None
        try:
            game = await play.challenge(
                self.services.db, interaction.guild_id, interaction.channel_id,
                play.Member(user.id, user.display_name),
                play.Member(member.id, member.display_name, bot=member.bot), draft=draft,
                lang=lang, most=self.services.limits.open_games["digits_challenges"])
        except DomainError as error:
            raise ui.localised(error, lang) from None
        settings = game.match.settings
        await replies.respond(
            interaction,
            t("digits.challenge.posted", lang, challenged=member.mention, challenger=user.mention,
              lives=settings.lives, rounds=settings.rounds,
              variant=ui.variant_text(settings, lang)),
            view=ui.challenge_view(game.id, game.row.version, lang),
            allowed_mentions=pings(member.id, user.id))

    async def solo(self, interaction: discord.Interaction, level: str) -> None:
        """A new solo match at ``level``; with one open already, the member is asked first
        whether to go on with it or resign it and start anew."""
        if await self.solo_open_asked(interaction, level):
            return
        lang = await lang_for(interaction)
        game = await self._new_solo(interaction, level, lang)
        user = interaction.user
        sent = await replies.respond(
            interaction, t("digits.solo.started", lang, name=user.mention) + "\n"
            + levels_ui.started_text(game, lang),
            embed=ui.match_embed(game, lang), view=ui.match_view(game, lang),
            allowed_mentions=pings(user.id))
        if sent.message_id is not None:
            await play.set_message(self.services.db, game.id, sent.message_id)

    async def _new_solo(self, interaction: discord.Interaction, level: str, lang: str
                        ) -> StoredMatch:
        user = interaction.user
        assert interaction.guild_id is not None
        return await play.solo(self.services.db, interaction.guild_id, interaction.channel_id,
                               play.Member(user.id, user.display_name), lang=lang,
                               most=self.services.limits.open_games["digits_solo"], level=level)

    async def solo_open_asked(self, interaction: discord.Interaction, level: str) -> bool:
        """Whether the member has a solo match open here; if so, the private question is asked
        (go on with it, or resign it and start a new one at ``level``) and ``/digits solo``
        does nothing else."""
        assert interaction.guild_id is not None
        user = interaction.user.id
        games = await leave.open_matches(self.services.db, interaction.guild_id, user, "ghost")
        if not games:
            return False
        lang = await lang_for(interaction)
        text, view = leave_ui.solo_question(games[-1], user, level, lang)
        await replies.respond(interaction, text, view=view, ephemeral=True)
        return True

    async def odds(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        assert interaction.guild_id is not None
        game = await play.odds_match(self.services.db, interaction.user.id,
                                     interaction.guild_id, interaction.channel_id)
        await self.show_odds(interaction, game, str(interaction.user.id), lang)

    async def card(self, interaction: discord.Interaction, digit: str, show: bool) -> None:
        lang = await lang_for(interaction)
        kind = card_ui.lookup(digit, lang)
        await replies.respond(interaction, embed=card_ui.card_embed(kind, lang),
                              ephemeral=not show)

    async def card_choices(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        return replies.fit_choices(card_ui.choices_for(current, await lang_for(interaction)))

    async def rules(self, interaction: discord.Interaction, show: bool) -> None:
        await rules_ui.send_rules(interaction, await lang_for(interaction), show)

    async def resign(self, interaction: discord.Interaction) -> None:
        """``/digits resign``: the private question, one button per open match."""
        assert interaction.guild_id is not None
        games = await leave.to_resign(self.services.db, interaction.guild_id,
                                      interaction.user.id)
        text, view = leave_ui.resign_question(games, interaction.user.id,
                                              await lang_for(interaction))
        await replies.respond(interaction, text, view=view, ephemeral=True)

    # -- the challenge's buttons --------------------------------------------------------------

    async def _pending(self, interaction: discord.Interaction, match_id: int, *,
                       answering: bool) -> StoredMatch:
        """The pending challenge, if the clicking member may answer it (``answering``) or
        cancel it; anyone but its two members is refused as not a player."""
        try:
            game = await play.pending_challenge(self.services.db, match_id, interaction.user.id,
                                                answering=answering)
        except DomainError as error:
            if not any(isinstance(v, play.Side) for v in error.params.values()):
                raise
            # The side it names is worded as the match keeps its name.
            game = await play.load_game(self.services.db, match_id)
            raise ui.localised(error, await lang_for(interaction), game) from None
        ensure_player(interaction, [game.answerer(answering)])
        return game

    async def accept(self, interaction: discord.Interaction, match_id: int,
                     version: int) -> None:
        game = await self._pending(interaction, match_id, answering=True)
        ensure_version(version, game.row.version)
        message_id = interaction.message.id if interaction.message else None
        game = await play.answer_challenge(self.services.db, game.id, "active", message_id)
        lang = await self.public_lang(game)
        await replies.update(
            interaction, content=ui.challenge_text(game, "digits.challenge.accepted", lang),
            embed=ui.match_embed(game, lang), view=ui.match_view(game, lang))

    async def decline(self, interaction: discord.Interaction, match_id: int) -> None:
        game = await self._pending(interaction, match_id, answering=True)
        await self._close_challenge(interaction, game, "declined", "digits.challenge.declined")

    async def cancel(self, interaction: discord.Interaction, match_id: int) -> None:
        game = await self._pending(interaction, match_id, answering=False)
        await self._close_challenge(interaction, game, "abandoned", "digits.challenge.cancelled")

    async def _close_challenge(self, interaction: discord.Interaction, game: StoredMatch,
                               status: str, key: str) -> None:
        game = await play.answer_challenge(self.services.db, game.id, status)
        lang = await self.public_lang(game)
        await replies.update(interaction, content=ui.challenge_text(game, key, lang),
                             embed=None, view=None)

    # -- the match message's buttons ----------------------------------------------------------

    async def take_focus(self, interaction: discord.Interaction, match_id: int,
                         clicked_round: int) -> None:
        game = await play.load_active(self.services.db, match_id)
        player = ui.player_of(game, interaction)
        ui.check_public(game, clicked_round, interaction.message)
        game.focus_open(player, game.match.round)
        await self.start_focus(interaction, game, player)

    async def open_shop(self, interaction: discord.Interaction, match_id: int,
                        clicked_round: int) -> None:
        hit(interaction, "shop")  # it draws the shop's pictures
        game = await play.load_active(self.services.db, match_id)
        player = ui.player_of(game, interaction)
        ui.check_public(game, clicked_round, interaction.message)
        game.shop_open(player)
        lang = await lang_for(interaction)
        await defer_thinking(interaction)  # before drawing the pictures
        await self.reply(interaction, True, **await ui.shop_message(game, player, lang))

    async def draft_turn(self, interaction: discord.Interaction, match_id: int,
                         clicked_round: int, slot: int | None) -> None:
        """A pick from the shared row (``slot``), or a pass (None), by the member whose turn it
        is. The match message shows the row as it now is; a pick also brings the picker a fresh
        shop window (the slate changed: the windows opened before are out of date)."""
        lang = await lang_for(interaction)
        player = str(interaction.user.id)

        def check(game: StoredMatch) -> None:
            ui.player_of(game, interaction)
            ui.check_public(game, clicked_round, interaction.message)

        game, placed = await play.draft_turn(
            self.services.db, match_id, player, slot, check=check, engine=ui.engine_in(lang),
            before_save=lambda: defer_update(interaction))
        public = await self.public_lang(game)
        await replies.edit_original(interaction, embed=ui.match_embed(game, public),
                                    view=ui.match_view(game, public))
        if placed is not None:
            note = shop_ui.placed_text(placed, lang, game.match.shop(player).slate)
            await self.reply(interaction, True, **await ui.shop_message(game, player, lang, note))

    # -- the shop windows ---------------------------------------------------------------------

    async def say_expired(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        await replies.respond(interaction, t("digits.shop.expired", lang), ephemeral=True)

    async def shop_move(self, interaction: discord.Interaction, window: ui.ShopView,
                        move: play.ShopMove) -> None:
        """One shop action at the window's step, then the shop again with what it did."""
        lang, player = window.lang, window.player
        game, done = await play.shop_move(
            self.services.db, window.match_id, player, window.step, move,
            engine=ui.engine_in(lang), before_save=lambda: defer_update(interaction))
        note = shop_ui.move_text(done, lang, game.match.shop(player).slate)
        await self.reply(interaction, False, **await ui.shop_message(game, player, lang, note))

    async def ready(self, interaction: discord.Interaction, window: ui.ShopView) -> None:
        """"Ready": the player's turn ends; with every side ready, the battle is fought, saved
        and posted."""
        lang, player, match_id = window.lang, window.player, window.match_id
        game, record = await play.end_turn(self.services.db, match_id, player, window.step,
                                           engine=ui.engine_in(lang),
                                           before_save=lambda: defer_update(interaction))
        if record is None:
            await replies.edit_original(interaction, content=ui.shop_text(game, player, lang),
                                        view=None)
            await self.refresh_public(match_id)
            return
        await replies.edit_original(interaction, content=t("digits.shop.battle_posted", lang),
                                    view=None)
        await self.announce_battle(game, record)

    async def shop_odds(self, interaction: discord.Interaction, window: ui.ShopView) -> None:
        hit(interaction, "odds")  # a forecast is thousands of battles
        # Read only: any window of the turn may ask, the odds are of the slate as it is now.
        game = await play.load_active(self.services.db, window.match_id)
        game.shopping(window.player)
        await self.show_odds(interaction, game, window.player, window.lang)

    async def show_odds(self, interaction: discord.Interaction, game: StoredMatch, player: str,
                        lang: str) -> None:
        """Work out the odds of ``player``'s slate and say them privately (deferring first when
        they take more than ``ODDS_DEFER_AFTER`` seconds)."""
        work = asyncio.ensure_future(play.round_odds(self.services.db, game, player))
        done, _ = await asyncio.wait({work}, timeout=ODDS_DEFER_AFTER)
        if not done:
            await defer_thinking(interaction)
        found = await work
        text = odds_ui.chance_line(found.forecast, lang)
        view = odds_ui.odds_view(game, player, lang)
        if interaction.response.is_done():
            await replies.followup(interaction, text, view=view, ephemeral=True)
        else:
            await replies.respond(interaction, text, view=view, ephemeral=True)

    async def _odds_game(self, interaction: discord.Interaction, match_id: int,
                         clicked_round: int, player: str) -> StoredMatch:
        """The match of an odds button, for the member it was shown to only."""
        if str(interaction.user.id) != player:
            raise NotAPlayer(interaction.user.id)
        hit(interaction, "odds")  # each is thousands of battles again
        return await play.odds_game(self.services.db, match_id, clicked_round, player)

    async def odds_details(self, interaction: discord.Interaction, match_id: int,
                           clicked_round: int, player: str) -> None:
        """The odds' Details button: what the chances assume, how many battles were fought."""
        game = await self._odds_game(interaction, match_id, clicked_round, player)
        lang = await lang_for(interaction)
        await defer_thinking(interaction)
        found = await play.round_odds(self.services.db, game, player)
        await replies.followup(interaction, odds_text(game, player, found.forecast, found.pool,
                                                      ui.odds_name(game, player, lang), lang),
                               ephemeral=True)

    async def odds_show(self, interaction: discord.Interaction, match_id: int,
                        clicked_round: int, player: str) -> None:
        """"Show me a battle like that": one battle of the odds the slate wins, one it loses."""
        game = await self._odds_game(interaction, match_id, clicked_round, player)
        lang = await lang_for(interaction)
        await defer_thinking(interaction)
        examples = await play.round_examples(self.services.db, game, player)
        message = await odds_ui.examples_message(examples, lang)
        await replies.followup(interaction, message.pop("content"), ephemeral=True, **message)

    async def reply(self, interaction: discord.Interaction, new: bool, **message: Any) -> None:
        """Say ``message`` privately: in a new ephemeral message, or by updating the ephemeral
        message whose component was used; a shop window shown is filed under its message (where
        its controls find it). Pictures take a moment to draw: then, or when the interaction
        was deferred already, through a deferral."""
        files = message.pop("files", [])
        slow = bool(files) or interaction.response.is_done()
        view = message.get("view")
        windows = ui.shop_windows(interaction.client)
        if new:
            if view is None:
                message.pop("view", None)  # a new message takes a view or nothing, not None
            if slow:
                await defer_thinking(interaction)
                sent = await replies.followup(interaction, ephemeral=True, files=files,
                                              wait=True, **message)
                shown_id: int | None = sent.id
            else:
                shown_id = (await replies.respond(interaction, ephemeral=True,
                                                  **message)).message_id
            if isinstance(view, ui.ShopView) and shown_id is not None:
                windows.show(shown_id, view)
            return
        # The component's own message: its window changes before the edit is sent.
        here = None if interaction.message is None else interaction.message.id
        if isinstance(view, ui.ShopView) and here is not None:
            windows.show(here, view)
        else:
            windows.forget(here)
        if slow:
            await defer_update(interaction)
            await replies.edit_original(interaction, attachments=files, **message)
        else:
            await replies.update(interaction, attachments=[], **message)

    # -- the Focus of a round (bot.ui.focus_run runs it; the match keeps its progress) --------

    async def start_focus(self, interaction: discord.Interaction, game: StoredMatch,
                          player: str) -> None:
        """The round's Focus for ``player``, from where it stands.

        ``bot.ui.focus_run`` asks the questions in a new ephemeral message; each answer is saved
        in the match, so that after a restart the Focus goes on at the same question, and stored
        in ``db.focus`` as a "match" answer in the same transaction; the last one submits the
        score to the match (with its answer, again one transaction) and turns the message into
        the shop (``focus_done``)."""
        db = self.services.db
        lang = await lang_for(interaction)
        match_id, round_ = game.id, game.match.round
        # The student's own levels, school year and extra time (bot.play.students), in the
        # match's server: each player answers at their own year and level.
        rules = await students.rules_for(db, game.row.guild_id, int(player))
        year = practice_year(rules.server, rules.settings)

        async def answered(run: FocusRun, answer: Answer) -> None:
            focus = FocusRound(run.round.questions, [*run.round.answers, answer])
            if focus.finished:
                return  # focus_done submits the score and stores the last answer
            await play.focus_answered(db, match_id, player, round_, focus,
                                      focus_ui.stored_answer(run, answer, len(focus.answers) - 1))

        async def done(interaction: discord.Interaction, run: FocusRun) -> None:
            await self.focus_done(interaction, run, match_id, player, round_)

        await focus_ui.start_focus(
            interaction, game.focus_round(player, rules.settings, year), lang, on_done=done,
            kind="match", title=ui.focus_title(round_, lang),
            key=ui.focus_key(match_id, round_, player), on_answer=answered,
            data={"match": match_id, "round": round_}, record=False,
            round_key=play.focus_round_key(match_id, round_), time_factor=rules.time_factor)

    async def focus_done(self, interaction: discord.Interaction, run: FocusRun, match_id: int,
                         player: str, round_: int) -> None:
        """The Focus is in: the score goes to the match (gold, Abacus); the Focus message shows
        the corrections and becomes the shop; the match message shows the new stage."""
        lang = run.lang
        focus = run.round
        last = (focus_ui.stored_answer(run, focus.answers[-1], len(focus.answers) - 1)
                if focus.answers else None)  # the last answer, with the score it completes
        # The message of the last answer is the Focus's own ephemeral one (a Focus finished
        # before it began would answer the match message's button: then a new message).
        message = interaction.message
        new = message is None or not message.flags.ephemeral
        defer = defer_thinking if new else defer_update
        game = await play.submit_focus(self.services.db, match_id, player, round_, None, last,
                                       engine=ui.engine_in(lang),
                                       before_save=lambda: defer(interaction))
        # What is stored, should another window of this Focus have stored some answers first.
        focus = run.round = stored_round(focus.questions, game.focus_answers)
        await self.reply(interaction, new,
                         embed=focus_ui.summary_embed(focus, lang, ui.focus_title(round_, lang)),
                         **await ui.shop_message(game, player, lang,
                                                 ui.focus_note(game, player, focus, lang)))
        await self.refresh_public(match_id)

    # -- the public messages ------------------------------------------------------------------

    async def channel_of(self, channel_id: int | None) -> discord.abc.Messageable | None:
        if channel_id is None:
            return None
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s of a match is gone", channel_id)
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def refresh_public(self, match_id: int) -> None:
        """Show the latest stages on the match message (best effort: the state is saved)."""
        game = await play.load_game(self.services.db, match_id)
        if game.row.status != "active" or game.row.message_id is None:
            return
        channel = await self.channel_of(game.row.channel_id)
        if channel is None or not hasattr(channel, "get_partial_message"):
            return
        lang = await self.public_lang(game)
        try:
            await replies.edit(channel.get_partial_message(game.row.message_id),
                               embed=ui.match_embed(game, lang), view=ui.match_view(game, lang))
        except discord.HTTPException as error:
            log.warning("could not update the message of match %s: %s", match_id, error)

    async def announce_battle(self, game: StoredMatch, record: RoundRecord) -> None:
        """Post the round's battle (replay and summary) with the next round's buttons, and
        retire the previous match message's buttons."""
        lang = await self.public_lang(game)
        message = await ui.battle_message(game, record, lang)
        if game.match.over:
            won_two = await self._won_two(game)
            message["content"] += "\n\n" + end_ui.summary_text(game, lang, won_two=won_two)
            message["view"] = end_ui.end_view(game, lang, won_two=won_two)
        channel = await self.channel_of(game.row.channel_id)
        if channel is None:
            return
        previous = game.row.message_id
        posted = await replies.post(channel, message.pop("content"), **message)
        if not game.match.over:
            await play.set_message(self.services.db, game.id, posted.id)
        if previous is not None and hasattr(channel, "get_partial_message"):
            try:
                await replies.edit(channel.get_partial_message(previous),
                                   embed=ui.played_embed(game, record, lang), view=None)
            except discord.HTTPException as error:
                log.warning("could not retire the buttons of match %s: %s", game.id, error)

    async def _won_two(self, game: StoredMatch) -> bool:
        """Whether the member of this finished solo match has won it and the one before at its
        level: what "adapt" moves up on (the next level is offered)."""
        if not game.match.solo or game.match.winner not in game.match.players:
            return False
        adapted = await play.adapt_level(self.services.db, game.row.guild_id,
                                         int(game.match.winner))
        return adapted.reason == "won_two" and adapted.last == game.match.level

    # -- the end of a match's buttons ---------------------------------------------------------

    async def rematch(self, interaction: discord.Interaction, match_id: int) -> None:
        """Rematch: alone, a new solo match at the same level; between members, a new
        challenge to the same opponent. For the match's members only."""
        game = await play.load_game(self.services.db, match_id)
        ensure_player(interaction, game.members)
        if game.match.solo:
            await self.solo(interaction, game.match.level or levels_ui.DEFAULT_LEVEL)
            return
        lang = await lang_for(interaction)
        user = interaction.user
        assert interaction.guild_id is not None
        other = next(m for m in game.members if m != user.id)
        try:
            new = await play.challenge(
                self.services.db, interaction.guild_id, interaction.channel_id,
                play.Member(user.id, user.display_name),
                play.Member(other, game.names.get(str(other), "?")),
                draft=game.match.settings.draft, lang=lang,
                most=self.services.limits.open_games["digits_challenges"])
        except DomainError as error:
            raise ui.localised(error, lang) from None
        settings = new.match.settings
        mention = f"<@{other}>"
        await replies.respond(
            interaction,
            t("digits_end.rematch_posted", lang, challenger=user.mention, challenged=mention)
            + "\n" + t("digits.challenge.posted", lang, challenged=mention,
                        challenger=user.mention, lives=settings.lives,
                        rounds=settings.rounds, variant=ui.variant_text(settings, lang)),
            view=ui.challenge_view(new.id, new.row.version, lang),
            allowed_mentions=pings(other, user.id))

    async def next_level(self, interaction: discord.Interaction, match_id: int) -> None:
        """Try the next level: a new solo match one level stronger than this one."""
        game = await play.load_game(self.services.db, match_id)
        ensure_player(interaction, game.members)
        following = end_ui.next_level(game.match.level)
        if following is None:
            raise DomainError("component.invalid", "no level after this one")
        await self.solo(interaction, following)

    # -- leaving a match ----------------------------------------------------------------------

    async def confirm_resign(self, interaction: discord.Interaction, match_id: int) -> None:
        ended = await leave.resign(self.services.db, match_id, interaction.user.id)
        lang = await lang_for(interaction)
        await replies.update(interaction, view=None,
                             content=t("digits_leave.resign.done", lang, match=ended.game.id))
        await self.announce_end(ended)

    async def keep_playing(self, interaction: discord.Interaction) -> None:
        lang = await lang_for(interaction)
        await replies.update(interaction, view=None, content=t("digits_leave.resign.kept", lang))

    async def go_on_solo(self, interaction: discord.Interaction, match_id: int) -> None:
        game = await play.load_active(self.services.db, match_id)
        lang = await lang_for(interaction)
        await replies.update(interaction, content=t("digits_leave.solo.here", lang,
                                                    match=game.id, round=game.match.round),
                             embed=ui.match_embed(game, lang), view=ui.match_view(game, lang))

    async def restart_solo(self, interaction: discord.Interaction, match_id: int,
                           level: str) -> None:
        """Resign the open solo match, then start a new one at ``level``."""
        user = interaction.user
        ended = await leave.resign(self.services.db, match_id, user.id)
        lang = await lang_for(interaction)
        await replies.update(interaction, view=None,
                             content=t("digits_leave.resign.done", lang, match=ended.game.id))
        await self.announce_end(ended)
        game = await self._new_solo(interaction, level, lang)
        sent = await replies.followup(
            interaction, t("digits.solo.started", lang, name=user.mention), wait=True,
            embed=ui.match_embed(game, lang), view=ui.match_view(game, lang),
            allowed_mentions=pings(user.id))
        await play.set_message(self.services.db, game.id, sent.id)

    async def announce_end(self, ended: leave.Ended) -> None:
        """Say in the match's channel how it ended, pinging the players told (the opponent of one
        who resigned; every player of a match lost on time), and retire the match message's
        buttons."""
        game = ended.game
        lang = await self.public_lang(game)
        channel = await self.channel_of(game.row.channel_id)
        if channel is None:
            return
        await replies.post(channel, leave_ui.end_post(ended, lang),
                           allowed_mentions=pings(*leave_ui.told(ended)))
        if game.row.message_id is not None and hasattr(channel, "get_partial_message"):
            # A message gone: the post above says it all.
            with contextlib.suppress(discord.HTTPException):
                await replies.edit(channel.get_partial_message(game.row.message_id),
                                   embed=ui.match_embed(game, lang), view=None)

    # -- the shop clock -----------------------------------------------------------------------

    async def wait_until_ready(self) -> None:
        """The clock's first look waits for the bot to be connected (it posts in channels)."""
        await self.bot.wait_until_ready()

    async def check_clocks(self, now: datetime | None = None) -> None:
        """Warn the late players, end the turns and the matches whose time is up (the first run
        after a start finds what fell due while the bot was away)."""
        for event in await leave.tick(self.services.db, now, self.services.owns):
            try:
                await self.tell(event)
            except Exception:
                log.exception("clock of match %s", event.game.id)

    async def tell(self, event: leave.Warned | leave.TimeUp | leave.Ended) -> None:
        """Post a tick's event in the match's channel, pinging only the players concerned."""
        if isinstance(event, leave.Ended):
            await self.announce_end(event)
            return
        game = event.game
        lang = await self.public_lang(game)
        channel = await self.channel_of(game.row.channel_id)
        if isinstance(event, leave.Warned):
            if channel is not None:
                await replies.post(channel, leave_ui.warning_text(event, lang),
                                   allowed_mentions=pings(*event.late))
            return
        if channel is not None:
            await replies.post(channel, leave_ui.time_up_text(event, lang),
                               allowed_mentions=pings(*event.late))
        if event.record is not None:
            await self.announce_battle(game, event.record)
        else:
            await self.refresh_public(game.id)
