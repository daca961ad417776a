-- Ratings (Glicko-2, per variant) and finished games' results. Both are written in the
-- transaction of a game's last event, and both can be rebuilt from the games' logs
-- (`keltis ratings recompute`).

-- Rated or casual, chosen at creation. Games created before ratings existed were casual.
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;

-- A player's current rating in one variant, from their first rated game of it on.
CREATE TABLE ratings (
    user_id       BIGINT  NOT NULL REFERENCES users (id),
    variant       TEXT    NOT NULL,
    rating        DOUBLE PRECISION NOT NULL,
    deviation     DOUBLE PRECISION NOT NULL,
    volatility    DOUBLE PRECISION NOT NULL,
    -- Rated games of the variant.
    games         INTEGER NOT NULL DEFAULT 0,
    last_rated_at BIGINT,
    PRIMARY KEY (user_id, variant)
);
CREATE INDEX ratings_leaderboard ON ratings (variant, rating DESC, user_id);

-- One row per seat of every finished game (rated or not): history, profiles' counts, and, for
-- rated games, the rating change (the rating events). `id` is the order they were applied in.
CREATE TABLE game_results (
    id                BIGSERIAL PRIMARY KEY,
    game_id           BIGINT  NOT NULL REFERENCES games (id),
    seat              INTEGER NOT NULL,
    user_id           BIGINT  NOT NULL REFERENCES users (id),
    variant           TEXT    NOT NULL,
    players           INTEGER NOT NULL,
    rated             BOOLEAN NOT NULL,
    ended_at          BIGINT  NOT NULL,
    total             INTEGER NOT NULL,
    -- 1 for the best standing; equal standings share a place.
    place             INTEGER NOT NULL,
    -- won, drawn or lost
    outcome           TEXT    NOT NULL,
    rating_before     DOUBLE PRECISION,
    deviation_before  DOUBLE PRECISION,
    volatility_before DOUBLE PRECISION,
    rating_after      DOUBLE PRECISION,
    deviation_after   DOUBLE PRECISION,
    volatility_after  DOUBLE PRECISION,
    UNIQUE (game_id, seat)
);
CREATE INDEX game_results_user ON game_results (user_id, ended_at DESC, game_id DESC);
-- Seat 0 stands for its game in lists of everyone's games.
CREATE INDEX game_results_games ON game_results (ended_at DESC, game_id DESC) WHERE seat = 0;
