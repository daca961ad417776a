-- Wake-ups across server instances: a commit that appends a game's event or a user's
-- notification sends NOTIFY keltis_wake ('g<game id>' or 'u<user id>'); every instance LISTENs.
-- NOTIFY inside the transaction is delivered at commit, and never for a rolled-back move.
-- (SQLite has no counterpart: its one process wakes its own waiters after each commit.)
CREATE FUNCTION keltis_wake_game() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('keltis_wake', 'g' || NEW.game_id);
    RETURN NULL;
END $$;

CREATE FUNCTION keltis_wake_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('keltis_wake', 'u' || NEW.user_id);
    RETURN NULL;
END $$;

CREATE TRIGGER game_events_wake AFTER INSERT ON game_events
    FOR EACH ROW EXECUTE FUNCTION keltis_wake_game();
CREATE TRIGGER notifications_wake AFTER INSERT ON notifications
    FOR EACH ROW EXECUTE FUNCTION keltis_wake_user();
