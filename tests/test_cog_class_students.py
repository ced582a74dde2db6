"""``/class student`` end to end through the stand-in with the real bot: a student's own settings
set, shown and undone (English, French), refused to students and when invalid (nothing changed),
and applied: the pinned level and the range in practice, the pin in a match's Focus, /progress,
extra time on the idle window, anonymous and hidden students in the public rankings."""

from __future__ import annotations

import asyncio
import random
import re
from datetime import UTC, datetime
from typing import Any

import pytest
from test_cog_digits import duel, match_id_of

import images
from bot.domain import DomainError
from bot.focus import ROUND_SIZE, generate_questions
from bot.i18n import image_words, t
from bot.local.server import User
from bot.play.digits import focus_questions
from bot.play.students import (
    changed_settings,
    focus_rules,
    match_level,
    public_rows,
    rank_daily,
)
from bot.ui.focus import daily_key
from bot.ui.focus_run import get_run, question_level_text
from db import DailyRow, ServerSettings
from db.students import StudentSettings
from tests.focus_helpers import answer_round_right

SEED = 42
EN, FR = image_words("en"), image_words("fr")


async def until_followed_up(record: Any, timeout: float = 5.0) -> None:
    """Until the answer's private follow-up came (sent after a database read, which a loaded
    machine or PostgreSQL may make longer than the stand-in's idle wait)."""
    async with asyncio.timeout(timeout):
        while not record.followups:
            await asyncio.sleep(0.005)


def fields(record) -> dict[str, str]:
    return {f["name"]: f["value"] for f in record.reply.embeds[0]["fields"]}


async def focus_bot(start_bot):
    bot = await start_bot()
    bot.get_cog("Focus").flow.seed = lambda: SEED
    return bot


async def answer(standin, member, message, typed: str):
    opened = await standin.click(member, message, label="Answer")
    assert opened.modal is not None
    return await standin.submit_modal(member, opened, {"answer": typed})


async def finish_daily(db, guild, user, day, score, seconds):
    await db.daily.create(guild, day, [])
    await db.daily.start_attempt(guild, day, user)
    await db.daily.finish_attempt(guild, day, user, score=score, time_ms=int(seconds * 1000))


# --- Setting and showing --------------------------------------------------------------------


async def test_a_teacher_sets_shows_and_undoes_a_students_settings(standin, start_bot):
    bot = await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    ana = standin.add_member("Ana")
    guild = standin.guild.id

    shown = await standin.slash(head, "class student", member=ana)
    assert shown.ephemeral and shown.reply.content == ""
    assert shown.reply.embeds[0]["title"] == "Ana: their own settings"
    assert fields(shown) == {
        "Focus level (practice and matches)": (
            "As the server: their level adapts between 1 and 8\nTheir level now: 1.\n"
            "In matches: the match's levels, rising round after round.\n"
            "The daily challenge stays the same for everyone."),
        "Extra time": "None: the usual time",
        "Rankings": "Shown by name"}
    assert shown.reply.embeds[0]["footer"]["text"] == (
        "/settings stays for the whole server; what is set here wins over it for this student.")

    await bot.db.servers.update(guild, focus_level_max=6)
    changed = await standin.slash(head, "class student", member=ana, level="3",
                                  extra_time="x1.5", rankings="anonymous")
    assert changed.ephemeral
    assert changed.reply.content == "Saved for Ana. Here is what applies to them now."
    assert fields(changed)["Focus level (practice and matches)"] == (
        "Level 3 (pinned for this student)\n"
        "The server lets students move between levels 1 and 6.\nTheir level now: 3.\n"
        "In matches: level 3 in every round.\n"
        "The daily challenge stays the same for everyone.")
    assert fields(changed)["Extra time"].startswith("×1.5 in live rounds")
    assert "wait 15 minutes instead of 10" in fields(changed)["Extra time"]
    assert fields(changed)["Rankings"].startswith("Shown as “a student”")
    stored = await bot.db.students.get(guild, ana.id)
    assert (stored.level_pinned, stored.extra_time, stored.rankings) == (3, "x1.5", "anonymous")

    # Shown again, nothing changed; then each thing undone by its own choice.
    again = await standin.slash(head, "class student", member=ana)
    assert again.reply.content == "" and fields(again) == fields(changed)
    ranged = await standin.slash(head, "class student", member=ana, level="server",
                                 min_level="2", max_level="4", extra_time="normal",
                                 rankings="shown")
    assert fields(ranged)["Focus level (practice and matches)"].startswith(
        "Between levels 2 and 4 for this student: their level adapts within\n"
        "The server lets students move between levels 1 and 6.\nTheir level now: 2.\n"
        "In matches: the match's levels, kept between 2 and 4.")
    assert fields(ranged)["Extra time"] == "None: the usual time"
    stored = await bot.db.students.get(guild, ana.id)
    assert (stored.level_pinned, stored.level_min, stored.level_max, stored.extra_time,
            stored.rankings) == (None, 2, 4, None, None)
    reset = await standin.slash(head, "class student", member=ana, reset=True)
    assert fields(reset)["Focus level (practice and matches)"].startswith(
        "As the server: their level adapts between 1 and 6")
    assert (await bot.db.students.get(guild, ana.id)).is_default
    assert await bot.db.students.of_server(guild) == {}


async def test_a_french_teacher_reads_it_in_french(standin, start_bot):
    bot = await start_bot()
    prof = standin.add_member("Mme Roux", teacher=True, locale="fr")
    léa = standin.add_member("Léa", locale="fr")
    await bot.db.servers.update(standin.guild.id, focus_level_pinned=4)
    record = await standin.slash(prof, "classe élève", membre=léa, niveau_min="2",
                                 temps_en_plus="untimed", classements="hidden")
    assert record.reply.content == "Enregistré pour Léa. Voici ce qui s'applique maintenant."
    assert record.reply.embeds[0]["title"] == "Léa : ses réglages à lui"
    assert fields(record) == {
        "Niveau de Focus (entraînement et parties)": (
            "Entre les niveaux 2 et 8 pour cet élève : son niveau s'adapte entre les deux\n"
            "Le serveur fixe le niveau 4 pour tous.\nSon niveau actuel : 2.\n"
            "Dans les parties : les niveaux de la partie, gardés entre 2 et 8.\n"
            "Le défi du jour reste le même pour tous."),
        "Temps en plus": (
            "Sans chronomètre : dans les manches en direct, il répond sans compte à rebours "
            "(sans perdre de points de vitesse) ; les fenêtres d'entraînement, de partie et du "
            "défi du jour attendent une heure ; au défi du jour, son temps n'est pas comparé (il "
            "est classé avec le plus rapide de son score)"),
        "Classements": "Absent de /classement, de /focus classement et des classements en direct"}
    assert record.reply.embeds[0]["footer"]["text"] == (
        "/réglages reste pour tout le serveur ; ce qui est réglé ici l'emporte pour cet élève.")
    command = next(c for c in standin.commands[standin.guild.id] if c["name"] == "class")
    student = next(o for o in command["options"] if o["name"] == "student")
    assert student["name_localizations"] == {"fr": "élève"}
    level = next(o for o in student["options"] if o["name"] == "level")
    assert level["choices"][-1] == {"name": "As the server", "value": "server",
                                    "name_localizations": {"fr": "Comme le serveur"}}


async def test_a_student_cannot_set_anyones_settings(standin, start_bot):
    bot = await start_bot()
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    refused = await standin.slash(ana, "class student", member=ana, extra_time="x2")
    assert refused.ephemeral
    assert refused.reply.content.startswith("Only teachers can see or change a student's settings")
    refused = await standin.slash(sam, "class student", member=ana)
    assert refused.reply.content.startswith("Only teachers")
    assert await bot.db.students.of_server(standin.guild.id) == {}


async def test_invalid_settings_are_refused_with_the_reason_and_change_nothing(standin,
                                                                              start_bot):
    bot = await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    ana = standin.add_member("Ana")
    guild = standin.guild.id
    await standin.slash(head, "class student", member=ana, min_level="3", rankings="hidden")
    before = await bot.db.students.get(guild, ana.id)

    reversed_ = await standin.slash(head, "class student", member=ana, max_level="2",
                                    extra_time="x2")
    assert reversed_.ephemeral
    assert reversed_.reply.content == (
        "The lowest level (3) would be above the highest (2). Nothing was changed.")
    outside = await standin.slash(head, "class student", member=ana, max_level="5", level="7")
    assert outside.reply.content == (
        "Level 7 is outside this student's own range (3 to 5): change the range too, or pin a "
        "level within it. Nothing was changed.")
    assert await bot.db.students.get(guild, ana.id) == before

    french = standin.add_member("M. Petit", teacher=True, locale="fr")
    refused = await standin.slash(french, "classe élève", membre=ana, niveau_min="6",
                                  niveau_max="4")
    assert refused.reply.content == (
        "Le niveau le plus bas (6) serait au-dessus du plus haut (4). Rien n'a été changé.")
    assert await bot.db.students.get(guild, ana.id) == before


def test_the_checks_refuse_what_a_modified_client_may_send() -> None:
    current = StudentSettings(1, 2, level_min=3)
    for options in ({"level": "9"}, {"min_level": "0"}, {"max_level": "²"},
                    {"level": "three"}):
        with pytest.raises(DomainError) as refused:
            changed_settings(current, **options)
        assert refused.value.code == "class.student.bad_level"
    for options in ({"extra_time": "x3"}, {"rankings": "secret"}):
        with pytest.raises(DomainError) as refused:
            changed_settings(current, **options)
        assert refused.value.code == "class.student.bad_choice"
    reset = changed_settings(current, reset=True, level="5")
    assert (reset.level_min, reset.level_pinned) == (None, 5)


# --- The levels applied -------------------------------------------------------------------


def test_a_students_own_levels_win_over_the_servers() -> None:
    server = ServerSettings(1, focus_level_min=2, focus_level_max=5, focus_level_pinned=4)
    assert focus_rules(server).pinned == 4
    own = focus_rules(server, StudentSettings(1, 2, level_pinned=7))
    assert (own.low, own.high, own.pinned, own.own) == (7, 7, 7, True)
    ranged = focus_rules(server, StudentSettings(1, 2, level_min=3))
    assert (ranged.low, ranged.high, ranged.pinned) == (3, 5, None)  # the server's ceiling
    above = focus_rules(server, StudentSettings(1, 2, level_min=7))
    assert (above.low, above.high) == (7, 7)  # their floor wins over the server's ceiling
    assert match_level(1, StudentSettings(1, 2, level_min=3)) == 3
    assert match_level(6, StudentSettings(1, 2, level_max=4)) == 4
    assert match_level(6, StudentSettings(1, 2)) == 6 == match_level(6, None)


async def test_a_pinned_level_is_honoured_in_practice_and_progress(standin, start_bot, clock):
    await focus_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    ana, sam = standin.add_member("Ana"), standin.add_member("Sam")
    await standin.slash(head, "class student", member=ana, level="4")
    window = (await standin.slash(ana, "focus practice")).reply
    assert f"{generate_questions(4, 6, random.Random(SEED))[0].text} = ?" in window.text()
    assert question_level_text(generate_questions(4, 6, random.Random(SEED))[0], "en") \
        in window.text()
    refused = await standin.slash(ana, "focus practice", level=2)
    assert refused.reply.content == "Your teacher has set your Focus level to 4."
    others = (await standin.slash(sam, "focus practice")).reply  # the others: as before
    assert "Level 1 · Sums within 20" in others.text()
    progress = await standin.slash(ana, "progress")
    assert fields(progress)["Focus level"] == "Level 4, set by the teacher for you"


async def test_the_adaptive_level_moves_within_the_students_range(standin, start_bot, clock):
    bot = await focus_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    ana = standin.add_member("Ana")
    guild = standin.guild.id
    await standin.slash(head, "class student", member=ana, min_level="2", max_level="2")
    out = await standin.slash(ana, "focus practice", level=3)
    assert out.reply.content == ("Level 3 is not open to you: your teacher set your levels "
                                 "from 2 to 2.")
    window = (await standin.slash(ana, "focus practice")).reply
    assert question_level_text(generate_questions(2, 6, random.Random(SEED))[0], "en") \
        in window.text()
    for question in generate_questions(2, 6, random.Random(SEED)):
        await answer(standin, ana, window, str(question.answer))
    assert "Next round: Level 2" in window.text()  # all right, yet kept at their ceiling
    assert (await bot.db.players.get(guild, ana.id)).focus_level == 2
    # Their range moved up: the adaptive level follows from their floor.
    await standin.slash(head, "class student", member=ana, min_level="3", max_level="5")
    window = (await standin.slash(ana, "focus practice")).reply
    assert re.search(r"Level 3 · (Sums|Differences) within 100|Level 3 · Tables of 2 to 5",
                     window.text())
    # Up once every skill of level 3 is proficient (its mastery): two rounds all right.
    await answer_round_right(standin, ana, window)
    assert "Next round: Level 3 again." in window.text()
    await standin.click(ana, window, label="Another round")
    await answer_round_right(standin, ana, window)
    assert "Next round: Level 4: well done, one level up!" in window.text()
    progress = await standin.slash(ana, "progress")
    assert fields(progress)["Focus level"] == "Level 4"


async def test_a_pinned_level_is_the_level_of_a_matchs_focus(standin, start_bot):
    bot, ana, sam, board = await duel(standin, start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    await standin.slash(head, "class student", member=ana, level="6", extra_time="x1.5")
    match_id = match_id_of(board)
    engine = (await bot.db.digits.require_match(match_id)).state["engine"]
    student = await bot.db.students.get(standin.guild.id, ana.id)
    pinned = focus_questions(engine["seed"], engine["round"], str(ana.id), student)
    assert {q.level for q in pinned} == {6}
    window = (await standin.click(ana, board, label="Take my Focus")).reply
    assert f"{pinned[0].text} = ?" in window.text() and "Level 6 ·" in window.text()
    run = get_run(bot, f"digits:{match_id}:1:{ana.id}")
    assert run is not None and run.window == 900.0  # their extra time: 15 minutes, not 10
    usual = focus_questions(engine["seed"], engine["round"], str(sam.id))
    theirs = (await standin.click(sam, board, label="Take my Focus")).reply
    assert f"{usual[0].text} = ?" in theirs.text() and "Level 1 ·" in theirs.text()
    assert get_run(bot, f"digits:{match_id}:1:{sam.id}").window == 600.0


# --- Extra time ---------------------------------------------------------------------------


async def test_extra_time_widens_the_idle_window(standin, start_bot, clock):
    await focus_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    ana, sam, zoé = (standin.add_member(n) for n in ("Ana", "Sam", "Zoé"))
    await standin.slash(head, "class student", member=ana, extra_time="x2")
    await standin.slash(head, "class student", member=zoé, extra_time="untimed")
    windows = {m.id: (await standin.slash(m, "focus practice")).reply for m in (ana, sam, zoé)}
    clock.now += 1100  # more than 10 minutes, less than 20
    usual = await standin.click(sam, windows[sam.id], label="Answer")
    assert usual.reply.content.startswith("This practice round has expired")
    assert (await standin.click(ana, windows[ana.id], label="Answer")).modal is not None
    clock.now += 1100  # their window started again at the click: 20 minutes from it
    assert (await standin.click(ana, windows[ana.id], label="Answer")).modal is not None
    clock.now += 1201
    late = await standin.click(ana, windows[ana.id], label="Answer")
    assert late.reply.content.startswith("This practice round has expired")
    assert (await standin.click(zoé, windows[zoé.id], label="Answer")).modal is not None


def test_extra_time_never_ranks_a_student_down_in_the_daily_challenge() -> None:
    rows = [DailyRow(1, 10, 6, 30_000), DailyRow(2, 11, 6, 40_000), DailyRow(3, 12, 6, 90_000),
            DailyRow(4, 13, 5, 10_000), DailyRow(5, 14, 5, 99_000)]
    own = {11: StudentSettings(1, 11, extra_time="x2"),  # 40 s counts as 20 s
           12: StudentSettings(1, 12, extra_time="untimed"),  # ties with the fastest 6: 11
           14: StudentSettings(1, 14, extra_time="untimed")}
    ranked = rank_daily(rows, own)
    assert [(r.rank, r.user_id, r.time_ms) for r in ranked] == [
        (1, 11, 40_000), (1, 12, 90_000), (3, 10, 30_000), (4, 13, 10_000), (4, 14, 99_000)]
    assert rank_daily(rows, {}) == rows


# --- Rankings -----------------------------------------------------------------------------


def test_hidden_students_leave_no_gap_and_ties_stay() -> None:
    rows = [DailyRow(1, 1, 6, 1), DailyRow(2, 2, 5, 1), DailyRow(2, 3, 5, 1),
            DailyRow(4, 4, 4, 1)]
    own = {2: StudentSettings(1, 2, rankings="hidden"),
           4: StudentSettings(1, 4, rankings="anonymous")}
    shown = public_rows(rows, own)
    assert [(p.rank, p.user_id, p.anonymous) for p in shown] == [
        (1, 1, False), (2, 3, False), (3, 4, True)]


async def test_anonymous_and_hidden_students_in_the_leaderboard(standin, start_bot):
    bot = await start_bot()
    guild = standin.guild.id
    head = standin.add_member("Mme Roux", teacher=True)
    ana, sam, léa, zoé = (standin.add_member(n) for n in ("Ana", "Sam", "Léa", "Zoé"))
    today = datetime.now(UTC).date()
    for member, score, seconds in ((ana, 6, 20.0), (sam, 6, 25.0), (léa, 5, 30.0),
                                   (zoé, 4, 10.0)):
        await finish_daily(bot.db, guild, member.id, today, score, seconds)
    await standin.slash(head, "class student", member=ana, rankings="hidden")
    await standin.slash(head, "class student", member=léa, rankings="anonymous")

    record = await standin.slash(zoé, "leaderboard", game="focus-daily")
    assert not record.ephemeral
    rows = [{"rank": 1, "name": "Sam", "score": 6, "time": 25.0},
            {"rank": 2, "name": "a student", "score": 5, "time": 30.0},
            {"rank": 3, "name": "Zoé", "score": 4, "time": 10.0}]
    assert record.reply.attachments[0].data == images.render_leaderboard(
        rows, EN, title="Focus: today's daily challenge", date=today, highlight="Zoé",
        out_of=ROUND_SIZE)

    # The anonymous student asking: the picture does not frame them; their place, privately.
    asked = await standin.slash(léa, "leaderboard", game="focus-daily")
    assert asked.reply.attachments[0].data == images.render_leaderboard(
        rows, EN, title="Focus: today's daily challenge", date=today, out_of=ROUND_SIZE)
    await until_followed_up(asked)
    [private] = asked.followups
    assert private.ephemeral_to == léa.id
    assert private.content == ("Only you see this: you are number 3 in this ranking, where the "
                               "others see you as “a student”.")

    # /focus leaderboard, asked by the hidden student, in public: left out, told privately.
    bot.get_cog("Focus").flow.now = lambda: datetime.now(UTC)
    shown = await standin.slash(ana, "focus leaderboard", show=True)
    assert not shown.ephemeral
    daily_rows = [{"rank": 1, "name": "Sam", "score": 6, "time": 25.0},
                  {"rank": 2, "name": "a student", "score": 5, "time": 30.0},
                  {"rank": 3, "name": "Zoé", "score": 4, "time": 10.0}]
    assert shown.reply.attachments[0].data == images.render_leaderboard(
        daily_rows, EN, None, today, None, 10, ROUND_SIZE)
    await until_followed_up(shown)
    [told] = shown.followups
    assert told.ephemeral_to == ana.id and told.content == (
        "Only you see this: you are number 1 in this ranking, which the others see without you.")


async def test_an_anonymous_student_in_french_rankings(standin, start_bot):
    bot = await start_bot()
    guild = standin.guild.id
    prof = standin.add_member("Mme Roux", teacher=True, locale="fr")
    ana, sam = standin.add_member("Ana", locale="fr"), standin.add_member("Sam", locale="fr")
    for winner in (ana, ana):
        await bot.db.players.record_game(guild, "rithmo", winner.id, sam.id, 1.0)
    await standin.slash(prof, "classe élève", membre=ana, classements="anonymous")
    record = await standin.slash(sam, "classement", jeu="rithmo")
    ratings = await bot.db.players.leaderboard(guild, "rithmo", limit=10)
    rows = [{"rank": r.rank, "name": "un élève" if r.user_id == ana.id else "Sam",
             "score": round(r.rating), "time": str(r.games)} for r in ratings]
    assert record.reply.attachments[0].data == images.render_leaderboard(
        rows, FR, title=record.reply.content, highlight="Sam",
        columns=(t("progress.board.rating", "fr"), t("progress.board.games", "fr")))


async def test_a_bot_has_no_student_settings(standin, start_bot):
    bot = await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    robot = User(987_654_321_012, "Robo", bot=True)
    standin.users[robot.id] = robot
    member = standin.add_member("Robo", user=robot)
    refused = await standin.slash(head, "class student", member=member, extra_time="x2")
    assert refused.ephemeral
    assert refused.reply.content == "Robo is a bot: settings are for students."
    assert await bot.db.students.of_server(standin.guild.id) == {}


async def test_an_anonymous_student_reads_their_place_in_their_own_daily_leaderboard(
        standin, start_bot):
    bot = await start_bot()
    guild = standin.guild.id
    prof = standin.add_member("Mme Roux", teacher=True)
    léa, sam = standin.add_member("Léa", locale="fr"), standin.add_member("Sam")
    today = datetime.now(UTC).date()
    await finish_daily(bot.db, guild, sam.id, today, 6, 25.0)
    await finish_daily(bot.db, guild, léa.id, today, 6, 40.0)
    await standin.slash(prof, "class student", member=léa, rankings="anonymous",
                        extra_time="x2")  # 40 s count as 20 s: first
    record = await standin.slash(léa, "focus classement")
    assert record.ephemeral
    assert record.reply.content.endswith(
        "Toi seul vois ceci : tu es numéro 1 de ce classement, où les autres te voient comme "
        "« un élève ».")
    rows = [{"rank": 1, "name": "un élève", "score": 6, "time": 40.0},
            {"rank": 2, "name": "Sam", "score": 6, "time": 25.0}]
    assert record.reply.attachments[0].data == images.render_leaderboard(
        rows, FR, None, today, None, 10, ROUND_SIZE)


async def test_no_timer_keeps_a_daily_attempt_open_an_hour(standin, start_bot, clock):
    bot = await start_bot()
    head = standin.add_member("Mme Roux", teacher=True)
    ana = standin.add_member("Ana")
    await standin.slash(head, "class student", member=ana, extra_time="untimed")
    window = (await standin.slash(ana, "focus daily")).reply
    today = bot.get_cog("Focus").flow.now().date()
    run = get_run(bot, daily_key(standin.guild.id, today, ana.id))
    assert run is not None and run.window == 3600.0
    clock.now += 3500
    assert (await standin.click(ana, window, label="Answer")).modal is not None


async def test_another_round_waits_as_long_as_the_round_did(standin, start_bot, clock):
    await focus_bot(start_bot)
    head = standin.add_member("Mme Roux", teacher=True)
    ana = standin.add_member("Ana")
    await standin.slash(head, "class student", member=ana, extra_time="x1.5")
    window = (await standin.slash(ana, "focus practice")).reply
    for question in generate_questions(1, 6, random.Random(SEED)):
        await answer(standin, ana, window, str(question.answer))
    clock.now += 850  # 10 minutes would be over, 15 are not
    again = await standin.click(ana, window, label="Another round")
    assert again.reply is window and "question 1/6" in window.text()
