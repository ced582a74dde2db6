-- Ardoise schema 9: a teacher's own questions (/class questions upload), by set. A set belongs to
-- its server; its author becomes NULL when that teacher is erased. Answers are whole numbers, as
-- Focus reads them.

CREATE TABLE question_sets (
    set_id     INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL REFERENCES servers (guild_id) ON DELETE CASCADE,
    name       TEXT NOT NULL COLLATE NOCASE,
    author_id  INTEGER,
    created_at TEXT NOT NULL,
    UNIQUE (guild_id, name)
);

CREATE TABLE question_set_items (
    set_id   INTEGER NOT NULL REFERENCES question_sets (set_id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position >= 0),
    text     TEXT NOT NULL,
    answer   INTEGER NOT NULL,
    topic    TEXT,                                 -- NULL: the set's name is its topic
    PRIMARY KEY (set_id, position)
) WITHOUT ROWID;
