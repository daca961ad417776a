-- Password resets by email: one row per link sent. The link's token is never stored: it is
-- derived from the row with the server's key (an HMAC) when the email is written, and only its
-- SHA-256 is kept here, so that a copy of the database opens no account. A link is single-use
-- (used_at) and valid for an hour (expires_at); the rows of the last hour also rate-limit the
-- emails per account.
CREATE TABLE password_resets (
    id          BIGSERIAL PRIMARY KEY,
    user_id     BIGINT NOT NULL REFERENCES users (id),
    token_hash  TEXT   NOT NULL,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL,
    used_at     BIGINT
);
CREATE INDEX password_resets_user ON password_resets (user_id, created_at);
