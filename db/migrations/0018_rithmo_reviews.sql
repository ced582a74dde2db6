-- Ardoise schema 18: the review of a finished Rithmomachia game (issue 28).
--
-- A finished game's turns are all kept (rithmo_turns: every turn's notation, by ply), and the
-- engine replays from them the board after any turn and what each turn took, with its
-- arithmetic: nothing of that is stored twice. What is missing is the engine's evaluation of
-- the game (its score after every turn, and the turn where the game turned with the better turn
-- its search finds there): a search of 2 to 3 seconds in a worker process, worked out on the
-- first /rithmo review of the game and kept here, so that stepping through the turns, a second
-- look or a restart finds it at once. Kept as bot/rithmo/review.py's Review.to_json; SQL never
-- looks into it. It names no member: it goes with its game (retention's erasure of finished
-- games, the cascade) and is exported with it.
CREATE TABLE rithmo_reviews (
    game_id    INTEGER NOT NULL REFERENCES rithmo_games (game_id) ON DELETE CASCADE,
    review     TEXT NOT NULL,                  -- JSON
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id)
);
