-- Reviews of finished games (issue 48): asked for by a seated player, or queued when a rated game
-- ends; done by the review worker of any instance, which claims one with a lease
-- (claimed_until: 0 while it waits), and kept once done.
CREATE TABLE game_reviews (
    game_id       BIGINT  PRIMARY KEY REFERENCES games (id),
    requested_at  BIGINT  NOT NULL,
    claimed_until BIGINT  NOT NULL DEFAULT 0,
    attempts      INTEGER NOT NULL DEFAULT 0,
    done_at       BIGINT,
    -- The review as JSON, once done.
    review        TEXT,
    -- Why it could not be done, once given up.
    failure       TEXT
);
CREATE INDEX game_reviews_waiting ON game_reviews (requested_at) WHERE done_at IS NULL;

-- Each player's accuracy in a done review: the profiles' averages per variant.
CREATE TABLE review_accuracies (
    game_id  BIGINT           NOT NULL REFERENCES games (id),
    user_id  BIGINT           NOT NULL REFERENCES users (id),
    variant  TEXT             NOT NULL,
    accuracy DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX review_accuracies_by_user ON review_accuracies (user_id, variant);
