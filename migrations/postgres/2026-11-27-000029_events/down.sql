ALTER TABLE users DROP COLUMN last_timeout_at;
DROP TABLE event_pairings;
DROP TABLE event_entries;
DROP TABLE events;
