-- Push preferences, kind by kind, apart from email's: a player may want "your turn" on the phone
-- and only the digest by email. Every kind is on until the player turns it off.
ALTER TABLE mail_settings ADD COLUMN push_your_turn BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE mail_settings ADD COLUMN push_deadline_reminder BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE mail_settings ADD COLUMN push_invitation BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE mail_settings ADD COLUMN push_game_started BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE mail_settings ADD COLUMN push_game_over BOOLEAN NOT NULL DEFAULT TRUE;
