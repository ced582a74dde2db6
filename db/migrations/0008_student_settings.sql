-- Ardoise schema 8: one student's own settings in one server (/class student), which win over
-- the server's (/settings). A NULL column is "as the server says". A row goes with its player
-- (erasing a member erases it).

CREATE TABLE student_settings (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    level_min    INTEGER CHECK (level_min >= 1),       -- Focus practice and match Focus levels
    level_max    INTEGER CHECK (level_max >= 1),
    level_pinned INTEGER CHECK (level_pinned >= 1),
    extra_time   TEXT CHECK (extra_time IN ('x1.5', 'x2', 'untimed')),  -- NULL: the usual time
    rankings     TEXT CHECK (rankings IN ('anonymous', 'hidden')),      -- NULL: shown by name
    updated_at   TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    CHECK (level_max IS NULL OR level_min IS NULL OR level_max >= level_min),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id) ON DELETE CASCADE
) WITHOUT ROWID;
