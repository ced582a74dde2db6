-- PostgreSQL's twin of 0011_class_report.sql (which explains the rollups): the same tables, the
-- backfill and the triggers in PL/pgSQL (SQLite's trigger bodies and its date function have no twin).
-- tests/test_class_report.py checks that both engines give the same rollups for the same answers.

-- Ardoise schema 11: the class report's rollups (/class report, bot/play/class_report.py).
--
-- A server-wide report over a period would read every answer of the period (a million for a
-- server of 1,000 students and a term). Instead:
-- - focus_rollup keeps, per quarter of an hour (UTC), member and topic, how many answers, how
--   many right, and how many took each span of time: a report over a period sums the rows of
--   its slots, and finds the median time in those spans. A quarter of an hour, not a day:
--   periods are days of the server's time zone, and every time zone is a whole number of
--   quarter hours from UTC, so a period's edges fall between slots whatever the zone (and a
--   change of zone changes nothing stored). A practice round (six answers in a minute or two)
--   is one row. Keyed by slot first, so that a week's report reads only that week's rows.
-- - focus_rollup_total keeps the same per member and topic for all time (the report "since the
--   start" reads one row per student and topic), with the slot of the first answer (the order
--   of stable pseudonyms).
--
-- The time spans (t0..t15), in seconds: [0,1) [1,2) [2,3) [3,4) [4,5) [5,6) [6,7) [7,8) [8,10)
-- [10,12) [12,15) [15,20) [20,30) [30,45) [45,60) [60,...), as db/class_report.py's EDGES_MS.
--
-- The triggers keep both right in the answer's own transaction, whatever writes focus_answers
-- (db/focus.py record and record_many, or any later path); answers are never updated, and a
-- deleted answer is taken out again (a member's erasure deletes all of theirs; first_slot is
-- then gone with the row). The rows go with the member (ON DELETE CASCADE from players, and
-- db/export.py deletes and exports them).

CREATE TABLE focus_rollup (
    guild_id    INTEGER NOT NULL,
    slot        INTEGER NOT NULL,              -- unix time of the answers // 900
    user_id     INTEGER NOT NULL,
    topic       TEXT NOT NULL,
    answers     INTEGER NOT NULL CHECK (answers >= 0),
    correct     INTEGER NOT NULL CHECK (correct >= 0),
    t0          INTEGER NOT NULL DEFAULT 0 CHECK (t0 >= 0),
    t1          INTEGER NOT NULL DEFAULT 0 CHECK (t1 >= 0),
    t2          INTEGER NOT NULL DEFAULT 0 CHECK (t2 >= 0),
    t3          INTEGER NOT NULL DEFAULT 0 CHECK (t3 >= 0),
    t4          INTEGER NOT NULL DEFAULT 0 CHECK (t4 >= 0),
    t5          INTEGER NOT NULL DEFAULT 0 CHECK (t5 >= 0),
    t6          INTEGER NOT NULL DEFAULT 0 CHECK (t6 >= 0),
    t7          INTEGER NOT NULL DEFAULT 0 CHECK (t7 >= 0),
    t8          INTEGER NOT NULL DEFAULT 0 CHECK (t8 >= 0),
    t9          INTEGER NOT NULL DEFAULT 0 CHECK (t9 >= 0),
    t10         INTEGER NOT NULL DEFAULT 0 CHECK (t10 >= 0),
    t11         INTEGER NOT NULL DEFAULT 0 CHECK (t11 >= 0),
    t12         INTEGER NOT NULL DEFAULT 0 CHECK (t12 >= 0),
    t13         INTEGER NOT NULL DEFAULT 0 CHECK (t13 >= 0),
    t14         INTEGER NOT NULL DEFAULT 0 CHECK (t14 >= 0),
    t15         INTEGER NOT NULL DEFAULT 0 CHECK (t15 >= 0),
    PRIMARY KEY (guild_id, slot, user_id, topic),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE focus_rollup_total (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    topic       TEXT NOT NULL,
    first_slot  INTEGER NOT NULL,              -- the slot of the member's first answer in it
    answers     INTEGER NOT NULL CHECK (answers >= 0),
    correct     INTEGER NOT NULL CHECK (correct >= 0),
    t0          INTEGER NOT NULL DEFAULT 0 CHECK (t0 >= 0),
    t1          INTEGER NOT NULL DEFAULT 0 CHECK (t1 >= 0),
    t2          INTEGER NOT NULL DEFAULT 0 CHECK (t2 >= 0),
    t3          INTEGER NOT NULL DEFAULT 0 CHECK (t3 >= 0),
    t4          INTEGER NOT NULL DEFAULT 0 CHECK (t4 >= 0),
    t5          INTEGER NOT NULL DEFAULT 0 CHECK (t5 >= 0),
    t6          INTEGER NOT NULL DEFAULT 0 CHECK (t6 >= 0),
    t7          INTEGER NOT NULL DEFAULT 0 CHECK (t7 >= 0),
    t8          INTEGER NOT NULL DEFAULT 0 CHECK (t8 >= 0),
    t9          INTEGER NOT NULL DEFAULT 0 CHECK (t9 >= 0),
    t10         INTEGER NOT NULL DEFAULT 0 CHECK (t10 >= 0),
    t11         INTEGER NOT NULL DEFAULT 0 CHECK (t11 >= 0),
    t12         INTEGER NOT NULL DEFAULT 0 CHECK (t12 >= 0),
    t13         INTEGER NOT NULL DEFAULT 0 CHECK (t13 >= 0),
    t14         INTEGER NOT NULL DEFAULT 0 CHECK (t14 >= 0),
    t15         INTEGER NOT NULL DEFAULT 0 CHECK (t15 >= 0),
    PRIMARY KEY (guild_id, user_id, topic),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id) ON DELETE CASCADE
) WITHOUT ROWID;

-- The answers already stored (a database upgraded from version 10). The slot is the unix time
-- of the answer (UTC text, read as a timestamp without a zone: its epoch is UTC's) // 900.
INSERT INTO focus_rollup (guild_id, slot, user_id, topic, answers, correct, t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15)
SELECT guild_id, slot, user_id, topic, count(*), sum(correct),
       count(*) FILTER (WHERE span = 0), count(*) FILTER (WHERE span = 1), count(*) FILTER (WHERE span = 2), count(*) FILTER (WHERE span = 3), count(*) FILTER (WHERE span = 4), count(*) FILTER (WHERE span = 5), count(*) FILTER (WHERE span = 6), count(*) FILTER (WHERE span = 7), count(*) FILTER (WHERE span = 8), count(*) FILTER (WHERE span = 9), count(*) FILTER (WHERE span = 10), count(*) FILTER (WHERE span = 11), count(*) FILTER (WHERE span = 12), count(*) FILTER (WHERE span = 13), count(*) FILTER (WHERE span = 14), count(*) FILTER (WHERE span = 15)
FROM (SELECT guild_id, user_id, topic, correct, floor(extract(epoch FROM answered_at::timestamp))::bigint / 900 AS slot,
             CASE WHEN time_ms < 1000 THEN 0 WHEN time_ms < 2000 THEN 1 WHEN time_ms < 3000 THEN 2 WHEN time_ms < 4000 THEN 3 WHEN time_ms < 5000 THEN 4 WHEN time_ms < 6000 THEN 5 WHEN time_ms < 7000 THEN 6 WHEN time_ms < 8000 THEN 7 WHEN time_ms < 10000 THEN 8 WHEN time_ms < 12000 THEN 9 WHEN time_ms < 15000 THEN 10 WHEN time_ms < 20000 THEN 11 WHEN time_ms < 30000 THEN 12 WHEN time_ms < 45000 THEN 13 WHEN time_ms < 60000 THEN 14 ELSE 15 END AS span
      FROM focus_answers) AS spans
GROUP BY guild_id, slot, user_id, topic;

INSERT INTO focus_rollup_total (guild_id, user_id, topic, first_slot, answers, correct, t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15)
SELECT guild_id, user_id, topic, min(slot), sum(answers), sum(correct),
       sum(t0), sum(t1), sum(t2), sum(t3), sum(t4), sum(t5), sum(t6), sum(t7), sum(t8), sum(t9), sum(t10), sum(t11), sum(t12), sum(t13), sum(t14), sum(t15)
FROM focus_rollup
GROUP BY guild_id, user_id, topic;

-- The triggers, as SQLite's: an answer added is counted in its slot's row and its all-time row;
-- an answer deleted is taken out, and a row left with no answer goes.
CREATE FUNCTION focus_rollup_add() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    span integer := CASE WHEN NEW.time_ms < 1000 THEN 0 WHEN NEW.time_ms < 2000 THEN 1 WHEN NEW.time_ms < 3000 THEN 2 WHEN NEW.time_ms < 4000 THEN 3 WHEN NEW.time_ms < 5000 THEN 4 WHEN NEW.time_ms < 6000 THEN 5 WHEN NEW.time_ms < 7000 THEN 6 WHEN NEW.time_ms < 8000 THEN 7 WHEN NEW.time_ms < 10000 THEN 8 WHEN NEW.time_ms < 12000 THEN 9 WHEN NEW.time_ms < 15000 THEN 10 WHEN NEW.time_ms < 20000 THEN 11 WHEN NEW.time_ms < 30000 THEN 12 WHEN NEW.time_ms < 45000 THEN 13 WHEN NEW.time_ms < 60000 THEN 14 ELSE 15 END;
    new_slot bigint := floor(extract(epoch FROM NEW.answered_at::timestamp))::bigint / 900;
BEGIN
    INSERT INTO focus_rollup AS r (guild_id, slot, user_id, topic, answers, correct, t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15)
    VALUES (NEW.guild_id, new_slot, NEW.user_id, NEW.topic, 1, NEW.correct, (span = 0)::int, (span = 1)::int, (span = 2)::int, (span = 3)::int, (span = 4)::int, (span = 5)::int, (span = 6)::int, (span = 7)::int, (span = 8)::int, (span = 9)::int, (span = 10)::int, (span = 11)::int, (span = 12)::int, (span = 13)::int, (span = 14)::int, (span = 15)::int)
    ON CONFLICT (guild_id, slot, user_id, topic) DO UPDATE SET
        answers = r.answers + 1, correct = r.correct + excluded.correct,
        t0 = r.t0 + excluded.t0, t1 = r.t1 + excluded.t1, t2 = r.t2 + excluded.t2, t3 = r.t3 + excluded.t3, t4 = r.t4 + excluded.t4, t5 = r.t5 + excluded.t5, t6 = r.t6 + excluded.t6, t7 = r.t7 + excluded.t7, t8 = r.t8 + excluded.t8, t9 = r.t9 + excluded.t9, t10 = r.t10 + excluded.t10, t11 = r.t11 + excluded.t11, t12 = r.t12 + excluded.t12, t13 = r.t13 + excluded.t13, t14 = r.t14 + excluded.t14, t15 = r.t15 + excluded.t15;
    INSERT INTO focus_rollup_total AS r (guild_id, user_id, topic, first_slot, answers, correct, t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15)
    VALUES (NEW.guild_id, NEW.user_id, NEW.topic, new_slot, 1, NEW.correct, (span = 0)::int, (span = 1)::int, (span = 2)::int, (span = 3)::int, (span = 4)::int, (span = 5)::int, (span = 6)::int, (span = 7)::int, (span = 8)::int, (span = 9)::int, (span = 10)::int, (span = 11)::int, (span = 12)::int, (span = 13)::int, (span = 14)::int, (span = 15)::int)
    ON CONFLICT (guild_id, user_id, topic) DO UPDATE SET
        first_slot = least(r.first_slot, excluded.first_slot),
        answers = r.answers + 1, correct = r.correct + excluded.correct,
        t0 = r.t0 + excluded.t0, t1 = r.t1 + excluded.t1, t2 = r.t2 + excluded.t2, t3 = r.t3 + excluded.t3, t4 = r.t4 + excluded.t4, t5 = r.t5 + excluded.t5, t6 = r.t6 + excluded.t6, t7 = r.t7 + excluded.t7, t8 = r.t8 + excluded.t8, t9 = r.t9 + excluded.t9, t10 = r.t10 + excluded.t10, t11 = r.t11 + excluded.t11, t12 = r.t12 + excluded.t12, t13 = r.t13 + excluded.t13, t14 = r.t14 + excluded.t14, t15 = r.t15 + excluded.t15;
    RETURN NULL;
END $$;

CREATE FUNCTION focus_rollup_remove() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    span integer := CASE WHEN OLD.time_ms < 1000 THEN 0 WHEN OLD.time_ms < 2000 THEN 1 WHEN OLD.time_ms < 3000 THEN 2 WHEN OLD.time_ms < 4000 THEN 3 WHEN OLD.time_ms < 5000 THEN 4 WHEN OLD.time_ms < 6000 THEN 5 WHEN OLD.time_ms < 7000 THEN 6 WHEN OLD.time_ms < 8000 THEN 7 WHEN OLD.time_ms < 10000 THEN 8 WHEN OLD.time_ms < 12000 THEN 9 WHEN OLD.time_ms < 15000 THEN 10 WHEN OLD.time_ms < 20000 THEN 11 WHEN OLD.time_ms < 30000 THEN 12 WHEN OLD.time_ms < 45000 THEN 13 WHEN OLD.time_ms < 60000 THEN 14 ELSE 15 END;
    old_slot bigint := floor(extract(epoch FROM OLD.answered_at::timestamp))::bigint / 900;
BEGIN
    UPDATE focus_rollup SET
        answers = answers - 1, correct = correct - OLD.correct,
        t0 = t0 - (span = 0)::int, t1 = t1 - (span = 1)::int, t2 = t2 - (span = 2)::int, t3 = t3 - (span = 3)::int, t4 = t4 - (span = 4)::int, t5 = t5 - (span = 5)::int, t6 = t6 - (span = 6)::int, t7 = t7 - (span = 7)::int, t8 = t8 - (span = 8)::int, t9 = t9 - (span = 9)::int, t10 = t10 - (span = 10)::int, t11 = t11 - (span = 11)::int, t12 = t12 - (span = 12)::int, t13 = t13 - (span = 13)::int, t14 = t14 - (span = 14)::int, t15 = t15 - (span = 15)::int
    WHERE guild_id = OLD.guild_id AND slot = old_slot AND user_id = OLD.user_id
      AND topic = OLD.topic;
    DELETE FROM focus_rollup
    WHERE guild_id = OLD.guild_id AND slot = old_slot AND user_id = OLD.user_id
      AND topic = OLD.topic AND answers = 0;
    UPDATE focus_rollup_total SET
        answers = answers - 1, correct = correct - OLD.correct,
        t0 = t0 - (span = 0)::int, t1 = t1 - (span = 1)::int, t2 = t2 - (span = 2)::int, t3 = t3 - (span = 3)::int, t4 = t4 - (span = 4)::int, t5 = t5 - (span = 5)::int, t6 = t6 - (span = 6)::int, t7 = t7 - (span = 7)::int, t8 = t8 - (span = 8)::int, t9 = t9 - (span = 9)::int, t10 = t10 - (span = 10)::int, t11 = t11 - (span = 11)::int, t12 = t12 - (span = 12)::int, t13 = t13 - (span = 13)::int, t14 = t14 - (span = 14)::int, t15 = t15 - (span = 15)::int
    WHERE guild_id = OLD.guild_id AND user_id = OLD.user_id AND topic = OLD.topic;
    DELETE FROM focus_rollup_total
    WHERE guild_id = OLD.guild_id AND user_id = OLD.user_id AND topic = OLD.topic
      AND answers = 0;
    RETURN NULL;
END $$;

CREATE TRIGGER focus_rollup_add AFTER INSERT ON focus_answers
    FOR EACH ROW EXECUTE FUNCTION focus_rollup_add();
CREATE TRIGGER focus_rollup_remove AFTER DELETE ON focus_answers
    FOR EACH ROW EXECUTE FUNCTION focus_rollup_remove();
