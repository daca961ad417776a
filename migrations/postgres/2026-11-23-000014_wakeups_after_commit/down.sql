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
