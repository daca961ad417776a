-- Wake-ups are sent after the commit by each instance's notifier (src/workers/notifier.rs),
-- many commits' in one NOTIFY statement: a NOTIFY inside the appending transaction made
-- PostgreSQL serialise every move's commit, flush to disk included, behind one lock.
-- Session revocations keep their trigger (keltis_sessions_changed): rare, and never to be missed.
DROP TRIGGER game_events_wake ON game_events;
DROP TRIGGER notifications_wake ON notifications;
DROP FUNCTION keltis_wake_game();
DROP FUNCTION keltis_wake_user();
