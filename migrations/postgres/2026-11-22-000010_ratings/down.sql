DROP TABLE game_results;
DROP TABLE ratings;
ALTER TABLE games DROP COLUMN rated;
