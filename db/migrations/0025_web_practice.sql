-- Ardoise schema 25: what a browser student (issue 30) is doing between two pages. A Discord
-- member's practice round lives in the bot's memory (its ephemeral window); a web page holds
-- nothing the server can trust, so the round in progress is kept here: its questions, its
-- level, its round key (the answers themselves are focus_answers rows, as a member's), and the
-- moment the question on the page was shown (the answer's time), for practice and homework.
--
-- One row per web student (a negative player id): state is JSON, replaced as they go. It goes
-- with its player (erasing the player erases it).
CREATE TABLE web_practice (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL CHECK (user_id < 0),
    state      TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id) ON DELETE CASCADE
);
