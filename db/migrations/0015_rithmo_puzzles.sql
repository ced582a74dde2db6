-- Ardoise schema 15: Rithmomachia's hints and capture puzzles (issue 16).
--
-- Hints (/rithmo hint): whether the players of a game allowed them (always in a game against
-- Ardoise; in a challenge, the challenger's choice, which the challenged member accepts with the
-- challenge), and how many each side asked for. Counters beside the game, not in its position:
-- a hint changes nothing of the game, so it keeps the game's version (bookkeeping) and cannot be
-- lost to a turn saved at the same moment.
ALTER TABLE rithmo_games ADD COLUMN hints_allowed INTEGER NOT NULL DEFAULT 0
    CHECK (hints_allowed IN (0, 1));
ALTER TABLE rithmo_games ADD COLUMN hints_white INTEGER NOT NULL DEFAULT 0 CHECK (hints_white >= 0);
ALTER TABLE rithmo_games ADD COLUMN hints_black INTEGER NOT NULL DEFAULT 0 CHECK (hints_black >= 0);

-- The daily puzzle of a server: one a day (the server's local day), the same for everyone, kept
-- as drawn (bot/rithmo/puzzles.py's Puzzle.to_json) so that games finished later that day
-- change nothing.
CREATE TABLE rithmo_puzzles (
    puzzle_id  INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL REFERENCES servers (guild_id) ON DELETE CASCADE,
    day        TEXT NOT NULL,                  -- 'YYYY-MM-DD', the server's local date
    puzzle     TEXT NOT NULL,                  -- JSON
    created_at TEXT NOT NULL,
    UNIQUE (guild_id, day)
);

-- A member's one counted answer to a daily puzzle (the first legal turn they gave): the primary
-- key refuses a second one.
CREATE TABLE rithmo_puzzle_solves (
    puzzle_id   INTEGER NOT NULL REFERENCES rithmo_puzzles (puzzle_id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    day         TEXT NOT NULL,                 -- the puzzle's day, for /progress
    answer      TEXT NOT NULL,                 -- the turn as the engine recorded it
    solved      INTEGER NOT NULL CHECK (solved IN (0, 1)),
    answered_at TEXT NOT NULL,
    PRIMARY KEY (puzzle_id, user_id),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id) ON DELETE CASCADE
);
CREATE INDEX rithmo_puzzle_solves_player ON rithmo_puzzle_solves (guild_id, user_id, day);
