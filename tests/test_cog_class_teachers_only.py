"""A member who is not a teacher, through the real bot and the stand-in: each ``/class``
subcommand is refused with a sentence naming what was asked (in English and French) and changes
nothing, and the autocompletes of the teachers-only commands (``/class``, ``/focus live``,
``/settings daily``) offer them nothing while a teacher gets the class's choices."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from db.focus import FocusAnswer
from tests.french import fr

SUFFIX = {"en": ": it takes the Manage Server permission or a teacher role of this server.",
          "fr": " : il faut la permission Gérer le serveur ou un rôle de professeurs de ce "
                "serveur."}

#: Each subcommand as an English and a French member types it (options: what it needs), and
#: the start of its refusal.
ASKED = [
    ("class report", {}, "Only teachers can see the class report",
     "classe bilan", {}, "Seuls les professeurs peuvent voir le bilan de la classe"),
    ("class student", {"member": "self", "extra_time": "x2"},
     "Only teachers can see or change a student's settings",
     "classe élève", {"membre": "self"},
     "Seuls les professeurs peuvent voir ou changer les réglages d'un élève"),
    ("class assign", {"name": "Mine", "due": "2026-12-08 18:00", "level": 1},
     "Only teachers can set homework",
     "classe devoir", {"nom": "Mien", "pour-le": "08/12/2026 18h", "niveau": 1},
     "Seuls les professeurs peuvent donner des devoirs"),
    ("class assignments", {}, "Only teachers can see the list of homework",
     "classe devoirs", {}, "Seuls les professeurs peuvent voir la liste des devoirs"),
    ("class questions upload", {"file": "upload"}, "Only teachers can add a question set",
     "classe questions envoyer", {"fichier": "upload"},
     "Seuls les professeurs peuvent ajouter une série de questions"),
    ("class questions list", {}, "Only teachers can see the question sets",
     "classe questions liste", {}, "Seuls les professeurs peuvent voir les séries de questions"),
    ("class questions show", {"name": "Tables"},
     "Only teachers can see a question set and its answers",
     "classe questions voir", {"nom": "Tables"},
     "Seuls les professeurs peuvent voir une série de questions et ses réponses"),
    ("class questions delete", {"name": "Tables"}, "Only teachers can delete a question set",
     "classe questions supprimer", {"nom": "Tables"},
     "Seuls les professeurs peuvent supprimer une série de questions"),
    ("class placement", {}, "Only teachers can run a placement for the class or see its results",
     "classe positionnement", {},
     "Seuls les professeurs peuvent lancer le test de positionnement pour la classe ou voir ses "
     "résultats"),
    ("class digest", {}, "Only teachers can see the class's weekly digest",
     "classe semaine", {}, "Seuls les professeurs peuvent voir le résumé de la semaine"),
    ("class room open", {}, "Only teachers can open a class room",
     "classe salle ouvrir", {}, "Seuls les professeurs peuvent ouvrir une salle"),
    ("class room close", {}, "Only teachers can close a class room",
     "classe salle fermer", {}, "Seuls les professeurs peuvent fermer une salle"),
    ("class room list", {}, "Only teachers can see the class rooms",
     "classe salle liste", {}, "Seuls les professeurs peuvent voir les salles"),
    ("class end-of-year", {}, "Only teachers can end the school year and erase the students' data",
     "classe fin-d-année", {},
     "Seuls les professeurs peuvent clore l'année scolaire et effacer les données des élèves"),
]


async def stored(bot: Any, guild_id: int) -> tuple[Any, ...]:
    return (await bot.db.question_sets.of_server(guild_id),
            await bot.db.assignments.of_server(guild_id),
            await bot.db.students.of_server(guild_id))


def filled(standin: Any, member: Any, options: dict[str, Any]) -> dict[str, Any]:
    given = {"self": member, "upload": standin.upload("Mine.csv", b"1 + 1,2\n")}
    return {k: given.get(v, v) if isinstance(v, str) else v for k, v in options.items()}


async def test_each_class_subcommand_says_what_only_teachers_may_do(standin, start_bot):
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    await standin.slash(roux, "class questions upload",
                        file=standin.upload("Tables.csv", b"3 x 4,12,tables\n"))
    before = await stored(bot, standin.guild.id)
    sam = standin.add_member("Sam")
    zoe = standin.add_member("Zoé", locale="fr")
    # Every /class subcommand there is is in the list (a new one needs its sentence).
    listed = {row[0] for row in ASKED}
    assert {name for name in standin.command_names() if name.startswith("class ")} == listed
    for english, options, said, french, options_fr, said_fr in ASKED:
        refused = await standin.slash(sam, english, options=filled(standin, sam, options))
        assert refused.reply.ephemeral_to == sam.id
        assert refused.reply.content == said + SUFFIX["en"], english
        refused = await standin.slash(zoe, french, options=filled(standin, zoe, options_fr))
        assert refused.reply.content == fr(said_fr + SUFFIX["fr"]), french
    assert await stored(bot, standin.guild.id) == before


#: (command, option, what a teacher sees offered for the typed text)
AUTOCOMPLETES = [
    ("class report", "topic", ""),
    ("class report", "assignment", ""),
    ("class assign", "due", ""),
    ("class assign", "question_set", "tab"),
    ("class questions show", "name", "tab"),
    ("class questions delete", "name", "tab"),
    ("focus live", "set", "tab"),
    ("settings daily", "timezone", "Europe/Pa"),
]


@pytest.mark.parametrize(("command", "option", "typed"), AUTOCOMPLETES)
async def test_a_teachers_only_autocomplete_offers_a_student_nothing(
        standin, start_bot, command, option, typed):
    bot = await start_bot()
    roux = standin.add_member("Roux", teacher=True)
    await standin.slash(roux, "class questions upload",
                        file=standin.upload("Tables.csv", b"3 x 4,12,tables\n"))
    await standin.slash(roux, "class assign", name="Sums", due="2026-12-08 18:00", level=1)
    await bot.db.focus.record(FocusAnswer(
        standin.guild.id, roux.id, "tables", 1, "3 x 4", 12, 12, 1500, source="practice",
        answered_at=datetime.now(UTC)))
    sam = standin.add_member("Sam")
    # The option's name as Discord sends it (a renamed parameter, "set" for question_set).
    sent = "set" if option == "question_set" else option
    offered = await standin.autocomplete(roux, command, sent, options={sent: typed})
    assert offered != []
    assert await standin.autocomplete(sam, command, sent, options={sent: typed}) == []
    # A member of a teacher role is a teacher: offered the same.
    role = standin.add_role("Profs")
    await standin.slash(roux, "settings teachers add", role=role)
    ines = standin.add_member("Inès", roles=[role])
    assert await standin.autocomplete(ines, command, sent, options={sent: typed}) == offered
