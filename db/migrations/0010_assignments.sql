-- Ardoise schema 10: homework (/class assign). An assignment is a Focus set for everyone or for a
-- role, due at a moment (UTC); each student takes it once, and their attempt is kept like a daily
-- challenge's (resumable: its answers are focus_answers rows under round_key 'assignment:<id>').

CREATE TABLE assignments (
    assignment_id INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL REFERENCES servers (guild_id) ON DELETE CASCADE,
    name          TEXT NOT NULL COLLATE NOCASE,
    teacher_id    INTEGER,                          -- NULL once that teacher is erased
    channel_id    INTEGER,
    message_id    INTEGER,
    role_id       INTEGER,                          -- NULL: everyone
    level         INTEGER CHECK (level >= 1),
    topic         TEXT,
    set_id        INTEGER REFERENCES question_sets (set_id) ON DELETE SET NULL,
    count         INTEGER NOT NULL CHECK (count >= 1),
    questions     TEXT NOT NULL,                    -- JSON: the questions, drawn once
    due_at        TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    UNIQUE (guild_id, name)
);

CREATE TABLE assignment_attempts (
    assignment_id INTEGER NOT NULL REFERENCES assignments (assignment_id) ON DELETE CASCADE,
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    score         INTEGER CHECK (score >= 0),       -- NULL until finished
    time_ms       INTEGER CHECK (time_ms >= 0),
    started_at    TEXT NOT NULL,
    finished_at   TEXT,
    PRIMARY KEY (assignment_id, user_id),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX assignment_attempts_player ON assignment_attempts (guild_id, user_id);
