-- Ardoise schema 20 (issue 26): what a school year's assignment was drawn from, for its post to
-- say so. JSON {"year": "cycle4" or null, "skills": [the skills the teacher chose], "climb":
-- true when the questions climb through the server's levels (skills without a level; its lowest
-- level is then the row's level)}. NULL: drawn as before school years (a level's, a topic's or a
-- set's own questions). The questions themselves are still drawn once, at creation, and stored.
ALTER TABLE assignments ADD COLUMN drawn_from TEXT;
