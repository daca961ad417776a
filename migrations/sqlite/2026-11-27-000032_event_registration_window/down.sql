ALTER TABLE events DROP COLUMN registration_opens_at;
