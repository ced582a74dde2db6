"""/progress and /leaderboard end to end through the stand-in with the real bot, on answers,
daily challenges and ratings seeded through the db repositories."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import images
from bot.focus import ROUND_SIZE
from bot.i18n import image_words
from bot.play.progress import calendar_start
from db import FocusAnswer
from tests.french import fr

NOW = datetime.now(UTC)
TODAY = NOW.date()  # the server's time zone is UTC unless set

EN, FR = image_words("en"), image_words("fr")

UNRATED = "You have no player score yet: it comes from your games against another member."


def answer(guild, user, topic, right, days_ago, level=2):
    return FocusAnswer(guild, user, topic, level, "6 × 7", 42, 42 if right else 41, 3000,
                       answered_at=NOW - timedelta(days=days_ago))


async def finish_daily(db, guild, user, day, score=4, seconds=30.0):
    await db.daily.create(guild, day, [])
    await db.daily.start_attempt(guild, day, user)
    await db.daily.finish_attempt(guild, day, user, score=score, time_ms=int(seconds * 1000))


def fields(record) -> dict[str, str]:
    return {f["name"]: f["value"] for f in record.reply.embeds[0]["fields"]}


def pictures(record) -> dict[str, bytes]:
    return {a.filename: a.data for a in record.reply.attachments}


async def seed_ana(bot, standin, ana, sam):
    db, guild = bot.db, standin.guild.id
    await db.focus.record_many([
        answer(guild, ana.id, "addition", True, 1), answer(guild, ana.id, "addition", True, 1),
        answer(guild, ana.id, "addition", False, 1),
        answer(guild, ana.id, "multiplication", True, 3),
        answer(guild, ana.id, "multiplication", False, 3),
        answer(guild, ana.id, "addition", True, 200),  # before the chart's weeks
        answer(guild, sam.id, "division", True, 1),  # someone else's
    ])
    for days_ago in (5, 2, 1):  # in the order they were played
        await finish_daily(db, guild, ana.id, TODAY - timedelta(days=days_ago))
    await db.players.set_focus_level(guild, ana.id, 3)
    await db.players.record_game(guild, "digits", ana.id, sam.id, 1.0)


# --- /progress ------------------------------------------------------------------------------


async def test_a_student_sees_their_own_progress_privately_with_both_pictures(standin,
                                                                              start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    await seed_ana(bot, standin, ana, sam)

    record = await standin.slash(ana, "progress")
    assert record.deferred and record.ephemeral
    embeds = record.reply.embeds
    assert embeds[0]["title"] == "Ana's progress"
    rating = (await bot.db.players.rating(standin.guild.id, ana.id, "digits")).rating
    assert fields(record) == {
        "Focus level": "Level 3",
        "Daily challenge": "Current streak 2 · best 2",
        "Focus answers": "5 answers in the last 12 weeks, 60% right",
        "The 20 Digits": f"Rating {round(rating.rating)} ± {round(rating.rd)} · won 1, lost 0, "
                         "drawn 0",
        "Rithmomachia": UNRATED,
    }
    assert embeds[0]["image"]["url"] == "attachment://progress.png"
    assert embeds[1]["image"]["url"] == "attachment://streak.png"

    day = lambda n: (TODAY - timedelta(days=n)).isoformat()  # noqa: E731
    chart = images.render_progress(
        [{"date": day(3), "topic": "multiplication", "correct": 1, "total": 2},
         {"date": day(1), "topic": "addition", "correct": 2, "total": 3}],
        EN, title="Ana: accuracy by topic")
    # Ana's first day here is her first daily challenge, five days ago (her player row was
    # made with the answers, today): the days before it are not drawn as missed.
    calendar = images.render_streak([TODAY - timedelta(days=n) for n in (5, 2, 1)], 2, TODAY,
                                    EN, weeks=12, best=2, title="Ana: daily challenges",
                                    first_day=TODAY - timedelta(days=5))
    # The mastery map: "6 × 7" answered six times (3 s: fast), wrong last (familiar, due now);
    # addition at level 2 proficient then wrong (familiar), multiplication right then wrong.
    map_data = {"title": "Ana: mastery map", "facts": {"6*7": 2}, "skills": [
        {"skill": "addition", "level": 2, "mastery": 2},
        {"skill": "multiplication", "level": 2, "mastery": 1}]}
    mastery = images.render_mastery(map_data, EN)
    assert pictures(record) == {"progress.png": chart, "streak.png": calendar,
                                "mastery.png": mastery}
    assert embeds[2]["image"]["url"] == "attachment://mastery.png"
    assert embeds[2]["fields"] == [{"name": "Mastery", "inline": True, "value":
                                    "Table facts mastered: 0 of 110 · due for review: 1"}]


def test_the_answers_counted_start_with_the_calendars_first_monday():
    # Twelve weeks shown: this one (Monday 30 November to Sunday 6 December) and eleven before.
    assert calendar_start(date(2026, 11, 30)) == date(2026, 9, 14)
    assert calendar_start(date(2026, 12, 6)) == date(2026, 9, 14)
    assert calendar_start(date(2026, 12, 7)) == date(2026, 9, 21)


async def test_a_newcomers_progress_says_there_is_nothing_yet(standin, start_bot):
    await start_bot()
    léa = standin.add_member("Léa")
    record = await standin.slash(léa, "progress")
    assert fields(record) == {
        "Focus level": "Level 1",
        "Daily challenge": "Current streak 0 · best 0",
        "Focus answers": "No answers in the last 12 weeks: try /focus practice.",
        "The 20 Digits": UNRATED,
        "Rithmomachia": UNRATED,
    }
    assert pictures(record)["progress.png"] == images.render_progress(
        [], EN, title="Léa: accuracy by topic")


async def test_the_level_shown_is_the_pinned_one_or_within_the_servers_range(standin,
                                                                             start_bot):
    bot = await start_bot()
    ana = standin.add_member("Ana")
    await bot.db.players.set_focus_level(standin.guild.id, ana.id, 7)
    await bot.db.servers.update(standin.guild.id, focus_level_max=5)
    assert fields(await standin.slash(ana, "progress"))["Focus level"] == "Level 5"
    await bot.db.servers.update(standin.guild.id, focus_level_pinned=2)
    assert fields(await standin.slash(ana, "progress"))["Focus level"] == (
        "Level 2, set by the teacher for everyone")


async def test_another_members_progress_is_refused_to_a_student_and_shown_to_a_teacher(
        standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    léa = standin.add_member("Léa", locale="fr")
    await seed_ana(bot, standin, ana, sam)

    refused = await standin.slash(léa, "progrès", membre=ana)
    assert refused.reply.content == (
        "Seuls les professeurs peuvent voir les progrès d'un autre membre. Utilise /progrès sans "
        "membre pour voir les tiens.")
    assert refused.ephemeral and not refused.reply.attachments

    teacher = standin.add_member("Mme Roux", teacher=True)
    seen = await standin.slash(teacher, "progress", member=ana)
    assert seen.ephemeral and seen.reply.embeds[0]["title"] == "Ana's progress"
    assert fields(seen)["Focus answers"] == "5 answers in the last 12 weeks, 60% right"
    assert set(pictures(seen)) == {"progress.png", "streak.png", "mastery.png"}

    # A teachers' role (/settings teachers add) is enough too.
    maths = standin.add_role("Maths")
    colleague = standin.add_member("M. Petit", roles=[maths])
    assert (await standin.slash(colleague, "progress", member=ana)).reply.content.startswith(
        "Only teachers")
    await bot.db.servers.set_admin_roles(standin.guild.id, [maths.id])
    assert (await standin.slash(colleague, "progress", member=ana)).reply.embeds[0][
        "title"] == "Ana's progress"


async def test_progress_in_french(standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana", locale="fr"), standin.add_member("Sam")
    await seed_ana(bot, standin, ana, sam)
    record = await standin.slash(ana, "progrès")
    assert record.reply.embeds[0]["title"] == "Les progrès d'Ana"  # elided: a vowel
    shown = fields(record)
    assert shown["Réponses de Focus"] == "5 réponses ces 12 dernières semaines, 60\u00a0% justes"
    assert shown["Défi du jour"] == fr("Série en cours : 2 · record : 2")
    assert shown["Rithmomachie"] == (
        fr("Tu n'as pas encore de score de joueur : il se calcule avec tes parties contre un "
        "autre membre."))
    assert pictures(record)["streak.png"] == images.render_streak(
        [TODAY - timedelta(days=n) for n in (5, 2, 1)], 2, TODAY, FR, weeks=12, best=2,
        title=fr("Ana : défis du jour"), first_day=TODAY - timedelta(days=5))


# --- /leaderboard ---------------------------------------------------------------------------


async def board(bot, game, guild):
    return await bot.db.players.leaderboard(guild, game, limit=100)


async def test_the_digits_leaderboard_ranks_by_rating_publicly(standin, start_bot):
    bot = await start_bot()
    guild = standin.guild.id
    ana, sam, léa = (standin.add_member(n) for n in ("Ana", "Sam", "Léa"))
    await bot.db.players.record_game(guild, "digits", ana.id, sam.id, 1.0)
    await bot.db.players.record_game(guild, "digits", ana.id, léa.id, 1.0)
    await bot.db.players.record_game(guild, "digits", sam.id, léa.id, 0.5)
    await bot.db.players.record_game(guild, "rithmo", léa.id, sam.id, 1.0)  # another game

    record = await standin.slash(sam, "leaderboard", game="digits")
    assert record.deferred and not record.ephemeral
    assert record.reply.content == "The 20 Digits: ratings"
    ratings = await board(bot, "digits", guild)
    names = {ana.id: "Ana", sam.id: "Sam", léa.id: "Léa"}
    assert ratings[0].user_id == ana.id
    rows = [{"rank": r.rank, "name": names[r.user_id], "score": round(r.rating),
             "time": str(r.games)} for r in ratings]
    assert record.reply.attachments[0].data == images.render_leaderboard(
        rows, EN, title="The 20 Digits: ratings", highlight="Sam",
        columns=("Rating", "Games"))
    assert standin.last_message() is record.reply


async def test_the_rithmo_leaderboard_shows_the_member_below_the_top_ten(standin, start_bot):
    bot = await start_bot()
    guild = standin.guild.id
    me = standin.add_member("Zoé")
    others = [standin.add_member(f"Player {n}") for n in range(11)]
    for other in others:
        await bot.db.players.record_game(guild, "rithmo", other.id, me.id, 1.0)
    # A rated player who has left the server.
    await bot.db.players.record_game(guild, "rithmo", 4242, others[0].id, 1.0)

    record = await standin.slash(me, "leaderboard", game="rithmo")
    ratings = await board(bot, "rithmo", guild)
    assert ratings[-1].user_id == me.id and len(ratings) == 13
    names = {o.id: o.name for o in others} | {me.id: "Zoé", 4242: "(left the server)"}
    rows = [{"rank": r.rank, "name": names[r.user_id], "score": round(r.rating),
             "time": str(r.games)} for r in ratings]
    shown = [*rows[:10], rows[-1]]
    assert record.reply.attachments[0].data == images.render_leaderboard(
        shown, EN, title="Rithmomachia: ratings", highlight="Zoé", limit=10,
        columns=("Rating", "Games"))


async def test_the_daily_leaderboard_is_todays_by_score_then_time(standin, start_bot):
    bot = await start_bot()
    guild = standin.guild.id
    ana, sam, léa = (standin.add_member(n) for n in ("Ana", "Sam", "Léa"))
    await finish_daily(bot.db, guild, ana.id, TODAY, score=5, seconds=40.5)
    await finish_daily(bot.db, guild, sam.id, TODAY, score=6, seconds=71.0)
    await finish_daily(bot.db, guild, léa.id, TODAY - timedelta(days=1), score=6, seconds=9.0)

    record = await standin.slash(léa, "leaderboard", game="focus-daily")
    assert record.reply.content == "Focus: today's daily challenge"
    rows = [{"rank": 1, "name": "Sam", "score": 6, "time": 71.0},
            {"rank": 2, "name": "Ana", "score": 5, "time": 40.5}]
    assert record.reply.attachments[0].data == images.render_leaderboard(
        rows, EN, title="Focus: today's daily challenge", date=TODAY, out_of=ROUND_SIZE)


async def test_the_streaks_leaderboard_in_french(standin, start_bot):
    bot = await start_bot()
    guild = standin.guild.id
    ana, sam = standin.add_member("Ana", locale="fr"), standin.add_member("Sam")
    for days_ago in (3, 2, 1):
        await finish_daily(bot.db, guild, ana.id, TODAY - timedelta(days=days_ago))
    await finish_daily(bot.db, guild, sam.id, TODAY)
    await finish_daily(bot.db, guild, sam.id, TODAY - timedelta(days=9))

    record = await standin.slash(ana, "classement", jeu="focus-streaks")
    assert record.reply.content == fr("Focus : séries du défi du jour")
    rows = [{"rank": 1, "name": "Ana", "score": 3, "time": "3"},
            {"rank": 2, "name": "Sam", "score": 1, "time": "1"}]
    assert record.reply.attachments[0].data == images.render_leaderboard(
        rows, FR, title=fr("Focus : séries du défi du jour"), date=TODAY, highlight="Ana",
        columns=("Série", "Record"))


async def test_an_empty_leaderboard_says_nobody_has_played(standin, start_bot):
    await start_bot()
    ana = standin.add_member("Ana")
    record = await standin.slash(ana, "leaderboard", game="digits")
    assert record.reply.attachments[0].data == images.render_leaderboard(
        [], EN, title="The 20 Digits: ratings", columns=("Rating", "Games"))


async def test_progress_and_leaderboard_are_synced_with_french_names(standin, start_bot):
    await start_bot()
    synced = {c["name"]: c for c in standin.commands[standin.guild.id]}
    assert synced["progress"]["name_localizations"] == {"fr": "progrès"}
    assert synced["leaderboard"]["name_localizations"] == {"fr": "classement"}
    assert synced["progress"]["options"][0]["name_localizations"] == {"fr": "membre"}
    game = synced["leaderboard"]["options"][0]
    assert [(c["value"], c["name_localizations"]["fr"]) for c in game["choices"]] == [
        ("digits", "Les 20 chiffres"), ("rithmo", "Rithmomachie"),
        ("focus-daily", fr("Focus : le défi du jour")),
        ("focus-streaks", fr("Focus : séries du défi du jour"))]
