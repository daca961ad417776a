//! Two-factor sign-in with TOTP (RFC 6238, `totp-rs`): enrolling (a secret shown once as a QR
//! code and in text, confirmed by a first code, ten single-use recovery codes shown once),
//! signing in with a code, turning it off with a code. Each time step's code is accepted once
//! (RFC 6238, section 5.2), within one step either side of the server's clock. The secret is
//! kept encrypted with a key derived from the server's secret.

use crate::storage::locks::{self, Subject};
use serde::{Deserialize, Serialize};
use totp_rs::{Builder, Secret, Totp};

use super::sealing::{self, Purpose};
use super::sessions::TokenKeys;
use super::Caller;
use crate::service::notify::notifications::{queue, Notice};
use crate::service::{random_hex, sha256_hex, ServiceError, ServiceResult};
use crate::storage::two_factor::{self as store, TwoFactorRow};
use crate::storage::{Database, DbConnection};

/// Recovery codes given at enrolment.
pub const RECOVERY_CODES: usize = 10;
const ISSUER: &str = "Keltis";

/// What enrolling shows, once: the secret as a QR code and in text.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Enrolment {
    /// The secret in base32, for typing into an authenticator app.
    pub secret: String,
    /// The `otpauth://` URL the QR code holds.
    pub otpauth_url: String,
    /// The QR code, as an SVG document.
    pub qr_svg: String,
}

/// The recovery codes, shown once when two-factor sign-in is turned on.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct RecoveryCodes {
    pub recovery_codes: Vec<String>,
}

/// Whether two-factor sign-in is on.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct TwoFactorStatus {
    pub enabled: bool,
    /// Recovery codes not used yet (0 when off).
    pub recovery_codes_left: i64,
}

/// Enrolling and turning off are the account's own business: a signed-in session only.
fn signed_in(caller: &Caller) -> ServiceResult<()> {
    caller.require_session("two-factor sign-in is set from a signed-in session, not with a token")
}

fn seal(keys: &TokenKeys, secret: &[u8]) -> ServiceResult<String> {
    sealing::seal(keys, Purpose::TwoFactor, secret)
}

fn open(keys: &TokenKeys, sealed: &str) -> ServiceResult<Vec<u8>> {
    sealing::open(keys, Purpose::TwoFactor, sealed)
}

fn totp(secret: Vec<u8>, account: &str) -> ServiceResult<Totp> {
    Builder::new()
        .with_secret(Secret::from(secret))
        .with_issuer(Some(ISSUER))
        .with_account_name(account)
        .build()
        .map_err(|e| ServiceError::Internal(e.to_string()))
}

/// The TOTP time step `code` matches at `now_ms` (one step of skew either side), if any.
fn step_of(totp: &Totp, code: &str, now_ms: i64) -> Option<i64> {
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    let now = u64::try_from(now_ms / 1000).ok()?;
    totp.check(&code, now)
        .and_then(|step| i64::try_from(step).ok())
}

pub fn status(db: &Database, caller: &Caller) -> ServiceResult<TwoFactorStatus> {
    signed_in(caller)?;
    db.read(|c| {
        let enabled = store::get(c, caller.user_id)?.is_some_and(|r| r.confirmed_at.is_some());
        let left = if enabled {
            store::recovery_codes_left(c, caller.user_id)?
        } else {
            0
        };
        Ok(TwoFactorStatus {
            enabled,
            recovery_codes_left: left,
        })
    })
}

/// Start enrolling: a new secret (in place of an unconfirmed one). Refused while on.
pub fn start(db: &Database, keys: &TokenKeys, caller: &Caller) -> ServiceResult<Enrolment> {
    signed_in(caller)?;
    let secret = hex::decode(random_hex(20)?).map_err(|e| ServiceError::Internal(e.to_string()))?;
    let totp = totp(secret.clone(), &caller.name)?;
    let otpauth_url = totp
        .to_url()
        .map_err(|e| ServiceError::Internal(e.to_string()))?;
    let qr_svg = qrcode::QrCode::new(otpauth_url.as_bytes())
        .map_err(|e| ServiceError::Internal(e.to_string()))?
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(200, 200)
        .build();
    let sealed = seal(keys, &secret)?;
    let now = db.now();
    db.write(|c| {
        // Started twice at the same moment: the second restarts the enrolment, as it would a
        // moment later.
        locks::lock(c, Subject::Player(caller.user_id))?;
        if store::get(c, caller.user_id)?.is_some_and(|r| r.confirmed_at.is_some()) {
            return Err(ServiceError::conflict(
                "two_factor_on",
                "two-factor sign-in is on already: turn it off first",
            ));
        }
        store::start(c, caller.user_id, &sealed, now)?;
        Ok(())
    })?;
    Ok(Enrolment {
        secret: totp.secret().to_base32(),
        otpauth_url,
        qr_svg,
    })
}

fn bad_code() -> ServiceError {
    ServiceError::invalid(
        "invalid_code",
        "the code is wrong, was used already or has expired",
    )
}

/// A recovery code as shown: two groups of five characters.
fn recovery_code() -> ServiceResult<String> {
    let hex = random_hex(5)?;
    Ok(format!("{}-{}", &hex[..5], &hex[5..]))
}

/// A recovery code as kept (its hash; typed with or without its dash, in any case).
fn recovery_hash(code: &str) -> String {
    let plain: String = code
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase();
    sha256_hex(&plain)
}

/// Turn two-factor sign-in on with a first code; the recovery codes, shown once.
pub fn confirm(
    db: &Database,
    keys: &TokenKeys,
    caller: &Caller,
    code: &str,
) -> ServiceResult<RecoveryCodes> {
    signed_in(caller)?;
    let row = db
        .read(|c| store::get(c, caller.user_id))?
        .filter(|r| r.confirmed_at.is_none())
        .ok_or_else(|| {
            ServiceError::conflict(
                "no_enrolment",
                "start enrolling first (POST /me/two-factor)",
            )
        })?;
    let totp = totp(open(keys, &row.secret)?, &caller.name)?;
    let now = db.now();
    let step = step_of(&totp, code, now).ok_or_else(bad_code)?;
    let codes = (0..RECOVERY_CODES)
        .map(|_| recovery_code())
        .collect::<ServiceResult<Vec<_>>>()?;
    let hashes: Vec<String> = codes.iter().map(|c| recovery_hash(c)).collect();
    db.write(|c| {
        if !store::confirm(c, caller.user_id, step, &hashes, now)? {
            return Err(bad_code());
        }
        queue(
            c,
            caller.user_id,
            &Notice::TwoFactorChanged { on: true },
            now,
        )?;
        Ok(())
    })?;
    Ok(RecoveryCodes {
        recovery_codes: codes,
    })
}

/// Whether `code` (a TOTP code or a recovery code) proves the second factor of `row`'s account,
/// spending it: a time step is accepted once, a recovery code once.
fn spend(
    c: &mut DbConnection,
    keys: &TokenKeys,
    row: &TwoFactorRow,
    account: &str,
    code: &str,
    now: i64,
) -> ServiceResult<bool> {
    let totp = totp(open(keys, &row.secret)?, account)?;
    if let Some(step) = step_of(&totp, code, now) {
        return Ok(store::use_step(c, row.user_id, step)?);
    }
    Ok(store::use_recovery_code(
        c,
        row.user_id,
        &recovery_hash(code),
        now,
    )?)
}

/// Turn two-factor sign-in off with a code or a recovery code.
pub fn disable(db: &Database, keys: &TokenKeys, caller: &Caller, code: &str) -> ServiceResult<()> {
    signed_in(caller)?;
    let now = db.now();
    db.write(|c| {
        let Some(row) = store::get(c, caller.user_id)?.filter(|r| r.confirmed_at.is_some()) else {
            return Err(ServiceError::conflict(
                "two_factor_off",
                "two-factor sign-in is not on",
            ));
        };
        if !spend(c, keys, &row, &caller.name, code, now)? {
            return Err(bad_code());
        }
        store::remove(c, caller.user_id)?;
        queue(
            c,
            caller.user_id,
            &Notice::TwoFactorChanged { on: false },
            now,
        )?;
        Ok(())
    })
}

/// How a second factor is refused where it is asked for.
struct Refusals {
    missing: fn() -> ServiceError,
    wrong: fn() -> ServiceError,
}

/// Nothing when two-factor sign-in is off; else `code` must be a fresh TOTP code or an unused
/// recovery code, spent here.
fn second_factor(
    db: &Database,
    keys: &TokenKeys,
    user_id: i64,
    name: &str,
    code: Option<&str>,
    refusals: Refusals,
) -> ServiceResult<()> {
    // Most accounts have it off: a read tells, and only a code spent writes.
    let Some(row) = db
        .read(|c| store::get(c, user_id))?
        .filter(|r| r.confirmed_at.is_some())
    else {
        return Ok(());
    };
    let Some(code) = code.filter(|c| !c.trim().is_empty()) else {
        return Err((refusals.missing)());
    };
    let now = db.now();
    if db.write(|c| spend(c, keys, &row, name, code, now))? {
        Ok(())
    } else {
        Err((refusals.wrong)())
    }
}

/// The second factor for an act that asks for it again (deleting the account): 403
/// `code_required` without a code, 422 `invalid_code` with a wrong one.
pub(super) fn prove(
    db: &Database,
    keys: &TokenKeys,
    user_id: i64,
    name: &str,
    code: Option<&str>,
) -> ServiceResult<()> {
    let refusals = Refusals {
        missing: || {
            ServiceError::forbidden(
                "code_required",
                "two-factor sign-in is on: give a code from the authenticator app or a recovery code",
            )
        },
        wrong: bad_code,
    };
    second_factor(db, keys, user_id, name, code, refusals)
}

/// The second factor at sign-in, once the password was right: 401 `two_factor_required` without
/// a code, 401 with a wrong one.
pub(super) fn check_at_login(
    db: &Database,
    keys: &TokenKeys,
    user_id: i64,
    name: &str,
    code: Option<&str>,
) -> ServiceResult<()> {
    let refusals = Refusals {
        missing: || ServiceError::TwoFactorRequired,
        wrong: || ServiceError::Unauthorized("the code is wrong, was used already or has expired"),
    };
    second_factor(db, keys, user_id, name, code, refusals)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6238, appendix B: the SHA-1 test vectors (8 digits there; the last 6 here).
    #[test]
    fn codes_match_the_rfc_vectors_within_one_step() {
        let totp = totp(b"12345678901234567890".to_vec(), "anna").unwrap();
        assert_eq!(step_of(&totp, "287082", 59_000), Some(1));
        assert_eq!(
            step_of(&totp, "081804", 1_111_111_109_000),
            Some(37_037_036)
        );
        // One step late or early is still accepted; two are not.
        assert_eq!(
            step_of(&totp, "081804", 1_111_111_109_000 + 30_000),
            Some(37_037_036)
        );
        assert_eq!(step_of(&totp, "081804", 1_111_111_109_000 + 60_000), None);
        assert_eq!(step_of(&totp, "not a code", 59_000), None);
    }

    #[test]
    fn recovery_codes_are_read_as_typed() {
        let code = recovery_code().unwrap();
        assert_eq!(code.len(), 11);
        assert_eq!(
            recovery_hash(&code),
            recovery_hash(&code.to_uppercase().replace('-', " "))
        );
    }
}
