DROP TABLE moderation_actions;
DROP TABLE reports;
DROP TABLE follows;
ALTER TABLE users DROP COLUMN suspended_until;
ALTER TABLE users DROP COLUMN muted_until;
ALTER TABLE users DROP COLUMN moderator;
ALTER TABLE users DROP COLUMN timeouts;
