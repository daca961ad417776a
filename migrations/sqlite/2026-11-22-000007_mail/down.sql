DROP TABLE mail_settings;
