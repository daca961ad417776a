-- Table chat: what the seated players of a game say to each other. Kept apart from the game's
-- event log, which stays the rules' record.
CREATE TABLE chat_messages (
    id          BIGSERIAL PRIMARY KEY,
    game_id     BIGINT  NOT NULL REFERENCES games (id),
    user_id     BIGINT  NOT NULL REFERENCES users (id),
    seat        INTEGER NOT NULL,
    body        TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL
);
CREATE INDEX chat_messages_game ON chat_messages (game_id, id);
-- The rate limit counts a player's messages of the last minute, across games.
CREATE INDEX chat_messages_user ON chat_messages (user_id, created_at);

-- How far each seated player has read a game's chat (the newest message id read).
CREATE TABLE chat_reads (
    game_id    BIGINT NOT NULL REFERENCES games (id),
    user_id    BIGINT NOT NULL REFERENCES users (id),
    last_read  BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- One private note per player and game, which only its author ever sees.
CREATE TABLE game_notes (
    game_id     BIGINT NOT NULL REFERENCES games (id),
    user_id     BIGINT NOT NULL REFERENCES users (id),
    body        TEXT   NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- Blocks: user_id keeps blocked_id away (no invitations, no joining user_id's open games, no
-- messages either way).
CREATE TABLE blocks (
    user_id     BIGINT NOT NULL REFERENCES users (id),
    blocked_id  BIGINT NOT NULL REFERENCES users (id),
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (user_id, blocked_id)
);
CREATE INDEX blocks_blocked ON blocks (blocked_id);
