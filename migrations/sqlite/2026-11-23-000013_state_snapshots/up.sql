-- A game's state is its last snapshot plus the decisions logged after it: a move rewrites the
-- snapshot (some KB) only every few events, not on every move. `state_version` is the version the
-- snapshot stands at; until now every snapshot stood at its row's version.
ALTER TABLE games ADD COLUMN state_version BIGINT NOT NULL DEFAULT 0;
UPDATE games SET state_version = version;
