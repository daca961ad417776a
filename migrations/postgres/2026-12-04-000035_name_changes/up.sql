-- How many times a player's name has changed anywhere (an account deleted: its name becomes a
-- placeholder). One row. Every game read carries it, so an instance that keeps a game's seats in
-- memory sees at once that a name may have changed, even before the other instance's
-- notification reaches it.
CREATE TABLE name_changes (
    id         INTEGER PRIMARY KEY,
    generation BIGINT  NOT NULL
);
INSERT INTO name_changes (id, generation) VALUES (1, 0);
