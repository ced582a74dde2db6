-- Ardoise schema 16: reserved. Issue 23 gave number 16 to another branch and 17 (retention) to
-- this one; the migrations run without a gap, so this branch holds the number until the two
-- meet. When they are merged, this file goes and the other branch's 16 takes its place (two
-- files numbered 16 stop db/migrate.py at once, so the merge cannot miss it).
SELECT 1;
