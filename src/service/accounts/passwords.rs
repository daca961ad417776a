//! Passwords: changing one (the current one required) and resetting a forgotten one by a link
//! sent to the account's confirmed address.
//!
//! A reset link is `<reset id>-<HMAC of the reset with the server's key>`: derived when its email
//! is written, never stored (the table keeps its SHA-256), valid for an hour and once. Asking for
//! one answers the same whoever is named, and before the name is looked up, so that neither the
//! answer nor its time tells who is registered; at most
//! [`RESETS_PER_HOUR`] links go to one account in an hour, silently.

use crate::storage::locks::{self, Subject};
use argon2::password_hash::{PasswordHasher, SaltString};

use super::{check_password, hasher, password_matches, Caller};
use crate::service::notify::notifications::{queue, Notice};
use crate::service::{random_hex, sha256_hex, ServiceError, ServiceResult};
use crate::storage::{accounts as account_store, passwords as store, Database, DbConnection};

use super::sessions::TokenKeys;

/// A reset link is valid this long.
pub const RESET_VALID_MS: i64 = 3_600_000;
/// Reset links sent to one account within an hour, at most.
pub const RESETS_PER_HOUR: i64 = 3;

/// A new argon2id hash of `password`.
pub(super) fn hash(password: &str) -> ServiceResult<String> {
    let salt = SaltString::encode_b64(random_hex(16)?.as_bytes())
        .map_err(|e| ServiceError::Internal(e.to_string()))?;
    Ok(hasher()
        .hash_password(password.as_bytes(), &salt)
        .map_err(|e| ServiceError::Internal(e.to_string()))?
        .to_string())
}

/// Change the caller's password. Only a signed-in session may (an API token never learns or sets
/// the password); every other session is signed out, API tokens too when `revoke_tokens`; the
/// owner is told by email.
pub fn change(
    db: &Database,
    caller: &Caller,
    current: &str,
    new: &str,
    revoke_tokens: bool,
) -> ServiceResult<()> {
    let Some(session_id) = caller.session_id else {
        return Err(ServiceError::session_only(
            "the password is changed from a signed-in session, not with an API token",
        ));
    };
    check_password(new)?;
    let user = db
        .read(|c| account_store::user_by_id(c, caller.user_id))?
        .ok_or(ServiceError::Unauthorized("signed out"))?;
    if !password_matches(&user.password_hash, current) {
        return Err(ServiceError::forbidden(
            "wrong_password",
            "the current password is not right",
        ));
    }
    let new_hash = hash(new)?;
    let now = db.now();
    db.write(|c| {
        store::set_password_hash(c, user.id, &new_hash)?;
        account_store::revoke_other_sessions(c, user.id, session_id, now)?;
        if revoke_tokens {
            store::revoke_api_tokens(c, user.id, now)?;
        }
        queue(c, user.id, &Notice::PasswordChanged, now)?;
        Ok::<_, ServiceError>(())
    })
}

/// What the server answers to every request for a reset, whoever it names.
pub const RESET_ASKED: &str =
    "if an account with a confirmed address matches, a link to choose a new password is on its way";

/// Whether `who` has the shape of a name or an address to ask a reset for.
pub fn check_reset_request(who: &str) -> ServiceResult<()> {
    if who.chars().any(char::is_control) || who.trim().is_empty() || who.chars().count() > 254 {
        return Err(ServiceError::invalid(
            "invalid_user",
            "give a user name or an email address (at most 254 characters, no control characters)",
        ));
    }
    Ok(())
}

/// Ask for a reset link by user name or by address: the link goes only to a confirmed address,
/// at most [`RESETS_PER_HOUR`] an hour per account. The API answers before this runs (see
/// `api::passwords`), so that the answer and its time are the same whoever is named.
pub fn request_reset(db: &Database, keys: &TokenKeys, who: &str) -> ServiceResult<()> {
    check_reset_request(who)?;
    let who = who.trim();
    let now = db.now();
    db.write(|c| {
        let accounts = if who.contains('@') {
            store::users_with_confirmed_email(c, who)?
        } else {
            match account_store::user_by_name(c, who)? {
                Some(user) if !user.server_bot() && store::has_confirmed_email(c, user.id)? => {
                    vec![user.id]
                }
                _ => Vec::new(),
            }
        };
        // The hourly cap holds against requests at the same moment: the accounts' locks first.
        locks::lock_players(c, &accounts)?;
        for user_id in accounts {
            if store::resets_since(c, user_id, now - 3_600_000)? >= RESETS_PER_HOUR {
                continue;
            }
            let id = store::insert_reset(c, user_id, now, now + RESET_VALID_MS)?;
            let row = store::reset(c, id)?.ok_or(ServiceError::NotFound("password reset"))?;
            store::set_reset_hash(c, id, &sha256_hex(&token_of(keys, &row)))?;
            queue(c, user_id, &Notice::PasswordReset { reset_id: id }, now)?;
        }
        Ok::<_, ServiceError>(())
    })
}

/// What the reset's HMAC covers: the reset and its account and time, so that no other row's
/// token passes for it.
fn mac_message(row: &store::ResetRow) -> String {
    format!(
        "password-reset:{}:{}:{}",
        row.id, row.user_id, row.created_at
    )
}

fn token_of(keys: &TokenKeys, row: &store::ResetRow) -> String {
    format!("{}-{}", row.id, keys.mac_hex(&mac_message(row)))
}

/// The link of reset `id` for its email, while it may still be used; `None` once used or
/// expired.
pub(crate) fn reset_link(
    c: &mut DbConnection,
    keys: &TokenKeys,
    public_url: &str,
    id: i64,
    now: i64,
) -> ServiceResult<Option<String>> {
    Ok(store::reset(c, id)?
        .filter(|row| row.used_at.is_none() && row.expires_at > now)
        .map(|row| format!("{public_url}/reset-password?token={}", token_of(keys, &row))))
}

fn bad_link() -> ServiceError {
    ServiceError::invalid(
        "invalid_link",
        "this link is invalid, was used already or has expired: ask for a new one",
    )
}

/// Set a new password with a reset link: once, within the hour. Every session is signed out (API
/// tokens stay), every other link of the account is spent, and the owner is told by email.
pub fn reset(db: &Database, keys: &TokenKeys, token: &str, new: &str) -> ServiceResult<()> {
    let (id, mac) = token.split_once('-').ok_or_else(bad_link)?;
    let id: i64 = id.parse().map_err(|_| bad_link())?;
    let row = db.read(|c| store::reset(c, id))?.ok_or_else(bad_link)?;
    if !keys.mac_matches(&mac_message(&row), mac) || row.token_hash != sha256_hex(token) {
        return Err(bad_link());
    }
    check_password(new)?;
    let new_hash = hash(new)?;
    let now = db.now();
    db.write(|c| {
        // Every link of the account is spent in the same transaction: two used at the same
        // moment take turns on the account's lock (rather than on each other's rows).
        locks::lock(c, Subject::Player(row.user_id))?;
        if !store::use_reset(c, row.id, row.user_id, now)? {
            return Err(bad_link());
        }
        store::set_password_hash(c, row.user_id, &new_hash)?;
        account_store::revoke_sessions(c, row.user_id, None, now)?;
        queue(c, row.user_id, &Notice::PasswordChanged, now)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: i64, user_id: i64) -> store::ResetRow {
        store::ResetRow {
            id,
            user_id,
            token_hash: String::new(),
            created_at: 1_700_000_000_000,
            expires_at: 1_700_003_600_000,
            used_at: None,
        }
    }

    #[test]
    fn a_reset_token_is_bound_to_its_row_and_the_key() {
        let keys = TokenKeys::new(b"a secret of the server");
        let token = token_of(&keys, &row(7, 3));
        let (id, mac) = token.split_once('-').unwrap();
        assert_eq!(id, "7");
        assert!(keys.mac_matches(&mac_message(&row(7, 3)), mac));
        // Another row, another account or another key: refused.
        assert!(!keys.mac_matches(&mac_message(&row(8, 3)), mac));
        assert!(!keys.mac_matches(&mac_message(&row(7, 4)), mac));
        assert!(!TokenKeys::new(b"another key").mac_matches(&mac_message(&row(7, 3)), mac));
        assert!(!keys.mac_matches(&mac_message(&row(7, 3)), "not hex"));
    }
}
