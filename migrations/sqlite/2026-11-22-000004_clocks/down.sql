DROP INDEX games_deadline;
ALTER TABLE games DROP COLUMN deadline_at;
ALTER TABLE games DROP COLUMN clock;
