-- Whose decision a game waits for (a projection of the engine state), so that the bot worker
-- finds the games where a bot is to act with one indexed query.
ALTER TABLE games ADD COLUMN to_act_user BIGINT;
CREATE INDEX games_to_act_user ON games (to_act_user);
