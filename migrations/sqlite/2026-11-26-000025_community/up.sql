-- Fair use: the games a player abandoned by letting the clock run out, shown on the profile.
ALTER TABLE users ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
-- Moderation: a role an operator gives with `keltis moderator`, never through the API; a mute
-- (no chat) and a suspension (no sign-in, no new games) until a time.
ALTER TABLE users ADD COLUMN moderator BOOLEAN NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN muted_until BIGINT;
ALTER TABLE users ADD COLUMN suspended_until BIGINT;

-- Friends: user_id follows followed_id.
CREATE TABLE follows (
    user_id      BIGINT NOT NULL REFERENCES users (id),
    followed_id  BIGINT NOT NULL REFERENCES users (id),
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (user_id, followed_id)
);
CREATE INDEX follows_followed ON follows (followed_id);

-- Reports of a player, or of one of their messages, waiting for a moderator.
CREATE TABLE reports (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    reporter_id  BIGINT NOT NULL REFERENCES users (id),
    user_id      BIGINT NOT NULL REFERENCES users (id),
    message_id   BIGINT,
    game_id      BIGINT,
    reason       TEXT   NOT NULL,
    created_at   BIGINT NOT NULL,
    status       TEXT   NOT NULL,
    handled_at   BIGINT
);
CREATE INDEX reports_status ON reports (status, id);

-- What moderators did: every action, kept.
CREATE TABLE moderation_actions (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    moderator_id  BIGINT NOT NULL REFERENCES users (id),
    action        TEXT   NOT NULL,
    user_id       BIGINT REFERENCES users (id),
    report_id     BIGINT,
    reason        TEXT   NOT NULL,
    until_at      BIGINT,
    created_at    BIGINT NOT NULL
);
