DROP INDEX games_reminder;
ALTER TABLE games DROP COLUMN reminder_at;
DROP TABLE notifications;
DROP TABLE vacations;
