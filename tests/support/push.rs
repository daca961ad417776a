//! A Web Push service and its device on loopback, for the tests: it holds the device's private key
//! and auth secret, decrypts every push it receives (RFC 8291), verifies its VAPID token (RFC
//! 8292: the signature by the key in `k`, `aud` the endpoint's origin, `exp` within 24 hours, a
//! `sub`), records it, and answers the statuses it is told, in turn (201 once they run out).

use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD as BASE64URL;
use base64::Engine;
use serde_json::{json, Value};
use web_push_native::jwt_simple::algorithms::{ECDSAP256PublicKeyLike, ES256PublicKey};
use web_push_native::jwt_simple::common::VerificationOptions;
use web_push_native::p256;

/// One push as the device saw it.
#[derive(Clone, Debug)]
pub struct Push {
    /// Header names in lower case.
    pub headers: HashMap<String, String>,
    /// The decrypted message.
    pub message: Value,
    /// The status it was answered.
    pub answered: u16,
    /// The VAPID token's claims.
    pub vapid: Value,
}

pub struct PushDevice {
    /// The subscription to register: `{endpoint, keys: {p256dh, auth}}`.
    pub subscription: Value,
    received: Arc<Mutex<Vec<Push>>>,
    script: Arc<Mutex<VecDeque<u16>>>,
    errors: Arc<Mutex<Vec<String>>>,
}

impl PushDevice {
    /// A device whose push service answers `statuses` in turn, then 201; `server_key` is the
    /// VAPID public key the server gives (base64url), which every push must be signed with.
    pub fn start(server_key: &str, statuses: &[u16]) -> PushDevice {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let origin = format!("http://{}", listener.local_addr().expect("addr"));
        let secret = p256::SecretKey::random(&mut p256::elliptic_curve::rand_core::OsRng);
        let public = secret.public_key();
        let mut auth = [0u8; 16];
        getrandom::getrandom(&mut auth).expect("random");
        let subscription = json!({
            "endpoint": format!("{origin}/push/{}", hex::encode(&auth[..6])),
            "keys": {
                "p256dh": BASE64URL.encode(p256::EncodedPoint::from(public).as_bytes()),
                "auth": BASE64URL.encode(auth),
            },
        });
        let received = Arc::new(Mutex::new(Vec::new()));
        let script = Arc::new(Mutex::new(
            statuses.iter().copied().collect::<VecDeque<_>>(),
        ));
        let errors = Arc::new(Mutex::new(Vec::new()));
        let (log, answers, problems) = (received.clone(), script.clone(), errors.clone());
        let server_key = server_key.to_string();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let Some((headers, body)) = super::read_request(&stream) else {
                    continue;
                };
                let checked = check(&headers, body, &secret, &auth, &server_key, &origin);
                let status = answers.lock().unwrap().pop_front().unwrap_or(201);
                match checked {
                    Ok((message, vapid)) => log.lock().unwrap().push(Push {
                        headers,
                        message,
                        answered: status,
                        vapid,
                    }),
                    Err(e) => problems.lock().unwrap().push(e),
                }
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status} X\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                );
            }
        });
        PushDevice {
            subscription,
            received,
            script,
            errors,
        }
    }

    /// Every push received so far.
    pub fn pushes(&self) -> Vec<Push> {
        self.received.lock().unwrap().clone()
    }

    /// Answer `statuses` next.
    pub fn answer(&self, statuses: &[u16]) {
        self.script.lock().unwrap().extend(statuses.iter().copied());
    }

    /// Wait (real time, briefly: for the server's push worker) until `n` pushes have arrived.
    pub fn wait_for(&self, n: usize) -> Vec<Push> {
        for _ in 0..200 {
            let got = self.pushes();
            if got.len() >= n {
                return got;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("{n} pushes never came: {:?}", self.pushes());
    }

    /// Whether `n` pushes have arrived within two seconds (real time: for the server's push
    /// worker), without failing the test where they have not.
    pub fn arrived(&self, n: usize) -> bool {
        for _ in 0..40 {
            if self.pushes().len() >= n {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    /// Pushes that could not be decrypted or whose VAPID token was wrong.
    pub fn errors(&self) -> Vec<String> {
        self.errors.lock().unwrap().clone()
    }
}

/// Decrypt a push and verify its VAPID token.
fn check(
    headers: &HashMap<String, String>,
    body: Vec<u8>,
    secret: &p256::SecretKey,
    auth: &[u8; 16],
    server_key: &str,
    origin: &str,
) -> Result<(Value, Value), String> {
    if headers.get("content-encoding").map(String::as_str) != Some("aes128gcm") {
        return Err(format!(
            "content-encoding {:?}",
            headers.get("content-encoding")
        ));
    }
    record_size_is_larger_than_the_record(&body)?;
    let plain = decrypt(body, secret, auth)?;
    let message: Value = serde_json::from_slice(&plain).map_err(|e| e.to_string())?;
    let vapid = headers.get("authorization").ok_or("no Authorization")?;
    let rest = vapid.strip_prefix("vapid ").ok_or("not vapid")?;
    let mut token = None;
    let mut key = None;
    for part in rest.split(',') {
        let (k, v) = part
            .trim()
            .split_once('=')
            .ok_or("a malformed vapid header")?;
        match k {
            "t" => token = Some(v.to_string()),
            "k" => key = Some(v.to_string()),
            _ => {}
        }
    }
    let (token, key) = (token.ok_or("no t=")?, key.ok_or("no k=")?);
    if key != server_key {
        return Err(format!("signed with {key}, not the server's key"));
    }
    let public = ES256PublicKey::from_bytes(&BASE64URL.decode(&key).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let options = VerificationOptions {
        allowed_audiences: Some(std::collections::HashSet::from([origin.to_string()])),
        ..Default::default()
    };
    let claims = public
        .verify_token::<web_push_native::jwt_simple::claims::NoCustomClaims>(&token, Some(options))
        .map_err(|e| format!("VAPID token: {e}"))?;
    let exp = claims.expires_at.ok_or("no exp")?.as_secs() as i64;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    if exp <= now || exp > now + 24 * 3600 {
        return Err(format!("exp {exp} is not within 24 hours of {now}"));
    }
    let sub = claims.subject.ok_or("no sub")?;
    Ok((message, json!({"exp": exp, "sub": sub, "aud": origin})))
}

/// RFC 8291 §4: a push is one record, and the header's record size (`rs`) must be greater than
/// that record (plaintext, padding delimiter, padding and the 16-octet tag), so that the receiver
/// knows it is the last. A strict receiver refuses the push otherwise, and so does this one.
pub fn record_size_is_larger_than_the_record(body: &[u8]) -> Result<(), String> {
    if body.len() < 21 {
        return Err(format!(
            "a body of {} octets has no aes128gcm header",
            body.len()
        ));
    }
    let rs = u32::from_be_bytes([body[16], body[17], body[18], body[19]]) as usize;
    let header = 21 + usize::from(body[20]);
    let record = body
        .len()
        .checked_sub(header)
        .ok_or("the body is shorter than its header")?;
    if rs <= record {
        return Err(format!(
            "rs {rs} is not greater than the {record}-octet record (RFC 8291 section 4)"
        ));
    }
    Ok(())
}

/// RFC 8291 decryption, as the device does.
pub fn decrypt(
    body: Vec<u8>,
    secret: &p256::SecretKey,
    auth: &[u8; 16],
) -> Result<Vec<u8>, String> {
    let auth = web_push_native::Auth::clone_from_slice(auth);
    web_push_native::decrypt(body, secret, &auth).map_err(|e| format!("decrypt: {e:?}"))
}
