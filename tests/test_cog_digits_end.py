"""The 20 Digits on Discord, issue 28: the end of a match sums it up with Rematch (and Try the
next level after two wins in a row), buttons that work after a restart for the match's members
only; the odds' "Show me a battle like that"."""

from __future__ import annotations

import re
from typing import Any

from test_cog_digits import act, duel, match_id_of, match_state, take_focus

import images
from bot.digits.forecast import example_battles
from bot.digits.levels import Adapted
from bot.digits.match import Match
from bot.digits.summary import summarise
from bot.i18n import image_words
from bot.local.server import Member, Message
from bot.play import digits as play_digits
from bot.ui.digits import digit_name
from tests.french import fr

STALE = "This message is out of date: the game has moved on. Use the latest message."


def ended_id(message: Message) -> int:
    """The match of a final battle's message: its Rematch button names it."""
    for button in message.buttons():
        found = re.fullmatch(r"digits\.rematch:(\d+):0", button.get("custom_id", ""))
        if found:
            return int(found.group(1))
    raise AssertionError(f"no Rematch on {message.text()!r}")


async def ended_engine(bot: Any, message: Message) -> dict[str, Any]:
    return (await bot.db.digits.require_match(ended_id(message))).state["engine"]


def summary_lines(engine: dict[str, Any], player: str, name: str) -> list[str]:
    """What the end should say of ``player``, from the stored match (the engine's summary)."""
    s = summarise(Match.from_json(engine), player)
    best = (f"Best battle: round {s.best.round}, {s.best.lives_taken} "
            f"{'life' if s.best.lives_taken == 1 else 'lives'} taken from the other side"
            if s.best else "Best battle: none won this time, the next one can be!")
    top = (f"The digit that dealt the most: {digit_name(s.top_digit, 'en')} ({s.top_damage} "
           "damage)" if s.top_digit else "No digit of yours dealt damage this time.")
    return [f"How the match went for **{name}**:",
            f"Rounds won: {s.won} · lost: {s.lost} · drawn: {s.drawn}", best, top,
            f"Gold earned by your Focus answers: {s.focus_gold}"]


async def play_round(standin: Any, bot: Any, board: Message, buys: dict[Member, int],
                     label: str = "Take my Focus") -> Message:
    """Each member takes the Focus (6/6), buys ``buys[member]`` digits and is Ready; the battle."""
    for member, count in buys.items():
        shop = await take_focus(standin, bot, member, board, label=label)
        for slot in range(1, count + 1):
            await act(standin, member, shop, f"digits:buy:{slot}")
        await act(standin, member, shop, "digits:ready")
    return await standin.wait_for_message(lambda m: bool(m.attachments), after=board)


async def test_a_duel_ends_with_a_summary_and_a_rematch_that_survives_a_restart(
        standin, start_bot, restart_bot):
    bot, ana, sam, board = await duel(standin, start_bot, lives=1)
    first_id = match_id_of(board)
    final = await play_round(standin, bot, board, {ana: 2, sam: 0})
    engine = await ended_engine(bot, final)
    assert engine["winner"] == str(ana.id)
    text = final.text()
    assert "🏆" in text
    for member in (ana, sam):
        assert "\n".join(summary_lines(engine, str(member.id), member.name)) in text
    assert "Best battle: round 1, 1 life taken from the other side" in text  # Ana's
    assert "Best battle: none won this time, the next one can be!" in text  # Sam's
    labels = [b["label"] for b in final.buttons()]
    assert labels == ["Rematch"]  # two members: no level to try

    bob = standin.add_member("Bob")
    refused = await standin.click(bob, final, label="Rematch")
    assert refused.ephemeral
    assert refused.reply.content == "Only the players of this game can do that."

    bot = await restart_bot(bot)
    asked = await standin.click(sam, final, label="Rematch")
    challenge = asked.reply
    assert challenge.text().startswith(f"{sam.mention} asks {ana.mention} for a rematch!")
    assert [b["label"] for b in challenge.buttons()] == [
        "Accept", "Decline", "Cancel the challenge"]
    accepted = await standin.click(ana, challenge, label="Accept")
    assert "Sam vs Ana" in accepted.reply.text()
    assert match_id_of(accepted.reply) != first_id


async def test_a_solo_match_ends_with_rematch_at_its_level_and_the_next_after_two_wins(
        standin, start_bot, restart_bot, monkeypatch):
    bot = await start_bot()
    await bot.db.servers.update(standin.guild.id, match_lives=1)
    ana = standin.add_member("Ana")
    monkeypatch.setattr(play_digits.secrets, "randbits", lambda bits: 1)  # the match's seed
    board = (await standin.slash(ana, "digits solo")).reply
    # Two wins in a row at gentle, as "adapt" reads the history (tested in test_digits_levels).
    won_two = Adapted("fair", "won_two", "gentle")
    real = play_digits.adapt_level

    async def adapt_level(db: Any, guild_id: int, user_id: int) -> Adapted:
        found = await real(db, guild_id, user_id)
        assert found.last == "gentle"  # the match just finished is in the history
        return won_two

    monkeypatch.setattr(play_digits, "adapt_level", adapt_level)
    final = board
    while "wins the match" not in final.text() and "ends in a draw" not in final.text():
        final = await play_round(standin, bot, final, {ana: 3})
    engine = await ended_engine(bot, final)
    text = final.text()
    assert "\n".join(summary_lines(engine, str(ana.id), "Ana")) in text
    assert engine["winner"] == str(ana.id)  # this seed: Ana wins
    assert "Two wins in a row at gentle: you can try fair." in text
    assert [b["label"] for b in final.buttons()] == ["Rematch", "Try the next level"]
    monkeypatch.setattr(play_digits, "adapt_level", real)

    bot = await restart_bot(bot)
    sam = standin.add_member("Sam")
    for label in ("Rematch", "Try the next level"):
        assert (await standin.click(sam, final, label=label)).reply.content == (
            "Only the players of this game can do that.")
    harder = (await standin.click(ana, final, label="Try the next level")).reply
    assert "Level: **fair**" in harder.text()
    assert (await match_state(bot, harder))["engine"]["level"] == "fair"


async def test_rematch_of_a_solo_match_is_a_new_match_at_the_same_level(standin, start_bot,
                                                                         monkeypatch):
    bot = await start_bot()
    await bot.db.servers.update(standin.guild.id, match_lives=1)
    ana = standin.add_member("Ana")
    monkeypatch.setattr(play_digits.secrets, "randbits", lambda bits: 7)
    board = (await standin.slash(ana, "digits solo", level="fair")).reply
    final = board
    while "wins the match" not in final.text() and "ends in a draw" not in final.text():
        final = await play_round(standin, bot, final, {ana: 3})
    assert "Try the next level" not in [b["label"] for b in final.buttons()]
    again = (await standin.click(ana, final, label="Rematch")).reply
    assert "Level: **fair**" in again.text()
    assert (await match_state(bot, again))["engine"]["level"] == "fair"


async def test_show_me_a_battle_like_that_replays_a_won_and_a_lost_battle_after_a_restart(
        standin, start_bot, restart_bot):
    bot = await start_bot()
    ana = standin.add_member("Ana")
    board = (await standin.slash(ana, "digits solo")).reply
    shop = await take_focus(standin, bot, ana, board)
    await act(standin, ana, shop, "digits:buy:1")
    asked = (await standin.slash(ana, "digits odds")).reply
    assert [b["label"] for b in asked.buttons()] == ["Details", "Show me a battle like that"]
    engine = (await match_state(bot, board))["engine"]
    won, lost = example_battles(engine, str(ana.id))

    bot = await restart_bot(bot)  # the odds' buttons still reach the flow
    shown = (await standin.click(ana, asked, label="Show me a battle like that")).reply
    assert shown.ephemeral
    lines = shown.content.split("\n")
    words = image_words("en")
    names = ("You", "Them")
    expected: dict[str, bytes] = {}
    if won is None:
        assert "Among these battles your slate never wins" in lines[0]
    else:
        assert lines[0].startswith("A battle your slate wins")
        expected["won.gif"] = images.render_replay(won.result, words, names)
    if lost is None:
        assert lines[1] == "Among these battles your slate never loses!"
    else:
        assert lines[1].startswith("A battle your slate loses")
        expected["lost.gif"] = images.render_replay(lost.result, words, names)
    assert {a.filename: a.data for a in shown.attachments} == expected

    bot.limits.reset()
    details = (await standin.click(ana, asked, label="Details")).reply
    assert details.content.startswith("**If the shadow buys as players usually do at round 1**")

    # Once the shop turn is over, the buttons say so and show nothing (the restart closed the
    # shop window: a fresh one from the match message).
    bot.limits.reset()
    window = (await standin.click(ana, board, label="Open my shop")).reply
    await act(standin, ana, window, "digits:ready")
    await standin.wait_for_message(lambda m: bool(m.attachments), after=board)
    bot.limits.reset()
    late = await standin.click(ana, asked, label="Show me a battle like that")
    assert late.reply.content == STALE and not late.reply.attachments


async def test_the_end_of_a_match_in_french(standin, start_bot):
    bot, ana, sam, board = await duel(standin, start_bot, lives=1, ana_locale="fr")
    final = await play_round(standin, bot, board, {ana: 1, sam: 0}, label="Faire mon Focus")
    text = final.text()
    assert (fr("Comment s'est passée la partie pour **Ana** :\nManches gagnées : 1 · perdues : 0 · "
            "à égalité : 0\nMeilleur combat : manche 1, l'autre camp y a perdu 1 vie")) in text
    assert fr("Meilleur combat : aucun gagné cette fois, le prochain peut l'être !") in text  # Sam
    assert fr("Or gagné par tes réponses du Focus : 6") in text
    assert [b["label"] for b in final.buttons()] == ["Revanche"]
