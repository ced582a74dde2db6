"""Leaving a match of The 20 Digits, end to end (the real bot against the stand-in):
``/digits resign`` and its confirmation, the shop clock (warning, time's up, lost on time) with
the clock replaced and a restart in between, and ``/digits solo`` while a solo match is open."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.local import StandIn
from bot.local.server import StandInError
from bot.play import digits_clock
from bot.ui import digits_leave as leave_ui
from tests.french import fr
from tests.test_cog_digits import act, duel, match_id_of, take_focus


def cog(bot: Any) -> Any:
    return bot.get_cog("Digits")


def button_id(message: Any, label: str) -> str:
    return message.button(label)["custom_id"]


async def row(bot: Any, match_id: int) -> Any:
    return await bot.db.digits.require_match(match_id)


async def results(bot: Any, match_id: int) -> dict[int | None, str | None]:
    return {seat.user_id: seat.result for seat in (await row(bot, match_id)).seats}


# --------------------------------------------------------------------------------------------
# /digits resign


async def test_resigning_a_challenge_after_the_confirmation(standin: StandIn, start_bot):
    bot, ana, sam, board = await duel(standin, start_bot)
    match_id = match_id_of(board)
    asked = (await standin.slash(ana, "digits resign")).reply
    assert asked.ephemeral
    assert asked.text().startswith(f"Resign match #{match_id} against Sam (round 1)? Sam wins it")
    resign = button_id(asked, f"Resign #{match_id} against Sam (round 1)")
    assert asked.button("Keep playing")

    # The question is Ana's alone (the stand-in, as Discord, shows it to nobody else).
    with pytest.raises(StandInError, match="cannot see that message"):
        await standin.click(sam, asked, resign)

    # A double click: both clicks reach the bot before either is answered; one resigns.
    first = await standin.click(ana, asked, resign, wait=False)
    second = await standin.click(ana, asked, resign, wait=False)
    await standin.wait_until(lambda: first.answered and second.answered and any(
        "🏳️" in m.content for m in standin.channel_messages()))
    await standin.idle()
    texts = sorted({m.text() for r in (first, second) for m in r.messages})
    assert texts == ["This match is not being played any more.",
                     f"You resigned match #{match_id}."], texts
    post = await standin.wait_for_message(lambda m: "🏳️" in m.content, after=board)
    assert post.content.startswith(
        f"{sam.mention}\n🏳️ **Ana** resigned match #{match_id}: **Sam** wins.")
    assert post.content.endswith("\nRatings: Ana 1500 → 1338 · Sam 1500 → 1662.")
    assert post.pinged() == {sam.id}  # the other player, not the one who resigned
    assert board.buttons() == []  # the match message's buttons are retired
    assert await results(bot, match_id) == {ana.id: "loss", sam.id: "win"}
    sam_rating = await bot.db.players.rating(standin.guild.id, sam.id, "digits")
    ana_rating = await bot.db.players.rating(standin.guild.id, ana.id, "digits")
    assert sam_rating.rating.rating > 1500 > ana_rating.rating.rating
    history = await bot.db.players.history(standin.guild.id, sam.id)
    assert len(history) == 1  # rated once


async def test_keep_playing_and_an_expired_confirmation_change_nothing(standin, start_bot,
                                                                      monkeypatch):
    bot, ana, _, board = await duel(standin, start_bot)
    match_id = match_id_of(board)
    asked = (await standin.slash(ana, "digits resign")).reply
    resign = button_id(asked, f"Resign #{match_id} against Sam (round 1)")
    kept = await standin.click(ana, asked, label="Keep playing")
    assert kept.reply.text() == "Your match goes on. Good luck!"
    assert (await row(bot, match_id)).status == "active"

    asked = (await standin.slash(ana, "digits resign")).reply
    resign = button_id(asked, f"Resign #{match_id} against Sam (round 1)")
    later = leave_ui.clock() + leave_ui.CONFIRM_S + 1
    monkeypatch.setattr(leave_ui, "clock", lambda: later)
    expired = await standin.click(ana, asked, resign)
    assert expired.reply.text() == ("This question has expired (after 15 minutes): run the "
                                    "command again. Nothing was changed.")
    assert (await row(bot, match_id)).status == "active"


async def test_resigning_in_french_and_choosing_among_several_matches(standin, start_bot):
    bot, ana, _, board = await duel(standin, start_bot, ana_locale="fr")
    solo = await standin.slash(ana, "digits solo")
    solo_id = match_id_of(solo.reply)
    duel_id = match_id_of(board)
    asked = (await standin.slash(ana, "chiffres abandonner")).reply
    assert asked.text().startswith(fr("Tu joues 2 parties ici : laquelle abandonnes-tu ?"))
    assert asked.button(fr(f"Abandonner la partie n° {duel_id} contre Sam (manche 1)"))
    shadow = fr(f"Abandonner la partie n° {solo_id} contre les fantômes (manche 1)")
    assert asked.button("Continuer à jouer")
    done = await standin.click(ana, asked, button_id(asked, shadow))
    assert done.reply.text() == fr(f"Tu as abandonné la partie n° {solo_id}.")
    post = await standin.wait_for_message(lambda m: "🏳️" in m.content)
    assert post.content == (fr(f"🏳️ **Ana** a abandonné la partie en solo n° {solo_id} : les "
                            "fantômes gagnent."))
    assert post.pinged() == set()  # nobody else is in a solo match
    assert await results(bot, solo_id) == {ana.id: "loss"}
    assert (await row(bot, duel_id)).status == "active"  # the other match goes on


async def test_no_match_to_resign_is_said(standin, start_bot):
    await start_bot()
    ana = standin.add_member("Ana")
    refused = await standin.slash(ana, "digits resign")
    assert refused.reply.text() == ("You are not playing any match on this server: there is "
                                    "nothing to resign.")


# --------------------------------------------------------------------------------------------
# The shop clock


async def test_the_clock_warns_ends_the_turns_then_the_match_on_time(standin, start_bot,
                                                                    restart_bot):
    bot, ana, sam, board = await duel(standin, start_bot)
    match_id = match_id_of(board)
    opened = await row(bot, match_id)
    assert opened.deadline is not None  # accepted: round 1's clock runs (24 h by default)
    assert timedelta(hours=23, minutes=59) < opened.deadline - opened.updated_at <= timedelta(
        hours=24)
    deadline = opened.deadline

    await cog(bot).flow.check_clocks(deadline - timedelta(hours=2))
    assert standin.last_message() is board  # too early to warn
    await cog(bot).flow.check_clocks(deadline - timedelta(minutes=30))
    warning = await standin.wait_for_message(lambda m: "⏰" in m.content, after=board)
    assert warning.content.startswith(
        f"⏰ <@{ana.id}> <@{sam.id}>, your turns of round 1 in match #{match_id} end <t:")
    assert warning.pinged() == {ana.id, sam.id}
    await cog(bot).flow.check_clocks(deadline - timedelta(minutes=10))  # warned once
    assert [m for m in standin.channel_messages() if "⏰" in m.content] == [warning]

    # Ana takes her Focus and leaves her shop open; Sam does nothing. Time's up.
    await take_focus(standin, bot, ana, board, right=6)
    await cog(bot).flow.check_clocks(deadline + timedelta(seconds=1))
    up = await standin.wait_for_message(lambda m: m.content.startswith("⌛"), after=warning)
    assert up.content.startswith(f"⌛ <@{ana.id}> <@{sam.id}>, time is up for round 1 of match "
                                 f"#{match_id}: your turns ended as they stood.")
    battle = await standin.wait_for_message(lambda m: "Round 1" in m.content and m.attachments,
                                            after=up)
    assert battle.attachments[0].filename == "battle.gif"
    after = await row(bot, match_id)
    assert (after.round, after.status) == (2, "active")
    assert after.state["engine"]["rounds"][0]["focus"] == {str(ana.id): 6, str(sam.id): 0}
    assert after.deadline is not None and after.deadline > deadline and after.warned_at is None
    assert after.state["clock"]["missed"] == {str(ana.id): 1, str(sam.id): 1}

    # A restart: the clock is in the database. Round 2: Ana plays and is Ready, Sam misses again.
    bot = await restart_bot(bot)
    message = standin.last_message()
    shop = await take_focus(standin, bot, ana, message, right=3)
    await act(standin, ana, shop, "digits:ready")
    second = (await row(bot, match_id)).deadline
    assert second == after.deadline
    await cog(bot).flow.check_clocks(second - timedelta(minutes=30))
    warned = await standin.wait_for_message(lambda m: "⏰" in m.content, after=battle)
    assert warned.content.startswith(f"⏰ <@{sam.id}>, your turn of round 2 in match "
                                     f"#{match_id} ends")
    assert warned.pinged() == {sam.id}  # Ana is done: not pinged
    await cog(bot).flow.check_clocks(second + timedelta(seconds=1))
    lost = await standin.wait_for_message(lambda m: "on time" in m.content, after=warned)
    assert f"**Sam** missed two rounds in a row: **Ana** wins match #{match_id} on time." in (
        lost.content)
    assert lost.pinged() == {ana.id, sam.id}
    ended = await row(bot, match_id)
    assert ended.status == "finished" and ended.state["ended"] == {"how": "time",
                                                                   "by": [str(sam.id)]}
    assert await results(bot, match_id) == {ana.id: "win", sam.id: "loss"}
    await cog(bot).flow.check_clocks(second + timedelta(hours=1))  # over: nothing more
    assert standin.last_message() is lost


async def test_a_player_who_plays_in_time_is_never_ended(standin, start_bot, monkeypatch):
    bot = await start_bot()
    # Three hours a turn: warned 36 minutes before the end (a fifth of the time, under an hour).
    await bot.db.servers.update(standin.guild.id, move_time_limit_s=3 * 3600)

    async def started() -> Any:
        return bot

    _, ana, sam, board = await duel(standin, started, ana_locale="fr")
    match_id = match_id_of(board)
    deadline = (await row(bot, match_id)).deadline
    assert deadline is not None
    # Both play round 1 two hours in (the clock that opens round 2 replaced).
    played_at = deadline - timedelta(hours=1)
    monkeypatch.setattr(digits_clock, "utcnow", lambda: played_at)
    for member in (ana, sam):
        shop = await take_focus(standin, bot, member, board, right=6, label="Faire mon Focus")
        await act(standin, member, shop, "digits:ready")
    await standin.wait_for_message(lambda m: "Manche 1" in m.content and m.attachments)
    await standin.idle()
    after = await row(bot, match_id)
    assert (after.round, after.deadline) == (2, played_at + timedelta(hours=3))
    await cog(bot).flow.check_clocks(deadline + timedelta(seconds=1))  # round 1's deadline: gone
    assert (await row(bot, match_id)).version == after.version
    assert "missed" not in after.state["clock"]
    assert not [m for m in standin.channel_messages() if "⏰" in m.content or "⌛" in m.content]
    await cog(bot).flow.check_clocks(after.deadline - timedelta(minutes=37))  # not yet
    assert not [m for m in standin.channel_messages() if "⏰" in m.content]
    # The warning of round 2, in French (the challenger's language), to both; bookkeeping only.
    await cog(bot).flow.check_clocks(after.deadline - timedelta(minutes=35))
    warning = standin.last_message()
    assert (await row(bot, match_id)).version == after.version
    assert warning.content.startswith(
        fr(f"⏰ <@{ana.id}> <@{sam.id}>, vos tours de la manche 2 dans la partie n° {match_id} "
           "se terminent ") + "<t:")


async def test_a_solo_match_left_alone_is_lost_on_time(standin, start_bot):
    bot = await start_bot()
    ana = standin.add_member("Ana")
    started = (await standin.slash(ana, "digits solo")).reply
    match_id = match_id_of(started)
    first = (await row(bot, match_id)).deadline
    await cog(bot).flow.check_clocks(first + timedelta(seconds=1))
    up = await standin.wait_for_message(lambda m: m.content.startswith("⌛"), after=started)
    assert up.content.startswith(f"⌛ <@{ana.id}>, time is up for round 1 of match #{match_id}: "
                                 "your turn ended as it stood.")
    assert up.pinged() == {ana.id}
    await standin.wait_for_message(lambda m: "Round 1" in m.content and m.attachments, after=up)
    second = await row(bot, match_id)
    assert second.round == 2 and second.deadline is not None
    await cog(bot).flow.check_clocks(second.deadline + timedelta(seconds=1))
    lost = await standin.wait_for_message(lambda m: "on time" in m.content, after=up)
    assert lost.content == (f"<@{ana.id}>\n⌛ **Ana** missed two rounds in a row: the ghosts win "
                            f"solo match #{match_id} on time.")
    assert await results(bot, match_id) == {ana.id: "loss"}


async def test_a_deadline_passed_while_the_bot_was_away_is_found_at_start(standin, start_bot,
                                                                         restart_bot):
    bot = await start_bot()
    ana = standin.add_member("Ana")
    started = (await standin.slash(ana, "digits solo")).reply
    match_id = match_id_of(started)
    opened = await row(bot, match_id)
    # The bot stops; meanwhile the round's time runs out (the deadline put in the past).
    await bot.db.digits.save_match(match_id, opened.state, opened.version,
                                   deadline=opened.created_at - timedelta(minutes=1))
    bot = await restart_bot(bot)  # no check_clocks call: the loop's first run finds it
    up = await standin.wait_for_message(lambda m: m.content.startswith("⌛"), after=started)
    assert f"time is up for round 1 of match #{match_id}" in up.content
    assert (await row(bot, match_id)).round == 2


# --------------------------------------------------------------------------------------------
# /digits solo while one is open


async def test_a_second_solo_asks_to_go_on_or_start_anew(standin, start_bot):
    bot = await start_bot()
    ana = standin.add_member("Ana")
    first = (await standin.slash(ana, "digits solo")).reply
    first_id = match_id_of(first)
    assert (await row(bot, first_id)).deadline is not None  # a solo match has its clock too
    asked = (await standin.slash(ana, "digits solo")).reply
    assert asked.ephemeral
    assert asked.content == (f"Your solo match #{first_id} is still open (round 1). Go on with "
                            "it, or resign it and start a new one?")
    go_on = await standin.click(ana, asked, label="Go on with your match (round 1)")
    assert go_on.reply.text().startswith(f"Your match #{first_id}, round 1: take your Focus")
    assert go_on.reply.button("Take my Focus")
    assert len(await bot.db.digits.open_matches(standin.guild.id, ana.id)) == 1

    asked = (await standin.slash(ana, "digits solo", level="gentle")).reply
    restart = await standin.click(ana, asked, label="Resign it and start a new one")
    assert restart.reply.text() == f"You resigned match #{first_id}."
    new = await standin.wait_for_message(lambda m: bool(m.buttons()), after=first)
    await standin.idle()  # the bot notes the new message's id once Discord has answered
    assert new.content.startswith(f"{ana.mention} plays")
    new_id = match_id_of(new)
    assert new_id != first_id
    assert (await row(bot, first_id)).status == "finished"
    assert (await row(bot, new_id)).status == "active"
    assert (await row(bot, new_id)).message_id == new.id
    # The new match is at the level the command asked for, not the resigned one's (fair).
    assert (await row(bot, new_id)).state["engine"]["level"] == "gentle"


async def test_the_solo_question_in_french(standin, start_bot):
    await start_bot()
    ana = standin.add_member("Ana", locale="fr")
    first = (await standin.slash(ana, "chiffres solo")).reply
    asked = (await standin.slash(ana, "chiffres solo")).reply
    assert asked.content == (fr(f"Ta partie en solo n° {match_id_of(first)} est encore en cours "
                            "(manche 1). La continuer, ou l'abandonner et en commencer une "
                            "nouvelle ?"))
    assert asked.button("Continuer ma partie (manche 1)")
    assert asked.button("L'abandonner et en commencer une nouvelle")
