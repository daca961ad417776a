-- Scopes for email settings, webhooks and push devices, apart from play (which allowed changing
-- them) and read (which allowed reading them): tokens that could change them keep that.
UPDATE api_tokens SET scopes = scopes || ',email,webhooks,push' WHERE scopes LIKE '%play%';
