"""A member's data on request: all of it as JSON, or none of it any more.

Where a member is
-----------------
- Rows of their own (``players``, ``ratings``, ``focus_answers`` and their rollups, their
  mastery (``focus_mastery``, ``focus_mastery_backfill``), ``daily_attempts``,
  ``rithmo_puzzle_solves``, ``digits_ghosts``): exported whole, then deleted.
- Games they played (``digits_seats``, ``rithmo_games``): exported; their unfinished games are
  abandoned and their seat becomes NULL, so that the others keep their history.
- Inside game states, opaque JSON that SQL never reads (``digits_matches.state``,
  ``focus_live_rounds.state``): their id as a player, a key (``shops``, ``steps``…) or a ghost's
  owner, and their display name in a ``names`` map. Found by a text search of the id in the
  server's states, then walked in Python: the name is dropped, the id becomes a *pseudonym*, a
  negative number unused in that state (``-1``, ``-2``…). Discord ids are positive, so the bot
  tells a pseudonym from a member (and shows "a former player"); it is chosen per state and from
  nothing of theirs, so it cannot be linked back to them. The engines read the state as before:
  the other player's match loads and goes on. The export gives, of a state that is not theirs
  (a solo match where someone met their ghost, a live round they answered), only the parts that
  name them.
- Live rounds they ran (``focus_live_rounds.teacher_id``): the teacher becomes NULL; a round still
  running has nobody left to move it on and ends, keeping nothing, like a round that finished.
  In a round they answered, their extra time and ranking choice (``factors``, ``shown``) stay
  with their pseudonym: the question still waits for them, and nothing says who they were.
- Their placement round (``focus_placements``), exported and deleted.
- A class room on the web (migration 24): a browser student is a player with a negative id;
  their seat (``web_seats``: nickname, room, dates) is exported without the hash of their session
  cookie or their form token, and deleted with them. The rooms a teacher opened
  (``web_rooms.teacher_id``) are exported and stay the class's, their teacher NULL.
- The classroom: their own settings (``student_settings``) and their attempts at assignments
  (``assignment_attempts``; the answers are ``focus_answers``) are exported and deleted; the
  question sets and assignments they authored stay the class's, their author NULL (a teacher
  known only by those is exported and erased too). The class report's rollups are derived from
  the answers: exported as stored, and deleted whole. Its pseudonyms ("Student N", by first
  answer) are ranks among those left: the students numbered after them move up by one.

Every state changed gets a new version, so that a copy held by a running bot is refused as stale
rather than written back over the erasure.
"""

from __future__ import annotations

import json
import re
from typing import Any

from db.connection import Connection, Row, dumps, not_found, to_db_time, utc

EXPORT_FORMAT = "ardoise.player-export"
_JSON_COLUMNS = ("state", "slate", "victories", "position")
#: Maps of the game states from a member's id (as text) to their display name.
_NAME_MAPS = ("names",)
_ABSENT = object()
# A number written as text (a player's id as a key of a state); str.isdigit() would take "²".
_INTEGER = re.compile(r"-?[0-9]{1,30}")


def _plain(row: Row) -> dict[str, Any]:
    data = dict(zip(row.keys(), tuple(row), strict=True))
    for column in _JSON_COLUMNS:
        if isinstance(data.get(column), str):
            data[column] = json.loads(data[column])
    return data


def _is_member(value: Any, user_id: int) -> bool:
    if isinstance(value, bool):
        return False
    return value == user_id if isinstance(value, int) else value == str(user_id)


def _pseudonym(state: Any) -> int:
    """The first negative number that no key or value of ``state`` holds (as a number or text),
    so that it stands for one player only."""
    used: set[int] = set()

    def collect(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                collect(key)
                collect(item)
        elif isinstance(value, list):
            for item in value:
                collect(item)
        elif isinstance(value, int) and not isinstance(value, bool):
            used.add(value)
        elif isinstance(value, str) and _INTEGER.fullmatch(value):
            used.add(int(value))

    collect(state)
    pseudonym = -1
    while pseudonym in used:
        pseudonym -= 1
    return pseudonym


def anonymised(state: Any, user_id: int) -> Any:
    """``state`` without the member: their name dropped from the name maps, their id (a number,
    or text as a value or a key) replaced by a pseudonym. Unchanged if they are not in it."""
    text = str(user_id)
    pseudonym = _pseudonym(state)

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            out = {}
            for key, item in value.items():
                if key in _NAME_MAPS and isinstance(item, dict):
                    out[key] = {k: walk(v) for k, v in item.items() if k != text}
                else:
                    out[str(pseudonym) if key == text else key] = walk(item)
            return out
        if isinstance(value, list):
            return [walk(item) for item in value]
        if _is_member(value, user_id):
            return pseudonym if isinstance(value, int) else str(pseudonym)
        return value

    return walk(state)


def _their_part(value: Any, user_id: int) -> Any:
    """What of ``value`` names the member: an object with their id as a value (a ghost they own,
    an answer they gave) whole, entries keyed by their id, and the way down to them; ``_ABSENT``
    if nothing does."""
    text = str(user_id)
    if isinstance(value, dict):
        if any(_is_member(v, user_id) for v in value.values()):
            return value
        kept = {}
        for key, item in value.items():
            part = item if key == text else _their_part(item, user_id)
            if part is not _ABSENT:
                kept[key] = part
        return kept or _ABSENT
    if isinstance(value, list):
        items = [p for p in (_their_part(v, user_id) for v in value) if p is not _ABSENT]
        return items or _ABSENT
    return value if _is_member(value, user_id) else _ABSENT


def _part_or_none(state: Any, user_id: int) -> Any:
    part = _their_part(state, user_id)
    return None if part is _ABSENT else part


async def export_player(
    db: Connection, schema_version: int, guild_id: int, user_id: int
) -> dict[str, Any]:
    # One transaction: every part of the export comes from the same moment.
    # A state that holds the member's id as text (then read in Python to be sure).
    holds = db.dialect.contains("state")
    async with db.transaction():
        key = (guild_id, user_id)

        async def rows(sql: str, params: tuple[Any, ...] = key) -> list[dict[str, Any]]:
            return [_plain(row) for row in await db.all(sql, params)]

        player = await rows("SELECT * FROM players WHERE guild_id = ? AND user_id = ?")
        games = await rows(
            "SELECT game_id, CASE WHEN white_id = ? THEN 'white' ELSE 'black' END AS colour,"
            " CASE WHEN white_id = ? THEN black_id ELSE white_id END AS opponent_id, computer_side,"
            " status, result, reason, victories, position, created_at, finished_at, hints_allowed,"
            " CASE WHEN white_id = ? THEN hints_white ELSE hints_black END AS hints_used"
            " FROM rithmo_games WHERE guild_id = ? AND (white_id = ? OR black_id = ?)"
            " ORDER BY game_id",
            (user_id, user_id, user_id, guild_id, user_id, user_id),
        )
        for game in games:
            game["turns"] = await rows(
                "SELECT ply, side, notation, played_at FROM rithmo_turns WHERE game_id = ?"
                " ORDER BY ply",
                (game["game_id"],),
            )
            # The engine's review of the game (/rithmo review), when one was asked for.
            review = await rows("SELECT review FROM rithmo_reviews WHERE game_id = ?",
                                (game["game_id"],))
            game["review"] = json.loads(review[0]["review"]) if review else None
        # Others' matches that hold them: a solo match where their ghost was met.
        met = []
        for match in await rows(
            "SELECT match_id, kind, status, round, state, created_at, finished_at"
            f" FROM digits_matches WHERE guild_id = ? AND {holds} AND match_id NOT IN"
            " (SELECT match_id FROM digits_seats WHERE user_id = ?) ORDER BY match_id",
            (guild_id, str(user_id), user_id),
        ):
            match["state"] = _part_or_none(match["state"], user_id)
            if match["state"] is not None:  # not the id as a part of some other number
                met.append(match)
        live = await rows(
            "SELECT live_id, channel_id, CASE WHEN teacher_id = ? THEN 'teacher' ELSE 'student'"
            " END AS role, status, state, created_at, updated_at FROM focus_live_rounds"
            f" WHERE guild_id = ? AND (teacher_id = ? OR {holds}) ORDER BY live_id",
            (user_id, guild_id, user_id, str(user_id)),
        )
        for entry in live:
            entry["state"] = _part_or_none(entry["state"], user_id)
        live = [e for e in live if e["role"] == "teacher" or e["state"] is not None]
        # What they set as a teacher: the assignments and the question sets they made.
        assignments_set = await rows(
            "SELECT assignment_id, name, channel_id, role_id, level, topic, set_id, set_name,"
            " count, questions, due_at, created_at, closed_at FROM assignments"
            " WHERE guild_id = ? AND teacher_id = ? ORDER BY assignment_id"
        )
        question_sets = await rows(
            "SELECT set_id, name, created_at FROM question_sets"
            " WHERE guild_id = ? AND author_id = ? ORDER BY set_id"
        )
        # Class rooms on the web (migration 24): a browser student's seat (their nickname, their
        # room, when they joined and were last seen; never the hash of their session cookie nor
        # their form token, which are keys, not data about them), and the rooms a teacher opened.
        web_seat = await rows(
            "SELECT s.nickname, s.lang, s.joined_at, s.seen_at, r.code AS room_code,"
            " r.name AS room_name, r.opened_at AS room_opened_at, r.closed_at AS room_closed_at"
            " FROM web_seats s LEFT JOIN web_rooms r ON r.room_id = s.room_id"
            " WHERE s.guild_id = ? AND s.user_id = ?"
        )
        web_rooms_opened = await rows(
            "SELECT room_id, channel_id, code, name, lang, opened_at, expires_at, closed_at"
            " FROM web_rooms WHERE guild_id = ? AND teacher_id = ? ORDER BY room_id"
        )
        # A teacher who never played is known by what they ran or set.
        if not (player or live or games or met or assignments_set or question_sets
                or web_rooms_opened):
            raise not_found("player", guild_id=guild_id, user_id=user_id)
        return {
            "format": EXPORT_FORMAT,
            "schema_version": schema_version,
            "exported_at": to_db_time(utc()),
            "guild_id": guild_id,
            "user_id": user_id,
            # None for a member known only as a teacher (live rounds, assignments, sets) who
            # never played.
            "player": player[0] if player else None,
            "ratings": await rows(
                "SELECT * FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY game"
            ),
            "focus_answers": await rows(
                "SELECT * FROM focus_answers WHERE guild_id = ? AND user_id = ?"
                " ORDER BY answered_at, answer_id"
            ),
            # The class report's rollups of those answers (migration 11).
            "focus_rollup": await rows(
                "SELECT * FROM focus_rollup WHERE guild_id = ? AND user_id = ?"
                " ORDER BY slot, topic"
            ),
            "focus_rollup_total": await rows(
                "SELECT * FROM focus_rollup_total WHERE guild_id = ? AND user_id = ?"
                " ORDER BY topic"
            ),
            # Their mastery of each fact and skill, worked out from those answers (migration
            # focus_mastery), and whether it is still to be worked out from older ones.
            "focus_mastery": await rows(
                "SELECT * FROM focus_mastery WHERE guild_id = ? AND user_id = ?"
                " ORDER BY kind, item"
            ),
            "focus_mastery_backfill": await rows(
                "SELECT * FROM focus_mastery_backfill WHERE guild_id = ? AND user_id = ?"
            ),
            "daily_attempts": await rows(
                "SELECT * FROM daily_attempts WHERE guild_id = ? AND user_id = ? ORDER BY day"
            ),
            # Their answers to the daily Rithmomachia puzzles (migration 15).
            "rithmo_puzzle_solves": await rows(
                "SELECT * FROM rithmo_puzzle_solves WHERE guild_id = ? AND user_id = ?"
                " ORDER BY day, puzzle_id"
            ),
            "digits_matches": await rows(
                "SELECT m.match_id, m.kind, m.status, m.round, s.seat, s.result,"
                " (SELECT o.user_id FROM digits_seats o"
                "   WHERE o.match_id = m.match_id AND o.seat <> s.seat) AS opponent_id,"
                " m.state, m.created_at, m.finished_at"
                " FROM digits_seats s JOIN digits_matches m ON m.match_id = s.match_id"
                " WHERE m.guild_id = ? AND s.user_id = ? ORDER BY m.match_id"
            ),
            "digits_matches_met": met,
            "digits_ghosts": await rows(
                "SELECT match_id, round, slate, created_at FROM digits_ghosts"
                " WHERE guild_id = ? AND user_id = ? ORDER BY match_id, round"
            ),
            "rithmo_games": games,
            "focus_live_rounds": live,
            "student_settings": await rows(
                "SELECT * FROM student_settings WHERE guild_id = ? AND user_id = ?"
            ),
            # Their placement round (migration 21): its questions, answers and level.
            "focus_placements": await rows(
                "SELECT * FROM focus_placements WHERE guild_id = ? AND user_id = ?"
            ),
            # A browser student's round in progress between two pages (migration 25).
            "web_practice": await rows(
                "SELECT * FROM web_practice WHERE guild_id = ? AND user_id = ?"
            ),
            "assignment_attempts": await rows(
                "SELECT * FROM assignment_attempts WHERE guild_id = ? AND user_id = ?"
                " ORDER BY assignment_id"
            ),
            "assignments_set": assignments_set,
            "question_sets": question_sets,
            "web_seat": web_seat[0] if web_seat else None,
            "web_rooms_opened": web_rooms_opened,
        }


async def delete_player(db: Connection, guild_id: int, user_id: int) -> dict[str, int]:
    stamp = to_db_time(utc())
    key = (guild_id, user_id)
    text = str(user_id)
    holds = db.dialect.contains("state")
    counts: dict[str, int] = {}
    async with db.transaction():
        known = (
            await db.one("SELECT 1 FROM players WHERE guild_id = ? AND user_id = ?", key)
            is not None
        )
        # Their unfinished games cannot go on without them; the version moves on so that every
        # button still showing them is refused as stale.
        counts["digits_matches_abandoned"] = await db.run(
            "UPDATE digits_matches SET status = 'abandoned', version = version + 1,"
            " updated_at = ?, finished_at = ?, deadline = NULL"
            " WHERE guild_id = ? AND status IN ('pending', 'active') AND match_id IN"
            " (SELECT match_id FROM digits_seats WHERE user_id = ?)",
            (stamp, stamp, *key),
        )
        counts["rithmo_games_abandoned"] = await db.run(
            "UPDATE rithmo_games SET status = 'abandoned', version = version + 1,"
            " updated_at = ?, finished_at = ?, deadline = NULL"
            " WHERE guild_id = ? AND status IN ('pending', 'active') AND ? IN (white_id, black_id)",
            (stamp, stamp, *key),
        )
        # The states that hold them: their own matches, and the others' that met their ghost.
        anonymised_matches = 0
        for row in await db.all(
            f"SELECT match_id, state FROM digits_matches WHERE guild_id = ? AND ({holds}"
            " OR match_id IN (SELECT match_id FROM digits_seats WHERE user_id = ?))",
            (guild_id, text, user_id),
        ):
            state = json.loads(row["state"])
            new = anonymised(state, user_id)
            if new != state:
                anonymised_matches += await db.run(
                    "UPDATE digits_matches SET state = ?, version = version + 1, updated_at = ?"
                    " WHERE match_id = ?",
                    (dumps(new), stamp, row["match_id"]),
                )
        counts["digits_matches_anonymised"] = anonymised_matches
        # Games others played with them stay in the others' history, with an anonymous opponent.
        counts["digits_seats_anonymised"] = await db.run(
            "UPDATE digits_seats SET user_id = NULL, to_act = 0 WHERE user_id = ? AND match_id IN"
            " (SELECT match_id FROM digits_matches WHERE guild_id = ?)",
            (user_id, guild_id),
        )
        seats = 0
        for column in ("white_id", "black_id", "challenger_id"):
            changed = await db.run(
                f"UPDATE rithmo_games SET {column} = NULL WHERE guild_id = ? AND {column} = ?", key
            )
            if column != "challenger_id":
                seats += changed
        counts["rithmo_games_anonymised"] = seats
        ended = changed_rounds = 0
        for row in await db.all(
            "SELECT live_id, teacher_id, status, state FROM focus_live_rounds"
            f" WHERE guild_id = ? AND (teacher_id = ? OR {holds})",
            (guild_id, user_id, text),
        ):
            state = json.loads(row["state"])
            new, status = anonymised(state, user_id), row["status"]
            teacher = row["teacher_id"]
            if teacher == user_id:
                teacher = None
                if status == "active":
                    # Only the teacher moves a round on: it ends, keeping nothing (the answers
                    # are in focus_answers), as a round that finished does.
                    status = "finished"
                    if isinstance(new, dict):
                        new = {**new, "round": None, "names": {}}
                    ended += 1
            if new != state or teacher != row["teacher_id"]:
                changed_rounds += await db.run(
                    "UPDATE focus_live_rounds SET state = ?, status = ?, teacher_id = ?,"
                    " version = version + 1, updated_at = ? WHERE live_id = ?",
                    (dumps(new), status, teacher, stamp, row["live_id"]),
                )
        counts["focus_live_rounds_anonymised"] = changed_rounds
        counts["focus_live_rounds_ended"] = ended
        # What they set as a teacher stays the class's, without their name on it.
        counts["assignments_anonymised"] = await db.run(
            "UPDATE assignments SET teacher_id = NULL WHERE guild_id = ? AND teacher_id = ?", key
        )
        counts["question_sets_anonymised"] = await db.run(
            "UPDATE question_sets SET author_id = NULL WHERE guild_id = ? AND author_id = ?", key
        )
        counts["web_rooms_anonymised"] = await db.run(
            "UPDATE web_rooms SET teacher_id = NULL WHERE guild_id = ? AND teacher_id = ?", key
        )
        # The rollups before focus_answers: their rows go whole (the answers' delete trigger
        # would otherwise empty them one answer at a time, and count nothing here).
        for table in ("digits_ghosts", "focus_rollup", "focus_rollup_total", "focus_mastery",
                      "focus_mastery_backfill", "focus_answers", "daily_attempts",
                      "rithmo_puzzle_solves", "assignment_attempts", "student_settings",
                      "focus_placements", "ratings",
                      # A browser student's seat (it would go with their player row too; named
                      # here so that the erasure counts it).
                      "web_seats",
                      "players"):
            counts[table] = await db.run(
                f"DELETE FROM {table} WHERE guild_id = ? AND user_id = ?", key
            )
        if not known and not any(counts.values()):
            # Nothing of theirs anywhere: say so rather than report a delete of nothing.
            raise not_found("player", guild_id=guild_id, user_id=user_id)
    return counts
