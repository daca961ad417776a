-- User names are unique whatever their case. Accounts that already differ only in case keep
-- their games and passwords; every one but the oldest is renamed `<name>-<id>`.
UPDATE users SET name = name || '-' || id
 WHERE EXISTS (SELECT 1 FROM users older
                WHERE lower(older.name) = lower(users.name) AND older.id < users.id);
CREATE UNIQUE INDEX users_name_folded ON users (lower(name));

-- A signed-in device: one login and the refresh tokens issued from it (a token family).
-- Revoking it stops its refresh tokens and its access tokens.
CREATE TABLE sessions (
    id           BIGSERIAL PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users (id),
    user_agent   TEXT,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT NOT NULL,
    revoked_at   BIGINT
);
CREATE INDEX sessions_user ON sessions (user_id);

-- Tokens from before sessions have none: their next refresh opens one.
ALTER TABLE refresh_tokens ADD COLUMN session_id BIGINT REFERENCES sessions (id);
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);
CREATE INDEX refresh_tokens_expiry ON refresh_tokens (expires_at);
CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);

-- The games row is rewritten on every move: room on its page lets PostgreSQL update it in place
-- (HOT) instead of leaving a dead copy elsewhere.
ALTER TABLE games SET (fillfactor = 50);
