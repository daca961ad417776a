DROP INDEX games_status;
CREATE INDEX games_status ON games (status, updated_at);
