-- OAuth 2.0 authorization codes (RFC 6749 with PKCE, RFC 7636): kept as their SHA-256, single-use
-- (used_at), short-lived (expires_at); token_id is the API token a code was exchanged for, revoked
-- if the code comes back.
CREATE TABLE oauth_codes (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    code_hash       TEXT   NOT NULL UNIQUE,
    user_id         BIGINT NOT NULL REFERENCES users (id),
    client_id       TEXT   NOT NULL,
    redirect_uri    TEXT   NOT NULL,
    scopes          TEXT   NOT NULL,
    code_challenge  TEXT   NOT NULL,
    created_at      BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL,
    used_at         BIGINT,
    token_id        BIGINT
);
CREATE INDEX oauth_codes_user ON oauth_codes (user_id);

-- The app an API token was given to through OAuth (its client_id, and the host it redirected
-- to); NULL for personal tokens.
ALTER TABLE api_tokens ADD COLUMN client_id TEXT;
ALTER TABLE api_tokens ADD COLUMN redirect_host TEXT;
