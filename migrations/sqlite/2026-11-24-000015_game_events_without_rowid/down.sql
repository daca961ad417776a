CREATE TABLE game_events_with_rowid (
    game_id    BIGINT NOT NULL REFERENCES games (id),
    seq        BIGINT NOT NULL,
    kind       TEXT   NOT NULL,
    payload    TEXT   NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
INSERT INTO game_events_with_rowid (game_id, seq, kind, payload, created_at)
    SELECT game_id, seq, kind, payload, created_at FROM game_events;
DROP TABLE game_events;
ALTER TABLE game_events_with_rowid RENAME TO game_events;
