-- Ardoise schema 24: class rooms on the web (issue 30). Students too young for a Discord account
-- join their class from a browser with a room's code and a nickname, nothing else.
--
-- web_rooms: one row per room a teacher opened (/class room open): its join code (6 characters
-- from an alphabet without look-alikes, unique), the channel it was opened in (the live round
-- shown is that class's), its name, until when it lasts (expires_at; closed_at once closed).
-- A room holds nothing of a child but through its seats.
--
-- web_seats: one row per browser student. Their player id (user_id) is negative, so that it can
-- never be a Discord member's: the answers, mastery and reports count them like members, under
-- that id. token_hash is the SHA-256 of their session cookie (the cookie itself is never stored),
-- csrf the token every form of theirs carries. A seat goes with its player (erasing the player
-- erases it) and outlives its room's closing (the reports name the student) until the teacher
-- erases the room or the server's retention erases the player.
CREATE TABLE web_rooms (
    room_id    INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL REFERENCES servers (guild_id) ON DELETE CASCADE,
    channel_id INTEGER,
    teacher_id INTEGER,                     -- NULL once that teacher is erased
    code       TEXT NOT NULL UNIQUE,
    name       TEXT,
    lang       TEXT NOT NULL DEFAULT 'en',
    opened_at  TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    closed_at  TEXT
);
CREATE INDEX web_rooms_of_server ON web_rooms (guild_id, opened_at);

CREATE TABLE web_seats (
    seat_id    INTEGER PRIMARY KEY,
    room_id    INTEGER REFERENCES web_rooms (room_id) ON DELETE SET NULL,
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL UNIQUE CHECK (user_id < 0),
    nickname   TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    csrf       TEXT NOT NULL,
    lang       TEXT,
    joined_at  TEXT NOT NULL,
    seen_at    TEXT NOT NULL,
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id) ON DELETE CASCADE
);
-- A nickname is one student's in a room (the rankings tell them apart by it).
CREATE UNIQUE INDEX web_seats_nickname ON web_seats (room_id, nickname COLLATE NOCASE);
CREATE INDEX web_seats_of_server ON web_seats (guild_id, user_id);
