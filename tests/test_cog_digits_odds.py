"""The 20 Digits on Discord: ``/digits odds`` and the shop window's "Odds" button."""

from __future__ import annotations

import threading
from typing import Any

from test_cog_digits import act, duel, match_state, take_focus

from bot.digits.forecast import forecast_for_match
from bot.digits.ghosts import Ghost
from bot.digits.slate import Slate
from bot.flows import digits as digits_flow
from bot.local.server import Member, Message
from bot.play import digits as play_digits
from tests.french import fr


async def odds_title(bot: Any, board: Message, member: Member, pool: list[Ghost] | None = None,
                     lang: str = "en", name: str | None = None) -> str:
    """The first line the member should read: the engine's forecast of the stored match, with
    its assumption (``name`` shops before the battle) or, against the server's ghosts, without."""
    engine = (await match_state(bot, board))["engine"]
    found = forecast_for_match(engine, str(member.id), pool or [])
    win, draw, loss = found.rounded()
    round_ = engine["round"]
    if lang == "fr":
        # French writes a no-break space before % (CLDR), English none.
        odds = f"victoire {win}\u00a0% · égalité {draw}\u00a0% · défaite {loss}\u00a0%"
        if name is None:
            return fr(f"**Chances de ton ardoise, manche {round_}** : {odds}")
        return (fr(f"**Si {name} achète comme les joueurs le font d'habitude à la manche "
                f"{round_}** : {odds}"))
    odds = f"win {win}% · draw {draw}% · loss {loss}%"
    if name is None:
        return f"**Odds of your slate, round {round_}**: {odds}"
    return f"**If {name} buys as players usually do at round {round_}**: {odds}"


async def distinct(bot: Any, board: Message, member: Member) -> int:
    """The different battles the forecast fought (its detail says how many)."""
    engine = (await match_state(bot, board))["engine"]
    return forecast_for_match(engine, str(member.id)).raw.distinct


async def details(standin: Any, bot: Any, member: Member, asked: Any,
                  label: str = "Details") -> str:
    """What the odds' Details button says (the details the first line leaves out)."""
    bot.limits.reset()  # the odds' cooldown counts the button too
    return str((await standin.click(member, asked.reply, label=label)).reply.content)


def chance(bot_forecast: Any) -> str:
    wins, draws = (int(p * 10 + 0.5) for p in (bot_forecast.win, bot_forecast.draw))
    draw = f" (draw {draws} in 10)" if draws else ""
    if wins == 0:
        return f"You win less than once in 10{draw}."
    return f"You win about {wins} time{'s' if wins != 1 else ''} in 10{draw}."


CALIBRATED = "the chances are calibrated on bot matches."


async def test_solo_odds_face_the_shadow_then_the_round_s_ghosts(standin, start_bot):
    bot = await start_bot()
    ana, bob = standin.add_member("Ana"), standin.add_member("Bob")
    board = (await standin.slash(ana, "digits solo")).reply
    early = await standin.slash(ana, "digits odds")
    assert early.reply.content == "Take this round's Focus first: the odds are for your shop turn."
    assert early.ephemeral

    shop = await take_focus(standin, bot, ana, board)
    for slot in (1, 2):
        await act(standin, ana, shop, f"digits:buy:{slot}")
    asked = await standin.slash(ana, "digits odds")
    assert asked.ephemeral
    n = await distinct(bot, board, ana)
    engine = (await match_state(bot, board))["engine"]
    assert asked.reply.content == chance(forecast_for_match(engine, str(ana.id)))
    assert "calibrated" not in asked.reply.content and "2000" not in asked.reply.content
    assert await details(standin, bot, ana, asked) == "\n".join([
        await odds_title(bot, board, ana, name="the shadow"),
        "Your slate as it stands now, against 16 slates the shadow may build in round 1 (the "
        f"buys players usually make). 2000 battles simulated ({n} different); {CALIBRATED}"])
    # The shop window's button says the same, in a message of its own.
    button = next(b for b in shop.buttons() if b["custom_id"] == "digits:odds")
    assert button["label"] == "Odds"
    clicked = await standin.click(ana, shop, "digits:odds")
    assert clicked.ephemeral and clicked.reply is not shop
    assert clicked.reply.content == asked.reply.content

    await act(standin, ana, shop, "digits:ready")
    battle = await standin.wait_for_message(lambda m: bool(m.attachments), after=board)
    await take_focus(standin, bot, ana, battle)
    bot.limits.reset()  # a while later: the odds' cooldown is 3 in 30 s
    second = await standin.slash(ana, "digits odds")
    said = await details(standin, bot, ana, second)
    assert said.startswith(await odds_title(bot, battle, ana, name="the shadow") + "\n")
    assert ("Your slate as it stands now, against the shadow's slate of round 1 and 16 ways it "
            "may grow in their shop turn (the buys players usually make, with the gold left and "
            "a Focus score like theirs so far). 2000 battles simulated") in said

    # Bob, alone at round 1, meets Ana's slate of round 1: the one ghost of the round.
    bob_board = (await standin.slash(bob, "digits solo")).reply
    await take_focus(standin, bot, bob, bob_board)
    rows = await bot.db.digits.ghost_pool(standin.guild.id, 1, exclude_user_id=bob.id)
    pool = [Ghost(1, Slate.from_json(r.slate["slate"]), r.slate["focus"], str(r.user_id))
            for r in rows]
    bobs = await details(standin, bot, bob, await standin.slash(bob, "digits odds"))
    assert bobs.startswith(await odds_title(bot, bob_board, bob, pool) + "\n")
    assert bobs.endswith(
        "Your slate as it stands now, against the ghosts of round 1 on this server: 1 ghost, the "
        "battle draws one. 2000 battles simulated (1 different).")


async def test_odds_are_refused_without_a_shop_turn_in_this_channel(standin, start_bot):
    bot, ana, _, board = await duel(standin, start_bot)
    bob = standin.add_member("Bob")
    elsewhere = standin.add_channel("elsewhere")
    none = "You have no match in this channel waiting for your shop turn: the odds are for " \
           "your shop turn, after the round's Focus and before Ready."
    assert (await standin.slash(bob, "digits odds")).reply.content == none
    shop = await take_focus(standin, bot, ana, board)
    assert (await standin.slash(ana, "digits odds", in_channel=elsewhere)).reply.content == none
    other = (await standin.click(ana, board, label="Open my shop")).reply
    await act(standin, ana, other, "digits:ready")
    # Her turn is over: neither the command nor a window opened earlier gives odds.
    assert (await standin.slash(ana, "digits odds")).reply.content == none
    late = await standin.click(ana, shop, "digits:odds")
    assert late.reply.content == ("Your shop turn is over for this round: the odds are for your "
                                  "shop turn.")
    assert late.ephemeral
    assert (await match_state(bot, board))["engine"]["ready"] == [str(ana.id)]


async def test_odds_in_a_duel_name_the_challenger_and_its_last_slate(standin, start_bot):
    bot, ana, sam, board = await duel(standin, start_bot, lives=3)
    shop = await take_focus(standin, bot, ana, board)
    await act(standin, ana, shop, "digits:buy:1")
    first = await standin.slash(ana, "digits odds")
    said = await details(standin, bot, ana, first)
    assert said.startswith(await odds_title(bot, board, ana, name="**Sam**") + "\n")
    assert "against 16 slates **Sam** may build in round 1 (the buys players usually make)." \
        in said
    sam_shop = await take_focus(standin, bot, sam, board)
    await act(standin, sam, sam_shop, "digits:buy:1")
    await act(standin, sam, sam_shop, "digits:buy:2")
    # A window opened before a later action still asks for the slate as it stands now.
    clicked = await standin.click(ana, shop, "digits:odds")
    assert clicked.reply.content == first.reply.content
    for member, window in ((ana, shop), (sam, sam_shop)):
        await act(standin, member, window, "digits:ready")
    battle = await standin.wait_for_message(lambda m: bool(m.attachments), after=board)
    await take_focus(standin, bot, ana, battle)
    bot.limits.reset()  # a while later: the odds' cooldown is 3 in 30 s
    second = await standin.slash(ana, "digits odds")
    said = await details(standin, bot, ana, second)
    assert said.startswith(await odds_title(bot, battle, ana, name="**Sam**") + "\n")
    assert "against **Sam**'s slate of round 1 and 16 ways it may grow in their shop turn" \
        in said


async def test_odds_in_french(standin, start_bot):
    bot = await start_bot()
    ana = standin.add_member("Ana", locale="fr")
    board = (await standin.slash(ana, "chiffres solo")).reply
    shop = await take_focus(standin, bot, ana, board, label="Faire mon Focus")
    assert next(b for b in shop.buttons() if b["custom_id"] == "digits:odds")["label"] == \
        "Chances"
    await act(standin, ana, shop, "digits:buy:1")
    asked = await standin.slash(ana, "chiffres chances")
    n = await distinct(bot, board, ana)
    assert asked.reply.content.startswith("Tu gagne")
    assert await details(standin, bot, ana, asked, "Détails") == "\n".join([
        await odds_title(bot, board, ana, lang="fr", name="l'ombre"),
        fr(
        "Ton ardoise telle qu'elle est maintenant, contre 16 ardoises possibles pour l'ombre à la "
        f"manche 1 (les achats habituels des joueurs). 2 000 combats simulés ({n} différents) ; "
        "les chances sont calibrées sur des parties entre robots.")])


async def test_slow_odds_are_deferred_then_said(standin, start_bot, monkeypatch):
    bot = await start_bot()
    ana = standin.add_member("Ana")
    board = (await standin.slash(ana, "digits solo")).reply
    shop = await take_focus(standin, bot, ana, board)
    await act(standin, ana, shop, "digits:buy:1")
    # The odds wait for the deferral: they are "slow" whatever the machine.
    deferred = threading.Event()
    defer, compute = digits_flow.defer_thinking, play_digits.forecast_for_match

    async def defer_and_tell(interaction: Any) -> None:
        await defer(interaction)
        deferred.set()

    def after_the_deferral(*args: Any, **kwargs: Any) -> Any:
        assert deferred.wait(10)
        return compute(*args, **kwargs)

    monkeypatch.setattr(digits_flow, "ODDS_DEFER_AFTER", 0.0)
    monkeypatch.setattr(digits_flow, "defer_thinking", defer_and_tell)
    monkeypatch.setattr(play_digits, "forecast_for_match", after_the_deferral)
    asked = await standin.slash(ana, "digits odds")
    assert asked.deferred and asked.ephemeral
    engine = (await match_state(bot, board))["engine"]
    assert asked.reply.content == chance(forecast_for_match(engine, str(ana.id)))


async def test_odds_in_a_french_duel_name_the_challenger_escaped_and_the_round(standin,
                                                                                start_bot):
    bot = await start_bot()
    await bot.db.servers.update(standin.guild.id, match_lives=3)
    ana = standin.add_member("Ana", locale="fr")
    sam = standin.add_member("*Sam*")
    posted = await standin.slash(ana, "chiffres defi", member=sam)
    board = (await standin.click(sam, posted.reply, label="Accepter")).reply
    for member in (ana, sam):  # the match messages are in the challenger's language
        window = await take_focus(standin, bot, member, board, label="Faire mon Focus")
        await act(standin, member, window, "digits:buy:1")
        await act(standin, member, window, "digits:ready")
    battle = await standin.wait_for_message(lambda m: bool(m.attachments), after=board)
    await take_focus(standin, bot, ana, battle, label="Faire mon Focus")
    asked = await standin.slash(ana, "chiffres chances")
    said = await details(standin, bot, ana, asked, "Détails")
    # The name is escaped (``shown_name``): the stars are not read as bold.
    assert said.startswith(
        await odds_title(bot, battle, ana, lang="fr", name="**\\*Sam\\***") + "\n")
    assert fr("Ton ardoise telle qu'elle est maintenant, contre l'ardoise qu'a alignée "
            "**\\*Sam\\*** "
            "à la manche 1 et 16 façons dont elle peut grandir pendant son tour de boutique (les "
            "achats habituels des joueurs, avec l'or qui lui reste et un score de Focus comme les "
            "siens jusqu'ici). 2 000 combats simulés") in said
