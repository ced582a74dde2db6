"""The 20 Digits on Discord, end to end: the real bot against the stand-in."""

from __future__ import annotations

import re
from collections.abc import Awaitable
from typing import Any

import pytest

from bot.local import StandIn
from bot.local.server import Member, Message
from bot.play.digits import StoredMatch, focus_questions, mutate
from db import StaleVersion


def match_id_of(message: Message) -> int:
    for button in message.buttons():
        found = re.fullmatch(r"digits\.(?:focus|shop):(\d+):\d+", button.get("custom_id", ""))
        if found:
            return int(found.group(1))
    raise AssertionError(f"no match button on {message.text()!r}")


def modal_question(modal: dict[str, Any]) -> tuple[str, str]:
    """(custom id of the text input, the question it asks) of a Focus modal."""
    for row in modal["components"]:
        inner = row.get("components") or [row.get("component")]
        for item in inner:
            if item and item.get("type") == 4:
                label = item.get("label") or row.get("label") or ""
                return item["custom_id"], label.rstrip("?= ")
    raise AssertionError(f"no text input in {modal!r}")


async def expected_answers(bot: Any, match_id: int, member: Member) -> dict[str, int]:
    row = await bot.db.digits.require_match(match_id)
    engine = row.state["engine"]
    questions = focus_questions(engine["seed"], engine["round"], str(member.id))
    return {q.text: q.answer for q in questions}


async def take_focus(standin: StandIn, bot: Any, member: Member, match_message: Message,
                     right: int = 6, first_typed: str | None = None, *, stop_after: int = 6,
                     label: str = "Take my Focus") -> Message:
    """Click "Take my Focus" and answer its questions (the first ``right`` ones right, at most
    ``stop_after`` of them); the ephemeral message it ends on (the shop, when all are in)."""
    answers = await expected_answers(bot, match_id_of(match_message), member)
    message = (await standin.click(member, match_message, label=label)).reply
    assert message.ephemeral
    done = 0
    while done < stop_after and (answer := next(
            (b for b in message.buttons() if b.get("custom_id", "").startswith("focus.run:")),
            None)):
        opened = await standin.click(member, message, answer["custom_id"])
        field, question = modal_question(opened.modal)
        if first_typed is not None:
            typed, first_typed = first_typed, None
        else:
            value = answers[question] if done < right else answers[question] + 1
            typed = str(value)
            done += 1
        message = (await settle(standin, message, standin.submit_modal(
            member, opened, {field: typed}))).reply
    return message


async def settle(standin: StandIn, message: Message, answered: Awaitable[Any]) -> Any:
    """Await an interaction on ``message``; when the bot deferred, wait until it has updated
    the message."""
    updates: list[Message] = []

    def listen(event: str, item: Any) -> None:
        if event == "message_update" and item is message:
            updates.append(item)

    standin.listeners.append(listen)
    try:
        record = await answered
        if record.callback_type == DEFERRED_UPDATE:
            await standin.wait_until(lambda: bool(updates))
    finally:
        standin.listeners.remove(listen)
    return record


DEFERRED_UPDATE = 6


async def act(standin: StandIn, member: Member, message: Message, custom_id: str,
              values: list[str] | None = None) -> Any:
    """Click a button (or pick ``values`` in a menu) of a message, and let the bot update it."""
    if values is None:
        return await settle(standin, message, standin.click(member, message, custom_id))
    return await settle(standin, message, standin.select(member, message, custom_id, values))


async def duel(standin: StandIn, start_bot: Any, *, lives: int = 2, draft: bool = False,
               ana_locale: str = "en-US") -> tuple[Any, Member, Member, Message]:
    """A bot, Ana and Sam, and the match message of Ana's accepted challenge to Sam."""
    bot = await start_bot()
    await bot.db.servers.update(standin.guild.id, match_lives=lives)
    ana = standin.add_member("Ana", locale=ana_locale)
    sam = standin.add_member("Sam")
    options = {"draft": True} if draft else {}
    posted = await standin.slash(ana, "digits challenge", member=sam, **options)
    accept = "Accepter" if ana_locale.startswith("fr") else "Accept"
    accepted = await standin.click(sam, posted.reply, label=accept)
    assert accepted.reply is posted.reply  # the challenge became the match message
    return bot, ana, sam, accepted.reply


def offer_buttons(message: Message) -> list[dict[str, Any]]:
    return [b for b in message.buttons() if b["custom_id"].startswith("digits:buy:")]


def select_options(message: Message, custom_id: str) -> list[dict[str, Any]]:
    menu = message.component(custom_id)
    return [] if menu is None else menu["options"]


async def match_state(bot: Any, message: Message) -> dict[str, Any]:
    return (await bot.db.digits.require_match(match_id_of(message))).state


async def test_a_full_match_between_two_members(standin, start_bot):
    bot, ana, sam, board = await duel(standin, start_bot, lives=2)
    assert "Ana vs Sam" in board.text() and "Round 1 of 15" in board.text()
    match_id = match_id_of(board)
    ana_id, sam_id = str(ana.id), str(sam.id)

    # Round 1. Ana answers her Focus right: 5 + 6 gold, and the shop opens.
    shop = await take_focus(standin, bot, ana, board, right=6)
    assert shop.ephemeral
    assert "Focus done: 6/6. You earn 11 gold" in shop.text()
    assert [a.filename for a in shop.attachments] == ["shop.png", "slate.png"]
    assert all(a.data.startswith(b"\x89PNG") for a in shop.attachments)
    for slot in range(1, 6):
        record = await act(standin, ana, shop, f"digits:buy:{slot}")
        assert "You bought" in record.reply.text()
    assert "· 1 gold ·" in shop.text()
    assert all(b.get("disabled") for b in offer_buttons(shop))
    await act(standin, ana, shop, "digits:reroll")
    assert "New offers are in." in shop.text() and "· 0 gold ·" in shop.text()

    # Refused: not enough gold. Nothing changes.
    refused = await act(standin, ana, shop, "digits:buy:1")
    assert refused.reply is not shop and refused.ephemeral
    assert refused.reply.content == "That costs 2 gold and you have 0."
    state = await match_state(bot, board)
    assert state["engine"]["shops"][ana_id]["gold"] == 0

    # Sell, freeze, move.
    first = select_options(shop, "digits:sell")[0]
    await act(standin, ana, shop, "digits:sell", [first["value"]])
    assert "You sold" in shop.text()
    await act(standin, ana, shop, "digits:freeze", ["2"])
    assert "Offer 2" in shop.text() and "is frozen" in shop.text()
    assert offer_buttons(shop)[1]["label"].startswith("❄ 2 ·")
    occupied = [o["value"] for o in select_options(shop, "digits:sell")]
    free = next(str(c) for c in range(8, 0, -1) if str(c) not in occupied)
    await act(standin, ana, shop, "digits:cells", [occupied[0], free])
    assert f"moved to cell {free}" in shop.text()
    state = await match_state(bot, board)
    slate = state["engine"]["shops"][ana_id]["slate"]
    assert free in slate and occupied[0] not in slate
    assert state["engine"]["shops"][ana_id]["offers"][1]["frozen"] is True

    await act(standin, ana, shop, "digits:ready")
    assert "You are ready. Waiting for Sam." in shop.text()
    assert shop.components == []
    await standin.wait_until(lambda: "Ready ✅ · Focus 6/6" in board.text())

    # Sam types a word first (refused, asked again), then answers everything wrong: 5 gold.
    sam_shop = await take_focus(standin, bot, sam, board, right=0, first_typed="douze")
    assert "Focus done: 0/6. You earn 5 gold" in sam_shop.text()
    await act(standin, sam, sam_shop, "digits:ready")
    assert sam_shop.content == "Both sides are ready: the battle is posted in the channel."

    battle = await standin.wait_for_message(lambda m: bool(m.attachments), after=board)
    assert battle.attachments[0].filename == "battle.gif"
    assert battle.attachments[0].data.startswith(b"GIF8")
    assert ("Round 1: **Sam** fielded an empty slate, so **Ana** wins at once; **Sam** loses "
            "1 life.") in battle.text()
    assert "Lives: **Ana** 2 · **Sam** 1." in battle.text()
    assert "Round 2 of 15" in battle.text()
    assert [b["custom_id"].rsplit(":", 1)[1] for b in battle.buttons()] == ["2", "2"]
    await standin.wait_until(lambda: board.components == [])  # the old buttons retired
    assert "Round 1 is played: its battle is below." in board.text()

    # Round 2, on the new message: Ana's slate stays, Sam's empty slate loses again.
    left = (await match_state(bot, battle))["engine"]["shops"][ana_id]["gold"]
    assert left > 0  # what the sale brought
    shop = await take_focus(standin, bot, ana, battle, right=3)
    assert f"Focus done: 3/6. You earn 8 gold and have {left + 8} now" in shop.text()
    await act(standin, ana, shop, "digits:ready")
    sam_shop = await take_focus(standin, bot, sam, battle, right=1)
    await act(standin, sam, sam_shop, "digits:ready")
    final = await standin.wait_for_message(lambda m: bool(m.attachments), after=battle)
    text = final.text()
    assert "Round 2: **Sam** fielded an empty slate" in text
    assert "🏆 **Ana** wins the match!" in text
    assert re.search(r"Ratings: Ana 1500 → 1[6-9]\d\d · Sam 1500 → 1[0-4]\d\d\.", text), text
    # The end sums the match up for each member, with one button: Rematch (issue 28).
    assert "How the match went for **Ana**:\nRounds won: 2 · lost: 0 · drawn: 0" in text
    assert "How the match went for **Sam**:\nRounds won: 0 · lost: 2 · drawn: 0" in text
    assert [b["label"] for b in final.buttons()] == ["Rematch"]

    row = await bot.db.digits.require_match(match_id)
    assert row.status == "finished" and row.state["engine"]["winner"] == ana_id
    assert {s.user_id: s.result for s in row.seats} == {ana.id: "win", sam.id: "loss"}
    ratings = await bot.db.players.ratings(standin.guild.id, ana.id)
    assert ratings["digits"].wins == 1
    ghosts = await bot.db.digits.ghost_pool(standin.guild.id, 1, exclude_user_id=0)
    assert {g.user_id: len(g.slate["slate"]) for g in ghosts} == {
        ana.id: len(slate), sam.id: 0}
    answers = await bot.db.focus.progress(standin.guild.id, ana.id, by="all")
    assert sum(r.answers for r in answers) == 12 and sum(r.correct for r in answers) == 9
    assert sam_id in row.state["names"]


async def test_a_challenge_is_declined_or_cancelled_by_the_right_member(standin, start_bot):
    bot = await start_bot()
    ana, sam, bob = (standin.add_member(n) for n in ("Ana", "Sam", "Bob"))
    posted = await standin.slash(ana, "digits challenge", member=sam)
    assert posted.reply.text().startswith(f"<@{sam.id}>, <@{ana.id}> challenges you")
    own = await standin.click(ana, posted.reply, label="Accept")
    assert own.reply.content == "This is your challenge: wait for Sam to answer, or cancel it."
    other = await standin.click(bob, posted.reply, label="Decline")
    assert other.reply.content == "Only the players of this game can do that."
    declined = await standin.click(sam, posted.reply, label="Decline")
    assert declined.reply.content == "**Sam** declined **Ana**'s challenge."
    assert declined.reply.components == []
    row = await bot.db.digits.require_match(match_id_of_challenge(posted.reply, declined))
    assert row.status == "declined"

    again = await standin.slash(ana, "digits challenge", member=sam)
    refused = await standin.click(sam, again.reply, label="Cancel the challenge")
    assert refused.reply.content == "Only the challenger can cancel: answer with Accept or Decline."
    cancelled = await standin.click(ana, again.reply, label="Cancel the challenge")
    assert cancelled.reply.content == "**Ana** withdrew the challenge to **Sam**."

    bot.limits.reset()  # a while later: three challenges in a minute is the "start" cooldown
    self_challenge = await standin.slash(ana, "digits challenge", member=ana)
    assert self_challenge.reply.content.startswith("You cannot challenge yourself")
    robot = await standin.slash(ana, "digits challenge", member=standin.member("Ardoise"))
    assert robot.reply.content.startswith("Ardoise is a bot and does not play.")
    assert robot.ephemeral


def match_id_of_challenge(message: Message, record: Any) -> int:
    found = re.fullmatch(r"digits\.\w+:(\d+):\d+", record.data["custom_id"])
    assert found, record.data
    return int(found.group(1))


async def test_only_the_players_may_act_and_the_focus_comes_first(standin, start_bot):
    bot, ana, _, board = await duel(standin, start_bot)
    bob = standin.add_member("Bob")
    for label in ("Open my shop", "Take my Focus"):
        refused = await standin.click(bob, board, label=label)
        assert refused.reply.content == "Only the players of this game can do that."
        assert refused.ephemeral
    early = await standin.click(ana, board, label="Open my shop")
    assert early.reply.content == "Take this round's Focus first: it gives your gold."
    shop = await take_focus(standin, bot, ana, board)
    again = await standin.click(ana, board, label="Take my Focus")
    assert again.reply.content == "You have already taken this round's Focus: open your shop."
    assert "11 gold" in shop.text()


async def test_a_stale_shop_message_is_refused(standin, start_bot):
    bot, ana, sam, board = await duel(standin, start_bot)
    first = await take_focus(standin, bot, ana, board)
    second = (await standin.click(ana, board, label="Open my shop")).reply
    assert second is not first and second.ephemeral and "11 gold" in second.text()
    await act(standin, ana, second, "digits:buy:1")
    assert "9 gold" in second.text()
    stale = await act(standin, ana, first, "digits:buy:2")
    assert stale.reply.content == (
        "This message is out of date: the game has moved on. Use the latest message.")
    state = await match_state(bot, board)
    assert state["engine"]["shops"][str(ana.id)]["gold"] == 9
    # Sam's actions do not make Ana's message stale: the two shops are independent.
    sam_shop = await take_focus(standin, bot, sam, board)
    await act(standin, sam, sam_shop, "digits:buy:1")
    await act(standin, ana, second, "digits:buy:2")
    assert "7 gold" in second.text()


async def test_both_players_acting_at_once_both_succeed(standin, start_bot):
    bot, ana, sam, board = await duel(standin, start_bot)
    ana_shop = await take_focus(standin, bot, ana, board)
    sam_shop = await take_focus(standin, bot, sam, board)
    pairs = ((ana, ana_shop), (sam, sam_shop))
    for action, gold in (("digits:buy:1", "9 gold"), ("digits:reroll", "8 gold")):
        clicks = [await standin.click(member, shop, action, wait=False) for member, shop in pairs]
        await standin.wait_until(lambda clicks=clicks, gold=gold: all(
            c.answered for c in clicks) and all(gold in shop.text() for _, shop in pairs))
    shops = (await match_state(bot, board))["engine"]["shops"]
    for member in (ana, sam):
        assert shops[str(member.id)]["gold"] == 8  # 11 − 2 − 1: nothing lost, nothing twice
        assert len(shops[str(member.id)]["slate"]) == 1


async def test_a_change_made_on_an_old_version_is_worked_out_again(standin, start_bot):
    bot, ana, _, board = await duel(standin, start_bot)
    match_id = match_id_of(board)
    await take_focus(standin, bot, ana, board)
    player = str(ana.id)
    tries: list[int] = []

    def buy(game: StoredMatch) -> int:
        tries.append(game.row.version)
        return game.match.buy(player, 1)

    async def other_save() -> None:
        # A change of state moves the version on (storing the message id would not: see
        # test_storing_the_message_id_keeps_the_version).
        row = await bot.db.digits.require_match(match_id)
        await bot.db.digits.save_match(match_id, row.state, row.version)

    async def the_other_player_saves_first() -> None:
        if len(tries) == 1:
            await other_save()

    game, cell = await mutate(bot.db, match_id, buy, before_save=the_other_player_saves_first)
    assert len(tries) == 2 and tries[1] == tries[0] + 1
    assert game.match.shop(player).slate[cell] is not None
    assert (await match_state(bot, board))["engine"]["shops"][player]["gold"] == 9

    async def always_first() -> None:
        await other_save()

    with pytest.raises(StaleVersion) as refused:
        await mutate(bot.db, match_id, lambda game: game.match.buy(player, 2),
                     before_save=always_first)
    assert refused.value.code == "db.stale"
    assert (await match_state(bot, board))["engine"]["shops"][player]["gold"] == 9


async def test_a_refusal_names_the_challenged_member_inert(standin, start_bot):
    # The rule is bot.play's (play.pending_challenge); the name is data (play.Side) that the
    # presentation words as the match keeps it, escaped like every member's name.
    await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("*Sam* <@1>")
    posted = await standin.slash(ana, "digits challenge", member=sam)
    own = await standin.click(ana, posted.reply, label="Accept")
    text = own.reply.content
    assert text.startswith("This is your challenge: wait for \\*Sam\\* <")
    assert text.endswith("@1> to answer, or cancel it.") and "<@1>" not in text  # no mention
    assert own.ephemeral


def test_a_refusal_says_its_data_in_the_members_language():
    from bot.domain import DomainError
    from bot.i18n import error_text
    from bot.play import digits as play
    from bot.ui.digits import localised

    bot_refused = DomainError("digits.bot_challenge", "bots do not play",
                              name=play.Named("**Robo**"))
    assert error_text(localised(bot_refused, "en"), "en") == (
        "\\*\\*Robo\\*\\* is a bot and does not play. Challenge a member, or try /digits solo.")
    assert error_text(localised(bot_refused, "fr"), "fr").startswith(
        "\\*\\*Robo\\*\\* est un robot et ne joue pas.")


async def test_the_flow_answers_the_buttons_while_its_cog_is_loaded(standin, start_bot):
    from bot.ui.digits import DIGITS_FLOWS
    from bot.ui.digits_leave import LEAVE_FLOWS

    bot = await start_bot()
    flow = bot.get_cog("Digits").flow
    assert bot.services.kept.get(DIGITS_FLOWS) is flow
    assert bot.services.kept.get(LEAVE_FLOWS) is flow
    await bot.unload_extension("cogs.digits")
    for key in (DIGITS_FLOWS, LEAVE_FLOWS):
        with pytest.raises(RuntimeError):
            bot.services.kept.get(key)
    await bot.load_extension("cogs.digits")
    assert bot.services.kept.get(DIGITS_FLOWS) is bot.get_cog("Digits").flow
