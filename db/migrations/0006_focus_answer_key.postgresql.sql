-- PostgreSQL's twin of 0006_focus_answer_key.sql (which explains it): the same, but the day's
-- questions are numbered with PostgreSQL's JSON functions (SQLite's table-valued one has no twin).

-- Ardoise schema 6: each Focus answer keyed by its round and question, so that a second write of
-- the same answer (the bot killed between storing an answer and the round's progress, then the
-- question answered again) is a no-op. `round_key` names the round within the member's answers
-- ('daily:YYYY-MM-DD', 'match:<match id>:<round>', 'live:<live id>', 'practice:<token>') and
-- `question_no` is the question's place in it, from 0. Both are NULL on answers stored before
-- this version, except where the database itself says which round they belong to: the daily
-- answers (below). The others hold no trace of their round (a match's questions come from its
-- seed, a practice round lived in memory): they stay as they are, unkeyed, rather than be told
-- apart from a genuine second answer to the same question by a guess.

ALTER TABLE focus_answers ADD COLUMN round_key TEXT;
ALTER TABLE focus_answers ADD COLUMN question_no INTEGER CHECK (question_no >= 0);

-- Old daily answers: the member's attempt started last before the answer is their round (one
-- attempt a day, stamped with the same clock as the answers), and the question's place in that
-- day's stored questions is its number.
UPDATE focus_answers SET round_key = (
    SELECT 'daily:' || a.day FROM daily_attempts AS a
    WHERE a.guild_id = focus_answers.guild_id AND a.user_id = focus_answers.user_id
      AND a.started_at <= focus_answers.answered_at
    ORDER BY a.started_at DESC LIMIT 1)
WHERE source = 'daily';
UPDATE focus_answers SET question_no = (
    SELECT q.n - 1
    FROM daily_challenges AS c, json_array_elements(c.questions::json) WITH ORDINALITY AS q (value, n)
    WHERE c.guild_id = focus_answers.guild_id AND 'daily:' || c.day = focus_answers.round_key
      AND q.value ->> 'text' = focus_answers.question
    ORDER BY q.n LIMIT 1)
WHERE round_key IS NOT NULL;
-- An answer whose question is not in the day's challenge cannot be placed: left unkeyed.
UPDATE focus_answers SET round_key = NULL WHERE question_no IS NULL;

-- Duplicates already stored (the same question of the same round twice): the first one stays.
DELETE FROM focus_answers
WHERE round_key IS NOT NULL AND answer_id NOT IN (
    SELECT min(answer_id) FROM focus_answers WHERE round_key IS NOT NULL
    GROUP BY guild_id, user_id, round_key, question_no);

CREATE UNIQUE INDEX focus_answers_once
    ON focus_answers (guild_id, user_id, round_key, question_no) WHERE round_key IS NOT NULL;
