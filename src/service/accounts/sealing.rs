//! Secrets the server must read back, kept encrypted at rest: two-factor secrets, webhook
//! signing keys and the server's own VAPID key cannot be hashed (the server computes codes and signatures with them), so they
//! are sealed with AES-256-GCM under a key derived from the server's secret, one key per
//! purpose. A copy of the database alone opens none of them.

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes256Gcm, Nonce};
use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;

use super::sessions::TokenKeys;
use crate::service::{random_hex, ServiceError, ServiceResult};

/// What a secret is for: each purpose seals under its own derived key.
#[derive(Debug, Clone, Copy)]
pub enum Purpose {
    TwoFactor,
    WebhookSigning,
    VapidKey,
}

impl Purpose {
    fn key_name(self) -> &'static str {
        match self {
            Purpose::TwoFactor => "two-factor-secret",
            Purpose::WebhookSigning => "webhook-signing-secret",
            Purpose::VapidKey => "vapid-private-key",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Purpose::TwoFactor => "a two-factor secret",
            Purpose::WebhookSigning => "a webhook's signing secret",
            Purpose::VapidKey => "the server's VAPID key",
        }
    }
}

fn cipher(keys: &TokenKeys, purpose: Purpose) -> Aes256Gcm {
    Aes256Gcm::new(&keys.derived_key(purpose.key_name()).into())
}

/// The secret encrypted: base64 of a random nonce and the ciphertext.
pub fn seal(keys: &TokenKeys, purpose: Purpose, secret: &[u8]) -> ServiceResult<String> {
    let nonce = hex::decode(random_hex(12)?).map_err(|e| ServiceError::Internal(e.to_string()))?;
    let sealed = cipher(keys, purpose)
        .encrypt(Nonce::from_slice(&nonce), secret)
        .map_err(|e| ServiceError::Internal(e.to_string()))?;
    Ok(BASE64.encode([nonce, sealed].concat()))
}

/// The secret [`seal`] encrypted, if this server's key opens it.
pub fn open(keys: &TokenKeys, purpose: Purpose, sealed: &str) -> ServiceResult<Vec<u8>> {
    let what = purpose.what();
    let bytes = BASE64
        .decode(sealed)
        .map_err(|e| ServiceError::Internal(format!("{what}: {e}")))?;
    if bytes.len() < 12 {
        return Err(ServiceError::Internal(format!("{what} is cut")));
    }
    let (nonce, sealed) = bytes.split_at(12);
    cipher(keys, purpose)
        .decrypt(Nonce::from_slice(nonce), sealed)
        .map_err(|_| ServiceError::Internal(format!("{what} does not open with this server's key")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_secret_opens_with_its_key_and_purpose_only() {
        let keys = TokenKeys::new(b"a secret of the server, long enough");
        let sealed = seal(&keys, Purpose::TwoFactor, b"twenty bytes of key!").unwrap();
        assert!(!sealed.contains("twenty"));
        assert_eq!(
            open(&keys, Purpose::TwoFactor, &sealed).unwrap(),
            b"twenty bytes of key!"
        );
        assert!(open(&TokenKeys::new(b"another key"), Purpose::TwoFactor, &sealed).is_err());
        assert!(
            open(&keys, Purpose::WebhookSigning, &sealed).is_err(),
            "one key per purpose"
        );
        assert_ne!(
            sealed,
            seal(&keys, Purpose::TwoFactor, b"twenty bytes of key!").unwrap(),
            "a fresh nonce"
        );
    }
}
