-- Ardoise schema 22: homework's reminder and goal (issue 27).
--
-- remind_at: when the reminder is posted in the assignment's channel, naming the students who
-- have not finished (NULL: no reminder, the teacher's choice, or its moment was already past
-- when the assignment was set); reminded_at: when a process claimed it (UPDATE ... WHERE
-- reminded_at IS NULL: once, across a restart and with several processes).
-- goal: what ends a student's attempt (NULL: the count of questions, as before; 'right:N': N
-- right answers; 'percent:P:N': P % right over the last N answers), the questions drawn as
-- they go (bot.focus.goals).
ALTER TABLE assignments ADD COLUMN remind_at TEXT;
ALTER TABLE assignments ADD COLUMN reminded_at TEXT;
ALTER TABLE assignments ADD COLUMN goal TEXT;
CREATE INDEX assignments_to_remind ON assignments (remind_at)
    WHERE remind_at IS NOT NULL AND reminded_at IS NULL;
