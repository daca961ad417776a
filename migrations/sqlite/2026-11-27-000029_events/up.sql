-- Events (tournaments): a Swiss or a round robin in groups, made by a player or an operator.
-- 'registering' until it starts (at `starts_at`, or once full when that is NULL), 'running'
-- while the server deals its rounds (`current_round`, moved on by compare-and-set so that two
-- instances never deal a round twice), then 'finished'; 'cancelled' when too few entered or its
-- maker called it off. Points are kept in twelfths of a point (exact for shared places).
CREATE TABLE events (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    name               TEXT    NOT NULL,
    format             TEXT    NOT NULL,
    variant            TEXT    NOT NULL,
    table_size         INTEGER NOT NULL,
    -- The time control, as games store it (JSON).
    time_control       TEXT    NOT NULL,
    rated              BOOLEAN NOT NULL,
    -- Swiss: how many rounds; a round robin: 1 (every game of a group at once).
    rounds             INTEGER NOT NULL,
    -- A round robin's groups: about this many players each.
    group_size         INTEGER,
    -- Points by place, first place first, in twelfths, as "24,12,0"; a bye's, in twelfths.
    points_by_place    TEXT    NOT NULL,
    bye_points         BIGINT  NOT NULL,
    min_players        INTEGER NOT NULL,
    max_players        INTEGER NOT NULL,
    -- Who may enter: a rating in the variant within the range, so many finished games, no game
    -- lost on time in so many days (NULL: no condition).
    rating_min         INTEGER,
    rating_max         INTEGER,
    min_finished_games INTEGER NOT NULL,
    no_timeouts_days   INTEGER,
    -- A Swiss takes late entries until this round has been dealt (0: none), with a half bye for
    -- each round missed.
    late_entry_until   INTEGER NOT NULL,
    -- The longest a round runs; games still running then are decided by their clocks.
    round_hours        INTEGER,
    starts_at          BIGINT,
    -- Recurring: the next edition is made, this many days later, when this one starts.
    repeat_every_days  INTEGER,
    next_edition_id    BIGINT,
    -- NULL: made by the server (a recurring edition).
    created_by         BIGINT  REFERENCES users (id),
    state              TEXT    NOT NULL,
    current_round      INTEGER NOT NULL DEFAULT 0,
    round_started_at   BIGINT,
    -- Decides only who moves first on the first board of the first round.
    seed               BIGINT  NOT NULL,
    created_at         BIGINT  NOT NULL,
    started_at         BIGINT,
    finished_at        BIGINT
);
CREATE INDEX events_state ON events (state, starts_at);

-- Who entered, with the rating they had then (their seed); withdrawn players keep their row and
-- results, and are dealt no more rounds.
CREATE TABLE event_entries (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id      BIGINT  NOT NULL REFERENCES events (id),
    user_id       BIGINT  NOT NULL REFERENCES users (id),
    rating        REAL    NOT NULL,
    entered_at    BIGINT  NOT NULL,
    withdrawn_at  BIGINT,
    UNIQUE (event_id, user_id)
);

-- What each round dealt each entry: a seat at a game, or a bye (`bye_points`; `full_bye` when
-- the players did not divide into tables, not a late entry's half bye). One row per entry, round
-- and `slot` (a Swiss has one slot a round, so nobody plays two games of one round; a round
-- robin numbers its games).
CREATE TABLE event_pairings (
    event_id    BIGINT  NOT NULL REFERENCES events (id),
    round       INTEGER NOT NULL,
    slot        INTEGER NOT NULL,
    entry_id    BIGINT  NOT NULL REFERENCES event_entries (id),
    game_id     BIGINT  REFERENCES games (id),
    seat        INTEGER,
    bye_points  BIGINT,
    full_bye    BOOLEAN NOT NULL,
    PRIMARY KEY (event_id, round, slot, entry_id)
);
CREATE INDEX event_pairings_game ON event_pairings (game_id);

-- When a player last lost a game on time (entry conditions ask for none lately).
ALTER TABLE users ADD COLUMN last_timeout_at BIGINT;
