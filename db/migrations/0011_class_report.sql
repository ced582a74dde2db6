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

-- The answers already stored (a database upgraded from version 10).
INSERT INTO focus_rollup (guild_id, slot, user_id, topic, answers, correct, t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15)
SELECT guild_id, slot, user_id, topic, count(*), sum(correct),
       sum(span = 0), sum(span = 1), sum(span = 2), sum(span = 3), sum(span = 4), sum(span = 5), sum(span = 6), sum(span = 7), sum(span = 8), sum(span = 9), sum(span = 10), sum(span = 11), sum(span = 12), sum(span = 13), sum(span = 14), sum(span = 15)
FROM (SELECT guild_id, user_id, topic, correct, CAST(strftime('%s', answered_at) AS INTEGER) / 900 AS slot,
             CASE WHEN time_ms < 1000 THEN 0 WHEN time_ms < 2000 THEN 1 WHEN time_ms < 3000 THEN 2 WHEN time_ms < 4000 THEN 3 WHEN time_ms < 5000 THEN 4 WHEN time_ms < 6000 THEN 5 WHEN time_ms < 7000 THEN 6 WHEN time_ms < 8000 THEN 7 WHEN time_ms < 10000 THEN 8 WHEN time_ms < 12000 THEN 9 WHEN time_ms < 15000 THEN 10 WHEN time_ms < 20000 THEN 11 WHEN time_ms < 30000 THEN 12 WHEN time_ms < 45000 THEN 13 WHEN time_ms < 60000 THEN 14 ELSE 15 END AS span
      FROM focus_answers)
GROUP BY guild_id, slot, user_id, topic;

INSERT INTO focus_rollup_total (guild_id, user_id, topic, first_slot, answers, correct, t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15)
SELECT guild_id, user_id, topic, min(slot), sum(answers), sum(correct),
       sum(t0), sum(t1), sum(t2), sum(t3), sum(t4), sum(t5), sum(t6), sum(t7), sum(t8), sum(t9), sum(t10), sum(t11), sum(t12), sum(t13), sum(t14), sum(t15)
FROM focus_rollup
GROUP BY guild_id, user_id, topic;

CREATE TRIGGER focus_rollup_add AFTER INSERT ON focus_answers
BEGIN
    INSERT INTO focus_rollup (guild_id, slot, user_id, topic, answers, correct, t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15)
    SELECT NEW.guild_id, CAST(strftime('%s', NEW.answered_at) AS INTEGER) / 900, NEW.user_id, NEW.topic, 1,
           NEW.correct, span = 0, span = 1, span = 2, span = 3, span = 4, span = 5, span = 6, span = 7, span = 8, span = 9, span = 10, span = 11, span = 12, span = 13, span = 14, span = 15
    FROM (SELECT CASE WHEN NEW.time_ms < 1000 THEN 0 WHEN NEW.time_ms < 2000 THEN 1 WHEN NEW.time_ms < 3000 THEN 2 WHEN NEW.time_ms < 4000 THEN 3 WHEN NEW.time_ms < 5000 THEN 4 WHEN NEW.time_ms < 6000 THEN 5 WHEN NEW.time_ms < 7000 THEN 6 WHEN NEW.time_ms < 8000 THEN 7 WHEN NEW.time_ms < 10000 THEN 8 WHEN NEW.time_ms < 12000 THEN 9 WHEN NEW.time_ms < 15000 THEN 10 WHEN NEW.time_ms < 20000 THEN 11 WHEN NEW.time_ms < 30000 THEN 12 WHEN NEW.time_ms < 45000 THEN 13 WHEN NEW.time_ms < 60000 THEN 14 ELSE 15 END AS span) WHERE true
    ON CONFLICT (guild_id, slot, user_id, topic) DO UPDATE SET
        answers = answers + 1, correct = correct + excluded.correct,
        t0 = t0 + excluded.t0, t1 = t1 + excluded.t1, t2 = t2 + excluded.t2, t3 = t3 + excluded.t3, t4 = t4 + excluded.t4, t5 = t5 + excluded.t5, t6 = t6 + excluded.t6, t7 = t7 + excluded.t7, t8 = t8 + excluded.t8, t9 = t9 + excluded.t9, t10 = t10 + excluded.t10, t11 = t11 + excluded.t11, t12 = t12 + excluded.t12, t13 = t13 + excluded.t13, t14 = t14 + excluded.t14, t15 = t15 + excluded.t15;
    INSERT INTO focus_rollup_total (guild_id, user_id, topic, first_slot, answers, correct,
                                    t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15)
    SELECT NEW.guild_id, NEW.user_id, NEW.topic, CAST(strftime('%s', NEW.answered_at) AS INTEGER) / 900, 1,
           NEW.correct, span = 0, span = 1, span = 2, span = 3, span = 4, span = 5, span = 6, span = 7, span = 8, span = 9, span = 10, span = 11, span = 12, span = 13, span = 14, span = 15
    FROM (SELECT CASE WHEN NEW.time_ms < 1000 THEN 0 WHEN NEW.time_ms < 2000 THEN 1 WHEN NEW.time_ms < 3000 THEN 2 WHEN NEW.time_ms < 4000 THEN 3 WHEN NEW.time_ms < 5000 THEN 4 WHEN NEW.time_ms < 6000 THEN 5 WHEN NEW.time_ms < 7000 THEN 6 WHEN NEW.time_ms < 8000 THEN 7 WHEN NEW.time_ms < 10000 THEN 8 WHEN NEW.time_ms < 12000 THEN 9 WHEN NEW.time_ms < 15000 THEN 10 WHEN NEW.time_ms < 20000 THEN 11 WHEN NEW.time_ms < 30000 THEN 12 WHEN NEW.time_ms < 45000 THEN 13 WHEN NEW.time_ms < 60000 THEN 14 ELSE 15 END AS span) WHERE true
    ON CONFLICT (guild_id, user_id, topic) DO UPDATE SET
        first_slot = min(first_slot, excluded.first_slot),
        answers = answers + 1, correct = correct + excluded.correct,
        t0 = t0 + excluded.t0, t1 = t1 + excluded.t1, t2 = t2 + excluded.t2, t3 = t3 + excluded.t3, t4 = t4 + excluded.t4, t5 = t5 + excluded.t5, t6 = t6 + excluded.t6, t7 = t7 + excluded.t7, t8 = t8 + excluded.t8, t9 = t9 + excluded.t9, t10 = t10 + excluded.t10, t11 = t11 + excluded.t11, t12 = t12 + excluded.t12, t13 = t13 + excluded.t13, t14 = t14 + excluded.t14, t15 = t15 + excluded.t15;
END;

CREATE TRIGGER focus_rollup_remove AFTER DELETE ON focus_answers
BEGIN
    UPDATE focus_rollup SET
        answers = answers - 1, correct = correct - OLD.correct,
        t0 = t0 - (span = 0), t1 = t1 - (span = 1), t2 = t2 - (span = 2), t3 = t3 - (span = 3), t4 = t4 - (span = 4), t5 = t5 - (span = 5), t6 = t6 - (span = 6), t7 = t7 - (span = 7), t8 = t8 - (span = 8), t9 = t9 - (span = 9), t10 = t10 - (span = 10), t11 = t11 - (span = 11), t12 = t12 - (span = 12), t13 = t13 - (span = 13), t14 = t14 - (span = 14), t15 = t15 - (span = 15)
    FROM (SELECT CASE WHEN OLD.time_ms < 1000 THEN 0 WHEN OLD.time_ms < 2000 THEN 1 WHEN OLD.time_ms < 3000 THEN 2 WHEN OLD.time_ms < 4000 THEN 3 WHEN OLD.time_ms < 5000 THEN 4 WHEN OLD.time_ms < 6000 THEN 5 WHEN OLD.time_ms < 7000 THEN 6 WHEN OLD.time_ms < 8000 THEN 7 WHEN OLD.time_ms < 10000 THEN 8 WHEN OLD.time_ms < 12000 THEN 9 WHEN OLD.time_ms < 15000 THEN 10 WHEN OLD.time_ms < 20000 THEN 11 WHEN OLD.time_ms < 30000 THEN 12 WHEN OLD.time_ms < 45000 THEN 13 WHEN OLD.time_ms < 60000 THEN 14 ELSE 15 END AS span)
    WHERE guild_id = OLD.guild_id AND slot = CAST(strftime('%s', OLD.answered_at) AS INTEGER) / 900
      AND user_id = OLD.user_id AND topic = OLD.topic;
    DELETE FROM focus_rollup
    WHERE guild_id = OLD.guild_id AND slot = CAST(strftime('%s', OLD.answered_at) AS INTEGER) / 900
      AND user_id = OLD.user_id AND topic = OLD.topic AND answers = 0;
    UPDATE focus_rollup_total SET
        answers = answers - 1, correct = correct - OLD.correct,
        t0 = t0 - (span = 0), t1 = t1 - (span = 1), t2 = t2 - (span = 2), t3 = t3 - (span = 3), t4 = t4 - (span = 4), t5 = t5 - (span = 5), t6 = t6 - (span = 6), t7 = t7 - (span = 7), t8 = t8 - (span = 8), t9 = t9 - (span = 9), t10 = t10 - (span = 10), t11 = t11 - (span = 11), t12 = t12 - (span = 12), t13 = t13 - (span = 13), t14 = t14 - (span = 14), t15 = t15 - (span = 15)
    FROM (SELECT CASE WHEN OLD.time_ms < 1000 THEN 0 WHEN OLD.time_ms < 2000 THEN 1 WHEN OLD.time_ms < 3000 THEN 2 WHEN OLD.time_ms < 4000 THEN 3 WHEN OLD.time_ms < 5000 THEN 4 WHEN OLD.time_ms < 6000 THEN 5 WHEN OLD.time_ms < 7000 THEN 6 WHEN OLD.time_ms < 8000 THEN 7 WHEN OLD.time_ms < 10000 THEN 8 WHEN OLD.time_ms < 12000 THEN 9 WHEN OLD.time_ms < 15000 THEN 10 WHEN OLD.time_ms < 20000 THEN 11 WHEN OLD.time_ms < 30000 THEN 12 WHEN OLD.time_ms < 45000 THEN 13 WHEN OLD.time_ms < 60000 THEN 14 ELSE 15 END AS span)
    WHERE guild_id = OLD.guild_id AND user_id = OLD.user_id AND topic = OLD.topic;
    DELETE FROM focus_rollup_total
    WHERE guild_id = OLD.guild_id AND user_id = OLD.user_id AND topic = OLD.topic
      AND answers = 0;
END;
