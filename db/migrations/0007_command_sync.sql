-- Ardoise schema 7: what the bot last sent Discord as its slash commands, so that a start with
-- the same commands does not sync them again (Discord rate-limits command syncs). One row per
-- application and scope ('global', or a test server's id): the SHA-256 of the sync payload.

CREATE TABLE command_sync (
    application_id INTEGER NOT NULL,
    scope TEXT NOT NULL,
    payload_sha256 TEXT NOT NULL CHECK (length(payload_sha256) = 64),
    synced_at TEXT NOT NULL,
    PRIMARY KEY (application_id, scope)
) STRICT;
