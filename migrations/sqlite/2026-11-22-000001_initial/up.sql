-- Times are milliseconds since the Unix epoch (BIGINT): one portable type for both databases.

CREATE TABLE users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT    NOT NULL UNIQUE,
    password_hash TEXT    NOT NULL,
    is_bot        BOOLEAN NOT NULL DEFAULT FALSE,
    created_at    BIGINT  NOT NULL
);

CREATE TABLE refresh_tokens (
    token_hash TEXT    PRIMARY KEY,
    user_id    BIGINT  NOT NULL REFERENCES users (id),
    expires_at BIGINT  NOT NULL,
    used       BOOLEAN NOT NULL DEFAULT FALSE
);

CREATE TABLE api_tokens (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      BIGINT NOT NULL REFERENCES users (id),
    name         TEXT   NOT NULL,
    token_hash   TEXT   NOT NULL UNIQUE,
    scopes       TEXT   NOT NULL,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT,
    revoked_at   BIGINT
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);

-- A projection of game_events for listing and loading; game_events is the source of truth.
CREATE TABLE games (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    variant              TEXT    NOT NULL,
    players              INTEGER NOT NULL,
    status               TEXT    NOT NULL,
    invite_only          BOOLEAN NOT NULL,
    created_by           BIGINT  NOT NULL REFERENCES users (id),
    created_at           BIGINT  NOT NULL,
    updated_at           BIGINT  NOT NULL,
    -- Sequence number of the last event.
    version              BIGINT  NOT NULL,
    -- Engine state after `version`, written in the same transaction as that event.
    state                TEXT,
    state_engine_version INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX games_status ON games (status, updated_at);

CREATE TABLE game_seats (
    game_id BIGINT  NOT NULL REFERENCES games (id),
    seat    INTEGER NOT NULL,
    user_id BIGINT  NOT NULL REFERENCES users (id),
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
CREATE INDEX game_seats_user ON game_seats (user_id);

CREATE TABLE game_invites (
    game_id BIGINT NOT NULL REFERENCES games (id),
    user_id BIGINT NOT NULL REFERENCES users (id),
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX game_invites_user ON game_invites (user_id);

-- Append-only. (game_id, seq) makes concurrent appends on one version collide.
CREATE TABLE game_events (
    game_id    BIGINT NOT NULL REFERENCES games (id),
    seq        BIGINT NOT NULL,
    kind       TEXT   NOT NULL,
    payload    TEXT   NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- The first answer to a request sent with an Idempotency-Key.
CREATE TABLE idempotency_keys (
    user_id      BIGINT  NOT NULL REFERENCES users (id),
    key          TEXT    NOT NULL,
    request_hash TEXT    NOT NULL,
    status       INTEGER NOT NULL,
    body         TEXT    NOT NULL,
    created_at   BIGINT  NOT NULL,
    PRIMARY KEY (user_id, key)
);
