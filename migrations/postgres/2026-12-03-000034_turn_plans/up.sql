-- Plans for the next turn (issue 69): at most one waiting a player and game, read by its owner
-- alone, played or dropped when the owner's turn begins (in the transaction that appends its
-- steps, which deletes it: played once, by one instance).
CREATE TABLE turn_plans (
    game_id  BIGINT  NOT NULL REFERENCES games (id),
    user_id  BIGINT  NOT NULL REFERENCES users (id),
    seat     INTEGER NOT NULL,
    -- The game's version the plan was made on, and when.
    made_on  BIGINT  NOT NULL,
    made_at  BIGINT  NOT NULL,
    -- Its alternatives: steps, conditions, and what each saw (JSON).
    plan     TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- What became of each plan: played (the versions its steps made) or dropped (why), for its
-- owner's own view and export.
CREATE TABLE plan_outcomes (
    id          BIGSERIAL PRIMARY KEY,
    game_id     BIGINT  NOT NULL REFERENCES games (id),
    user_id     BIGINT  NOT NULL REFERENCES users (id),
    -- The version at which the owner's turn began (or the plan was dropped).
    version     BIGINT  NOT NULL,
    -- The alternative played (from 1); NULL when dropped.
    alternative INTEGER,
    -- Decisions the plan played.
    steps       INTEGER NOT NULL,
    -- Why it was dropped: a stable code and the words.
    code        TEXT,
    reason      TEXT,
    at          BIGINT  NOT NULL
);
CREATE INDEX plan_outcomes_by_owner ON plan_outcomes (game_id, user_id);
