-- Ardoise schema 5: live Focus rounds that a teacher runs in a channel. The engine's state is kept
-- between clicks so that the round goes on after a restart of the bot; each answer is also a row
-- of focus_answers (source 'live'). A finished round keeps only its status (the answers hold the
-- record), so no member's name or id stays here after the round.

CREATE TABLE focus_live_rounds (
    live_id    INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL REFERENCES servers (guild_id) ON DELETE CASCADE,
    channel_id INTEGER,
    teacher_id INTEGER,                        -- who started it (only they move it on)
    status     TEXT NOT NULL,                  -- 'active', 'finished'
    state      TEXT NOT NULL,                  -- JSON: the engine's live round and the bot's notes
    version    INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
