-- Instances remember the sessions they found live (src/storage/live_sessions.rs) instead of
-- reading the session row on every request: a revoked or deleted session must reach every
-- instance's listener, as NOTIFY keltis_wake 's<user id>' (delivered at commit, never for a
-- rollback). SQLite has no counterpart: its one process forgets them itself.
CREATE FUNCTION keltis_sessions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('keltis_wake', 's' || OLD.user_id);
    RETURN NULL;
END $$;

CREATE TRIGGER sessions_revoked AFTER UPDATE OF revoked_at OR DELETE ON sessions
    FOR EACH ROW EXECUTE FUNCTION keltis_sessions_changed();
