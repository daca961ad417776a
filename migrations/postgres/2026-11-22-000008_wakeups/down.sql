DROP TRIGGER notifications_wake ON notifications;
DROP TRIGGER game_events_wake ON game_events;
DROP FUNCTION keltis_wake_user();
DROP FUNCTION keltis_wake_game();
