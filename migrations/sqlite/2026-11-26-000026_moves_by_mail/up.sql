-- Moves by email reply: a player who turns this on gets the choices of the turn in the "your
-- turn" email and may answer it with the move.
ALTER TABLE mail_settings ADD COLUMN moves_by_reply BOOLEAN NOT NULL DEFAULT 0;

-- Each inbound reply that named one of our turns, once (by its Message-ID, hashed): a message
-- delivered twice is applied once; the count per player bounds the rate.
CREATE TABLE inbound_mails (
    message_hash  TEXT   PRIMARY KEY,
    user_id       BIGINT NOT NULL,
    game_id       BIGINT NOT NULL,
    received_at   BIGINT NOT NULL,
    outcome       TEXT   NOT NULL
);
CREATE INDEX inbound_mails_user ON inbound_mails (user_id, received_at);
