-- Bulk pairings: an organiser (a club's or a league's site, with the `organize` scope) creates
-- many games at once, each seat a player who gave the organiser a token with the `play` scope,
-- started at once or at `starts_at` ('scheduled', then 'started'; 'cancelled' by the organiser).
CREATE TABLE bulk_pairings (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    organiser_id  BIGINT  NOT NULL REFERENCES users (id),
    variant       TEXT    NOT NULL,
    rated         BOOLEAN NOT NULL,
    time_control  TEXT    NOT NULL,
    starts_at     BIGINT  NOT NULL,
    state         TEXT    NOT NULL,
    created_at    BIGINT  NOT NULL
);
CREATE INDEX bulk_pairings_state ON bulk_pairings (state, starts_at);

-- Each game's seats (`slot` numbers the games of the pairing); `game_id` once started.
CREATE TABLE bulk_seats (
    bulk_id  BIGINT  NOT NULL REFERENCES bulk_pairings (id),
    slot     INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    user_id  BIGINT  NOT NULL REFERENCES users (id),
    game_id  BIGINT  REFERENCES games (id),
    PRIMARY KEY (bulk_id, slot, seat)
);
