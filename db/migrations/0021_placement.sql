-- Ardoise schema 21: placement (issue 26). A new student's placement round, which finds their
-- starting Focus level in at most 12 questions: one row per member of a server, their latest
-- placement. 'skipped': they chose to practise without it (the offer is not made again);
-- 'running': under way (state holds bot/focus/placement.py's Placement as JSON, the question
-- waiting included, so that a restart goes on where it stopped); 'finished': level is the level
-- it chose (and set as their Focus level), finished_at when. The answers themselves are
-- focus_answers rows (source 'practice', round_key 'placement:…'), counted as practice's. A row
-- goes with its player (erasing a member erases it); version: a second window of the same
-- placement is refused rather than answering twice.

CREATE TABLE focus_placements (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('skipped', 'running', 'finished')),
    state       TEXT,                                   -- JSON; NULL when skipped
    round_key   TEXT,                                   -- its answers' round in focus_answers
    level       INTEGER CHECK (level BETWEEN 1 AND 8),  -- the level it chose, once finished
    started_at  TEXT,
    finished_at TEXT,
    updated_at  TEXT NOT NULL,
    version     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id) ON DELETE CASCADE
) WITHOUT ROWID;
