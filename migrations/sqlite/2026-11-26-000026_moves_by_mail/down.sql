DROP TABLE inbound_mails;
ALTER TABLE mail_settings DROP COLUMN moves_by_reply;
