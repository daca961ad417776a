ALTER TABLE games RESET (fillfactor);
DROP INDEX idempotency_keys_age;
DROP INDEX refresh_tokens_expiry;
DROP INDEX refresh_tokens_session;
ALTER TABLE refresh_tokens DROP COLUMN session_id;
DROP TABLE sessions;
DROP INDEX users_name_folded;
