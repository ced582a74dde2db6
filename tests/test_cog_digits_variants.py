"""The 20 Digits on Discord: a restart mid-match, solo matches against ghosts, French, the draft."""

from __future__ import annotations

import re

from test_cog_digits import (
    act,
    duel,
    expected_answers,
    match_id_of,
    match_state,
    modal_question,
    offer_buttons,
    select_options,
    take_focus,
)

from bot.digits.catalogue import BY_KEY
from bot.local.server import Message
from tests.french import fr


def pick_button(message: Message, slot: int) -> str:
    for button in message.buttons():
        custom_id = button.get("custom_id", "")
        if re.fullmatch(rf"digits\.pick:\d+:\d+:{slot}", custom_id):
            return custom_id
    raise AssertionError(f"no pick {slot} on {message.text()!r}")


def pass_button(message: Message) -> str:
    return next(b["custom_id"] for b in message.buttons()
                if b.get("custom_id", "").startswith("digits.pass:"))


async def test_a_restart_in_the_middle_of_a_match_goes_on(standin, start_bot, restart_bot):
    bot, ana, sam, board = await duel(standin, start_bot)
    match_id = match_id_of(board)
    shop = await take_focus(standin, bot, ana, board)
    await act(standin, ana, shop, "digits:buy:1")
    questions = list(await expected_answers(bot, match_id, sam))
    await take_focus(standin, bot, sam, board, stop_after=2)  # two answers, then the restart

    bot = await restart_bot(bot)

    expired = await standin.click(ana, shop, "digits:buy:2")
    assert expired.reply.content.startswith("This shop window has expired")
    assert expired.ephemeral
    # Sam's Focus goes on at the third question.
    again = (await standin.click(sam, board, label="Take my Focus")).reply
    opened = await standin.click(sam, again, next(
        b["custom_id"] for b in again.buttons() if b["custom_id"].startswith("focus.run:")))
    assert modal_question(opened.modal)[1] == questions[2]
    sam_shop = await take_focus(standin, bot, sam, board)
    assert "Focus done: 6/6. You earn 11 gold" in sam_shop.text()
    # Ana's shop, opened again from the match message, is where she left it.
    reopened = (await standin.click(ana, board, label="Open my shop")).reply
    assert "· 9 gold ·" in reopened.text()
    assert len(select_options(reopened, "digits:sell")) == 1
    await act(standin, ana, reopened, "digits:ready")
    await act(standin, sam, sam_shop, "digits:ready")
    battle = await standin.wait_for_message(lambda m: bool(m.attachments), after=board)
    assert "Round 1: **Sam** fielded an empty slate, so **Ana** wins at once" in battle.text()
    assert (await bot.db.digits.require_match(match_id)).state["engine"]["round"] == 2


async def test_solo_rounds_against_the_shadow_then_a_members_ghost(standin, start_bot):
    bot = await start_bot()
    ana, bob = standin.add_member("Ana"), standin.add_member("Bob")
    started = await standin.slash(ana, "digits solo")
    board = started.reply
    assert not started.ephemeral
    assert "Ana vs The ghosts" in board.text() and "10 ♥" in board.text()
    shop = await take_focus(standin, bot, ana, board)
    for slot in (1, 2):
        await act(standin, ana, shop, f"digits:buy:{slot}")
    await act(standin, ana, shop, "digits:ready")
    battle = await standin.wait_for_message(lambda m: bool(m.attachments), after=board)
    # No ghost of round 1 on a new server: the shadow, a bot shopping alongside, is met.
    assert "**The shadow (bot)**" in battle.text()
    assert battle.attachments[0].data.startswith(b"GIF8")
    assert "Round 2 of 15" in battle.text()
    engine = (await match_state(bot, battle))["engine"]
    [fought] = engine["rounds"]
    assert fought["ghost"]["owner"] == "shadow" and fought["ghost"]["slate"]
    assert fought["slates"]["ghost"] == engine["shadow"]["slate"]

    # Ana's slate of round 1 is now a ghost for the others.
    slate = (await match_state(bot, battle))["engine"]["shops"][str(ana.id)]["slate"]
    pool = await bot.db.digits.ghost_pool(standin.guild.id, 1, exclude_user_id=bob.id)
    assert [(g.user_id, g.slate["slate"], g.slate["focus"]) for g in pool] == [(ana.id, slate, 6)]
    # Bob meets it, in a match of one life: his empty slate loses it, and the match.
    await bot.db.servers.update(standin.guild.id, match_lives=1)
    bob_board = (await standin.slash(bob, "digits solo")).reply
    bob_match = match_id_of(bob_board)
    bob_shop = await take_focus(standin, bot, bob, bob_board, right=2)
    await act(standin, bob, bob_shop, "digits:ready")
    bob_battle = await standin.wait_for_message(
        lambda m: bool(m.attachments) and "Bob" in m.text(), after=bob_board)
    assert bob_battle.text().startswith(
        "Round 1: **Bob** fielded an empty slate, so **Ghost of Ana** wins at once; **Bob** "
        "loses 1 life.\nLives: **Bob** 0 · **Ghost of Ana** 1.\n🏆 **Ghost of Ana** wins the "
        "match!\n\nHow the match went for **Bob**:\nRounds won: 0 · lost: 1 · drawn: 0\n")
    assert bob_battle.text().endswith("[Rematch]\n📎 battle.gif")
    assert "Ratings" not in bob_battle.text()  # practice: not rated
    row = await bot.db.digits.require_match(bob_match)
    assert row.kind == "ghost" and row.status == "finished"
    assert [s.result for s in row.seats] == ["loss"]
    assert await bot.db.players.ratings(standin.guild.id, bob.id) == {}


async def test_french_texts_for_a_french_member(standin, start_bot):
    bot = await start_bot()
    ana = standin.add_member("Ana", locale="fr")
    sam = standin.add_member("Sam")
    posted = await standin.slash(ana, "chiffres défi", membre=sam)
    assert posted.reply.text() == (
        f"<@{sam.id}>, <@{ana.id}> te défie dans une partie des 20 chiffres (10 vies, "
        "15 manches au plus, boutiques privées).\n[Accepter]\n[Refuser]\n[Annuler le défi]")
    board = (await standin.click(sam, posted.reply, label="Accepter")).reply
    assert "Les 20 chiffres — Ana contre Sam" in board.text()
    assert "Manche 1 sur 15 au plus · boutiques privées" in board.text()
    # Sam reads his own refusals in English; the match message stays in the challenger's French.
    early = await standin.click(sam, board, label="Ouvrir ma boutique")
    assert early.reply.content == "Take this round's Focus first: it gives your gold."

    shop = await take_focus(standin, bot, ana, board, label="Faire mon Focus")
    assert fr("Focus terminé : 6/6. Tu gagnes 11 or et tu en as 11") in shop.text()
    assert "**Manche 1** · 11 or · 10 ♥ · Focus 6/6" in shop.text()
    assert offer_buttons(shop)[0]["label"].endswith("· 2 or")
    for slot in range(1, 6):
        bought = await act(standin, ana, shop, f"digits:buy:{slot}")
        assert re.match(r"(Tu as acheté|Ta copie a fusionné)", bought.reply.text())
    await act(standin, ana, shop, "digits:reroll")
    refused = await act(standin, ana, shop, "digits:buy:1")
    assert refused.reply.content == "Cela coûte 2 or et tu en as 0."
    await act(standin, ana, shop, "digits:ready")
    assert "Tu es prêt. On attend Sam." in shop.text()
    sam_shop = await take_focus(standin, bot, sam, board, right=0, label="Faire mon Focus")
    assert "Focus done: 0/6" in sam_shop.text()
    await act(standin, sam, sam_shop, "digits:ready")
    battle = await standin.wait_for_message(lambda m: bool(m.attachments), after=board)
    assert battle.text().startswith(
        fr("Manche 1 : **Sam** a aligné une ardoise vide, **Ana** gagne aussitôt ; **Sam** perd "
        "1 vie.\nVies : **Ana** 10 · **Sam** 9.\nLa manche 2 commence"))


async def test_a_draft_match_picks_from_the_shared_row_in_snake_order(standin, start_bot):
    bot, ana, sam, board = await duel(standin, start_bot, draft=True)
    assert "draft: one shared row" in board.text() and "The shared row" in board.text()
    assert "Next pick: **Ana** (picks left: Ana 3, Sam 3)" in board.text()
    early = await act(standin, ana, board, pick_button(board, 1))
    assert early.reply.content == "Take this round's Focus first: it gives your gold."

    ana_shop = await take_focus(standin, bot, ana, board)
    sam_shop = await take_focus(standin, bot, sam, board)
    assert offer_buttons(ana_shop) == [] and ana_shop.component("digits:ready")
    row = (await match_state(bot, board))["engine"]["draft"]["row"]

    wrong = await act(standin, sam, board, pick_button(board, 1))
    assert wrong.reply.content == "It is not your pick: Ana picks now."
    picked = await act(standin, ana, board, pick_button(board, 1))
    assert picked.reply is board
    assert "Next pick: **Sam** (picks left: Ana 2, Sam 3)" in board.text()
    # The picker gets a fresh shop window; the one opened before is out of date.
    await standin.wait_until(lambda: bool(picked.followups))
    window = picked.followups[-1]
    assert window.ephemeral and window.text().startswith("You bought")
    stale = await act(standin, ana, ana_shop, "digits:ready")
    assert stale.reply.content.startswith("This message is out of date")
    ana_shop = window
    for slot in (2, 3):
        picked = await act(standin, sam, board, pick_button(board, slot))
        await standin.wait_until(lambda record=picked: bool(record.followups))
        sam_shop = picked.followups[-1]
    await act(standin, ana, board, pass_button(board))
    assert "Next pick: **Ana** (picks left: Ana 1, Sam 1)" in board.text()

    state = (await match_state(bot, board))["engine"]
    ana_keys = [p["digit"] for p in state["shops"][str(ana.id)]["slate"].values()]
    sam_pieces = state["shops"][str(sam.id)]["slate"].values()
    assert ana_keys == [row[0]]
    assert sum(1 << (p["level"] - 1) for p in sam_pieces) == 2
    assert state["shops"][str(ana.id)]["gold"] == 11 - cost(row[0])

    await act(standin, ana, ana_shop, "digits:ready")
    await act(standin, sam, sam_shop, "digits:ready")
    battle = await standin.wait_for_message(lambda m: bool(m.attachments), after=board)
    assert "Round 1:" in battle.text() and "Round 2 of 15" in battle.text()
    assert "Next pick: **Sam**" in battle.text()  # Sam picks first in even rounds


def cost(key: str) -> int:
    return BY_KEY[key].cost



async def test_a_challenge_takes_the_servers_rounds_and_draft_defaults(standin, start_bot):
    bot = await start_bot()
    await bot.db.servers.update(standin.guild.id, match_rounds=4, match_draft=True)
    ana = standin.add_member("Ana")
    sam = standin.add_member("Sam")
    posted = await standin.slash(ana, "digits challenge", member=sam)
    assert "4 rounds at most, draft: one shared row" in posted.reply.text()
    # The challenger's explicit choice wins over the server's default.
    other = await standin.slash(sam, "digits challenge", member=ana, draft=False)
    assert "4 rounds at most" in other.reply.text() and "draft" not in other.reply.text()
