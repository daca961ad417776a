-- Two-factor sign-in (TOTP, RFC 6238). The secret is kept encrypted with a key derived from the
-- server's secret (AES-256-GCM), since it must be read to check a code; last_step is the last
-- time step accepted, so that each code signs in once. Until confirmed_at is set the account is
-- enrolling and signs in with its password alone.
CREATE TABLE two_factor (
    user_id       BIGINT PRIMARY KEY REFERENCES users (id),
    secret        TEXT   NOT NULL,
    confirmed_at  BIGINT,
    last_step     BIGINT NOT NULL DEFAULT -1,
    created_at    BIGINT NOT NULL
);

-- Ten single-use recovery codes per enrolment, kept as their SHA-256.
CREATE TABLE recovery_codes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    BIGINT NOT NULL REFERENCES users (id),
    code_hash  TEXT   NOT NULL,
    used_at    BIGINT
);
CREATE INDEX recovery_codes_user ON recovery_codes (user_id);
