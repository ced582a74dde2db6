-- Ardoise schema 26: the running live rounds of a server, found by an index. The class rooms'
-- pages (issue 30) look for their server's running round, and each web process polls the
-- versions of those rounds about twice a second while students watch: without the index, every
-- poll would read every round ever played.

CREATE INDEX focus_live_rounds_by_server ON focus_live_rounds (guild_id, status);
