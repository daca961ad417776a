ALTER TABLE users DROP COLUMN outside_bot;
