"""/settings end to end through the stand-in with the real bot: each subcommand saved and shown,
each kind of refused value, who may change the settings, the language switch, French."""

from __future__ import annotations

import pytest

from bot.domain import DomainError
from bot.local.server import ATTACH_FILES
from bot.play.settings import (
    ARMY_MOST,
    check_daily,
    check_focus,
    check_match,
    check_rithmo,
    find_timezone,
)
from db import ServerSettings


def walk(item: dict, path: str = ""):
    """Every command, group and option of a synced command, with its path."""
    path = f"{path} {item['name']}".strip()
    yield path, item
    for option in item.get("options") or []:
        yield from walk(option, path)


def fields(record) -> dict[str, str]:
    return {f["name"]: f["value"] for f in record.reply.embeds[0]["fields"]}


async def stored(bot, standin) -> ServerSettings:
    return await bot.db.servers.get(standin.guild.id)


# --- Who may change the settings ------------------------------------------------------------


async def test_settings_are_synced_for_every_member_to_read(standin, start_bot):
    await start_bot()
    command = next(c for c in standin.commands[standin.guild.id] if c["name"] == "settings")
    # No default permission: students see /settings show; changes are refused when run.
    assert command.get("default_member_permissions") is None
    assert command["name_localizations"] == {"fr": "réglages"}
    assert {p for p in standin.command_names() if p.startswith("settings ")} == {
        "settings show", "settings language", "settings daily", "settings daily-off",
        "settings class",
        "settings focus", "settings match", "settings rithmo", "settings privacy",
        "settings teachers add", "settings teachers remove"}
    for name, item in walk(command):
        assert item["name_localizations"].get("fr"), f"{name} has no French name"
        assert item["description_localizations"].get("fr"), f"{name} has no French description"
    rithmo = next(o for o in command["options"] if o["name"] == "rithmo")
    victory = next(o for o in rithmo["options"] if o["name"] == "victory")
    assert victory["choices"][7] == {"name": "Lawsuit", "value": "lawsuit",
                                     "name_localizations": {"fr": "Procès"}}


async def test_a_settings_change_refused_to_a_student(standin, start_bot):
    bot = await start_bot()
    student = standin.add_member("Léa", locale="fr")
    refused = await standin.slash(student, "réglages match", vies=3)
    assert refused.reply.content == (
        "Seuls les professeurs peuvent changer mes réglages : il faut la permission Gérer le "
        "serveur ou un rôle de professeurs.")
    assert refused.ephemeral
    assert (await stored(bot, standin)).match_lives == 10
    sam = standin.add_member("Sam")
    assert (await standin.slash(sam, "settings language", language="fr")).reply.content == (
        "Only teachers can change my settings: it takes the Manage Server permission or a "
        "teachers' role.")
    assert (await stored(bot, standin)).language is None


async def test_a_student_reads_the_settings_and_cannot_change_them(standin, start_bot):
    bot = await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    await standin.slash(head, "settings focus", pinned_level="4")
    before = await stored(bot, standin)
    sam = standin.add_member("Sam")
    shown = await standin.slash(sam, "settings show")
    assert shown.ephemeral
    assert fields(shown)["Focus level"] == "Everyone practises at level 4 (pinned)."
    léa = standin.add_member("Léa", locale="fr")
    assert fields(await standin.slash(léa, "réglages voir"))["Niveau de Focus"] == (
        "Tout le monde s'entraîne au niveau 4 (fixé).")
    for command, options in (("settings focus", {"pinned_level": "none"}),
                             ("settings daily-off", {}),
                             ("settings teachers add", {"role": standin.add_role("Pupils")})):
        refused = await standin.slash(sam, command, **options)
        assert refused.reply.content.startswith("Only teachers can change my settings")
        assert refused.reply.embeds == [] and refused.ephemeral
    assert await stored(bot, standin) == before


async def test_a_teachers_role_is_accepted_and_can_be_removed(standin, start_bot):
    bot = await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    maths = standin.add_role("Maths teachers")
    colleague = standin.add_member("M. Petit", roles=[maths])
    assert (await standin.slash(colleague, "settings match", lives=4)).reply.content.startswith(
        "Only teachers")

    added = await standin.slash(head, "settings teachers add", role=maths)
    assert added.reply.content == (
        f"Saved: members with <@&{maths.id}> may now change these settings and follow every "
        "student's progress.")
    assert fields(added)["Teachers (they change these settings and follow every student)"] == (
        f"Members with the Manage Server permission, and the members of <@&{maths.id}>.")
    assert (await stored(bot, standin)).admin_role_ids == {maths.id}
    again = await standin.slash(head, "settings teachers add", role=maths)
    assert again.reply.content == f"<@&{maths.id}> is already a teachers' role."

    changed = await standin.slash(colleague, "settings match", lives=4)
    assert changed.reply.content.startswith("Saved: the next matches")
    assert (await stored(bot, standin)).match_lives == 4

    removed = await standin.slash(head, "settings teachers remove", role=maths)
    assert removed.reply.content == f"Saved: <@&{maths.id}> is no longer a teachers' role."
    assert (await stored(bot, standin)).admin_role_ids == frozenset()
    assert (await standin.slash(colleague, "settings match", lives=6)).reply.content.startswith(
        "Only teachers")
    assert (await stored(bot, standin)).match_lives == 4


async def test_everyone_cannot_be_a_teachers_role_nor_an_unknown_role_removed(standin,
                                                                             start_bot):
    bot = await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    everyone = standin.guild.everyone
    refused = await standin.slash(head, "settings teachers add", role=everyone)
    assert refused.reply.content == "Everyone has @everyone: choose a role only teachers have."
    art = standin.add_role("Art")
    refused = await standin.slash(head, "settings teachers remove", role=art)
    assert refused.reply.content == f"<@&{art.id}> is not a teachers' role: nothing to remove."
    assert (await stored(bot, standin)).admin_role_ids == frozenset()


# --- Each setting saved and shown -----------------------------------------------------------


async def test_show_lists_every_setting_with_the_defaults(standin, start_bot):
    await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    shown = await standin.slash(head, "settings show")
    assert shown.ephemeral
    assert shown.reply.embeds[0]["title"] == "Ardoise's settings for this server"
    assert fields(shown) == {
        "Language": "I answer each member in their own Discord language (English or French).",
        "Daily challenge": "Off: no daily challenge is posted. A teacher chooses a channel and "
                           "an hour with /settings daily.",
        "Focus level": "Each student moves between levels 1 and 8 as they play.",
        "The 20 Digits: new matches":
            "10 lives each, 5 gold every round (and what the Focus earns), 15 rounds at most. "
            "No draft: each player buys from their own shop.",
        "Rithmomachia: new games":
            "Won by the first player to reach: Body (8 pieces taken) or Mediocre.",
        "Time for a move or a turn":
            "24 hours. Rithmomachia: a player who has not moved by then loses the game. The 20 "
            "Digits: a turn still open then ends as it stands (Ready); two rounds missed in a "
            "row lose the match.",
        "Teachers (they change these settings and follow every student)":
            "Members with the Manage Server permission. A teachers' role can be added with "
            "/settings teachers add.",
        "How long answers and finished games are kept":
            "365 days: every day I erase the students' Focus answers and the finished games "
            "older than that.",
    }


async def test_language_switch_answers_in_the_new_language_and_holds_for_the_next_command(
        standin, start_bot, restart_bot):
    bot = await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    sam = standin.add_member("Sam", locale="en-GB")
    switched = await standin.slash(head, "settings language", language="fr")
    assert switched.reply.content == "Désormais je parle français sur ce serveur."
    assert fields(switched)["Langue"] == "Je parle français à tout le monde."
    assert (await stored(bot, standin)).language == "fr"

    card = await standin.slash(sam, "digits card", digit="Odd")
    assert card.reply.embeds[0]["title"] == "Impair — rang 1"

    bot = await restart_bot(bot)  # read back from the database
    assert (await standin.slash(sam, "digits card", digit="Odd")).reply.embeds[0][
        "title"] == "Impair — rang 1"

    english = await standin.slash(head, "settings language", language="English")
    assert english.reply.content == "From now on I speak English in this server."
    auto = await standin.slash(head, "settings language", language="auto")
    assert auto.reply.content == "From now on I answer each member in their own Discord language."
    assert (await stored(bot, standin)).language is None
    léa = standin.add_member("Léa", locale="fr")
    assert (await standin.slash(léa, "digits card", digit="Odd")).reply.embeds[0][
        "title"] == "Impair — rang 1"
    assert (await standin.slash(sam, "digits card", digit="Odd")).reply.embeds[0][
        "title"] == "Odd — tier 1"


async def test_daily_channel_hour_and_timezone_are_saved_and_shown(standin, start_bot):
    bot = await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    maths = standin.add_channel("maths")
    saved = await standin.slash(head, "settings daily", channel=maths, hour=17,
                                timezone="europe/paris")
    assert saved.reply.content == (f"Saved: the daily challenge will be posted in <#{maths.id}> "
                                   "every day at 17:00 (Europe/Paris).")
    assert fields(saved)["Daily challenge"] == (
        f"Posted in <#{maths.id}> every day at 17:00 (Europe/Paris): 6 questions, levels 2 to "
        "7, the same for everyone.")
    settings = await stored(bot, standin)
    assert (settings.daily_channel_id, settings.daily_hour, settings.timezone) == (
        maths.id, 17, "Europe/Paris")

    # Without a time zone the one set stays; a city alone is enough.
    await standin.slash(head, "settings daily", channel=maths, hour=7)
    assert (await stored(bot, standin)).timezone == "Europe/Paris"
    await standin.slash(head, "settings daily", channel=maths, hour=7, timezone="Montreal")
    assert (await stored(bot, standin)).timezone == "America/Montreal"

    off = await standin.slash(head, "settings daily-off")
    assert off.reply.content == "Saved: no more daily challenge in this server."
    assert (await stored(bot, standin)).daily_channel_id is None
    assert fields(off)["Daily challenge"].startswith("Off: no daily challenge")


async def test_a_channel_where_ardoise_cannot_post_pictures_is_refused(standin, start_bot):
    standin.guild.everyone.permissions &= ~ATTACH_FILES  # Ardoise has no role of its own
    bot = await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    refused = await standin.slash(head, "settings daily", channel=standin.channel, hour=8)
    assert refused.reply.content == (
        f"I cannot post in <#{standin.channel.id}>: let me see the channel, send messages, embed "
        "links and attach files there, then try again. Nothing was changed.")
    assert (await stored(bot, standin)).daily_channel_id is None


async def test_the_timezone_is_autocompleted(standin, start_bot):
    await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    offered = await standin.autocomplete(head, "settings daily", "timezone",
                                         channel=standin.channel, hour=8, timezone="pari")
    assert {"name": "Europe/Paris", "value": "Europe/Paris"} in offered
    assert len(await standin.autocomplete(head, "settings daily", "timezone",
                                          channel=standin.channel, hour=8, timezone="")) == 25


async def test_focus_levels_and_pinned_level_are_saved_and_shown(standin, start_bot):
    bot = await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    saved = await standin.slash(head, "settings focus", min_level=2, max_level=5)
    assert saved.reply.content == "Saved: the Focus levels."
    assert fields(saved)["Focus level"] == (
        "Each student moves between levels 2 and 5 as they play.")
    pinned = await standin.slash(head, "settings focus", pinned_level="4")
    assert fields(pinned)["Focus level"] == "Everyone practises at level 4 (pinned)."
    settings = await stored(bot, standin)
    assert (settings.focus_level_min, settings.focus_level_max, settings.focus_level_pinned) == (
        2, 5, 4)
    # A pinned level outside the range would not be played (practice keeps to the range).
    outside = await standin.slash(head, "settings focus", pinned_level="7")
    assert outside.reply.content == (
        "Level 7 is outside the levels 2 to 5 students move between: pin a level within them, "
        "or change them in the same command. Nothing was changed.")
    narrowed = await standin.slash(head, "settings focus", max_level=3)
    assert narrowed.reply.content.startswith("Level 4 is outside the levels 2 to 3")
    assert (await stored(bot, standin)) == settings
    wider = await standin.slash(head, "settings focus", max_level=8, pinned_level="7")
    assert fields(wider)["Focus level"] == "Everyone practises at level 7 (pinned)."
    one = await standin.slash(head, "settings focus", min_level=3, max_level=3,
                              pinned_level="none")
    assert fields(one)["Focus level"] == (
        "Everyone practises at level 3 (the lowest and the highest level allowed).")
    assert (await stored(bot, standin)).focus_level_pinned is None


async def test_match_defaults_are_saved_and_shown(standin, start_bot):
    bot = await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    saved = await standin.slash(head, "settings match", lives=6, gold=3, rounds=9, draft=True)
    assert fields(saved)["The 20 Digits: new matches"] == (
        "6 lives each, 3 gold every round (and what the Focus earns), 9 rounds at most. Draft: "
        "the players pick their digits in turn from one shared row.")
    settings = await stored(bot, standin)
    assert (settings.match_lives, settings.match_gold, settings.match_rounds,
            settings.match_draft) == (6, 3, 9, True)
    unchanged = await standin.slash(head, "settings match")
    assert unchanged.reply.content == "Nothing to change: here are the current settings."


async def test_rithmo_victories_and_time_limit_are_saved_and_shown(standin, start_bot):
    bot = await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    saved = await standin.slash(head, "settings rithmo", victory="goods", value=250,
                                proper="great", move_time_limit_hours=48)
    assert saved.reply.content == (
        "Saved: the next Rithmomachia games start with these settings.")
    shown = fields(saved)
    assert shown["Rithmomachia: new games"] == (
        "Won by the first player to reach: Goods (250 in value taken) or Great.")
    assert shown["Time for a move or a turn"] == (
        "48 hours. Rithmomachia: a player who has not moved by then loses the game. The 20 "
        "Digits: a turn still open then ends as it stands (Ready); two rounds missed in a row "
        "lose the match.")
    settings = await stored(bot, standin)
    assert settings.rithmo_victories == [{"kind": "goods", "value": 250}, {"kind": "great"}]
    assert settings.move_time_limit_s == 48 * 3600

    # Thresholds alone change the current common victory's; the others stay.
    await standin.slash(head, "settings rithmo", victory="honour_lawsuit")
    again = await standin.slash(head, "settings rithmo", pieces=4)
    assert fields(again)["Rithmomachia: new games"] == (
        "Won by the first player to reach: Honour and lawsuit (300 in value taken, with fewer "
        "than 10 digits, with fewer than 4 pieces) or Great.")
    await standin.slash(head, "settings rithmo", proper="none")
    assert (await stored(bot, standin)).rithmo_victories == [
        {"kind": "honour_lawsuit", "value": 300, "digits": 10, "pieces": 4}]
    one = await standin.slash(head, "settings rithmo", victory="body", pieces=1,
                              move_time_limit_hours=1)
    assert fields(one)["Rithmomachia: new games"] == (
        "Won by the first player to reach: Body (1 piece taken).")
    assert fields(one)["Time for a move or a turn"].startswith("1 hour. ")


# --- Refused values -------------------------------------------------------------------------


@pytest.mark.parametrize(("command", "options", "answer"), [
    ("settings daily", {"hour": 8, "timezone": "Mars/Olympus"},
     "I don't know the time zone “Mars/Olympus”. Give a name like Europe/Paris or "
     "America/Montreal; the list suggests some as you type. Nothing was changed."),
    ("settings focus", {"min_level": 6},
     "The lowest level (6) cannot be above the highest (4). Nothing was changed."),
    ("settings focus", {"min_level": 7, "max_level": 3},
     "The lowest level (7) cannot be above the highest (3). Nothing was changed."),
    ("settings rithmo", {"victory": "body", "value": 100},
     "The Body victory does not count value: it counts pieces. Nothing was changed."),
    ("settings rithmo", {"pieces": ARMY_MOST["pieces"] + 1},
     f"The pieces threshold is from 1 to {ARMY_MOST['pieces']} (the most an army holds), not "
     f"{ARMY_MOST['pieces'] + 1}. Nothing was changed."),
    ("settings rithmo", {"victory": "honour", "pieces": 1},
     f"The pieces threshold is from 2 to {ARMY_MOST['pieces']} (the most an army holds), not 1."
     " Nothing was changed."),
    ("settings rithmo", {"victory": "none", "proper": "none"},
     "A game needs at least one victory: keep a common or a proper one. Nothing was changed."),
    ("settings rithmo", {"victory": "none", "digits": 12},
     "Thresholds belong to a common victory: choose one as well. Nothing was changed."),
])
async def test_a_refused_value_is_said_once_and_changes_nothing(standin, start_bot, command,
                                                               options, answer):
    bot = await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    await standin.slash(head, "settings focus", max_level=4)
    before = await stored(bot, standin)
    if command == "settings daily":
        options = {"channel": standin.channel, **options}
    # A valid change given with the refused one is not saved either.
    extra = {"move_time_limit_hours": 5} if command == "settings rithmo" else {}
    refused = await standin.slash(head, command, **options, **extra)
    assert refused.reply.content == answer
    assert refused.reply.embeds == [] and refused.ephemeral
    assert await stored(bot, standin) == before


async def test_a_refusal_in_french(standin, start_bot):
    bot = await start_bot()
    prof = standin.add_member("Mme Roux", locale="fr", teacher=True)
    refused = await standin.slash(prof, "réglages rithmo", victoire="body", valeur=100)
    assert refused.reply.content == (
        "La victoire Corps ne se compte pas en valeur : elle se compte en pièces. Rien n'a été "
        "changé.")
    refused = await standin.slash(prof, "réglages défi", salon=standin.channel, heure=8,
                                  fuseau_horaire="Lune")
    assert refused.reply.content.startswith("Je ne connais pas le fuseau horaire « Lune ».")
    assert (await stored(bot, standin)) == ServerSettings(standin.guild.id)


# Discord refuses these before the bot sees them (the options' ranges); the bot checks again.

@pytest.mark.parametrize(("check", "code"), [
    (lambda: check_daily(24, None), "settings.hour_out_of_range"),
    (lambda: check_daily(-1, None), "settings.hour_out_of_range"),
    (lambda: check_focus(ServerSettings(1), 0, None, None), "settings.level_out_of_range"),
    (lambda: check_focus(ServerSettings(1), None, 9, None), "settings.level_out_of_range"),
    (lambda: check_focus(ServerSettings(1), None, None, "9"), "settings.level_out_of_range"),
    (lambda: check_focus(ServerSettings(1), None, None, "high"), "settings.level_not_a_number"),
    (lambda: check_match(0, None, None, None), "settings.lives_out_of_range"),
    (lambda: check_match(None, 100, None, None), "settings.gold_out_of_range"),
    (lambda: check_match(None, None, 0, None), "settings.rounds_out_of_range"),
    (lambda: check_rithmo(ServerSettings(1), None, None, {}, 0),
     "settings.time_limit_out_of_range"),
    (lambda: check_rithmo(ServerSettings(1), None, None, {}, 721),
     "settings.time_limit_out_of_range"),
])
def test_values_out_of_range_are_refused_by_the_bot_too(check, code):
    with pytest.raises(DomainError) as refused:
        check()
    assert refused.value.code == code


def test_a_timezone_is_found_in_any_case_or_by_its_city_alone():
    assert find_timezone("EUROPE/PARIS") == "Europe/Paris"
    assert find_timezone("new york") == "America/New_York"
    assert find_timezone("UTC") == "UTC"
    with pytest.raises(DomainError):
        find_timezone("Paris/Europe")


# --- French ---------------------------------------------------------------------------------


async def test_a_french_teacher_changes_and_reads_the_settings_in_french(standin, start_bot):
    bot = await start_bot()
    prof = standin.add_member("Mme Roux", locale="fr", teacher=True)
    saved = await standin.slash(prof, "réglages match", vies=5, manches=12,
                                options={"rangée_commune": True})
    assert saved.reply.content == (
        "C'est enregistré : les prochaines parties des 20 chiffres commencent avec ces réglages.")
    assert fields(saved)["Les 20 chiffres : nouvelles parties"] == (
        "5 vies chacun, 5 pièces d'or à chaque manche (plus ce que rapporte le Focus), 12 "
        "manches au plus. Rangée commune : les joueurs y choisissent leurs chiffres à tour de "
        "rôle.")
    saved = await standin.slash(prof, "réglages rithmo", victoire="lawsuit",
                                victoire_propre="none", heures_par_coup=12)
    assert fields(saved)["Rithmomachie : nouvelles parties"] == (
        "Gagnées par le premier joueur qui atteint : Procès (300 de valeur prise, avec moins de "
        "10 chiffres).")
    maths = standin.add_channel("maths")
    saved = await standin.slash(prof, "réglages défi", salon=maths, heure=9,
                                fuseau_horaire="Europe/Paris")
    assert saved.reply.content == (f"C'est enregistré : le défi du jour sera publié dans "
                                   f"<#{maths.id}> chaque jour à 9 h (Europe/Paris).")
    shown = fields(await standin.slash(prof, "réglages voir"))
    assert shown["Langue"] == "Je réponds à chacun dans sa langue Discord (français ou anglais)."
    assert shown["Niveau de Focus"] == (
        "Chaque élève monte ou descend entre les niveaux 1 et 8 selon ses réponses.")
    assert shown["Défi du jour"] == (
        f"Publié dans <#{maths.id}> chaque jour à 9 h (Europe/Paris) : 6 questions, niveaux 2 à "
        "7, les mêmes pour tout le monde.")
    assert shown["Temps pour un coup ou un tour"] == (
        "12 heures. Rithmomachie : un joueur qui n'a pas joué à temps perd la partie. Les 20 "
        "chiffres : un tour encore ouvert se termine alors tel quel (Prêt) ; deux manches "
        "manquées de suite font perdre la partie.")
    pinned = fields(await standin.slash(prof, "réglages focus", niveau_fixe="4"))
    assert pinned["Niveau de Focus"] == "Tout le monde s'entraîne au niveau 4 (fixé)."
    assert (await stored(bot, standin)).match_rounds == 12
