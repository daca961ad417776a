ALTER TABLE api_tokens DROP COLUMN redirect_host;
ALTER TABLE api_tokens DROP COLUMN client_id;
DROP TABLE oauth_codes;
