-- Ardoise schema 3: indexes for the queries the bot runs often.

-- A student's progress (db.focus.progress) reads only these columns, in time order: a covering
-- index answers it without touching the table (see docs/benchmarks.md, Storage).
CREATE INDEX focus_answers_progress
    ON focus_answers (guild_id, user_id, answered_at, topic, correct, time_ms);

-- Games past their time limit (the scheduler asks every minute).
CREATE INDEX digits_matches_deadline ON digits_matches (deadline)
    WHERE status = 'active' AND deadline IS NOT NULL;
CREATE INDEX rithmo_games_deadline ON rithmo_games (deadline)
    WHERE status = 'active' AND deadline IS NOT NULL;

-- Games waiting on a player.
CREATE INDEX rithmo_games_white ON rithmo_games (white_id) WHERE status IN ('pending', 'active');
CREATE INDEX rithmo_games_black ON rithmo_games (black_id) WHERE status IN ('pending', 'active');
