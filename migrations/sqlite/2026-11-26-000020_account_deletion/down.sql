DROP TABLE account_erasures;
DROP INDEX users_held_name;
ALTER TABLE users DROP COLUMN held_name_mac;
ALTER TABLE users DROP COLUMN deleted_at;
