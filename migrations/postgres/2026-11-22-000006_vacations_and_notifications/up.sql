-- Vacations: one row per vacation taken; the one without ended_at is running, and ends by
-- itself at ends_at (when the year's allowance runs out) unless its player stops it first.
CREATE TABLE vacations (
    id         BIGSERIAL PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users (id),
    started_at BIGINT NOT NULL,
    ends_at    BIGINT NOT NULL,
    ended_at   BIGINT
);
CREATE UNIQUE INDEX vacations_running ON vacations (user_id) WHERE ended_at IS NULL;
CREATE INDEX vacations_due ON vacations (ends_at) WHERE ended_at IS NULL;
CREATE INDEX vacations_user ON vacations (user_id, started_at);

-- The notification outbox: written in the transaction of what causes it, delivered later by a
-- worker (at least once; dedup_key makes a second write of the same notification a no-op).
CREATE TABLE notifications (
    id              BIGSERIAL PRIMARY KEY,
    user_id         BIGINT NOT NULL REFERENCES users (id),
    kind            TEXT   NOT NULL,
    game_id         BIGINT,
    payload         TEXT   NOT NULL,
    dedup_key       TEXT   NOT NULL UNIQUE,
    created_at      BIGINT NOT NULL,
    status          TEXT   NOT NULL DEFAULT 'pending',
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    sent_at         BIGINT,
    last_error      TEXT
);
CREATE INDEX notifications_pending ON notifications (next_attempt_at) WHERE status = 'pending';
CREATE INDEX notifications_user ON notifications (user_id, id);

-- The next deadline reminder of the seat to act, found by the scheduler through its index.
ALTER TABLE games ADD COLUMN reminder_at BIGINT;
CREATE INDEX games_reminder ON games (reminder_at);
