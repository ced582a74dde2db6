-- Ardoise schema 1: servers, players and ratings, The 20 Digits, Rithmomachia, Focus answers.
--
-- Conventions (db/__init__.py explains them):
-- * Times are UTC text 'YYYY-MM-DD HH:MM:SS.fff', SQLite's own format: it sorts, and date() reads it.
-- * JSON columns hold what the engines serialise; SQL never looks inside them.
-- * Enumerations (status, game, side…) are checked in Python, not by CHECK constraints, so that a
--   new value does not need a table rebuild; CHECK constraints guard numeric invariants only.
-- * user_id columns of games become NULL when a player's data is deleted on request.

CREATE TABLE servers (
    guild_id           INTEGER PRIMARY KEY,
    language           TEXT,                   -- 'en', 'fr'; NULL: each member's own locale
    focus_level_min    INTEGER NOT NULL DEFAULT 1 CHECK (focus_level_min >= 1),
    focus_level_max    INTEGER CHECK (focus_level_max >= focus_level_min),  -- NULL: no ceiling
    focus_level_pinned INTEGER CHECK (focus_level_pinned >= 1),  -- NULL: each student's own level
    match_lives        INTEGER NOT NULL DEFAULT 10 CHECK (match_lives >= 1),
    match_gold         INTEGER NOT NULL DEFAULT 5 CHECK (match_gold >= 0),  -- base gold per round
    rithmo_victories   TEXT,                   -- JSON; NULL: the engine's default
    move_time_limit_s  INTEGER NOT NULL DEFAULT 86400 CHECK (move_time_limit_s > 0),
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL
);

-- Roles whose members may change the settings (besides Manage Server, which the bot checks).
CREATE TABLE server_admin_roles (
    guild_id INTEGER NOT NULL REFERENCES servers (guild_id) ON DELETE CASCADE,
    role_id  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, role_id)
) WITHOUT ROWID;

CREATE TABLE players (
    guild_id    INTEGER NOT NULL REFERENCES servers (guild_id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    gold        INTEGER NOT NULL DEFAULT 0 CHECK (gold >= 0),
    focus_level INTEGER NOT NULL DEFAULT 1 CHECK (focus_level >= 1),
    created_at  TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

-- Glicko-2 rating and record of one player in one game (bot/ratings.py).
CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    game        TEXT NOT NULL,                 -- 'digits', 'rithmo'
    rating      REAL NOT NULL,
    rd          REAL NOT NULL CHECK (rd > 0),
    volatility  REAL NOT NULL CHECK (volatility > 0),
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    streak      INTEGER NOT NULL DEFAULT 0,    -- current run of wins
    best_streak INTEGER NOT NULL DEFAULT 0,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id, game),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX ratings_leaderboard ON ratings (guild_id, game, rating DESC);

-- The 20 Digits.
CREATE TABLE digits_matches (
    match_id    INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL REFERENCES servers (guild_id) ON DELETE CASCADE,
    channel_id  INTEGER,
    message_id  INTEGER,
    kind        TEXT NOT NULL,                 -- 'duel' (two members), 'ghost' (one against ghosts)
    status      TEXT NOT NULL,                 -- 'pending', 'active', 'finished', 'declined', 'abandoned'
    round       INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),
    state       TEXT NOT NULL,                 -- JSON, the engine's match state
    version     INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    deadline    TEXT,                          -- the players waited on must act before this
    warned_at   TEXT,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    finished_at TEXT
);

CREATE TABLE digits_seats (
    match_id INTEGER NOT NULL REFERENCES digits_matches (match_id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL CHECK (seat IN (0, 1)),
    user_id  INTEGER,
    to_act   INTEGER NOT NULL DEFAULT 0 CHECK (to_act IN (0, 1)),  -- 1: the match waits on them
    result   TEXT,                             -- 'win', 'loss', 'draw' once finished
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
CREATE INDEX digits_seats_user ON digits_seats (user_id, to_act);

-- The slate each player fielded at each round: the ghosts other players meet.
CREATE TABLE digits_ghosts (
    match_id   INTEGER NOT NULL REFERENCES digits_matches (match_id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    round      INTEGER NOT NULL CHECK (round >= 1),
    guild_id   INTEGER NOT NULL,
    slate      TEXT NOT NULL,                  -- JSON
    created_at TEXT NOT NULL,
    PRIMARY KEY (match_id, user_id, round)
) WITHOUT ROWID;
CREATE INDEX digits_ghosts_pool ON digits_ghosts (guild_id, round, user_id, created_at);

-- Rithmomachia.
CREATE TABLE rithmo_games (
    game_id       INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL REFERENCES servers (guild_id) ON DELETE CASCADE,
    channel_id    INTEGER,
    message_id    INTEGER,
    white_id      INTEGER,
    black_id      INTEGER,
    computer_side TEXT,                        -- 'white' or 'black' when Ardoise plays that side
    challenger_id INTEGER,                     -- a pending challenge waits on the other player
    victories     TEXT NOT NULL,               -- JSON, as agreed at set-up
    position      TEXT NOT NULL,               -- JSON, the engine's current position
    to_move       TEXT NOT NULL DEFAULT 'white',
    deadline      TEXT,                        -- the player to move must play before this
    warned_at     TEXT,
    draw_offer    TEXT,                        -- the side offering a draw, if any
    status        TEXT NOT NULL,               -- 'pending', 'active', 'finished', 'declined', 'abandoned'
    result        TEXT,                        -- 'white', 'black', 'draw'
    reason        TEXT,                        -- e.g. 'victory:body', 'resignation', 'timeout'
    version       INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    finished_at   TEXT
);

CREATE TABLE rithmo_turns (
    game_id   INTEGER NOT NULL REFERENCES rithmo_games (game_id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL CHECK (ply >= 1),
    side      TEXT NOT NULL,
    notation  TEXT NOT NULL,
    played_at TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

-- Every Focus answer.
CREATE TABLE focus_answers (
    answer_id   INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    answered_at TEXT NOT NULL,
    source      TEXT NOT NULL,                 -- 'practice', 'daily', 'match', 'live'
    topic       TEXT NOT NULL,
    level       INTEGER NOT NULL CHECK (level >= 1),
    question    TEXT NOT NULL,
    expected    INTEGER NOT NULL,
    given       INTEGER,                       -- NULL: no answer in time
    correct     INTEGER NOT NULL CHECK (correct IN (0, 1)),
    time_ms     INTEGER NOT NULL CHECK (time_ms >= 0),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id) ON DELETE CASCADE
);
