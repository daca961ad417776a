-- Pairing requests ("Play now"): the game a player will play with whoever comes, waiting until
-- pairing seats it at a game (state 'seated', game_id), the player cancels it ('cancelled'), it
-- expires ('expired'), or the account is suspended or deleted ('withdrawn'). Closed requests are
-- kept a day, so that their player can see what became of them.
CREATE TABLE pairing_requests (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id       BIGINT  NOT NULL REFERENCES users (id),
    variant       TEXT    NOT NULL,
    -- The table sizes accepted, as "2,3,4".
    seats         TEXT    NOT NULL,
    -- The time control, as games store it (JSON).
    time_control  TEXT    NOT NULL,
    rated         BOOLEAN NOT NULL,
    -- How far below and above the player's rating the others' may be (NULL: anyone).
    rating_below  INTEGER,
    rating_above  INTEGER,
    -- After how long bots may take the seats nobody took (NULL: never).
    bot_after_ms  BIGINT,
    filed_at      BIGINT  NOT NULL,
    expires_at    BIGINT  NOT NULL,
    state         TEXT    NOT NULL,
    game_id       BIGINT  REFERENCES games (id),
    closed_at     BIGINT
);
CREATE INDEX pairing_requests_state ON pairing_requests (state, filed_at);
CREATE INDEX pairing_requests_user ON pairing_requests (user_id, state);

-- Rematch offers at finished games: one per game at a time, by seat (never a user id: the seats
-- say who). `accepted` lists the seats that said yes, as "0,2". Offered, then started (new_game_id),
-- declined or lapsed.
CREATE TABLE rematches (
    game_id        BIGINT  PRIMARY KEY REFERENCES games (id),
    offered_by     INTEGER NOT NULL,
    accepted       TEXT    NOT NULL,
    state          TEXT    NOT NULL,
    offered_at     BIGINT  NOT NULL,
    expires_at     BIGINT  NOT NULL,
    new_game_id    BIGINT  REFERENCES games (id),
    declined_by    INTEGER,
    closed_at      BIGINT
);
