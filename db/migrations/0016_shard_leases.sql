-- Ardoise schema 16: one process per shard (issue 23; docs/deploy.md, "A restart").
--
-- A bot process holds a lease on each shard of its application that it serves (shard_count:
-- the count it runs them of; two applications on one database, say a test bot and the
-- school's, never meet): taken before it connects to Discord, renewed while it runs, deleted
-- when it stops cleanly, left to run out when it dies. A second process for the same shards
-- finds the lease held and waits instead of serving them too (two processes on one shard both
-- receive every interaction of its servers). holder names the process (machine, pid, a random
-- part); expires_at is on the database's own clock (text, as every time of the schema), so
-- that the clocks of two machines never decide who serves.
CREATE TABLE shard_leases (
    application_id INTEGER NOT NULL,
    shard_id       INTEGER NOT NULL CHECK (shard_id >= 0),
    shard_count    INTEGER NOT NULL,
    holder         TEXT NOT NULL,
    expires_at     TEXT NOT NULL,
    PRIMARY KEY (application_id, shard_id),
    CHECK (shard_count > shard_id)
);
