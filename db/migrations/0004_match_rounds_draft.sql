-- Ardoise schema 4: the rest of a server's 20 Digits match defaults (/settings match).

-- Rounds before a match ends on lives (the engine's MatchSettings.rounds) and whether matches
-- are played as the draft variant (MatchSettings.draft, 0 or 1).
ALTER TABLE servers ADD COLUMN match_rounds INTEGER NOT NULL DEFAULT 15 CHECK (match_rounds >= 1);
ALTER TABLE servers ADD COLUMN match_draft INTEGER NOT NULL DEFAULT 0 CHECK (match_draft IN (0, 1));
