-- Secrets every instance of the server shares and generates once, sealed (AES-256-GCM under a key
-- derived from --jwt-secret): the Web Push VAPID private key. The first instance to start writes
-- it; the others read it.
CREATE TABLE server_secrets (
    name        TEXT   PRIMARY KEY,
    sealed      TEXT   NOT NULL,
    created_at  BIGINT NOT NULL
);
