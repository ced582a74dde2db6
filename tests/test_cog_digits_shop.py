"""A shop that does not trap (issue 15), through the real bot against the stand-in: where a bought
digit goes and what the reply says, a full slate's offers, the card texts at their level."""

from __future__ import annotations

from typing import Any

from bot.digits.effects import effect
from bot.digits.shop import Offer
from bot.digits.slate import Slate
from bot.local import StandIn
from bot.local.server import Member, Message
from bot.play.digits import StoredMatch, mutate
from tests.french import fr
from tests.test_cog_digits import (
    act,
    duel,
    match_id_of,
    match_state,
    offer_buttons,
    select_options,
    take_focus,
)

MERGED_FR = fr("Ta copie a fusionné : {digit} en case {cell}.")
MOVE = "To move it, pick cell {cell} and another one in the menu “Move, swap or merge”."


async def shop_of(standin: StandIn, bot: Any, member: Member, board: Message,
                  offers: list[str], slate: dict[str, str], *, fr: bool = False) -> Message:
    """A fresh shop window of ``member``, after their Focus, with these offers and this slate."""
    await take_focus(standin, bot, member, board,
                     label="Faire mon Focus" if fr else "Take my Focus")
    player = str(member.id)

    def arrange(game: StoredMatch) -> None:
        shop = game.match.shop(player)
        shop.offers = [Offer(key) for key in offers]
        shop.slate = Slate.from_json(slate)

    await mutate(bot.db, match_id_of(board), arrange)
    label = "Ouvrir ma boutique" if fr else "Open my shop"
    return (await standin.click(member, board, label=label)).reply


async def slate_of(bot: Any, board: Message, member: Member) -> dict[str, Any]:
    return (await match_state(bot, board))["engine"]["shops"][str(member.id)]["slate"]


async def bought(standin: StandIn, member: Member, shop: Message, slot: int) -> str:
    record = await act(standin, member, shop, f"digits:buy:{slot}")
    assert record.reply is shop
    return shop.content.split("\n")[0]


async def test_a_bought_digit_goes_where_it_can_act_and_the_reply_says_where(standin, start_bot):
    bot, ana, _, board = await duel(standin, start_bot)
    shop = await shop_of(standin, bot, ana, board, ["Odd", "Double", "Plus", "Zero", "Odd"], {})
    assert "a support digit (✚) goes behind a front digit" in shop.text()

    # No front digit yet: the Double waits in the back, for the next fighter to stand before it.
    assert await bought(standin, ana, shop, 2) == (
        "You bought Double N1: it went to back cell 5, and will act on the digit you put in "
        "front of it, in cell 1. " + MOVE.format(cell=5))
    # The Odd goes in front of it.
    assert await bought(standin, ana, shop, 1) == (
        "You bought Odd N1: it went to front cell 1, in front of Double N1 (cell 5), which now "
        "acts on it. " + MOVE.format(cell=1))
    # Column 1's back cell is taken: the Plus waits behind the next front cell.
    assert await bought(standin, ana, shop, 3) == (
        "You bought Plus N1: it went to back cell 6, and will act on the digit you put in front "
        "of it, in cell 2. " + MOVE.format(cell=6))
    # A second Odd merges at once.
    assert await bought(standin, ana, shop, 5) == "You bought a copy that merged: Odd N2 in cell 1."
    # The Zero goes in front of the waiting Plus.
    assert await bought(standin, ana, shop, 4) == (
        "You bought Zero N1: it went to front cell 2, in front of Plus N1 (cell 6), which now "
        "acts on it. " + MOVE.format(cell=2))
    assert await slate_of(bot, board, ana) == {
        "1": {"digit": "Odd", "level": 2}, "2": {"digit": "Zero", "level": 1},
        "5": {"digit": "Double", "level": 1}, "6": {"digit": "Plus", "level": 1}}

    # The cells menu says what each digit does at its level, in numbers.
    described = {o["value"]: o.get("description") for o in select_options(shop, "digits:cells")}
    assert described["1"] == "Its hit gains 3 when its HP is odd."
    assert described["5"] == "The front digit of its column hits × 2 in the first exchange."
    assert described["6"] == "Opening: the front digit of its column gains 2 ATK."
    assert described["3"] is None  # an empty cell


async def test_a_support_goes_behind_the_strongest_front_digit_in_french(standin, start_bot):
    bot, ana, _, board = await duel(standin, start_bot, ana_locale="fr")
    shop = await shop_of(standin, bot, ana, board, ["Double", "Minus", "Even"],
                         {"1": "Zero", "2": "Odd", "3": "Even", "4": "Minus N2",
                          "7": "Plus", "8": "Zero"}, fr=True)
    assert await bought(standin, ana, shop, 1) == (
        fr("Tu as acheté Double N1, qui va dans la case arrière 6, derrière Impair N1 (case 2), et "
        "agit sur ce chiffre. Pour changer de case, choisis la case 6 et une autre dans le menu "
        "« Déplacer, échanger ou fusionner »."))
    assert await bought(standin, ana, shop, 3) == MERGED_FR.format(digit="Pair N2", cell=3)
    assert (await slate_of(bot, board, ana))["3"] == {"digit": "Even", "level": 2}
    # The front row is full: a fighter waits in the back row.
    assert await bought(standin, ana, shop, 2) == (
        fr(
        "Tu as acheté Moins N1, qui va dans la case arrière 5, derrière Zéro N1 (case 1), car la "
        "rangée avant est pleine ; si Zéro N1 tombe, Moins N1 avance à sa place. Pour changer "
        "de case, choisis la case 5 et une autre dans le menu « Déplacer, échanger ou "
        "fusionner »."))


async def test_a_full_slate_marks_the_offers_that_merge_and_refuses_the_others(standin,
                                                                               start_bot):
    bot, ana, _, board = await duel(standin, start_bot)
    full = {"1": "Odd N2", "2": "Zero", "3": "Even", "4": "Minus", "5": "Plus", "6": "Double",
            "7": "Zero", "8": "Even N2"}
    shop = await shop_of(standin, bot, ana, board, ["Plus", "Odd", "Even", "Zero", "Double"], full)
    labels = [(b["label"], bool(b.get("disabled"))) for b in offer_buttons(shop)]
    assert labels == [
        ("1 · Plus · 2 gold · merges → N2", False),
        ("2 · Odd · 2 gold · slate full", True),  # the Odd there is N2: a new N1 cannot merge
        ("3 · Even · 2 gold · merges → N2", False),
        ("4 · Zero · 2 gold · merges → N2", False),
        ("5 · Double · 2 gold · merges → N2", False)]
    assert ("Your slate is full: only offers 1, 3, 4, 5 can be bought, as they merge with N1 "
            "copies of themselves. Sell a digit or merge two to make room.") in shop.text()
    assert [a.filename for a in shop.attachments] == ["shop.png", "slate.png"]

    # A click on the disabled offer anyway (a modified client): the engine's reason, no change.
    before = await match_state(bot, board)
    forged = await standin.forge(ana, shop, "digits:buy:2")
    assert forged.ephemeral and forged.reply is not shop
    assert forged.reply.content == (
        "Your slate is full: sell a digit, or buy a copy of an N1 digit to merge it.")
    assert await match_state(bot, board) == before

    # An offer that merges can be bought: the Plus in cell 5 becomes N2.
    assert await bought(standin, ana, shop, 1) == (
        "You bought a copy that merged: Plus N2 in cell 5.")
    assert (await slate_of(bot, board, ana))["5"] == {"digit": "Plus", "level": 2}
    # Still full; the Zero in cell 2 and the one in cell 7 could merge, the first one takes it.
    assert await bought(standin, ana, shop, 4) == (
        "You bought a copy that merged: Zero N2 in cell 2.")
    labels = [(b["label"], bool(b.get("disabled"))) for b in offer_buttons(shop)]
    assert labels[1] == ("2 · Odd · 2 gold · slate full", True)
    assert labels[2] == ("3 · Even · 2 gold · merges → N2", False)

    # Sold one: room again, nothing is disabled for want of room, the note is gone.
    await act(standin, ana, shop, "digits:sell", ["4"])
    assert "slate full" not in str(offer_buttons(shop)) and "Your slate is full" not in shop.text()
    assert await bought(standin, ana, shop, 2) == (
        "You bought Odd N1: it went to front cell 4. " + MOVE.format(cell=4))


async def test_a_full_slate_with_nothing_to_merge_says_so_in_french(standin, start_bot):
    bot, ana, _, board = await duel(standin, start_bot, ana_locale="fr")
    full = {str(c): "Zero N2" for c in range(1, 9)}
    shop = await shop_of(standin, bot, ana, board, ["Plus", "Odd"], full, fr=True)
    assert all(b.get("disabled") and b["label"].endswith("· ardoise pleine")
               for b in offer_buttons(shop))
    assert (fr("Ton ardoise est pleine : aucune offre ne fusionne avec un de tes chiffres N1, donc "
            "rien ne peut être acheté.")) in shop.text()
    described = {o["value"]: o.get("description") for o in select_options(shop, "digits:cells")}
    assert described["1"] == effect("Zero", 2, "fr") == (
        "Chaque coup reçu est réduit de 2, sans descendre sous 1.")


async def test_the_card_command_keeps_the_formula_and_works_it_out_at_each_level(standin,
                                                                                  start_bot):
    await start_bot()
    sam = standin.add_member("Sam", locale="en-GB")
    embed = (await standin.slash(sam, "digits card", digit="Double")).reply.embeds[0]
    assert embed["description"] == (
        "The front digit of its column hits × 2 for the first N exchanges.")
    assert {"name": "At each level", "inline": False, "value": (
        "**N1** · The front digit of its column hits × 2 in the first exchange.\n"
        "**N2** · The front digit of its column hits × 2 for the first 2 exchanges.\n"
        "**N3** · The front digit of its column hits × 2 for the first 3 exchanges.")} in (
        embed["fields"])
    # A digit whose effect does not change with its level has no such field.
    modulo = (await standin.slash(sam, "digits card", digit="Modulo")).reply.embeds[0]
    assert all(f["name"] != "At each level" for f in modulo["fields"])


async def test_the_focus_end_speaks_of_abacus_digits_only_to_a_player_who_has_one(
        standin, start_bot):
    # Issue 28: "your Abacus digits take the score" was said to a player with no Abacus.
    bot, ana, sam, board = await duel(standin, start_bot)

    def give_ana_an_abacus(game: StoredMatch) -> None:
        game.match.shop(str(ana.id)).slate = Slate.from_json({"1": "Abacus"})

    await mutate(bot.db, match_id_of(board), give_ana_an_abacus)
    with_one = await take_focus(standin, bot, ana, board)
    assert "Focus done: 6/6." in with_one.text()
    assert "Your Abacus digits take the score." in with_one.text()
    without = await take_focus(standin, bot, sam, board)
    assert "Focus done: 6/6." in without.text()
    assert "take the score" not in without.text()
