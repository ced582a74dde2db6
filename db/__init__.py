"""Ardoise's storage: the one place that speaks SQL (SQLite through aiosqlite, or PostgreSQL
through asyncpg).

Use
---
::

    db = await Database.open(path)          # default_path(): $ARDOISE_DB or data/ardoise.sqlite3
                                            # (a file, or a postgresql://… URL)
    match = await db.digits.get_match(42)
    try:
        await db.digits.save_match(42, new_state, expected_version=match.version)
    except StaleVersion:                     # a DomainError, code "db.stale": someone acted first
        ...
    async with db.transaction():             # several changes, all or nothing
        await db.players.add_gold(guild, user, -3)
        await db.focus.record(answer)
    await db.close()

Layers: :mod:`db.connection` is the one module that executes SQL (a ``Connection``: statements,
transactions, the two write policies of versioned rows, times and JSON as text, over one of two
engines), with :mod:`db.dialect` the SQL text the engines differ in; the
repositories are built on it (each receives the connection and the repositories it builds on,
never the ``Database``); :mod:`db.core`'s ``Database`` is the facade that opens the connection,
runs the migrations and builds them. Tools and tests that need a raw statement use
``db.connection.all(...)``, never a private method.

Repositories (each a ``Database`` attribute): ``servers`` (settings and who may change them),
``players`` (gold, Focus level, ratings, leaderboards, streaks, history), ``focus`` (answers,
progress), ``daily`` (challenges, attempts, daily leaderboard), ``digits`` (matches, ghosts),
``rithmo`` (games, turns, hints counted; the skeleton it shares with ``digits``, a versioned
game's row loaded with its child rows and finished once, is :mod:`db.versioned`),
``rithmo_puzzles`` (the daily capture puzzles and the members' answers), ``rithmo_reviews``
(the kept reviews of finished games), ``games`` (across
both: waiting on a player, past their time limit),
``class_report`` (the class report's figures, from the rollup migration 11's triggers keep),
``retention`` (what is older than a server's retention goes, in batches; who has data on it).
``leases`` (which bot process serves which shard, migration 16), ``placements`` (each member's
latest placement round and the level it chose, migration 21).
They take and return plain values and frozen dataclasses; game states are the engines' JSON
dicts, stored as text and never looked into by SQL. ``python -m db`` backs up, migrates, exports
or deletes a player's data, and copies a database from one engine to the other (:mod:`db.copy`).

Design decisions
----------------
- **Two engines, one interface.** SQLite (a file, the default) and PostgreSQL (``ARDOISE_DB=
  postgresql://…``, for several bot processes sharing one database). The repositories write one
  SQL (``?`` placeholders, ``ON CONFLICT``, ``RETURNING``); the connection translates it for
  PostgreSQL, and the few fragments said differently are :mod:`db.dialect`'s. Times and JSON are
  text on both, integers are 64-bit, rows read by name or position, a refused constraint is the
  same ``IntegrityError``. docs/postgresql.md says what differs and why. What follows holds on
  both, but where it names SQLite.
- **Two connections.** Writes go through one *writer* connection, one transaction at a time: an
  ``asyncio.Lock`` queues the tasks, ``BEGIN IMMEDIATE`` takes SQLite's write lock at once (so a
  transaction never fails half-way for want of it), and any exception, cancellation included,
  rolls back. Reads outside a transaction go to a second, read-only *reader* connection: with WAL
  they see the last committed state and never wait for a writer, nor see its uncommitted rows.
  Inside a transaction, reads use the writer and see the transaction's own changes. On
  PostgreSQL the same: one writer connection per process behind the lock (plain ``BEGIN``: rows
  are locked as they are written), and a pool of read-only readers.
- **Joining transactions.** ``async with db.transaction()`` marks the current task (a context
  variable); every repository call the task makes inside joins it, so repository methods compose
  ("finish the match, then rate it" is one transaction). A nested ``transaction()`` is a
  SAVEPOINT. A task *started* inside a transaction does not join it (it would write after the
  commit): it queues for its own, so the parent must not wait for it while holding the lock.
- **Round trips.** Each statement is a hop to aiosqlite's thread and back (about 0.1 ms on one
  core, more than most statements cost), so: a write of one statement outside a transaction runs
  without BEGIN/COMMIT (it commits on its own, still under the writer lock); a game is read with
  its seats or turns in one query; repository methods join a caller's transaction without a
  savepoint; a newcomer's player row is created on demand (a first answer that fails its foreign
  key creates it and is inserted again) rather than checked before every answer.
- **Optimistic concurrency.** Matches and games carry a ``version`` that every change increments
  with ``UPDATE … WHERE version = ?``: a change made from a stale version changes no row and raises
  :class:`StaleVersion` (``DomainError`` code "db.stale"), so two clicks cannot both spend the same
  gold or play two turns; the loser re-reads and sees what happened. Counters outside game states
  (a player's gold) check and change in one statement instead (``gold + ? >= 0``).
- **Bookkeeping keeps the version.** Columns that say where a game is shown or what was done
  about it (``message_id``, ``warned_at`` and the grace deadline) are written by their own
  methods (``digits.set_message_id``, ``rithmo.set_message_id``, ``games.mark_warned``, through
  ``Connection.update_bookkeeping``) without moving the version, and never along a versioned
  save: a button posted from version N stays valid while the bot records its message, and the
  two writes can land in any order. So no caller retries for them.
- **Migrations.** Numbered files ``db/migrations/NNNN_name.sql``, each applied in its own
  transaction with its row in ``schema_migrations`` (PostgreSQL reads a portable file with its
  types translated, or its twin ``NNNN_name.postgresql.sql``: :mod:`db.migrate`); a database
  from any earlier version upgrades at open. A database newer than the code is refused with
  :class:`DatabaseVersionError` ("database version N is newer than this Ardoise (M); upgrade
  Ardoise") rather than be misread.
- **Pragmas.** WAL; ``synchronous = NORMAL`` (with WAL a power cut may lose the last commits but
  never corrupts the file; an application crash loses nothing); ``foreign_keys = ON`` on both
  connections; ``busy_timeout`` 5 s, for the command line working beside a running bot;
  ``secure_delete = ON`` (what is deleted, an erased member's rows, is overwritten in the file);
  ``PRAGMA optimize`` at close.
- **Times** are stored as UTC text ``YYYY-MM-DD HH:MM:SS.fff`` (sorts as time, and SQLite's
  ``date()`` reads it); the API takes and returns aware ``datetime`` objects and refuses naive ones.
  Days of the daily challenge are the server's local dates (``ServerSettings.timezone``).
- **Ratings** (Glicko-2, :mod:`bot.ratings`) are updated in the transaction that finishes a game
  between two members; each game is one rating period; a week without rated games widens the RD.
  Ghost matches and games against Ardoise are not rated. Both rating rows are written (taken)
  before they are read, so that two processes rating games of one player at once lose neither.
- **Several processes on one database** (issue 18, docs/architecture.md): the daily post is
  claimed in one statement (``daily.claim_post``) so that one process posts it; every change of
  a server's settings moves ``servers.settings_version`` on, which a process keeping them in
  memory reads (``servers.versions``) to forget what another process changed.
- **A member's data on request**: :meth:`Database.export_player` gives everything as JSON;
  :meth:`Database.delete_player` removes their rows, abandons their unfinished games and leaves the
  others' finished games with an anonymous (NULL) opponent, in one transaction. Game states are
  opaque JSON to SQL, but not to the erasure: the states that hold the member's id are walked in
  Python, their name dropped and their id replaced by a pseudonym (``db.export`` explains how).
- **Backup** uses SQLite's online backup API from the reader connection: writers go on, the copy
  is one consistent snapshot, written beside the destination and renamed into place. On
  PostgreSQL, ``pg_dump`` (custom format), or the command to run when it is missing.

Refusals (``DomainError`` codes, for the bot's catalogues)
---------------------------------------------------------
``db.stale`` (kind, id, expected, actual), ``db.not_found`` (kind and key),
``player.not_enough_gold`` (need, have), ``settings.invalid`` (setting, value),
``settings.unknown`` (setting), ``daily.none``, ``daily.already_attempted``, ``daily.not_started``,
``daily.already_finished`` (day), ``digits.not_active``, ``rithmo.not_active`` (status),
``rithmo.hints_off``.
"""

from db.connection import Connection, StaleVersion, is_postgresql, shown_location
from db.core import Database, default_path, location_of
from db.daily import DailyAttempt, DailyChallengeRow, DailyRow
from db.digits import DigitsMatch, GhostRow, Seat
from db.focus import FocusAnswer, ProgressRow
from db.games import UNSET, OverdueGame, WaitingGame
from db.migrate import LATEST_VERSION, DatabaseVersionError
from db.players import HistoryEntry, Player, PlayerRating, RatingChange, RatingRow, StreakRow
from db.rithmo import RithmoGame, TurnRow
from db.rithmo_puzzles import DailyPuzzle, FinishedGame, PuzzleAnswer
from db.rithmo_reviews import ReviewableGame
from db.servers import ServerSettings

__all__ = [
    "LATEST_VERSION",
    "UNSET",
    "Connection",
    "DailyAttempt",
    "DailyChallengeRow",
    "DailyPuzzle",
    "DailyRow",
    "Database",
    "DatabaseVersionError",
    "DigitsMatch",
    "FinishedGame",
    "FocusAnswer",
    "GhostRow",
    "HistoryEntry",
    "OverdueGame",
    "Player",
    "PlayerRating",
    "ProgressRow",
    "PuzzleAnswer",
    "RatingChange",
    "RatingRow",
    "ReviewableGame",
    "RithmoGame",
    "Seat",
    "ServerSettings",
    "StaleVersion",
    "StreakRow",
    "TurnRow",
    "WaitingGame",
    "default_path",
    "is_postgresql",
    "location_of",
    "shown_location",
]
