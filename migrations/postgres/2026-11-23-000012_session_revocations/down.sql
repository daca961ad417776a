DROP TRIGGER sessions_revoked ON sessions;
DROP FUNCTION keltis_sessions_changed();
