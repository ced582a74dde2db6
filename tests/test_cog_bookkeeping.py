"""The cogs store where a game is shown without moving its version: a button posted before the
message id was stored still works, and a real change still makes it out of date. Through the
real discord.py client against the stand-in."""

from __future__ import annotations

from typing import Any

from test_cog_digits import duel, match_id_of, match_state, take_focus

from bot.play.digits import StoredMatch, mutate, set_message

STALE = "This message is out of date: the game has moved on. Use the latest message."
ONE_PIECE = {"victory": "body", "pieces": 1, "proper": "off", "colour": "white"}


async def test_a_rithmo_challenge_accepted_after_its_message_id_was_stored(standin, start_bot):
    bot = await start_bot()
    ana, sam, lea, bob = (standin.add_member(name) for name in ("Ana", "Sam", "Léa", "Bob"))
    posted = (await standin.slash(ana, "rithmo challenge", member=sam, **ONE_PIECE)).reply
    read = await bot.db.rithmo.require_game(1)
    await bot.db.rithmo.set_message_id(1, posted.id)
    assert (await bot.db.rithmo.require_game(1)).version == read.version
    clicked = await standin.click(sam, posted, label="Accept")
    assert clicked.reply.text() != STALE
    # Accepted: the first board is posted.
    await standin.wait_for_message(lambda m: bool(m.attachments), after=posted)
    assert (await bot.db.rithmo.require_game(1)).status == "active"
    # A change of state still moves the version: the challenge's button is out of date.
    # (Between two others: a member plays one game at a time in a channel.)
    second = (await standin.slash(lea, "rithmo challenge", member=bob, **ONE_PIECE)).reply
    game = await bot.db.rithmo.require_game(2)
    await bot.db.rithmo.update_game(2, game.version, draw_offer=None)
    refused = await standin.click(bob, second, label="Accept")
    assert refused.reply.content == STALE
    assert (await bot.db.rithmo.require_game(2)).status == "pending"


async def test_a_digits_challenge_accepted_after_its_message_id_was_stored(standin, start_bot):
    bot = await start_bot()
    ana, sam, lea = (standin.add_member(name) for name in ("Ana", "Sam", "Léa"))
    posted = (await standin.slash(ana, "digits challenge", member=sam)).reply
    read = await bot.db.digits.require_match(1)
    await set_message(bot.db, 1, posted.id)
    assert (await bot.db.digits.require_match(1)).version == read.version
    accepted = await standin.click(sam, posted, label="Accept")
    assert accepted.reply is posted  # the challenge became the match message
    assert (await bot.db.digits.require_match(1)).status == "active"
    second = (await standin.slash(ana, "digits challenge", member=lea)).reply
    match = await bot.db.digits.require_match(2)
    await bot.db.digits.save_match(2, match.state, match.version)
    refused = await standin.click(lea, second, label="Accept")
    assert refused.reply.content == STALE
    assert (await bot.db.digits.require_match(2)).status == "pending"


async def test_a_change_and_the_message_id_stored_meanwhile_both_survive_without_a_retry(
        standin, start_bot):
    """The race ``set_message``'s retry loop covered: the bot stores the match's new message
    while a player's change is being worked out from the version read before."""
    bot, ana, _, board = await duel(standin, start_bot)
    match_id = match_id_of(board)
    await take_focus(standin, bot, ana, board)
    player = str(ana.id)
    tries: list[int] = []

    def buy(game: StoredMatch) -> Any:
        tries.append(game.row.version)
        return game.match.buy(player, 1)

    async def the_bot_stores_a_message() -> None:
        await set_message(bot.db, match_id, 424242)

    await mutate(bot.db, match_id, buy, before_save=the_bot_stores_a_message)
    assert len(tries) == 1  # nothing to work out again: the version did not move
    row = await bot.db.digits.require_match(match_id)
    assert row.message_id == 424242
    assert (await match_state(bot, board))["engine"]["shops"][player]["gold"] == 9
