"""``/digits rules`` through the real bot: pages for students that turn with Previous and Next,
in English and French, each with a picture the game draws and its description (alt text); only
the member who asked turns them, and a click after the window's time says it expired."""

from __future__ import annotations

from typing import Any

from test_cog_digits import act, take_focus

from bot.digits.battle import MAX_EXCHANGES
from bot.digits.shop import MatchSettings
from bot.ui import digits_rules as rules_ui
from tests.french import fr


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def picture(message: Any) -> Any:
    (attachment,) = message.attachments
    assert attachment.filename == "rules.png" and attachment.data.startswith(b"\x89PNG")
    return attachment


async def test_the_pages_turn_for_the_member_with_pictures_described(standin, start_bot):
    await start_bot()
    ana = standin.add_member("Ana")
    record = await standin.slash(ana, "digits rules")
    page = record.reply
    assert page.ephemeral
    embed = page.embeds[0]
    assert embed["title"] == "1. What is The 20 Digits?"
    assert embed["footer"]["text"].startswith("Page 1 of 5")
    assert embed["image"]["url"] == "attachment://rules.png"
    assert picture(page).description == (
        "Three digit cards: Odd, Plus, Sigma, each with its ATK and HP.")
    assert page.button("◀ Previous")["disabled"] and not page.button("Next ▶").get("disabled")
    assert "repository" not in page.text()

    seen = {embed["title"]: picture(page).data}
    for number in range(2, 6):
        turned = await standin.click(ana, page, label="Next ▶")
        assert turned.reply is page
        assert page.embeds[0]["footer"]["text"].startswith(f"Page {number} of 5")
        seen[page.embeds[0]["title"]] = picture(page).data
        assert picture(page).description
    assert list(seen) == ["1. What is The 20 Digits?", "2. A round",
                          "3. The slate and the battle", "4. Buying, merging, levels",
                          "5. Winning the match"]
    assert len(set(seen.values())) == 5  # a picture of its own on each page
    assert page.button("Next ▶")["disabled"]
    # The numbers are the engine's.
    settings = MatchSettings()
    last = page.embeds[0]["description"]
    assert f"starts with {settings.lives} lives" in last
    assert f"after round {settings.rounds}" in last
    assert "1 life in rounds 1 and 2, 2 lives in rounds 3 and 4, 3 lives from round 5" in last
    assert picture(page).description == (
        "The end of a battle between Ana and Sam: Ana wins after 4 exchanges.")

    await standin.click(ana, page, label="◀ Previous")
    shop = page.embeds[0]["description"]
    assert page.embeds[0]["title"] == "4. Buying, merging, levels"
    assert "• Tier 4: 5 gold, in the shop from round 7" in shop
    assert "N2 + N2 → N3" in shop
    assert picture(page).description == "A merge: Odd N1 + Odd N1 → Odd N2."
    await standin.click(ana, page, label="◀ Previous")
    assert f"up to {MAX_EXCHANGES} **exchanges**" in page.embeds[0]["description"]
    assert "(Plus, Double, Power)" in page.embeds[0]["description"]


async def test_the_rules_in_french_as_a_french_teacher_writes_them(standin, start_bot):
    await start_bot()
    lea = standin.add_member("Léa", locale="fr")
    page = (await standin.slash(lea, "chiffres règles")).reply
    assert page.embeds[0]["title"] == fr("1. Les 20 chiffres, c'est quoi ?")
    assert page.embeds[0]["footer"]["text"].startswith("Page 1 sur 5")
    assert picture(page).description == (
        fr("Trois cartes de chiffres : Impair, Plus, Sigma, chacune avec son ATT et ses PV."))
    english = (await standin.slash(standin.add_member("Sam"), "digits rules")).reply
    assert picture(page).data != picture(english).data  # drawn in each language
    for _ in range(4):
        await standin.click(lea, page, label="Suivante ▶")
    text = page.embeds[0]["description"]
    assert page.embeds[0]["title"] == "5. Gagner la partie"
    assert (fr("Un combat perdu coûte 1 vie aux manches 1 et 2, 2 vies aux manches 3 et 4, "
            "3 vies dès la manche 5 ; une égalité ne coûte rien.")) in text
    assert "**/chiffres solo**" in text and "**/chiffres défi**" in text
    assert picture(page).description.startswith(fr("La fin d'un combat entre Ana et Sam : "))
    await standin.click(lea, page, label="◀ Précédente")
    assert fr("• Palier 2 : 3 or, en boutique dès la manche 3") in page.embeds[0]["description"]


async def test_shown_to_the_channel_only_the_member_turns_them_until_they_expire(
        standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    page = (await standin.slash(ana, "digits rules", show=True)).reply
    assert not page.ephemeral
    refused = await standin.click(sam, page, label="Next ▶")
    assert refused.ephemeral
    assert refused.reply.content == (
        "These rules pages are Ana's: type /digits rules to read them yourself.")
    assert page.embeds[0]["footer"]["text"].startswith("Page 1 of 5")

    clock = Clock()
    windows = rules_ui.rules_windows(bot)
    windows.clock = clock
    windows.show(page.id, windows.get(page.id))
    clock.now += rules_ui.EXPIRY - 1
    await standin.click(ana, page, label="Next ▶")
    assert page.embeds[0]["footer"]["text"].startswith("Page 2 of 5")
    clock.now += rules_ui.EXPIRY + 1
    expired = await standin.click(ana, page, label="Next ▶")
    assert expired.ephemeral and expired.reply.content.startswith(
        "These rules pages have expired (they stay open 15 minutes")
    assert page.embeds[0]["footer"]["text"].startswith("Page 2 of 5")


async def test_a_french_member_reads_whose_pages_they_are_with_elision(standin, start_bot):
    await start_bot()
    ines, lea = standin.add_member("Inès", locale="fr"), standin.add_member("Léa", locale="fr")
    page = (await standin.slash(ines, "chiffres règles", montrer=True)).reply
    refused = await standin.click(lea, page, label="Suivante ▶")
    assert refused.reply.content == (
        fr(
            "Ces pages de règles sont celles d'Inès : tape /chiffres règles pour les lire "
            "toi-même."))


async def test_a_forged_page_is_refused_and_the_page_stays(standin, start_bot):
    await start_bot()
    ana = standin.add_member("Ana")
    page = (await standin.slash(ana, "digits rules")).reply
    for forged in ("digits.rules:5", "digits.rules:-1", "digits.rules:01", "digits.rules:x"):
        refused = await standin.forge(ana, page, forged)
        assert refused.reply.ephemeral
        assert refused.reply.content.startswith("This button or menu sent something I never")
    assert page.embeds[0]["footer"]["text"].startswith("Page 1 of 5")


async def test_a_french_solo_says_d_ana_and_contre_les_fantomes(standin, start_bot):
    # The French of a match, through the real bot: names are runtime values, elided as they come.
    bot = await start_bot()
    ana, zoe = standin.add_member("Ana", locale="fr"), standin.add_member("Zoé", locale="fr")
    board = (await standin.slash(ana, "chiffres solo")).reply
    assert "Les 20 chiffres — Ana contre les fantômes" in board.text()
    shop = await take_focus(standin, bot, ana, board, label="Faire mon Focus")
    await act(standin, ana, shop, "digits:buy:1")
    await act(standin, ana, shop, "digits:ready")
    battle = await standin.wait_for_message(lambda m: bool(m.attachments), after=board)
    first = battle.text().splitlines()[0]  # "Manche 1 : **l'ombre (robot)** bat **Ana** …"
    assert first.startswith(fr("Manche 1 : "))
    assert "**l'ombre (robot)**" in first or first.startswith(fr("Manche 1 : égalité"))
    assert "L'ombre" not in first  # inside a sentence, a small letter

    await bot.db.servers.update(standin.guild.id, match_lives=1)
    zoe_board = (await standin.slash(zoe, "chiffres solo")).reply
    zoe_shop = await take_focus(standin, bot, zoe, zoe_board, right=2, label="Faire mon Focus")
    await act(standin, zoe, zoe_shop, "digits:ready")
    lost = await standin.wait_for_message(
        lambda m: bool(m.attachments) and "Zoé" in m.text(), after=zoe_board)
    assert lost.text().startswith(
        fr("Manche 1 : **Zoé** a aligné une ardoise vide, **Fantôme d'Ana** gagne aussitôt ; "
        "**Zoé** perd 1 vie."))


async def test_buttons_posted_before_a_restart_keep_their_ids_and_say_they_expired(
        standin, start_bot, restart_bot):
    # Both games' windows are one machinery (bot.ui.rules_window): the custom ids already posted
    # ("digits.rules:N", "rithmo.rules:N") must still reach their own game after a restart.
    bot = await start_bot()
    ana = standin.add_member("Ana")
    digits = (await standin.slash(ana, "digits rules")).reply
    rithmo = (await standin.slash(ana, "rithmo rules")).reply
    assert [digits.button(label)["custom_id"] for label in ("◀ Previous", "Next ▶")] == [
        "digits.rules:0", "digits.rules:1"]
    assert [rithmo.button(label)["custom_id"] for label in ("◀ Previous", "Next ▶")] == [
        "rithmo.rules:0", "rithmo.rules:1"]
    await standin.click(ana, rithmo, label="Next ▶")
    assert rithmo.button("Next ▶")["custom_id"] == "rithmo.rules:2"

    await restart_bot(bot)
    expired = await standin.click(ana, digits, label="Next ▶")
    assert expired.ephemeral and expired.reply.content.startswith(
        "These rules pages have expired (they stay open 15 minutes")
    expired = await standin.click(ana, rithmo, label="Next ▶")
    assert expired.ephemeral and "/rithmo rules" in expired.reply.content
    assert digits.embeds[0]["footer"]["text"].startswith("Page 1 of 5")
    assert rithmo.embeds[0]["footer"]["text"].startswith("Page 2 of 13")
