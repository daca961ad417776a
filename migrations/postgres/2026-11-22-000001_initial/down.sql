DROP TABLE idempotency_keys;
DROP TABLE game_events;
DROP TABLE game_invites;
DROP TABLE game_seats;
DROP TABLE games;
DROP TABLE api_tokens;
DROP TABLE refresh_tokens;
DROP TABLE users;
