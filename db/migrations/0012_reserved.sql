-- Ardoise schema 12: reserved for another branch of the same release (issue 16/18), which brings
-- the real 0012. This file only keeps the numbering without a gap on the branch f17-content
-- (db/migrate.py refuses a gap); the merge takes the other branch's 0012 and drops this one.
SELECT 1;
