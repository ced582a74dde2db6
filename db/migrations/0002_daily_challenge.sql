-- Ardoise schema 2: the daily challenge (its server settings, the challenges, each member's
-- attempt) and the players' daily streaks.

ALTER TABLE servers ADD COLUMN daily_channel_id INTEGER;
ALTER TABLE servers ADD COLUMN daily_hour INTEGER NOT NULL DEFAULT 8
    CHECK (daily_hour BETWEEN 0 AND 23);
ALTER TABLE servers ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC';  -- IANA name, for the hour

ALTER TABLE players ADD COLUMN daily_streak INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN best_daily_streak INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN last_daily_day TEXT;  -- 'YYYY-MM-DD' of the last finished attempt

CREATE TABLE daily_challenges (
    guild_id   INTEGER NOT NULL REFERENCES servers (guild_id) ON DELETE CASCADE,
    day        TEXT NOT NULL,                  -- 'YYYY-MM-DD', the server's local date
    questions  TEXT NOT NULL,                  -- JSON
    channel_id INTEGER,
    message_id INTEGER,
    created_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, day)
) WITHOUT ROWID;

-- One attempt per member per day: the primary key refuses a second one.
CREATE TABLE daily_attempts (
    guild_id    INTEGER NOT NULL,
    day         TEXT NOT NULL,
    user_id     INTEGER NOT NULL,
    score       INTEGER CHECK (score >= 0),    -- NULL until finished
    time_ms     INTEGER CHECK (time_ms >= 0),
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    PRIMARY KEY (guild_id, day, user_id),
    FOREIGN KEY (guild_id, day) REFERENCES daily_challenges (guild_id, day) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX daily_attempts_board ON daily_attempts (guild_id, day, score DESC, time_ms);
CREATE INDEX daily_attempts_player ON daily_attempts (guild_id, user_id);
