DROP INDEX notifications_game;
DROP TABLE game_archives;
