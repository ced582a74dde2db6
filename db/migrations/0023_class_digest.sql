-- Ardoise schema 23: the class's weekly digest (issue 27, /settings class digest:).
--
-- One row per server that asked for it: the teachers' channel it is posted in, its day (0 is
-- Monday) and hour in the server's time zone, whether students are shown as "Student N", and
-- the local date of the last digest posted (posted_for: claimed with UPDATE ... WHERE, so that
-- it is posted once, across a restart and with several processes). Nothing of a member.
CREATE TABLE class_digests (
    guild_id   INTEGER PRIMARY KEY REFERENCES servers (guild_id) ON DELETE CASCADE,
    channel_id INTEGER NOT NULL,
    weekday    INTEGER NOT NULL CHECK (weekday BETWEEN 0 AND 6),
    hour       INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
    pseudonym  INTEGER NOT NULL DEFAULT 0 CHECK (pseudonym IN (0, 1)),
    posted_for TEXT
);
