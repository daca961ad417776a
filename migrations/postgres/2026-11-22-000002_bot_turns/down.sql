DROP INDEX games_to_act_user;
ALTER TABLE games DROP COLUMN to_act_user;
