ALTER TABLE mail_settings DROP COLUMN push_game_over;
ALTER TABLE mail_settings DROP COLUMN push_game_started;
ALTER TABLE mail_settings DROP COLUMN push_invitation;
ALTER TABLE mail_settings DROP COLUMN push_deadline_reminder;
ALTER TABLE mail_settings DROP COLUMN push_your_turn;
