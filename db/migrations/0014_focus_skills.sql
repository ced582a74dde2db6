-- Ardoise schema 14: Focus skills and school years (issue 17, bot/focus/skills.py, school.py).
--
-- - servers.focus_school_year and student_settings.school_year: the school year whose skills
--   practice draws from (bot/focus/school.py: 'cycle2'…'cycle4', 'grade1'…'grade8'); NULL: none
--   (the eight levels, as before; for a student: as the server says). Checked by the use cases.
-- - focus_answers.skill: the skill of the question (NULL: the topic, as every answer before).
-- - focus_answers.form: how its answer is written ('decimal', 'fraction', 'lowest'; NULL: a whole
--   number, bot/focus/exact.py).
-- - focus_answers.expected_exact / given_exact: an answer that is not whole, exactly, as text
--   ('3/4', '-5/2', '0.75'); NULL when it is whole, the INTEGER column then holding it as
--   before. For an answer that is not whole, expected / given hold its whole part (toward zero)
--   so that the columns stay filled as they were (expected is NOT NULL) and a reader of the old
--   columns alone still sees a number near it; `correct` is always right (the rollups and the
--   class report read it).

ALTER TABLE servers ADD COLUMN focus_school_year TEXT;
ALTER TABLE student_settings ADD COLUMN school_year TEXT;
ALTER TABLE focus_answers ADD COLUMN skill TEXT;
ALTER TABLE focus_answers ADD COLUMN form TEXT;
ALTER TABLE focus_answers ADD COLUMN expected_exact TEXT;
ALTER TABLE focus_answers ADD COLUMN given_exact TEXT;
