//! Deleting an account, for good, from a signed-in session with the password (and a code when
//! two-factor sign-in is on):
//!
//! 1. the player leaves the open games they sit at and resigns the games in progress (with 3 or
//!    4 players the stand-in bot takes the seat and the others play on, as after a time-out);
//! 2. in one transaction, everything that is theirs alone is erased (address and email settings,
//!    sessions, tokens, webhooks, push devices, notifications, vacations, two-factor, password
//!    resets, invitations, ratings: they leave the leaderboards, review accuracies), the user row is renamed to a
//!    placeholder (`deleted-` and ten hex digits, a name nobody can register) and its password
//!    made unusable, and a goodbye is queued to the confirmed address;
//! 3. the former name is renamed to the placeholder wherever a stored text carries it: the
//!    games' event logs (live and packed), other players' notifications and deliveries, stored
//!    answers. `account_erasures` holds the renaming while it runs, so that the maintenance
//!    worker finishes one that a crash interrupted.
//!
//! Finished games keep their records and results under the placeholder, so the other players'
//! histories stay true. The former name is held for [`NAME_HELD_MS`] (a keyed hash of it on the
//! user row, never the name) so that nobody takes it at once to impersonate the player.

use crate::storage::locks::{self, Subject};
use serde_json::Value;

use super::{reauthenticated, Caller, TokenKeys};
use crate::engine::RuleError;
use crate::ratings::RatingParameters;
use crate::service::notify::notifications::{queue, Notice};
use crate::service::play::{decisions, lobby};
use crate::service::{random_hex, ServiceError, ServiceResult};
use crate::storage::erasures::{self as store, ErasureRow};
use crate::storage::{games as game_store, logs, mail as mail_store};
use crate::storage::{Database, StorageError};

/// A deleted account's name cannot be registered for this long: 30 days.
pub const NAME_HELD_MS: i64 = 30 * 24 * 3600 * 1000;
/// A renaming is one instance's for this long; after, the maintenance worker takes it over.
const ERASURE_LEASE_MS: i64 = 10 * 60 * 1000;
/// Packed logs rewritten per transaction.
const ARCHIVES_PER_WRITE: i64 = 200;
/// Deleted accounts' placeholders start with this; no one may register such a name.
pub const PLACEHOLDER_PREFIX: &str = "deleted-";

/// The keyed hash under which a former name is held (its case does not matter).
pub(super) fn held_name_mac(keys: &TokenKeys, name: &str) -> String {
    keys.mac_hex(&format!("held-name:{}", name.to_ascii_lowercase()))
}

/// Delete the caller's account. Only a signed-in session may, with the password, and a code
/// (or a recovery code) when two-factor sign-in is on.
pub fn delete(
    db: &Database,
    keys: &TokenKeys,
    caller: &Caller,
    password: &str,
    code: Option<&str>,
    ratings: &RatingParameters,
) -> ServiceResult<()> {
    let user = reauthenticated(
        db,
        keys,
        caller,
        password,
        code,
        "an account is deleted from a signed-in session, not with a token",
    )?;
    leave_every_game(db, caller, ratings)?;
    let now = db.now();
    let erasure = ErasureRow {
        user_id: user.id,
        former_name: user.name.clone(),
        placeholder: String::new(),
        started_at: now,
        claimed_until: now + ERASURE_LEASE_MS,
    };
    let held = held_name_mac(keys, &user.name);
    let mut attempts = 0;
    let erasure = loop {
        let placeholder = format!("{PLACEHOLDER_PREFIX}{}", random_hex(5)?);
        let row = ErasureRow {
            placeholder,
            ..erasure.clone()
        };
        let done = db.write(|c| {
            // A second deletion at the same moment waits here, then finds the account gone.
            locks::lock(c, Subject::Player(user.id))?;
            let goodbye = mail_store::settings(c, user.id)?.and_then(|s| {
                let confirmed = s.verified_at.is_some() && s.bounced_at.is_none();
                s.email
                    .filter(|_| confirmed)
                    .map(|email| Notice::AccountDeleted {
                        email,
                        language: s.language,
                    })
            });
            store::erase_personal_rows(c, user.id)?;
            // Off the ladders; out of events not started; withdrawn from those running (the
            // entries and results stay, under the placeholder, as the games do).
            crate::storage::ladders::erase_user(c, user.id)?;
            crate::storage::events::withdraw_user(c, user.id, now)?;
            if !store::mark_deleted(c, user.id, &row.placeholder, &held, now)? {
                // What any request of the account's gets after its deletion.
                return Err(ServiceError::Unauthorized("signed out"));
            }
            store::insert_erasure(c, &row)?;
            if let Some(goodbye) = goodbye {
                queue(c, user.id, &goodbye, now)?;
            }
            Ok::<_, ServiceError>(())
        });
        match done {
            Ok(()) => break row,
            // The placeholder was taken (one chance in a trillion): draw another.
            Err(ServiceError::Storage(StorageError::Conflict)) if attempts < 3 => attempts += 1,
            Err(e) => return Err(e),
        }
    };
    rename_everywhere(db, &erasure)?;
    tracing::info!(user = user.id, "account deleted");
    Ok(())
}

/// Leave the open games and resign the games in progress. A seat already retired, a game that
/// ended meanwhile, and a seat whose deadline has just passed (the clock times it out) need
/// nothing more.
pub(crate) fn leave_every_game(
    db: &Database,
    caller: &Caller,
    ratings: &RatingParameters,
) -> ServiceResult<()> {
    // A game may start between the listing and the leaving: then it is resigned in the next round.
    for _ in 0..3 {
        let open = db.read(|c| game_store::open_games_of(c, caller.user_id))?;
        let active = db.read(|c| game_store::active_seats_of(c, caller.user_id))?;
        let mut busy = false;
        for game_id in open {
            match lobby::leave(db, caller, game_id) {
                Ok(_) => {}
                Err(ServiceError::Conflict { .. }) => busy = true,
                // Left meanwhile (a deletion at the same moment).
                Err(ServiceError::Forbidden {
                    code: "not_seated", ..
                }) => {}
                Err(e) => return Err(e),
            }
        }
        for (game, _) in active {
            match decisions::resign(db, caller, game.id, ratings) {
                Ok(_) => {}
                Err(ServiceError::Rule(RuleError::SeatRetired { .. } | RuleError::GameOver)) => {}
                Err(ServiceError::Conflict {
                    code: "deadline_passed",
                    ..
                }) => {}
                Err(e) => return Err(e),
            }
        }
        if !busy {
            return Ok(());
        }
    }
    Err(ServiceError::conflict(
        "busy",
        "your games keep changing: try again",
    ))
}

/// Rename the former name to the placeholder in every stored text, then drop the erasure row.
fn rename_everywhere(db: &Database, erasure: &ErasureRow) -> ServiceResult<()> {
    let (old, new) = (erasure.former_name.as_str(), erasure.placeholder.as_str());
    let rewrite = |text: &str| renamed(text, old, new);
    db.write(|c| {
        store::rename_in_events(c, old, &rewrite)?;
        store::rename_in_messages(c, old, &rewrite)
    })?;
    // Packed logs cannot be searched: each is opened. (A game the player left before it began
    // carries the name in its log without a seat to find it by.)
    let mut after = 0;
    loop {
        let games = db.read(|c| store::archived_games_after(c, after, ARCHIVES_PER_WRITE))?;
        let Some(&last) = games.last() else { break };
        db.write(|c| {
            for &game_id in &games {
                logs::rewrite_archive(c, game_id, &rewrite)?;
            }
            Ok::<_, StorageError>(())
        })?;
        after = last;
    }
    // Logs packed while the live ones were renamed were renamed before they were packed.
    db.write(|c| store::finish_erasure(c, erasure.user_id))?;
    Ok(())
}

/// Finish the renamings a stopped instance left (the maintenance worker), and free the names held
/// longer than [`NAME_HELD_MS`]. Returns how many renamings were finished.
pub fn finish_interrupted(db: &Database, now: i64) -> ServiceResult<usize> {
    let claimed = db.write(|c| store::claim_erasures(c, now, now + ERASURE_LEASE_MS))?;
    for erasure in &claimed {
        rename_everywhere(db, erasure)?;
    }
    db.write(|c| store::release_held_names(c, now - NAME_HELD_MS))?;
    Ok(claimed.len())
}

/// `text` (JSON) with every name `old` under a `by` or `user` key, the only keys that hold user
/// names in events, notices and stored answers, renamed to `new`; `None` when none is there.
fn renamed(text: &str, old: &str, new: &str) -> Option<String> {
    fn walk(value: &mut Value, old: &str, new: &str) -> bool {
        match value {
            Value::Object(map) => {
                let mut changed = false;
                for (key, v) in map.iter_mut() {
                    let is_old = v.as_str().is_some_and(|s| s.eq_ignore_ascii_case(old));
                    if matches!(key.as_str(), "by" | "user") && is_old {
                        *v = Value::String(new.to_string());
                        changed = true;
                    } else {
                        changed |= walk(v, old, new);
                    }
                }
                changed
            }
            Value::Array(items) => items
                .iter_mut()
                .fold(false, |changed, v| walk(v, old, new) | changed),
            _ => false,
        }
    }
    let mut value: Value = serde_json::from_str(text).ok()?;
    walk(&mut value, old, new)
        .then(|| serde_json::to_string(&value).ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_under_by_and_user_are_renamed() {
        // A player called "blue" must not rename the colour of a card.
        let event = r#"{"decided":{"seat":0,"decision":{"kind":"play","color":"blue"}}}"#;
        assert_eq!(renamed(event, "blue", "deleted-1"), None);
        let joined = r#"{"joined":{"seat":1,"user":"blue"}}"#;
        assert_eq!(
            renamed(joined, "blue", "deleted-1").as_deref(),
            Some(r#"{"joined":{"seat":1,"user":"deleted-1"}}"#)
        );
        let answer = r#"{"seats":[{"seat":0,"user":"ann","is_bot":false},{"seat":1,"user":"blue","is_bot":false}],"by":"blue"}"#;
        let out: Value = serde_json::from_str(&renamed(answer, "blue", "x").unwrap()).unwrap();
        assert_eq!(out["seats"][0]["user"], "ann");
        assert_eq!(out["seats"][1]["user"], "x");
        assert_eq!(out["by"], "x");
        assert_eq!(renamed("not json", "blue", "x"), None);
        // Names are one whatever their case.
        assert_eq!(
            renamed(r#"{"user":"Blue"}"#, "blue", "x").as_deref(),
            Some(r#"{"user":"x"}"#)
        );
    }
}
