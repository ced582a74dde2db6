-- Ardoise: Focus mastery (bot/focus/mastery.py, db/mastery.py): per member, each fact
-- ('7*8', '5+8', '13-5', '56/8') and each skill at a level ('multiplication:4') with its
-- mastery level (1 attempted, 2 familiar, 3 proficient, 4 mastered), the spaced reviews passed
-- (step), its latest outcomes (recent: f fast, s slow, w wrong, oldest first), its counts and
-- when it is due for review. Written in the answer's own transaction by db/focus.py (record,
-- record_many); the rows go with the member (ON DELETE CASCADE from players, and db/export.py
-- exports and deletes them).
--
-- focus_mastery_backfill lists the members who answered before this table existed: their
-- model is worked out once from their stored answers (in Python, the first time it is read:
-- db/mastery.py), then their row here is deleted.

CREATE TABLE focus_mastery (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('fact', 'skill')),
    item        TEXT NOT NULL,
    level       INTEGER NOT NULL CHECK (level BETWEEN 1 AND 4),
    step        INTEGER NOT NULL CHECK (step >= 0),
    recent      TEXT NOT NULL,
    answers     INTEGER NOT NULL CHECK (answers >= 1),
    correct     INTEGER NOT NULL CHECK (correct >= 0),
    fast        INTEGER NOT NULL CHECK (fast >= 0),
    due_at      TEXT NOT NULL,
    last_at     TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id, kind, item),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id) ON DELETE CASCADE
);

CREATE TABLE focus_mastery_backfill (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id) ON DELETE CASCADE
);

INSERT INTO focus_mastery_backfill (guild_id, user_id)
SELECT DISTINCT guild_id, user_id FROM focus_answers;
