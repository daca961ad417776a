-- `updated_at` changes with every move; kept out of every index, most moves leave all indexed
-- columns of the games row alone, and PostgreSQL can then update the row in place (HOT) instead
-- of leaving a dead copy behind with new index entries. Nothing sorts on (status, updated_at).
DROP INDEX games_status;
CREATE INDEX games_status ON games (status);
