-- Email: a player's address (verified by a link before anything else is sent to it), language
-- and what they want to receive. Never shown to other players.
CREATE TABLE mail_settings (
    user_id           BIGINT  PRIMARY KEY REFERENCES users (id),
    email             TEXT,
    verified_at       BIGINT,
    -- Set when the relay refused the address for good: nothing more is sent to it.
    bounced_at        BIGINT,
    language          TEXT    NOT NULL DEFAULT 'en',
    your_turn         BOOLEAN NOT NULL DEFAULT TRUE,
    deadline_reminder BOOLEAN NOT NULL DEFAULT TRUE,
    invitation        BOOLEAN NOT NULL DEFAULT TRUE,
    game_started      BOOLEAN NOT NULL DEFAULT TRUE,
    game_over         BOOLEAN NOT NULL DEFAULT TRUE,
    -- Digest mode: one message every this many hours listing the games waiting, instead of one
    -- "your turn" message per game.
    digest_hours      INTEGER,
    last_digest_at    BIGINT
);
CREATE INDEX mail_settings_digest ON mail_settings (last_digest_at) WHERE digest_hours IS NOT NULL;
