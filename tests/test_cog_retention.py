"""How long a server keeps its students' data (issue 23), through the real bot against the
stand-in: ``/settings privacy`` (Manage Server only, every refusal changing nothing, both
languages), the daily erasure by age on a server where members played everything (test_db_erasure's
world), the class report matching what is left, and ``/class end-of-year``: asked first, then one
zip to the teacher alone, then nothing of the students left in any table."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from datetime import UTC, date, datetime, timedelta

from test_cog_settings import fields, stored
from test_db_erasure import NAME, class_sheets, populate, traces
from test_db_retention import assert_rollups_match_the_answers

from bot.play.class_report import topic_name
from bot.texts import t
from bot.ui import retention as ui
from db import FocusAnswer
from tests.french import fr

KEPT = "How long answers and finished games are kept"


async def test_only_manage_server_chooses_and_every_refusal_changes_nothing(standin, start_bot):
    bot = await start_bot()
    guild = standin.guild.id
    head = standin.add_member("Mme Roux", teacher=True)
    maths = standin.add_role("Maths teachers")
    colleague = standin.add_member("M. Petit", roles=[maths])
    student = standin.add_member("Sam")
    await bot.db.servers.set_admin_roles(guild, [maths.id])
    before = await stored(bot, standin)

    refused = await standin.slash(colleague, "settings privacy", retention="days", days=30)
    assert refused.reply.content == (
        "Only a member with the Manage Server permission decides how long the students' data "
        "is kept. Nothing was changed.")
    assert (await standin.slash(student, "settings privacy", retention="forever")
            ).reply.content.startswith("Only teachers can change my settings")
    for options, said in (
            ({"retention": "days"}, "Give the number of days with the days option"),
            ({"retention": "forever", "days": 30}, "The days option goes with"),
            ({"retention": "school_year"}, "Give the last day of the school year"),
            ({"retention": "school_year", "until": "31/02/2027"},
             "“31/02/2027” is not a date: write it 2027-07-04 or 04/07/2027."),
            ({"retention": "school_year", "until": "2020-07-04"},
             "The end of the school year is a day after today")):
        answer = await standin.slash(head, "settings privacy", **options)
        assert answer.ephemeral and answer.reply.content.startswith(said), answer.reply.content
    assert await stored(bot, standin) == before

    saved = await standin.slash(head, "settings privacy", retention="days", days=30)
    assert saved.reply.content == (
        "Saved: I keep the students' answers and finished games 30 days, then erase them "
        "(every day).")
    assert fields(saved)[KEPT] == ("30 days: every day I erase the students' Focus answers and "
                                   "the finished games older than that.")
    assert (await stored(bot, standin)).retention_days == 30

    today = datetime.now(UTC).date()
    end = date(today.year + 1, 7, 4) if today.month > 6 else date(today.year, 7, 4)
    year = await standin.slash(head, "settings privacy", retention="school_year",
                               until=end.isoformat())
    assert year.reply.content.startswith(f"Saved: I keep the students' answers and finished "
                                         f"games until 4 July {end.year}; the day after")
    now = await stored(bot, standin)
    assert (now.retention_days, now.retention_until) == (None, end)
    # Every member reads it, in plain words (the student too).
    shown = await standin.slash(student, "settings show")
    assert fields(shown)[KEPT].startswith(f"Until the end of the school year, 4 July {end.year}")

    forever = await standin.slash(head, "settings privacy", retention="forever")
    assert forever.reply.content.startswith("Saved: I keep the students' answers and finished "
                                            "games for ever")
    assert fields(forever)[KEPT].startswith("For ever: nothing is erased by age.")


async def test_in_french(standin, start_bot):
    await start_bot()
    head = standin.add_member("Mme Roux", teacher=True, locale="fr")
    saved = await standin.slash(head, "réglages confidentialité", conservation="days", jours=90)
    assert saved.reply.content == (
        fr(
        "C'est enregistré : je garde les réponses des élèves et les parties finies 90 jours, puis "
        "je les efface (chaque jour)."))
    assert fields(saved)["Combien de temps les réponses et les parties finies sont gardées"] == (
        fr(
        "90 jours : chaque jour, j'efface les réponses de Focus des élèves et les parties finies "
        "plus anciennes."))
    refused = await standin.slash(head, "réglages confidentialité", conservation="school_year",
                                  date_de_fin="demain")
    assert refused.reply.content == (
        fr("« demain » n'est pas une date : écris-la 2027-07-04 ou 04/07/2027. Rien n'a changé."))


async def table(bot, sql: str) -> list[dict]:
    rows = await bot.db.connection.all(sql)
    return [dict(zip(row.keys(), tuple(row), strict=True)) for row in rows]


async def test_the_daily_task_keeps_nothing_older_than_30_days(standin, start_bot):
    world = await populate(standin, start_bot)
    bot, guild = world.bot, standin.guild.id
    await bot.db.servers.update(guild, retention_days=30)
    # Everything the world holds is from before this moment; Bob answers a few more after it.
    moment = datetime.now(UTC) + timedelta(hours=1)
    later = [FocusAnswer(guild, world.bob.id, "addition", 1, f"{n} + 2", n + 2,
                         n + 2 if n % 2 else n, 1500 + 900 * n, answered_at=moment
                         + timedelta(days=2, minutes=n), round_key=f"practice:late:{n}",
                         question_no=0) for n in range(5)]
    for answer in later:
        await bot.db.focus.record(answer)
    still_playing = await table(bot, "SELECT match_id FROM digits_matches"
                                     " WHERE status = 'active' ORDER BY match_id")
    assert still_playing and await table(bot, "SELECT 1 FROM digits_matches"
                                              " WHERE status = 'finished'")

    [purged] = await bot.get_cog("Settings").flow.eraser.purge_due(moment + timedelta(days=31))
    assert purged.guild_id == guild and purged.before == moment + timedelta(days=1)
    counts = purged.counts
    assert counts["focus_answers"] > 20 and counts["digits_matches"] >= 1
    assert counts["digits_ghosts"] >= 1 and counts["rithmo_games"] >= 1
    assert counts["daily_attempts"] >= 1 and counts["assignment_attempts"] >= 3
    assert counts["rithmo_puzzle_solves"] >= 1 and counts["focus_live_rounds"] >= 1

    left = await table(bot, "SELECT * FROM focus_answers")
    assert sorted((r["user_id"], r["round_key"]) for r in left) == sorted(
        (a.user_id, a.round_key) for a in later)
    for name in ("daily_attempts", "assignment_attempts", "rithmo_puzzle_solves"):
        assert await table(bot, f"SELECT * FROM {name}") == [], name
    # Games still being played stay whatever their age; every finished one went, with its rows.
    assert await table(bot, "SELECT match_id FROM digits_matches ORDER BY match_id") == (
        still_playing)
    assert await table(bot, "SELECT 1 FROM rithmo_games WHERE status <> 'active'") == []
    # Live rounds too, those left open as well (their state names who answered).
    assert await table(bot, "SELECT 1 FROM focus_live_rounds") == []
    assert await table(bot, "SELECT 1 FROM digits_seats WHERE match_id NOT IN"
                            " (SELECT match_id FROM digits_matches)") == []
    # The class report is what is left: its figures, recomputed from the answers, and what the
    # teacher reads (Bob is now "Student 1": his first answer left is the server's first).
    await assert_rollups_match_the_answers(bot.db, guild)
    named, masked = await class_sheets(standin, world)
    addition, everyone = topic_name("addition", "en"), t("class.report.class", "en")
    right = sum(a.correct for a in later)
    assert {key: figures[:2] for key, figures in named.items()} == {
        ("Bob", addition): ["5", str(right)], (everyone, addition): ["5", str(right)]}
    assert set(masked) == {(t("class.report.pseudonym", "en", number=1), addition),
                           (everyone, addition)}
    # The mastery of everyone whose answers went is made again from what is left.
    replayed = await bot.db.mastery.load(guild, world.ana.id)
    assert replayed.items == {}
    bob = await bot.db.mastery.load(guild, world.bob.id)
    assert sum(item.answers for item in bob.items.values() if item.kind == "fact") == 5
    # The members themselves stay (their level, gold, ratings, streaks).
    assert {world.bob.id, world.ana.id} <= {r["user_id"] for r in await table(
        bot, "SELECT user_id FROM players")}


async def finished(standin, record, start: str) -> None:
    """Wait until the interaction's follow-ups include one starting with ``start`` (the export
    and the erasure run after the click's answer)."""
    await standin.wait_until(
        lambda: any(m.content.startswith(start) for m in record.messages), timeout=60)


async def end_of_year(standin, world):
    """Roux asks; the question (private, two buttons)."""
    asked = await standin.slash(world.roux, "class end-of-year")
    assert asked.ephemeral and "**The end of the school year.**" in asked.reply.content
    return asked.reply


async def test_end_of_year_exports_then_erases_every_student(standin, start_bot):
    world = await populate(standin, start_bot)
    bot, guild = world.bot, standin.guild.id
    question = await end_of_year(standin, world)

    kept = await standin.click(world.roux, question, label="Keep everything")
    assert kept.reply.content == "Nothing was exported or erased."
    assert traces(world.path, world.bob.id, "Bob")

    question = await end_of_year(standin, world)
    bundle_at = len(standin.channel_messages())
    done = await standin.click(world.roux, question, label="Export and erase")
    await finished(standin, done, "Done: I erased")
    assert len(standin.channel_messages()) == bundle_at  # nothing public
    [sent] = [m for m in done.messages if m.attachments]
    assert sent.ephemeral and sent.content.startswith(
        "Here is the class: the reports and the data of 2 students.")
    [zipped] = sent.attachments
    assert zipped.filename.startswith("class-") and zipped.filename.endswith(".zip")
    assert done.messages[-1].content == "Done: I erased the data of 2 students on this server."

    with zipfile.ZipFile(io.BytesIO(zipped.data)) as bundle:
        names = set(bundle.namelist())
        files = {name: bundle.read(name) for name in names}
    # The students are Bob and Ana; Zed and Roux are teachers (Manage Server) and keep theirs.
    assert {f"students/{world.bob.id}.json", f"students/{world.ana.id}.json"} <= names
    assert not {f"students/{world.zed.id}.json", f"students/{world.roux.id}.json"} & names
    sheets = {name for name in names if name.startswith("assignment-")}
    assert len(sheets) == 3  # Sums, Tables, Doubles
    [report] = [name for name in names if name.startswith("class-report-")]
    rows = list(csv.reader(io.StringIO(files[report].decode("utf-8-sig"))))
    assert {"Bob", "Ana", NAME} <= {row[0] for row in rows[1:]}
    sums = [list(csv.reader(io.StringIO(files[s].decode("utf-8-sig")))) for s in sheets]
    assert any(row[0] == "Ana" and row[1] for sheet in sums for row in sheet[1:])
    ana = json.loads(files[f"students/{world.ana.id}.json"])
    assert ana["format"] == "ardoise.player-export" and ana["user_id"] == world.ana.id
    assert ana["focus_answers"] and ana["assignment_attempts"]

    # Nothing of the students remains anywhere; the teachers' data stays.
    for member, name in ((world.bob, "Bob"), (world.ana, "Ana")):
        left = traces(world.path, member.id, name)
        assert left == [], "\n".join(f"{t}.{c}: {str(v)[:120]}" for t, c, v in left)
    assert traces(world.path, world.zed.id, NAME) and traces(world.path, world.roux.id,
                                                             "Mme Roux")
    # Roux never played: known by the rounds and assignments they ran, which stay the class's.
    assert await bot.db.retention.members(guild) == [world.zed.id]


async def test_end_of_year_is_refused_to_students_and_after_its_time(standin, start_bot):
    world = await populate(standin, start_bot)
    question = await end_of_year(standin, world)
    refused = await standin.slash(world.bob, "class end-of-year")
    assert refused.reply.content.startswith("Only teachers")
    # An old question is refused, and nothing goes.
    real = ui.clock
    ui.clock = lambda: real() + ui.CONFIRM_S + 60
    try:
        late = await standin.click(world.roux, question, label="Export and erase")
    finally:
        ui.clock = real
    assert late.reply.content.startswith("This question is more than 15 minutes old")
    assert traces(world.path, world.bob.id, "Bob") and traces(world.path, world.ana.id, "Ana")


async def test_the_owner_is_told_once_when_the_school_year_has_ended(standin, start_bot):
    bot = await start_bot()
    guild = standin.guild.id
    standin.users[standin.owner.id] = standin.owner  # the server's owner, a member here
    owner = standin.add_member("Owner", user=standin.owner)
    sam = standin.add_member("Sam")
    await standin.slash(sam, "focus practice")  # Sam is known to the bot: a player row
    # The date was set before it passed (the command refuses a past one).
    await bot.db.servers.update(guild, retention_days=None, retention_until=date(2026, 7, 3))
    eraser = bot.get_cog("Settings").flow.eraser
    moment = datetime(2026, 7, 4, 9, 0, tzinfo=UTC)
    [purged] = await eraser.purge_due(moment)
    assert purged.told == date(2026, 7, 3)
    await standin.wait_until(lambda: bool(standin.dm_messages(owner)))
    [told] = standin.dm_messages(owner)
    assert told.content.startswith(
        f"The school year you set for {standin.guild.name} with /settings privacy ended on "
        "3 July 2026: I erased the students' Focus answers and the finished games up to that day.")
    await eraser.purge_due(moment + timedelta(days=1))
    await standin.idle()
    assert len(standin.dm_messages(owner)) == 1  # once per date
    shown = await standin.slash(sam, "settings show")
    assert fields(shown)[KEPT].startswith("The school year ended on 3 July 2026")


async def test_an_export_too_large_to_send_erases_nothing(standin, start_bot, monkeypatch):
    from bot.local import server

    bot = await start_bot()
    roux = standin.add_member("Mme Roux", teacher=True)
    sam = standin.add_member("Sam")
    await standin.slash(sam, "focus practice")
    # Discord's upload limit, as the interaction says it, below the zip's size.
    monkeypatch.setattr(server, "MAX_FILE_SIZE", 300)
    question = (await standin.slash(roux, "class end-of-year")).reply
    done = await standin.click(roux, question, label="Export and erase")
    await finished(standin, done, "The export is")
    said = done.messages[-1].content
    assert said.startswith("The export is ") and (
        "MiB Discord lets me send here, so I erased nothing." in said)
    assert not [m for m in done.messages if m.attachments]
    assert traces(bot.settings.db_path, sam.id, "Sam")


async def test_end_of_year_in_french(standin, start_bot):
    await start_bot()
    prof = standin.add_member("Mme Roux", teacher=True, locale="fr")
    asked = await standin.slash(prof, "classe fin-d-année")
    assert asked.reply.content.startswith("**La fin de l'année scolaire.** Je t'envoie un "
                                          "fichier zip")
    assert [b["label"] for b in asked.reply.buttons()] == ["Exporter et effacer", "Tout garder"]
    done = await standin.click(prof, asked.reply, label="Exporter et effacer")
    await finished(standin, done, "Je n'ai aucune donnée")
    assert done.messages[-1].content == (
        fr("Je n'ai aucune donnée d'élève sur ce serveur : rien à exporter ni à effacer."))


async def test_a_teacher_who_is_one_no_longer_is_refused_for_what_was_asked(standin, start_bot):
    # The refusal names the end of the year, not the settings (issue 29).
    world = await populate(standin, start_bot)
    question = await end_of_year(standin, world)
    world.roux.roles.remove(standin.role("Teacher"))
    refused = await standin.click(world.roux, question, label="Export and erase")
    assert refused.reply.content.startswith(
        "Only teachers can end the school year and erase the students' data")
    assert traces(world.path, world.bob.id, "Bob") and traces(world.path, world.ana.id, "Ana")
