-- Ardoise schema 17: how long a server keeps its members' answers and finished games (issue 23;
-- /settings privacy, bot/play/retention.py, db/retention.py, docs/teachers.md "How long data is
-- kept").
--
-- retention_days: answers and finished games older than this many days are erased by the daily
-- task. retention_until: "until the end of the school year": once that local date has passed,
-- what is older than the day after it is erased. Both NULL: kept for ever. A new server keeps
-- 365 days (the column's default, privacy by default); the servers already here keep everything,
-- as before this version, until a teacher chooses: an upgrade never erases anything by itself.
-- retention_told: the end of the school year the teachers were told of (once per date).

ALTER TABLE servers ADD COLUMN retention_days INTEGER DEFAULT 365
    CHECK (retention_days BETWEEN 7 AND 3650);
UPDATE servers SET retention_days = NULL;
ALTER TABLE servers ADD COLUMN retention_until TEXT;  -- 'YYYY-MM-DD', the server's local date
ALTER TABLE servers ADD COLUMN retention_told TEXT;

-- The daily task's question: a server's answers older than a moment, oldest first.
CREATE INDEX focus_answers_age ON focus_answers (guild_id, answered_at);
