ALTER TABLE games DROP COLUMN state_version;
