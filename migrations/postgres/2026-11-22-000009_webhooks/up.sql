-- Webhooks: endpoints an account registers for kinds of notices. A notice queued for the
-- account writes one delivery per matching endpoint in the same transaction (the outbox);
-- the webhook worker sends them, signed (Standard Webhooks), and logs every attempt.
CREATE TABLE webhooks (
    id            BIGSERIAL PRIMARY KEY,
    user_id       BIGINT  NOT NULL REFERENCES users (id),
    url           TEXT    NOT NULL,
    -- The notice kinds, comma-separated and wrapped in commas: ',your_turn,game_over,'.
    kinds         TEXT    NOT NULL,
    secret        TEXT    NOT NULL,
    created_at    BIGINT  NOT NULL,
    -- Failed attempts in a row; the endpoint is disabled when it reaches the limit.
    failures      INTEGER NOT NULL DEFAULT 0,
    disabled_at   BIGINT
);
CREATE INDEX webhooks_user ON webhooks (user_id);

CREATE TABLE webhook_deliveries (
    id              BIGSERIAL PRIMARY KEY,
    webhook_id      BIGINT  NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    notification_id BIGINT  NOT NULL,
    kind            TEXT    NOT NULL,
    payload         TEXT    NOT NULL,
    created_at      BIGINT  NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'pending',
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT  NOT NULL,
    UNIQUE (webhook_id, notification_id)
);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';

-- The delivery log the owner reads: one row per attempt.
CREATE TABLE webhook_attempts (
    id            BIGSERIAL PRIMARY KEY,
    delivery_id   BIGINT  NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    webhook_id    BIGINT  NOT NULL,
    attempted_at  BIGINT  NOT NULL,
    status_code   INTEGER,
    error         TEXT,
    succeeded     BOOLEAN NOT NULL
);
CREATE INDEX webhook_attempts_webhook ON webhook_attempts (webhook_id, id);
