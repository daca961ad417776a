UPDATE api_tokens SET scopes = replace(scopes, ',email,webhooks,push', '');
