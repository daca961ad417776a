-- Events are read, written and deleted by (game_id, seq) only. Kept in that key's B-tree
-- (WITHOUT ROWID) instead of a rowid table plus an index, one game's events lie together: packing
-- a finished game's log deletes them from a few pages instead of one page per event (a rowid
-- table interleaves every game's events in the order they were played), and an append writes one
-- B-tree instead of two.
CREATE TABLE game_events_by_key (
    game_id    BIGINT NOT NULL REFERENCES games (id),
    seq        BIGINT NOT NULL,
    kind       TEXT   NOT NULL,
    payload    TEXT   NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
INSERT INTO game_events_by_key (game_id, seq, kind, payload, created_at)
    SELECT game_id, seq, kind, payload, created_at FROM game_events;
DROP TABLE game_events;
ALTER TABLE game_events_by_key RENAME TO game_events;
