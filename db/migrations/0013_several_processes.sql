-- Ardoise schema 13: several bot processes on one database (issue 18; docs/architecture.md,
-- "Several processes").
--
-- servers.settings_version: moved on by one at every change of a server's settings (db/servers.py
-- update, set_admin_roles). A process that keeps a server's settings in memory (its language,
-- bot/i18n.py Languages) reads the versions of the servers it keeps, a cheap read by key, and
-- forgets those another process (or the command line) changed.
--
-- daily_challenges.post_owner / post_until: the claim of a daily post. Each process posts only
-- its own servers' challenges (their shard, bot/shards.py); the claim makes sure that even two
-- processes on the same shard (a restart overlapping the old process, a mistake in the shards)
-- post a day's challenge once: the one whose UPDATE took the unclaimed row posts; a claim whose
-- process died before posting lapses at post_until.

ALTER TABLE servers ADD COLUMN settings_version INTEGER NOT NULL DEFAULT 0;

ALTER TABLE daily_challenges ADD COLUMN post_owner TEXT;
ALTER TABLE daily_challenges ADD COLUMN post_until TEXT;
