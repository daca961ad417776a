-- Web Push: the devices (push subscriptions) an account registers. A notice of a live kind
-- writes one delivery per device in the notice's own transaction (the outbox, as for webhooks);
-- the push worker encrypts (RFC 8291) and sends them with a VAPID signature (RFC 8292).
CREATE TABLE push_subscriptions (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id       BIGINT NOT NULL REFERENCES users (id),
    -- The push service's URL for this device; unique: a device registered again is updated.
    endpoint      TEXT   NOT NULL UNIQUE,
    -- The device's P-256 public key and authentication secret (base64url, as browsers give them).
    p256dh        TEXT   NOT NULL,
    auth          TEXT   NOT NULL,
    -- The `User-Agent` of the registration, to tell devices apart.
    user_agent    TEXT,
    created_at    BIGINT NOT NULL,
    last_success_at BIGINT
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);

CREATE TABLE push_deliveries (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    subscription_id BIGINT  NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    -- 0 for a test push.
    notification_id BIGINT  NOT NULL,
    kind            TEXT    NOT NULL,
    payload         TEXT    NOT NULL,
    created_at      BIGINT  NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'pending',
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT  NOT NULL,
    last_error      TEXT,
    UNIQUE (subscription_id, notification_id)
);
CREATE INDEX push_deliveries_pending ON push_deliveries (next_attempt_at) WHERE status = 'pending';
