//! A push message's encryption (RFC 8291, `aes128gcm` of RFC 8188): the Web Push key agreement
//! here, the content encoding itself in `ece-native`.
//!
//! `web-push-native`'s own `encrypt` declares a record size equal to the one record it writes;
//! RFC 8291 §4 wants it *greater* than plaintext, delimiter, padding and tag together, so that a
//! receiver knows the single record is the last. Strict receivers refuse the former, so the key
//! agreement is done here and the record size chosen: 4096, as common senders do.

use hkdf::Hkdf;
use sha2::Sha256;
use web_push_native::p256;
use web_push_native::p256::elliptic_curve::rand_core::{OsRng, RngCore};
use web_push_native::p256::elliptic_curve::sec1::ToEncodedPoint;

/// The record size every push declares (the `rs` of the `aes128gcm` header).
pub const RECORD_SIZE: u32 = 4096;

/// The most a push's plaintext may hold: its body (header of 86 octets, the record with its
/// delimiter and tag) must fit the 4096 octets every push service accepts (RFC 8030 §7.2).
pub const MAX_PLAINTEXT: usize = 4096 - 86 - 17;

/// Encrypt `message` for the device whose key is `ua_public` and auth secret `auth`.
pub fn encrypt(
    message: Vec<u8>,
    ua_public: &p256::PublicKey,
    auth: &[u8; 16],
) -> Result<Vec<u8>, String> {
    let mut salt = [0u8; 16];
    OsRng.fill_bytes(&mut salt);
    let as_secret = p256::SecretKey::random(&mut OsRng);
    encrypt_with(message, ua_public, auth, &as_secret, salt)
}

/// [`encrypt`] with the server's one-time key and the salt given (RFC 8291's example fixes both).
fn encrypt_with(
    message: Vec<u8>,
    ua_public: &p256::PublicKey,
    auth: &[u8; 16],
    as_secret: &p256::SecretKey,
    salt: [u8; 16],
) -> Result<Vec<u8>, String> {
    if message.len() > MAX_PLAINTEXT {
        return Err(format!(
            "a push message holds at most {MAX_PLAINTEXT} octets, not {}",
            message.len()
        ));
    }
    let as_public = as_secret.public_key().to_encoded_point(false);
    let ua_point = ua_public.to_encoded_point(false);
    let shared = p256::ecdh::diffie_hellman(as_secret.to_nonzero_scalar(), ua_public.as_affine());
    // RFC 8291 §3.3-3.4: the input keying material combines the shared secret and auth secret.
    let mut info = Vec::with_capacity(14 + 65 + 65);
    info.extend_from_slice(b"WebPush: info\0");
    info.extend_from_slice(ua_point.as_bytes());
    info.extend_from_slice(as_public.as_bytes());
    let mut ikm = [0u8; 32];
    Hkdf::<Sha256>::new(Some(auth), shared.raw_secret_bytes())
        .expand(&info, &mut ikm)
        .map_err(|e| e.to_string())?;
    ece_native::encrypt(
        ikm,
        salt,
        as_public.as_bytes(),
        std::iter::once(message),
        RECORD_SIZE,
    )
    .map_err(|e| format!("{e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
    use base64::Engine;

    fn decoded(text: &str) -> Vec<u8> {
        B64.decode(text).expect("base64url")
    }

    /// RFC 8291 appendix A: with the example's keys, salt and secret, the body is the published
    /// one, byte for byte (its `rs` is 4096 too).
    #[test]
    fn the_rfc_8291_example_is_reproduced() {
        let ua_secret =
            p256::SecretKey::from_slice(&decoded("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"))
                .unwrap();
        let as_secret =
            p256::SecretKey::from_slice(&decoded("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"))
                .unwrap();
        let auth: [u8; 16] = decoded("BTBZMqHH6r4Tts7J_aSIgg").try_into().unwrap();
        let salt: [u8; 16] = decoded("DGv6ra1nlYgDCS1FRnbzlw").try_into().unwrap();
        let body = encrypt_with(
            b"When I grow up, I want to be a watermelon".to_vec(),
            &ua_secret.public_key(),
            &auth,
            &as_secret,
            salt,
        )
        .unwrap();
        assert_eq!(
            B64.encode(body),
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        );
    }

    /// RFC 8291 §4: the declared record size exceeds the record, which is then the last.
    #[test]
    fn the_record_size_exceeds_the_record() {
        let ua = p256::SecretKey::random(&mut OsRng).public_key();
        for len in [0, 84, 1000, MAX_PLAINTEXT] {
            let body = encrypt(vec![b'x'; len], &ua, &[7; 16]).unwrap();
            let rs = u32::from_be_bytes(body[16..20].try_into().unwrap());
            let record = body.len() - 16 - 4 - 1 - usize::from(body[20]);
            assert_eq!(rs, RECORD_SIZE);
            assert!(rs as usize > record, "rs {rs} for a record of {record}");
            assert!(body.len() <= 4096);
        }
        assert!(encrypt(vec![b'x'; MAX_PLAINTEXT + 1], &ua, &[7; 16]).is_err());
    }
}
