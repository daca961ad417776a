-- A finished game's log, packed: its events as one zstd-compressed JSON array, written when the
-- game ends (or by the maintenance worker for games that ended before) in the transaction that
-- deletes its rows from game_events. A log of some 440 rows (about 80 KB with their index) becomes
-- a few KB; game_events keeps only the games being played.
CREATE TABLE game_archives (
    game_id     BIGINT PRIMARY KEY REFERENCES games (id),
    events      BLOB   NOT NULL,
    archived_at BIGINT NOT NULL
);

-- A finished game's turn notices (your turn, deadline reminders) are deleted with its log packed.
CREATE INDEX notifications_game ON notifications (game_id) WHERE game_id IS NOT NULL;
