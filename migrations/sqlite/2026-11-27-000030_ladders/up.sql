-- Standing ladders, one per variant at two seats: each player's rung (1 the top), and the
-- challenges between them, each a game (the rules: src/tournaments/ladder.rs). A challenge is
-- 'open' while its game runs, then 'decided' with what it did: 'climbed' (the challenger took
-- the defender's rung), 'held', or 'timed_out' (whoever let their clock run out left the ladder).
CREATE TABLE ladder_rungs (
    variant    TEXT    NOT NULL,
    user_id    BIGINT  NOT NULL REFERENCES users (id),
    rung       INTEGER NOT NULL,
    joined_at  BIGINT  NOT NULL,
    PRIMARY KEY (variant, user_id)
);

CREATE TABLE ladder_challenges (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    variant        TEXT    NOT NULL,
    challenger_id  BIGINT  NOT NULL REFERENCES users (id),
    defender_id    BIGINT  NOT NULL REFERENCES users (id),
    game_id        BIGINT  NOT NULL REFERENCES games (id),
    state          TEXT    NOT NULL,
    outcome        TEXT,
    created_at     BIGINT  NOT NULL,
    decided_at     BIGINT
);
CREATE INDEX ladder_challenges_state ON ladder_challenges (state, variant);
