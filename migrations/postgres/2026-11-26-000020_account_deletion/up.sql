-- Deleted accounts. The row stays, renamed to a placeholder, so that finished games keep their
-- seats and results; deleted_at marks it. held_name_mac is a keyed hash (HMAC with the server's
-- key) of the former name in lower case, so that nobody registers that name during the grace
-- period; the maintenance worker clears it after.
ALTER TABLE users ADD COLUMN deleted_at BIGINT;
ALTER TABLE users ADD COLUMN held_name_mac TEXT;
CREATE INDEX users_held_name ON users (held_name_mac);

-- A deletion's renaming of the former name in stored texts (event logs, other players'
-- notifications and deliveries, stored answers) still to do: the row lives only while that runs,
-- and lets the maintenance worker finish it after a crash.
CREATE TABLE account_erasures (
    user_id        BIGINT PRIMARY KEY REFERENCES users (id),
    former_name    TEXT   NOT NULL,
    placeholder    TEXT   NOT NULL,
    started_at     BIGINT NOT NULL,
    claimed_until  BIGINT NOT NULL
);
