-- PostgreSQL's twin of 0010_assignments.sql (which explains it): the same, but PostgreSQL adds
-- booleans only as integers, in the CHECK of what an assignment is drawn from.

-- Ardoise schema 10: homework (/class assign). An assignment is a Focus set for everyone or for a
-- role, due at a moment (UTC); each student takes it once, and their attempt is kept like a daily
-- challenge's (resumable: its answers are focus_answers rows under round_key 'assignment:<id>').
-- Its post's button is closed by a background task after the due date (closed_at).

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
    set_name      TEXT,                             -- the set's name when drawn (kept if it goes)
    count         INTEGER NOT NULL CHECK (count >= 1),
    questions     TEXT NOT NULL,                    -- JSON: the questions, drawn once
    due_at        TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    closed_at     TEXT,                             -- when the post's button was closed
    lang          TEXT NOT NULL DEFAULT 'en',       -- the post's language (kept when closed)
    UNIQUE (guild_id, name),
    CHECK ((level IS NOT NULL)::int + (topic IS NOT NULL)::int + (set_name IS NOT NULL)::int = 1)
);
-- The background task's question: which posts past their due date are still open.
CREATE INDEX assignments_to_close ON assignments (due_at) WHERE closed_at IS NULL;
-- The report's question: every answer of one assignment (round key 'assignment:<id>').
CREATE INDEX focus_answers_round ON focus_answers (guild_id, round_key) WHERE round_key IS NOT NULL;

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
