"""A member's erasure and export (``python -m db delete-player`` / ``export-player``) on a database
the real bot filled through the stand-in: the member plays a duel and a solo match of The 20
Digits (and their slate is the ghost another member meets), a Rithmomachia game, the daily
Rithmomachia puzzle, a daily challenge, answers a teacher's live rounds (one running itself, with
the extra time a teacher set for them in their own settings) and runs live rounds of their own,
takes a teacher's assignments (one finished, one begun), and as a teacher uploads a question set
and sets an assignment from it that another member takes. Their answers are in the class report's
rollups.

After the delete, no column of any table (found from ``sqlite_master``, or PostgreSQL's catalogue
on its run, so a future table is scanned too) holds the member's id or display name; the others'
games still load and go on; the
class report, the assignments' reports and the live round's report still work for the teacher
and show nothing of the member; the export holds every row the delete removed or changed.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import random
import sqlite3
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from test_cog_digits import act, match_id_of, take_focus
from test_cog_focus_live import FakeWall, answer, prepare
from test_cog_rithmo import opening_with_a_capture, play, start_game

from bot.digits.match import Match
from bot.focus import TOPICS, generate_questions
from bot.local import StandIn
from bot.local.server import Member, Message
from bot.play.digits import StoredMatch
from bot.play.rithmo_puzzles import puzzle_seed
from bot.rithmo.puzzles import generate
from bot.ui.digits import side_name
from db import Database
from db.__main__ import main as cli
from db.question_sets import SetItem

# Distinctive enough that a hit in the scan is the member and nothing else.
NAME = "Zéphyrine Quarkwood"
DAY = date(2026, 11, 30)
SEED = 7  # the live rounds' questions (test_cog_focus_live's)
# The assignments' clock and draw (test_cog_class_assign's).
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
DUE = "2026-12-08 18:00"
ASSIGNMENT_SEED = 11
DO = "Do the assignment"
DOUBLES = b"question,answer\n2 x 4,8\n3 x 5,15\n6 x 2,12\n"


@dataclass
class World:
    bot: Any
    path: Path | str  # the SQLite file, or the PostgreSQL URL
    zed: Member  # the member who asks to be forgotten
    bob: Member
    ana: Member
    roux: Member  # a teacher
    duel: int  # Zed against Bob, finished
    bob_solo: int  # Bob's solo match: he met Zed's ghost at round 1 and plays on
    zed_solo: int  # Zed's own solo match, unfinished
    roux_live: Message  # Roux's live round, Zed and Ana answered question 1 of 2
    zed_live: Message  # a live round Zed runs, still open
    wall: FakeWall
    auto_final: Message  # the final ranking of Roux's self-running round (its report button)
    auto_live_id: int
    still_live: Message  # another of Roux's, its question 1 held open by Zed's extra time
    still_live_id: int
    zed_tables: Message  # Zed's window of Roux's "Tables", left after one answer of three


async def take_assignment(standin: StandIn, bot: Any, member: Member, post: Message, name: str,
                          answered: int | None = None) -> Message:
    """The member clicks the post's button and answers ``answered`` questions (all: right but the
    last); the window."""
    found = await bot.db.assignments.get(standin.guild.id, name)
    assert found is not None
    typed = [q["answer"] for q in found.questions[:-1]] + [found.questions[-1]["answer"] + 1]
    window = (await standin.click(member, post, label=DO)).reply
    for value in typed[:answered]:
        [button] = window.buttons()
        opened = await standin.click(member, window, button["custom_id"])
        await standin.submit_modal(member, opened, {"answer": str(value)})
    return window


async def ready_battle(standin: StandIn, after: Message, who: str) -> Message:
    return await standin.wait_for_message(
        lambda m: bool(m.attachments) and who in m.text(), after=after)


def board_of(standin: StandIn, match_id: int) -> Message:
    """The latest public message with this match's buttons."""
    for message in reversed(standin.channel_messages()):
        try:
            if match_id_of(message) == match_id:
                return message
        except AssertionError:
            continue
    raise AssertionError(f"no board of match {match_id}")


async def populate(standin: StandIn, start_bot: Any) -> World:
    bot = await start_bot()
    wall = FakeWall()
    prepare(bot, wall)
    guild = standin.guild.id
    zed = standin.add_member(NAME, teacher=True)
    bob, ana = standin.add_member("Bob"), standin.add_member("Ana")
    roux = standin.add_member("Mme Roux", teacher=True)

    # A duel of one life: Zed fields a digit, Bob an empty slate; Zed wins, both are rated.
    await bot.db.servers.update(guild, match_lives=1)
    posted = await standin.slash(zed, "digits challenge", member=bob)
    board = (await standin.click(bob, posted.reply, label="Accept")).reply
    duel = match_id_of(board)
    zed_shop = await take_focus(standin, bot, zed, board)
    await act(standin, zed, zed_shop, "digits:buy:1")
    await act(standin, zed, zed_shop, "digits:ready")
    bob_shop = await take_focus(standin, bot, bob, board, right=0)
    await act(standin, bob, bob_shop, "digits:ready")
    await ready_battle(standin, board, "Bob")
    assert (await bot.db.digits.require_match(duel)).status == "finished"

    # Bob alone: the only other slate of round 1 on the server is Zed's, and he meets it.
    await bot.db.servers.update(guild, match_lives=3)
    bob_board = (await standin.slash(bob, "digits solo")).reply
    bob_solo = match_id_of(bob_board)
    bob_shop = await take_focus(standin, bot, bob, bob_board, right=2)
    await act(standin, bob, bob_shop, "digits:ready")
    battle = await ready_battle(standin, bob_board, "Bob")
    assert f"Ghost of {NAME}" in battle.text()
    bob_row = await bot.db.digits.require_match(bob_solo)
    assert bob_row.status == "active" and bob_row.state["names"][str(zed.id)] == NAME

    # Zed's own solo match, left in the middle of round 1.
    zed_board = (await standin.slash(zed, "digits solo")).reply
    zed_solo = match_id_of(zed_board)
    await take_focus(standin, bot, zed, zed_board, stop_after=3)

    # Rithmomachia: Zed (White) beats Ana.
    _, rithmo_board = await start_game(standin, zed, ana)
    white, black, capture = opening_with_a_capture()
    rithmo_board = await play(standin, zed, white, rithmo_board)
    rithmo_board = await play(standin, ana, black, rithmo_board)
    await play(standin, zed, capture, rithmo_board)

    # The day's Rithmomachia puzzle, answered right.
    today = datetime.now(UTC).date()
    puzzle = generate(puzzle_seed(guild, today))
    solved = await standin.slash(zed, "rithmo puzzle", answer=puzzle.solutions[0].turn)
    assert solved.reply.content.startswith("✅ Right!")

    # A daily challenge (through the repository: the post needs the cog's clock).
    await bot.db.daily.create(guild, DAY, [])
    await bot.db.daily.start_attempt(guild, DAY, zed.id)
    await bot.db.daily.finish_attempt(guild, DAY, zed.id, 3, 4000)

    # Live rounds: Roux's, answered by Zed and Ana; one Zed ran to the end; one Zed still runs.
    questions = generate_questions(4, 2, random.Random(SEED))
    roux_live = (await standin.slash(roux, "focus live", count=2, level=4, auto=False)).reply
    wall.now += 2.0
    await answer(standin, zed, roux_live, str(questions[0].answer))
    await answer(standin, ana, roux_live, str(questions[0].answer + 1))
    done_channel, open_channel = standin.add_channel("maths"), standin.add_channel("calcul")
    done = (await standin.slash(zed, "focus live", in_channel=done_channel, count=1, auto=False,
                                level=4)).reply
    await answer(standin, ana, done, "1")
    await standin.click(zed, done, label="Show the results")
    await standin.wait_for_message(channel=done_channel, after=done)
    zed_live = (await standin.slash(zed, "focus live", in_channel=open_channel, count=2, auto=False,
                                    level=4)).reply
    await answer(standin, ana, zed_live, "2")

    # Roux sets Zed's own settings: a pinned level, twice the time, anonymous in rankings.
    set_by = await standin.slash(roux, "class student", member=zed, level="3", extra_time="x2",
                                 rankings="anonymous")
    assert set_by.reply.content.startswith("Saved for")
    # Roux's self-running round: Zed answers after the usual 20 s, within their 40; Ana at once.
    [asked] = generate_questions(2, 1, random.Random(SEED))
    auto_channel = standin.add_channel("direct")
    auto = (await standin.slash(roux, "focus live", in_channel=auto_channel, count=1,
                                level=2)).reply
    auto_live_id = max(bot.get_cog("Focus").flow.live_timers())
    zed_modal = await standin.click(zed, auto, label="Answer")
    await answer(standin, ana, auto, str(asked.answer))
    wall.now += 30.0
    late = await standin.submit_modal(zed, zed_modal, {"answer": str(asked.answer)})
    assert late.reply.content.startswith("✅ Right!")
    wall.now += 10.0
    assert await bot.get_cog("Focus").flow.run_due_live() == [auto_live_id]
    auto_final = await standin.wait_for_message(lambda m: "final ranking" in m.text(),
                                                channel=auto_channel, after=auto)
    assert "a student" in auto_final.text() and NAME not in auto_final.text()
    report = await standin.click(roux, auto_final, label="Report (teacher)")
    assert NAME in live_sheet(report)  # the teacher's report names everyone
    # Another, still running: Zed answered question 1, which waits for Zed's 40 s.
    still_channel = standin.add_channel("direct-2")
    still = (await standin.slash(roux, "focus live", in_channel=still_channel, count=2,
                                 level=2)).reply
    still_live_id = max(bot.get_cog("Focus").flow.live_timers())
    await answer(standin, zed, still, str(asked.answer))
    running = await bot.db.focus_live.require(still_live_id)
    assert running.state["factors"] == {str(zed.id): 2.0}
    assert running.state["shown"] == {str(zed.id): "anonymous"}

    # Homework: the assignments' clock and draw are the test's.
    classroom = bot.get_cog("Classroom").flow
    classroom.assign_now = lambda: NOW
    classroom.assign_seed = lambda: ASSIGNMENT_SEED
    classroom.assign_autoclose = False
    # Roux's: Zed and Ana finish "Sums"; Zed begins "Tables" and stops after one answer.
    sums = (await standin.slash(roux, "class assign", name="Sums", due=DUE, level=1,
                                count=2)).reply
    assert "Sums: 1/2" in (await take_assignment(standin, bot, zed, sums, "Sums")).text()
    await take_assignment(standin, bot, ana, sums, "Sums")
    tables = (await standin.slash(roux, "class assign", name="Tables", due=DUE, level=2,
                                  count=3)).reply
    zed_tables = await take_assignment(standin, bot, zed, tables, "Tables", answered=1)
    # Zed as a teacher: a question set of their own, and an assignment from it Ana takes.
    uploaded = await standin.slash(zed, "class questions upload",
                                   file=standin.upload("Doubles.csv", DOUBLES))
    assert "Set “Doubles” stored" in uploaded.reply.text()
    doubles = (await standin.slash(zed, "class assign", name="Doubles", due=DUE,
                                   set="Doubles", count=2)).reply
    await take_assignment(standin, bot, ana, doubles, "Doubles")

    # Zed's placement (issue 26), begun before Roux pinned their level: its state names nobody,
    # the row is Zed's.
    await bot.db.placements.start(zed.guild.id, zed.id, {"format": 1, "low": 1, "high": 8,
                                                          "start": 4, "steps": [],
                                                          "questions": []}, "placement:abc")
    path = bot.settings.db_path
    world = World(bot, path, zed, bob, ana, roux, duel, bob_solo, zed_solo, roux_live, zed_live,
                  wall, auto_final, auto_live_id, still, still_live_id, zed_tables)
    # Zed is also one of the members whose mastery is still to be worked out from answers given
    # before the model existed (a database upgraded from before it).
    await bot.db.connection.run(
        "INSERT INTO focus_mastery_backfill (guild_id, user_id) VALUES (?, ?)",
        (zed.guild.id, zed.id))
    # Every table that can hold a member holds Zed (a new table must be added here and to the
    # delete): the scan below would be empty for a table the scenario never fills.
    held = {table for table, _, _ in traces(path, zed.id, NAME)}
    assert held >= {
        "players", "ratings", "focus_answers", "daily_attempts", "digits_matches", "digits_seats",
        "digits_ghosts", "rithmo_games", "focus_live_rounds", "focus_rollup",
        "focus_rollup_total", "focus_mastery", "focus_mastery_backfill", "student_settings",
        "assignments", "assignment_attempts", "question_sets", "rithmo_puzzle_solves",
        "focus_placements"}, held
    return world


def live_sheet(record: Any) -> str:
    """The CSV of a live round's teacher report, as text."""
    # The report's own CSV comes first; the questions' and the known mistakes' follow it.
    sheet = next(a for m in record.messages for a in m.attachments if a.filename.endswith(".csv"))
    return sheet.data.decode("utf-8-sig")


# --- The scan: every column of every table ---------------------------------------------------


@dataclass
class Table:
    columns: list[str]
    key: list[str]  # the primary key's columns (SQLite's rowid for a table without one)
    rows: list[dict[str, Any]]


def read_all(path: Path | str) -> dict[str, Table]:
    """Every row of every table, straight from the database under the repositories."""
    if isinstance(path, Path):
        return _read_sqlite(path)
    # The test's own loop runs the bot: PostgreSQL is read from a loop of this thread's own.
    found: dict[str, dict[str, Table]] = {}

    def read() -> None:
        found["tables"] = asyncio.run(_read_postgresql(path))

    import threading

    thread = threading.Thread(target=read)
    thread.start()
    thread.join()
    return found["tables"]


def _read_sqlite(path: Path) -> dict[str, Table]:
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        found = {}
        for (table,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall():
            info = list(conn.execute("SELECT * FROM pragma_table_info(?)", (table,)))
            names = [r["name"] for r in info]
            key = [r["name"] for r in sorted(info, key=lambda r: r["pk"]) if r["pk"]]
            select = "*" if key else "rowid AS rowid_, *"
            found[table] = Table(names, key or ["rowid_"], [
                dict(row) for row in conn.execute(f'SELECT {select} FROM "{table}"')])
        return found
    finally:
        conn.close()


async def _read_postgresql(url: str) -> dict[str, Table]:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        found = {}
        for (table,) in await conn.fetch(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = 'public' ORDER BY table_name"):
            names = [r[0] for r in await conn.fetch(
                "SELECT column_name FROM information_schema.columns WHERE table_name = $1"
                " AND table_schema = 'public' ORDER BY ordinal_position", table)]
            key = [r[0] for r in await conn.fetch(
                "SELECT a.attname FROM pg_index i JOIN pg_attribute a"
                " ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)"
                " WHERE i.indrelid = $1::regclass AND i.indisprimary", table)]
            found[table] = Table(names, key or names, [
                dict(row) for row in await conn.fetch(f'SELECT * FROM "{table}"')])
        return found
    finally:
        await conn.close()


def holds(value: Any, user_id: int, name: str) -> bool:
    """Whether one stored value holds the member: the id as a number, or the id or the name
    anywhere in a text (JSON included)."""
    if isinstance(value, int):
        return value == user_id
    if isinstance(value, str):
        return str(user_id) in value or name in value
    if isinstance(value, bytes):
        return str(user_id).encode() in value or name.encode() in value
    return False


def traces(path: Path | str, user_id: int, name: str) -> list[tuple[str, str, Any]]:
    """(table, column, value) of every stored value that holds the member."""
    found = []
    for table, content in read_all(path).items():
        for row in content.rows:
            found += [(table, column, row[column]) for column in content.columns
                      if holds(row[column], user_id, name)]
    return found


async def run_cli(*args: str) -> int:
    # The command line runs its own event loop: in a thread, beside the running bot.
    return await asyncio.to_thread(cli, list(args))


async def delete(world: World) -> None:
    code = await run_cli("delete-player", str(world.zed.guild.id), str(world.zed.id),
                         "--db", str(world.path))
    assert code == 0


async def test_after_a_delete_no_table_holds_the_members_id_or_name(standin, start_bot):
    world = await populate(standin, start_bot)
    await delete(world)
    left = traces(world.path, world.zed.id, NAME)
    assert left == [], "\n".join(f"{t}.{c}: {str(v)[:120]}" for t, c, v in left)
    # The others are still there.
    assert traces(world.path, world.bob.id, "Bob")
    assert traces(world.path, world.roux.id, "Mme Roux")


# --- What the others need stays, under a pseudonym ---------------------------------------------


async def test_the_others_games_load_and_go_on_after_the_delete(standin, start_bot, restart_bot):
    world = await populate(standin, start_bot)
    await delete(world)
    # The running bot still holds Roux's live round in memory, as it was before the delete: the
    # first click made from it is refused as stale, not written back over the erasure...
    stale = await standin.click(world.roux, world.roux_live, label="Next question")
    assert stale.reply.content.startswith("Someone acted on this game just before you.")
    assert traces(world.path, world.zed.id, NAME) == []
    # ... and the next one reads the database: the round goes on, Zed's answer still counts,
    # under "a former member".
    moved = await standin.click(world.roux, world.roux_live, label="Next question")
    assert moved.reply is world.roux_live
    second = await standin.wait_for_message(lambda m: "question 2/2" in m.text(),
                                            after=world.roux_live)
    assert "a former member: 950 points (1/1 right)" in second.text()
    assert NAME not in second.text()
    # The bot also keeps display names in memory: a restart forgets them.
    bot = await restart_bot(world.bot)
    prepare(bot, world.wall)
    guild = standin.guild.id

    # Bob's solo match: the round he lost to Zed's ghost is now a former player's ghost.
    row = await bot.db.digits.require_match(world.bob_solo)
    assert row.status == "active"
    engine = Match.from_json(row.state["engine"])
    assert engine.players == [str(world.bob.id)]
    game = StoredMatch.from_row(row)
    [first] = engine.records
    assert first.ghost is not None and first.ghost.owner != str(world.zed.id)
    assert side_name(game, "ghost", "en", first) == "Ghost of a former player"
    assert side_name(game, "ghost", "fr", first) == "Fantôme d'un ancien joueur"
    # ... and Bob plays round 2 through the bot.
    board = board_of(standin, world.bob_solo)
    shop = await take_focus(standin, bot, world.bob, board, right=1)
    await act(standin, world.bob, shop, "digits:ready")
    await ready_battle(standin, board, "Round 2")
    assert (await bot.db.digits.require_match(world.bob_solo)).round >= 2

    # The finished duel stays in Bob's history and still reads, against a pseudonym.
    duel = await bot.db.digits.require_match(world.duel)
    assert duel.status == "finished" and duel.players == (None, world.bob.id)
    players = Match.from_json(duel.state["engine"]).players
    assert players[1] == str(world.bob.id) and int(players[0]) < 0
    assert side_name(StoredMatch.from_row(duel), players[0], "en") == "a former player"
    history = await bot.db.players.history(guild, world.bob.id)
    assert world.duel in [h.game_id for h in history]
    # Zed's unfinished solo match is abandoned, as before.
    assert (await bot.db.digits.require_match(world.zed_solo)).status == "abandoned"

    # Roux's self-running round goes on by itself, the timers armed from the stored state:
    # Zed's extra time and ranking choice stay with their pseudonym, so the question still
    # closes at 40 s and the ranking shows "a student".
    focus = bot.get_cog("Focus").flow
    still = await bot.db.focus_live.require(world.still_live_id)
    assert still.state["factors"] == {"-1": 2.0} and still.state["shown"] == {"-1": "anonymous"}
    assert focus.live_timers()[world.still_live_id] == still.state["shown_at"] + 40
    world.wall.now = still.state["shown_at"] + 40
    assert world.still_live_id in await focus.run_due_live()
    assert "question 1/2 · closed" in world.still_live.text()
    assert "🥇 a student: " in world.still_live.text() and NAME not in world.still_live.text()

    # The round Zed ran has nobody left to move it on: it is over.
    refused = await standin.click(world.ana, world.zed_live, label="Answer")
    assert refused.reply.content == "This live round is over."


# --- The teacher's reports after the delete -------------------------------------------------


def sheet_rows(record: Any) -> list[list[str]]:
    """The rows of the CSV a reply carries (UTF-8 with a BOM, English: commas)."""
    # The report's own CSV comes first; the questions' and the known mistakes' follow it.
    sheet = next(a for m in record.messages for a in m.attachments if a.filename.endswith(".csv"))
    return list(csv.reader(io.StringIO(sheet.data.decode("utf-8-sig"))))


async def class_sheets(standin: StandIn, world: World) -> tuple[dict, dict]:
    """The class report since the start, by name and with pseudonyms: {(student, topic): the
    figures from the answers on}. The rows of a topic's skills (their figures empty: answers
    are counted by topic) are left out."""
    named, masked = [sheet_rows(await standin.slash(world.roux, "class report", period="all",
                                                    pseudonym=flag)) for flag in (False, True)]
    return ({(r[0], r[1]): r[3:] for r in named[1:] if r[3]},
            {(r[0], r[1]): r[3:] for r in masked[1:] if r[3]})


async def test_the_class_reports_still_work_for_the_teacher_and_show_nothing_of_the_member(
        standin, start_bot):
    world = await populate(standin, start_bot)
    bot, guild = world.bot, standin.guild.id
    names = {world.zed.id: NAME, world.bob.id: "Bob", world.ana.id: "Ana"}
    order = [names[uid] for uid in await bot.db.class_report.first_answers(guild)]
    assert order[0] == NAME  # Zed answered first (Sums, at NOW; then by id): Student 1
    named, masked = await class_sheets(standin, world)
    # Before: Zed is a row, and the pseudonyms number everyone by their first answer.
    assert {name for name, _ in named} == {*order, "Class"}
    for number, name in enumerate(order, 1):
        mine = {topic: v for (who, topic), v in named.items() if who == name}
        assert mine == {topic: v for (who, topic), v in masked.items()
                        if who == f"Student {number}"}
    sums = await standin.slash(world.roux, "class report", assignment="Sums")
    assert NAME in sums.reply.text()
    tables = await standin.slash(world.roux, "class report", assignment="Tables")
    assert f"Begun, not finished: 1: {NAME}: 1/3 answered" in tables.reply.text()
    await delete(world)

    named_after, masked_after = await class_sheets(standin, world)
    assert not any(NAME in who for who, _ in named_after)
    # The others' figures are as they were; the class's line no longer counts Zed's answers.
    assert {k: v for k, v in named.items() if k[0] not in (NAME, "Class")} == {
        k: v for k, v in named_after.items() if k[0] != "Class"}
    for (who, topic), (count, right, *_) in named_after.items():
        if who == "Class":
            mine = [v for (w, t), v in named_after.items() if t == topic and w != "Class"]
            assert (int(count), int(right)) == (sum(int(m[0]) for m in mine),
                                                sum(int(m[1]) for m in mine))
    # The pseudonyms are the ranks of the first answers among those left: nothing of Zed is kept
    # to hold their number, so each student numbered after Zed moves up by one.
    left = [name for name in order if name != NAME]
    assert len(left) == len(order) - 1
    for number, name in enumerate(left, 1):
        mine = {topic: v for (who, topic), v in named_after.items() if who == name}
        assert mine == {topic: v for (who, topic), v in masked_after.items()
                        if who == f"Student {number}"}
    assert f"Student {len(order)}" not in {who for who, _ in masked_after}

    # The running bot still holds Zed's window of "Tables": its next answer is refused, not
    # written back (nor a player, nor rollups), and the window is closed; a click on the post
    # would begin again from nothing.
    [button] = world.zed_tables.buttons()
    opened = await standin.click(world.zed, world.zed_tables, button["custom_id"])
    refused = await standin.submit_modal(world.zed, opened, {"answer": "3"})
    assert refused.reply.content == "This assignment was not started."
    opened = await standin.click(world.zed, world.zed_tables, button["custom_id"])
    assert opened.reply.content.startswith("This window has expired")
    assert traces(world.path, world.zed.id, NAME) == []

    # Roux's assignment: Ana's attempt only; Zed neither done, begun nor missing.
    sums = await standin.slash(world.roux, "class report", assignment="Sums")
    assert NAME not in sums.reply.text() and "Done: 1: Ana" in sums.reply.text()
    assert {row[0] for row in sheet_rows(sums)[1:]} <= {"Ana", "Bob", "Mme Roux"}
    tables = await standin.slash(world.roux, "class report", assignment="Tables")
    assert NAME not in tables.reply.text()
    assert "Begun, not finished: 0: Nobody." in tables.reply.text()
    # Zed's set and assignment stay the class's, without an author; Ana's attempt stays.
    kept = await bot.db.question_sets.get(guild, "Doubles")
    assert kept is not None and kept.author_id is None
    made = await bot.db.assignments.get(guild, "Doubles")
    assert made is not None and made.teacher_id is None and made.set_id == kept.set_id
    attempt = await bot.db.assignments.attempt(made.assignment_id, world.ana.id)
    assert attempt is not None and attempt.score == 1
    doubles = await standin.slash(world.roux, "class report", assignment="Doubles")
    assert "Done: 1: Ana: **1/2**" in doubles.reply.text()
    assert NAME not in doubles.reply.text()
    # The live round's report: Ana's row only (it is read from the answers).
    report = await standin.click(world.roux, world.auto_final, label="Report (teacher)")
    assert [row[0] for row in csv.reader(io.StringIO(live_sheet(report)))] == ["Student", "Ana"]


# --- The export holds what the delete takes ----------------------------------------------------

#: The export's sections where the rows of each table are, and the columns that name a row.
#: A table the delete changes that is missing here fails the test: add its rows to the export.
SECTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "players": (("player",), ()),
    "ratings": (("ratings",), ("game",)),
    "focus_answers": (("focus_answers",), ("answer_id",)),
    "focus_rollup": (("focus_rollup",), ("topic", "slot")),
    "focus_rollup_total": (("focus_rollup_total",), ("topic",)),
    "focus_mastery": (("focus_mastery",), ("kind", "item")),
    "focus_mastery_backfill": (("focus_mastery_backfill",), ()),
    "daily_attempts": (("daily_attempts",), ("day",)),
    "rithmo_puzzle_solves": (("rithmo_puzzle_solves",), ("puzzle_id",)),
    "digits_ghosts": (("digits_ghosts",), ("match_id", "round")),
    "digits_seats": (("digits_matches",), ("match_id", "seat")),
    "digits_matches": (("digits_matches", "digits_matches_met"), ("match_id",)),
    "rithmo_games": (("rithmo_games",), ("game_id",)),
    "focus_live_rounds": (("focus_live_rounds",), ("live_id",)),
    "student_settings": (("student_settings",), ()),
    "focus_placements": (("focus_placements",), ()),
    "assignment_attempts": (("assignment_attempts",), ("assignment_id",)),
    "assignments": (("assignments_set",), ("assignment_id",)),
    "question_sets": (("question_sets",), ("set_id",)),
}
#: Implied by the export itself (its top level says whose data it is).
IMPLIED = {"guild_id", "user_id"}


def snapshot(path: Path | str) -> dict[str, dict[tuple[Any, ...], dict[str, Any]]]:
    """Every row of every table, by primary key (the rowid for a table without one)."""
    return {table: {tuple(row[k] for k in content.key): row for row in content.rows}
            for table, content in read_all(path).items()}


def decoded(value: Any) -> Any:
    if isinstance(value, str) and value[:1] in "[{":
        return json.loads(value)
    return value


def exported_state(exported: dict[str, Any], live_id: int) -> Any:
    [entry] = [r for r in exported["focus_live_rounds"] if r["live_id"] == live_id]
    return entry["state"]


def mentions(value: Any, user_id: int, name: str) -> bool:
    return holds(json.dumps(value, ensure_ascii=False), user_id, name)


async def test_the_export_holds_every_row_the_delete_removes_or_changes(standin, start_bot,
                                                                        tmp_path):
    world = await populate(standin, start_bot)
    out = tmp_path / "zed.json"
    guild, user = str(world.zed.guild.id), str(world.zed.id)
    assert await run_cli("export-player", guild, user, "--db", str(world.path),
                         "--out", str(out)) == 0
    exported = json.loads(out.read_text(encoding="utf-8"))
    before = snapshot(world.path)
    await delete(world)
    after = snapshot(world.path)

    touched: set[str] = set()
    for table, rows in before.items():
        for key, row in rows.items():
            new = after.get(table, {}).get(key)
            if new == row:
                continue
            touched.add(table)
            assert table in SECTIONS, f"the delete changes {table} {key}: not in the export"
            sections, naming = SECTIONS[table]
            entries = [e for s in sections for e in (
                [exported[s]] if isinstance(exported.get(s), dict) else exported.get(s, []))]
            named = [e for e in entries if all(e.get(c) == row[c] for c in naming)]
            assert named, f"{table} {key} is changed by the delete and missing from the export"
            if new is None:
                # A removed row is exported whole.
                assert any(all(decoded(row[c]) == e[c] for c in row if c not in IMPLIED)
                           for e in named), f"{table} {key}: exported {named} for {row}"
            else:
                # A changed row: the export says what the member had there.
                for column, value in row.items():
                    if value != new[column] and isinstance(decoded(value), dict | list) \
                            and mentions(decoded(value), world.zed.id, NAME):
                        assert any(mentions(e.get(column), world.zed.id, NAME) for e in named), \
                            f"{table} {key}.{column}: the member's part is not exported"
    # The scenario reaches every table the export maps (else the check above proves nothing).
    assert touched == set(SECTIONS), touched
    # The live rounds, as teacher and as a student: Roux's manual one and the one still running
    # (Roux's self-running round, once over, keeps nobody in its state: Zed's answers there are
    # among their focus_answers).
    live = {r["live_id"]: r["role"] for r in exported["focus_live_rounds"]}
    assert sorted(live.values()) == ["student", "student", "teacher", "teacher"]
    assert world.auto_live_id not in live and live[world.still_live_id] == "student"
    assert exported_state(exported, world.still_live_id)["factors"] == {user: 2.0}
    assert {a["round_key"] for a in exported["focus_answers"]} >= {
        f"live:{world.auto_live_id}", "assignment:1", "assignment:2"}
    # The classroom: their own settings, their attempts, what they authored as a teacher.
    [mine] = exported["student_settings"]
    assert (mine["level_pinned"], mine["extra_time"], mine["rankings"]) == (3, "x2", "anonymous")
    assert [(a["assignment_id"], a["score"] is not None) for a in exported["assignment_attempts"]
            ] == [(1, True), (2, False)]
    assert [a["name"] for a in exported["assignments_set"]] == ["Doubles"]
    assert [q["name"] for q in exported["question_sets"]] == ["Doubles"]
    # The rollups are derived from the answers (kept by triggers): exported as stored, they add
    # up to the exported answers, topic by topic.
    per_topic: dict[str, list[int]] = {}
    for a in exported["focus_answers"]:
        per_topic.setdefault(a["topic"], []).append(int(a["correct"]))
    answers = {topic: (len(v), sum(v)) for topic, v in per_topic.items()}
    assert {r["topic"]: (r["answers"], r["correct"]) for r in exported["focus_rollup_total"]
            } == answers
    slots: dict[str, tuple[int, int]] = {}
    for r in exported["focus_rollup"]:
        count, right = slots.get(r["topic"], (0, 0))
        slots[r["topic"]] = (count + r["answers"], right + r["correct"])
    assert slots == answers
    # Their mastery is derived from the same answers: every answer to an engine's question moves
    # one skill, every answer to a fact one fact.
    skills = [m for m in exported["focus_mastery"] if m["kind"] == "skill"]
    assert skills and all(m["item"].split(":")[0] in answers for m in skills)
    assert sum(m["answers"] for m in skills) == sum(
        1 for a in exported["focus_answers"] if a["topic"] in TOPICS
        and not (a["round_key"] or "").startswith("practice-set:"))
    [met] = exported["digits_matches_met"]
    assert met["match_id"] == world.bob_solo
    [ghost] = met["state"]["engine"]["rounds"]
    assert ghost["ghost"]["owner"] == user and met["state"]["names"] == {user: NAME}
    # Only Zed's part of Bob's match: not Bob's own shop nor his name.
    assert not mentions(met, world.bob.id, "Bob")


async def test_a_teacher_who_never_played_is_exported_and_forgotten(
        db_location: Path | str) -> None:
    db = await Database.open(db_location)
    teacher = 1234567890123456789
    try:
        row = await db.focus_live.create(5, 6, teacher, {"round": None, "names": {
            str(teacher): NAME}})
        exported = await db.export_player(5, teacher)
        assert exported["player"] is None
        assert [r["live_id"] for r in exported["focus_live_rounds"]] == [row.live_id]
        counts = await db.delete_player(5, teacher)
        assert counts["focus_live_rounds_ended"] == 1
        gone = await db.focus_live.require(row.live_id)
        assert (gone.teacher_id, gone.status, gone.state["names"]) == (None, "finished", {})
    finally:
        await db.close()
    assert traces(db_location, teacher, NAME) == []


async def test_a_teacher_known_only_by_a_set_and_an_assignment_is_exported_and_forgotten(
        tmp_path: Path, db_location: Path | str, capsys: pytest.CaptureFixture[str]) -> None:
    # No player row, no live round, no game: only what they authored names them.
    path, teacher = db_location, 1234567890123456780
    db = await Database.open(path)
    try:
        made = await db.question_sets.create(5, "Doubles", teacher, [SetItem("2 × 4", 8)])
        await db.assignments.create(
            5, "Homework", teacher_id=teacher, role_id=None, level=None, topic=None,
            set_id=made.set_id, set_name="Doubles", due_at=datetime(2026, 12, 8, tzinfo=UTC),
            questions=[{"text": "2 × 4", "ascii": "2 x 4", "answer": 8, "topic": "Doubles",
                        "level": 1}])
    finally:
        await db.close()
    out = tmp_path / "teacher.json"
    assert await run_cli("export-player", "5", str(teacher), "--db", str(path),
                         "--out", str(out)) == 0, capsys.readouterr().err
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert exported["player"] is None
    assert [s["name"] for s in exported["question_sets"]] == ["Doubles"]
    assert [(a["name"], a["set_name"]) for a in exported["assignments_set"]] == [
        ("Homework", "Doubles")]
    assert await run_cli("delete-player", "5", str(teacher), "--db", str(path)) == 0
    assert "assignments_anonymised 1, question_sets_anonymised 1" in capsys.readouterr().out
    assert traces(path, teacher, NAME) == []
    # The class keeps both, without an author; a second delete finds nobody.
    db = await Database.open(path)
    try:
        kept = await db.question_sets.get(5, "Doubles")
        assert kept is not None and kept.author_id is None
        homework = await db.assignments.get(5, "Homework")
        assert homework is not None and homework.teacher_id is None
    finally:
        await db.close()
    assert await run_cli("delete-player", "5", str(teacher), "--db", str(path)) == 1
    assert "no player with" in capsys.readouterr().err


def test_both_players_of_a_duel_forgotten_are_two_pseudonyms_and_the_match_still_reads() -> None:
    from bot.play.digits import new_state
    from db.export import anonymised

    first, second = 1577000000000000001, 1577000000000000002
    match = Match.new([str(first), str(second)], seed=3)
    match.submit_focus(str(first), 4)
    match.submit_focus(str(second), 2)
    match.end_turn(str(first))
    match.end_turn(str(second))  # round 1 fought: the record names both sides
    state = new_state(match, {str(first): NAME, str(second): "Bob"}, "en")
    once = anonymised(state, first)
    twice = anonymised(once, second)
    assert anonymised(twice, first) == twice  # nothing of them left to change
    assert twice["names"] == {}
    text = json.dumps(twice)
    assert str(first) not in text and str(second) not in text and NAME not in text
    read = Match.from_json(twice["engine"])
    assert read.players == ["-1", "-2"] and read.round == 2
    assert sorted(read.lives) == ["-1", "-2"]
    assert read.to_json() == twice["engine"]


async def test_a_second_delete_finds_nobody(db_location: Path | str) -> None:
    db = await Database.open(db_location)
    try:
        await db.players.ensure(5, 77)
        await db.delete_player(5, 77)
        exported = await asyncio.gather(db.export_player(5, 77), db.delete_player(5, 77),
                                        return_exceptions=True)
        assert [getattr(e, "code", e) for e in exported] == ["db.not_found", "db.not_found"]
    finally:
        await db.close()
