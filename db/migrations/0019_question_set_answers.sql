-- Ardoise schema 19: a question set's answers as Focus reads them (issue 26).
--
-- A teacher's question may now have a decimal, a fraction or several accepted answers
-- (bot/play/question_sets.py). question_set_items.answers holds them as the teacher wrote them,
-- each in its canonical text and joined by ' | ' ('1/2 | 0.5', '4.5', '-3/4'; bot/focus/exact.py,
-- accepted_values); NULL for a single whole number, which the INTEGER column `answer` holds as
-- before (every set stored before this migration reads exactly as it did). When `answers` is
-- set, `answer` holds the whole part (toward zero) of its first answer, so that the column stays
-- filled as it was (NOT NULL) and a reader of the old column alone still sees a number near it.

ALTER TABLE question_set_items ADD COLUMN answers TEXT;
