"""The real bot, end to end, against the local stand-in for Discord."""

from __future__ import annotations

import logging

from bot.i18n import catalogues, command_key, parameter_key
from bot.local import StandIn
from tests.french import fr

TEST_COG = ["bot_test_cog"]


def _walk_synced(commands: list[dict], prefix: str = ""):
    """(qualified name, item, parent qualified name or None) for every command, group, option."""
    for item in commands:
        name = f"{prefix} {item['name']}".strip()
        yield name, item, None
        for option in item.get("options") or []:
            if option["type"] in (1, 2):
                yield from _walk_synced([option], name)
            else:
                yield f"{name}:{option['name']}", option, name


async def test_sync_sends_every_command_with_french_names_and_descriptions(standin, start_bot):
    await start_bot()
    synced = standin.commands[standin.guild.id]
    assert {c["name"] for c in synced} >= {"digits", "help"}
    for name, item, _ in _walk_synced(synced):
        assert item.get("name_localizations", {}).get("fr"), f"{name} has no French name"
        assert item.get("description_localizations", {}).get("fr"), (
            f"{name} has no French description")
    digits = next(c for c in synced if c["name"] == "digits")
    assert digits["name_localizations"] == {"fr": "chiffres"}
    assert digits["contexts"] == [0]  # servers only


async def test_every_french_command_text_belongs_to_a_command(standin, start_bot):
    await start_bot()
    used = set()
    for name, item, parent in _walk_synced(standin.commands[standin.guild.id]):
        for part in ("name", "description"):
            if parent is None:
                used.add(command_key(name, part))
            else:
                used.add(parameter_key(parent, item["name"], part))
    french = {k for k in catalogues().texts["fr"] if k.startswith("commands.")}
    assert french - used == set(), "French command texts for no command"


async def test_global_sync_when_no_test_server_is_set(standin, start_bot):
    bot = await start_bot(test_guild=None)
    assert standin.commands[standin.guild.id] == []
    assert {c["name"] for c in standin.commands[None]} >= {"digits", "help"}
    assert len(bot.synced) == len(standin.commands[None])
    ana = standin.add_member("Ana")
    record = await standin.slash(ana, "digits card", digit="Zero")
    assert record.reply.embeds[0]["title"] == "Zero — tier 1"


async def test_digits_card_answers_with_the_card_in_english(standin, start_bot):
    await start_bot()
    sam = standin.add_member("Sam", locale="en-GB")
    record = await standin.slash(sam, "digits card", digit="Odd")
    embed = record.reply.embeds[0]
    assert embed["title"] == "Odd — tier 1"
    assert "its HP is odd" in embed["description"]
    assert {"name": "ATK / HP", "value": "N1 3/3 · N2 4/5 · N3 5/7", "inline": False} in (
        embed["fields"])
    assert record.ephemeral
    assert record.answer_time is not None and record.answer_time < standin.answer_deadline


async def test_digits_card_answers_in_french_for_a_french_member(standin, start_bot):
    await start_bot()
    ana = standin.add_member("Ana", locale="fr")
    record = await standin.slash(ana, "chiffres carte", chiffre="moitie", montrer=True)
    embed = record.reply.embeds[0]
    assert embed["title"] == "Moitié — palier 2"
    assert {"name": "Coût", "value": "3 or", "inline": True} in embed["fields"]
    assert not record.ephemeral
    assert standin.last_message() is record.reply


async def test_digits_card_autocompletes_in_the_members_language(standin, start_bot):
    await start_bot()
    ana = standin.add_member("Ana", locale="fr")
    sam = standin.add_member("Sam")
    french = await standin.autocomplete(ana, "digits card", "digit", digit="pre")
    assert french == [{"name": "Premier — palier 2 · 3 or", "value": "Prime"}]
    english = await standin.autocomplete(sam, "digits card", "digit", digit="")
    assert len(english) == 20 and english[0]["value"] == "Plus"


async def test_an_unknown_digit_is_refused_in_the_members_language(standin, start_bot):
    await start_bot()
    ana = standin.add_member("Ana", locale="fr")
    record = await standin.slash(ana, "digits card", digit="Impaire")
    assert record.reply.content == (
        fr("Aucun chiffre ne s'appelle « Impaire ». Voulais-tu dire Impair ?"))
    assert record.ephemeral


async def test_digits_rules_in_french_typed_without_accents(standin, start_bot):
    await start_bot()
    ana = standin.add_member("Ana", locale="fr")
    record = await standin.slash(ana, "chiffres regles")
    assert record.reply.embeds[0]["title"] == fr("1. Les 20 chiffres, c'est quoi ?")


async def test_help_lists_every_command_in_the_members_language(standin, start_bot):
    await start_bot()
    ana = standin.add_member("Ana", locale="fr")
    text = (await standin.slash(ana, "help")).reply.text()
    assert "`/chiffres carte <chiffre> [montrer]` — La carte d'un chiffre" in text
    assert "`/aide`" in text
    sam = standin.add_member("Sam")
    assert "`/digits rules [show]` — The rules of The 20 Digits, in a few pages" in (
        await standin.slash(sam, "help")).reply.text()


async def test_the_servers_language_wins_over_the_members_locale(standin, start_bot):
    bot = await start_bot()
    await bot.db.servers.update(standin.guild.id, language="fr")
    sam = standin.add_member("Sam", locale="en-US")
    record = await standin.slash(sam, "digits card", digit="Odd")
    assert record.reply.embeds[0]["title"] == "Impair — palier 1"


async def test_a_domain_error_is_shown_localised_and_privately(standin, start_bot):
    await start_bot(extra_cogs=TEST_COG)
    ana = standin.add_member("Ana", locale="fr")
    sam = standin.add_member("Sam")
    record = await standin.slash(ana, "test refuse", code="game.not_found")
    assert record.reply.content == "Cette partie est finie ou n'existe plus."
    assert record.ephemeral
    record = await standin.slash(sam, "test refuse", code="no.such.code")
    assert record.reply.content == "That is not possible right now."


async def test_an_unexpected_error_is_logged_and_shown_as_a_short_apology(
        standin, start_bot, caplog):
    await start_bot(extra_cogs=TEST_COG)
    sam = standin.add_member("Sam")
    with caplog.at_level(logging.ERROR, logger="bot.tree"):
        record = await standin.slash(sam, "test boom")
    assert record.reply.content.startswith("Sorry, something went wrong on my side.")
    assert "kaboom" not in record.reply.text() and "Traceback" not in record.reply.text()
    assert record.ephemeral
    logged = [r for r in caplog.records if r.name == "bot.tree"]
    assert logged and logged[0].exc_info is not None
    assert "kaboom" in str(logged[0].exc_info[1])


async def test_an_unexpected_error_after_a_deferral_replaces_the_thinking_message(
        standin, start_bot):
    await start_bot(extra_cogs=TEST_COG)
    ana = standin.add_member("Ana", locale="fr")
    record = await standin.slash(ana, "test boom_deferred")
    assert record.deferred
    assert record.reply.content.startswith("Désolé, quelque chose n'a pas marché")
    assert not record.reply.loading


async def test_an_unexpected_error_after_an_answer_is_apologised_for_privately(
        standin, start_bot):
    await start_bot(extra_cogs=TEST_COG)
    sam = standin.add_member("Sam")
    record = await standin.slash(sam, "test answered_boom")
    assert record.reply.content == "Here is your board" and not record.reply.ephemeral
    await standin.wait_until(lambda: len(record.followups) == 1)
    apology = record.followups[0]
    assert apology.ephemeral_to == sam.id
    assert apology.content.startswith("Sorry, something went wrong on my side.")


async def test_a_teachers_command_is_refused_to_a_student(standin, start_bot):
    await start_bot(extra_cogs=TEST_COG)
    student = standin.add_member("Léa", locale="fr")
    teacher = standin.add_member("Mme Roux", locale="fr", teacher=True)
    refused = await standin.slash(student, "test teach")
    assert refused.reply.content == fr("Il te faut la permission « Gérer le serveur » pour cela.")
    assert (await standin.slash(teacher, "test teach")).reply.content == "Welcome, teacher"


async def test_a_click_from_someone_outside_the_game_is_refused(standin, start_bot):
    await start_bot(extra_cogs=TEST_COG)
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    léa = standin.add_member("Léa", locale="fr")
    game = (await standin.slash(ana, "test game", opponent=sam)).reply
    refused = await standin.click(léa, game, label="Add one")
    assert refused.reply.content == "Seuls les joueurs de cette partie peuvent faire cela."
    assert refused.reply.ephemeral_to == léa.id
    assert game.content == "Tally 0"
    await standin.click(sam, game, label="Add ten")
    assert game.content == "Tally 10"


async def test_a_short_lived_view_refuses_others_and_routes_menus_and_modals(standin, start_bot):
    await start_bot(extra_cogs=TEST_COG)
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    message = (await standin.slash(ana, "test vote")).reply
    refused = await standin.click(sam, message, "test:vote")
    assert refused.reply.content == "Only the players of this game can do that."
    assert (await standin.click(ana, message, "test:vote")).reply.content == "Vote counted"
    assert (await standin.select(ana, message, "test:pick", ["Three"])).reply.content == (
        "Picked 3")
    opened = await standin.click(ana, message, "test:answer")
    assert opened.modal is not None and opened.modal["title"] == "Your answer"
    answered = await standin.submit_modal(ana, opened, {"Answer": "42"})
    assert answered.reply.content == "You typed 42"
    opened = await standin.click(ana, message, "test:answer")
    refused = await standin.submit_modal(ana, opened, {"Answer": "forty"})
    assert refused.reply.content == "This game is over or no longer exists."


async def test_a_persistent_button_still_works_after_a_restart(standin, start_bot, restart_bot):
    bot = await start_bot(extra_cogs=TEST_COG)
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    game = (await standin.slash(ana, "test game", opponent=sam)).reply
    await standin.click(ana, game, label="Add one")
    assert game.content == "Tally 1"
    await restart_bot(bot)
    await standin.click(sam, game, label="Add ten")
    assert game.content == "Tally 11"
    assert game.component("test.tally:1:3:10") is not None  # the version moved on


async def test_a_stale_click_is_refused_politely(standin, start_bot):
    await start_bot(extra_cogs=TEST_COG)
    ana, sam = standin.add_member("Ana", locale="fr"), standin.add_member("Sam")
    old = (await standin.slash(ana, "test game", opponent=sam)).reply
    new = (await standin.slash(sam, "test repost", game="1")).reply
    await standin.click(sam, new, label="Add one")
    stale = await standin.click(ana, old, label="Add one")
    assert stale.reply.content.startswith("Ce message n'est plus à jour")
    assert new.content == "Tally 1" and old.content == "Tally 0"


async def test_a_group_cog_leaves_and_rejoins_the_tree_when_reloaded(standin, start_bot):
    # /digits is one GroupCog (cogs/digits.py), its card and rules inherited from a mixin.
    bot = await start_bot()

    def paths() -> set[str]:
        return {c.qualified_name for c in bot.tree.walk_commands()}

    assert {"digits card", "digits rules"} <= paths()
    await bot.unload_extension("cogs.digits")
    assert not {"digits card", "digits rules"} & paths()
    assert not any(path.startswith("digits") for path in paths())
    await bot.load_extension("cogs.digits")
    await bot.sync_commands()
    sam = standin.add_member("Sam")
    assert (await standin.slash(sam, "digits card", digit="Fibo")).reply.embeds[0]["title"] == (
        "Fibo — tier 4")


async def test_a_sharded_bot_gets_ready_and_answers(standin, start_bot):
    bot = await start_bot(sharded=True)
    assert bot.shard_count == 1
    assert ("GET", "/gateway/bot") in standin.requests
    sam = standin.add_member("Sam")
    assert (await standin.slash(sam, "digits card", digit="Pi")).reply.embeds[0]["title"] == (
        "Pi — tier 4")


async def test_a_restarted_bot_closes_its_database_and_the_new_one_reads_it(
        standin, start_bot, restart_bot):
    bot = await start_bot()
    await bot.db.servers.update(standin.guild.id, language="fr")
    again = await restart_bot(bot)
    assert bot.db is None
    assert again.db is not None and again.db.location == bot.settings.db_path
    sam = standin.add_member("Sam")
    rules = await standin.slash(sam, "digits rules")
    assert rules.reply.embeds[0]["title"] == fr("1. Les 20 chiffres, c'est quoi ?")


def test_the_stand_in_is_part_of_the_product():
    # Local play (issue 8) runs the same stand-in; it must not live under tests/.
    assert StandIn.__module__ == "bot.local.server"
